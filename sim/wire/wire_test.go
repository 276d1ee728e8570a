package wire_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

func args(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// call makes one call on a fresh in-process session.
func call(t *testing.T, opts mockserver.Options, c wire.Call) wire.Exchange {
	t.Helper()
	ctx := context.Background()
	sess, err := wire.Open(ctx, mockserver.New(opts), rules.DefaultRevision)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	ex, err := sess.Call(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

var (
	badOrderID   = wire.Call{Tool: "lookup_order", Arguments: args("order_id", "ORD-4471x")}
	goodOrderID  = wire.Call{Tool: "lookup_order", Arguments: args("order_id", "ORD-4471")}
	unknownTool  = wire.Call{Tool: "refund_order", Arguments: args("order_id", "ORD-4519")}
	malformedRaw = wire.Call{Raw: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-44`}
)

func compact(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		t.Fatalf("pane is not JSON: %v\n%s", err, s)
	}
	return buf.Bytes()
}

// TestMCPViewIsTheWireBytes: the MCP view is the exact request and response,
// only indented.
func TestMCPViewIsTheWireBytes(t *testing.T) {
	for name, ex := range map[string]wire.Exchange{
		"execution error": call(t, mockserver.Options{}, badOrderID),
		"success":         call(t, mockserver.Options{}, goodOrderID),
		"protocol error":  call(t, mockserver.Options{}, unknownTool),
	} {
		t.Run(name, func(t *testing.T) {
			req, resp := wire.Render(ex, wire.ViewMCP)
			if !req.JSON || !resp.JSON {
				t.Error("JSON panes not marked as JSON")
			}
			if got := compact(t, req.Body); !bytes.Equal(got, ex.Request) {
				t.Errorf("request pane is not the request bytes:\npane:  %s\nbytes: %s", got, ex.Request)
			}
			if got := compact(t, resp.Body); !bytes.Equal(got, ex.Response) {
				t.Errorf("response pane is not the response bytes:\npane:  %s\nbytes: %s", got, ex.Response)
			}
			if !strings.Contains(resp.Body, "\n  ") {
				t.Error("the response pane is not indented")
			}
			if req.Title == resp.Title || req.Title == "" {
				t.Errorf("pane titles %q / %q", req.Title, resp.Title)
			}
		})
	}
	t.Run("bytes that are not JSON are shown as they are", func(t *testing.T) {
		ex := call(t, mockserver.Options{}, malformedRaw)
		req, resp := wire.Render(ex, wire.ViewMCP)
		if req.JSON || req.Body != malformedRaw.Raw {
			t.Errorf("malformed request pane: JSON=%v body %q", req.JSON, req.Body)
		}
		if !resp.JSON || !bytes.Equal(compact(t, resp.Body), ex.Response) {
			t.Errorf("the parse error reply pane is not the reply: %s", resp.Body)
		}
	})
}

// toolResultBlock decodes the Messages API tool_result pane.
type toolResultBlock struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   *bool           `json:"is_error"`
}

func messagesPanes(t *testing.T, ex wire.Exchange) (wire.Pane, wire.Pane, toolResultBlock) {
	t.Helper()
	req, resp := wire.Render(ex, wire.ViewMessages)
	var block toolResultBlock
	if err := json.Unmarshal([]byte(resp.Body), &block); err != nil {
		t.Fatalf("tool_result pane is not JSON: %v\n%s", err, resp.Body)
	}
	if block.Type != "tool_result" {
		t.Errorf("type %q, want tool_result", block.Type)
	}
	if block.ToolUseID != wire.ToolUseID(ex.Request) || !strings.HasPrefix(block.ToolUseID, "toolu_") {
		t.Errorf("tool_use_id %q, want %q", block.ToolUseID, wire.ToolUseID(ex.Request))
	}
	return req, resp, block
}

func textBlocks(t *testing.T, content json.RawMessage) []string {
	t.Helper()
	var blocks []map[string]any
	if err := json.Unmarshal(content, &blocks); err != nil {
		t.Fatalf("tool_result content is not an array of blocks: %s", content)
	}
	var out []string
	for _, b := range blocks {
		if b["type"] != "text" || len(b) != 2 {
			t.Errorf("a block that is not a plain text block travelled: %v", b)
		}
		s, _ := b["text"].(string)
		out = append(out, s)
	}
	return out
}

// TestMessagesView is LESSON-RULES §7: isError becomes is_error; only text
// travels; a protocol error becomes a tool_result the host wrote.
func TestMessagesView(t *testing.T) {
	t.Run("an error result has is_error true", func(t *testing.T) {
		ex := call(t, mockserver.Options{}, badOrderID)
		req, _, block := messagesPanes(t, ex)
		if block.IsError == nil || !*block.IsError {
			t.Errorf("is_error %v, want true", block.IsError)
		}
		env, _ := rules.ParseEnvelope(ex.Response)
		if got := textBlocks(t, block.Content); len(got) != 1 || got[0] != env.Result.Texts()[0] {
			t.Errorf("content %q, want the result's text block", got)
		}
		var use struct {
			Type  string         `json:"type"`
			ID    string         `json:"id"`
			Name  string         `json:"name"`
			Input map[string]any `json:"input"`
		}
		if err := json.Unmarshal([]byte(req.Body), &use); err != nil {
			t.Fatal(err)
		}
		if use.Type != "tool_use" || use.ID != block.ToolUseID || use.Name != "lookup_order" || use.Input["order_id"] != "ORD-4471x" {
			t.Errorf("tool_use block %+v does not match the call or the tool_result id %s", use, block.ToolUseID)
		}
	})
	t.Run("a success omits is_error", func(t *testing.T) {
		ex := call(t, mockserver.Options{}, goodOrderID)
		_, resp, block := messagesPanes(t, ex)
		if block.IsError != nil || strings.Contains(resp.Body, "is_error") {
			t.Errorf("a success carries is_error: %s", resp.Body)
		}
		if len(textBlocks(t, block.Content)) != 1 {
			t.Errorf("want the one text block: %s", block.Content)
		}
	})
	t.Run("structuredContent does not travel", func(t *testing.T) {
		ex := call(t, mockserver.Options{Style: mockserver.StyleStructuredOnly}, badOrderID)
		_, resp, block := messagesPanes(t, ex)
		if got := textBlocks(t, block.Content); len(got) != 0 {
			t.Errorf("structured_only produced text blocks %q", got)
		}
		if block.IsError == nil || !*block.IsError {
			t.Error("structured_only is still an error result")
		}
		if strings.Contains(resp.Body, "errorCategory") {
			t.Errorf("structuredContent leaked into the tool_result: %s", resp.Body)
		}
	})
	t.Run("an error sent as success stays a success", func(t *testing.T) {
		ex := call(t, mockserver.Options{Style: mockserver.StyleErrorAsSuccess}, badOrderID)
		_, _, block := messagesPanes(t, ex)
		if block.IsError != nil {
			t.Error("the host invented is_error for a result that did not say isError")
		}
	})
	t.Run("a protocol error becomes a host-written tool_result", func(t *testing.T) {
		ex := call(t, mockserver.Options{}, unknownTool)
		_, resp, block := messagesPanes(t, ex)
		if block.IsError == nil || !*block.IsError {
			t.Error("the host's tool_result for a protocol error is not is_error")
		}
		if !strings.Contains(resp.Title, "host") {
			t.Errorf("title %q does not say the host wrote it", resp.Title)
		}
		var text string
		if err := json.Unmarshal(block.Content, &text); err != nil {
			t.Fatalf("host-written content: %s", block.Content)
		}
		if !strings.Contains(text, "-32602") || !strings.Contains(text, "refund_order") {
			t.Errorf("host text %q does not carry the code and message", text)
		}
		if b, hostWritten := wire.ToolResult(ex); !hostWritten || b == nil {
			t.Error("ToolResult does not report the block as host-written")
		}
		if _, hostWritten := wire.ToolResult(call(t, mockserver.Options{}, badOrderID)); hostWritten {
			t.Error("ToolResult calls a tool's own result host-written")
		}
	})
	t.Run("hand-written bytes have no tool_use", func(t *testing.T) {
		ex := call(t, mockserver.Options{}, malformedRaw)
		req, _ := wire.Render(ex, wire.ViewMessages)
		if req.JSON || !strings.Contains(req.Body, "no tool_use matches") {
			t.Errorf("request pane for hand-written bytes: %+v", req)
		}
	})
	t.Run("an unreadable response has no tool_result", func(t *testing.T) {
		ex := wire.Exchange{Call: goodOrderID, Request: []byte(`{}`), Response: []byte(`not json`)}
		if b, _ := wire.ToolResult(ex); b != nil {
			t.Errorf("ToolResult converted bytes that are not JSON-RPC: %s", b)
		}
		_, resp := wire.Render(ex, wire.ViewMessages)
		if resp.JSON || resp.Body == "" {
			t.Errorf("pane for an unreadable response: %+v", resp)
		}
	})
	t.Run("the tool_use id is stable for the same bytes", func(t *testing.T) {
		a := wire.ToolUseID([]byte(`{"id":3}`))
		if a != wire.ToolUseID([]byte(`{"id":3}`)) || a == wire.ToolUseID([]byte(`{"id":4}`)) {
			t.Error("ToolUseID is not a stable function of the request bytes")
		}
	})
}

// TestModelView: what lands in the model's context.
func TestModelView(t *testing.T) {
	t.Run("structured_only: nothing reaches the model", func(t *testing.T) {
		ex := call(t, mockserver.Options{Style: mockserver.StyleStructuredOnly}, badOrderID)
		req, resp := wire.Render(ex, wire.ViewModel)
		if !strings.Contains(resp.Body, "nothing") || !strings.Contains(resp.Body, "structuredContent") {
			t.Errorf("the model view does not say nothing reached the model:\n%s", resp.Body)
		}
		if strings.Contains(resp.Body, "ORD-4471x") || strings.Contains(resp.Body, "errorCategory") {
			t.Errorf("the model view shows what the model never reads:\n%s", resp.Body)
		}
		if req.Body != `lookup_order({"order_id":"ORD-4471x"})` {
			t.Errorf("request pane %q", req.Body)
		}
	})
	t.Run("an error result is marked and shows its text", func(t *testing.T) {
		ex := call(t, mockserver.Options{}, badOrderID)
		_, resp := wire.Render(ex, wire.ViewModel)
		env, _ := rules.ParseEnvelope(ex.Response)
		if !strings.HasPrefix(resp.Body, "[tool result, marked as an error]") || !strings.Contains(resp.Body, env.Result.Texts()[0]) {
			t.Errorf("model view:\n%s", resp.Body)
		}
	})
	t.Run("a success is not marked as an error", func(t *testing.T) {
		_, resp := wire.Render(call(t, mockserver.Options{}, goodOrderID), wire.ViewModel)
		if !strings.HasPrefix(resp.Body, "[tool result]") {
			t.Errorf("model view:\n%s", resp.Body)
		}
	})
	t.Run("generic: the model reads only Operation failed", func(t *testing.T) {
		_, resp := wire.Render(call(t, mockserver.Options{Style: mockserver.StyleGeneric}, badOrderID), wire.ViewModel)
		if resp.Body != "[tool result, marked as an error]\n\nOperation failed" {
			t.Errorf("model view:\n%q", resp.Body)
		}
	})
	t.Run("a protocol error: no tool result, the host's words", func(t *testing.T) {
		_, resp := wire.Render(call(t, mockserver.Options{}, unknownTool), wire.ViewModel)
		for _, want := range []string{"No tool result", "-32602", "no errorCategory"} {
			if !strings.Contains(resp.Body, want) {
				t.Errorf("model view does not say %q:\n%s", want, resp.Body)
			}
		}
	})
	t.Run("hand-written bytes: no model asked", func(t *testing.T) {
		req, _ := wire.Render(call(t, mockserver.Options{}, malformedRaw), wire.ViewModel)
		if !strings.Contains(req.Body, "broken client") {
			t.Errorf("request pane: %q", req.Body)
		}
	})
	t.Run("a call without arguments", func(t *testing.T) {
		req, _ := wire.Render(call(t, mockserver.Options{}, wire.Call{Tool: "escalate_to_human"}), wire.ViewModel)
		if req.Body != "escalate_to_human({})" {
			t.Errorf("request pane %q", req.Body)
		}
	})
}

func TestViewsCycle(t *testing.T) {
	seen := map[string]bool{}
	v := wire.ViewMCP
	for range wire.Views {
		if seen[v.Label()] || v.Label() == "" {
			t.Errorf("label %q repeated or empty", v.Label())
		}
		seen[v.Label()] = true
		v = v.Next()
	}
	if v != wire.ViewMCP {
		t.Errorf("cycling the views does not come back to MCP: %s", v)
	}
	if wire.View("nope").Next() != wire.ViewMCP {
		t.Error("an unknown view does not fall back to MCP")
	}
}

// TestTranscriptOrderAndIDs: the handshake, tools/list, then each call,
// every response right after its request with the same id, ids unique and
// increasing; the Exchange holds the transcript's own bytes.
func TestTranscriptOrderAndIDs(t *testing.T) {
	ctx := context.Background()
	opens := []struct {
		name string
		open func(context.Context, *mockserver.Server, rules.Revision) (*wire.Session, error)
	}{{"in process", wire.Open}, {"stdio", wire.OpenStdio}}
	for _, o := range opens {
		for _, rev := range rules.Revisions {
			t.Run(o.name+" "+string(rev), func(t *testing.T) {
				sess, err := o.open(ctx, mockserver.New(mockserver.Options{}), rev)
				if err != nil {
					t.Fatal(err)
				}
				defer sess.Close()
				if sess.Revision != rev {
					t.Errorf("session revision %s", sess.Revision)
				}
				var exs []wire.Exchange
				for _, c := range []wire.Call{badOrderID, goodOrderID, unknownTool} {
					ex, err := sess.Call(ctx, c)
					if err != nil {
						t.Fatal(err)
					}
					if ex.Revision != rev {
						t.Errorf("exchange revision %s, want %s", ex.Revision, rev)
					}
					exs = append(exs, ex)
				}
				tr := sess.Transcript()
				want := []string{"initialize", "", "notifications/initialized", "tools/list", "", "tools/call", "", "tools/call", "", "tools/call", ""}
				if rev.Stateless() {
					want = []string{"server/discover", "", "tools/list", "", "tools/call", "", "tools/call", "", "tools/call", ""}
				}
				var got []string
				for _, m := range tr {
					got = append(got, m.Method())
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("transcript methods %q, want %q", got, want)
				}
				lastID := 0
				var calls [][2][]byte
				for i, m := range tr {
					if m.Method() == "notifications/initialized" {
						if m.ID() != "" || m.Dir != wire.ClientToServer {
							t.Errorf("the notification carries an id or goes the wrong way: %s", m.Bytes)
						}
						continue
					}
					if m.Method() == "" {
						continue
					}
					var id int
					if _, err := fmt.Sscan(m.ID(), &id); err != nil || id <= lastID {
						t.Errorf("request %d id %q is not a fresh, increasing number", i, m.ID())
					}
					lastID = id
					if i+1 >= len(tr) {
						t.Fatalf("request %d has no reply", i)
					}
					resp := tr[i+1]
					if m.Dir != wire.ClientToServer || resp.Dir != wire.ServerToClient || resp.ID() != m.ID() {
						t.Errorf("message %d: %s %s answered by %s %s", i, m.Dir, m.ID(), resp.Dir, resp.ID())
					}
					if m.Method() == "tools/call" {
						calls = append(calls, [2][]byte{m.Bytes, resp.Bytes})
					}
				}
				for i, ex := range exs {
					if !bytes.Equal(ex.Request, calls[i][0]) || !bytes.Equal(ex.Response, calls[i][1]) {
						t.Errorf("exchange %d does not hold the transcript's bytes", i)
					}
				}
				b, err := json.Marshal(tr[0])
				if err != nil {
					t.Fatal(err)
				}
				var m struct{ Dir, Method, ID, Raw string }
				if err := json.Unmarshal(b, &m); err != nil || m.Dir != string(wire.ClientToServer) || m.Method != want[0] || m.ID != "1" || m.Raw != string(tr[0].Bytes) {
					t.Errorf("Message JSON %s", b)
				}
			})
		}
	}
}

// TestRawCallsAreRecordedAsSent: hand-written bytes go out as written and
// their answer is found by id, or by a null id for a parse error.
func TestRawCallsAreRecordedAsSent(t *testing.T) {
	ctx := context.Background()
	for _, open := range []func(context.Context, *mockserver.Server, rules.Revision) (*wire.Session, error){wire.Open, wire.OpenStdio} {
		sess, err := open(ctx, mockserver.New(mockserver.Options{}), rules.DefaultRevision)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := sess.Call(ctx, malformedRaw)
		if err != nil {
			t.Fatal(err)
		}
		if string(ex.Request) != malformedRaw.Raw || string(ex.Response) != `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` {
			t.Errorf("parse error exchange:\n%s\n%s", ex.Request, ex.Response)
		}
		ex, err = sess.Call(ctx, wire.Call{Raw: `{"jsonrpc":"2.0","id":"abc","method":"tools/execute"}`})
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := ex.Classify(); c.Layer != rules.LayerProtocol || c.ProtocolCode != -32601 {
			t.Errorf("unknown method: %s", ex.Response)
		}
		if !strings.Contains(string(ex.Response), `"id":"abc"`) {
			t.Errorf("a string id is not echoed: %s", ex.Response)
		}
		if err := sess.Close(); err != nil {
			t.Error(err)
		}
	}
}

// TestRawCallSpreadOverLinesIsTheSameOnBothTransports: a scenario's raw
// bytes may come from a YAML block scalar holding pretty-printed JSON. On
// stdio a newline ends a message, so the lab (in process) and `errorlab
// serve` (stdio) must not disagree about what such bytes get back: the
// same response, or the same refusal.
func TestRawCallSpreadOverLinesIsTheSameOnBothTransports(t *testing.T) {
	ctx := context.Background()
	raw := wire.Call{Raw: "{\"jsonrpc\":\"2.0\",\"id\":7,\n  \"method\":\"tools/list\"}"}
	type outcome struct {
		response []byte
		err      error
	}
	got := map[string]outcome{}
	for name, open := range map[string]func(context.Context, *mockserver.Server, rules.Revision) (*wire.Session, error){
		"in process": wire.Open, "stdio": wire.OpenStdio,
	} {
		sess, err := open(ctx, mockserver.New(mockserver.Options{}), rules.DefaultRevision)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := sess.Call(ctx, raw)
		got[name] = outcome{ex.Response, err}
		_ = sess.Close()
	}
	a, b := got["in process"], got["stdio"]
	if a.err == nil || b.err == nil || !strings.Contains(a.err.Error(), "one line") {
		t.Errorf("bytes spread over two lines must be refused on both transports (on stdio a newline ends a message): in process %v, stdio %v", a.err, b.err)
	}
	if (a.err == nil) != (b.err == nil) || !bytes.Equal(a.response, b.response) {
		t.Errorf("two-line hand-written bytes:\nin process: %.120s (error %v)\nstdio:      %.120s (error %v)", a.response, a.err, b.response, b.err)
	}
}

// TestCallOnAClosedStdioSessionFails: a broken session is a Go error, not
// a hang and not a fake response.
func TestCallOnAClosedStdioSessionFails(t *testing.T) {
	ctx := context.Background()
	sess, err := wire.OpenStdio(ctx, mockserver.New(mockserver.Options{}), rules.DefaultRevision)
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sess.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if ex, err := sess.Call(ctx, goodOrderID); err == nil {
		t.Errorf("a call on a closed session returned %s", ex.Response)
	}
	if ex, err := sess.Call(ctx, malformedRaw); err == nil {
		t.Errorf("hand-written bytes on a closed session returned %s", ex.Response)
	}
}
