package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/errorlab/errorlab/sim/rules"
)

type grader struct {
	in       Input
	findings []Finding
	method   string
	reqID    json.RawMessage // the request's id; nil for none (a notification) or no request
	toolName string
	args     json.RawMessage
	tool     *Tool
	known    bool // the tool name is in Tools (only meaningful when Tools given)
}

// add records a finding of check id at path; msg says what is wrong here.
func (g *grader) add(id CheckID, path, msg string, a ...any) {
	c, ok := checkByID[id]
	if !ok {
		panic("grade: unknown check " + string(id)) // a programming error, caught by the tests
	}
	if len(a) > 0 {
		msg = fmt.Sprintf(msg, a...)
	}
	g.findings = append(g.findings, Finding{ID: id, Severity: c.Severity, Defect: c.Defect, Rule: c.Rule,
		Section: c.Section, Path: path, Message: msg, Fix: c.Fix})
}

func (g *grader) has(id CheckID) bool {
	for _, f := range g.findings {
		if f.ID == id {
			return true
		}
	}
	return false
}

// MaxResponseBytes is the largest response Grade reads; a larger one is
// an envelope.too-large finding. (A tool result of half a megabyte is
// more than a model's context can take at once.)
const MaxResponseBytes = 512 << 10

// The text checks read at most scanHead bytes from the start and scanTail
// from the end of each text (a text block, an error message, the strings
// of structuredContent), so that no response takes long to grade.
const (
	scanHead = 32 << 10
	scanTail = 8 << 10
	// maxStructuredScan bounds the structuredContent read for its strings.
	maxStructuredScan = 64 << 10
	// maxScannedBlocks bounds the content blocks read one by one.
	maxScannedBlocks = 64
)

// scanned is the part of s the text checks read: all of it, or its head
// and its tail.
func scanned(s string) string {
	if len(s) <= scanHead+scanTail {
		return s
	}
	head, tail := scanHead, len(s)-scanTail
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "\n…\n" + s[tail:]
}

// Grade judges one response. It never panics on any input: unreadable
// bytes are a finding (envelope.unparsable), and responses larger than
// MaxResponseBytes are refused the same way. Its time is bounded by the
// size of the response (see scanHead).
func Grade(in Input) Report {
	if in.Spec == "" {
		in.Spec = rules.DefaultRevision
	}
	g := &grader{in: in}
	if len(in.Response) > MaxResponseBytes {
		g.add(CheckTooLarge, "$", "the response is %d KiB; errorlab grades responses of up to %d KiB", len(in.Response)>>10, MaxResponseBytes>>10)
		return g.report(nil)
	}
	g.readRequest()
	if !utf8.Valid(in.Response) {
		g.add(CheckUTF8, "$", "the response holds bytes that are not UTF-8; a client may reject it or show replacement characters")
	}
	env, err := rules.ParseEnvelope(in.Response)
	if err != nil {
		if errors.Is(err, rules.ErrNoResultOrError) {
			g.add(CheckNeither, "$", "the response has neither a result nor an error member")
		} else {
			g.add(CheckUnparsable, "$", "%v", err)
		}
		return g.report(nil)
	}
	cl := rules.ClassifyEnvelope(env)
	g.envelope(env)
	switch {
	case env.Error != nil:
		g.protocol(env.Error)
	case !g.toolCall():
		g.otherResult()
	case env.Result.IsError:
		g.execution(env.Result, cl)
	default:
		g.success(env.Result, cl)
	}
	if env.Result != nil && in.Spec.Stateless() && env.Result.ResultType == "" {
		g.add(CheckResultType, "$.result", "under %s every result carries resultType (\"complete\")", in.Spec)
	}
	return g.report(&cl)
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
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(g.in.Request, &req) != nil {
		return
	}
	g.method, g.reqID, g.toolName, g.args = req.Method, req.ID, req.Params.Name, req.Params.Arguments
	for i := range g.in.Tools {
		if g.in.Tools[i].Name == g.toolName {
			g.tool, g.known = &g.in.Tools[i], true
		}
	}
}

// toolCall reports whether the response answers a tools/call: the
// request says so, or there is no readable request (a bare response is
// taken to be a tool's).
func (g *grader) toolCall() bool { return g.method == "tools/call" || g.method == "" }

