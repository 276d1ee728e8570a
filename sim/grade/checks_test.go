package grade

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/sim/rules"
)

// call is a tools/call request with id 7.
func call(tool, args string) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, tool, args))
}

// result is a response with id 7 carrying result.
func result(res string) []byte { return []byte(`{"jsonrpc":"2.0","id":7,"result":` + res + `}`) }

// protoErr is a response with id 7 carrying a JSON-RPC error.
func protoErr(code int, msg string) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"error":{"code":%d,"message":%q}}`, code, msg))
}

// errResult is an isError result whose structuredContent is meta, mirrored.
func errResult(meta string) []byte {
	b, _ := json.Marshal(meta)
	return result(`{"content":[{"type":"text","text":` + string(b) + `}],"structuredContent":` + meta + `,"isError":true}`)
}

// textResult is a result with one text block.
func textResult(text string, isError bool) []byte {
	b, _ := json.Marshal(text)
	return result(fmt.Sprintf(`{"content":[{"type":"text","text":%s}],"isError":%v}`, b, isError))
}

var lookupTool = Tool{Name: "lookup_order",
	InputSchema:  json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string","pattern":"^ORD-\\d{4}$"},"limit":{"type":"integer","minimum":1,"maximum":10}},"required":["order_id"]}`),
	OutputSchema: json.RawMessage(`{"type":"object","required":["resultCount"],"properties":{"resultCount":{"type":"integer"}}}`)}

