package scenarios

import (
	"context"
	"fmt"
	"strings"

	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// Task is the scenario as a job for a simulated agent, at the scenario's
// own revision. The informed agent meets the good style, the naive agent
// the scenario's main bad style (or good when it offers none).
func (s *Scenario) Task() agent.Task { return s.TaskAt(s.Revision()) }

// TaskAt is Task under a given spec revision.
func (s *Scenario) TaskAt(rev rules.Revision) agent.Task {
	naive := s.BadStyle()
	if naive == "" {
		naive = mockserver.StyleGood
	}
	return agent.Task{
		ID:              s.ID,
		Call:            s.Call,
		Correction:      s.Correction,
		CustomerMessage: strings.TrimSpace(s.CustomerMessage),
		Truth:           s.SituationAt(rev),
		NaiveStyle:      naive,
		Open: func(ctx context.Context, style mockserver.Style) (*wire.Session, error) {
			return s.Open(ctx, style, rev)
		},
	}
}

// Delegation is the scenario as a subagent job: gather the customer's
// record and the scenario's lookup, with the scenario's fault injected
// into its tool. The lessons' case is get_customer plus lookup_order
// ("everything about customer X and order Y"); any read-only tool may
// stand in for the second (a ticket search, a customer lookup). Scenarios
// whose call changes something (a refund, an escalation) or is
// hand-written cannot be delegated.
func (s *Scenario) Delegation() (agent.Delegation, error) {
	return s.DelegationAt(s.Revision())
}

// DelegationAt is Delegation under a given spec revision.
func (s *Scenario) DelegationAt(rev rules.Revision) (agent.Delegation, error) {
	d := agent.Delegation{ID: s.ID, Corrections: map[string]map[string]any{}}
	if s.Call.Raw != "" || !mockserver.ReadOnly(s.Call.Tool) {
		return d, fmt.Errorf("scenario %s calls %s; a subagent gathers information with read-only tools (get_customer, lookup_order, customer_lookup, search_support_tickets), so pick a scenario that calls one of those", s.ID, orRaw(s))
	}
	customer := wire.Call{Tool: "get_customer", Arguments: map[string]any{"customer_id": "C-1001"}}
	order := wire.Call{Tool: "lookup_order", Arguments: map[string]any{"order_id": "ORD-4471"}}
	switch s.Call.Tool {
	case "get_customer":
		d.Jobs = []wire.Call{s.Call, order}
	default:
		d.Jobs = []wire.Call{customer, s.Call}
	}
	if s.Correction != nil {
		d.Corrections[s.Call.Tool] = s.Correction
	}
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
