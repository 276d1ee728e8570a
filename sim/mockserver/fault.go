package mockserver

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/errorlab/errorlab/sim/rules"
)

// FaultKind is a failure the mock server injects into a tool call, on top
// of what the call's data would produce by itself. Failures that come from
// the request (an unknown tool, arguments that break the inputSchema,
// malformed JSON, an unknown method) are not faults: the request carries
// them.
type FaultKind string

const (
	FaultNone FaultKind = "none"
	// FaultTimeout: the upstream store timed out (transient).
	FaultTimeout FaultKind = "timeout"
	// FaultRateLimit: the upstream refused for load, with retryAfterSeconds.
	FaultRateLimit FaultKind = "rate_limit"
	// FaultAccessFailure: the data source could not be reached; the query
	// did not run, so nobody knows whether a match exists (LESSON-RULES §4).
	FaultAccessFailure FaultKind = "access_failure"
	// FaultValidation, FaultBusiness, FaultPermission force that category
	// whatever the data says (customer_lookup's failure_mode does the same).
	FaultValidation FaultKind = "validation"
	FaultBusiness   FaultKind = "business"
	FaultPermission FaultKind = "permission"
	// FaultEmpty forces a valid empty result.
	FaultEmpty FaultKind = "empty"
	// FaultInternal: an unexpected fault, sanitized with a correlationId (§6).
	FaultInternal FaultKind = "internal"
	// FaultGoError: the handler returns a Go error. In the good style the
	// server writes a sanitized isError result instead; in every other style
	// mcp-go sends -32603, the anti-pattern of LESSON-RULES §1.
	FaultGoError FaultKind = "go_error"
	// FaultPanic: the handler panics. In the good style the server's
	// recovery turns it into a sanitized internal-error result with a
	// correlationId; in a bad style it is left to mcp-go's WithRecovery,
	// which answers -32603 carrying the panic text.
	FaultPanic FaultKind = "panic"
)

// FaultKinds lists every fault.
var FaultKinds = []FaultKind{FaultNone, FaultTimeout, FaultRateLimit, FaultAccessFailure, FaultValidation, FaultBusiness, FaultPermission, FaultEmpty, FaultInternal, FaultGoError, FaultPanic}

// ParseFaultKind accepts a fault id; the error lists the valid ones.
func ParseFaultKind(s string) (FaultKind, error) {
	for _, k := range FaultKinds {
		if string(k) == s {
			return k, nil
		}
	}
	names := make([]string, len(FaultKinds))
	for i, k := range FaultKinds {
		names[i] = string(k)
	}
	return "", fmt.Errorf("unknown fault %q: use one of %s", s, strings.Join(names, ", "))
}

// Fault is the failure injected into calls of one tool.
type Fault struct {
	Kind FaultKind `json:"kind" yaml:"kind"`
	// SucceedOnAttempt, when > 0, lets the call through from that attempt on
	// (counting the first call as attempt 1): a timeout that works on the
	// second try has SucceedOnAttempt 2.
	SucceedOnAttempt int `json:"succeedOnAttempt,omitempty" yaml:"succeedOnAttempt,omitempty"`
	// RetryAfterSeconds is the wait a rate limit asks for (default 5).
	RetryAfterSeconds int `json:"retryAfterSeconds,omitempty" yaml:"retryAfterSeconds,omitempty"`
}

// active reports whether the fault fires on this attempt.
func (f Fault) active(attempt int) bool {
	if f.Kind == "" || f.Kind == FaultNone {
		return false
	}
	return f.SucceedOnAttempt <= 0 || attempt < f.SucceedOnAttempt
}

// correlationID is deterministic so transcripts are the same on every run.
func correlationID(tool string, attempt int) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s#%d", tool, attempt)
	return fmt.Sprintf("corr-%08x", h.Sum32())
}

// table and scope name what each tool touches, for the raw exceptions
// only the raw_exception style shows.
var table = map[string]string{
	"get_customer": "customers", "customer_lookup": "customers", "lookup_order": "orders",
	"process_refund": "refunds", "escalate_to_human": "escalations", "search_support_tickets": "tickets",
}

var scope = map[string]string{
	"get_customer": StaffRecordsScope, "customer_lookup": "crm:customers:search", "lookup_order": "orders:read",
	"process_refund": "payments:refund:write", "escalate_to_human": "queues:write", "search_support_tickets": "tickets:read",
}

// primaryArg is the argument an injected validation error blames.
var primaryArg = map[string]string{
	"get_customer": "customer_id", "customer_lookup": "identifier", "lookup_order": "order_id",
	"process_refund": "amount", "escalate_to_human": "summary", "search_support_tickets": "query",
}

// store names the back-end each tool reads, for messages.
var store = map[string]string{
	"get_customer":           "customer database",
	"customer_lookup":        "customer database",
	"lookup_order":           "order database",
	"process_refund":         "payments service",
	"escalate_to_human":      "escalation queue",
	"search_support_tickets": "ticket index",
}

