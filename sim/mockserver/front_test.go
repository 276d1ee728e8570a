package mockserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// TestMalformedFramesGetTheRightError: a batch, params of the wrong shape
// and a tools/call with a numeric name each get a JSON-RPC error that says
// what is wrong in words, with no Go decoding error in it, and the server
// answers the next message.
func TestMalformedFramesGetTheRightError(t *testing.T) {
	cases := []struct {
		name, in string
		code     int
		id       string
		says     string
	}{
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, mcp.INVALID_REQUEST, "null", "batches are not supported"},
		{"an empty batch", `[]`, mcp.INVALID_REQUEST, "null", "batches are not supported"},
		{"params a string", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"lookup_order"}`, mcp.INVALID_PARAMS, "4", "params must be a JSON object"},
		{"params an array", `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[1]}`, mcp.INVALID_PARAMS, "5", "params must be a JSON object"},
		{"a numeric tool name", `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":7}}`, mcp.INVALID_PARAMS, `"a"`, "params.name must be the tool's name as a string"},
		{"_meta a string", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"lookup_order","_meta":"x"}}`, mcp.INVALID_PARAMS, "6", "params._meta must be a JSON object"},
		{"bad JSON", `{"jsonrpc":"2.0","id":3,"method":`, mcp.PARSE_ERROR, "null", "Parse error"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":8,"method":"ping"}`, mcp.INVALID_REQUEST, "8", "JSON-RPC version"},
		{"unknown method", `{"jsonrpc":"2.0","id":9,"method":"tools/execute"}`, mcp.METHOD_NOT_FOUND, "9", "not found"},
		{"arguments a string", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"lookup_order","arguments":"str"}}`, mcp.INVALID_PARAMS, "10", "params.arguments must be a JSON object"},
		{"arguments an array", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"lookup_order","arguments":[1,2]}}`, mcp.INVALID_PARAMS, "11", "params.arguments must be a JSON object"},
		{"a JSON string", `"just a string"`, mcp.INVALID_REQUEST, "null", "JSON object"},
		{"a number", `123`, mcp.INVALID_REQUEST, "null", "JSON object"},
		{"true", `true`, mcp.INVALID_REQUEST, "null", "JSON object"},
		{"a numeric method", `{"jsonrpc":"2.0","id":2,"method":5}`, mcp.INVALID_REQUEST, "2", `"method" must be a string`},
		{"no method", `{"jsonrpc":"2.0","id":1}`, mcp.INVALID_REQUEST, "1", `no "method"`},
		{"nothing at all", `{"jsonrpc":"2.0"}`, mcp.INVALID_REQUEST, "null", `no "method"`},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, mcp.INVALID_REQUEST, "null", "string or an integer"},
		{"a fraction id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, mcp.INVALID_REQUEST, "null", "string or an integer"},
		{"a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, mcp.INVALID_REQUEST, "null", "string or an integer"},
		{"a numeric protocolVersion", `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":5}}`, mcp.INVALID_PARAMS, "7", "params.protocolVersion must be"},
	}
	srv := mockserver.New(mockserver.Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := srv.HandleMessage(context.Background(), []byte(c.in))
			env := parse(t, got)
			if env.Error == nil || env.Error.Code != c.code || string(env.ID) != c.id {
				t.Fatalf("want error %d with id %s, got %s", c.code, c.id, got)
			}
			if !strings.Contains(env.Error.Message, c.says) {
				t.Errorf("message %q does not say %q", env.Error.Message, c.says)
			}
			for _, goText := range []string{"json:", "Go struct", "unmarshal"} {
				if strings.Contains(env.Error.Message, goText) {
					t.Errorf("message carries a Go decoding error: %q", env.Error.Message)
				}
			}
			if ping := srv.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":99,"method":"ping"}`)); !bytes.Contains(ping, []byte(`"result":{}`)) {
				t.Errorf("the server stopped answering: %s", ping)
			}
		})
	}
}

