package mockserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// checkWire asserts what holds for every exchange in every style: the
// response is JSON-RPC, structuredContent conforms to the tool's declared
// outputSchema, a 2026-07-28 call carries _meta and its result
// resultType "complete", and nothing but the raw_exception style shows
// internals. The one other exception is a panic in a bad style, which the
// server leaves to mcp-go's own recovery on purpose: a -32603 carrying the
// panic text, as an unguarded server sends it.
func checkWire(t *testing.T, ex wire.Exchange, style mockserver.Style, fault mockserver.FaultKind) rules.Envelope {
	t.Helper()
	env := parse(t, ex.Response)
	if env.JSONRPC != "2.0" {
		t.Errorf(`jsonrpc is %q, want "2.0"`, env.JSONRPC)
	}
	if (env.Error == nil) == (env.Result == nil) {
		t.Errorf("the response must hold exactly one of result and error:\n%s", ex.Response)
	}
	if env.Result != nil && ex.Call.Tool != "" && len(env.Result.StructuredContent) > 0 {
		schemas, err := outputSchemas()
		if err != nil {
			t.Fatal(err)
		}
		if sch, declared := schemas[ex.Call.Tool]; declared {
			if err := validate(sch, env.Result.StructuredContent); err != nil {
				t.Errorf("structuredContent does not conform to %s's outputSchema: %v\n%s", ex.Call.Tool, err, env.Result.StructuredContent)
			}
		}
		var obj map[string]any
		_ = json.Unmarshal(env.Result.StructuredContent, &obj)
		if _, hasCategory := obj["errorCategory"]; hasCategory != env.Result.IsError {
			t.Errorf("isError %v but structuredContent carries errorCategory %v", env.Result.IsError, hasCategory)
		}
	}
	if ex.Revision == rules.Rev20260728 && ex.Call.Raw == "" {
		if v := requestMeta(ex.Request)[mcp.MetaKeyProtocolVersion]; v != "2026-07-28" {
			t.Errorf("a 2026-07-28 request carries _meta %s = %v:\n%s", mcp.MetaKeyProtocolVersion, v, ex.Request)
		}
		if env.Result != nil && env.Result.ResultType != "complete" {
			t.Errorf(`a 2026-07-28 result carries resultType %q, want "complete"`, env.Result.ResultType)
		}
	}
	if ex.Revision != rules.Rev20260728 && env.Result != nil && env.Result.ResultType != "" {
		t.Errorf("a %s result carries resultType %q, which that revision does not have", ex.Revision, env.Result.ResultType)
	}
	unguardedPanic := fault == mockserver.FaultPanic && style != mockserver.StyleGood && env.Error != nil
	if style != mockserver.StyleRawException && !unguardedPanic {
		if leaks := leaksIn(env); len(leaks) > 0 {
			t.Errorf("the %s style shows internals the server must keep in its log: %q", style, leaks)
		}
	}
	return env
}

// checkGood asserts the recommended shape (LESSON-RULES §3): an
// execution error is isError with errorCategory, isRetryable matching §2
// and a description, mirrored as the one text block; a success mirrors
// its structuredContent too.
func checkGood(t *testing.T, ex wire.Exchange, env rules.Envelope) {
	t.Helper()
	if env.Result == nil {
		return
	}
	res := env.Result
	if res.IsError || ex.Call.Tool != "" && mockserver.HasTool(ex.Call.Tool) {
		if len(res.Content) != 1 || res.Content[0].Type != "text" {
			t.Fatalf("want exactly one text block, got %+v", res.Content)
		}
		if len(res.StructuredContent) == 0 {
			t.Fatal("no structuredContent")
		}
		if !jsonEqual([]byte(res.Content[0].Text), res.StructuredContent) {
			t.Errorf("the text block is not the JSON of structuredContent:\ntext:       %s\nstructured: %s", res.Content[0].Text, res.StructuredContent)
		}
	}
	if !res.IsError {
		return
	}
	var p struct {
		ErrorCategory *string `json:"errorCategory"`
		IsRetryable   *bool   `json:"isRetryable"`
		Description   *string `json:"description"`
	}
	if err := json.Unmarshal(res.StructuredContent, &p); err != nil {
		t.Fatalf("structuredContent: %v", err)
	}
	if p.ErrorCategory == nil || p.IsRetryable == nil || p.Description == nil {
		t.Fatalf("structuredContent lacks errorCategory, isRetryable or description: %s", res.StructuredContent)
	}
	c := rules.Category(*p.ErrorCategory)
	if !c.Valid() {
		t.Errorf("errorCategory %q is not one of the four", c)
	}
	if *p.IsRetryable != c.Retryable() {
		t.Errorf("isRetryable %v contradicts LESSON-RULES §2 for %s", *p.IsRetryable, c)
	}
	if len(strings.TrimSpace(*p.Description)) < 30 {
		t.Errorf("description %q is too short to say what went wrong and what to do", *p.Description)
	}
}

