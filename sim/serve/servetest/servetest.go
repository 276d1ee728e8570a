// Package servetest checks `errorlab serve` with the official go-sdk
// client (v1.8.0), for the tests of the serve package (in process) and of
// the built binary: every tool call the lab knows, made by a real client,
// must come back byte for byte as the lab's own engine answers it.
package servetest

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"regexp"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/mockserver"
)

// Call is one tools/call a test makes.
type Call struct {
	Name string
	Tool string
	Args map[string]any
}

// Calls lists every tool with every practice failure_mode it offers, then
// the failures the mock world's data produces by itself: malformed ids, a
// refusal past the return window, an empty search, a staff record, an
// unknown tool, arguments that break the inputSchema.
func Calls() []Call {
	var out []Call
	for _, tool := range mockserver.ToolNames() {
		for _, mode := range mockserver.FailureModeNames(tool) {
			args := maps.Clone(mockserver.ExampleArguments(tool))
			args["failure_mode"] = mode
			out = append(out, Call{tool + " " + mode, tool, args})
		}
	}
	return append(out,
		Call{"malformed order id", "lookup_order", map[string]any{"order_id": "ORD-4471x"}},
		Call{"order with no match", "lookup_order", map[string]any{"order_id": "ORD-9999"}},
		Call{"refund past the window", "process_refund", map[string]any{"order_id": "ORD-4471", "amount": 189.0, "confirmedByUser": true}},
		Call{"unconfirmed refund", "process_refund", map[string]any{"order_id": "ORD-4519", "amount": 24.99, "confirmedByUser": false}},
		Call{"staff record", "get_customer", map[string]any{"customer_id": "C-1002"}},
		Call{"ticket search with no hits", "search_support_tickets", map[string]any{"query": "gift card balance"}},
		Call{"unknown tool", "refund_order", map[string]any{"order_id": "ORD-4519"}},
		Call{"schema: order_id a number", "lookup_order", map[string]any{"order_id": 4471}},
		Call{"schema: an unknown failure_mode", "lookup_order", map[string]any{"order_id": "ORD-4471", "failure_mode": "meltdown"}},
	)
}

// CallAll makes every call of Calls on cs and returns the results (nil
// where the go-sdk reports a JSON-RPC error: a protocol error has no
// result).
func CallAll(t testing.TB, cs *sdk.ClientSession) []*sdk.CallToolResult {
	t.Helper()
	var out []*sdk.CallToolResult
	for _, c := range Calls() {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: c.Tool, Arguments: c.Args})
		if err != nil {
			res = nil // a protocol error: the log holds its bytes
		}
		out = append(out, res)
	}
	return out
}

// LogLine is one line of the exchange log.
type LogLine struct {
	Time       string          `json:"time"`
	Session    string          `json:"session"`
	Spec       string          `json:"spec"`
	Transport  string          `json:"transport"`
	HTTPStatus int             `json:"httpStatus"`
	Request    json.RawMessage `json:"request"`
	Response   json.RawMessage `json:"response"`
}

// ReadLog parses an exchange log (JSON lines).
func ReadLog(t testing.TB, log []byte) []LogLine {
	t.Helper()
	var out []LogLine
	for _, l := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var ll LogLine
		if err := json.Unmarshal(l, &ll); err != nil {
			t.Fatalf("a log line is not JSON: %v\n%s", err, l)
		}
		out = append(out, ll)
	}
	return out
}

// corrID is a correlationId as the mock server writes it.
var corrID = regexp.MustCompile(`corr-[0-9a-f]{8}`)

// sameIncident is a response with its correlationIds blanked: errorlab
// serve gives every incident a random one (a real server's would differ
// per incident too), the lab a fixed one.
func sameIncident(b []byte) []byte { return corrID.ReplaceAll(b, []byte("corr-XXXXXXXX")) }

// CheckAgainstLab replays the requests of one session of the log, in
// order, through a fresh mock server built with opts (the lab's engine,
// in process: mockserver.HandleMessage, the bytes the lab shows) and
// fails the test for every response that differs by a byte from what the
// server sent, correlationIds aside (random per incident in serve). It
// returns how many responses were compared.
func CheckAgainstLab(t testing.TB, lines []LogLine, session string, opts mockserver.Options) int {
	t.Helper()
	lab := mockserver.New(opts)
	n := 0
	for _, l := range lines {
		if l.Session != session {
			continue
		}
		want := lab.HandleMessage(context.Background(), l.Request)
		got := []byte(l.Response)
		if string(got) == "null" {
			got = nil
		}
		if l.HTTPStatus == 202 && got == nil {
			continue // a notification over HTTP
		}
		if !bytes.Equal(sameIncident(got), sameIncident(want)) {
			t.Errorf("session %s, request %s:\nserved %s\nthe lab %s", session, l.Request, got, want)
		}
		n++
	}
	return n
}

// CheckResults compares what the go-sdk client read with the responses
// the server sent (from the log, in order of the tools/call lines of the
// session): isError, structuredContent and every text block.
func CheckResults(t testing.TB, lines []LogLine, session string, results []*sdk.CallToolResult) {
	t.Helper()
	i := 0
	for _, l := range lines {
		var req struct {
			Method string `json:"method"`
		}
		if l.Session != session || json.Unmarshal(l.Request, &req) != nil || req.Method != "tools/call" {
			continue
		}
		if i >= len(results) {
			t.Errorf("more tools/call lines in the log than calls made")
			return
		}
		got := results[i]
		i++
		var resp struct {
			Result *struct {
				IsError           bool            `json:"isError"`
				StructuredContent json.RawMessage `json:"structuredContent"`
				Content           []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal(l.Response, &resp); err != nil {
			t.Errorf("response is not JSON: %v", err)
			continue
		}
		if (resp.Result == nil) != (got == nil) {
			t.Errorf("%s: the go-sdk read a result %v where the server sent %s", l.Request, got != nil, l.Response)
			continue
		}
		if got == nil {
			continue
		}
		if got.IsError != resp.Result.IsError {
			t.Errorf("%s: go-sdk isError %v, server %v", l.Request, got.IsError, resp.Result.IsError)
		}
		sc, _ := json.Marshal(got.StructuredContent)
		if !jsonEqual(sc, resp.Result.StructuredContent) {
			t.Errorf("%s: go-sdk structuredContent %s, server %s", l.Request, sc, resp.Result.StructuredContent)
		}
		if len(got.Content) != len(resp.Result.Content) {
			t.Errorf("%s: go-sdk read %d content blocks, server sent %d", l.Request, len(got.Content), len(resp.Result.Content))
			continue
		}
		for j, c := range got.Content {
			if tc, ok := c.(*sdk.TextContent); !ok || tc.Text != resp.Result.Content[j].Text {
				t.Errorf("%s: block %d differs", l.Request, j)
			}
		}
	}
	if i != len(results) {
		t.Errorf("%d calls made, %d tools/call lines logged for session %s", len(results), i, session)
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if len(bytes.TrimSpace(a)) == 0 || string(bytes.TrimSpace(a)) == "null" {
		a = []byte("null")
	}
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("null")
	}
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// Sessions lists the session ids of the log, in order of first line.
func Sessions(lines []LogLine) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range lines {
		if !seen[l.Session] {
			seen[l.Session] = true
			out = append(out, l.Session)
		}
	}
	return out
}
