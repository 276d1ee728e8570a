package scenarios

import (
	"context"
	"fmt"

	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/wire"
)

// Task is the scenario as a job for a simulated agent, at the scenario's
// own revision. The informed agent meets the good style, the naive agent
// the scenario's main bad style (or good when it offers none).
func (s *Scenario) Task() agent.Task {
	rev := s.Revision()
	naive := s.BadStyle()
	if naive == "" {
		naive = mockserver.StyleGood
	}
	return agent.Task{
		ID:              s.ID,
		Call:            s.Call,
		Correction:      s.Correction,
		CustomerMessage: s.CustomerMessage,
		Truth:           s.SituationAt(rev),
		NaiveStyle:      naive,
		Open: func(ctx context.Context, style mockserver.Style) (*wire.Session, error) {
			return s.Open(ctx, style, rev)
		},
	}
}

// Delegation is the scenario as a subagent job: gather the customer and
// the order, with the scenario's fault injected into its tool. Only
// scenarios whose call is get_customer or lookup_order can be delegated.
func (s *Scenario) Delegation() (agent.Delegation, error) {
	d := agent.Delegation{ID: s.ID, CustomerID: "C-1001", OrderID: "ORD-4471", Corrections: map[string]map[string]any{}}
	arg := func(k string) string { v, _ := s.Call.Arguments[k].(string); return v }
	switch s.Call.Tool {
	case "get_customer":
		d.CustomerID = arg("customer_id")
	case "lookup_order":
		d.OrderID = arg("order_id")
	default:
		return d, fmt.Errorf("scenario %s calls %s; the subagent holds only get_customer and lookup_order, so pick a scenario that calls one of those", s.ID, orRaw(s))
	}
	if s.Correction != nil {
		d.Corrections[s.Call.Tool] = s.Correction
	}
	rev := s.Revision()
	d.Open = func(ctx context.Context, style mockserver.Style) (*wire.Session, error) {
		return s.Open(ctx, style, rev)
	}
	return d, nil
}

func orRaw(s *Scenario) string {
	if s.Call.Raw != "" {
		return "hand-written bytes"
	}
	return s.Call.Tool
}

// Series is a built-in run of several scenarios in a row.
type Series struct {
	ID    string
	Title string
	IDs   []string
}

// Afternoon is the lessons' "four failures, one afternoon": a timeout that
// works on the second try, a malformed order id, a refund outside the
// return window, and a staff record the agent may not read.
var Afternoon = Series{
	ID:    "four-failures",
	Title: "Four failures, one afternoon",
	IDs:   []string{"timeout-second-try", "bad-order-id-inferable", "refund-past-return-window", "staff-record-denied"},
}

// SeriesTasks returns the tasks of a built-in series by id.
func (c *Catalog) SeriesTasks(id string) (Series, []agent.Task, error) {
	if id != Afternoon.ID {
		return Series{}, nil, fmt.Errorf("no series %q", id)
	}
	var tasks []agent.Task
	for _, sid := range Afternoon.IDs {
		s, found := c.Get(sid)
		if !found {
			return Afternoon, nil, fmt.Errorf("series %s needs scenario %s, which is not in the catalogue", id, sid)
		}
		tasks = append(tasks, s.Task())
	}
	return Afternoon, tasks, nil
}
