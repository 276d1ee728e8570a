// Package rules is LESSON-RULES.md as code: the layers of failure, the four
// error categories and what isRetryable means, the recovery actions a learner
// chooses from, how to classify any JSON-RPC envelope, and how to score a
// choice with feedback that names the rule it follows or breaks.
//
// It is the one place these rules live. The mock server, the simulated
// agents, the quiz drills, the TUI and the `check` grader all ask this
// package; none of them restates a rule. It imports nothing of errorlab's.
package rules

import (
	"fmt"
	"sort"
	"strings"
)

// Revision is an MCP specification revision, named by its date.
type Revision string

// The revisions errorlab shows (LESSON-RULES §1).
const (
	// Rev20250618 lists arguments that fail a tool's inputSchema with the
	// protocol errors (-32602). The seeds read the spec this way.
	Rev20250618 Revision = "2025-06-18"
	// Rev20251125 made input validation failures tool execution errors
	// (SEP-1303) so the model can correct itself. Unknown tool stays -32602.
	Rev20251125 Revision = "2025-11-25"
	// Rev20260728 keeps the error rules and makes the protocol stateless:
	// server/discover instead of initialize, _meta on every request and
	// resultType on every result.
	Rev20260728 Revision = "2026-07-28"
)

// Revisions lists the supported revisions, oldest first.
var Revisions = []Revision{Rev20250618, Rev20251125, Rev20260728}

// DefaultRevision is the revision a screen shows unless told otherwise.
const DefaultRevision = Rev20251125

// ParseRevision accepts a revision date. The error lists the valid ones.
func ParseRevision(s string) (Revision, error) {
	for _, r := range Revisions {
		if string(r) == s {
			return r, nil
		}
	}
	names := make([]string, len(Revisions))
	for i, r := range Revisions {
		names[i] = string(r)
	}
	return "", fmt.Errorf("unknown spec revision %q: use one of %s", s, strings.Join(names, ", "))
}

// InputSchemaLayer is the layer on which a tools/call whose arguments fail
// the tool's inputSchema is reported under this revision (LESSON-RULES §1):
// protocol (-32602) in 2025-06-18, execution (isError) from 2025-11-25 on.
func (r Revision) InputSchemaLayer() Layer {
	if r == Rev20250618 {
		return LayerProtocol
	}
	return LayerExecution
}

// Stateless reports whether the revision has no initialize handshake
// (server/discover, _meta on requests, resultType on results).
func (r Revision) Stateless() bool { return r >= Rev20260728 }

// Layer is where a failure is reported (LESSON-RULES §1).
type Layer string

const (
	// LayerProtocol is a JSON-RPC error member: no tool ran, the model sees
	// no tool result, and the fix is in the client, the server or the schema.
	LayerProtocol Layer = "protocol"
	// LayerExecution is a CallToolResult with isError: true: the tool ran and
	// failed, and the model reads the result to decide what to do next.
	LayerExecution Layer = "execution"
	// LayerSuccess is a CallToolResult without isError (or false).
	LayerSuccess Layer = "success"
)

// Category is one of the four exam categories of a tool execution error
// (LESSON-RULES §2). It is an application convention carried in
// structuredContent and the text mirror, not an MCP field.
type Category string

const (
	Transient  Category = "transient"
	Validation Category = "validation"
	Business   Category = "business"
	Permission Category = "permission"
)

// Categories lists the four categories in the exam's order.
var Categories = []Category{Transient, Validation, Business, Permission}

// Retryable is the isRetryable value the category carries (LESSON-RULES §2):
// true only for transient. The seed 004 reads validation as true ("retry
// after correction"); the answer key is false.
func (c Category) Retryable() bool { return c == Transient }

// Valid reports whether c is one of the four canonical names.
func (c Category) Valid() bool {
	switch c {
	case Transient, Validation, Business, Permission:
		return true
	}
	return false
}