// expectStyle asserts the shape a bad style gives a failure the good style
// reports as a tool execution error.
func expectStyle(t *testing.T, style mockserver.Style, ex wire.Exchange, env, good rules.Envelope) {
	t.Helper()
	res := env.Result
	needResult := func() bool {
		if res == nil {
			t.Errorf("the %s style gave a protocol error %d %q, want a tool result", style, env.Error.Code, env.Error.Message)
			return false
		}
		return true
	}
	switch style {
	case mockserver.StyleGeneric:
		if !needResult() {
			return
		}
		if !res.IsError || len(res.Content) != 1 || res.Content[0].Text != "Operation failed" || len(res.StructuredContent) > 0 {
			t.Errorf(`generic: want isError and the one text "Operation failed", nothing else; got %s`, ex.Response)
		}
	case mockserver.StyleRawException:
		if !needResult() {
			return
		}
		if !res.IsError || len(res.Content) != 1 || len(res.StructuredContent) > 0 {
			t.Fatalf("raw_exception: want isError and one text block, no structuredContent; got %s", ex.Response)
		}
		text := res.Content[0].Text
		if m := rules.ReadMetadata(res); m.Category != "" || m.IsRetryable != nil {
			t.Errorf("raw_exception carries usable metadata (%+v); it should show the anti-pattern", m)
		}
		if goodMeta := rules.ReadMetadata(good.Result); strings.Contains(text, goodMeta.Description) {
			t.Errorf("raw_exception text repeats the good description: %q", text)
		}
	case mockserver.StyleErrorAsSuccess:
		if !needResult() {
			return
		}
		if res.HasIsError || len(res.StructuredContent) > 0 || len(res.Content) != 1 {
			t.Errorf("error_as_success: want no isError, no structuredContent, one text block; got %s", ex.Response)
		}
		if texts := res.Texts(); len(texts) == 0 || !rules.LooksLikeError(texts[0]) {
			t.Errorf("error_as_success: the text %q does not read as an error", texts)
		}
	case mockserver.StyleEmptySuccess:
		c, err := ex.Classify()
		if err != nil {
			t.Fatal(err)
		}
		if c.Layer != rules.LayerSuccess || !c.Empty {
			t.Errorf("empty_success classifies as %s empty=%v, want a valid-looking empty success: %s", c.Layer, c.Empty, ex.Response)
		}
	case mockserver.StyleProtocolError:
		if env.Error == nil || env.Error.Code != mcp.INTERNAL_ERROR || env.Result != nil {
			t.Errorf("protocol_error: want a JSON-RPC error -32603 and no result, got %s", ex.Response)
		}
	case mockserver.StyleStructuredOnly:
		if !needResult() {
			return
		}
		if raw, has := resultMembers(ex.Response)["content"]; !has || string(raw) != "[]" {
			t.Errorf(`structured_only: want "content":[], got %s`, raw)
		}
		if !res.IsError || len(res.StructuredContent) == 0 {
			t.Errorf("structured_only: want isError and structuredContent, got %s", ex.Response)
		}
		if !jsonEqual(res.StructuredContent, good.Result.StructuredContent) {
			t.Errorf("structured_only: structuredContent differs from the good style's:\n%s\n%s", res.StructuredContent, good.Result.StructuredContent)
		}
	default:
		t.Fatalf("style %s has no expectation in this test", style)
	}
}

// checkStyle compares one style's exchange with the good one for the same
// call. Styles change only how a tool failure is written: a protocol error
// or a success is the same bytes in every style. A handler that returns a
// Go error becomes -32603 in every style but good; so does a panic, which
// only the good style recovers into a sanitized result.
func checkStyle(t *testing.T, style mockserver.Style, fault mockserver.FaultKind, ex, good wire.Exchange) {
	t.Helper()
	env := checkWire(t, ex, style, fault)
	goodEnv := parse(t, good.Response)
	if style == mockserver.StyleGood {
		checkGood(t, ex, env)
		return
	}
	goodIsToolError := goodEnv.Result != nil && goodEnv.Result.IsError
	switch {
	case !goodIsToolError:
		if !bytes.Equal(ex.Response, good.Response) {
			t.Errorf("the %s style changed a response that is not a tool failure written by the tool:\ngood: %s\n%s: %s", style, good.Response, style, ex.Response)
		}
	case fault == mockserver.FaultGoError:
		if env.Error == nil || env.Error.Code != mcp.INTERNAL_ERROR {
			t.Errorf("a handler's Go error in the %s style: want -32603, got %s", style, ex.Response)
		}
	case fault == mockserver.FaultPanic:
		if env.Error == nil || env.Error.Code != mcp.INTERNAL_ERROR || !strings.Contains(env.Error.Message, "panic") {
			t.Errorf("an unguarded panic in the %s style: want -32603 with the panic's text, got %s", style, ex.Response)
		}
	default:
		expectStyle(t, style, ex, env, goodEnv)
	}
}

// TestScenarioStylesOnTheWire runs every scenario in every style it offers
// under every revision and checks the wire shape of each response.
func TestScenarioStylesOnTheWire(t *testing.T) {
	ctx := context.Background()
	for _, s := range catalog(t).Scenarios {
		t.Run(s.ID, func(t *testing.T) {
			for _, rev := range rules.Revisions {
				t.Run(string(rev), func(t *testing.T) {
					good, err := s.Exchange(ctx, mockserver.StyleGood, rev)
					if err != nil {
						t.Fatal(err)
					}
					got, err := good.Classify()
					if err != nil {
						t.Fatal(err)
					}
					want := s.TruthAt(rev).Expected
					if got.Layer != want.Layer || got.ErrorCategory != want.ErrorCategory || got.Empty != want.Empty {
						t.Errorf("good style classifies as %s/%s empty=%v, the scenario expects %s/%s empty=%v",
							got.Layer, got.ErrorCategory, got.Empty, want.Layer, want.ErrorCategory, want.Empty)
					}
					for _, style := range s.Styles {
						t.Run(string(style), func(t *testing.T) {
							ex, err := s.Exchange(ctx, style, rev)
							if err != nil {
								t.Fatal(err)
							}
							checkStyle(t, style, s.Failure.Kind, ex, good)
							if style == mockserver.StyleRawException {
								checkRawLeaksAreSpotted(t, ex)
							}
							if style != mockserver.StyleGood && bytes.Equal(ex.Response, good.Response) {
								t.Logf("note: under %s the %s style shows the learner the same bytes as good", rev, style)
							}
						})
					}
				})
			}
		})
	}
}