// knownMethods are the JSON-RPC methods of MCP a server may be asked.
var knownMethods = map[string]bool{
	"initialize": true, "ping": true, "server/discover": true, "tools/list": true, "tools/call": true,
	"resources/list": true, "resources/read": true, "resources/templates/list": true, "resources/subscribe": true,
	"resources/unsubscribe": true, "prompts/list": true, "prompts/get": true, "completion/complete": true,
	"logging/setLevel": true, "tasks/get": true, "tasks/list": true, "tasks/cancel": true, "tasks/result": true,
	"subscriptions/listen": true,
}

func (g *grader) unknownMethod() bool {
	return g.method != "" && !knownMethods[g.method] && !strings.HasPrefix(g.method, "notifications/")
}

// envelope checks JSON-RPC 2.0 itself: jsonrpc, id, and one of result or
// error.
func (g *grader) envelope(env rules.Envelope) {
	if env.JSONRPC != "2.0" {
		g.add(CheckJSONRPC, "$.jsonrpc", "the response's jsonrpc member is %q, not \"2.0\"", env.JSONRPC)
	}
	if env.Both {
		g.add(CheckBoth, "$", "the response carries a result and an error member; a client cannot tell which one holds")
	}
	g.checkID(env)
}

func (g *grader) checkID(env rules.Envelope) {
	id := bytes.TrimSpace(env.ID)
	unreadable := env.Error != nil && (env.Error.Code == -32700 || env.Error.Code == -32600)
	switch {
	case len(id) == 0:
		g.add(CheckEnvelopeID, "$.id", "the response has no id member")
	case string(id) == "null":
		if !unreadable {
			g.add(CheckEnvelopeID, "$.id", "the id is null; null is only for an error answering a request whose id could not be read")
		}
	case id[0] != '"' && !isNumber(id):
		g.add(CheckEnvelopeID, "$.id", "the id is %s; JSON-RPC ids are strings or numbers", clip(string(id), 40))
	case len(bytes.TrimSpace(g.reqID)) > 0 && !sameID(id, g.reqID):
		g.add(CheckEnvelopeID, "$.id", "the id is %s but the request's was %s: the client cannot match the answer to its call", clip(string(id), 40), clip(string(g.reqID), 40))
	}
}

func isNumber(b []byte) bool {
	var n json.Number
	return json.Unmarshal(b, &n) == nil && len(b) > 0 && b[0] != '"'
}

// sameID compares two JSON ids: equal strings, or equal numbers.
func sameID(a, b []byte) bool {
	b = bytes.TrimSpace(b)
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return x == y
}

func (g *grader) protocol(e *rules.ProtocolError) {
	msg := scanned(e.Message)
	g.leaks(map[string]string{"$.error.message": msg, "$.error.data": scanned(string(e.Data))}, []string{"$.error.message", "$.error.data"}, true)
	if exceptionText.MatchString(msg) || panicText.MatchString(msg) || rules.SystemErrorPrefix.MatchString(msg) {
		g.add(CheckRawException, "$.error.message", "the error message is raw exception or panic text: %q", firstLine(e.Message))
	}
	if g.unknownMethod() {
		if e.Code != -32601 {
			g.add(CheckUnknownMethod, "$.error.code", "%s is not an MCP method: the answer is -32601 (method not found), not %d", clip(g.method, 60), e.Code)
		}
		return
	}
	if g.method != "tools/call" {
		return
	}
	switch {
	case g.unknownTool(msg):
		if e.Code != -32602 {
			g.add(CheckUnknownToolCode, "$.error.code", "tool %q does not exist: the spec answers -32602 (invalid params), not %d", clip(g.toolName, 60), e.Code)
		}
	case e.Code == -32601:
		g.add(CheckCallNotFound, "$.error.code", "tools/call exists; -32601 (method not found) is wrong for a failing tool call")
	case e.Code == -32603:
		g.add(CheckGoError, "$.error.code", "-32603 on tools/call: the tool ran and failed (or its handler returned an error), but the model gets no result to act on")
	case e.Code == -32602:
		g.invalidParams(e)
	case e.Code == -32700 || e.Code == -32600 || e.Code == -32042:
		// The request itself was unreadable, or a URL elicitation is required
		// (2025-11-25): both are protocol matters.
	default:
		if len(g.in.Tools) == 0 || g.known {
			g.add(CheckExecAsProtocol, "$.error.code", "a tools/call answered with JSON-RPC error %d: a failure inside a tool is a result with isError: true the model can read", e.Code)
		}
	}
}