// TestOversizeFrameOverStdio: a line over 1 MiB is answered with -32600
// (id null) without being parsed, and the messages around it are served;
// a message of exactly 1 MiB is read.
func TestOversizeFrameOverStdio(t *testing.T) {
	exact := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"`
	exact += strings.Repeat("x", mockserver.MaxMessageBytes-len(exact)-3) + `"}}`
	if len(exact) != mockserver.MaxMessageBytes {
		t.Fatalf("the 1 MiB message is %d bytes", len(exact))
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("y", mockserver.MaxMessageBytes) + `"}}`,
		exact,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := mockserver.New(mockserver.Options{}).ServeStdio(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	byID := map[string][]byte{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 2<<20)
	for sc.Scan() {
		env := parse(t, sc.Bytes())
		byID[string(env.ID)] = append([]byte(nil), sc.Bytes()...)
	}
	for _, id := range []string{"1", "2", "4"} {
		if !bytes.Contains(byID[id], []byte(`"result":{}`)) {
			t.Errorf("ping %s was not answered: %s", id, byID[id])
		}
	}
	if got := byID["null"]; !bytes.Equal(got, mockserver.OversizeReply()) {
		t.Errorf("the oversize line got %s, want %s", got, mockserver.OversizeReply())
	}
	if env := parse(t, mockserver.OversizeReply()); env.Error.Code != mcp.INVALID_REQUEST || !strings.Contains(env.Error.Message, "1 MiB") {
		t.Errorf("oversize reply: %+v", env.Error)
	}
}

// modeCall is a tool's example call with failure_mode added.
func modeCall(tool, mode string) wire.Call {
	a := maps.Clone(mockserver.ExampleArguments(tool))
	a["failure_mode"] = mode
	return wire.Call{Tool: tool, Arguments: a}
}

// TestFailureModesOnEveryTool: with Options.FailureModes every tool
// declares failure_mode, its description names each mode and what it
// teaches, and a call naming a mode fails as that mode's fault would,
// byte for byte the answer the lab gives to the same call without the
// argument and the fault injected (customer_lookup's own modes aside).
func TestFailureModesOnEveryTool(t *testing.T) {
	srv := mockserver.New(mockserver.Options{FailureModes: true})
	for _, tool := range srv.Tools() {
		modes := mockserver.FailureModeNames(tool.Name)
		if len(modes) < 10 {
			t.Fatalf("%s offers modes %v", tool.Name, modes)
		}
		var schema struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(tool.RawInputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		if got := schema.Properties["failure_mode"].Enum; !equalStrings(got, modes) {
			t.Errorf("%s declares failure_mode %v, want %v", tool.Name, got, modes)
		}
		for _, m := range mockserver.FailureModes {
			if m.Name != "none" && contains(modes, m.Name) && !strings.Contains(tool.Description, m.Name+": "+m.TeachesOn(tool.Name)) {
				t.Errorf("%s's description does not say what %s teaches", tool.Name, m.Name)
			}
		}
	}
	for _, tool := range mockserver.New(mockserver.Options{}).Tools() {
		if tool.Name != "customer_lookup" && strings.Contains(string(tool.RawInputSchema)+tool.Description, "failure_mode") {
			t.Errorf("without Options.FailureModes %s declares failure_mode", tool.Name)
		}
	}
	for _, rev := range rules.Revisions {
		for _, tool := range mockserver.ToolNames() {
			for _, m := range mockserver.FailureModes {
				if !contains(mockserver.FailureModeNames(tool), m.Name) || m.Name == "none" ||
					(tool == "customer_lookup" && contains([]string{"transient", "validation", "business", "permission", "empty"}, m.Name)) {
					continue
				}
				got := exchange(t, mockserver.Options{FailureModes: true, Revision: rev}, rev, modeCall(tool, m.Name))
				want := exchange(t, mockserver.Options{Revision: rev, Faults: map[string]mockserver.Fault{tool: m.Fault}}, rev,
					wire.Call{Tool: tool, Arguments: mockserver.ExampleArguments(tool)})
				if !bytes.Equal(resultOnly(got.Response), resultOnly(want.Response)) {
					t.Errorf("%s %s %s:\n got %s\nwant %s", rev, tool, m.Name, got.Response, want.Response)
				}
			}
		}
	}
}

// resultOnly drops the id, which the two sessions number differently.
func resultOnly(resp []byte) []byte {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(resp, &m)
	delete(m, "id")
	b, _ := json.Marshal(m)
	return b
}

func equalStrings(a, b []string) bool {
	return strings.Join(a, ",") == strings.Join(b, ",")
}

// TestTransientModesRecoverTheRightWay: timeout answers the same call the
// second time; rate_limit refuses a resend sooner than retryAfterSeconds
// on the server's clock and lets the next one through; transient stays
// down; an unknown mode is a validation error naming the modes.
func TestTransientModesRecoverTheRightWay(t *testing.T) {
	ctx := context.Background()
	clock := 0.0
	srv := mockserver.New(mockserver.Options{FailureModes: true, Clock: func() float64 { return clock }})
	sess, err := wire.Open(ctx, srv, rules.Rev20251125)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	layer := func(call wire.Call) (rules.Classification, []byte) {
		t.Helper()
		ex, err := sess.Call(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		cl, _ := ex.Classify()
		return cl, ex.Response
	}
	steps := []struct {
		at    float64
		call  wire.Call
		layer rules.Layer
	}{
		{0, modeCall("lookup_order", "timeout"), rules.LayerExecution},
		{1, modeCall("lookup_order", "timeout"), rules.LayerSuccess},
		{2, modeCall("lookup_order", "timeout"), rules.LayerExecution},
		{10, modeCall("search_support_tickets", "rate_limit"), rules.LayerExecution},
		{12, modeCall("search_support_tickets", "rate_limit"), rules.LayerExecution},
		{15.5, modeCall("search_support_tickets", "rate_limit"), rules.LayerSuccess},
		{20, modeCall("get_customer", "transient"), rules.LayerExecution},
		{21, modeCall("get_customer", "transient"), rules.LayerExecution},
		{30, modeCall("get_customer", "nonsense"), rules.LayerExecution},
	}
	for i, st := range steps {
		clock = st.at
		cl, resp := layer(st.call)
		if cl.Layer != st.layer {
			t.Fatalf("step %d (%s %v at %gs): layer %s, want %s\n%s", i, st.call.Tool, st.call.Arguments["failure_mode"], st.at, cl.Layer, st.layer, resp)
		}
		if i == 3 && (cl.Meta.RetryAfterSeconds == nil || *cl.Meta.RetryAfterSeconds != 5) {
			t.Errorf("rate_limit gives no retryAfterSeconds 5: %s", resp)
		}
		if i == 8 && (cl.ErrorCategory != rules.Validation || !bytes.Contains(resp, []byte("failure_mode"))) {
			t.Errorf("an unknown mode should be a validation error naming failure_mode: %s", resp)
		}
	}
}

// TestSequenceFailsCallByCall: a script's sequence fails the first call to
// lookup_order with a timeout and lets the second through; process_refund
// is refused as business; calls past a list behave normally.
func TestSequenceFailsCallByCall(t *testing.T) {
	ctx := context.Background()
	srv := mockserver.New(mockserver.Options{Sequence: map[string][]mockserver.Fault{
		"lookup_order":   {{Kind: mockserver.FaultTimeout}, {Kind: mockserver.FaultNone}, {Kind: mockserver.FaultPermission}},
		"process_refund": {{Kind: mockserver.FaultBusiness}},
	}})
	sess, err := wire.Open(ctx, srv, rules.Rev20251125)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	want := []struct {
		tool     string
		layer    rules.Layer
		category rules.Category
	}{
		{"lookup_order", rules.LayerExecution, rules.Transient},
		{"lookup_order", rules.LayerSuccess, ""},
		{"process_refund", rules.LayerExecution, rules.Business},
		{"lookup_order", rules.LayerExecution, rules.Permission},
		{"lookup_order", rules.LayerSuccess, ""},
		{"process_refund", rules.LayerSuccess, ""},
	}
	for i, w := range want {
		ex, err := sess.Call(ctx, wire.Call{Tool: w.tool, Arguments: mockserver.ExampleArguments(w.tool)})
		if err != nil {
			t.Fatal(err)
		}
		cl, _ := ex.Classify()
		if cl.Layer != w.layer || cl.ErrorCategory != w.category {
			t.Errorf("call %d (%s): %s %s, want %s %s\n%s", i+1, w.tool, cl.Layer, cl.ErrorCategory, w.layer, w.category, ex.Response)
		}
	}
}

// TestNewestRevisionCapsTheHandshake: with Options.Newest 2025-06-18 a
// client asking for 2025-11-25 is answered 2025-06-18, the server follows
// 2025-06-18's rules (a schema break is -32602), and server/discover
// offers nothing newer.
func TestNewestRevisionCapsTheHandshake(t *testing.T) {
	ctx := context.Background()
	srv := mockserver.New(mockserver.Options{Newest: rules.Rev20250618})
	init := srv.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	if !bytes.Contains(init, []byte(`"protocolVersion":"2025-06-18"`)) {
		t.Fatalf("initialize answered %s", init)
	}
	call := srv.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":4471}}}`))
	if env := parse(t, call); env.Error == nil || env.Error.Code != mcp.INVALID_PARAMS {
		t.Errorf("a schema break under the capped revision: %s", call)
	}
	disc := srv.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`))
	if bytes.Contains(disc, []byte("2026-07-28")) || bytes.Contains(disc, []byte("2025-11-25")) || !bytes.Contains(disc, []byte("2025-06-18")) {
		t.Errorf("server/discover offers more than 2025-06-18: %s", disc)
	}
	if got := srv.OfferedVersions(); got[0] != "2025-06-18" {
		t.Errorf("OfferedVersions = %v", got)
	}
}

// TestStdioAnswersEverythingAskedBeforeTheInputEnds: a client that writes
// its requests and closes stdin at once still gets every answer (mcp-go's
// stdio server alone drops the tool calls still queued at the end).
func TestStdioAnswersEverythingAskedBeforeTheInputEnds(t *testing.T) {
	var in strings.Builder
	const calls = 40
	for i := range calls {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-4471"}}}`+"\n", i+1)
	}
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for range 3 {
		var out bytes.Buffer
		if err := mockserver.New(mockserver.Options{}).ServeStdio(context.Background(), strings.NewReader(in.String()), &out); err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(out.Bytes(), []byte("\n")); n != calls {
			t.Fatalf("%d answers to %d tool calls", n, calls)
		}
	}
}

// TestLongInputIsNotEchoedWhole (finding 16): a search query of half a
// MiB comes back in the empty result's summary cut to its first 80
// characters with its length, not whole in the text and again in
// structuredContent.
func TestLongInputIsNotEchoedWhole(t *testing.T) {
	q := strings.Repeat("gift card balance ", 30000) + "end"
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "search_support_tickets", "arguments": map[string]any{"query": q}}})
	resp := mockserver.New(mockserver.Options{}).HandleMessage(context.Background(), call)
	if len(resp) > 4096 {
		t.Errorf("a %d-byte query is answered with %d bytes", len(q), len(resp))
	}
	if want := fmt.Sprintf("… (%d characters)", len(q)); !strings.Contains(string(resp), want) {
		t.Errorf("the answer does not say the query was cut (%s): %.400s", want, resp)
	}
}

