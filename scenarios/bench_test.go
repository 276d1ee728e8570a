package scenarios_test

import (
	"context"
	"testing"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/wire"
)

func benchCatalog(b *testing.B) *scenarios.Catalog {
	b.Helper()
	c, err := scenarios.Default()
	if err != nil {
		b.Fatalf("the built-in scenarios do not load:\n%v", err)
	}
	return c
}

// BenchmarkExchange measures what the lab does when a learner opens a
// scenario or switches style: a fresh server, the revision's handshake,
// tools/list and the scenario's call, in the good style. Target: 100 µs.
func BenchmarkExchange(b *testing.B) {
	ctx := context.Background()
	for _, s := range benchCatalog(b).Scenarios {
		b.Run(s.ID, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Exchange(ctx, mockserver.StyleGood, s.Revision()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCall measures one Session.Call on an already open in-process
// session. The session is replaced, with the timer stopped, every
// callsPerSession calls so its transcript stays small; a scenario whose
// fault clears on a later attempt (succeedOnAttempt) is measured mostly
// on the calls after the fault cleared.
func BenchmarkCall(b *testing.B) {
	const callsPerSession = 500
	ctx := context.Background()
	for _, s := range benchCatalog(b).Scenarios {
		b.Run(s.ID, func(b *testing.B) {
			b.ReportAllocs()
			var sess *wire.Session
			open := func() {
				b.StopTimer()
				defer b.StartTimer()
				if sess != nil {
					_ = sess.Close()
				}
				var err error
				if sess, err = s.Open(ctx, mockserver.StyleGood, s.Revision()); err != nil {
					b.Fatal(err)
				}
			}
			open()
			for i := 0; i < b.N; i++ {
				if i > 0 && i%callsPerSession == 0 {
					open()
				}
				if _, err := sess.Call(ctx, s.Call); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			_ = sess.Close()
		})
	}
}