// injected builds the failure an injected fault produces on a tool.
// emptyShape is the tool's empty success payload, for the empty_success
// style and FaultEmpty.
//
// key, when given, is the call's arguments as JSON: it makes the
// correlationId of one failure differ from another's on the same tool.
func injected(tool string, f Fault, attempt int, emptyShape any, key ...string) failure {
	src := store[tool]
	corr := correlationID(tool+strings.Join(key, ""), attempt)
	switch f.Kind {
	case FaultTimeout:
		return failure{
			payload: ErrorPayload{
				ErrorCategory: rules.Transient,
				Description:   fmt.Sprintf("The %s did not answer within 3 seconds, so %s did not complete. The request itself is valid: send the same call again after a short wait.", src, tool),
				Code:          "UPSTREAM_TIMEOUT",
				CorrelationID: corr,
			},
			errorText:      fmt.Sprintf("ERROR: %s timed out", src),
			exception:      pyTimeout(tool, src, table[tool]),
			queryDidNotRun: true,
			emptyShape:     emptyShape,
		}
	case FaultRateLimit:
		wait := f.RetryAfterSeconds
		if wait <= 0 {
			wait = 5
		}
		return failure{
			payload: ErrorPayload{
				ErrorCategory:     rules.Transient,
				Description:       fmt.Sprintf("The %s is limiting request rates and refused this call. Nothing is wrong with the request: wait %d seconds, then send it again unchanged.", src, wait),
				Code:              "RATE_LIMITED",
				RetryAfterSeconds: wait,
			},
			errorText:      "ERROR: 429 Too Many Requests",
			exception:      fmt.Sprintf("HTTPError: 429 Client Error: Too Many Requests for url: https://%s.svc.internal:8443/v2/query?api_key=sk_live_51Hx9Q2", strings.ReplaceAll(src, " ", "-")),
			queryDidNotRun: true,
			emptyShape:     emptyShape,
		}
	case FaultAccessFailure:
		return failure{
			payload: ErrorPayload{
				ErrorCategory: rules.Transient,
				Description:   accessFailureText(tool, src),
				Code:          "SOURCE_UNREACHABLE",
				CorrelationID: corr,
			},
			errorText:      fmt.Sprintf("ERROR: could not connect to %s", src),
			exception:      pyConnRefused(src),
			queryDidNotRun: true,
			emptyShape:     emptyShape,
		}
	case FaultInternal, FaultGoError, FaultPanic:
		return internalFault(tool, corr)
	case FaultValidation:
		arg := primaryArg[tool]
		return failure{
			payload: ErrorPayload{
				ErrorCategory: rules.Validation,
				Description:   fmt.Sprintf("(failure_mode validation: %s of %s is treated as malformed, for practice.) The %s rejected it. Correct it to the form shown in exampleArguments (ask the customer if it cannot be worked out) and send a new call; resending this one fails the same way.", arg, tool, src),
				Code:          "INVALID_ARGUMENT",
				FieldErrors:   []FieldError{{Field: arg, Expected: "the form shown in exampleArguments"}},
				// ExampleArguments is filled in by the handler, which knows the tool.
			},
			errorText: "ERROR: invalid argument",
			exception: fmt.Sprintf("ValueError: invalid literal for %s() argument", tool),
		}
	case FaultBusiness:
		if readOnlyTools[tool] {
			// A lookup or a search changes nothing: its refusal speaks of
			// looking, not of acting.
			return failure{
				payload: ErrorPayload{
					ErrorCategory:   rules.Business,
					Description:     fmt.Sprintf("This account is closed and its records are held for legal retention only; support tools may not read them, so %s returned nothing. Do not call again: explain to the customer and offer to pass the question to the accounts team.", tool),
					Code:            "ACCOUNT_RETAINED",
					CustomerMessage: "This account was closed, so I can't look up its records myself. I can pass your question to our accounts team, who can help with closed accounts.",
				},
				errorText: "ERROR: account closed",
				exception: "AccountStateError: account state RETAINED not in ('ACTIVE','SUSPENDED') (policy_engine/rules.py:212)",
			}
		}
		return failure{
			payload: ErrorPayload{
				ErrorCategory:   rules.Business,
				Description:     "This account is closed and its record is held for legal retention only; support tools may not act on it. Do not call again: explain to the customer and offer to pass the case to the accounts team.",
				Code:            "ACCOUNT_RETAINED",
				CustomerMessage: "This account was closed, so I can't look into it or act on it myself. I can pass your request to our accounts team, who can help with closed accounts.",
			},
			errorText: "ERROR: account closed",
			exception: "AccountStateError: account state RETAINED not in ('ACTIVE','SUSPENDED') (policy_engine/rules.py:212)",
		}
	case FaultPermission:
		return failure{
			payload: ErrorPayload{
				ErrorCategory: rules.Permission,
				Description:   fmt.Sprintf("The %s role may not use %s on this record. Calling again with the same credentials will fail the same way: escalate to a team lead who holds the access.", AgentRole, tool),
				Code:          "FORBIDDEN",
			},
			errorText: "ERROR: Permission denied",
			exception: fmt.Sprintf("PermissionError: [Errno 13] role=%s lacks scope %s (token=eyJhbGciOiJIUzI1NiJ9.c3VwcG9ydA)", AgentRole, scope[tool]),
		}
	}
	return internalFault(tool, corr)
}