// TestEscalationFailureDoesNotSendTheAgentBack: a new user found
// escalate_to_human's own internal fault telling the agent, once its
// resends are spent, to "hand the case to a person with escalate_to_human",
// the tool that had just failed. When the escalation tool fails, its
// result and its description's modes say to report that the hand-over
// failed (LESSON-RULES §2, §5: at most 3 resends after 1 s, 2 s and 4 s,
// then report); every other tool still hands the case over.
func TestEscalationFailureDoesNotSendTheAgentBack(t *testing.T) {
	srv := mockserver.New(mockserver.Options{FailureModes: true})
	for _, tool := range srv.Tools() {
		if tool.Name != mockserver.EscalationTool {
			continue
		}
		for _, mode := range []string{"transient", "internal"} {
			_, teaches, _ := strings.Cut(tool.Description, mode+": ")
			teaches, _, _ = strings.Cut(teaches, ". ")
			if strings.Contains(teaches, "escalate_to_human") || !strings.Contains(teaches, "report that the hand-over failed") {
				t.Errorf("escalate_to_human's description, %s: %q", mode, teaches)
			}
		}
	}
	for _, tool := range mockserver.ToolNames() {
		for _, mode := range []string{"transient", "internal", "go_error", "crash"} {
			if tool == "customer_lookup" && mode == "transient" {
				continue // its own transient mode, written before failure_mode
			}
			ex := exchange(t, mockserver.Options{FailureModes: true}, rules.Rev20251125, modeCall(tool, mode))
			var resp struct {
				Result struct {
					StructuredContent struct {
						Description string `json:"description"`
					} `json:"structuredContent"`
				} `json:"result"`
			}
			if err := json.Unmarshal(ex.Response, &resp); err != nil {
				t.Fatal(err)
			}
			desc := resp.Result.StructuredContent.Description
			if !strings.Contains(desc, "at most 3 resends") {
				t.Errorf("%s %s: the description gives no cap of 3 resends: %q", tool, mode, desc)
			}
			_, after, _ := strings.Cut(desc, "if it still fails")
			if tool == mockserver.EscalationTool {
				if strings.Contains(after, "escalate_to_human") || !strings.Contains(after, "report that the hand-over failed") {
					t.Errorf("%s %s sends the agent back to the tool that failed: %q", tool, mode, desc)
				}
			} else if !strings.Contains(after, "with escalate_to_human") {
				t.Errorf("%s %s: after the resends, the case is no longer handed over: %q", tool, mode, desc)
			}
		}
	}
}