// checkCases make each check fire; TestEveryCheckHasACase holds the
// catalogue to it.
var checkCases = []struct {
	name string
	in   Input
	want CheckID
}{
	{"not JSON", Input{Response: []byte(`{"jsonrpc":"2.0",`)}, CheckUnparsable},
	{"invalid UTF-8", Input{Response: result("{\"content\":[{\"type\":\"text\",\"text\":\"Order \xff\xfe found\"}]}")}, CheckUTF8},
	{"jsonrpc 1.0", Input{Response: []byte(`{"jsonrpc":"1.0","id":7,"result":{"content":[]}}`)}, CheckJSONRPC},
	{"id missing", Input{Response: []byte(`{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"ok"}]}}`)}, CheckEnvelopeID},
	{"id not the request's", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Response: []byte(`{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"Order ORD-4471 shipped."}]}}`)}, CheckEnvelopeID},
	{"id an object", Input{Response: []byte(`{"jsonrpc":"2.0","id":{"a":1},"result":{"content":[{"type":"text","text":"ok"}]}}`)}, CheckEnvelopeID},
	{"id null on a tool error", Input{Response: []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"boom"}}`)}, CheckEnvelopeID},
	{"result and error", Input{Response: []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[]},"error":{"code":-32603,"message":"x"}}`)}, CheckBoth},
	{"isError sent twice", Input{Response: []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"a"}],"isError":true,"isError":false}}`)}, CheckDuplicateMember},
	{"id sent twice", Input{Response: []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"a"}]},"id":8}`)}, CheckDuplicateMember},
	{"errorCategory sent twice", Input{Response: errResult(`{"errorCategory":"transient","errorCategory":"business","isRetryable":true,"description":"The order database timed out; send the same call again."}`)}, CheckDuplicateMember},
	{"id 1e400", Input{Response: []byte(`{"jsonrpc":"2.0","id":1e400,"result":{"content":[{"type":"text","text":"Order ORD-4471 shipped."}]}}`)}, CheckEnvelopeID},
	{"id past 2^53", Input{Response: []byte(`{"jsonrpc":"2.0","id":9007199254740993,"result":{"content":[{"type":"text","text":"Order ORD-4471 shipped."}]}}`)}, CheckEnvelopeID},
	{"too large", Input{Response: textResult(strings.Repeat("x", MaxResponseBytes), false)}, CheckTooLarge},
	{"structuredContent too large for the schema", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Tools: []Tool{lookupTool},
		Response: result(`{"content":[{"type":"text","text":"big"}],"structuredContent":{"resultCount":1,"pad":"` + strings.Repeat("x", maxValidatedBytes) + `"}}`)}, CheckSchemaUnchecked},
	{"neither", Input{Response: []byte(`{"jsonrpc":"2.0","id":7}`)}, CheckNeither},
	{"no content", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Response: result(`{"isError":true,"structuredContent":{"errorCategory":"transient","isRetryable":true,"description":"The order database timed out; send the same call again in a few seconds."}}`)}, CheckNoContent},
	{"2026 without resultType", Input{Spec: rules.Rev20260728, Response: textResult("Order ORD-4471 shipped on 2026-09-18.", false)}, CheckResultType},
	{"Go error as -32603", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Response: protoErr(-32603, "order store unavailable")}, CheckGoError},
	{"-32000 from a tool", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Response: protoErr(-32000, "order store unavailable")}, CheckExecAsProtocol},
	{"-32602 with valid arguments", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Tools: []Tool{lookupTool}, Response: protoErr(-32602, "order ORD-4471 is archived")}, CheckExecAsProtocol},
	{"schema break as -32602 under 2025-11-25", Input{Request: call("lookup_order", `{"order_id":4471}`), Tools: []Tool{lookupTool}, Response: protoErr(-32602, "bad order_id")}, CheckInputValidation},
	{"out of range as -32602 under 2026-07-28", Input{Spec: rules.Rev20260728, Request: call("lookup_order", `{"order_id":"ORD-4471","limit":99}`), Tools: []Tool{lookupTool}, Response: protoErr(-32602, "limit too big")}, CheckInputValidation},
	{"validation words in -32602 with no tools", Input{Request: call("lookup_order", `{}`), Response: protoErr(-32602, "Invalid arguments for tool lookup_order: order_id is required")}, CheckInputValidation},
	{"unknown tool as -32601", Input{Request: call("nope", `{}`), Tools: []Tool{lookupTool}, Response: protoErr(-32601, "Unknown tool: nope")}, CheckUnknownToolCode},
	{"unknown tool as -32603, no tools given", Input{Request: call("nope", `{}`), Response: protoErr(-32603, "Unknown tool: nope")}, CheckUnknownToolCode},
	{"unknown tool as isError", Input{Request: call("nope", `{}`), Tools: []Tool{lookupTool}, Response: textResult("Tool nope not found", true)}, CheckUnknownToolResult},
	{"unknown tool as isError, told by its text", Input{Request: call("nope", `{}`), Response: textResult("MCP error -32602: Tool nope not found", true)}, CheckUnknownToolResult},
	{"unknown tool as success", Input{Request: call("nope", `{}`), Tools: []Tool{lookupTool}, Response: textResult("done", false)}, CheckUnknownToolOK},
	{"unknown method as -32603", Input{Request: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/frobnicate"}`), Response: protoErr(-32603, "no")}, CheckUnknownMethod},
	{"unknown method with a result", Input{Request: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/frobnicate"}`), Response: result(`{}`)}, CheckUnknownMethod},
	{"tools/call as -32601", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Tools: []Tool{lookupTool}, Response: protoErr(-32601, "method not found")}, CheckCallNotFound},
	{"ERROR in a success", Input{Response: textResult("ERROR: permission denied for orders", false)}, CheckErrorAsSuccess},
	{"ok false in a success", Input{Response: result(`{"content":[{"type":"text","text":"{\"ok\":false,\"error\":\"order archived\"}"}],"structuredContent":{"ok":false,"error":"order archived"}}`)}, CheckErrorAsSuccess},
	{"errorCategory in a success", Input{Response: result(`{"content":[{"type":"text","text":"{\"errorCategory\":\"business\"}"}],"structuredContent":{"errorCategory":"business"}}`)}, CheckErrorAsSuccess},
	{"no category", Input{Response: textResult("The order database did not answer in time.", true)}, CheckNoCategory},
	{"unknown category", Input{Response: errResult(`{"errorCategory":"cosmic","isRetryable":false,"description":"A cosmic ray flipped a bit; nothing to do."}`)}, CheckUnknownCategory},
	{"no isRetryable", Input{Response: errResult(`{"errorCategory":"transient","description":"The order database timed out; send the same call again shortly."}`)}, CheckNoRetryable},
	{"business retryable", Input{Response: errResult(`{"errorCategory":"business","isRetryable":true,"description":"Refunds above £500 need a manager's approval.","customerMessage":"A manager must approve this refund."}`)}, CheckWrongRetryable},
	{"validation retryable", Input{Response: errResult(`{"errorCategory":"validation","isRetryable":true,"description":"order_id must be ORD- and four digits, e.g. ORD-4471."}`)}, CheckValidationRetry},
	{"synonyms", Input{Response: errResult(`{"category":"transient","retriable":true,"message":"The order database timed out; send the same call again shortly."}`)}, CheckSynonyms},
	{"envelope", Input{Response: errResult(`{"ok":false,"error":{"category":"transient","retryable":true,"message":"The order database timed out; send the same call again shortly."}}`)}, CheckSynonyms},
	{"Operation failed", Input{Response: textResult("Operation failed", true)}, CheckGeneric},
	{"Operation failed with a category", Input{Response: errResult(`{"errorCategory":"transient","isRetryable":true,"description":"Operation failed."}`)}, CheckGeneric},
	{"no description", Input{Response: errResult(`{"errorCategory":"transient","isRetryable":true}`)}, CheckNoDescription},
	{"Python exception", Input{Response: textResult("KeyError: 'order'", true)}, CheckRawException},
	{"Node ENOENT", Input{Response: textResult("ENOENT: no such file or directory, open 'notes.txt'", true)}, CheckRawException},
	{"panic in -32603", Input{Request: call("lookup_order", `{}`), Response: protoErr(-32603, "panic recovered in lookup_order tool handler: runtime error: index out of range")}, CheckRawException},
	{"structured only", Input{Response: result(`{"content":[],"structuredContent":{"errorCategory":"transient","isRetryable":true,"description":"The order database timed out; resend shortly."},"isError":true}`)}, CheckNoTextBlock},
	{"text not a mirror", Input{Response: result(`{"content":[{"type":"text","text":"Found 2 orders."}],"structuredContent":{"resultCount":2}}`)}, CheckTextNotMirror},
	{"validation names nothing", Input{Response: errResult(`{"errorCategory":"validation","isRetryable":false,"description":"That will not work, sorry."}`)}, CheckValidationField},
	{"business with nothing to say", Input{Response: errResult(`{"errorCategory":"business","isRetryable":false,"description":"No."}`)}, CheckCustomerMessage},
	{"business without customerMessage", Input{Response: errResult(`{"errorCategory":"business","isRetryable":false,"description":"Refunds above £500 need a manager's approval."}`)}, CheckCustomerAdvice},
	{"rate limit without a wait", Input{Response: errResult(`{"errorCategory":"transient","isRetryable":true,"description":"Rate limit reached on the payments API; resend later."}`)}, CheckRetryAfter},
	{"internal without correlationId", Input{Response: errResult(`{"errorCategory":"transient","isRetryable":true,"code":"INTERNAL_ERROR","description":"Something unexpected broke; resend in a minute."}`)}, CheckCorrelationID},
	{"success breaks the schema", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Tools: []Tool{lookupTool}, Response: result(`{"content":[{"type":"text","text":"{\"resultCount\":\"two\"}"}],"structuredContent":{"resultCount":"two"}}`)}, CheckSuccessSchema},
	{"success without structuredContent", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Tools: []Tool{lookupTool}, Response: textResult("Order ORD-4471 shipped.", false)}, CheckMissingStructured},
	{"error breaks the schema", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Tools: []Tool{lookupTool}, Response: errResult(`{"errorCategory":"transient","isRetryable":true,"description":"The order database timed out; send the same call again shortly."}`)}, CheckErrorSchema},
	{"empty list only", Input{Response: result(`{"content":[{"type":"text","text":"[]"}]}`)}, CheckAmbiguousEmpty},
	{"empty collections", Input{Response: result(`{"content":[{"type":"text","text":"{\"orders\":[]}"}],"structuredContent":{"orders":[]}}`)}, CheckAmbiguousEmpty},
	{"hidden failure", Input{Truth: &rules.Situation{Layer: rules.LayerExecution, Category: rules.Transient}, Response: result(`{"content":[{"type":"text","text":"{\"resultCount\":0}"}],"structuredContent":{"resultCount":0}}`)}, CheckHiddenFailure},
	{"Java trace", Input{Response: textResult("Lookup failed\n\tat com.shop.OrderService.find(OrderService.java:88)", true)}, CheckLeakStackTrace},
	{"Ruby trace", Input{Response: textResult("undefined method `total' for nil\n/app/models/order.rb:12:in `refund'", true)}, CheckLeakStackTrace},
	{".NET trace", Input{Response: textResult("Lookup failed\n   at Shop.Orders.Find(String id) in C:\\src\\Orders.cs:line 41", true)}, CheckLeakStackTrace},
	{"PHP trace", Input{Response: textResult("Lookup failed\n#0 /var/www/orders.php(41): find()", true)}, CheckLeakStackTrace},
	{"Rust panic", Input{Response: textResult("thread 'main' panicked at src/orders.rs:41:5", true)}, CheckLeakStackTrace},
	{"Go trace", Input{Response: textResult("lookup failed\ngoroutine 7 [running]:\nmain.lookup()", true)}, CheckLeakStackTrace},
	{"Node trace in a success", Input{Response: textResult("Result pending\n    at lookup (/srv/app/orders.js:41:13)", false)}, CheckLeakStackTrace},
	{"ECONNREFUSED", Input{Response: textResult("Upstream failed: connect ECONNREFUSED", true)}, CheckLeakSystemError},
	{"EACCES", Input{Response: textResult("could not read the ledger (EACCES)", true)}, CheckLeakSystemError},
	{"dial tcp", Input{Response: textResult("lookup failed: dial tcp: lookup orders-db: no such host", true)}, CheckLeakSystemError},
	{"Python errno", Input{Response: textResult("could not open: [Errno 2] No such file or directory", true)}, CheckLeakSystemError},
	{"SQL", Input{Response: textResult("query failed: SELECT * FROM orders WHERE id = 4471", true)}, CheckLeakSQL},
	{"Postgres error", Input{Response: textResult("could not refund: duplicate key value violates unique constraint \"refunds_pkey\"", true)}, CheckLeakSQL},
	{"Bearer token", Input{Response: textResult("upstream refused Authorization Bearer abcdefgh12345678", true)}, CheckLeakSecret},
	{"JWT", Input{Response: textResult("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig rejected", true)}, CheckLeakSecret},
	{"Anthropic key", Input{Response: textResult("upstream refused key sk-ant-api03-abcdefghijklmnopqrstuvwx", true)}, CheckLeakSecret},
	{"AWS key", Input{Response: textResult("S3 refused AKIAIOSFODNN7EXAMPLE", true)}, CheckLeakSecret},
	{"GitHub token", Input{Response: textResult("GitHub refused ghp_abcdefghijklmnopqrstuvwxyz0123456789", true)}, CheckLeakSecret},
	{"password in JSON", Input{Response: errResult(`{"errorCategory":"permission","isRetryable":false,"description":"The login was refused; escalate to an administrator.","config":{"password":"Winter2026!"}}`)}, CheckLeakSecret},
	{"secret in a success", Input{Response: textResult("API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz", false)}, CheckLeakSecret},
	{"private IP", Input{Response: textResult("could not reach 10.0.3.7", true)}, CheckLeakPrivateHost},
	{"host:port", Input{Response: textResult("could not reach orders.example.com:5432", true)}, CheckLeakPrivateHost},
	{"localhost:port", Input{Response: textResult("could not reach localhost:6379", true)}, CheckLeakPrivateHost},
	{"internal host", Input{Response: textResult("could not reach orders-db.prod.internal", true)}, CheckLeakPrivateHost},
	{"absolute path", Input{Response: textResult("could not open '/home/dana/notes.txt'", true)}, CheckLeakPath},
	{"Windows path", Input{Response: textResult("could not open C:\\Users\\dana\\notes.txt", true)}, CheckLeakPath},
	{"path in a -32603 message", Input{Request: call("lookup_order", `{}`), Response: protoErr(-32603, "open /srv/data/orders.db: permission denied")}, CheckLeakPath},
	{"no answer within the timeout", Input{Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Waited: 30 * time.Second}, CheckNoAnswer},
	{"a banner on stdout", Input{Stray: [][]byte{[]byte("Starting fake server v1.0 ...")}}, CheckStrayOutput},
	{"too large to grade", Input{Response: textResult(strings.Repeat("x", MaxGradedBytes), true)}, CheckTooLargeToGrade},
	{"inputSchema true", Input{Request: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`),
		Response: result(`{"tools":[{"name":"t3","inputSchema":true},{"name":"ok","inputSchema":{"type":"object"}}]}`)}, CheckToolDeclaration},
}

func TestEachCheckFires(t *testing.T) {
	for _, c := range checkCases {
		t.Run(c.name, func(t *testing.T) {
			rep := Grade(c.in)
			var ids []CheckID
			for _, f := range rep.Findings {
				ids = append(ids, f.ID)
				if f.Fix == "" || f.Path == "" || f.Message == "" || f.Section == "" {
					t.Errorf("finding %s lacks its fix, path, message or section: %+v", f.ID, f)
				}
			}
			if !slices.Contains(ids, c.want) {
				t.Errorf("want %s, found %v", c.want, ids)
			}
		})
	}
}

// TestEveryCheckHasACase: a check nothing in the tests makes fire is a
// check that cannot be shown to work.
func TestEveryCheckHasACase(t *testing.T) {
	covered := map[CheckID]bool{}
	for _, c := range checkCases {
		covered[c.want] = true
	}
	for _, c := range Checks() {
		if !covered[c.ID] {
			t.Errorf("no test case makes %s fire", c.ID)
		}
		if c.Title == "" || c.Fix == "" || c.Section == "" || strings.HasPrefix(c.Section, "§?") {
			t.Errorf("%s: title, fix or section missing: %+v", c.ID, c)
		}
		if DefectText[c.Defect] == "" || DefectLook[c.Defect] == "" {
			t.Errorf("%s: defect %s has no text", c.ID, c.Defect)
		}
	}
}

// TestCleanResponsesStayClean: the shapes the lessons recommend draw no
// error or warning.
func TestCleanResponsesStayClean(t *testing.T) {
	cases := []struct {
		name string
		in   Input
	}{
		{"transient with retry guidance", Input{Response: errResult(`{"errorCategory":"transient","isRetryable":true,"description":"The order database did not answer within 3 seconds; send the same call again.","correlationId":"corr-1"}`)}},
		{"validation with fieldErrors", Input{Request: call("lookup_order", `{"order_id":"ORD-4471x"}`), Response: errResult(`{"errorCategory":"validation","isRetryable":false,"description":"order_id must be ORD- and four digits.","fieldErrors":[{"field":"order_id"}]}`)}},
		{"validation naming the argument", Input{Request: call("lookup_order", `{"order_id":"ORD-4471x"}`), Response: errResult(`{"errorCategory":"validation","isRetryable":false,"description":"order_id is not an order id we know; check it with the customer."}`)}},
		{"valid empty", Input{Response: result(`{"content":[{"type":"text","text":"{\"resultCount\":0,\"orders\":[]}"}],"structuredContent":{"resultCount":0,"orders":[]}}`)}},
		{"unknown tool as -32602", Input{Request: call("nope", `{}`), Tools: []Tool{lookupTool}, Response: protoErr(-32602, "Unknown tool: nope")}},
		{"schema break as -32602 under 2025-06-18", Input{Spec: rules.Rev20250618, Request: call("lookup_order", `{"order_id":4471}`), Tools: []Tool{lookupTool}, Response: protoErr(-32602, "bad order_id")}},
		{"unknown method as -32601", Input{Request: []byte(`{"jsonrpc":"2.0","id":7,"method":"x/y"}`), Response: protoErr(-32601, "Method not found")}},
		{"parse error with a null id", Input{Response: []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)}},
		{"a string id", Input{Request: []byte(`{"jsonrpc":"2.0","id":"a1","method":"tools/call","params":{"name":"x"}}`), Response: []byte(`{"jsonrpc":"2.0","id":"a1","result":{"content":[{"type":"text","text":"Order ORD-4471 shipped."}]}}`)}},
		{"filesystem listing a path", Input{Response: textResult("[FILE] /tmp/allowed/notes.txt", false)}},
		{"outputSchema null is no schema", Input{Request: call("echo", `{"message":"hi"}`), Tools: []Tool{{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`null`)}}, Response: textResult("Echo: hi", false)}},
		{"2026-07-28 header mismatch as -32020 (serve's own log)", Input{Spec: rules.Rev20260728, Request: call("lookup_order", `{"order_id":"ORD-4471"}`), Tools: []Tool{lookupTool}, Response: protoErr(-32020, "Mcp-Name header does not match params.name")}},
		{"an initialize result", Input{Request: []byte(`{"jsonrpc":"2.0","id":7,"method":"initialize"}`), Response: result(`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if rep := Grade(c.in); rep.Verdict != Clean {
				t.Errorf("got %s: %+v", rep.Verdict, rep.Findings)
			}
		})
	}
}