// invalidParams judges -32602 on a call of a tool that exists (or may).
func (g *grader) invalidParams(e *rules.ProtocolError) {
	breaks, sure := g.argsBreakSchema()
	switch {
	case sure && breaks:
		if g.in.Spec.InputSchemaLayer() == rules.LayerExecution {
			g.add(CheckInputValidation, "$.error", "the arguments break %s's inputSchema; since 2025-11-25 (SEP-1303) that is a tool execution error (isError: true, validation) the model can correct, not -32602", clip(g.toolName, 60))
		}
	case sure:
		g.add(CheckExecAsProtocol, "$.error", "%s exists and its arguments meet the inputSchema; a failure inside the tool is a result with isError: true, not a -32602 protocol error", clip(g.toolName, 60))
	case validationText.MatchString(scanned(e.Message)) && g.in.Spec.InputSchemaLayer() == rules.LayerExecution:
		g.add(CheckInputValidation, "$.error", "the message reads as an input validation failure (%q); since 2025-11-25 (SEP-1303) that is an isError result the model can correct, not -32602", firstLine(e.Message))
	}
}

// unknownTool reports a call of a tool the server does not have: the
// tool is missing from Tools when they are given, else the text says so.
func (g *grader) unknownTool(text string) bool {
	if g.method != "tools/call" {
		return false
	}
	if len(g.in.Tools) > 0 {
		return !g.known
	}
	return unknownToolText.MatchString(text)
}

// otherResult judges a result to a method other than tools/call.
func (g *grader) otherResult() {
	if g.unknownMethod() {
		g.add(CheckUnknownMethod, "$.result", "%s is not an MCP method, yet the server answered with a result; the answer is -32601 (method not found)", clip(g.method, 60))
	}
}

// argsBreakSchema reports whether the request's arguments fail the tool's
// inputSchema; sure is false when that cannot be told (no tool, no
// schema, a schema that does not compile).
func (g *grader) argsBreakSchema() (breaks, sure bool) {
	if g.tool == nil {
		return false, false
	}
	sch := compile(g.tool.DeclaredInputSchema())
	if sch == nil {
		return false, false
	}
	args := g.args
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = json.RawMessage(`{}`)
	}
	return validate(sch, args) != "", true
}

var (
	genericText     = regexp.MustCompile(`(?i)^\s*(error|an error occurred|an error has occurred|operation failed|failed|failure|something went wrong|internal error|internal server error|request failed|unknown error|tool (call|execution) failed)[.!]?\s*$`)
	exceptionText   = regexp.MustCompile(`(?m)(Traceback \(most recent call last\)|^\s*(\w+\.)*\w*(Error|Exception)(: |$)|^goroutine \d+ \[|^\s+at [\w.$<>]+\(|panic: )`)
	rateLimitText   = regexp.MustCompile(`(?i)(rate.?limit|too many requests|\b429\b|quota)`)
	internalCode    = regexp.MustCompile(`(?i)(internal|unexpected)`)
	panicText       = regexp.MustCompile(`(?i)\bpanic(ked)?\b`)
	unknownToolText = regexp.MustCompile("(?i)(\\bunknown tool\\b|\\bno such tool\\b|\\btool not found\\b|\\btool\\s+['\"`]?[\\w./:-]+['\"`]?\\s+(was\\s+|is\\s+)?not found)")
	validationText  = regexp.MustCompile(`(?i)(invalid (arguments|argument|params|parameters|input)|validation|is required|required (property|field|argument)|expected \w+, (got|received))`)
	formatText      = regexp.MustCompile(`(?i)(e\.g\.|for example|such as|expected|must be|must match|format|should be|one of)`)
)

