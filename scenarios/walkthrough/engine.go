package walkthrough

import (
	"context"
	"fmt"
	"strings"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// scenarioOf returns the step's scenario from cat.
func (st *Step) scenarioOf(cat *scenarios.Catalog) (*scenarios.Scenario, error) {
	s, ok := cat.Get(st.Scenario)
	if !ok {
		return nil, fmt.Errorf("the %s step names scenario %q, which the catalogue does not hold", st.Kind, st.Scenario)
	}
	return s, nil
}

// Exchange makes a live_call step's call, on a fresh mock server: the
// exact bytes the lab shows for that scenario, style and revision.
func (st *Step) Exchange(ctx context.Context, cat *scenarios.Catalog) (wire.Exchange, error) {
	if st.Kind != KindLiveCall {
		return wire.Exchange{}, fmt.Errorf("a %s step makes no single call", st.Kind)
	}
	s, err := st.scenarioOf(cat)
	if err != nil {
		return wire.Exchange{}, err
	}
	return s.Exchange(ctx, st.Style, st.Revision)
}

// Pair makes a compare step's call twice, each on a fresh mock server:
// once in the bad style and once in the good one.
func (st *Step) Pair(ctx context.Context, cat *scenarios.Catalog) (bad, good wire.Exchange, err error) {
	if st.Kind != KindCompare {
		return bad, good, fmt.Errorf("a %s step compares nothing", st.Kind)
	}
	s, err := st.scenarioOf(cat)
	if err != nil {
		return bad, good, err
	}
	if bad, err = s.Exchange(ctx, st.Bad, st.Revision); err != nil {
		return bad, good, err
	}
	good, err = s.Exchange(ctx, mockserver.StyleGood, st.Revision)
	return bad, good, err
}

// AgentRuns is what an agents step plays: the naive and the informed
// agent on the same task, or (with coordinator) a subagent's run and its
// report to the coordinator.
type AgentRuns struct {
	Naive, Informed *agent.Run
	Coordinator     *agent.CoordinatorRun
}

// Play runs an agents step's agents on the virtual clock: every call is a
// real tools/call to a fresh mock server.
func (st *Step) Play(ctx context.Context, cat *scenarios.Catalog) (*AgentRuns, error) {
	if st.Kind != KindAgents {
		return nil, fmt.Errorf("a %s step plays no agents", st.Kind)
	}
	if st.Scenario == scenarios.Afternoon.ID {
		_, tasks, err := cat.SeriesTasks(st.Scenario)
		if err != nil {
			return nil, err
		}
		var out AgentRuns
		if out.Naive, err = agent.PlaySeries(ctx, st.Scenario, tasks, agent.Naive); err != nil {
			return nil, err
		}
		out.Informed, err = agent.PlaySeries(ctx, st.Scenario, tasks, agent.Informed)
		return &out, err
	}
	s, err := st.scenarioOf(cat)
	if err != nil {
		return nil, err
	}
	if st.Coordinator {
		d, err := s.DelegationAt(st.Revision)
		if err != nil {
			return nil, err
		}
		cr, err := agent.Delegate(ctx, d)
		return &AgentRuns{Coordinator: cr}, err
	}
	task := s.TaskAt(st.Revision)
	var out AgentRuns
	if out.Naive, err = agent.Play(ctx, task, agent.Naive); err != nil {
		return nil, err
	}
	out.Informed, err = agent.Play(ctx, task, agent.Informed)
	return &out, err
}

// Ask returns a question step's question: the bank's, or the inline one.
func (st *Step) Ask(bank *quiz.Bank) (*quiz.Question, error) {
	if st.Kind != KindQuestion {
		return nil, fmt.Errorf("a %s step asks nothing", st.Kind)
	}
	if st.Inline != nil {
		return st.Inline, nil
	}
	q, ok := bank.Get(st.Question)
	if !ok {
		return nil, fmt.Errorf("question %q is not in the bank", st.Question)
	}
	return q, nil
}

// Check compares a step's expect (and expectBad) with what the engine
// really does, and returns one sentence per disagreement, with the field
// it concerns ("expect" or "expectBad"); none when they agree or the step
// claims nothing.
func (st *Step) Check(ctx context.Context, cat *scenarios.Catalog) ([]Disagreement, error) {
	var out []Disagreement
	add := func(field, what string, e *Expect, ex wire.Exchange) error {
		if e == nil {
			return nil
		}
		cl, err := ex.Classify()
		if err != nil {
			return fmt.Errorf("the response is unreadable: %w", err)
		}
		if d := e.diffResponse(cl); d != "" {
			out = append(out, Disagreement{Field: field, Msg: fmt.Sprintf("under %s %s %s", st.Revision, what, d)})
		}
		return nil
	}
	switch st.Kind {
	case KindLiveCall:
		if st.Expect == nil {
			return nil, nil
		}
		ex, err := st.Exchange(ctx, cat)
		if err != nil {
			return nil, err
		}
		err = add("expect", fmt.Sprintf("the %s response", st.Style), st.Expect, ex)
		return out, err
	case KindCompare:
		if st.Expect == nil && st.ExpectBad == nil {
			return nil, nil
		}
		bad, good, err := st.Pair(ctx, cat)
		if err != nil {
			return nil, err
		}
		if err := add("expect", "the good response", st.Expect, good); err != nil {
			return nil, err
		}
		err = add("expectBad", fmt.Sprintf("the %s response", st.Bad), st.ExpectBad, bad)
		return out, err
	case KindAgents:
		if st.Expect == nil {
			return nil, nil
		}
		runs, err := st.Play(ctx, cat)
		if err != nil {
			return nil, err
		}
		if d := st.Expect.diffAgents(runs); d != "" {
			out = append(out, Disagreement{Field: "expect", Msg: d})
		}
	}
	return out, nil
}

// Disagreement is one claim of a step the engine contradicts.
type Disagreement struct {
	Field string // "expect" or "expectBad"
	Msg   string
}

// diffResponse describes how a response's classification differs from
// the claim, or "" when it agrees.
func (e *Expect) diffResponse(got rules.Classification) string {
	var d []string
	if got.Layer != e.Layer {
		d = append(d, fmt.Sprintf("is on the %s layer, not %s", got.Layer, e.Layer))
	}
	if e.ProtocolCode != 0 && got.ProtocolCode != e.ProtocolCode {
		d = append(d, fmt.Sprintf("has code %d, not %d", got.ProtocolCode, e.ProtocolCode))
	}
	if got.ErrorCategory != e.ErrorCategory {
		d = append(d, fmt.Sprintf("has errorCategory %s, not %s", orNone(string(got.ErrorCategory)), orNone(string(e.ErrorCategory))))
	}
	if e.IsRetryable != nil && (got.IsRetryable == nil || *got.IsRetryable != *e.IsRetryable) {
		have := "no isRetryable"
		if got.IsRetryable != nil {
			have = fmt.Sprintf("isRetryable %v", *got.IsRetryable)
		}
		d = append(d, fmt.Sprintf("has %s, not %v", have, *e.IsRetryable))
	}
	if got.Empty != e.Empty {
		d = append(d, fmt.Sprintf("has empty %v, not %v", got.Empty, e.Empty))
	}
	return strings.Join(d, "; ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// diffAgents describes how the runs differ from the claim.
func (e *Expect) diffAgents(r *AgentRuns) string {
	var d []string
	if r.Naive != nil && e.NaiveCalls != 0 && r.Naive.Calls != e.NaiveCalls {
		d = append(d, fmt.Sprintf("the naive agent makes %d calls, not %d", r.Naive.Calls, e.NaiveCalls))
	}
	if r.Informed != nil && e.InformedCalls != 0 && r.Informed.Calls != e.InformedCalls {
		d = append(d, fmt.Sprintf("the informed agent makes %d calls, not %d", r.Informed.Calls, e.InformedCalls))
	}
	if c := r.Coordinator; c != nil {
		if e.Status != "" && c.Report.Status != e.Status {
			d = append(d, fmt.Sprintf("the subagent's report is %s, not %s", c.Report.Status, e.Status))
		}
		if e.CoordinatorAction != "" && c.CoordinatorAction != e.CoordinatorAction {
			d = append(d, fmt.Sprintf("the coordinator chooses %s, not %s", orNone(string(c.CoordinatorAction)), e.CoordinatorAction))
		}
	}
	return strings.Join(d, "; ")
}

// engine checks every claim of a structurally sound walkthrough against
// the engine.
func (c *checker) engine(w *Walkthrough) {
	ctx := context.Background()
	for i, st := range w.Steps {
		p := fmt.Sprintf("$.steps[%d]", i)
		ds, err := st.Check(ctx, c.cat)
		if err != nil {
			c.bad(p+".scenario", "the step could not run: %v", err)
			continue
		}
		for _, d := range ds {
			c.bad(p+"."+d.Field, "the engine disagrees: %s", d.Msg)
		}
	}
}
