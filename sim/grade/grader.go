package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/errorlab/errorlab/sim/rules"
)

type grader struct {
	in       Input
	resp     []byte // the response graded: in.Response, or its head when it is large
	headOnly bool   // resp is the head of a larger response: some text and items were cut
	findings []Finding
	method   string
	reqID    json.RawMessage // the request's id; nil for none (a notification) or no request
	toolName string
	named    bool // the tools/call's params name a tool (a non-empty string)
	args     json.RawMessage
	given    []string // the string values of the request's arguments: the caller's own text
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

// MaxResponseBytes is the largest response that is not an
// envelope.too-large warning: a tool result of half a megabyte is more
// than a model's context can take at once. A larger one is still graded.
const MaxResponseBytes = 512 << 10

// MaxGradedBytes is the largest response Grade reads at all (the limit of
// rules.ParseEnvelope); a larger one is an envelope.too-large-to-grade
// error, so a run with --fail-on error fails on it.
const MaxGradedBytes = rules.MaxEnvelopeBytes

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
	g.stray()
	if len(bytes.TrimSpace(in.Response)) == 0 {
		switch {
		case in.Ended != "":
			g.add(CheckNoAnswer, "$", "the server's process ended (%s) before answering: the client gets no answer, and the model learns nothing about the call", clip(oneLine(in.Ended), 80))
			return g.report(nil)
		case in.Waited > 0:
			g.add(CheckNoAnswer, "$", "no answer came within %s: the client gave up waiting, and the model learns nothing about the call", in.Waited)
			return g.report(nil)
		case len(in.Stray) > 0:
			return g.report(nil)
		}
	}
	if len(in.Response) > MaxGradedBytes {
		g.add(CheckTooLargeToGrade, "$", "the response is %d KiB; errorlab grades responses of up to %d KiB, and no client should read this much to learn how a call went", len(in.Response)>>10, MaxGradedBytes>>10)
		return g.report(nil)
	}
	g.resp = in.Response
	if len(in.Response) > MaxResponseBytes {
		g.add(CheckTooLarge, "$", "the response is %d KiB; a model reads the whole result into its context, and over %d KiB is too much at once (errorlab grades its head: every member, long texts cut to %d KiB, long lists to their first items)", len(in.Response)>>10, MaxResponseBytes>>10, headString>>10)
		if h, cut := head(in.Response); json.Valid(h) {
			g.resp, g.headOnly = h, cut
		}
	}
	g.readRequest()
	if !utf8.Valid(in.Response) {
		g.add(CheckUTF8, "$", "the response holds bytes that are not UTF-8; a client may reject it or show replacement characters")
	}
	env, err := rules.ParseEnvelope(g.resp)
	if err != nil {
		if errors.Is(err, rules.ErrNoResultOrError) {
			g.add(CheckNeither, "$", "%v", err)
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

// maxStrayShown bounds the stray stdout lines reported one by one.
const maxStrayShown = 5

// stray reports the lines a stdio server wrote on stdout that are not
// JSON-RPC messages.
func (g *grader) stray() {
	for i, line := range g.in.Stray {
		if i == maxStrayShown {
			g.add(CheckStrayOutput, "stdout", "… and %d more lines on stdout that are not JSON-RPC messages", len(g.in.Stray)-maxStrayShown)
			return
		}
		g.add(CheckStrayOutput, "stdout", "the server wrote %q on stdout: a client reading stdout as JSON-RPC drops the line or stops reading", clip(oneLine(string(line)), 80))
	}
}

// oneLine makes text one line for a message: control characters
// and line breaks become spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

func (g *grader) report(cl *rules.Classification) Report {
	if cl != nil {
		c := *cl
		c.Meta = rules.Metadata{}
		cl = &c
	}
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
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(g.in.Request, &req) != nil {
		return
	}
	g.method, g.reqID = req.Method, req.ID
	var params map[string]json.RawMessage
	_ = json.Unmarshal(req.Params, &params)
	g.named = json.Unmarshal(params["name"], &g.toolName) == nil && g.toolName != ""
	g.args = params["arguments"]
	if len(g.args) <= maxStructuredScan {
		g.given = jsonTexts(g.args, false)
		if len(g.given) > maxGiven {
			g.given = g.given[:maxGiven]
		}
	}
	for i := range g.in.Tools {
		if g.in.Tools[i].Name == g.toolName {
			g.tool, g.known = &g.in.Tools[i], true
		}
	}
}

// maxGiven bounds the argument strings kept to tell the caller's text
// from the server's.
const maxGiven = 256

// withoutGiven is text with every argument string of the request (of 3
// characters or more) cut out, so that words the caller wrote (a search
// for "timeout") are not read as the server's.
func (g *grader) withoutGiven(text string) string {
	var pairs []string
	for _, s := range g.given {
		if len(s) >= 3 {
			pairs = append(pairs, s, "…")
		}
	}
	if len(pairs) == 0 {
		return text
	}
	return strings.NewReplacer(pairs...).Replace(text)
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
	for _, p := range env.Duplicates {
		i := strings.LastIndexByte(p, '.')
		g.add(CheckDuplicateMember, p, "%s holds %q more than once: one client reads the first value, another the last, so they read different answers", p[:i], clip(p[i+1:], 60))
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
	case id[0] != '"' && !wholeID(id):
		g.add(CheckEnvelopeID, "$.id", "the id is %s; a number id is a whole number of at most 2^53 written without a fraction or exponent (JSON-RPC 2.0), or a client cannot hold it exactly to match its call", clip(string(id), 40))
	case len(bytes.TrimSpace(g.reqID)) > 0 && !sameID(id, g.reqID):
		g.add(CheckEnvelopeID, "$.id", "the id is %s but the request's was %s: the client cannot match the answer to its call", clip(string(id), 40), clip(string(g.reqID), 40))
	}
}

func isNumber(b []byte) bool {
	var n json.Number
	return json.Unmarshal(b, &n) == nil && len(b) > 0 && b[0] != '"'
}

// maxExactID is 2^53, the largest whole number every JSON reader holds
// exactly (a float64).
const maxExactID = 1 << 53

// wholeID reports a number id written as a whole number ("7", "-3")
// within ±2^53: no fraction, no exponent.
func wholeID(b []byte) bool {
	if bytes.ContainsAny(b, ".eE") {
		return false
	}
	digits := bytes.TrimPrefix(b, []byte("-"))
	if len(digits) > 16 {
		return false
	}
	var n int64
	for _, c := range digits {
		n = n*10 + int64(c-'0')
	}
	return n <= maxExactID
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
	g.leaks(map[string]string{"$.error.message": msg, "$.error.data": scanned(decoded(e.Data))}, []string{"$.error.message", "$.error.data"}, true)
	if rawException(msg) || panicText.MatchString(msg) {
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
	if !g.named {
		// The request is not a valid tools/call (its params name no tool):
		// a protocol error is right, since no tool ran (LESSON-RULES §1).
		if e.Code == -32601 {
			g.add(CheckCallNotFound, "$.error.code", "tools/call exists; a tools/call whose params name no tool is -32602 (invalid params), not -32601")
		}
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
	case rules.RequestRefused(e.Code):
		// The request itself was unreadable, a URL elicitation is required
		// (2025-11-25), or its transport headers do not match its body
		// (2026-07-28): all protocol matters, decided before any tool ran.
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
	if g.method != "tools/call" || !g.named {
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
	if g.method == "tools/list" {
		g.toolsList()
	}
}

// maxToolFindings bounds the schema.tool-declaration findings of one
// tools/list answer.
const maxToolFindings = 20

// toolsList checks each tool a tools/list answer declares: an inputSchema
// that is a JSON Schema object of type "object", and an outputSchema that,
// when given (null is none), is an object schema too.
func (g *grader) toolsList() {
	var body struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(g.resp, &body) != nil {
		return
	}
	n := 0
	for i, raw := range body.Result.Tools {
		if n == maxToolFindings {
			return
		}
		var t map[string]json.RawMessage
		if json.Unmarshal(raw, &t) != nil {
			g.add(CheckToolDeclaration, fmt.Sprintf("$.result.tools[%d]", i), "tools[%d] is %s, not a tool object {name, inputSchema, …}", i, rules.JSONKind(raw))
			n++
			continue
		}
		var name string
		_ = json.Unmarshal(t["name"], &name)
		who := fmt.Sprintf("tool %q", clip(name, 60))
		if name == "" {
			who = fmt.Sprintf("tools[%d]", i)
		}
		if msg := schemaProblem(t["inputSchema"], true); msg != "" {
			g.add(CheckToolDeclaration, fmt.Sprintf("$.result.tools[%d].inputSchema", i), "%s: its inputSchema %s", who, msg)
			n++
		}
		if msg := schemaProblem(t["outputSchema"], false); msg != "" {
			g.add(CheckToolDeclaration, fmt.Sprintf("$.result.tools[%d].outputSchema", i), "%s: its outputSchema %s", who, msg)
			n++
		}
	}
}

// schemaProblem says what is wrong with a declared schema, "" if nothing:
// not an object, not of type "object", or not a JSON Schema the validator
// accepts. required says whether a missing or null schema is wrong.
func schemaProblem(raw json.RawMessage, required bool) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		if required {
			return "is missing (or null): every tool declares one, {\"type\": \"object\"} at least"
		}
		return ""
	}
	var sch map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &sch) != nil {
		return fmt.Sprintf("is %s (%s), not a JSON Schema object", rules.JSONKind(raw), clip(string(raw), 40))
	}
	if typ := bytes.TrimSpace(sch["type"]); string(typ) != `"object"` {
		if len(typ) == 0 {
			return "has no \"type\": \"object\"; the arguments (or structuredContent) of a tool are an object"
		}
		return fmt.Sprintf("has type %s; the arguments (or structuredContent) of a tool are an object", clip(string(typ), 40))
	}
	if compile(raw) == nil {
		return "is not a JSON Schema the validator accepts"
	}
	return ""
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
	genericText     = rules.Lazy(`(?i)^\s*(error|an error occurred|an error has occurred|operation failed|failed|failure|something went wrong|internal error|internal server error|request failed|unknown error|tool (call|execution) failed)[.!]?\s*$`)
	exceptionText   = rules.Lazy(`(?m)(Traceback \(most recent call last\)|^\s*(\w+\.)*\w*(Error|Exception)(: |$)|^goroutine \d+ \[|^\s+at [\w.$<>]+\(|panic: )`)
	rateLimitText   = rules.Lazy(`(?i)(rate.?limit|too many requests|\b429\b|quota)`)
	internalCode    = rules.Lazy(`(?i)(internal|unexpected)`)
	internalText    = rules.Lazy(`(?i)\b(unexpected|internal|unhandled) (internal |server )?(error|fault|failure|exception|problem)\b`)
	panicText       = rules.Lazy(`(?i)\bpanic(ked)?\b`)
	unknownToolText = rules.Lazy("(?i)(\\bunknown tool\\b|\\bno such tool\\b|\\btool not found\\b|\\btool\\s+['\"`]?[\\w./:-]+['\"`]?\\s+(was\\s+|is\\s+)?not found)")
	validationText  = rules.Lazy(`(?i)(invalid (arguments|argument|params|parameters|input)|validation|is required|required (property|field|argument)|expected \w+, (got|received))`)
	formatText      = rules.Lazy(`(?i)(e\.g\.|\bexamples?\b|for instance|such as|expected|\b(must|should) (be|match|look|contain|start|end|have|hold|follow)\b|\blooks? like\b|\bformat\b|\bpattern\b|one of)`)
	// fieldText names an argument: "the order_id argument", "field email",
	// or an identifier in snake_case or camelCase.
	fieldText = rules.Lazy(`(?i:\b(argument|field|parameter|param|property|key)s?\b)|\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b`)
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
	if !g.has(CheckRawException) {
		for _, ft := range m.Messages {
			if t := scanned(ft.Text); rawException(t) {
				g.add(CheckRawException, field(m, ft.Field), "the %s is a raw exception or system error (%q); the model can do nothing with it", ft.Field, firstLine(t))
				break
			}
		}
	}
	switch {
	case m.CategoryRaw == "":
		g.add(CheckNoCategory, metaPath, "isError: true but no errorCategory: the agent cannot tell a blip to resend from a rule to explain")
	case m.Category == "":
		g.add(CheckUnknownCategory, field(m, m.CategoryField), "errorCategory %q is none of transient, validation, business, permission", clip(m.CategoryRaw, 60))
	case !m.CategoryCanonical:
		g.add(CheckUnknownCategory, field(m, m.CategoryField), "errorCategory %q is not one of the four names; it reads as %s: write \"%s\" (a client that matches the four names misses it)", clip(m.CategoryRaw, 60), m.Category, m.Category)
	}
	desc := strings.TrimSpace(m.Description + " " + m.SuggestedAction)
	if genericText.MatchString(texts) || (m.Description != "" && genericText.MatchString(m.Description)) {
		what := strings.TrimSpace(texts)
		if m.Description != "" {
			what = m.Description
		}
		g.add(CheckGeneric, textPath(res), "the only message is %q, which says nothing about what failed or what to do", clip(strings.TrimSpace(what), 60))
	}
	if m.Category != "" {
		switch {
		case m.IsRetryable == nil && m.Recoverable != nil:
			// recoverable is the §3 synonym: read, and noted with the others.
		case m.IsRetryable == nil:
			g.add(CheckNoRetryable, metaPath, "no isRetryable: say whether resending this exact call can work (%s: %v)", m.Category, m.Category.Retryable())
		case *m.IsRetryable != m.Category.Retryable() && m.Category == rules.Validation:
			g.add(CheckValidationRetry, field(m, m.RetryableField), "validation with %s true: resending the same input fails the same way. One reading is \"retry after correction\"; the answer key is false", m.RetryableField)
		case *m.IsRetryable != m.Category.Retryable():
			g.add(CheckWrongRetryable, field(m, m.RetryableField), "%s %v contradicts %s (only transient failures are retryable as they stand)", m.RetryableField, *m.IsRetryable, m.Category)
		}
	}
	if used := synonymsUsed(m); used != "" {
		note := "metadata uses " + used + "; the exam's names are errorCategory, isRetryable, description"
		if m.IsRetryable == nil && m.Recoverable != nil && m.Category != "" {
			note += fmt.Sprintf(". recoverable says the agent can recover somehow; isRetryable says whether the same call can work again (for %s: %v)", m.Category, m.Category.Retryable())
		}
		g.add(CheckSynonyms, metaPath, "%s", note)
	}
	body := desc
	if body == "" && m.CategoryRaw == "" {
		body = texts
	}
	if !g.has(CheckGeneric) && (strings.TrimSpace(body) == "" || (m.CategoryRaw != "" && len(desc) < 12)) {
		g.add(CheckNoDescription, metaPath, "no description saying what went wrong and what to try next")
	}
	if rateLimitText.MatchString(texts+" "+m.Code+" "+scanned(desc)) && m.RetryAfterSeconds == nil && (m.Category == "" || m.Category == rules.Transient) {
		g.add(CheckRetryAfter, metaPath, "a rate limit without retryAfterSeconds: the agent has to guess how long to wait")
	}
	if (internalCode.MatchString(m.Code) || strings.EqualFold(m.CategoryRaw, "internal") || internalText.MatchString(scanned(m.Description))) && m.CorrelationID == "" {
		g.add(CheckCorrelationID, metaPath, "an unexpected fault without a correlationId: nobody can find the detail in the server log")
	}
	if m.Category == rules.Business && m.CustomerMessage == "" {
		if len(desc) < 12 {
			g.add(CheckCustomerMessage, metaPath, "a business refusal with neither a customerMessage nor a description the agent can pass on")
		} else {
			g.add(CheckCustomerAdvice, metaPath, "a business refusal without a customerMessage: the agent must turn the description into words for the customer")
		}
	}
	if m.Category == rules.Validation && !m.HasFieldErrors && !m.HasExample && !formatText.MatchString(scanned(desc)) && !g.namesField(scanned(desc)) {
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
	if g.headOnly {
		g.add(CheckSchemaUnchecked, "$.result.structuredContent", "the response is %d KiB; errorlab checks outputSchema conformance for responses of up to %d KiB", len(g.in.Response)>>10, MaxResponseBytes>>10)
		return false
	}
	if len(res.StructuredContent) <= maxValidatedBytes {
		return true
	}
	g.add(CheckSchemaUnchecked, "$.result.structuredContent", "structuredContent is %d KiB; errorlab checks outputSchema conformance up to %d KiB", len(res.StructuredContent)>>10, maxValidatedBytes>>10)
	return false
}

// namesField reports whether a validation error's text says which
// argument is wrong: it names one of the call's arguments or the tool's
// input properties, or says "argument"/"field", or holds an identifier
// (snake_case, camelCase) such as a field the request lacked.
func (g *grader) namesField(text string) bool {
	return g.namesArgument(text) || fieldText.MatchString(text)
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
	if m.IsRetryable == nil && m.Recoverable != nil {
		parts = append(parts, "recoverable")
	}
	if m.DescriptionField != "" && m.DescriptionField != "description" {
		parts = append(parts, m.DescriptionField)
	}
	if m.SuggestedActionField != "" {
		parts = append(parts, m.SuggestedActionField)
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
// leaks, and the text mirror of structuredContent. Text is graded as the
// model reads it: a text block holding JSON is read decoded (its strings,
// with their member names), never as escaped JSON.
func (g *grader) common(res *rules.ToolResult, isError bool) {
	texts := map[string]string{}
	var order []string
	for i, b := range res.Content {
		if b.Type != "text" {
			continue
		}
		p := fmt.Sprintf("$.result.content[%d].text", i)
		text, isJSON := decodedText(b.Text)
		text = scanned(text)
		texts[p] = text
		order = append(order, p)
		if isError && !isJSON && !g.has(CheckRawException) && rawException(text) {
			g.add(CheckRawException, p, "the text is a raw exception or system error (%q); the model can do nothing with it", firstLine(text))
		}
		if len(order) >= maxScannedBlocks {
			break
		}
	}
	if len(res.StructuredContent) > 0 {
		texts["$.result.structuredContent"] = scanned(decoded(res.StructuredContent))
		order = append(order, "$.result.structuredContent")
	}
	g.leaks(texts, order, isError)
	if len(res.StructuredContent) == 0 {
		return
	}
	if len(res.Texts()) == 0 {
		g.add(CheckNoTextBlock, "$.result.content", "structuredContent with no text block: a client that reads only content sees nothing")
	} else if !g.headOnly && !mirrored(res) {
		g.add(CheckTextNotMirror, "$.result.content", "no text block holds structuredContent as JSON: a client that reads only content sees other data than one that reads structuredContent")
	}
}

// rawException reports text that is an exception's or the operating
// system's own message (LESSON-RULES §3): "KeyError: 'order'",
// "java.lang.NullPointerException", a traceback, "ENOENT: …".
func rawException(text string) bool {
	return exceptionText.MatchString(text) || rules.SystemErrorPrefix.MatchString(text)
}

// decodedText is a text block as the grader reads it: a block holding a
// JSON object or array is decoded (see decoded), other text is kept.
func decodedText(text string) (string, bool) {
	t := strings.TrimSpace(text)
	if t == "" || (t[0] != '{' && t[0] != '[') || len(t) > maxStructuredScan || !json.Valid([]byte(t)) {
		return text, false
	}
	return decoded([]byte(t)), true
}

// decoded is a JSON value as text a reader sees: each string on a line
// of its own, after its member name ("description: KeyError: 'order'"),
// with escapes decoded. A JSON string gives its text; bytes that are not
// JSON are kept as they are. At most maxStructuredScan bytes are read.
func decoded(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	if raw[0] != '{' && raw[0] != '[' {
		return string(raw)
	}
	if len(raw) > maxStructuredScan {
		raw = raw[:maxStructuredScan]
	}
	return strings.Join(jsonTexts(raw, true), "\n")
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
// where it shows. A fragment the caller gave in the request's arguments
// (the path it asked for) is the caller's own text, not a leak. A secret
// is quoted masked.
func (g *grader) leaks(texts map[string]string, order []string, isError bool) {
	seen := map[rules.LeakKind]bool{}
	for _, p := range order {
		for _, l := range rules.FindLeaksExcept(texts[p], g.given) {
			if seen[l.Kind] || (!isError && !successLeaks[l.Kind]) {
				continue
			}
			seen[l.Kind] = true
			g.add(leakCheck[l.Kind], p, "%s reaches the model: %s", capitalize(l.Kind.Label()), l.Quoted(80))
		}
	}
}

// jsonTexts returns every string in a JSON value, in document order;
// withNames puts the member name before a member's string ("name:
// text"). Bytes that are not JSON give what was read before them.
func jsonTexts(raw json.RawMessage, withNames bool) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var out []string
	// A member name is the token after '{' or after a member's value; the
	// decoder's Token does not say which, so track objects.
	type frame struct {
		object, wantKey bool
		name            string
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		top := len(stack) - 1
		isKey := top >= 0 && stack[top].object && stack[top].wantKey
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top >= 0 && stack[top].object {
					stack[top].wantKey = true
				}
				stack = append(stack, frame{object: t == '{', wantKey: true})
				continue
			default:
				stack = stack[:top]
				continue
			}
		case string:
			switch {
			case isKey:
				stack[top].name = t
			case withNames && top >= 0 && stack[top].object && stack[top].name != "":
				out = append(out, stack[top].name+": "+t)
			default:
				out = append(out, t)
			}
		}
		if top >= 0 && stack[top].object {
			stack[top].wantKey = !isKey
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
	case m.FailedBy != "":
		g.add(CheckErrorAsSuccess, isErrorPath, "the result says %s but isError is not set: the agent takes the failure as data", clip(m.FailedBy, 60))
	case m.Category != "":
		g.add(CheckErrorAsSuccess, isErrorPath, "the result carries errorCategory %s but isError is not set: the agent takes the failure as data", m.Category)
	case m.ErrorOnly && (m.OK == nil || !*m.OK):
		g.add(CheckErrorAsSuccess, isErrorPath, "the result holds nothing but an error member (%q) and isError is not set: the agent takes the failure as data", clip(firstLine(m.Description), 60))
	case len(res.StructuredContent) == 0 && rules.ReadsAsFailedCall(g.withoutGiven(texts)):
		g.add(CheckErrorAsSuccess, isErrorPath, "the text reads as a failed request (%q) but isError is not set: the agent takes it as data", firstLine(texts))
	}
	empty := g.emptySuccess(res, cl, texts)
	switch {
	case g.has(CheckErrorAsSuccess):
	case g.in.Truth != nil && g.in.Truth.Layer != rules.LayerSuccess:
		g.add(CheckHiddenFailure, isErrorPath, "the call failed (%s) but the response says success%s: the agent will give a confident wrong answer", kindText(*g.in.Truth), emptyText(empty))
	case empty && m.ErrorMember:
		g.add(CheckHiddenFailure, "$.result."+m.Path, "the result returns nothing but carries an error member (%q): a failure passed off as an empty result, which the agent will report as \"no match\"", clip(firstLine(m.Description), 60))
	case empty:
		if words := rules.SaysFailed(g.withoutGiven(g.readText(res))); words != "" {
			g.add(CheckHiddenFailure, isErrorPath, "the result returns nothing, yet it says %q: a failure passed off as an empty result, which the agent will report as \"no match\"", clip(words, 60))
		}
	case len(res.StructuredContent) == 0 && m.Source == "":
		if words := rules.ShortFailure(g.withoutGiven(texts)); words != "" {
			g.add(CheckHiddenFailure, isErrorPath, "the whole result is %q, which says %q, yet isError is not set: an access failure passed off as an answer, which the agent will repeat as fact", firstLine(texts), clip(words, 60))
		}
	}
	switch {
	case g.has(CheckHiddenFailure) || g.has(CheckErrorAsSuccess):
	case cl.Empty && cl.Meta.ResultCount == nil && !saysEmpty(texts):
		g.add(CheckAmbiguousEmpty, "$.result", "an empty success with no resultCount and no sentence saying the query ran: it cannot be told from a failure passed off as empty")
	case !cl.Empty && emptyCollections(res.StructuredContent) && !saysEmpty(texts):
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

var emptySentence = rules.Lazy(`(?i)(\b0 \w+ match|\bno (\w+ )*(match|matches|results?|records?)\b|\bno \w+ (were|was|are|is) (returned|found)\b|found nothing|nothing (was )?found|returned no)`)

func saysEmpty(text string) bool { return emptySentence.MatchString(text) }

// emptySuccess reports a success that returns nothing (LESSON-RULES §4):
// a valid empty result (resultCount 0, or nothing at all), an object
// whose lists are all empty, or a text-only result that says nothing was
// found.
func (g *grader) emptySuccess(res *rules.ToolResult, cl rules.Classification, texts string) bool {
	if cl.Empty || emptyLists(res.StructuredContent) {
		return true
	}
	for _, t := range res.Texts() {
		if emptyLists([]byte(t)) {
			return true
		}
	}
	return len(res.StructuredContent) == 0 && saysEmpty(texts)
}

// readText is every text of a result as a reader sees it: the text
// blocks (JSON decoded) and the strings of structuredContent.
func (g *grader) readText(res *rules.ToolResult) string {
	var parts []string
	for i, t := range res.Texts() {
		if i == maxScannedBlocks {
			break
		}
		d, _ := decodedText(t)
		parts = append(parts, scanned(d))
	}
	if len(res.StructuredContent) > 0 {
		parts = append(parts, scanned(decoded(res.StructuredContent)))
	}
	return strings.Join(parts, "\n")
}

// emptyLists reports a JSON object with at least one list, all of them
// empty ({"orders": [], "error": "database timeout"}).
func emptyLists(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' || len(raw) > 64<<10 {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	lists := 0
	for _, v := range m {
		v = bytes.TrimSpace(v)
		if len(v) > 0 && v[0] == '[' {
			if string(v) != "[]" && !isEmptyArray(v) {
				return false
			}
			lists++
		}
	}
	return lists > 0
}

func isEmptyArray(v []byte) bool {
	var a []json.RawMessage
	return json.Unmarshal(v, &a) == nil && len(a) == 0
}

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

func emptyText(empty bool) string {
	if empty {
		return " with no results"
	}
	return ""
}