func (g *grader) execution(res *rules.ToolResult, cl rules.Classification) {
	texts := scanned(strings.Join(res.Texts(), "\n"))
	if g.unknownTool(texts) {
		g.add(CheckUnknownToolResult, "$.result.isError", "tool %q does not exist; the spec answers -32602. isError for an unknown tool is an open proposal (SEP-2145), not the spec", clip(g.toolName, 60))
		return
	}
	g.shape(res)
	g.common(res, true)
	m := cl.Meta
	metaPath := "$.result." + m.Path
	if m.Path == "" {
		metaPath = "$.result"
	}
	switch {
	case m.CategoryRaw == "":
		g.add(CheckNoCategory, metaPath, "isError: true but no errorCategory: the agent cannot tell a blip to resend from a rule to explain")
	case m.Category == "":
		g.add(CheckUnknownCategory, field(m, m.CategoryField), "errorCategory %q is none of transient, validation, business, permission", clip(m.CategoryRaw, 60))
	}
	if desc := m.Description; genericText.MatchString(texts) || (desc != "" && genericText.MatchString(desc)) {
		what := strings.TrimSpace(texts)
		if desc != "" {
			what = desc
		}
		g.add(CheckGeneric, textPath(res), "the only message is %q, which says nothing about what failed or what to do", clip(strings.TrimSpace(what), 60))
	}
	if m.Category != "" {
		switch {
		case m.IsRetryable == nil:
			g.add(CheckNoRetryable, metaPath, "no isRetryable: say whether resending this exact call can work (%s: %v)", m.Category, m.Category.Retryable())
		case *m.IsRetryable != m.Category.Retryable() && m.Category == rules.Validation:
			g.add(CheckValidationRetry, field(m, m.RetryableField), "validation with isRetryable true: resending the same input fails the same way. One reading is \"retry after correction\"; the answer key is false")
		case *m.IsRetryable != m.Category.Retryable():
			g.add(CheckWrongRetryable, field(m, m.RetryableField), "isRetryable %v contradicts %s (only transient failures are retryable as they stand)", *m.IsRetryable, m.Category)
		}
		if m.CategoryField != "" && m.CategoryField != "errorCategory" || m.RetryableField != "" && m.RetryableField != "isRetryable" || m.Envelope {
			g.add(CheckSynonyms, metaPath, "metadata uses %s; the exam's names are errorCategory, isRetryable, description", synonymsUsed(m))
		}
	}
	desc := m.Description
	if desc == "" && m.CategoryRaw == "" {
		desc = texts
	}
	if !g.has(CheckGeneric) && (strings.TrimSpace(desc) == "" || (m.CategoryRaw != "" && len(strings.TrimSpace(m.Description)) < 12)) {
		g.add(CheckNoDescription, metaPath, "no description saying what went wrong and what to try next")
	}
	if rateLimitText.MatchString(texts+" "+m.Code+" "+scanned(m.Description)) && m.RetryAfterSeconds == nil && (m.Category == "" || m.Category == rules.Transient) {
		g.add(CheckRetryAfter, metaPath, "a rate limit without retryAfterSeconds: the agent has to guess how long to wait")
	}
	if (internalCode.MatchString(m.Code) || strings.EqualFold(m.CategoryRaw, "internal")) && m.CorrelationID == "" {
		g.add(CheckCorrelationID, metaPath, "an unexpected fault without a correlationId: nobody can find the detail in the server log")
	}
	if m.Category == rules.Business && m.CustomerMessage == "" {
		if len(strings.TrimSpace(m.Description)) < 12 {
			g.add(CheckCustomerMessage, metaPath, "a business refusal with neither a customerMessage nor a description the agent can pass on")
		} else {
			g.add(CheckCustomerAdvice, metaPath, "a business refusal without a customerMessage: the agent must turn the description into words for the customer")
		}
	}
	if m.Category == rules.Validation && !m.HasFieldErrors && !m.HasExample && !formatText.MatchString(scanned(m.Description)) && !g.namesArgument(scanned(m.Description)) {
		g.add(CheckValidationField, metaPath, "a validation error that names no argument, expected format or example: the agent cannot tell what to correct")
	}
	if g.tool != nil && len(res.StructuredContent) > 0 {
		if sch := compile(g.tool.DeclaredOutputSchema()); sch != nil && g.schemaCheckable(res) {
			if err := validate(sch, res.StructuredContent); err != "" {
				g.add(CheckErrorSchema, "$.result.structuredContent", "the error's structuredContent breaks %s's outputSchema (%s)", clip(g.toolName, 60), err)
			}
		}
	}
}

// schemaCheckable reports whether structuredContent is small enough to be
// checked against a schema, and notes it when it is not.
func (g *grader) schemaCheckable(res *rules.ToolResult) bool {
	if len(res.StructuredContent) <= maxValidatedBytes {
		return true
	}
	g.add(CheckSchemaUnchecked, "$.result.structuredContent", "structuredContent is %d KiB; errorlab checks outputSchema conformance up to %d KiB", len(res.StructuredContent)>>10, maxValidatedBytes>>10)
	return false
}

// namesArgument reports whether text names one of the call's arguments or
// one of the tool's declared input properties.
func (g *grader) namesArgument(text string) bool {
	if text == "" {
		return false
	}
	var names []string
	var args map[string]json.RawMessage
	if json.Unmarshal(g.args, &args) == nil {
		for k := range args {
			names = append(names, k)
		}
	}
	if g.tool != nil {
		var sch struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if json.Unmarshal(g.tool.DeclaredInputSchema(), &sch) == nil {
			for k := range sch.Properties {
				names = append(names, k)
			}
		}
	}
	for _, n := range names {
		if len(n) > 1 && containsWord(text, n) {
			return true
		}
	}
	return false
}

