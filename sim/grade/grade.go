// Package grade judges any MCP server's response to a request against the
// lesson rules and returns findings, each naming the check it comes from
// (Checks: a stable id, a severity, the LESSON-RULES rule and section, the
// fix) and where in the response it is (a JSON path). It is the one
// implementation of "what is wrong with this response": the quiz's
// spot-the-defects drill, the lab's caveats and `errorlab check` all use
// it, and it reads the rules themselves from sim/rules.
//
// Grade reads hostile input safely: it never panics, refuses responses
// over MaxResponseBytes, reports unreadable input as a finding, and takes
// bounded time (see scanHead and BenchmarkGradeWorstCase).
package grade

import (
	"bytes"
	"encoding/json"
	"sort"
	"time"

	"github.com/errorlab/errorlab/sim/rules"
)

// Severity ranks a finding. Errors fail a response, warnings flag it,
// notes are advice that does not change the verdict.
type Severity string

const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
	SevNote    Severity = "note"
)

// Defect is a stable id for a kind of finding; the spot-the-defects drill
// asks the learner to mark them.
type Defect string

const (
	DefectUnparsable        Defect = "unparsable"
	DefectWrongLayer        Defect = "wrong-layer"         // execution failure sent as a protocol error (or -32603)
	DefectWrongCode         Defect = "wrong-code"          // a protocol error with the wrong JSON-RPC code
	DefectUnknownToolResult Defect = "unknown-tool-result" // unknown tool as isError (contested)
	DefectNoCategory        Defect = "no-category"
	DefectUnknownCategory   Defect = "unknown-category"
	DefectNoRetryable       Defect = "no-retryable"
	DefectWrongRetryable    Defect = "wrong-retryable"
	DefectNoDescription     Defect = "no-description"
	DefectGenericMessage    Defect = "generic-message"
	DefectRawException      Defect = "raw-exception"
	DefectLeak              Defect = "leak"
	DefectErrorAsSuccess    Defect = "error-as-success"
	DefectAmbiguousEmpty    Defect = "ambiguous-empty"
	DefectNoTextBlock       Defect = "no-text-block"
	DefectSchemaMismatch    Defect = "schema-mismatch"
	DefectMissingStructured Defect = "missing-structured"
	DefectNoRetryAfter      Defect = "no-retry-after"
	DefectNoCorrelationID   Defect = "no-correlation-id"
	DefectNoCustomerMessage Defect = "no-customer-message"
	DefectNoFieldErrors     Defect = "no-field-errors"
	DefectSynonyms          Defect = "non-canonical-names"
	DefectNoResultType      Defect = "no-result-type"
	DefectHiddenFailure     Defect = "hidden-failure" // needs Input.Truth: a failure sent as a success
	DefectMalformed         Defect = "malformed-envelope"
	DefectTextNotMirror     Defect = "text-not-mirror"
	DefectTooLarge          Defect = "too-large"
	DefectNoAnswer          Defect = "no-answer"
)

// DefectText says, for a learner, what each defect is.
var DefectText = map[Defect]string{
	DefectUnparsable:        "the response is not a readable JSON-RPC response",
	DefectWrongLayer:        "a tool execution failure sent as a JSON-RPC protocol error",
	DefectWrongCode:         "a protocol error with the wrong JSON-RPC code",
	DefectUnknownToolResult: "an unknown tool reported as isError instead of -32602",
	DefectNoCategory:        "isError without an errorCategory",
	DefectUnknownCategory:   "an errorCategory that is none of the four",
	DefectNoRetryable:       "no isRetryable flag",
	DefectWrongRetryable:    "isRetryable contradicts the category",
	DefectNoDescription:     "no description of what went wrong and what to try",
	DefectGenericMessage:    "a generic \"Operation failed\" message",
	DefectRawException:      "a raw exception or stack trace as the message",
	DefectLeak:              "internals leaked to the model (trace, SQL, token, host)",
	DefectErrorAsSuccess:    "error text inside a result without isError",
	DefectAmbiguousEmpty:    "an empty success that cannot be told from a failure",
	DefectNoTextBlock:       "structuredContent with no text block",
	DefectSchemaMismatch:    "structuredContent that breaks the declared outputSchema",
	DefectMissingStructured: "a success without the structuredContent its outputSchema requires",
	DefectNoRetryAfter:      "a rate limit without retryAfterSeconds",
	DefectNoCorrelationID:   "an unexpected fault without a correlationId",
	DefectNoCustomerMessage: "a business refusal without a customerMessage",
	DefectNoFieldErrors:     "a validation error without fieldErrors or an example",
	DefectSynonyms:          "metadata under non-canonical names",
	DefectNoResultType:      "a 2026-07-28 result without resultType",
	DefectHiddenFailure:     "a failure passed off as a successful result",
	DefectMalformed:         "a JSON-RPC envelope that breaks JSON-RPC 2.0",
	DefectTextNotMirror:     "a text block that does not mirror structuredContent",
	DefectTooLarge:          "a result too large for a model to read at once",
	DefectNoAnswer:          "a request the server never answered",
}

