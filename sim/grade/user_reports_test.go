package grade

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/sim/rules"
)

// What a new user of `errorlab check` found graded wrongly, each case a
// response as a real server sends it.

func ids(rep Report) []CheckID {
	var out []CheckID
	for _, f := range rep.Findings {
		out = append(out, f.ID)
	}
	return out
}

func findingOf(rep Report, id CheckID) (Finding, bool) {
	for _, f := range rep.Findings {
		if f.ID == id {
			return f, true
		}
	}
	return Finding{}, false
}

var searchTool = Tool{Name: "search_orders",
	InputSchema:  json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`),
	OutputSchema: json.RawMessage(`{"type":"object","properties":{"resultCount":{"type":"integer"},"orders":{"type":"array"}}}`)}

// A failure passed off as an empty result is found from the bytes alone
// when the result says so: an error member, or words saying the source
// could not be reached or the query did not run (LESSON-RULES §3, §4).
func TestEmptySuccessHidingAFailure(t *testing.T) {
	req := call("search_orders", `{"q":"ORD-9999"}`)
	cases := []struct{ name, res string }{
		{"an error member", `{"content":[{"type":"text","text":"{\"orders\":[],\"error\":\"database timeout\"}"}],"structuredContent":{"orders":[],"error":"database timeout"}}`},
		{"the text says it could not reach the source", `{"content":[{"type":"text","text":"Could not reach the order database, so no orders were returned."},{"type":"text","text":"{\"resultCount\":0,\"orders\":[]}"}],"structuredContent":{"resultCount":0,"orders":[]}}`},
		{"a warning member that says timeout", `{"content":[{"type":"text","text":"{\"resultCount\":0,\"orders\":[],\"warning\":\"database timeout\"}"}],"structuredContent":{"resultCount":0,"orders":[],"warning":"database timeout"}}`},
		{"text only: the query did not run", `{"content":[{"type":"text","text":"No orders were found because the query did not run: the index is unavailable."}]}`},
		{"an {ok, data, error} envelope with ok true", `{"content":[{"type":"text","text":"{\"ok\":true,\"data\":[],\"error\":{\"message\":\"upstream timed out\"}}"}],"structuredContent":{"ok":true,"data":[],"error":{"message":"upstream timed out"}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := Grade(Input{Request: req, Tools: []Tool{searchTool}, Response: result(c.res)})
			if !rep.Has(DefectHiddenFailure) || rep.Verdict != Fail {
				t.Errorf("a failure passed off as empty graded %s: %v", rep.Verdict, ids(rep))
			}
		})
	}
	// A valid empty stays clean, even when the caller searched for a word
	// that reads as a failure.
	clean := []struct{ name, req, res string }{
		{"0 matches, the query ran", `{"q":"ORD-9999"}`, `{"content":[{"type":"text","text":"{\"resultCount\":0,\"orders\":[]}"}],"structuredContent":{"resultCount":0,"orders":[]}}`},
		{"a search for the word timeout", `{"q":"timeout"}`, `{"content":[{"type":"text","text":"{\"resultCount\":0,\"orders\":[],\"summary\":\"0 orders match timeout; the query ran.\"}"}],"structuredContent":{"resultCount":0,"orders":[],"summary":"0 orders match timeout; the query ran."}}`},
		{"error null in an envelope", `{"q":"x"}`, `{"content":[{"type":"text","text":"{\"ok\":true,\"resultCount\":0,\"data\":[],\"error\":null}"}],"structuredContent":{"ok":true,"resultCount":0,"data":[],"error":null}}`},
	}
	for _, c := range clean {
		t.Run(c.name, func(t *testing.T) {
			rep := Grade(Input{Request: call("search_orders", c.req), Response: result(c.res)})
			if rep.Has(DefectHiddenFailure) {
				t.Errorf("a valid empty result read as a hidden failure: %+v", rep.Findings)
			}
		})
	}
}

// With the truth known (the lab), an empty success that claims the query
// ran is a hidden failure too.
func TestTruthShowsAHiddenFailure(t *testing.T) {
	res := result(`{"content":[{"type":"text","text":"{\"resultCount\":0,\"orders\":[],\"summary\":\"0 orders match ORD-4471; the query ran.\"}"}],"structuredContent":{"resultCount":0,"orders":[],"summary":"0 orders match ORD-4471; the query ran."}}`)
	if rep := Grade(Input{Response: res}); rep.Has(DefectHiddenFailure) {
		t.Fatalf("without the truth, a plausible empty result is a hidden failure: %v", ids(rep))
	}
	truth := rules.Situation{Layer: rules.LayerExecution, Category: rules.Transient}
	if rep := Grade(Input{Response: res, Truth: &truth}); !rep.Has(DefectHiddenFailure) {
		t.Fatalf("with the truth, no hidden failure: %v", ids(rep))
	}
}