func containsWord(text, w string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordByte(text[j-1])
		after := j+len(w) >= len(text) || !isWordByte(text[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func field(m rules.Metadata, name string) string {
	if m.Source == "text" || name == "" {
		return "$.result." + m.Path
	}
	return "$.result." + m.Path + "." + name
}

// textPath is the JSON path of the first text block, or of content.
func textPath(res *rules.ToolResult) string {
	for i, b := range res.Content {
		if b.Type == "text" {
			return fmt.Sprintf("$.result.content[%d].text", i)
		}
	}
	return "$.result.content"
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
		parts = append(parts, "an {ok, data, error} envelope")
	}
	return strings.Join(parts, ", ")
}

// shape checks what a CallToolResult must carry.
func (g *grader) shape(res *rules.ToolResult) {
	if !res.HasContent {
		g.add(CheckNoContent, "$.result", "the result has no content array; a client that reads content shows nothing")
	}
}

// common checks both execution errors and successes: raw exceptions,
// leaks, and the text mirror of structuredContent.
func (g *grader) common(res *rules.ToolResult, isError bool) {
	texts := map[string]string{}
	var order []string
	for i, b := range res.Content {
		if b.Type != "text" {
			continue
		}
		p := fmt.Sprintf("$.result.content[%d].text", i)
		text := scanned(b.Text)
		texts[p] = text
		order = append(order, p)
		if isError && !g.has(CheckRawException) && (exceptionText.MatchString(text) || rules.SystemErrorPrefix.MatchString(text)) {
			g.add(CheckRawException, p, "the text is a raw exception or system error (%q); the model can do nothing with it", firstLine(text))
		}
		if len(order) >= maxScannedBlocks {
			break
		}
	}
	if len(res.StructuredContent) > 0 {
		sc := res.StructuredContent
		if len(sc) > maxStructuredScan {
			sc = sc[:maxStructuredScan]
		}
		texts["$.result.structuredContent"] = scanned(strings.Join(jsonStrings(sc), "\n"))
		order = append(order, "$.result.structuredContent")
	}
	g.leaks(texts, order, isError)
	if len(res.StructuredContent) == 0 {
		return
	}
	if len(res.Texts()) == 0 {
		g.add(CheckNoTextBlock, "$.result.content", "structuredContent with no text block: a client that reads only content sees nothing")
	} else if !mirrored(res) {
		g.add(CheckTextNotMirror, "$.result.content", "no text block holds structuredContent as JSON: a client that reads only content sees other data than one that reads structuredContent")
	}
}

// maxMirrorCompare bounds the structuredContent whose mirror is compared
// member by member; a larger one must be mirrored byte for byte (once
// whitespace is set aside).
const maxMirrorCompare = 64 << 10

// mirrored reports whether a text block holds the same JSON value as
// structuredContent.
func mirrored(res *rules.ToolResult) bool {
	var want bytes.Buffer
	if json.Compact(&want, res.StructuredContent) != nil {
		return true // not JSON: reported elsewhere
	}
	var wantValue any
	for _, t := range res.Texts() {
		t = strings.TrimSpace(t)
		if t == "" || (t[0] != '{' && t[0] != '[') {
			continue
		}
		var got bytes.Buffer
		if json.Compact(&got, []byte(t)) != nil {
			continue
		}
		if bytes.Equal(got.Bytes(), want.Bytes()) {
			return true
		}
		if want.Len() > maxMirrorCompare || got.Len() > 2*want.Len()+16 {
			continue
		}
		if wantValue == nil && json.Unmarshal(want.Bytes(), &wantValue) != nil {
			return true
		}
		var gotValue any
		if json.Unmarshal(got.Bytes(), &gotValue) == nil && reflect.DeepEqual(gotValue, wantValue) {
			return true
		}
	}
	return false
}

// successLeaks are the kinds of leak a success is checked for: data a tool
// returns on purpose may hold paths, hosts or SQL (a filesystem or a
// database tool), but never a stack trace, a system error or a secret.
var successLeaks = map[rules.LeakKind]bool{rules.LeakStackTrace: true, rules.LeakSystemError: true, rules.LeakSecret: true}

// leaks reports each kind of leak once, at the first place (in order)
// where it shows.
func (g *grader) leaks(texts map[string]string, order []string, isError bool) {
	seen := map[rules.LeakKind]bool{}
	for _, p := range order {
		for _, l := range rules.FindLeaks(texts[p]) {
			if seen[l.Kind] || (!isError && !successLeaks[l.Kind]) {
				continue
			}
			seen[l.Kind] = true
			g.add(leakCheck[l.Kind], p, "%s reaches the model: %q", capitalize(l.Kind.Label()), clip(l.Text, 80))
		}
	}
}

// jsonStrings returns every string (member names excluded) in a JSON
// value, in document order. Bytes that are not JSON give nothing.
func jsonStrings(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var out []string
	// A member name is the token after '{' or after a member's value; the
	// decoder's Token does not say which, so track objects.
	type frame struct{ object, wantKey bool }
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		isKey := len(stack) > 0 && stack[len(stack)-1].object && stack[len(stack)-1].wantKey
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].wantKey = true
				}
				stack = append(stack, frame{object: t == '{', wantKey: true})
				continue
			default:
				stack = stack[:len(stack)-1]
				continue
			}
		case string:
			if !isKey {
				out = append(out, t)
			}
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].wantKey = !isKey
		}
	}
}