// categorySynonyms maps category names seen in the wild (LESSON-RULES §3),
// lowered and stripped of "_", "-" and spaces, to the exam's four. A
// grader reads them but flags them: only the four exact names are
// canonical.
var categorySynonyms = map[string]Category{
	"transient": Transient, "timeout": Transient, "timedout": Transient, "unavailable": Transient,
	"ratelimit": Transient, "ratelimited": Transient, "throttled": Transient, "overloaded": Transient,
	"busy": Transient, "upstream": Transient, "internal": Transient, "network": Transient,
	"temporary": Transient, "retryable": Transient, "connection": Transient, "transport": Transient,
	"validation": Validation, "invalidinput": Validation, "invalidargument": Validation, "invalidparams": Validation,
	"badrequest": Validation, "notfound": Validation, "invalid": Validation, "input": Validation, "malformed": Validation,
	"business": Business, "policy": Business, "conflict": Business, "businessrule": Business,
	"confirmationrequired": Business, "rule": Business, "precondition": Business,
	"permission": Permission, "authorization": Permission, "authorisation": Permission, "forbidden": Permission,
	"unauthorized": Permission, "unauthorised": Permission, "auth": Permission, "authentication": Permission,
	"accessdenied": Permission, "access": Permission, "denied": Permission, "scope": Permission,
}

// ParseCategory reads an errorCategory value (LESSON-RULES §2, §3). Only
// the four exact names are canonical; any other value that resembles one
// of them (another case, a synonym such as "timeout" or "forbidden", or a
// name holding one, such as "network_error") maps to it with canonical
// false, so that a grader can flag it and name the value it resembles.
// ok is false for a value that resembles none.
func ParseCategory(s string) (c Category, canonical bool, ok bool) {
	if Category(s).Valid() {
		return Category(s), true, true
	}
	key := strings.ToLower(strings.TrimSpace(s))
	if c, ok := categorySynonyms[squash(key)]; ok {
		return c, false, true
	}
	for _, word := range strings.FieldsFunc(key, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') }) {
		if c, ok := categorySynonyms[word]; ok {
			return c, false, true
		}
	}
	return "", false, false
}

// squash lowers nothing; it drops "_", "-" and spaces: "rate_limit" →
// "ratelimit".
func squash(s string) string {
	return strings.NewReplacer("_", "", "-", "", " ", "").Replace(s)
}

// Action is a recovery action the learner chooses from (LESSON-RULES §8).
type Action string

const (
	RetrySame          Action = "retry_same"
	FixInput           Action = "fix_input"
	ExplainAlternative Action = "explain_alternative"
	EscalateHuman      Action = "escalate_human"
	RequestCredentials Action = "request_credentials"
	AcceptEmpty        Action = "accept_empty"
	AskConfirmation    Action = "ask_confirmation"
	FixClient          Action = "fix_client"
	ReportPartial      Action = "report_partial"
)

// Actions lists every recovery action in the order of LESSON-RULES §8.
var Actions = []Action{
	RetrySame, FixInput, ExplainAlternative, EscalateHuman, RequestCredentials,
	AcceptEmpty, AskConfirmation, FixClient, ReportPartial,
}

var actionText = map[Action][2]string{
	RetrySame:          {"Resend the same call", "wait (the server's retryAfterSeconds if it gives one, else 1 s, 2 s, 4 s), then send the identical call again; 3 resends at most"},
	FixInput:           {"Correct the input", "send a new call with corrected arguments, asking the customer if the right value cannot be worked out"},
	ExplainAlternative: {"Explain and offer another path", "tell the customer why in words they accept, then offer escalation, approval or a goodwill request"},
	EscalateHuman:      {"Escalate to a human", "hand the case to a person who has the access or authority, with the details"},
	RequestCredentials: {"Act with the right access", "repeat the work as a principal that holds the missing role or scope"},
	AcceptEmpty:        {"Accept the empty result", "the query ran and found nothing: say so, do not retry"},
	AskConfirmation:    {"Ask the customer to confirm", "get an explicit yes from the customer, then call again with the confirmation"},
	FixClient:          {"Fix the client or server", "a protocol error: correct the tool name, request or server code; not something the agent loop can recover"},
	ReportPartial:      {"Report upward with partial results", "send one report: what was obtained, the unresolved error with its category, and what was attempted"},
}