// internalFault is an unexpected fault, sanitized (LESSON-RULES §6, §9):
// a generic message and a correlationId; the detail stays in the log.
func internalFault(tool, corr string) failure {
	return failure{
		payload: ErrorPayload{
			ErrorCategory: rules.Transient,
			Description:   internalFaultText(tool, corr),
			Code:          "INTERNAL_ERROR",
			CorrelationID: corr,
		},
		errorText: "ERROR: internal error",
		exception: pyKeyError(tool),
	}
}

// resendThenReport is the backoff of LESSON-RULES §2 and §5, as a failure's
// description says it: the original call plus at most 3 resends.
const resendThenReport = "Send the same call again after 1, 2 and 4 seconds (at most 3 resends); if it still fails, stop resending"

// accessFailureText is the description of a source that could not be
// reached. After the resends the agent hands the case to a person with
// escalate_to_human, unless the tool that failed is escalate_to_human
// itself: then it reports that the hand-over did not happen.
func accessFailureText(tool, src string) string {
	if tool == EscalationTool {
		return fmt.Sprintf("Could not connect to the %s, so the case was not queued and no person has it. %s and report that the hand-over failed, saying what was tried, and tell the customer their case has not reached a person yet.", src, resendThenReport)
	}
	return fmt.Sprintf("Could not connect to the %s, so the query did not run: there is no answer yet, empty or otherwise. Send the same call again after 1, 2 and 4 seconds (at most 3 resends); if it still fails, hand the case to a person with escalate_to_human, saying what was tried, and tell the customer the records could not be checked right now.", src)
}

// internalFaultText is the description of an unexpected fault; as
// accessFailureText, it never sends the agent back to escalate_to_human
// when that is the tool that failed.
func internalFaultText(tool, corr string) string {
	if tool == EscalationTool {
		return fmt.Sprintf("An unexpected fault stopped %s before it finished; nothing was changed, so the case is in no queue yet. %s and report that the hand-over failed, quoting correlationId %s for the platform team, and tell the customer their case has not reached a person yet.", tool, resendThenReport, corr)
	}
	return fmt.Sprintf("An unexpected fault stopped %s before it finished; nothing was changed. %s and hand the case to a person with escalate_to_human, quoting correlationId %s for the platform team.", tool, resendThenReport, corr)
}

// The raw exceptions below are what an unguarded handler would have
// leaked: file paths, SQL, private hosts and a key. They exist to be
// spotted (LESSON-RULES §6); only the raw_exception style sends them.

func pyTimeout(tool, src, tbl string) string {
	return "Traceback (most recent call last):\n" +
		"  File \"/srv/support-tools/handlers.py\", line 88, in " + tool + "\n" +
		"    row = db.execute(\"SELECT * FROM " + tbl + " WHERE id = %s\", args)\n" +
		"  File \"/srv/support-tools/db.py\", line 41, in execute\n" +
		"    return self.pool.run(sql, params, timeout=3)\n" +
		"psycopg.errors.QueryCanceled: canceling statement due to statement timeout\n" +
		"  (" + strings.ReplaceAll(src, " ", "-") + "-2.prod.internal:5432, 10.4.2.17)"
}

func pyConnRefused(src string) string {
	host := strings.ReplaceAll(src, " ", "-") + "-primary.prod.internal"
	return "Traceback (most recent call last):\n" +
		"  File \"/srv/support-tools/db.py\", line 19, in connect\n" +
		"    conn = psycopg.connect(\"postgresql://svc_support:Winter2026!@" + host + ":5432/crm\")\n" +
		"psycopg.OperationalError: connection to server at \"" + host + "\" (10.4.7.33), port 5432 failed: Connection refused"
}

func pyKeyError(tool string) string {
	return "Traceback (most recent call last):\n" +
		"  File \"/srv/support-tools/handlers.py\", line 132, in " + tool + "\n" +
		"    total = payload[\"order\"][\"total\"]\n" +
		"KeyError: 'order'"
}

// readOnlyTools are the tools that only read (toolSpec.readOnly), filled
// in by init: injected cannot consult tools directly, whose handlers call
// injected (an initialization cycle).
var readOnlyTools = map[string]bool{}

func init() {
	for _, t := range tools {
		readOnlyTools[t.name] = t.readOnly
	}
}