func (g *grader) success(res *rules.ToolResult, cl rules.Classification) {
	texts := scanned(strings.Join(res.Texts(), "\n"))
	if g.unknownTool(texts) {
		g.add(CheckUnknownToolOK, "$.result", "tool %q does not exist, yet the server answered with a success; the spec answers -32602", clip(g.toolName, 60))
		return
	}
	g.shape(res)
	g.common(res, false)
	m := cl.Meta
	isErrorPath := "$.result"
	if res.HasIsError {
		isErrorPath = "$.result.isError"
	}
	switch {
	case rules.LooksLikeError(texts) || rules.SystemErrorPrefix.MatchString(texts):
		g.add(CheckErrorAsSuccess, isErrorPath, "the text reads as a failure (%q) but isError is not set: the agent takes it as data", firstLine(texts))
	case m.OK != nil && !*m.OK:
		g.add(CheckErrorAsSuccess, isErrorPath, "the result says ok: false but isError is not set: the agent takes the failure as data")
	case m.Category != "":
		g.add(CheckErrorAsSuccess, isErrorPath, "the result carries errorCategory %s but isError is not set: the agent takes the failure as data", m.Category)
	}
	if t := g.in.Truth; t != nil && t.Layer != rules.LayerSuccess && !g.has(CheckErrorAsSuccess) {
		g.add(CheckHiddenFailure, isErrorPath, "the call failed (%s) but the response says success%s: the agent will give a confident wrong answer", kindText(*t), emptyText(cl))
	}
	if cl.Empty && cl.Meta.ResultCount == nil && !saysEmpty(texts) {
		g.add(CheckAmbiguousEmpty, "$.result", "an empty success with no resultCount and no sentence saying the query ran: it cannot be told from a failure passed off as empty")
	} else if !cl.Empty && emptyCollections(res.StructuredContent) && !saysEmpty(texts) {
		g.add(CheckAmbiguousEmpty, "$.result.structuredContent", "only empty lists, no resultCount and no sentence saying the query ran: a failure passed off as empty would look the same")
	}
	if g.tool == nil {
		return
	}
	sch := compile(g.tool.DeclaredOutputSchema())
	if sch == nil {
		return
	}
	if len(res.StructuredContent) == 0 {
		g.add(CheckMissingStructured, "$.result", "%s declares an outputSchema, so a success must carry structuredContent that conforms", clip(g.toolName, 60))
	} else if !g.schemaCheckable(res) {
		return
	} else if err := validate(sch, res.StructuredContent); err != "" {
		g.add(CheckSuccessSchema, "$.result.structuredContent", "structuredContent breaks %s's outputSchema: %s", clip(g.toolName, 60), err)
	}
}

var emptySentence = regexp.MustCompile(`(?i)(\b0 \w+ match|\bno (\w+ )*(match|matches|results?|records?)\b|found nothing|nothing (was )?found|returned no)`)

func saysEmpty(text string) bool { return emptySentence.MatchString(text) }

// emptyCollections reports an object whose every member is an empty array.
func emptyCollections(sc json.RawMessage) bool {
	var m map[string]json.RawMessage
	if len(sc) > 64<<10 || json.Unmarshal(sc, &m) != nil || len(m) == 0 {
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
	return clip(s, 60)
}

// clip shortens s to at most n bytes on a rune boundary, marking a cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
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
