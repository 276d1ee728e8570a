package grade

import (
	"sort"

	"github.com/errorlab/errorlab/sim/rules"
)

// CheckID is the stable id of one check the grader applies, e.g.
// "layer.go-error". Ids never change meaning: scripts, SARIF rule ids and
// JUnit test names use them.
type CheckID string

// Check is one rule `errorlab check` applies to a response: its stable
// id, its severity (fixed per check), the defect it is an instance of,
// the LESSON-RULES rule it enforces (rules.Lookup gives the section),
// what is wrong in one line, and how to fix it.
type Check struct {
	ID       CheckID  `json:"id"`
	Severity Severity `json:"severity"`
	Defect   Defect   `json:"defect"`
	Rule     string   `json:"rule"`
	Section  string   `json:"section"`
	Title    string   `json:"title"`
	Fix      string   `json:"fix"`
}

// The checks. Their ids are part of errorlab's interface (see the README's
// `errorlab check` section); add new ones, never rename one.
const (
	CheckUnparsable        CheckID = "envelope.unparsable"
	CheckNoAnswer          CheckID = "envelope.no-answer"
	CheckStrayOutput       CheckID = "envelope.stray-output"
	CheckTooLarge          CheckID = "envelope.too-large"
	CheckTooLargeToGrade   CheckID = "envelope.too-large-to-grade"
	CheckToolDeclaration   CheckID = "schema.tool-declaration"
	CheckSchemaUnchecked   CheckID = "schema.not-checked"
	CheckUTF8              CheckID = "envelope.utf8"
	CheckJSONRPC           CheckID = "envelope.jsonrpc"
	CheckEnvelopeID        CheckID = "envelope.id"
	CheckBoth              CheckID = "envelope.both"
	CheckDuplicateMember   CheckID = "envelope.duplicate-member"
	CheckNeither           CheckID = "envelope.neither"
	CheckNoContent         CheckID = "envelope.no-content"
	CheckResultType        CheckID = "envelope.result-type"
	CheckGoError           CheckID = "layer.go-error"
	CheckExecAsProtocol    CheckID = "layer.execution-as-protocol"
	CheckInputValidation   CheckID = "layer.input-validation"
	CheckUnknownToolCode   CheckID = "layer.unknown-tool-code"
	CheckUnknownToolResult CheckID = "layer.unknown-tool-result"
	CheckUnknownToolOK     CheckID = "layer.unknown-tool-success"
	CheckUnknownMethod     CheckID = "layer.unknown-method"
	CheckCallNotFound      CheckID = "layer.call-method-not-found"
	CheckErrorAsSuccess    CheckID = "metadata.error-as-success"
	CheckNoCategory        CheckID = "metadata.category-missing"
	CheckUnknownCategory   CheckID = "metadata.category-unknown"
	CheckNoRetryable       CheckID = "metadata.retryable-missing"
	CheckWrongRetryable    CheckID = "metadata.retryable-contradicts"
	CheckValidationRetry   CheckID = "metadata.retryable-validation"
	CheckSynonyms          CheckID = "metadata.synonyms"
	CheckGeneric           CheckID = "metadata.generic-message"
	CheckNoDescription     CheckID = "metadata.description-missing"
	CheckRawException      CheckID = "metadata.raw-exception"
	CheckNoTextBlock       CheckID = "metadata.text-missing"
	CheckTextNotMirror     CheckID = "metadata.text-not-mirror"
	CheckValidationField   CheckID = "validation.field-missing"
	CheckCustomerMessage   CheckID = "business.customer-message-missing"
	CheckCustomerAdvice    CheckID = "business.customer-message-advised"
	CheckRetryAfter        CheckID = "transient.retry-after-missing"
	CheckCorrelationID     CheckID = "fault.correlation-id-missing"
	CheckSuccessSchema     CheckID = "schema.success-breaks"
	CheckMissingStructured CheckID = "schema.success-structured-missing"
	CheckErrorSchema       CheckID = "schema.error-breaks"
	CheckAmbiguousEmpty    CheckID = "empty.ambiguous"
	CheckHiddenFailure     CheckID = "empty.hidden-failure"
	CheckLeakStackTrace    CheckID = "leak.stack-trace"
	CheckLeakSystemError   CheckID = "leak.system-error"
	CheckLeakSQL           CheckID = "leak.sql"
	CheckLeakSecret        CheckID = "leak.secret"
	CheckLeakPrivateHost   CheckID = "leak.private-host"
	CheckLeakPath          CheckID = "leak.path"
)

