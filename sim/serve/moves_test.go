package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/check"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/serve"
)

const initLines = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

func refund(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"process_refund","arguments":{"order_id":"ORD-4471","amount":189,"confirmedByUser":true}}}`+"\n", id)
}

// TestIdenticalCallsAtOnceAreResends (finding 1): four identical refund
// calls piped at once are one refusal and three resends of it, wasted,
// however the replies were timed or ordered; never four "best".
func TestIdenticalCallsAtOnceAreResends(t *testing.T) {
	for run := 0; run < 5; run++ {
		srv := serve.New(serve.Config{FailureModes: true})
		in := initLines + refund(1) + refund(2) + refund(3) + refund(4)
		if err := srv.ServeStdio(context.Background(), strings.NewReader(in), io.Discard); err != nil {
			t.Fatal(err)
		}
		c := srv.Finish().Sessions[0]
		if len(c.Entries) != 4 || c.Wasted != 3 || c.Wrong != 3 || c.Best != 1 {
			t.Fatalf("run %d: %s", run, c.Summary())
		}
		for i, e := range c.Entries {
			if e.Attempt != i+1 {
				t.Errorf("run %d: failure %d is attempt %d", run, i, e.Attempt)
			}
		}
	}
}

// stepClock is a clock tests move by hand.
type stepClock struct{ t time.Time }

func (c *stepClock) now() time.Time { return c.t }
func (c *stepClock) add(s float64) time.Time {
	c.t = c.t.Add(time.Duration(s * float64(time.Second)))
	return c.t
}

// TestRateLimitResendJudgedAsServed (finding 3): a resend 4.5 s into a
// retryAfterSeconds of 5 is refused by the server, and the card says it
// was wrong and wasted; at 5 s it gets through and is best.
func TestRateLimitResendJudgedAsServed(t *testing.T) {
	for _, c := range []struct {
		wait   float64
		grade  rules.Grade
		wasted bool
	}{{4.5, rules.GradeWrong, true}, {4.95, rules.GradeWrong, true}, {5, rules.GradeBest, false}} {
		clk := &stepClock{t: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
		srv := serve.New(serve.Config{FailureModes: true, Now: clk.now})
		pr, pw := io.Pipe()
		var out lockedBuffer
		done := make(chan error)
		go func() { done <- srv.ServeStdio(context.Background(), pr, &out) }()
		call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_support_tickets","arguments":{"query":"x","failure_mode":"rate_limit"}}}` + "\n"
		_, _ = io.WriteString(pw, initLines)
		_, _ = fmt.Fprintf(pw, call, 1)
		waitFor(t, &out, `"id":1`)
		clk.add(c.wait)
		_, _ = fmt.Fprintf(pw, call, 2)
		waitFor(t, &out, `"id":2`)
		pw.Close()
		<-done
		card := srv.Finish().Sessions[0]
		e := card.Entries[0]
		if e.Grade != c.grade || e.Wasted != c.wasted {
			t.Errorf("resend after %v s: %s wasted %v (%s), want %s wasted %v", c.wait, e.Grade, e.Wasted, e.Why, c.grade, c.wasted)
		}
	}
}

func waitFor(t *testing.T, b *lockedBuffer, s string) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if bytes.Contains(b.Bytes(), []byte(s)) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s in %s", s, b.Bytes())
}

