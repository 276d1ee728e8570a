package agent_test

import (
	"context"
	"testing"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
)

// BenchmarkAgentCatalog plays every built-in scenario with both agents
// (agent.Play, real tools/call on a fresh mock server each, virtual
// waits): one iteration is the whole catalogue. Target: at most 50 ms per
// iteration, so the agents screen can compute both runs when it opens.
func BenchmarkAgentCatalog(b *testing.B) {
	cat, err := scenarios.Default()
	if err != nil {
		b.Fatalf("the built-in scenarios do not load:\n%v", err)
	}
	tasks := make([]agent.Task, len(cat.Scenarios))
	for i, s := range cat.Scenarios {
		tasks[i] = s.Task()
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range tasks {
			for _, k := range []agent.Kind{agent.Naive, agent.Informed} {
				if _, err := agent.Play(ctx, t, k); err != nil {
					b.Fatalf("%s, %s agent: %v", t.ID, k, err)
				}
			}
		}
	}
	b.ReportMetric(float64(2*len(tasks)), "runs/op")
}