// Title is a short imperative label for the action.
func (a Action) Title() string { return actionText[a][0] }

// Description says what the action does, in one clause.
func (a Action) Description() string { return actionText[a][1] }

// Valid reports whether a is one of the actions of LESSON-RULES §8.
func (a Action) Valid() bool { _, ok := actionText[a]; return ok }

// ParseAction accepts an action id; the error lists the valid ones.
func ParseAction(s string) (Action, error) {
	a := Action(s)
	if a.Valid() {
		return a, nil
	}
	names := make([]string, len(Actions))
	for i, x := range Actions {
		names[i] = string(x)
	}
	return "", fmt.Errorf("unknown recovery action %q: use one of %s", s, strings.Join(names, ", "))
}

// Rule is one statement of LESSON-RULES, written for learners, with the
// section it comes from.
type Rule struct {
	ID        string // stable id, e.g. "category.business"
	Section   string // e.g. "§2"
	Title     string
	Statement string
}

// Ref renders the rule as "§2 Business errors".
func (r Rule) Ref() string { return r.Section + " " + r.Title }

// The rule ids used by classification, scoring and grading.
const (
	RuleProtocolLayer     = "layers.protocol"
	RuleExecutionLayer    = "layers.execution"
	RuleInputByRevision   = "layers.input-validation"
	RuleGoError           = "layers.go-error"
	RuleUnknownTool       = "layers.unknown-tool"
	RuleTransient         = "category.transient"
	RuleValidation        = "category.validation"
	RuleBusiness          = "category.business"
	RulePermission        = "category.permission"
	RuleRetryableMeaning  = "retryable.meaning"
	RuleMetadataFields    = "metadata.fields"
	RuleMetadataMirror    = "metadata.mirror"
	RuleOutputSchema      = "metadata.output-schema"
	RuleGenericMessage    = "metadata.generic"
	RuleRawException      = "metadata.raw-exception"
	RuleErrorAsSuccess    = "metadata.error-as-success"
	RuleValidEmpty        = "empty.valid"
	RuleAccessFailure     = "empty.access-failure"
	RuleEmptyContract     = "empty.contract"
	RuleRecoverLocally    = "propagation.local"
	RuleReportUpward      = "propagation.report"
	RuleNoSuppression     = "propagation.no-suppression"
	RuleSafeToShow        = "safe.no-internals"
	RuleActionable        = "safe.actionable"
	RuleFlagSpellings     = "spelling.flag"
	RuleConfirmation      = "decision.confirmation"
	RuleRateLimit         = "decision.rate-limit"
	RuleUnexpectedFault   = "decision.unexpected-fault"
	RulePartialSources    = "decision.partial-sources"
	RuleSchemaConformance = "decision.output-conforms"
)

