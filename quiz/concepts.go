package quiz

import "strings"

// Concept is one rule of LESSON-RULES that a question tests: a row of one
// of its tables or one of its paragraphs. Two questions that test the same
// rule hand each other the answer (one states, or lets a reader infer,
// what the other asks), so a session never draws an item that tests a
// rule beside one that tests or shows it (clash, in session.go).
type Concept struct {
	ID string
	// Section is the LESSON-RULES section ("§2"); Rule says which row or
	// paragraph of it, in a few words.
	Section string
	Rule    string
}

// Concepts is the catalogue a question's `concepts:` list draws from,
// in LESSON-RULES order.
var Concepts = []Concept{
	// §1 Two layers, and the spec revisions.
	{"wire-unknown-tool", "§1", "a tools/call naming an unknown tool is JSON-RPC -32602, in every revision"},
	{"wire-codes", "§1", "-32700 malformed JSON, -32600 not a valid request, -32601 unknown method, -32602 params that break tools/call, -32603 a fault outside any tool"},
	{"protocol-host-side", "§1", "a protocol error goes to the host or client, never to the model; the fix is in the client or the schema"},
	{"execution-to-model", "§1", "a tool execution error is an ordinary result the model reads; the flag, not the wording, says it failed"},
	{"handler-go-error", "§1", "a handler that returns a Go error gets -32603 from mcp-go; the model learns nothing"},
	{"sdk-exception", "§7", "the Agent SDK's in-process server turns a raised exception into an error result holding the raw text"},
	{"rev-sep-1303", "§1", "2025-11-25 (SEP-1303): arguments that fail the inputSchema are an isError result the model can correct"},
	{"rev-2025-06-18", "§1", "2025-06-18: arguments that fail the inputSchema are -32602, with no result"},
	{"handler-check", "§1 §9", "a value or field the inputSchema allows but the handler refuses is a validation result (isError) in every revision"},
	{"rev-2026-discover", "§1", "2026-07-28 is stateless: no initialize handshake; a client learns about a server with server/discover"},
	{"rev-2026-meta", "§1", "2026-07-28: every request carries _meta with io.modelcontextprotocol/protocolVersion, clientCapabilities and clientInfo"},
	{"rev-2026-result-type", "§1", "2026-07-28: every result carries resultType \"complete\", error results included"},
	{"rev-sep-2145", "§1", "SEP-2145 (unknown tool as isError) is an open proposal: graded contested, not right"},
	{"wire-parse-vs-invalid", "§1", "-32700 only for bytes that do not parse as JSON; JSON that parses but is no request object (a bare string, no method member) is -32600"},
	{"exec-upstream-error", "§1", "a tool that was found and ran reports what failed beneath it, even a JSON-RPC error from a service it calls, as an isError result, not as a protocol error"},
	{"exec-policy-refusal", "§1", "a rule that refuses the tool's work (a limit, unpaid fees, a closed window) is a tool execution error: an isError result, not a JSON-RPC error of any code, nor a success that says no"},
	{"wire-error-shape", "§1", "a protocol error is an error member {code, message, data?} and no result: data may be left out, and one reply never carries an error and a result together"},
	{"exec-not-found-contract", "§1 §4", "a lookup that ran and found no such record, an error by its contract, is an isError result: never a JSON-RPC error, whatever code the tool's description promises"},
	{"exec-unforeseen-fault", "§1 §9", "a fault the tool's code did not foresee, met after the tool was found and ran, is a sanitized isError result, never -32603: that code is for faults outside any tool"},
	{"rev-2025-06-18-handler-unreached", "§1", "2025-06-18: a call that fails the inputSchema gets -32602 before any tool runs, so a field only the handler needs is reported by nothing until a corrected call reaches the handler"},
	{"rev-move-by-revision", "§1 §8", "the revision decides the move for a bad argument: under 2025-06-18 a schema failure is -32602 and fix_client, from 2025-11-25 an isError result and fix_input; a field only the handler needs is fix_input in every revision"},
	{"rev-2025-06-18-date-row", "§1 §9", "2025-06-18: only what the inputSchema itself states can fail it; a date it types as a plain string, sent in the wrong form, meets the date row (isError, validation, the format and an example), not -32602"},
	{"rev-2026-result-type-results-only", "§1", "2026-07-28: resultType \"complete\" rides on every result (an isError one, a partial success, server/discover's reply) and on no protocol error, which has no result"},
	{"rev-2025-06-18-called-tool-schema", "§1 §9", "2025-06-18: -32602 answers arguments that fail the inputSchema of the tool the host called; a tool that passed it and then met -32602 from a server it calls reports an isError result (a field the work needs: validation)"},
	{"rev-2025-06-18-confirmation-field", "§1 §9", "2025-06-18: a confirmation the inputSchema requires, left out or of the wrong type, is -32602 and no result, so no requiresUserAction reaches the model; sent as false it reaches the handler, which answers isError with requiresUserAction"},
	{"rev-sep-1303-go-error", "§1", "SEP-1303 changed the answer to arguments that fail the inputSchema, not to a handler's Go error: from 2025-11-25 as before, an mcp-go handler that rejects an argument by returning a Go error gets -32603"},
	{"rev-2025-06-18-limit-in-schema", "§1 §2", "2025-06-18: a business limit the inputSchema states (a maximum) fails the schema: -32602 with no result, not a business refusal with a customerMessage, which needs a handler that runs"},
	{"handler-go-error-ran", "§1", "the -32603 mcp-go makes of a handler's Go error comes after the handler ran, in every revision: it does not show that no code ran, and the repair is an isError result written on purpose, not a host that relays protocol errors"},
	// §2 The four categories and isRetryable.
	{"cat-transient", "§2", "transient row: a timeout or an unavailable service; resend the same call after a wait"},
	{"cat-validation", "§2", "validation row: malformed or missing input; correct it (infer it, or ask the user) and send a new call"},
	{"cat-business", "§2", "business row: correct input a rule refuses; explain it in words the customer accepts and offer another path"},
	{"cat-business-real-value", "§2", "business, not validation: a real value (a party of 14, 21 nights) that a rule refuses is not bad input"},
	{"cat-business-approval", "§2", "business, not permission: a refusal that a manager's approval could lift is still a business refusal"},
	{"cat-permission", "§2", "permission row: the caller's role or scope is missing; never resend as the same principal; escalate or act as one with access"},
	{"cat-expired-credential", "§2", "an expired credential is a permission error that may work after a refresh, never by repeating the call"},
	{"cat-rate-limit", "§2", "a rate limit is transient, not a refusal of the caller"},
	{"retryable-meaning", "§2", "isRetryable answers one question (will this exact call work if sent again?); false is not \"give up\""},
	{"retryable-validation", "§2", "validation is isRetryable false (the seeds disagree; the key is false): a corrected call is a new call"},
	{"retry-cap", "§2 §5", "capped backoff in code: the original call plus at most 3 resends, after 1 s, 2 s and 4 s; then report"},
	{"retry-after", "§2", "a retryAfterSeconds the tool gives replaces the backoff's wait"},
	{"side-effect-timeout", "§2", "a timeout on a call with side effects: check state or use an idempotency key before a resend"},
	{"privacy-withheld", "§2", "permission and privacy: the default for a record the caller may not see is a permission error, not \"absent\""},
	{"privacy-contract", "§2", "a documented contract that answers \"absent\" and \"withheld\" alike, for every caller, where existence is sensitive"},
	{"retry-cap-new-call", "§2 §5", "a call corrected after a validation error is a new call: the cap counts resends from it, not from the refused call"},
	{"retryable-false-scope", "§2", "which callers a false binds: validation's and business's bind the identical call from anyone; only permission's leaves it open to a principal with the access"},
	{"transient-keeps-arguments", "§2", "a transient failure is met by resending the call unchanged; narrowing or splitting its arguments is a fix for bad input, not for a timeout"},
	{"cat-service-account", "§2", "permission, not business: a service account without access is a caller missing its access, even when the refusal reads as a channel rule (\"through branches only\")"},
	{"cat-start-after-end", "§2", "validation, not business: an end before its start is malformed input, whatever rule the tool's message cites"},
	{"cat-missing-field", "§2 §9", "validation, not permission: a field the tool needs, left out of the call, is fixed by a new call that carries it, even when it guards a regulated action"},
	{"cat-overloaded-store", "§2", "transient, not business: a store at capacity (overloaded) is resent after the backoff, even when its words read like a full slot"},
	{"cat-customer-not-caller", "§2", "business, not permission: a refusal, however worded (\"not authorised\", \"refused\"), that names the customer's account (its credit level, an entitlement it lacks) refuses every caller alike; permission is the caller's own missing access"},
	{"cat-closed-window", "§2", "transient, not business: a service closed for a set window (a nightly ledger close) is unavailable; the identical call works when it reopens, so isRetryable true"},
	{"cat-out-of-range", "§2", "validation, not business: an argument beyond what one call takes (a 31-day span, 20 results) is met by new calls inside the range; it refuses nothing the customer asked for"},
	{"cat-permission-not-consent", "§2", "permission is the calling principal's missing access: the customer's consent, proof of her identity or a manager's sign-off adds none, so that principal does not send the call again"},
	{"retry-new-call-no-wait", "§2", "the backoff's waits stand only before resends of a transient failure: a new call (corrected input, another principal) goes without one, even straight after failures"},
	{"backoff-ends-on-answer", "§2 §4", "the backoff resends transient failures only: the first reply that is not one (a success, a valid empty included) ends it, with resends left"},
	{"resend-before-partial", "§2 §5 §9", "a call that failed transiently beside calls that answered is resent alone, on the backoff, before any partial answer: partial results go out only once its cap is spent"},
	{"transient-resend-whole-call", "§2", "the unit of a resend is the call: one call that failed transiently is resent whole, its arguments unchanged, even when its result carries partial results and names the one part that failed; a call for that part alone is not the transient move"},
	// §3 Structured metadata.
	{"meta-placement", "§3", "the category fields go in structuredContent and, the same data serialized, in a text block"},
	{"meta-convention", "§3", "errorCategory, isRetryable and description are an application convention; MCP defines content, structuredContent, isError and _meta"},
	{"meta-output-schema", "§3", "a success's structuredContent conforms to the outputSchema; an error uses a schema that admits it or stays out"},
	{"meta-synonyms", "§3", "the synonyms a grader must recognise: category, retriable/retryable, automatic_retry_allowed, message, an {ok, data, error} envelope"},
	{"meta-extras", "§3", "the extras by name: code, customerMessage, retryAfterSeconds, fieldErrors, exampleArguments, correlationId, partialResults, attempted"},
	{"meta-requires-user-action", "§3 §9", "a destructive action the user has not confirmed: isError, requiresUserAction, no automatic retry; ask, then call"},
	{"meta-anti-patterns", "§3", "the anti-patterns: a generic \"Operation failed\", a raw exception, isError false with \"ERROR: ...\" in the text"},
	{"meta-text-copy-should", "§3", "the JSON copy of structuredContent in a text block is the spec's SHOULD, not a MUST: valid without it, but content-only clients miss the fields"},
	{"meta-iserror-optional", "§3 §4", "isError may be left out: a result with no isError member is a success, as one with isError false is"},
	// §4 Valid empty result against access failure.
	{"empty-valid", "§4", "valid empty result: no isError, resultCount 0, words that say the query ran; accept it and tell the user"},
	{"empty-access-failure", "§4", "access failure: isError true, transient, retryable, text that says the query did not run"},
	{"empty-worse-mistake", "§4", "failure reported as empty (a confident wrong answer) is worse than empty reported as failure"},
	{"empty-exact-id", "§4", "an exact-id lookup may define \"no such record\" as an error by contract; a search never should"},
	{"empty-needs-valid-input", "§4 §2", "a zero from input that cannot be right (a start after its end) is a validation error, not a valid empty result"},
	{"empty-consistent", "§4", "whatever a tool's contract for \"no such record\", it answers that one way every time, for every record and every caller"},
	{"empty-as-failure-cost", "§4", "empty reported as failure: a search that ran, flagged transient, is resent to the cap and ends with the user told \"I couldn't check\", not \"no match\""},
	{"empty-failure-no-count", "§4", "an access failure carries no resultCount and no empty list, not even 0: nothing was counted, and a zero is the mark of a query that ran"},
	{"empty-cut-short", "§4 §9", "a query stopped before it finished (a statement timeout, a cancelled cursor) is an access failure, not an empty result, even with no rows and no exception"},
	{"empty-search-under-id", "§4", "the exact-id exception covers an id that names no record; the records under a real id that match nothing (an account's readings between two dates) are a search's zero, a valid empty result"},
	// §5 Recovery across agents.
	{"prop-local-retry", "§5", "a subagent retries transient errors itself; a recovered failure never reaches the coordinator"},
	{"prop-report", "§5", "on the cap, one report upward: the partial results, the unresolved error with its category, what was attempted"},
	{"prop-report-at-once", "§5", "a non-retryable error the subagent cannot fix is reported at once; one it can fix is fixed locally"},
	{"prop-coordinator", "§5", "the coordinator proceeds with partial data, tries another route, asks the user or escalates; it neither aborts nor hides"},
	{"prop-cap-per-call", "§2 §5", "the cap belongs to each call that fails: a new failure gets its own resends, after 1 s, 2 s and 4 s, whatever other calls in the same job, to the same service included, have used"},
	{"prop-route-after-cap", "§5", "on the cap the subagent's recovery ends in its one report: another route (a second service or tool that holds the same fact) is the coordinator's move, not one the subagent takes before it reports"},
	{"prop-cap-tool-inner-tries", "§2 §5", "the cap counts the resends the caller's code makes of its own call: tries a tool makes inside itself, to its own upstream, spend none of it, so a transient result is a first failure to resend on the backoff"},
	// §6 Safe to show the model.
	{"safe-no-internals", "§6", "no stack traces, SQL, tokens, keys, headers or private host names in an error result"},
	{"safe-sanitized-fault", "§6 §9", "an unexpected fault: a generic message and a correlationId; details in the server's log"},
	{"safe-no-mask", "§6", "masking is wrong too: an expected failure gets a specific, actionable message"},
	{"safe-sensitive-data", "§6", "no sensitive customer data or secrets, masked, hashed or otherwise"},
	{"safe-policy-internals", "§6", "no full policy internals: the one rule that applied, not the rule book"},
	{"safe-own-fault-generic", "§6 §9", "a failure the tool's own code caused, unforeseen, is an unexpected fault (generic message, correlationId) even when the upstream's reply names a field: not the agent's input to correct"},
	{"safe-whole-result", "§6", "the never-list covers the whole error result, _meta included; the details go to the server's log, under an opaque correlationId"},
	{"safe-server-log", "§6", "an unexpected fault's details, its cause in harmless plain words included, go to the server's own log under the result's correlationId: not into the result, and not out to the client in a log notification"},
	{"safe-expected-by-kind", "§6 §9", "expected means a kind of failure the rules name (an overloaded store, an upstream that stops answering, a refusal), however rare and even inside the company's own systems: it gets a specific message; the generic one is for faults the tool's code did not foresee"},
	// §7 One flag, several spellings.
	{"flag-spellings", "§7", "one flag, several spellings: MCP isError, Messages API tool_result is_error, Python @tool \"is_error\": True, TypeScript tool() isError (two questions that contrast spellings answer each other)"},
	{"sdk-loop-survives", "§7", "an exception that escapes an Agent SDK in-process tool (Python or TypeScript) does not end the run: the model takes its next turn with a result for that call"},
	{"flag-per-call", "§7", "the Messages API flag belongs to each tool_result block, one per call: blocks in one message are flagged each by its own call, and one without the flag reads as a success"},
	// §8 and §9.
	{"best-vs-acceptable", "§8", "each situation has a best action and acceptable ones (escalating a business refusal is acceptable, explaining it is best)"},
	{"dt-date-format", "§9", "date row: validation, the expected format and a corrected example"},
	{"dt-timeout", "§9", "timeout row: transient, retry guidance, a correlationId, words that say nothing was done"},
	{"dt-partial", "§9", "partial row: a success with warnings and the partial results, or isError true if the task cannot be done"},
	{"dt-rate-limit-known", "§9", "rate limit row: retryAfterSeconds only when the upstream names the wait for this reply; none is carried over or guessed, and the agent's backoff sets it"},
	{"dt-missing-field", "§9", "missing-field row: the validation result names which field is missing and gives an example call"},
	{"dt-date-no-silent-fix", "§9", "date row: a date in the wrong format is refused as validation with the corrected value, even when it can be read only one way; the handler does not read it and carry on"},
	{"dt-permission-no-retry", "§9", "permission row: isError true, permission and no automatic retry (isRetryable false, no retryAfterSeconds), even when the access is on its way"},
	{"fix-input-asks-user", "§8 §2", "fix_input includes asking the user for an argument the agent cannot infer, then a new call; ask_confirmation is for an action the user must agree to, and staff are not needed for input the user can give"},
}

// ConceptOf returns the catalogue entry with that id.
func ConceptOf(id string) (Concept, bool) {
	for _, c := range Concepts {
		if c.ID == id {
			return c, true
		}
	}
	return Concept{}, false
}

// conceptIDs lists the catalogue's ids, for a problem message.
func conceptIDs() string {
	ids := make([]string, len(Concepts))
	for i, c := range Concepts {
		ids[i] = c.ID
	}
	return strings.Join(ids, ", ")
}