// A raw exception in the description of a structured error is a raw
// exception, as it is in bare text (LESSON-RULES §3).
func TestRawExceptionInDescription(t *testing.T) {
	for _, desc := range []string{"KeyError: 'order'", "TypeError: Cannot read properties of undefined (reading 'id')",
		"java.lang.NullPointerException", "ValueError: invalid literal for int() with base 10: 'x'",
		"AttributeError: 'NoneType' object has no attribute 'total'"} {
		t.Run(desc, func(t *testing.T) {
			meta, _ := json.Marshal(map[string]any{"errorCategory": "transient", "isRetryable": true, "description": desc, "correlationId": "c-1"})
			rep := Grade(Input{Response: errResult(string(meta))})
			f, ok := findingOf(rep, CheckRawException)
			if !ok {
				t.Fatalf("no raw-exception: %v", ids(rep))
			}
			if f.Path != "$.result.structuredContent.description" {
				t.Errorf("path %s, want the description", f.Path)
			}
		})
	}
}

// Only the four exact names are canonical; every other value gets the
// same warning, naming the canonical value it resembles.
func TestNonCanonicalCategories(t *testing.T) {
	cases := map[string]rules.Category{
		"timeout": rules.Transient, "network": rules.Transient, "TRANSIENT": rules.Transient, "unavailable": rules.Transient,
		"network_error": rules.Transient, "Validation": rules.Validation, "auth": rules.Permission, "forbidden": rules.Permission,
		"conflict": rules.Business,
	}
	for value, want := range cases {
		t.Run(value, func(t *testing.T) {
			meta, _ := json.Marshal(map[string]any{"errorCategory": value, "isRetryable": want.Retryable(),
				"description": "The order store refused the call; see the code for what to do next, e.g. wait 5 s.", "customerMessage": "I cannot do that right now.", "correlationId": "c-1", "fieldErrors": []any{}})
			rep := Grade(Input{Response: errResult(string(meta))})
			f, ok := findingOf(rep, CheckUnknownCategory)
			if !ok || f.Severity != SevWarning {
				t.Fatalf("%q: no category-unknown warning: %v", value, ids(rep))
			}
			if !strings.Contains(f.Message, `"`+string(want)+`"`) {
				t.Errorf("%q: the message does not name %s: %s", value, want, f.Message)
			}
		})
	}
	for _, c := range rules.Categories {
		meta, _ := json.Marshal(map[string]any{"errorCategory": c, "isRetryable": c.Retryable(), "description": "x"})
		if rep := Grade(Input{Response: errResult(string(meta))}); rep.Has(DefectUnknownCategory) {
			t.Errorf("canonical %s flagged: %+v", c, rep.Findings)
		}
	}
}

// A validation error that names the argument or gives an example names
// what to correct, even when the request lacks that argument.
func TestValidationNamingTheField(t *testing.T) {
	for _, desc := range []string{
		`The order_id argument is malformed. Example: {"order_id": "ORD-4471"}`,
		`api_key is missing; pass the api_key argument (example: "k-123")`,
		`email must look like name@example.com`,
	} {
		t.Run(desc, func(t *testing.T) {
			meta, _ := json.Marshal(map[string]any{"errorCategory": "validation", "isRetryable": false, "description": desc})
			rep := Grade(Input{Request: call("signup", `{"full_name":"Dana Ray"}`), Response: errResult(string(meta))})
			if rep.Has(DefectNoFieldErrors) {
				t.Errorf("field-missing on a description that names the field: %+v", rep.Findings)
			}
		})
	}
}