// TestRealServerFindings are the two responses the issue captured from
// npm's server-filesystem.
func TestRealServerFindings(t *testing.T) {
	// The caller names the file as the tool's description asks, relative
	// to the allowed folder; the answer shows the server's absolute path.
	// (A path the caller gave itself is not a leak: see TestGivenIsNotALeak.)
	enoent := Grade(Input{Request: call("read_text_file", `{"path":"nope.txt"}`),
		Response: textResult("ENOENT: no such file or directory, open '/tmp/allowed/nope.txt'", true)})
	var ids []CheckID
	for _, f := range enoent.Findings {
		ids = append(ids, f.ID)
	}
	for _, want := range []CheckID{CheckRawException, CheckLeakSystemError, CheckLeakPath, CheckNoCategory} {
		if !slices.Contains(ids, want) {
			t.Errorf("raw ENOENT: want %s among %v", want, ids)
		}
	}
	nullSchema := Grade(Input{Request: call("list_allowed_directories", `{}`),
		Tools:    []Tool{{Name: "list_allowed_directories", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(" null ")}},
		Response: textResult("Allowed directories:\n/tmp/allowed", false)})
	if nullSchema.Verdict != Clean {
		t.Errorf("outputSchema null read as a schema: %+v", nullSchema.Findings)
	}
}

// TestSchemaRefsAreNotLoaded: a schema from a server may not make the
// grader read local files.
func TestSchemaRefsAreNotLoaded(t *testing.T) {
	tool := Tool{Name: "t", OutputSchema: json.RawMessage(`{"$ref":"file:///etc/passwd"}`)}
	if sch := compile(tool.DeclaredOutputSchema()); sch != nil {
		t.Fatal("a schema referring to a local file compiled")
	}
	ok := Tool{Name: "t", OutputSchema: json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`)}
	if sch := compile(ok.DeclaredOutputSchema()); sch == nil {
		t.Fatal("a draft-07 schema naming its metaschema did not compile")
	}
}