var rulebook = map[string]Rule{
	RuleProtocolLayer: {RuleProtocolLayer, "§1", "Protocol errors",
		"A JSON-RPC error member means the call itself could not be made: no tool ran, so the model gets no tool result. The client, the server code or the schema needs the fix, not the agent's recovery loop."},
	RuleExecutionLayer: {RuleExecutionLayer, "§1", "Tool execution errors",
		"When the tool was found and ran but failed, the server answers with a normal result carrying isError: true and a text block the model can read and act on."},
	RuleInputByRevision: {RuleInputByRevision, "§1", "Input validation by revision",
		"Arguments that break the inputSchema were a -32602 protocol error in 2025-06-18; from 2025-11-25 (SEP-1303) they are isError results so the model can correct itself. An unknown tool stays -32602."},
	RuleGoError: {RuleGoError, "§1", "A handler that returns an error",
		"A tool handler that returns a Go error (or throws) becomes a -32603 protocol error: the model learns nothing it can use. Write an isError: true result on purpose instead."},
	RuleUnknownTool: {RuleUnknownTool, "§1", "Unknown tool",
		"A tools/call naming a tool the server does not have is a JSON-RPC error -32602. Reporting it as isError is a proposal (SEP-2145), not the spec; -32601 or -32603 for it is wrong."},
	RuleTransient: {RuleTransient, "§2", "Transient errors",
		"A timeout, an overloaded or unavailable service, a rate limit or a network blip: the request was fine, so the same call can work later. isRetryable: true; resend after a delay with capped backoff (at most 3 resends, after 1 s, 2 s and 4 s), then report."},
	RuleValidation: {RuleValidation, "§2", "Validation errors",
		"The input was wrong: a malformed id, a missing field, a bad date or range. Resending it fails forever, so isRetryable: false; the agent corrects the input (or asks the user) and sends a new call."},
	RuleBusiness: {RuleBusiness, "§2", "Business errors",
		"The input was fine and the system worked, but a rule said no: a refund above the limit, a return window passed. Never resend; explain the rule in words the customer accepts and take another path."},
	RulePermission: {RulePermission, "§2", "Permission errors",
		"The caller lacks a role, scope or credential. Resending as the same principal cannot work; escalate to a person with access or act as a principal that has it."},
	RuleRetryableMeaning: {RuleRetryableMeaning, "§2", "What isRetryable means",
		"isRetryable answers one question: would resending this exact call work? false means \"not this call again\", not \"give up\": validation is fixed by the agent, business and permission need another path or principal."},
	RuleMetadataFields: {RuleMetadataFields, "§3", "Structured metadata",
		"An error result carries errorCategory, isRetryable and a description of what went wrong and what to try next, plus the extras that fit: code, customerMessage, retryAfterSeconds, fieldErrors, correlationId, requiresUserAction."},
	RuleMetadataMirror: {RuleMetadataMirror, "§3", "Mirror structuredContent in text",
		"Put the metadata in structuredContent and the same data as JSON in a text block, for clients that read only content."},
	RuleOutputSchema: {RuleOutputSchema, "§3", "Errors and outputSchema",
		"If the tool declares an outputSchema, a success's structuredContent must conform; an error either uses a schema that admits the error shape or stays out of structuredContent."},
	RuleGenericMessage: {RuleGenericMessage, "§3", "\"Operation failed\"",
		"A generic failure message hides the category, so the agent cannot tell a blip it should retry from a rule it must explain."},
	RuleRawException: {RuleRawException, "§3", "Raw exceptions",
		"An exception's text (a KeyError, a stack trace) keeps the loop alive but tells the model nothing it can act on, and may leak internals."},
	RuleErrorAsSuccess: {RuleErrorAsSuccess, "§3", "Errors sent as success",
		"isError: false with \"ERROR: ...\" in the text makes a failure look like data; the agent and the client lose the one reliable signal."},
	RuleValidEmpty: {RuleValidEmpty, "§4", "Valid empty result",
		"The query ran and nothing matched: no isError, a plain statement of zero matches and resultCount: 0. Accept it, do not retry, tell the user there is no match."},
	RuleAccessFailure: {RuleAccessFailure, "§4", "Access failure",
		"The source could not be reached, so nobody knows the answer: isError: true, transient, retryable, and the text says the query did not run. Reporting it as empty gives a confident wrong answer."},
	RuleEmptyContract: {RuleEmptyContract, "§4", "Not-found by contract",
		"An exact-id lookup may define \"no such record\" as an error by contract; a search never should. Whatever the contract, keep it consistent."},
	RuleRecoverLocally: {RuleRecoverLocally, "§5", "Recover locally",
		"A subagent retries transient failures itself, with a cap enforced by code (at most 3 resends, after 1 s, 2 s and 4 s). A retry that works never reaches the coordinator."},
	RuleReportUpward: {RuleReportUpward, "§5", "Report once, with context",
		"At the cap, or on an error it cannot fix, the subagent sends one report: the partial results it has, the unresolved error with its category, and what it attempted."},
	RuleNoSuppression: {RuleNoSuppression, "§5", "Never suppress a failure",
		"Passing a failure up as an empty success, killing the whole workflow on one failure, or forwarding every transient blip all leave the coordinator deciding blind."},
	RuleSafeToShow: {RuleSafeToShow, "§6", "Safe to show the model",
		"No stack traces, SQL, tokens, headers, private hosts or sensitive data in an error result. An unexpected fault gets a generic message and a correlationId; details stay in the server log."},
	RuleActionable: {RuleActionable, "§6", "Specific when expected",
		"Masking everything is wrong too: an expected failure gets a specific message that says what to do next."},
	RuleFlagSpellings: {RuleFlagSpellings, "§7", "One flag, several spellings",
		"MCP CallToolResult isError; Messages API tool_result is_error; Agent SDK Python \"is_error\"; TypeScript tool() isError. Same meaning everywhere."},
	RuleConfirmation: {RuleConfirmation, "§9", "Unconfirmed destructive action",
		"A destructive action the user has not confirmed gets isError: true with requiresUserAction and no automatic retry: ask the user, then call again."},
	RuleRateLimit: {RuleRateLimit, "§9", "Upstream rate limit",
		"A rate limit is transient: isError: true with retryAfterSeconds when known, and the agent waits at least that long before resending."},
	RuleUnexpectedFault: {RuleUnexpectedFault, "§9", "Unexpected exception",
		"An unexpected fault becomes a sanitized isError: true result with a correlationId, never a raw trace."},
	RulePartialSources: {RulePartialSources, "§9", "Some sources answered",
		"When some sources answered and some did not, return success with warnings and the partial results, or isError: true if the task cannot be done."},
	RuleSchemaConformance: {RuleSchemaConformance, "§9", "Output conforms",
		"A success with structuredContent and a declared outputSchema conforms to that schema."},
}