// A stack frame's file:line is a stack trace, not a host and port, and
// text is read decoded: a Go frame after a tab is "orders.go:42".
func TestFileLineIsNotHostPort(t *testing.T) {
	for _, desc := range []string{
		"java.lang.NullPointerException\n\tat com.shop.orders.Lookup.find(Lookup.java:88)",
		"thread 'main' panicked at src/orders.rs:42:9",
		"TypeError: x is undefined\n    at lookup (orders.js:42:13)",
		"panic: nil map\ngoroutine 1 [running]:\nmain.lookup(...)\n\torders.go:42 +0x1d",
	} {
		t.Run(desc[:12], func(t *testing.T) {
			meta, _ := json.Marshal(map[string]any{"errorCategory": "transient", "isRetryable": true, "description": desc, "correlationId": "c-1"})
			rep := Grade(Input{Response: errResult(string(meta))})
			if rep.Has(DefectLeak) && slices.Contains(ids(rep), CheckLeakPrivateHost) {
				t.Errorf("file:line read as host:port: %+v", rep.Findings)
			}
			f, ok := findingOf(rep, CheckLeakStackTrace)
			if !ok {
				t.Fatalf("no stack trace found: %v", ids(rep))
			}
			if strings.Contains(f.Message, "torders") || strings.Contains(f.Message, `\`) {
				t.Errorf("the finding quotes escaped JSON, not the decoded text: %s", f.Message)
			}
		})
	}
	// A real host:port is still one.
	if rep := Grade(Input{Response: textResult("could not reach orders.example.com:5432 (see Lookup.java:88)", true)}); !slices.Contains(ids(rep), CheckLeakPrivateHost) {
		t.Errorf("host:port after a file:line missed: %v", ids(rep))
	}
}

// A tools/call whose params break the request schema (no tool name) is a
// protocol error, rightly: no tool ran (LESSON-RULES §1).
func TestToolsCallWithoutAName(t *testing.T) {
	req := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`)
	rep := Grade(Input{Request: req, Response: protoErr(-32602, "params.name is required")})
	if rep.Verdict != Clean {
		t.Errorf("-32602 for a tools/call with no name: %+v", rep.Findings)
	}
	rep = Grade(Input{Request: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":42}}`), Response: protoErr(-32602, "name must be a string")})
	if rep.Verdict != Clean {
		t.Errorf("-32602 for a tools/call with a number for a name: %+v", rep.Findings)
	}
}

// A path the caller gave is not a leak; the server's own root is, and is
// quoted as the model reads it (decoded, with no stray backslash).
func TestGivenIsNotALeak(t *testing.T) {
	req := call("read_text_file", `{"path":"/etc/passwd"}`)
	rep := Grade(Input{Request: req, Response: textResult("Access denied: /etc/passwd is outside the allowed directories (/srv/fsroot/allowed)", true)})
	f, ok := findingOf(rep, CheckLeakPath)
	if !ok {
		t.Fatalf("the server's root not found: %v", ids(rep))
	}
	if !strings.Contains(f.Message, `"/srv/fsroot/allowed"`) || strings.Contains(f.Message, "passwd") {
		t.Errorf("leak.path quotes %s; want the server's root", f.Message)
	}
	rep = Grade(Input{Request: req, Response: errResult(`{"errorCategory":"permission","isRetryable":false,"description":"cannot open \"/etc/passwd\": it is outside the allowed folder."}`)})
	if slices.Contains(ids(rep), CheckLeakPath) {
		t.Errorf("the caller's own path is a leak: %+v", rep.Findings)
	}
	rep = Grade(Input{Request: call("read_text_file", `{"path":"notes.txt"}`), Response: errResult(`{"errorCategory":"validation","isRetryable":false,"description":"cannot open \"/etc/passwd\": no such file; use a path inside the folder, e.g. notes.txt."}`)})
	f, ok = findingOf(rep, CheckLeakPath)
	if !ok || !strings.Contains(f.Message, `"/etc/passwd"`) {
		t.Errorf("want /etc/passwd quoted decoded: %+v", rep.Findings)
	}
}

// Secrets are masked in findings: a short prefix and the length.
func TestSecretsAreMasked(t *testing.T) {
	token := "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	for _, text := range []string{"GitHub refused " + token, "login failed: password=Winter2026!Secret", "upstream said Authorization: Bearer " + token} {
		rep := Grade(Input{Response: textResult(text, true)})
		f, ok := findingOf(rep, CheckLeakSecret)
		if !ok {
			t.Fatalf("%q: no secret found: %v", text, ids(rep))
		}
		if strings.Contains(f.Message, token) || strings.Contains(f.Message, "Winter2026") || !strings.Contains(f.Message, "characters)") {
			t.Errorf("secret not masked: %s", f.Message)
		}
	}
}

// The synonyms of LESSON-RULES §3 are read and named, consistently:
// recoverable stands for the retry flag (noted, not a missing flag) and
// suggested_action counts as description.
func TestSynonymsRecognised(t *testing.T) {
	rep := Grade(Input{Response: errResult(`{"category":"transient","recoverable":true,"message":"The order store timed out; the lookup did not run. Send the same call again shortly."}`)})
	if rep.Verdict != Clean {
		t.Errorf("recoverable read as a missing isRetryable: %+v", rep.Findings)
	}
	f, ok := findingOf(rep, CheckSynonyms)
	if !ok {
		t.Fatalf("no synonyms note: %v", ids(rep))
	}
	for _, name := range []string{"category", "recoverable", "message"} {
		if !strings.Contains(f.Message, name) {
			t.Errorf("the note does not name %s: %s", name, f.Message)
		}
	}
	rep = Grade(Input{Response: errResult(`{"errorCategory":"transient","isRetryable":true,"description":"Busy.","suggested_action":"Wait five seconds and send the same call again."}`)})
	if rep.Has(DefectNoDescription) {
		t.Errorf("suggested_action not read as what to try next: %+v", rep.Findings)
	}
	if f, ok := findingOf(rep, CheckSynonyms); !ok || !strings.Contains(f.Message, "suggested_action") {
		t.Errorf("suggested_action not named: %+v", rep.Findings)
	}
}

// A large isError response is graded, not only called large.
func TestLargeErrorIsGraded(t *testing.T) {
	rep := Grade(Input{Response: textResult("Lookup failed: "+strings.Repeat("x", 600<<10), true)})
	if !rep.Has(DefectTooLarge) || !slices.Contains(ids(rep), CheckNoCategory) || rep.Verdict != Fail {
		t.Errorf("600 KiB isError: %s %v", rep.Verdict, ids(rep))
	}
}

// Envelope messages say what is wrong in the user's terms.
func TestEnvelopeMessages(t *testing.T) {
	cases := []struct{ resp, want string }{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":42}]}}`, "result.content[0].text is a number"},
		{`{"jsonrpc":"2.0","id":7,"result":null}`, "the result member is null"},
	}
	for _, c := range cases {
		rep := Grade(Input{Response: []byte(c.resp)})
		if len(rep.Findings) == 0 || !strings.Contains(rep.Findings[0].Message, c.want) {
			t.Errorf("%s: want %q in %+v", c.resp, c.want, rep.Findings)
		}
	}
}

// Errors dressed as success (second new-user round): a success whose
// text or structuredContent says the call failed, in the shapes servers
// send (LESSON-RULES §3 synonyms of ok: false; §4 for an unreachable
// source), fails the check; the nearby shapes of a real success stay
// clean.
func TestErrorsDressedAsSuccess(t *testing.T) {
	req := call("get_user", `{"user_id":5}`)
	asText := func(s string) []byte {
		b, _ := json.Marshal(s)
		return result(`{"content":[{"type":"text","text":` + string(b) + `}]}`)
	}
	asBoth := func(obj string) []byte {
		b, _ := json.Marshal(obj)
		return result(`{"content":[{"type":"text","text":` + string(b) + `}],"structuredContent":` + obj + `}`)
	}
	fails := []struct {
		name string
		res  []byte
		want CheckID
	}{
		{"status error in text", asText(`{"status":"error","message":"user not found"}`), CheckErrorAsSuccess},
		{"an error member alone in text", asText(`{"error":"user not found"}`), CheckErrorAsSuccess},
		{"success false in text", asText(`{"success":false,"message":"user not found"}`), CheckErrorAsSuccess},
		{"an error object alone in text", asText(`{"error":{"code":403,"message":"forbidden"}}`), CheckErrorAsSuccess},
		{"a failed request's message", asText(`Request failed with status code 500`), CheckErrorAsSuccess},
		{"internal server error", asText(`Internal server error`), CheckErrorAsSuccess},
		{"could not connect", asText(`Could not connect to the database`), CheckHiddenFailure},
		{"status error in structuredContent", asBoth(`{"status":"error","message":"user not found"}`), CheckErrorAsSuccess},
		{"an error member alone in structuredContent", asBoth(`{"error":"user not found"}`), CheckErrorAsSuccess},
		{"success false in structuredContent", asBoth(`{"success":false,"message":"user not found"}`), CheckErrorAsSuccess},
		{"Status FAILED with null data", asBoth(`{"Status":"FAILED","data":null,"message":"upstream refused"}`), CheckErrorAsSuccess},
	}
	for _, c := range fails {
		t.Run(c.name, func(t *testing.T) {
			rep := Grade(Input{Request: req, Response: c.res})
			if _, ok := findingOf(rep, c.want); !ok || rep.Verdict != Fail {
				t.Errorf("graded %s %v, want %s", rep.Verdict, ids(rep), c.want)
			}
		})
	}
	clean := []struct {
		name string
		res  []byte
	}{
		{"status shipped", asBoth(`{"status":"shipped","orderId":"ORD-4471"}`)},
		{"success true with data", asBoth(`{"success":true,"data":{"id":5,"name":"Ada"}}`)},
		{"data beside a null error", asBoth(`{"user":{"id":5},"error":null}`)},
		{"a sentence about a courier", asText(`Order ORD-4471 is out for delivery; the courier will call before arriving.`)},
		{"a long text that mentions a past outage", asText(strings.Repeat("Order ORD-4471 shipped on Monday. ", 8) + "The warehouse was down for an hour on Sunday.")},
	}
	for _, c := range clean {
		t.Run(c.name, func(t *testing.T) {
			if rep := Grade(Input{Request: req, Response: c.res}); rep.Verdict == Fail {
				t.Errorf("a success graded fail: %+v", rep.Findings)
			}
		})
	}
}