// matrixCall is one call of the failure matrix with what its good-style
// response must be under 2025-11-25.
type matrixCall struct {
	name     string
	call     wire.Call
	fault    mockserver.Fault
	layer    rules.Layer
	category rules.Category
	empty    bool
	code     string // the good-style error code, "" to skip
	schema   bool   // the arguments break the inputSchema (-32602 under 2025-06-18)
}

func args(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// naturalCalls are the failures the lessons use, produced by the data of
// the call itself, plus the successes around them.
var naturalCalls = []matrixCall{
	{name: "malformed order id ORD-4471x", call: wire.Call{Tool: "lookup_order", Arguments: args("order_id", "ORD-4471x")}, layer: rules.LayerExecution, category: rules.Validation, code: "INVALID_ORDER_ID"},
	{name: "malformed order id order-abc", call: wire.Call{Tool: "lookup_order", Arguments: args("order_id", "order-abc")}, layer: rules.LayerExecution, category: rules.Validation, code: "INVALID_ORDER_ID"},
	{name: "order with no match", call: wire.Call{Tool: "lookup_order", Arguments: args("order_id", "ORD-9999")}, layer: rules.LayerSuccess, empty: true},
	{name: "order found", call: wire.Call{Tool: "lookup_order", Arguments: args("order_id", "ORD-4471")}, layer: rules.LayerSuccess},
	{name: "staff record C-1002", call: wire.Call{Tool: "get_customer", Arguments: args("customer_id", "C-1002")}, layer: rules.LayerExecution, category: rules.Permission, code: "STAFF_RECORD_RESTRICTED"},
	{name: "unknown customer id by contract", call: wire.Call{Tool: "get_customer", Arguments: args("customer_id", "C-9999")}, layer: rules.LayerExecution, category: rules.Validation, code: "CUSTOMER_NOT_FOUND"},
	{name: "malformed customer id", call: wire.Call{Tool: "get_customer", Arguments: args("customer_id", "1001")}, layer: rules.LayerExecution, category: rules.Validation},
	{name: "customer found", call: wire.Call{Tool: "get_customer", Arguments: args("customer_id", "C-1001")}, layer: rules.LayerSuccess},
	{name: "email with no account", call: wire.Call{Tool: "customer_lookup", Arguments: args("identifier", "j.morales@example.org")}, layer: rules.LayerSuccess, empty: true},
	{name: "staff email search", call: wire.Call{Tool: "customer_lookup", Arguments: args("identifier", "sam.okafor@example.com")}, layer: rules.LayerExecution, category: rules.Permission},
	{name: "customer by email", call: wire.Call{Tool: "customer_lookup", Arguments: args("identifier", "dana.whitfield@example.com")}, layer: rules.LayerSuccess},
	{name: "identifier neither id nor email", call: wire.Call{Tool: "customer_lookup", Arguments: args("identifier", "dana")}, layer: rules.LayerExecution, category: rules.Validation},
	{name: "failure_mode transient", call: wire.Call{Tool: "customer_lookup", Arguments: args("identifier", "C-1001", "failure_mode", "transient")}, layer: rules.LayerExecution, category: rules.Transient},
	{name: "failure_mode validation", call: wire.Call{Tool: "customer_lookup", Arguments: args("identifier", "C-1001", "failure_mode", "validation")}, layer: rules.LayerExecution, category: rules.Validation},
	{name: "failure_mode business", call: wire.Call{Tool: "customer_lookup", Arguments: args("identifier", "C-1001", "failure_mode", "business")}, layer: rules.LayerExecution, category: rules.Business},
	{name: "failure_mode permission", call: wire.Call{Tool: "customer_lookup", Arguments: args("identifier", "C-1001", "failure_mode", "permission")}, layer: rules.LayerExecution, category: rules.Permission},
	{name: "failure_mode empty", call: wire.Call{Tool: "customer_lookup", Arguments: args("identifier", "C-1001", "failure_mode", "empty")}, layer: rules.LayerSuccess, empty: true},
	{name: "refund past the 30-day window", call: wire.Call{Tool: "process_refund", Arguments: args("order_id", "ORD-4471", "amount", 189.0, "confirmedByUser", true)}, layer: rules.LayerExecution, category: rules.Business, code: "REFUND_WINDOW_EXCEEDED"},
	{name: "refund above the £500 limit", call: wire.Call{Tool: "process_refund", Arguments: args("order_id", "ORD-4502", "amount", 750.0, "confirmedByUser", true)}, layer: rules.LayerExecution, category: rules.Business, code: "REFUND_LIMIT_EXCEEDED"},
	{name: "unconfirmed refund", call: wire.Call{Tool: "process_refund", Arguments: args("order_id", "ORD-4519", "amount", 24.99, "confirmedByUser", false)}, layer: rules.LayerExecution, category: rules.Business, code: "CONFIRMATION_REQUIRED"},
	{name: "refund of an order in transit", call: wire.Call{Tool: "process_refund", Arguments: args("order_id", "ORD-4520", "amount", 89.0, "confirmedByUser", true)}, layer: rules.LayerExecution, category: rules.Business, code: "NOT_DELIVERED"},
	{name: "refund above the order total", call: wire.Call{Tool: "process_refund", Arguments: args("order_id", "ORD-4519", "amount", 30.0, "confirmedByUser", true)}, layer: rules.LayerExecution, category: rules.Validation},
	{name: "refund of a negative amount", call: wire.Call{Tool: "process_refund", Arguments: args("order_id", "ORD-4519", "amount", -5.0, "confirmedByUser", true)}, layer: rules.LayerExecution, category: rules.Validation},
	{name: "refund of an unknown order", call: wire.Call{Tool: "process_refund", Arguments: args("order_id", "ORD-9999", "amount", 5.0, "confirmedByUser", true)}, layer: rules.LayerExecution, category: rules.Validation, code: "ORDER_NOT_FOUND"},
	{name: "refund issued", call: wire.Call{Tool: "process_refund", Arguments: args("order_id", "ORD-4519", "amount", 24.99, "confirmedByUser", true)}, layer: rules.LayerSuccess},
	{name: "escalation with too short a summary", call: wire.Call{Tool: "escalate_to_human", Arguments: args("summary", "help")}, layer: rules.LayerExecution, category: rules.Validation},
	{name: "escalation queued", call: wire.Call{Tool: "escalate_to_human", Arguments: mockserver.ExampleArguments("escalate_to_human")}, layer: rules.LayerSuccess},
	{name: "ticket search with no hits", call: wire.Call{Tool: "search_support_tickets", Arguments: args("query", "gift card balance")}, layer: rules.LayerSuccess, empty: true},
	{name: "ticket search maxResults 50", call: wire.Call{Tool: "search_support_tickets", Arguments: args("query", "headphones", "maxResults", 50)}, layer: rules.LayerExecution, category: rules.Validation},
	{name: "ticket search with hits", call: wire.Call{Tool: "search_support_tickets", Arguments: args("query", "headphones crackle")}, layer: rules.LayerSuccess},
	{name: "unknown tool", call: wire.Call{Tool: "refund_order", Arguments: args("order_id", "ORD-4519")}, layer: rules.LayerProtocol},
	{name: "schema: order_id a number", call: wire.Call{Tool: "lookup_order", Arguments: args("order_id", 4471)}, layer: rules.LayerExecution, category: rules.Validation, code: "INVALID_ARGUMENTS", schema: true},
	{name: "schema: amount a string, confirmedByUser missing", call: wire.Call{Tool: "process_refund", Arguments: args("order_id", "ORD-4519", "amount", "24.99")}, layer: rules.LayerExecution, category: rules.Validation, code: "INVALID_ARGUMENTS", schema: true},
	{name: "schema: an argument the tool does not have", call: wire.Call{Tool: "get_customer", Arguments: args("customer_id", "C-1001", "include_orders", true)}, layer: rules.LayerExecution, category: rules.Validation, code: "INVALID_ARGUMENTS", schema: true},
	{name: "schema: status outside the enum", call: wire.Call{Tool: "search_support_tickets", Arguments: args("query", "desk", "status", "archived")}, layer: rules.LayerExecution, category: rules.Validation, code: "INVALID_ARGUMENTS", schema: true},
	{name: "schema: no arguments at all", call: wire.Call{Tool: "escalate_to_human"}, layer: rules.LayerExecution, category: rules.Validation, code: "INVALID_ARGUMENTS", schema: true},
}

// faultCategory is the category each injected fault reports.
var faultCategory = map[mockserver.FaultKind]rules.Category{
	mockserver.FaultTimeout:       rules.Transient,
	mockserver.FaultRateLimit:     rules.Transient,
	mockserver.FaultAccessFailure: rules.Transient,
	mockserver.FaultValidation:    rules.Validation,
	mockserver.FaultBusiness:      rules.Business,
	mockserver.FaultPermission:    rules.Permission,
	mockserver.FaultInternal:      rules.Transient,
	mockserver.FaultGoError:       rules.Transient,
	mockserver.FaultPanic:         rules.Transient,
}

// faultCalls injects every fault into every tool's example call.
func faultCalls() []matrixCall {
	var out []matrixCall
	searchable := map[string]bool{"customer_lookup": true, "lookup_order": true, "search_support_tickets": true}
	for _, tool := range mockserver.ToolNames() {
		for _, kind := range mockserver.FaultKinds {
			mc := matrixCall{
				name:  tool + " " + string(kind),
				call:  wire.Call{Tool: tool, Arguments: mockserver.ExampleArguments(tool)},
				fault: mockserver.Fault{Kind: kind},
			}
			switch {
			case kind == mockserver.FaultNone:
				mc.layer = rules.LayerSuccess
			case kind == mockserver.FaultEmpty && searchable[tool]:
				mc.layer, mc.empty = rules.LayerSuccess, true
			case kind == mockserver.FaultEmpty:
				mc.layer = rules.LayerSuccess // no empty shape: the call runs
			default:
				mc.layer, mc.category = rules.LayerExecution, faultCategory[kind]
			}
			out = append(out, mc)
		}
	}
	return out
}

func (mc matrixCall) options(style mockserver.Style, rev rules.Revision) mockserver.Options {
	opts := mockserver.Options{Style: style, Revision: rev}
	if mc.fault.Kind != "" {
		opts.Faults = map[string]mockserver.Fault{mc.call.Tool: mc.fault}
	}
	return opts
}

// TestFailureMatrix goes beyond the catalogue: every natural failure of
// the mock world and every fault on every tool, in every style, under
// every revision.
func TestFailureMatrix(t *testing.T) {
	calls := append(append([]matrixCall{}, naturalCalls...), faultCalls()...)
	for _, mc := range calls {
		t.Run(mc.name, func(t *testing.T) {
			for _, rev := range rules.Revisions {
				t.Run(string(rev), func(t *testing.T) {
					good := exchange(t, mc.options(mockserver.StyleGood, rev), rev, mc.call)
					c, err := good.Classify()
					if err != nil {
						t.Fatal(err)
					}
					layer, category := mc.layer, mc.category
					if mc.schema && rev.InputSchemaLayer() == rules.LayerProtocol {
						layer, category = rules.LayerProtocol, ""
					}
					if c.Layer != layer || c.ErrorCategory != category || c.Empty != mc.empty {
						t.Fatalf("good style: %s/%s empty=%v, want %s/%s empty=%v\n%s", c.Layer, c.ErrorCategory, c.Empty, layer, category, mc.empty, good.Response)
					}
					if layer == rules.LayerProtocol && c.ProtocolCode != mcp.INVALID_PARAMS {
						t.Errorf("protocol code %d, want -32602", c.ProtocolCode)
					}
					if mc.code != "" && layer == rules.LayerExecution && c.Meta.Code != mc.code {
						t.Errorf("code %q, want %q", c.Meta.Code, mc.code)
					}
					for _, style := range mockserver.Styles {
						t.Run(string(style), func(t *testing.T) {
							ex := good
							if style != mockserver.StyleGood {
								ex = exchange(t, mc.options(style, rev), rev, mc.call)
							}
							checkStyle(t, style, mc.fault.Kind, ex, good)
						})
					}
				})
			}
		})
	}
}

// checkRawLeaksAreSpotted: when a raw exception visibly shows internals
// (a traceback, a file and line, a token, a private host), rules.Leaks,
// which the lab and the grader use to point at them, must find them.
func checkRawLeaksAreSpotted(t *testing.T, ex wire.Exchange) {
	t.Helper()
	env := parse(t, ex.Response)
	if env.Result == nil {
		return
	}
	for _, text := range env.Result.Texts() {
		if markers := showsInternals(text); len(markers) > 0 && len(rules.Leaks(text)) == 0 {
			t.Errorf("the raw exception shows internals (%q) that rules.Leaks does not find:\n%s", markers, text)
		}
	}
}

// TestRawExceptionShowsTheAntiPattern: the raw_exception style exists to
// show internals leaking (LESSON-RULES §6). For the infrastructure faults
// the raw text must hold something rules.Leaks finds, and for every
// failure whose raw text visibly shows internals, rules.Leaks must find
// them.
func TestRawExceptionShowsTheAntiPattern(t *testing.T) {
	infrastructure := map[mockserver.FaultKind]bool{
		mockserver.FaultTimeout: true, mockserver.FaultRateLimit: true, mockserver.FaultAccessFailure: true, mockserver.FaultInternal: true,
	}
	rev := rules.DefaultRevision
	for _, mc := range append(append([]matrixCall{}, naturalCalls...), faultCalls()...) {
		if mc.layer != rules.LayerExecution || mc.fault.Kind == mockserver.FaultPanic || mc.fault.Kind == mockserver.FaultGoError {
			continue
		}
		t.Run(mc.name, func(t *testing.T) {
			ex := exchange(t, mc.options(mockserver.StyleRawException, rev), rev, mc.call)
			env := parse(t, ex.Response)
			if env.Result == nil || len(env.Result.Texts()) != 1 {
				t.Fatalf("want one text block: %s", ex.Response)
			}
			text := env.Result.Texts()[0]
			if infrastructure[mc.fault.Kind] && len(rules.Leaks(text)) == 0 {
				t.Errorf("the raw exception of an infrastructure fault shows no internals rules.Leaks can find:\n%s", text)
			}
			checkRawLeaksAreSpotted(t, ex)
		})
	}
}

// TestInputSchemaFailureByRevision is LESSON-RULES §1: arguments that break
// the inputSchema are -32602 in 2025-06-18 and an isError validation
// result from 2025-11-25 on. The server learns the revision from the
// handshake or _meta, whatever its default.
func TestInputSchemaFailureByRevision(t *testing.T) {
	call := wire.Call{Tool: "process_refund", Arguments: args("order_id", "ORD-4519", "amount", "24.99")}
	for _, serverDefault := range rules.Revisions {
		for _, rev := range rules.Revisions {
			t.Run(fmt.Sprintf("client %s, server default %s", rev, serverDefault), func(t *testing.T) {
				ex := exchange(t, mockserver.Options{Revision: serverDefault}, rev, call)
				env := parse(t, ex.Response)
				if rev == rules.Rev20250618 {
					if env.Error == nil || env.Error.Code != mcp.INVALID_PARAMS {
						t.Fatalf("want -32602, got %s", ex.Response)
					}
					for _, field := range []string{"amount", "confirmedByUser"} {
						if !strings.Contains(env.Error.Message, field) {
							t.Errorf("message %q does not name %s", env.Error.Message, field)
						}
					}
					if strings.Contains(env.Error.Message, "&{") || strings.Contains(env.Error.Message, "map[") {
						t.Errorf("message prints Go values: %q", env.Error.Message)
					}
					return
				}
				c, _ := ex.Classify()
				if c.Layer != rules.LayerExecution || c.ErrorCategory != rules.Validation || c.Meta.Code != "INVALID_ARGUMENTS" || !c.Meta.HasFieldErrors || !c.Meta.HasExample {
					t.Fatalf("want an isError validation result with fieldErrors and exampleArguments, got %s", ex.Response)
				}
				var p mockserver.ErrorPayload
				if err := json.Unmarshal(env.Result.StructuredContent, &p); err != nil {
					t.Fatal(err)
				}
				fields := map[string]bool{}
				for _, fe := range p.FieldErrors {
					fields[fe.Field] = true
				}
				if !fields["amount"] || !fields["confirmedByUser"] || len(fields) != 2 {
					t.Errorf("fieldErrors name %v, want amount and confirmedByUser", fields)
				}
				if err := inputSchemas(t)["process_refund"].Validate(toAny(p.ExampleArguments)); err != nil {
					t.Errorf("exampleArguments break the inputSchema themselves: %v", err)
				}
			})
		}
	}
	t.Run("unknown tool is -32602 in every revision", func(t *testing.T) {
		for _, rev := range rules.Revisions {
			ex := exchange(t, mockserver.Options{}, rev, wire.Call{Tool: "refund_order", Arguments: args("order_id", "ORD-4519")})
			env := parse(t, ex.Response)
			if env.Error == nil || env.Error.Code != mcp.INVALID_PARAMS || !strings.Contains(env.Error.Message, "refund_order") {
				t.Errorf("%s: want -32602 naming refund_order, got %s", rev, ex.Response)
			}
		}
	})
}

// toAny round-trips a value through JSON so the schema validator sees
// JSON types.
func toAny(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// TestToolsDeclareWhatTheyReturn: each tool's example arguments conform to
// its inputSchema and the example call succeeds with structuredContent
// that conforms to its outputSchema.
func TestToolsDeclareWhatTheyReturn(t *testing.T) {
	srv := mockserver.New(mockserver.Options{})
	tools := srv.Tools()
	if len(tools) != 6 || len(mockserver.ToolNames()) != 6 {
		t.Fatalf("want six tools, got %d", len(tools))
	}
	in := inputSchemas(t)
	for i, tool := range tools {
		t.Run(tool.Name, func(t *testing.T) {
			if mockserver.ToolNames()[i] != tool.Name || !mockserver.HasTool(tool.Name) {
				t.Errorf("ToolNames/HasTool disagree with Tools() on %s", tool.Name)
			}
			if len(tool.RawOutputSchema) == 0 || len(tool.RawInputSchema) == 0 {
				t.Fatal("a schema is missing")
			}
			if err := in[tool.Name].Validate(toAny(mockserver.ExampleArguments(tool.Name))); err != nil {
				t.Errorf("ExampleArguments break the inputSchema: %v", err)
			}
			ex := exchange(t, mockserver.Options{}, rules.DefaultRevision, wire.Call{Tool: tool.Name, Arguments: mockserver.ExampleArguments(tool.Name)})
			c, _ := ex.Classify()
			if c.Layer != rules.LayerSuccess || c.Empty && tool.Name != "customer_lookup" {
				t.Errorf("the example call does not succeed: %s", ex.Response)
			}
			checkWire(t, ex, mockserver.StyleGood, "")
		})
	}
	if mockserver.HasTool("refund_order") {
		t.Error("HasTool reports a tool the server does not have")
	}
}

// TestToolNamesFollowToolsList: ToolNames and Tools say they list the
// tools "in tools/list order"; check that against the tools/list reply on
// the wire.
func TestToolNamesFollowToolsList(t *testing.T) {
	ctx := context.Background()
	sess, err := wire.Open(ctx, mockserver.New(mockserver.Options{}), rules.DefaultRevision)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var listed []string
	tr := sess.Transcript()
	for i, m := range tr {
		if m.Method() != "tools/list" || i+1 >= len(tr) {
			continue
		}
		var reply struct {
			Result struct {
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal(tr[i+1].Bytes, &reply); err != nil {
			t.Fatal(err)
		}
		for _, tool := range reply.Result.Tools {
			listed = append(listed, tool.Name)
		}
	}
	if len(listed) != 6 {
		t.Fatalf("tools/list on the wire holds %v", listed)
	}
	if names := mockserver.ToolNames(); !slices.Equal(names, listed) {
		t.Errorf("ToolNames() = %v\ntools/list  = %v", names, listed)
	}
}

// TestPanicIsSanitizedAndTheServerKeepsAnswering: a panicking handler
// becomes an isError result with a correlationId and no panic text; the
// detail goes to the log under the same correlationId; the next calls are
// answered. In process and over stdio.
func TestPanicIsSanitizedAndTheServerKeepsAnswering(t *testing.T) {
	ctx := context.Background()
	opens := map[string]func(context.Context, *mockserver.Server, rules.Revision) (*wire.Session, error){
		"in process": wire.Open, "stdio": wire.OpenStdio,
	}
	for _, name := range []string{"in process", "stdio"} {
		t.Run(name, func(t *testing.T) {
			logBuf := &lockedBuffer{}
			srv := mockserver.New(mockserver.Options{Log: logBuf, Faults: map[string]mockserver.Fault{
				"lookup_order": {Kind: mockserver.FaultPanic, SucceedOnAttempt: 3},
			}})
			sess, err := opens[name](ctx, srv, rules.DefaultRevision)
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			call := wire.Call{Tool: "lookup_order", Arguments: args("order_id", "ORD-4471")}
			seen := map[string]bool{}
			for attempt := 1; attempt <= 2; attempt++ {
				ex, err := sess.Call(ctx, call)
				if err != nil {
					t.Fatalf("attempt %d: %v", attempt, err)
				}
				c, err := ex.Classify()
				if err != nil {
					t.Fatal(err)
				}
				if c.Layer != rules.LayerExecution || c.ErrorCategory != rules.Transient || c.Meta.Code != "INTERNAL_ERROR" {
					t.Fatalf("attempt %d: want a sanitized transient isError result, got %s", attempt, ex.Response)
				}
				corr := c.Meta.CorrelationID
				if corr == "" || seen[corr] {
					t.Errorf("attempt %d: correlationId %q is missing or repeated", attempt, corr)
				}
				seen[corr] = true
				for _, s := range []string{"nil order record", "handlers.go", "panic", "goroutine"} {
					if bytes.Contains(ex.Response, []byte(s)) {
						t.Errorf("attempt %d: the result shows %q: %s", attempt, s, ex.Response)
					}
				}
				if leaks := leaksIn(parse(t, ex.Response)); len(leaks) > 0 {
					t.Errorf("attempt %d: leaks %q", attempt, leaks)
				}
				if l := logBuf.String(); !strings.Contains(l, corr) || !strings.Contains(l, "nil order record") {
					t.Errorf("attempt %d: the log does not hold the panic under %s:\n%s", attempt, corr, l)
				}
			}
			ex, err := sess.Call(ctx, call)
			if err != nil {
				t.Fatalf("the server stopped answering after the panics: %v", err)
			}
			if c, _ := ex.Classify(); c.Layer != rules.LayerSuccess || c.Empty {
				t.Errorf("the third call should return the order: %s", ex.Response)
			}
			ex, err = sess.Call(ctx, wire.Call{Tool: "get_customer", Arguments: args("customer_id", "C-1001")})
			if err != nil {
				t.Fatal(err)
			}
			if c, _ := ex.Classify(); c.Layer != rules.LayerSuccess {
				t.Errorf("another tool after the panics: %s", ex.Response)
			}
		})
	}
}

// TestUnguardedPanicInABadStyleDoesNotStopTheServer: in a bad style a panic
// is left to mcp-go's recovery (a -32603, the anti-pattern); the server
// must still answer the next calls, in process and over stdio.
func TestUnguardedPanicInABadStyleDoesNotStopTheServer(t *testing.T) {
	ctx := context.Background()
	for _, o := range []struct {
		name string
		open func(context.Context, *mockserver.Server, rules.Revision) (*wire.Session, error)
	}{{"in process", wire.Open}, {"stdio", wire.OpenStdio}} {
		t.Run(o.name, func(t *testing.T) {
			srv := mockserver.New(mockserver.Options{Style: mockserver.StyleProtocolError, Faults: map[string]mockserver.Fault{
				"lookup_order": {Kind: mockserver.FaultPanic, SucceedOnAttempt: 2},
			}})
			sess, err := o.open(ctx, srv, rules.DefaultRevision)
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			call := wire.Call{Tool: "lookup_order", Arguments: args("order_id", "ORD-4471")}
			ex, err := sess.Call(ctx, call)
			if err != nil {
				t.Fatal(err)
			}
			if env := parse(t, ex.Response); env.Error == nil || env.Error.Code != mcp.INTERNAL_ERROR {
				t.Fatalf("want -32603 for an unguarded panic, got %s", ex.Response)
			}
			ex, err = sess.Call(ctx, call)
			if err != nil {
				t.Fatalf("the server stopped answering after the panic: %v", err)
			}
			if c, _ := ex.Classify(); c.Layer != rules.LayerSuccess || c.Empty {
				t.Errorf("the second call should return the order: %s", ex.Response)
			}
		})
	}
}

// TestParseErrorReplyMatchesMcpGoStdio: what HandleMessage answers to bytes
// that are not JSON equals what mcp-go's own stdio server writes.
func TestParseErrorReplyMatchesMcpGoStdio(t *testing.T) {
	inputs := []string{
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-44`,
		`{not json}`,
		`}{`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call",}`,
	}
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			var out bytes.Buffer
			stdio := server.NewStdioServer(server.NewMCPServer("reference", "1"))
			stdio.SetErrorLogger(discardLogger())
			if err := stdio.Listen(context.Background(), strings.NewReader(in+"\n"), &out); err != nil && err != io.EOF {
				t.Fatalf("reference stdio server: %v", err)
			}
			want := bytes.TrimSuffix(out.Bytes(), []byte("\n"))
			got := mockserver.New(mockserver.Options{}).HandleMessage(context.Background(), []byte(in))
			if !bytes.Equal(got, want) {
				t.Errorf("HandleMessage: %s\nmcp-go stdio: %s", got, want)
			}
		})
	}
}

func discardLogger() *log.Logger { return log.New(io.Discard, "", 0) }

// TestInProcessAndStdioTranscriptsMatch: the same conversation in process
// (wire.Open) and over the stdio transport (wire.OpenStdio) crosses the
// wire as the same bytes, message by message, handshake included.
func TestInProcessAndStdioTranscriptsMatch(t *testing.T) {
	type conversation struct {
		name  string
		opts  func(rev rules.Revision) mockserver.Options
		calls []wire.Call
	}
	plain := func(rev rules.Revision) mockserver.Options { return mockserver.Options{Revision: rev} }
	convs := []conversation{
		{"malformed JSON", plain, []wire.Call{{Raw: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-44`}}},
		{"unknown method", plain, []wire.Call{{Raw: `{"jsonrpc":"2.0","id":3,"method":"tools/execute","params":{"name":"lookup_order","arguments":{"order_id":"ORD-4471"}}}`}}},
		{"params not an object", plain, []wire.Call{{Raw: `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"lookup_order"}`}}},
		{"jsonrpc 1.0", plain, []wire.Call{{Raw: `{"jsonrpc":"1.0","id":5,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-4471"}}}`}}},
		{"a batch array", plain, []wire.Call{{Raw: `[{"jsonrpc":"2.0","id":6,"method":"tools/list"}]`}}},
		{"hand-written bytes ending in a newline (a YAML block scalar)", plain, []wire.Call{{Raw: "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}\n"}}},
		{"unknown tool, schema break, validation, success", plain, []wire.Call{
			{Tool: "refund_order", Arguments: args("order_id", "ORD-4519")},
			{Tool: "lookup_order", Arguments: args("order_id", 4471)},
			{Tool: "lookup_order", Arguments: args("order_id", "ORD-4471x")},
			{Tool: "process_refund", Arguments: args("order_id", "ORD-4519", "amount", 24.99, "confirmedByUser", true)},
		}},
		{"timeout then success", func(rev rules.Revision) mockserver.Options {
			return mockserver.Options{Revision: rev, Faults: map[string]mockserver.Fault{"lookup_order": {Kind: mockserver.FaultTimeout, SucceedOnAttempt: 2}}}
		}, []wire.Call{{Tool: "lookup_order", Arguments: args("order_id", "ORD-4471")}, {Tool: "lookup_order", Arguments: args("order_id", "ORD-4471")}}},
		{"go error in the protocol_error style", func(rev rules.Revision) mockserver.Options {
			return mockserver.Options{Revision: rev, Style: mockserver.StyleProtocolError, Faults: map[string]mockserver.Fault{"*": {Kind: mockserver.FaultGoError}}}
		}, []wire.Call{{Tool: "search_support_tickets", Arguments: args("query", "desk")}}},
		{"panic", func(rev rules.Revision) mockserver.Options {
			return mockserver.Options{Revision: rev, Faults: map[string]mockserver.Fault{"escalate_to_human": {Kind: mockserver.FaultPanic}}}
		}, []wire.Call{{Tool: "escalate_to_human", Arguments: mockserver.ExampleArguments("escalate_to_human")}}},
	}
	for _, s := range catalog(t).Scenarios {
		s := s
		convs = append(convs, conversation{"scenario " + s.ID, func(rev rules.Revision) mockserver.Options {
			return s.Server(mockserver.StyleGood, rev).Options()
		}, []wire.Call{s.Call, s.Call}})
	}
	ctx := context.Background()
	for _, conv := range convs {
		t.Run(conv.name, func(t *testing.T) {
			for _, rev := range rules.Revisions {
				t.Run(string(rev), func(t *testing.T) {
					transcripts := map[string][]wire.Message{}
					for name, open := range map[string]func(context.Context, *mockserver.Server, rules.Revision) (*wire.Session, error){
						"in process": wire.Open, "stdio": wire.OpenStdio,
					} {
						sess, err := open(ctx, mockserver.New(conv.opts(rev)), rev)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						for _, c := range conv.calls {
							if _, err := sess.Call(ctx, c); err != nil {
								t.Errorf("%s: call %+v: %v", name, c, err)
							}
						}
						if err := sess.Close(); err != nil {
							t.Errorf("%s: close: %v", name, err)
						}
						transcripts[name] = sess.Transcript()
					}
					a, b := transcripts["in process"], transcripts["stdio"]
					checkHandshake(t, rev, a)
					for i := 0; i < max(len(a), len(b)); i++ {
						if i >= len(a) || i >= len(b) {
							t.Errorf("transcripts differ in length: in process %d, stdio %d messages", len(a), len(b))
							break
						}
						if a[i].Dir != b[i].Dir || !bytes.Equal(a[i].Bytes, b[i].Bytes) {
							t.Errorf("message %d differs:\nin process %s %q\nstdio      %s %q", i, a[i].Dir, a[i].Bytes, b[i].Dir, b[i].Bytes)
						}
					}
				})
			}
		})
	}
}

// checkHandshake asserts the revision's handshake at the head of a
// transcript: initialize with that protocolVersion and
// notifications/initialized, or server/discover with _meta for
// 2026-07-28; then tools/list.
func checkHandshake(t *testing.T, rev rules.Revision, tr []wire.Message) {
	t.Helper()
	if len(tr) < 4 {
		t.Fatalf("transcript too short for a handshake: %d messages", len(tr))
	}
	var first struct {
		Params struct {
			ProtocolVersion string         `json:"protocolVersion"`
			Meta            map[string]any `json:"_meta"`
		} `json:"params"`
	}
	_ = json.Unmarshal(tr[0].Bytes, &first)
	var reply struct {
		Result struct {
			ProtocolVersion   string   `json:"protocolVersion"`
			SupportedVersions []string `json:"supportedVersions"`
			ResultType        string   `json:"resultType"`
		} `json:"result"`
	}
	_ = json.Unmarshal(tr[1].Bytes, &reply)
	if tr[0].Dir != wire.ClientToServer || tr[1].Dir != wire.ServerToClient || tr[0].ID() != tr[1].ID() {
		t.Errorf("the handshake reply does not answer the handshake request: %s / %s", tr[0].Bytes, tr[1].Bytes)
	}
	if rev.Stateless() {
		if tr[0].Method() != "server/discover" || first.Params.Meta[mcp.MetaKeyProtocolVersion] != string(rev) {
			t.Errorf("2026-07-28 must open with server/discover carrying _meta protocolVersion: %s", tr[0].Bytes)
		}
		if reply.Result.ResultType != "complete" || !contains(reply.Result.SupportedVersions, string(rev)) {
			t.Errorf("server/discover reply: %s", tr[1].Bytes)
		}
		if tr[2].Method() != "tools/list" {
			t.Errorf("after discover comes tools/list, got %s", tr[2].Bytes)
		}
		for _, m := range tr {
			if m.Method() == "initialize" || m.Method() == "notifications/initialized" {
				t.Errorf("a stateless session sent %s", m.Method())
			}
		}
		return
	}
	if tr[0].Method() != "initialize" || first.Params.ProtocolVersion != string(rev) || reply.Result.ProtocolVersion != string(rev) {
		t.Errorf("want initialize for %s and a reply with the same protocolVersion:\n%s\n%s", rev, tr[0].Bytes, tr[1].Bytes)
	}
	if tr[2].Method() != "notifications/initialized" || tr[3].Method() != "tools/list" {
		t.Errorf("after initialize: notifications/initialized then tools/list, got %s and %s", tr[2].Bytes, tr[3].Bytes)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
