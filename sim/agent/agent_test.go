package agent_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// task builds a task on a mock server with one fault on one tool.
func task(call wire.Call, fault mockserver.Fault, truth rules.Situation) agent.Task {
	return agent.Task{
		ID:    "test",
		Call:  call,
		Truth: truth,
		Open: func(ctx context.Context, style mockserver.Style) (*wire.Session, error) {
			opts := mockserver.Options{Style: style}
			if fault.Kind != "" {
				opts.Faults = map[string]mockserver.Fault{call.Tool: fault}
			}
			return wire.Open(ctx, mockserver.New(opts), rules.DefaultRevision)
		},
		NaiveStyle: mockserver.StyleGeneric,
	}
}

var lookup = wire.Call{Tool: "lookup_order", Arguments: map[string]any{"order_id": "ORD-4471"}}

func play(t *testing.T, tk agent.Task, k agent.Kind) *agent.Run {
	t.Helper()
	r, err := agent.Play(context.Background(), tk, k)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func waits(r *agent.Run) []float64 {
	var out []float64
	for _, s := range r.Steps {
		if s.Kind == agent.StepWait {
			out = append(out, s.Seconds)
		}
	}
	return out
}

func calls(r *agent.Run, tool string) int {
	n := 0
	for _, s := range r.Steps {
		if (s.Kind == agent.StepCall || s.Kind == agent.StepEscalate) && s.Tool == tool {
			n++
		}
	}
	return n
}

func TestInformedRetriesTransientWith124AndACap(t *testing.T) {
	r := play(t, task(lookup, mockserver.Fault{Kind: mockserver.FaultTimeout}, rules.Situation{Layer: rules.LayerExecution, Category: rules.Transient}), agent.Informed)
	if got := waits(r); !slices.Equal(got, []float64{1, 2, 4}) {
		t.Fatalf("waits %v, want exactly 1, 2, 4 seconds", got)
	}
	if n := calls(r, "lookup_order"); n != 1+rules.MaxRetries {
		t.Fatalf("%d lookup_order calls; the cap allows the first call and %d resends", n, rules.MaxRetries)
	}
	if calls(r, "escalate_to_human") != 1 || r.Verdict != agent.Escalated {
		t.Fatalf("after the cap the informed agent should escalate once: %s, %d escalations", r.Verdict, calls(r, "escalate_to_human"))
	}
	for _, s := range r.Steps {
		if s.Kind == agent.StepEscalate && !strings.Contains(s.Arguments["summary"].(string), "resent after waiting 1s, 2s and 4s") {
			t.Errorf("the escalation does not say what was tried: %v", s.Arguments["summary"])
		}
	}
	// Virtual time: three 0.2 s calls... 1+2+4 s of waiting, no real time.
	if r.VirtualSeconds < 7 || r.VirtualSeconds > 8.5 {
		t.Fatalf("virtual seconds %v", r.VirtualSeconds)
	}
}

func TestTransientThatWorksOnTheSecondTry(t *testing.T) {
	tk := task(lookup, mockserver.Fault{Kind: mockserver.FaultTimeout, SucceedOnAttempt: 2}, rules.Situation{Layer: rules.LayerExecution, Category: rules.Transient})
	r := play(t, tk, agent.Informed)
	if got := waits(r); !slices.Equal(got, []float64{1}) || r.Calls != 2 || r.Verdict != agent.Resolved {
		t.Fatalf("waits %v, calls %d, verdict %s: one 1 s wait, then success", got, r.Calls, r.Verdict)
	}
	if !strings.Contains(r.FinalMessage, "1 order matches ORD-4471") {
		t.Fatalf("final message: %s", r.FinalMessage)
	}
}

func TestRetryAfterOverridesTheBackoff(t *testing.T) {
	search := wire.Call{Tool: "search_support_tickets", Arguments: map[string]any{"query": "headphones crackle"}}
	tk := task(search, mockserver.Fault{Kind: mockserver.FaultRateLimit, RetryAfterSeconds: 30, SucceedOnAttempt: 2}, rules.Situation{Layer: rules.LayerExecution, Category: rules.Transient})
	r := play(t, tk, agent.Informed)
	if got := waits(r); !slices.Equal(got, []float64{30}) || r.Verdict != agent.Resolved {
		t.Fatalf("waits %v, verdict %s: the server asked for 30 s", got, r.Verdict)
	}
	// The naive agent ignores the hint: the rate limit holds in virtual
	// time, so its early resends are refused again.
	tk.NaiveStyle = mockserver.StyleGood
	n := play(t, tk, agent.Naive)
	if n.Calls <= 2 || n.Verdict != agent.Wasted {
		t.Fatalf("naive agent on a 30 s rate limit: %d calls, %s", n.Calls, n.Verdict)
	}
}

func TestBusinessErrorResentOnlyByTheNaiveAgent(t *testing.T) {
	refund := wire.Call{Tool: "process_refund", Arguments: map[string]any{"order_id": "ORD-4471", "amount": 189.0, "confirmedByUser": true}}
	tk := task(refund, mockserver.Fault{}, rules.Situation{Layer: rules.LayerExecution, Category: rules.Business})
	inf := play(t, tk, agent.Informed)
	if calls(inf, "process_refund") != 1 || len(waits(inf)) != 0 || inf.Verdict != agent.Resolved {
		t.Fatalf("informed agent resent a business refusal: %d calls, waits %v", calls(inf, "process_refund"), waits(inf))
	}
	if !strings.Contains(inf.FinalMessage, "30-day refund window") {
		t.Fatalf("the informed agent did not pass on the customerMessage: %s", inf.FinalMessage)
	}
	nai := play(t, tk, agent.Naive)
	if calls(nai, "process_refund") != 1+agent.NaiveMaxRetries || !slices.Equal(waits(nai), []float64{1, 2, 4, 8, 16}) {
		t.Fatalf("naive agent: %d calls, waits %v; want 6 calls with 1,2,4,8,16 s", calls(nai, "process_refund"), waits(nai))
	}
	if nai.Verdict != agent.Wasted || !strings.Contains(nai.FinalMessage, "something went wrong") {
		t.Fatalf("naive verdict %s, message %q", nai.Verdict, nai.FinalMessage)
	}
}

// Each category of the catalogue, for both agents: the informed agent
// never resends a non-transient failure and ends resolved or escalated;
// the naive agent resends every failure.
func TestEachCategoryForBothAgents(t *testing.T) {
	c, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, s := range c.Scenarios {
		truth := s.SituationAt(s.Revision())
		kind := truth.Kind()
		t.Run(s.ID, func(t *testing.T) {
			inf := play(t, s.Task(), agent.Informed)
			nai := play(t, s.Task(), agent.Naive)
			if inf.Verdict != agent.Resolved && inf.Verdict != agent.Escalated {
				t.Errorf("informed agent: %s (%s)", inf.Verdict, inf.Why)
			}
			if kind != "transient" && kind != "transient-exhausted" && len(waits(inf)) > 0 {
				t.Errorf("informed agent waited to resend a %s failure: %v", kind, waits(inf))
			}
			if kind == "transient" && s.Failure.SucceedOnAttempt == 0 && len(waits(inf)) != rules.MaxRetries {
				t.Errorf("a persistent transient failure got %d resends", len(waits(inf)))
			}
			switch kind {
			case "business", "validation", "permission", "protocol", "empty":
				if s.Correction == nil && nai.Verdict == agent.Resolved {
					t.Errorf("naive agent resolved a %s failure: %s", kind, nai.Why)
				}
			}
			if inf.FinalMessage == "" || nai.FinalMessage == "" {
				t.Error("a run without a final message")
			}
			if inf.Steps[len(inf.Steps)-1].To != "customer" {
				t.Error("the informed run does not end with a message to the customer")
			}
		})
		seen[kind] = true
	}
	for _, k := range []string{"transient", "validation", "business", "permission", "empty", "protocol", "confirmation"} {
		if !seen[k] {
			t.Errorf("no scenario exercises %s", k)
		}
	}
}

func TestPermissionIsEscalatedWithTheCaseAndValidationCorrected(t *testing.T) {
	c, _ := scenarios.Default()
	staff, _ := c.Get("staff-record-denied")
	r := play(t, staff.Task(), agent.Informed)
	if calls(r, "get_customer") != 1 || calls(r, "escalate_to_human") != 1 || r.Verdict != agent.Escalated {
		t.Fatalf("permission: %d get_customer, %d escalations, %s", calls(r, "get_customer"), calls(r, "escalate_to_human"), r.Verdict)
	}
	typo, _ := c.Get("bad-order-id-inferable")
	r = play(t, typo.Task(), agent.Informed)
	var args []string
	for _, s := range r.Steps {
		if s.Kind == agent.StepCall {
			args = append(args, s.Arguments["order_id"].(string))
		}
	}
	if !slices.Equal(args, []string{"ORD-4471x", "ORD-4471"}) {
		t.Fatalf("validation: calls with %v; want the typo then the corrected id, never the typo twice", args)
	}
}

func TestNaiveTakesErrorTextAsData(t *testing.T) {
	c, _ := scenarios.Default()
	s, _ := c.Get("permission-denied-as-success")
	r := play(t, s.Task(), agent.Naive)
	if r.Verdict != agent.Wrong || !strings.Contains(r.FinalMessage, "ERROR: Permission denied") {
		t.Fatalf("naive on an error sent as success: %s %q", r.Verdict, r.FinalMessage)
	}
	e, _ := c.Get("email-with-no-account")
	r = play(t, e.Task(), agent.Naive)
	if r.Verdict != agent.Wasted || r.Calls != 1+agent.NaiveMaxRetries {
		t.Fatalf("naive on a valid empty result: %s after %d calls; it treats empty as failure", r.Verdict, r.Calls)
	}
}

func TestProtocolErrorStopsTheInformedAgent(t *testing.T) {
	c, _ := scenarios.Default()
	s, _ := c.Get("unknown-tool-name")
	r := play(t, s.Task(), agent.Informed)
	if r.Calls != 1 || r.Verdict != agent.Escalated {
		t.Fatalf("protocol error: %d calls, %s", r.Calls, r.Verdict)
	}
	reported := false
	for _, st := range r.Steps {
		reported = reported || (st.Kind == agent.StepMessage && st.To == "developers" && strings.Contains(st.Text, "Client bug"))
	}
	if !reported {
		t.Fatal("the informed agent did not report a client bug")
	}
}

func TestSubagentRecoversLocallyAndReportsOnce(t *testing.T) {
	c, _ := scenarios.Default()
	blip, _ := c.Get("timeout-second-try")
	d, err := blip.Delegation()
	if err != nil {
		t.Fatal(err)
	}
	cr, err := agent.Delegate(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if cr.Report.Status != "complete" || cr.Report.Error != nil || cr.Report.Attempted != nil {
		t.Fatalf("a retry that worked reached the coordinator: %+v", cr.Report)
	}
	if len(cr.Report.PartialResults) != 2 {
		t.Fatalf("results %v", cr.Report.PartialResults)
	}

	down, _ := c.Get("subagent-order-store-down")
	d, _ = down.Delegation()
	cr, err = agent.Delegate(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	rep := cr.Report
	if rep.Status != "partial" || rep.Error == nil || rep.Error.ErrorCategory != rules.Transient || rep.Error.Tool != "lookup_order" {
		t.Fatalf("report at the cap: %+v", rep)
	}
	if _, ok := rep.PartialResults["get_customer"]; !ok {
		t.Fatal("the report lacks the profile the subagent did get")
	}
	var lookups []agent.Attempt
	for _, a := range rep.Attempted {
		if a.Tool == "lookup_order" {
			lookups = append(lookups, a)
		}
	}
	if len(lookups) != 1+rules.MaxRetries {
		t.Fatalf("attempted lists %d lookup_order tries", len(lookups))
	}
	for i := 1; i < len(lookups); i++ {
		gap := lookups[i].T - lookups[i-1].T
		want := float64(int(1)<<(i-1)) + 0.2
		if gap < want-0.01 || gap > want+0.01 {
			t.Errorf("attempt %d came %.1fs after the previous one; want %.1fs (backoff plus the call)", i+1, gap, want)
		}
	}
	reports := 0
	for _, s := range cr.Subagent.Steps {
		if s.Kind == agent.StepMessage && s.To == "coordinator" {
			reports++
			var sent agent.Report
			if err := json.Unmarshal([]byte(s.Text), &sent); err != nil || sent.Error == nil {
				t.Fatalf("the report message is not the report: %v", err)
			}
		}
	}
	if reports != 1 {
		t.Fatalf("%d reports sent upward; want exactly one", reports)
	}
	if cr.CoordinatorAction != rules.EscalateHuman {
		t.Fatalf("coordinator chose %s", cr.CoordinatorAction)
	}

	staff, _ := c.Get("staff-record-denied")
	d, _ = staff.Delegation()
	cr, _ = agent.Delegate(context.Background(), d)
	if cr.Report.Error == nil || cr.Report.Error.ErrorCategory != rules.Permission || len(cr.Report.Attempted) != 2 {
		t.Fatalf("permission in a subagent: %+v", cr.Report)
	}
}

func TestSeriesIsOneAfternoon(t *testing.T) {
	c, _ := scenarios.Default()
	_, tasks, err := c.SeriesTasks(scenarios.Afternoon.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []agent.Kind{agent.Naive, agent.Informed} {
		r, err := agent.PlaySeries(context.Background(), "four-failures", tasks, k)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Parts) != 4 {
			t.Fatalf("%s: %d parts", k, len(r.Parts))
		}
		last := -1.0
		for _, s := range r.Steps {
			if s.T < last {
				t.Fatalf("%s: the clock went backwards at %v", k, s.T)
			}
			last = s.T
		}
	}
}
