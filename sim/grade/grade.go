// Package grade judges any MCP server's response to a request against the
// lesson rules and returns findings, each naming the rule it comes from.
// It is the one implementation of "what is wrong with this response": the
// quiz's spot-the-defects drill and `errorlab check` both use it.
//
// Grade reads hostile input safely: it never panics, caps sizes (see
// rules.MaxEnvelopeBytes), and reports unreadable input as a finding.
package grade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

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
}

// Related lists defects that are true whenever the key defect is: a
// drill must not offer them as "not here".
var Related = map[Defect][]Defect{
	DefectErrorAsSuccess: {DefectHiddenFailure},
	DefectRawException:   {DefectLeak},
	DefectGenericMessage: {DefectNoCategory, DefectNoDescription},
	DefectWrongLayer:     {DefectRawException},
}

// Finding is one thing the grader noticed.
type Finding struct {
	Defect   Defect   `json:"defect"`
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`    // a rules id, e.g. "metadata.fields"
	Section  string   `json:"section"` // e.g. "§3"
	Message  string   `json:"message"`
}

// Tool is a tool declaration as tools/list gives it.
type Tool struct {
	Name         string          `json:"name"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
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
	// the grader catch a failure passed off as an empty success, which no
	// envelope alone can show.
	Truth *rules.Situation
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
	Verdict        Verdict               `json:"verdict"`
	Findings       []Finding             `json:"findings"`
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

type grader struct {
	in       Input
	findings []Finding
	method   string
	toolName string
	args     json.RawMessage
	tool     *Tool
	known    bool // the tool name is in Tools (only meaningful when Tools given)
}

func (g *grader) add(d Defect, sev Severity, rule, msg string, a ...any) {
	r := rules.Lookup(rule)
	g.findings = append(g.findings, Finding{Defect: d, Severity: sev, Rule: rule, Section: r.Section, Message: fmt.Sprintf(msg, a...)})
}

// Grade judges one response.
func Grade(in Input) Report {
	if in.Spec == "" {
		in.Spec = rules.DefaultRevision
	}
	g := &grader{in: in}
	g.readRequest()
	env, err := rules.ParseEnvelope(in.Response)
	if err != nil {
		g.add(DefectUnparsable, SevError, rules.RuleProtocolLayer, "%v", err)
		return g.report(nil)
	}
	cl := rules.ClassifyEnvelope(env)
	if env.JSONRPC != "2.0" {
		g.add(DefectWrongCode, SevError, rules.RuleProtocolLayer, "the response's jsonrpc member is %q, not \"2.0\"", env.JSONRPC)
	}
	switch {
	case env.Error != nil:
		g.protocol(env.Error)
	case env.Result.IsError:
		g.execution(env.Result, cl)
	default:
		g.success(env.Result, cl)
		if t := in.Truth; t != nil && t.Layer != rules.LayerSuccess && !g.has(DefectErrorAsSuccess) {
			g.add(DefectHiddenFailure, SevError, rules.RuleAccessFailure, "the call failed (%s) but the response says success%s: the agent will give a confident wrong answer", kindText(*t), emptyText(cl))
		}
	}
	if env.Result != nil && in.Spec.Stateless() && env.Result.ResultType == "" {
		g.add(DefectNoResultType, SevError, rules.RuleProtocolLayer, "under %s every result carries resultType (\"complete\")", in.Spec)
	}
	return g.report(&cl)
}

func (g *grader) has(d Defect) bool {
	for _, f := range g.findings {
		if f.Defect == d {
			return true
		}
	}
	return false
}

func (g *grader) report(cl *rules.Classification) Report {
	r := Report{Verdict: Clean, Findings: g.findings, Classification: cl}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	for _, f := range r.Findings {
		switch f.Severity {
		case SevError:
			r.Verdict = Fail
		case SevWarning:
			if r.Verdict == Clean {
				r.Verdict = Warn
			}
		}
	}
	return r
}

func (g *grader) readRequest() {
	if len(bytes.TrimSpace(g.in.Request)) == 0 || len(g.in.Request) > rules.MaxEnvelopeBytes {
		return
	}
	var req struct {
		Method string `json:"method"`
		Params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(g.in.Request, &req) != nil {
		return
	}
	g.method, g.toolName, g.args = req.Method, req.Params.Name, req.Params.Arguments
	for i := range g.in.Tools {
		if g.in.Tools[i].Name == g.toolName {
			g.tool, g.known = &g.in.Tools[i], true
		}
	}
}

// knownMethods are the JSON-RPC methods of MCP a server may be asked.
var knownMethods = map[string]bool{
	"initialize": true, "ping": true, "server/discover": true, "tools/list": true, "tools/call": true,
	"resources/list": true, "resources/read": true, "resources/templates/list": true, "resources/subscribe": true,
	"resources/unsubscribe": true, "prompts/list": true, "prompts/get": true, "completion/complete": true,
	"logging/setLevel": true, "tasks/get": true, "tasks/list": true, "tasks/cancel": true, "tasks/result": true,
	"subscriptions/listen": true,
}

func (g *grader) protocol(e *rules.ProtocolError) {
	if leaks := rules.Leaks(e.Message + " " + string(e.Data)); len(leaks) > 0 {
		g.add(DefectLeak, SevError, rules.RuleSafeToShow, "the error message exposes internals: %s", strings.Join(leaks, "; "))
	}
	if exceptionText.MatchString(e.Message) || panicText.MatchString(e.Message) {
		g.add(DefectRawException, SevError, rules.RuleRawException, "the error message is a raw exception or panic text")
	}
	if g.method != "" && !knownMethods[g.method] && !strings.HasPrefix(g.method, "notifications/") {
		if e.Code != -32601 {
			g.add(DefectWrongCode, SevError, rules.RuleProtocolLayer, "%s is not an MCP method: the answer is -32601 (method not found), not %d", g.method, e.Code)
		}
		return
	}
	if g.method != "tools/call" {
		return
	}
	unknownTool := len(g.in.Tools) > 0 && !g.known
	switch {
	case unknownTool:
		if e.Code != -32602 {
			g.add(DefectWrongCode, SevError, rules.RuleUnknownTool, "tool %q does not exist: the spec answers -32602 (invalid params), not %d", g.toolName, e.Code)
		}
	case e.Code == -32603:
		g.add(DefectWrongLayer, SevError, rules.RuleGoError, "-32603 on tools/call: the tool ran and failed (or its handler returned an error), but the model gets no result to act on. Return isError: true with errorCategory, isRetryable and a description")
	case e.Code == -32602 && g.known && g.argsBreakSchema():
		if g.in.Spec.InputSchemaLayer() == rules.LayerExecution {
			g.add(DefectWrongLayer, SevError, rules.RuleInputByRevision, "the arguments break %s's inputSchema; since 2025-11-25 (SEP-1303) that is a tool execution error (isError: true, validation) the model can correct, not -32602", g.toolName)
		}
	case e.Code == -32602 && g.known:
		g.add(DefectWrongLayer, SevError, rules.RuleExecutionLayer, "%s exists and the request is well formed; a failure inside the tool is a result with isError: true, not a -32602 protocol error", g.toolName)
	case e.Code == -32601:
		g.add(DefectWrongCode, SevError, rules.RuleProtocolLayer, "tools/call exists; -32601 (method not found) is wrong for a failing tool call")
	}
}

// argsBreakSchema reports whether the request's arguments fail the tool's
// inputSchema.
func (g *grader) argsBreakSchema() bool {
	if g.tool == nil || len(g.tool.InputSchema) == 0 {
		return false
	}
	sch, err := compile(g.tool.InputSchema)
	if err != nil {
		return false
	}
	args := g.args
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return true
	}
	return sch.Validate(inst) != nil
}

func compile(schema json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("mem:///schema.json")
}

var (
	genericText   = regexp.MustCompile(`(?i)^\s*(error|an error occurred|operation failed|failed|failure|something went wrong|internal error|request failed|tool (call|execution) failed)[.!]?\s*$`)
	exceptionText = regexp.MustCompile(`(?m)(Traceback \(most recent call last\)|^\s*(\w+\.)*\w*(Error|Exception)(: |$)|^goroutine \d+ \[|^\s+at [\w.$<>]+\(|panic: )`)
	rateLimitText = regexp.MustCompile(`(?i)(rate.?limit|too many requests|\b429\b|quota)`)
	internalCode  = regexp.MustCompile(`(?i)(internal|unexpected)`)
	panicText     = regexp.MustCompile(`(?i)\bpanic(ked)?\b`)
)

func (g *grader) execution(res *rules.ToolResult, cl rules.Classification) {
	texts := strings.Join(res.Texts(), "\n")
	if len(g.in.Tools) > 0 && g.method == "tools/call" && !g.known {
		g.add(DefectUnknownToolResult, SevWarning, rules.RuleUnknownTool, "tool %q does not exist; the spec answers -32602. isError for an unknown tool is an open proposal (SEP-2145), not the spec", g.toolName)
		return
	}
	g.common(res, texts)
	m := cl.Meta
	switch {
	case m.CategoryRaw == "":
		g.add(DefectNoCategory, SevError, rules.RuleMetadataFields, "isError: true but no errorCategory: the agent cannot tell a blip to retry from a rule to explain")
		if genericText.MatchString(texts) {
			g.add(DefectGenericMessage, SevError, rules.RuleGenericMessage, "the only message is %q, which says nothing about what failed or what to do", strings.TrimSpace(texts))
		}
	case m.Category == "":
		g.add(DefectUnknownCategory, SevWarning, rules.RuleMetadataFields, "errorCategory %q is none of transient, validation, business, permission", m.CategoryRaw)
	}
	if m.Category != "" {
		switch {
		case m.IsRetryable == nil:
			g.add(DefectNoRetryable, SevWarning, rules.RuleRetryableMeaning, "no isRetryable: say whether resending this exact call can work (%s: %v)", m.Category, m.Category.Retryable())
		case *m.IsRetryable != m.Category.Retryable() && m.Category == rules.Validation:
			g.add(DefectWrongRetryable, SevWarning, rules.RuleRetryableMeaning, "validation with isRetryable true: resending the same input fails the same way. One source reads it as \"retry after correction\"; the answer key is false")
		case *m.IsRetryable != m.Category.Retryable():
			g.add(DefectWrongRetryable, SevError, rules.RuleRetryableMeaning, "isRetryable %v contradicts %s (only transient failures are retryable as they stand)", *m.IsRetryable, m.Category)
		}
		if m.CategoryField != "" && m.CategoryField != "errorCategory" || m.RetryableField != "" && m.RetryableField != "isRetryable" || m.Envelope {
			g.add(DefectSynonyms, SevNote, rules.RuleMetadataFields, "metadata uses %s; the exam's names are errorCategory, isRetryable, description", synonymsUsed(m))
		}
	}
	desc := m.Description
	if desc == "" && m.CategoryRaw == "" {
		desc = texts
	}
	if strings.TrimSpace(desc) == "" || (m.CategoryRaw != "" && len(strings.TrimSpace(m.Description)) < 12) {
		g.add(DefectNoDescription, SevWarning, rules.RuleActionable, "no description saying what went wrong and what to try next")
	}
	if rateLimitText.MatchString(texts+" "+m.Code+" "+m.Description) && m.RetryAfterSeconds == nil && m.CategoryRaw != "" {
		g.add(DefectNoRetryAfter, SevNote, rules.RuleRateLimit, "a rate limit should carry retryAfterSeconds when the wait is known")
	}
	if internalCode.MatchString(m.Code) && m.CorrelationID == "" {
		g.add(DefectNoCorrelationID, SevWarning, rules.RuleUnexpectedFault, "an unexpected fault should carry a correlationId so the detail can be found in the server log")
	}
	if m.Category == rules.Business && m.CustomerMessage == "" {
		g.add(DefectNoCustomerMessage, SevNote, rules.RuleBusiness, "a business refusal reads better with a customerMessage the agent can pass on")
	}
	if m.Category == rules.Validation && !m.HasFieldErrors && !m.HasExample {
		g.add(DefectNoFieldErrors, SevNote, rules.RuleValidation, "a validation error helps more with fieldErrors and exampleArguments")
	}
	if g.tool != nil && len(g.tool.OutputSchema) > 0 && len(res.StructuredContent) > 0 {
		if err := g.conforms(res.StructuredContent); err != "" {
			g.add(DefectSchemaMismatch, SevError, rules.RuleOutputSchema, "the error's structuredContent breaks %s's outputSchema (%s): use a schema that admits the error shape, or keep the error out of structuredContent", g.toolName, err)
		}
	}
}

func synonymsUsed(m rules.Metadata) string {
	var parts []string
	if m.CategoryField != "" && m.CategoryField != "errorCategory" {
		parts = append(parts, m.CategoryField)
	}
	if m.RetryableField != "" && m.RetryableField != "isRetryable" {
		parts = append(parts, m.RetryableField)
	}
	if m.DescriptionField != "" && m.DescriptionField != "description" {
		parts = append(parts, m.DescriptionField)
	}
	if m.Envelope {
		parts = append(parts, "an {error: ...} envelope")
	}
	return strings.Join(parts, ", ")
}

// common checks both execution errors and successes.
func (g *grader) common(res *rules.ToolResult, texts string) {
	if exceptionText.MatchString(texts) {
		g.add(DefectRawException, SevError, rules.RuleRawException, "the text is a raw exception or stack trace; the model can do nothing with it")
	}
	if leaks := rules.Leaks(texts + " " + string(res.StructuredContent)); len(leaks) > 0 {
		g.add(DefectLeak, SevError, rules.RuleSafeToShow, "the result exposes internals: %s", strings.Join(leaks, "; "))
	}
	if len(res.StructuredContent) > 0 && len(res.Texts()) == 0 {
		g.add(DefectNoTextBlock, SevWarning, rules.RuleMetadataMirror, "structuredContent with no text block: a client that reads only content sees nothing. Mirror it as JSON in a text block")
	}
}

func (g *grader) success(res *rules.ToolResult, cl rules.Classification) {
	texts := strings.Join(res.Texts(), "\n")
	g.common(res, texts)
	if rules.LooksLikeError(texts) {
		g.add(DefectErrorAsSuccess, SevError, rules.RuleErrorAsSuccess, "the text reads as a failure (%q) but isError is not set: the agent takes it as data", firstLine(texts))
	}
	if cl.Empty && cl.Meta.ResultCount == nil && !saysEmpty(texts) {
		g.add(DefectAmbiguousEmpty, SevWarning, rules.RuleValidEmpty, "an empty success with no resultCount and no sentence saying the query ran: it cannot be told from a failure passed off as empty")
	} else if !cl.Empty && emptyCollections(res.StructuredContent) && !saysEmpty(texts) {
		g.add(DefectAmbiguousEmpty, SevWarning, rules.RuleValidEmpty, "only empty lists, no resultCount and no sentence saying the query ran: a failure passed off as empty would look the same")
	}
	if g.tool != nil && len(g.tool.OutputSchema) > 0 {
		if len(res.StructuredContent) == 0 {
			g.add(DefectMissingStructured, SevError, rules.RuleSchemaConformance, "%s declares an outputSchema, so a success must carry structuredContent that conforms", g.toolName)
		} else if err := g.conforms(res.StructuredContent); err != "" {
			g.add(DefectSchemaMismatch, SevError, rules.RuleSchemaConformance, "structuredContent breaks %s's outputSchema: %s", g.toolName, err)
		}
	}
}

func (g *grader) conforms(sc json.RawMessage) string {
	sch, err := compile(g.tool.OutputSchema)
	if err != nil {
		return ""
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc))
	if err != nil {
		return "not JSON"
	}
	if err := sch.Validate(inst); err != nil {
		msg := err.Error()
		if i := strings.LastIndex(msg, "\n"); i > 0 {
			msg = strings.TrimSpace(msg[i:])
		}
		return strings.TrimPrefix(msg, "- ")
	}
	return ""
}

var emptySentence = regexp.MustCompile(`(?i)(\b0 \w+ match|\bno (\w+ )*(match|matches|results?|records?)\b|found nothing|nothing (was )?found|returned no)`)

func saysEmpty(text string) bool { return emptySentence.MatchString(text) }

// emptyCollections reports an object whose every member is an empty array.
func emptyCollections(sc json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(sc, &m) != nil || len(m) == 0 {
		return false
	}
	for _, v := range m {
		if string(bytes.TrimSpace(v)) != "[]" {
			return false
		}
	}
	return true
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i > 0 {
		s = s[:i]
	}
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

func kindText(s rules.Situation) string {
	if s.Layer == rules.LayerProtocol {
		return "a protocol error"
	}
	return string(s.Category)
}

func emptyText(cl rules.Classification) string {
	if cl.Empty {
		return " with no results"
	}
	return ""
}