// DefectLook says how each defect would show in a response, for a learner
// told "not here": what to look for next time.
var DefectLook = map[Defect]string{
	DefectUnparsable:        "the bytes would not parse as one JSON-RPC response",
	DefectWrongLayer:        "there would be a JSON-RPC error member where a tool result belongs",
	DefectWrongCode:         "the error member's code would not fit the failure (e.g. -32601 for a tool call)",
	DefectUnknownToolResult: "a result with isError would answer a tool name the server does not have",
	DefectNoCategory:        "isError would be true with no errorCategory anywhere",
	DefectUnknownCategory:   "errorCategory would hold a name outside the four",
	DefectNoRetryable:       "a category would be given but no isRetryable",
	DefectWrongRetryable:    "isRetryable would contradict the category (true for business, false for transient)",
	DefectNoDescription:     "the result would say nothing about what went wrong or what to try",
	DefectGenericMessage:    "the only text would be something like \"Operation failed\"",
	DefectRawException:      "the text would be an exception name, a traceback or a panic message",
	DefectLeak:              "the text would show file paths, SQL, tokens, passwords or private hosts",
	DefectErrorAsSuccess:    "a result without isError would carry text such as \"ERROR: ...\"",
	DefectAmbiguousEmpty:    "a success would carry only empty lists, with no resultCount or sentence",
	DefectNoTextBlock:       "structuredContent would be there but the content array empty",
	DefectSchemaMismatch:    "structuredContent would break the tool's declared outputSchema",
	DefectMissingStructured: "a success from a tool with an outputSchema would have no structuredContent",
	DefectNoRetryAfter:      "a rate limit would give no retryAfterSeconds",
	DefectNoCorrelationID:   "an unexpected fault would give no correlationId",
	DefectNoCustomerMessage: "a business refusal would give no customerMessage",
	DefectNoFieldErrors:     "a validation error would name no field and give no example",
	DefectSynonyms:          "the metadata would use names like category or retriable",
	DefectNoResultType:      "a 2026-07-28 result would lack resultType",
	DefectHiddenFailure:     "a failed call would come back as an ordinary success",
	DefectMalformed:         "jsonrpc, id, result or error would be missing, doubled or wrong",
	DefectTextNotMirror:     "structuredContent would hold data that no text block repeats as JSON",
	DefectTooLarge:          "the response would run to hundreds of kilobytes",
	DefectNoAnswer:          "the client would wait in vain: no response at all came back",
}

// Related lists defects that are true whenever the key defect is: a
// drill must not offer them as "not here".
var Related = map[Defect][]Defect{
	DefectErrorAsSuccess: {DefectHiddenFailure},
	DefectRawException:   {DefectLeak},
	DefectGenericMessage: {DefectNoCategory, DefectNoDescription},
	DefectWrongLayer:     {DefectRawException},
}

// Finding is one thing the grader noticed: which check (ID, with its
// Severity, Defect, Rule and Section), where in the response (Path, a
// JSON path such as "$.result.content[0].text"), what is wrong here
// (Message) and how to fix it (Fix, the check's).
type Finding struct {
	ID       CheckID  `json:"id"`
	Severity Severity `json:"severity"`
	Defect   Defect   `json:"defect"`
	Rule     string   `json:"rule"`    // a rules id, e.g. "metadata.fields"
	Section  string   `json:"section"` // e.g. "§3"
	Path     string   `json:"path"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix"`
}

// Tool is a tool declaration as tools/list gives it; other members
// (description, annotations) are ignored here.
type Tool struct {
	Name         string          `json:"name"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// DeclaredOutputSchema is the tool's outputSchema, or nil when it declares
// none: absent, empty, or JSON null (a null is how some SDKs write "no
// schema", so it must not be read as a schema every success has to meet).
func (t Tool) DeclaredOutputSchema() json.RawMessage { return declared(t.OutputSchema) }

// DeclaredInputSchema is the tool's inputSchema, or nil (absent or null).
func (t Tool) DeclaredInputSchema() json.RawMessage { return declared(t.InputSchema) }

func declared(schema json.RawMessage) json.RawMessage {
	s := bytes.TrimSpace(schema)
	if len(s) == 0 || string(s) == "null" {
		return nil
	}
	return s
}

// Input is what the grader looks at. Only Response is required; Request
// and Tools let it judge the layer (unknown tool, unknown method, input
// schema), Spec the revision's rules (default 2025-11-25).
type Input struct {
	Request  []byte
	Response []byte
	Tools    []Tool
	Spec     rules.Revision
	// Truth, when known (a lab scenario), is what really happened; it lets
	// the grader catch a failure passed off as an empty success that
	// claims the query ran, which no envelope alone can show.
	Truth *rules.Situation
	// Waited, when Response is empty, is how long the client waited for
	// an answer that never came (a live probe's timeout): the finding is
	// envelope.no-answer rather than an unreadable response.
	Waited time.Duration
	// Ended, when Response is empty, is how the server's process ended
	// before it answered ("exit status 3"): the finding is
	// envelope.no-answer, saying the server exited.
	Ended string
	// Stray holds lines a stdio server wrote on stdout that are not
	// JSON-RPC messages (a banner, a log line): each is an
	// envelope.stray-output finding. With Stray and no Response, only
	// they are graded.
	Stray [][]byte
}

// Verdict sums up the findings: "fail" on any error, "warn" on any
// warning, else "clean".
type Verdict string

const (
	Clean Verdict = "clean"
	Warn  Verdict = "warn"
	Fail  Verdict = "fail"
)

// Report is the grader's answer.
type Report struct {
	Verdict  Verdict   `json:"verdict"`
	Findings []Finding `json:"findings"`
	// Classification is what the response says (layer, category,
	// isRetryable, empty); nil for a response that could not be read. Its
	// Meta is left out: the findings say what the metadata holds.
	Classification *rules.Classification `json:"classification,omitempty"`
}

// Has reports whether a defect was found.
func (r Report) Has(d Defect) bool {
	for _, f := range r.Findings {
		if f.Defect == d {
			return true
		}
	}
	return false
}

// Defects lists the distinct defects found, sorted.
func (r Report) Defects() []Defect {
	seen := map[Defect]bool{}
	var out []Defect
	for _, f := range r.Findings {
		if !seen[f.Defect] {
			seen[f.Defect] = true
			out = append(out, f.Defect)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