// Lookup returns the rule with this id. An unknown id returns a Rule whose
// Title says so, so a typo shows up on screen rather than as a blank.
func Lookup(id string) Rule {
	if r, ok := rulebook[id]; ok {
		return r
	}
	return Rule{ID: id, Section: "§?", Title: "unknown rule " + id}
}

// AllRules returns every rule, ordered by section then id.
func AllRules() []Rule {
	out := make([]Rule, 0, len(rulebook))
	for _, r := range rulebook {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Section != out[j].Section {
			return out[i].Section < out[j].Section
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// CategoryRule returns the §2 rule of a category.
func CategoryRule(c Category) Rule {
	switch c {
	case Transient:
		return Lookup(RuleTransient)
	case Validation:
		return Lookup(RuleValidation)
	case Business:
		return Lookup(RuleBusiness)
	case Permission:
		return Lookup(RulePermission)
	}
	return Lookup(RuleMetadataFields)
}

// HeaderMismatchCode is the JSON-RPC error 2026-07-28's Streamable HTTP
// transport answers when the MCP-Protocol-Version, Mcp-Method or Mcp-Name
// header of a request is missing or does not match its body: the request
// is refused before any tool runs, so it is a protocol error the client
// fixes (LESSON-RULES §1).
const HeaderMismatchCode = -32020

// RequestRefused reports whether a JSON-RPC error code says the request
// itself could not be taken, before any method or tool ran (LESSON-RULES
// §1): -32700 (not JSON), -32600 (not a valid request), -32042 (a URL
// elicitation is required, 2025-11-25) and -32020 (a transport header
// that does not match the body, 2026-07-28). Such an answer to a
// tools/call is on the right layer whatever the tool.
func RequestRefused(code int) bool {
	switch code {
	case -32700, -32600, -32042, HeaderMismatchCode:
		return true
	}
	return false
}

// MaxRetries is the cap on resends of a transient failure (LESSON-RULES §2,
// §5): after the first call fails, at most three more tries of the same
// call, waiting 1 s, 2 s and 4 s before them. The cap is enforced by code,
// not left to the model.
const MaxRetries = 3

// BackoffSeconds returns the exponential backoff wait, in seconds, before
// resend number retry (1-based): 1, 2, 4, 8, ... A server's
// retryAfterSeconds overrides the wait when it is longer (LESSON-RULES §9).
func BackoffSeconds(retry int, retryAfterSeconds float64) float64 {
	if retry < 1 {
		return 0
	}
	w := float64(int(1) << (retry - 1))
	if retryAfterSeconds > w {
		w = retryAfterSeconds
	}
	return w
}
