package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/serve"
)

// fakeClock is the server's clock in these tests: agents advance it
// instead of sleeping, so a 4 s backoff costs nothing.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Sleep(seconds float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Duration(seconds * float64(time.Second)))
}

// task is one thing an agent is asked to do: a call, and the corrected
// arguments when the right input can be worked out.
type task struct {
	tool       string
	args       map[string]any
	correction map[string]any
}

// afternoon is a support shift: a timeout that works on the resend, a
// rate limit, a refusal past the return window, a malformed order id, a
// search with no hits, a staff record, and a customer database that stays
// down.
var afternoon = []task{
	{"lookup_order", map[string]any{"order_id": "ORD-4471", "failure_mode": "timeout"}, nil},
	{"search_support_tickets", map[string]any{"query": "headphones", "failure_mode": "rate_limit"}, nil},
	{"process_refund", map[string]any{"order_id": "ORD-4471", "amount": 189.0, "confirmedByUser": true}, nil},
	{"lookup_order", map[string]any{"order_id": "ORD-4471x"}, map[string]any{"order_id": "ORD-4471"}},
	{"search_support_tickets", map[string]any{"query": "gift card balance"}, nil},
	{"get_customer", map[string]any{"customer_id": "C-1002"}, nil},
	{"customer_lookup", map[string]any{"identifier": "C-1001", "failure_mode": "transient"}, nil},
}

// outcome reads a result as an agent would: failed (isError, or a
// protocol error), empty (resultCount 0), and the metadata.
type outcome struct {
	failed, empty bool
	category      string
	retryAfter    float64
}