// TestServerStopIsNotTheClientsStop (finding 6): a failure whose resend
// the server's stop cut off is pending (server stopped), not "gave up".
func TestServerStopIsNotTheClientsStop(t *testing.T) {
	clk := &stepClock{t: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
	srv := serve.New(serve.Config{FailureModes: true, Now: clk.now})
	pr, pw := io.Pipe()
	defer pw.Close()
	var out lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- srv.ServeStdio(ctx, pr, &out) }()
	_, _ = io.WriteString(pw, initLines)
	_, _ = io.WriteString(pw, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_customer","arguments":{"customer_id":"C-1001","failure_mode":"timeout"}}}`+"\n")
	waitFor(t, &out, `"id":1`)
	clk.add(2) // the client waits before its resend; the server is stopped
	cancel()
	<-done
	c := srv.Finish().Sessions[0]
	if c.Pending != 1 || c.Wrong != 0 || !c.Entries[0].CutOff {
		t.Fatalf("%s; entry %+v", c.Summary(), c.Entries[0])
	}
	var md bytes.Buffer
	_ = srv.Report().WriteMarkdown(&md)
	if !strings.Contains(md.String(), "pending (server stopped)") {
		t.Errorf("the report does not say the move was cut off:\n%s", md.String())
	}
}

// TestFollowingTheToolTextIsBest (findings 2 and 4): a client that does
// what an internal fault's and a lasting outage's own text says (resend
// with the backoff, at most 3 times, then escalate_to_human) is graded
// best at every step, and the text names that path.
func TestFollowingTheToolTextIsBest(t *testing.T) {
	for _, mode := range []string{"internal", "transient"} {
		clk := &stepClock{t: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
		srv := serve.New(serve.Config{FailureModes: true, Now: clk.now})
		pr, pw := io.Pipe()
		var out lockedBuffer
		done := make(chan error)
		go func() { done <- srv.ServeStdio(context.Background(), pr, &out) }()
		call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-4471","failure_mode":"` + mode + `"}}}` + "\n"
		_, _ = io.WriteString(pw, initLines)
		_, _ = fmt.Fprintf(pw, call, 1)
		waitFor(t, &out, `"id":1`)
		if !bytes.Contains(out.Bytes(), []byte("escalate_to_human")) || !bytes.Contains(out.Bytes(), []byte("at most 3 resends")) {
			t.Errorf("%s: the text does not name the path the rules call best: %s", mode, out.Bytes())
		}
		for i, wait := range []float64{1, 2, 4} {
			clk.add(wait)
			_, _ = fmt.Fprintf(pw, call, i+2)
			waitFor(t, &out, fmt.Sprintf(`"id":%d`, i+2))
		}
		clk.add(1)
		_, _ = io.WriteString(pw, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"escalate_to_human","arguments":{"summary":"lookup_order keeps failing; correlationId quoted","reason":"other"}}}`+"\n")
		waitFor(t, &out, `"id":9`)
		pw.Close()
		<-done
		c := srv.Finish().Sessions[0]
		if c.Best != 4 || c.Wrong+c.Acceptable != 0 {
			for _, e := range c.Entries {
				t.Logf("#%d %s → %s: %s (%s)", e.Seq, e.Served, e.Reading, e.Grade, e.Why)
			}
			t.Errorf("%s: %s", mode, c.Summary())
		}
	}
}

// TestMalformedFramesPairInTheLog (finding 8, stdio): every frame gets
// its own line in the exchange log, paired with its own answer.
func TestMalformedFramesPairInTheLog(t *testing.T) {
	var log lockedBuffer
	srv := serve.New(serve.Config{ExchangeLog: &log})
	in := `{"jsonrpc":"2.0"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":5}` + "\n" + `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n"
	if err := srv.ServeStdio(context.Background(), strings.NewReader(in), io.Discard); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log.Bytes())), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d log lines, want 3:\n%s", len(lines), log.Bytes())
	}
	for _, want := range []string{`"request":{"jsonrpc":"2.0"},"response":{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, `"request":{"jsonrpc":"2.0","id":2,"method":5},"response":{"jsonrpc":"2.0","id":2,"error":{"code":-32600`, `"id":{"a":1},"method":"ping"},"response":{"jsonrpc":"2.0","id":null,"error":{"code":-32600`} {
		if !strings.Contains(string(log.Bytes()), want) {
			t.Errorf("the log lacks %s:\n%s", want, log.Bytes())
		}
	}
}

// A 2026-07-28 client has no session id: its card is its clientInfo
// from its host. One client's calls stay on one card even when every
// request comes on a new TCP connection (as the go-sdk's often do), and two
// copies told apart by their clientInfo version get a card each.
func TestStatelessClientsAreTheirClientInfo(t *testing.T) {
	url, srv := httpServer(t, serve.Config{FailureModes: true})
	// One client, a fresh connection for every request.
	tr := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}}
	cs := connect(t, tr, "solo", "2026-07-28")
	for range 3 {
		call(t, cs, "process_refund", map[string]any{"order_id": "ORD-4471", "amount": 189.0, "confirmedByUser": true})
	}
	_ = cs.Close()
	// Two copies of one client, each with its own version.
	for _, v := range []string{"1.0-a", "1.0-b"} {
		c := sdk.NewClient(&sdk.Implementation{Name: "twin", Version: v}, nil)
		cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url}, &sdk.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
		if err != nil {
			t.Fatal(err)
		}
		call(t, cs, "process_refund", map[string]any{"order_id": "ORD-4471", "amount": 189.0, "confirmedByUser": true})
		_ = cs.Close()
	}
	r := srv.Finish()
	for _, c := range r.Sessions {
		if !strings.HasPrefix(c.Session, "stateless-") {
			t.Errorf("%s: not a stateless card", c.Session)
		}
		if strings.HasPrefix(c.Client, "solo") && c.Calls != 3 {
			t.Errorf("%s: %d calls on its card, want all 3", c.Client, c.Calls)
		}
	}
	if len(r.Sessions) != 3 {
		for _, c := range r.Sessions {
			t.Logf("%s %s %s: %s", c.Session, c.Client, c.Spec, c.Summary())
		}
		t.Fatalf("%d cards, want 3 (solo, twin 1.0-a, twin 1.0-b)", len(r.Sessions))
	}
}

// TestHeaderMismatchThenRebuiltIsFixClient (finding 11): a 2026-07-28
// client whose Mcp-Name did not match its body gets -32020; the same body
// sent again with the headers put right is the request rebuilt
// (fix_client, best, not a wasted resend), and `errorlab check` finds
// nothing wrong in the log of it.
func TestHeaderMismatchThenRebuiltIsFixClient(t *testing.T) {
	log := &lockedBuffer{}
	url, srv := httpServer(t, serve.Config{FailureModes: true, ExchangeLog: log})
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"rebuilder","version":"1"}}`
	call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-4471"},` + meta + `}}`
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}} // one connection: one client
	t.Cleanup(client.CloseIdleConnections)
	post := func(id int, name string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(fmt.Sprintf(call, id)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", name)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post(1, "process_refund"); code != 400 || !strings.Contains(body, "-32020") {
		t.Fatalf("Mcp-Name naming another tool: %d %s", code, body)
	}
	if code, body := post(1, "lookup_order"); code != 200 || strings.Contains(body, `"error"`) {
		t.Fatalf("the same body with Mcp-Name put right: %d %s", code, body)
	}
	cards := srv.Report().Sessions
	if len(cards) != 1 || len(cards[0].Entries) != 1 {
		t.Fatalf("want one card with the -32020 on it, got %+v", cards)
	}
	e := cards[0].Entries[0]
	if e.Move != rules.MoveRebuild || e.Action != rules.FixClient || e.Grade != rules.GradeBest || e.Wasted || !strings.Contains(e.Reading, "rebuilt") {
		t.Errorf("the rebuilt request reads as %s / %s / %s, wasted %v: %q", e.Move, e.Action, e.Grade, e.Wasted, e.Reading)
	}
	if c := cards[0]; c.Wasted != 0 || c.Best != 1 {
		t.Errorf("card: %s", c.Summary())
	}
	items, err := check.Parse(log.Bytes(), "h26.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range check.GradeAll(items) {
		if check.Fails(r.Report, grade.SevWarning) {
			t.Errorf("errorlab check flags %s: %+v", r.Item.Source, r.Report.Findings)
		}
	}
}

// TestCorrelationIDsAreOnePerIncident (finding 14): the same internal
// fault asked by two sessions of one server, and by two servers (two
// processes), gets four different correlationIds, each quoted in its own
// description; with FixedCorrelationIDs (the lab's goldens) the ids repeat.
func TestCorrelationIDsAreOnePerIncident(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-4471","failure_mode":"internal"}}}` + "\n"
	idsOf := func(fixed bool) []string {
		var ids []string
		for range 2 { // two processes
			srv := serve.New(serve.Config{FailureModes: true, FixedCorrelationIDs: fixed})
			for range 2 { // two sessions
				var out bytes.Buffer
				if err := srv.ServeStdio(context.Background(), strings.NewReader(initLines+call), &out); err != nil {
					t.Fatal(err)
				}
				var m struct {
					Result struct {
						StructuredContent struct {
							CorrelationID string `json:"correlationId"`
							Description   string `json:"description"`
						} `json:"structuredContent"`
					} `json:"result"`
				}
				var last []byte
				for _, l := range bytes.Split(out.Bytes(), []byte("\n")) {
					if bytes.HasPrefix(l, []byte(`{"jsonrpc":"2.0","id":1,`)) {
						last = l
					}
				}
				if err := json.Unmarshal(last, &m); err != nil || m.Result.StructuredContent.CorrelationID == "" {
					t.Fatalf("no correlationId in %s", last)
				}
				sc := m.Result.StructuredContent
				if !strings.Contains(sc.Description, sc.CorrelationID) {
					t.Errorf("the description quotes another id than %s: %s", sc.CorrelationID, sc.Description)
				}
				ids = append(ids, sc.CorrelationID)
			}
		}
		return ids
	}
	ids := idsOf(false)
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Errorf("correlationId %s served to two sessions: %v", id, ids)
		}
		seen[id] = true
	}
	if fixed := idsOf(true); fixed[0] != fixed[1] || fixed[0] != fixed[3] {
		t.Errorf("fixed ids differ: %v", fixed)
	}
}