// leakCheck is the check of each kind of leak.
var leakCheck = map[rules.LeakKind]CheckID{
	rules.LeakStackTrace:  CheckLeakStackTrace,
	rules.LeakSystemError: CheckLeakSystemError,
	rules.LeakSQL:         CheckLeakSQL,
	rules.LeakSecret:      CheckLeakSecret,
	rules.LeakPrivateHost: CheckLeakPrivateHost,
	rules.LeakPath:        CheckLeakPath,
}

var checkList = []Check{
	{CheckUnparsable, SevError, DefectUnparsable, rules.RuleProtocolLayer, "",
		"The response is not a readable JSON-RPC 2.0 response",
		"Send one JSON object per message: {\"jsonrpc\": \"2.0\", \"id\": …} with a result or an error member."},
	{CheckNoAnswer, SevError, DefectNoAnswer, rules.RuleProtocolLayer, "",
		"No answer within the client's timeout",
		"Answer every request, even when the work fails or is slow: time out upstream calls before the client does and return isError: true (transient, isRetryable: true, retryAfterSeconds when known)."},
	{CheckStrayOutput, SevError, DefectMalformed, rules.RuleProtocolLayer, "",
		"A line on stdout that is not a JSON-RPC message",
		"On stdio, write only JSON-RPC messages to stdout, one per line; send banners, logs and progress to stderr."},
	{CheckTooLarge, SevWarning, DefectTooLarge, rules.RuleActionable, "",
		"A response too large for a model to read at once",
		"Page or trim large results (a cursor, a count and the first items): a model reads the whole result into its context."},
	{CheckTooLargeToGrade, SevError, DefectTooLarge, rules.RuleActionable, "",
		"A response too large to grade at all",
		"Page or trim large results (a cursor, a count and the first items): no client should have to read megabytes to learn whether a call failed."},
	{CheckToolDeclaration, SevError, DefectMalformed, rules.RuleProtocolLayer, "",
		"A tools/list entry whose inputSchema or outputSchema is not a JSON Schema object",
		"Declare inputSchema as a JSON Schema object with \"type\": \"object\" ({\"type\": \"object\"} for a tool without arguments); an outputSchema, when given, is an object schema too. Clients validate arguments and results against them."},
	{CheckSchemaUnchecked, SevNote, DefectTooLarge, rules.RuleSchemaConformance, "",
		"structuredContent too large to check against the outputSchema",
		"Page large results; errorlab checks conformance for structuredContent of up to 128 KiB."},
	{CheckUTF8, SevError, DefectMalformed, rules.RuleProtocolLayer, "",
		"The response is not valid UTF-8",
		"Encode every JSON-RPC message as UTF-8 (RFC 8259); check text the tool copies from files or upstream services."},
	{CheckJSONRPC, SevError, DefectMalformed, rules.RuleProtocolLayer, "",
		"The jsonrpc member is not \"2.0\"",
		"Set \"jsonrpc\": \"2.0\" on every response."},
	{CheckEnvelopeID, SevError, DefectMalformed, rules.RuleProtocolLayer, "",
		"The id is missing, of the wrong type, or not the request's id",
		"Echo the request's id unchanged (a string or a number); null only for a request whose id could not be read."},
	{CheckBoth, SevError, DefectMalformed, rules.RuleProtocolLayer, "",
		"The response has both a result and an error member",
		"Send exactly one of result or error."},
	{CheckDuplicateMember, SevError, DefectMalformed, rules.RuleProtocolLayer, "",
		"A member name is sent twice in one object",
		"Send each member once (isError, id, errorCategory, …): RFC 8259 leaves a repeated name to each reader, so one client reads the first value and another the last."},
	{CheckNeither, SevError, DefectMalformed, rules.RuleProtocolLayer, "",
		"The response has neither a result nor an error member",
		"Answer every request with exactly one of result or error."},
	{CheckNoContent, SevError, DefectMalformed, rules.RuleExecutionLayer, "",
		"A tools/call result without a content array",
		"A CallToolResult always carries content, an array of blocks, with a text block the model can read."},
	{CheckResultType, SevError, DefectNoResultType, rules.RuleProtocolLayer, "",
		"A 2026-07-28 result without resultType",
		"Under 2026-07-28 every result carries \"resultType\": \"complete\"."},
	{CheckGoError, SevError, DefectWrongLayer, rules.RuleGoError, "",
		"A tools/call answered with -32603 (internal error)",
		"Catch the failure in the handler and return a result with isError: true, errorCategory, isRetryable and a description; do not hand the error to the SDK."},
	{CheckExecAsProtocol, SevError, DefectWrongLayer, rules.RuleExecutionLayer, "",
		"A failure inside a known tool sent as a JSON-RPC error",
		"Answer with a result carrying isError: true, a text block and the metadata, so the model can read it and recover."},
	{CheckInputValidation, SevError, DefectWrongLayer, rules.RuleInputByRevision, "",
		"Arguments that break the inputSchema answered with -32602 under 2025-11-25 or later",
		"Since 2025-11-25 (SEP-1303) return isError: true with errorCategory validation, the field, the expected format and an example, so the model can correct the call."},
	{CheckUnknownToolCode, SevError, DefectWrongCode, rules.RuleUnknownTool, "",
		"An unknown tool answered with a code other than -32602",
		"Answer a tools/call for a tool the server does not have with JSON-RPC error -32602 (invalid params) and a message naming the tool."},
	{CheckUnknownToolResult, SevWarning, DefectUnknownToolResult, rules.RuleUnknownTool, "",
		"An unknown tool answered with an isError result",
		"The spec answers -32602; an isError result for an unknown tool is an open proposal (SEP-2145). Send -32602 until the spec changes."},
	{CheckUnknownToolOK, SevError, DefectWrongCode, rules.RuleUnknownTool, "",
		"An unknown tool answered with a success",
		"Answer a tools/call for a tool the server does not have with JSON-RPC error -32602 (invalid params) and a message naming the tool."},
	{CheckUnknownMethod, SevError, DefectWrongCode, rules.RuleProtocolLayer, "",
		"An unknown method answered with something other than -32601",
		"Answer a method the server does not implement with JSON-RPC error -32601 (method not found)."},
	{CheckCallNotFound, SevError, DefectWrongCode, rules.RuleProtocolLayer, "",
		"tools/call answered with -32601 (method not found)",
		"tools/call exists on every server with tools: answer an unknown tool with -32602 and a failing tool with an isError result."},
	{CheckErrorAsSuccess, SevError, DefectErrorAsSuccess, rules.RuleErrorAsSuccess, "",
		"A failure sent as a success (isError false or absent)",
		"Set isError: true on every result that reports a failure, with errorCategory, isRetryable and a description."},
	{CheckNoCategory, SevError, DefectNoCategory, rules.RuleMetadataFields, "",
		"isError: true without an errorCategory",
		"Add errorCategory (transient, validation, business or permission) to structuredContent and to the JSON text block."},
	{CheckUnknownCategory, SevWarning, DefectUnknownCategory, rules.RuleMetadataFields, "",
		"An errorCategory outside the four",
		"Use transient, validation, business or permission; keep a finer code of your own in code."},
	{CheckNoRetryable, SevWarning, DefectNoRetryable, rules.RuleRetryableMeaning, "",
		"No isRetryable flag",
		"Add isRetryable: true for a transient failure, false for validation, business and permission."},
	{CheckWrongRetryable, SevError, DefectWrongRetryable, rules.RuleRetryableMeaning, "",
		"isRetryable contradicts the category",
		"isRetryable is true only for transient failures: resending the same call cannot fix a business or permission error, and a transient one is worth resending."},
	{CheckValidationRetry, SevWarning, DefectWrongRetryable, rules.RuleRetryableMeaning, "",
		"A validation error with isRetryable: true",
		"Set isRetryable: false: the same input fails the same way; the agent sends a corrected call instead."},
	{CheckSynonyms, SevNote, DefectSynonyms, rules.RuleMetadataFields, "",
		"Metadata under non-canonical names",
		"Prefer errorCategory, isRetryable and description; keep the other names only while clients still read them."},
	{CheckGeneric, SevError, DefectGenericMessage, rules.RuleGenericMessage, "",
		"A generic message such as \"Operation failed\"",
		"Say what failed and what to do next: which argument was wrong and a valid example, or that the service is busy and when to resend."},
	{CheckNoDescription, SevWarning, DefectNoDescription, rules.RuleActionable, "",
		"No description of what went wrong and what to try next",
		"Add a description of one or two sentences: what failed and the next step (resend after a wait, correct a field, explain a rule, escalate)."},
	{CheckRawException, SevError, DefectRawException, rules.RuleRawException, "",
		"A raw exception or system error as the message",
		"Catch the exception, log it on the server under a correlationId, and return an isError result in the lesson's terms that says what the agent can do."},
	{CheckNoTextBlock, SevWarning, DefectNoTextBlock, rules.RuleMetadataMirror, "",
		"structuredContent without a text block",
		"Add a text block holding the same data as JSON, for clients that read only content."},
	{CheckTextNotMirror, SevWarning, DefectTextNotMirror, rules.RuleMetadataMirror, "",
		"No text block mirrors structuredContent",
		"Serialize structuredContent as JSON into a text block (the spec's SHOULD), so clients that read only content see the same data."},
	{CheckValidationField, SevWarning, DefectNoFieldErrors, rules.RuleValidation, "",
		"A validation error that names no field, expected format or example",
		"Add fieldErrors (field, expected, received) and exampleArguments, or say in the description which argument is wrong, the format it takes and an example."},
	{CheckCustomerMessage, SevWarning, DefectNoCustomerMessage, rules.RuleBusiness, "",
		"A business refusal with no message the agent can pass on",
		"Add customerMessage: the rule in words the agent can pass on to the customer as they are."},
	{CheckCustomerAdvice, SevNote, DefectNoCustomerMessage, rules.RuleBusiness, "",
		"A business refusal whose only message is the description",
		"Add customerMessage beside the description, so the words for the customer are kept apart from the ones for the agent."},
	{CheckRetryAfter, SevWarning, DefectNoRetryAfter, rules.RuleRateLimit, "",
		"A rate limit without retryAfterSeconds",
		"Add retryAfterSeconds (the upstream's Retry-After) so the agent waits long enough before it resends."},
	{CheckCorrelationID, SevWarning, DefectNoCorrelationID, rules.RuleUnexpectedFault, "",
		"An internal fault without a correlationId",
		"Add a correlationId and log the detail under it on the server; the message to the model stays generic."},
	{CheckSuccessSchema, SevError, DefectSchemaMismatch, rules.RuleSchemaConformance, "",
		"A success whose structuredContent breaks the tool's outputSchema",
		"Make structuredContent conform to the declared outputSchema, or change the schema to describe what the tool returns."},
	{CheckMissingStructured, SevError, DefectMissingStructured, rules.RuleSchemaConformance, "",
		"A success without the structuredContent its outputSchema requires",
		"A tool that declares an outputSchema returns conforming structuredContent on every success; drop the outputSchema if the tool returns only text."},
	{CheckErrorSchema, SevWarning, DefectSchemaMismatch, rules.RuleOutputSchema, "",
		"An error whose structuredContent breaks the tool's outputSchema",
		"Declare an outputSchema that admits the error shape (a union or an {ok, data, error} envelope), or keep the error out of structuredContent: strict clients reject a result that breaks the schema."},
	{CheckAmbiguousEmpty, SevWarning, DefectAmbiguousEmpty, rules.RuleValidEmpty, "",
		"An empty success without a count or a sentence saying the query ran",
		"Say the query ran and found nothing: resultCount: 0 in structuredContent and a sentence such as \"0 orders match ORD-9999; the query ran\"."},
	{CheckHiddenFailure, SevError, DefectHiddenFailure, rules.RuleAccessFailure, "",
		"A failure passed off as a successful result",
		"Report the failure as isError: true (transient and retryable for an unreachable source, with a text saying the query did not run), never as a success."},
	{CheckLeakStackTrace, SevError, DefectLeak, rules.RuleSafeToShow, "",
		"A stack trace or source file and line reaches the model",
		"Log the trace on the server under a correlationId; return a sanitized message that says what the agent can do."},
	{CheckLeakSystemError, SevError, DefectLeak, rules.RuleSafeToShow, "",
		"An operating system error string reaches the model",
		"Translate the system error into the lesson's terms (a missing file is a validation or not-found error naming the argument, a refused connection is transient) and log the raw error on the server."},
	{CheckLeakSQL, SevError, DefectLeak, rules.RuleSafeToShow, "",
		"SQL or a database engine's error reaches the model",
		"Never show queries or database errors: log them, and return the category and a description of what the agent can do."},
	{CheckLeakSecret, SevError, DefectLeak, rules.RuleSafeToShow, "",
		"A token, key or password reaches the model",
		"Remove the credential from the result, rotate it, and keep credentials out of every error path."},
	{CheckLeakPrivateHost, SevError, DefectLeak, rules.RuleSafeToShow, "",
		"A private host, address or port reaches the model",
		"Name the service by its role (\"the order database\"), not its address; keep hosts and ports in the server log."},
	{CheckLeakPath, SevError, DefectLeak, rules.RuleSafeToShow, "",
		"An absolute filesystem path of the server reaches the model",
		"Refer to a file by the name the caller gave, relative to the allowed folder; keep absolute paths in the server log."},
}

var checkByID = func() map[CheckID]Check {
	m := make(map[CheckID]Check, len(checkList))
	for i := range checkList {
		c := &checkList[i]
		c.Section = rules.Lookup(c.Rule).Section
		m[c.ID] = *c
	}
	return m
}()

// Checks returns every check, ordered by LESSON-RULES section, then id.
func Checks() []Check {
	out := make([]Check, 0, len(checkByID))
	for _, c := range checkByID {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Section != out[j].Section {
			return out[i].Section < out[j].Section
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// LookupCheck returns the check with this id; ok is false for an unknown id.
func LookupCheck(id CheckID) (Check, bool) {
	c, ok := checkByID[id]
	return c, ok
}