func call(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) outcome {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return outcome{failed: true}
	}
	var sc struct {
		ErrorCategory     string   `json:"errorCategory"`
		RetryAfterSeconds float64  `json:"retryAfterSeconds"`
		ResultCount       *float64 `json:"resultCount"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &sc)
	return outcome{failed: res.IsError, empty: sc.ResultCount != nil && *sc.ResultCount == 0, category: sc.ErrorCategory, retryAfter: sc.RetryAfterSeconds}
}

// naive resends every failure, an empty result included, three times
// after 0.2 s, reading nothing.
func naive(t *testing.T, cs *sdk.ClientSession, clock *fakeClock) {
	for _, tk := range afternoon {
		o := call(t, cs, tk.tool, tk.args)
		for tries := 0; (o.failed || o.empty) && tries < 3; tries++ {
			clock.Sleep(0.2)
			o = call(t, cs, tk.tool, tk.args)
		}
	}
}

// informed follows the lesson rules from the metadata: transient is
// resent after the backoff (or retryAfterSeconds), at most 3 times, then
// escalated; validation is corrected; permission is escalated; business
// and empty results end the task.
func informed(t *testing.T, cs *sdk.ClientSession, clock *fakeClock) {
	escalate := func(summary string) {
		call(t, cs, "escalate_to_human", map[string]any{"summary": summary, "reason": "other"})
	}
	for _, tk := range afternoon {
		o := call(t, cs, tk.tool, tk.args)
		for resend := 1; o.failed && o.category == "transient"; resend++ {
			if resend > rules.MaxRetries {
				escalate("The customer database stayed unreachable after three resends; please follow up.")
				break
			}
			clock.Sleep(rules.BackoffSeconds(resend, o.retryAfter))
			o = call(t, cs, tk.tool, tk.args)
		}
		switch {
		case o.failed && o.category == "validation" && tk.correction != nil:
			call(t, cs, tk.tool, tk.correction)
		case o.failed && o.category == "permission":
			escalate("A staff record needs a team lead with staff-records access.")
		}
	}
}

// TestReportCardsOfNaiveAndInformedClients: two go-sdk clients play the
// same afternoon against one server; the naive one's card shows resends
// of refusals, too-short waits and wasted calls, the informed one's card
// is all best moves with the waits of the backoff.
func TestReportCardsOfNaiveAndInformedClients(t *testing.T) {
	clock := newFakeClock()
	url, srv := httpServer(t, serve.Config{FailureModes: true, Now: clock.Now})
	play := func(name string, agent func(*testing.T, *sdk.ClientSession, *fakeClock)) {
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: url}, name, "2025-11-25")
		agent(t, cs, clock)
		if err := cs.Close(); err != nil {
			t.Fatalf("%s: close: %v", name, err)
		}
	}
	play("naive-agent", naive)
	play("informed-agent", informed)
	report := srv.Finish()
	cards := map[string]serve.Card{}
	for _, c := range report.Sessions {
		cards[strings.Fields(c.Client)[0]] = c
	}
	nv, inf := cards["naive-agent"], cards["informed-agent"]

	// The one acceptable: after the refund refusal the informed agent moves
	// on to its next task, which the server cannot tell from an
	// explanation (finding 4: another tool is not read as best).
	if inf.Wrong != 0 || inf.Wasted != 0 || inf.Acceptable != 1 || inf.Best != len(inf.Entries)-1 || len(inf.Entries) != 10 {
		t.Errorf("informed card: %s", inf.Summary())
		for _, e := range inf.Entries {
			t.Logf("  #%d %s %s → %s: %s %s (%s)", e.Seq, e.Tool, e.Served, e.Reading, e.Grade, e.Action, e.Why)
		}
	}
	if got := inf.Waits; !equalWaits(got, []float64{1, 5, 1, 2, 4}) {
		t.Errorf("informed waits %v, want the backoff 1, 5 (retryAfterSeconds), 1, 2, 4", got)
	}
	if nv.Wasted < 15 || nv.Wrong <= nv.Best || nv.Pending != 0 {
		t.Errorf("naive card: %s", nv.Summary())
	}
	moves := map[string]int{}
	for _, e := range nv.Entries {
		moves[e.Tool+" "+string(e.Truth.ErrorCategory)+" "+string(e.Move)+" "+string(e.Grade)]++
		if e.Move == rules.MoveResend && e.Truth.ErrorCategory == rules.Business && (e.RuleID != rules.RuleRetryableMeaning || !e.Wasted) {
			t.Errorf("a resent business refusal: rule %s, wasted %v", e.RuleID, e.Wasted)
		}
	}
	for want, n := range map[string]int{
		"process_refund business resend wrong":                   3,
		"search_support_tickets transient resend wrong":          3, // before retryAfterSeconds
		"lookup_order transient resend acceptable":               1, // 0.2 s instead of 1 s
		"get_customer permission resend wrong":                   3,
		"search_support_tickets  resend wrong":                   3, // an empty result resent
		"customer_lookup transient stop acceptable":              1, // the cap spent, then nothing
		"customer_lookup transient resend acceptable":            3,
		"lookup_order validation resend wrong":                   3,
		"get_customer permission other_tool wrong":               1,
		"process_refund business other_tool acceptable":          1,
		"search_support_tickets transient other_tool acceptable": 1,
	} {
		if moves[want] != n {
			t.Errorf("naive: %d × %q, want %d (all: %v)", moves[want], want, n, moves)
		}
	}

	var md, js bytes.Buffer
	if err := report.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## naive-agent 1.0", "## informed-agent 1.0", "✗ wrong (retry_same; best explain_alternative)", "resent the same call after 0.2 s (wasted)", "§2 What isRetryable means", "Waits before resends: 1.0 s, 5.0 s, 1.0 s, 2.0 s, 4.0 s."} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown report lacks %q:\n%s", want, md.String())
		}
	}
	var back serve.Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Sessions) != 2 || back.Sessions[0].Wasted != nv.Wasted {
		t.Errorf("the JSON report does not read back (%v): %d sessions", err, len(back.Sessions))
	}
}

func equalWaits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] < b[i]-0.01 || a[i] > b[i]+0.01 {
			return false
		}
	}
	return true
}
