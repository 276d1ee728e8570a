package rules

import (
	"fmt"
	"slices"
)

// Situation is what actually went wrong on a call: the truth a scenario
// teaches, whatever a badly written response made it look like. Recommend
// and Score work from it.
type Situation struct {
	Layer              Layer
	Category           Category // for LayerExecution
	Empty              bool     // for LayerSuccess: the query ran and matched nothing
	RequiresUserAction bool     // an unconfirmed destructive action (LESSON-RULES §9)
	RetriesExhausted   bool     // a transient failure that outlasted the cap (§5)
	InSubagent         bool     // the call was made by a subagent for a coordinator (§5)
	// Coordinator marks the coordinator deciding on a subagent's report:
	// nobody sits above it, so "report upward" is not a move it has.
	Coordinator bool
	// Seen is the layer of the response actually on screen, when it
	// differs from the truth (a tool failure written as a -32603 protocol
	// error). "" means the truth is what is seen.
	Seen Layer
}

// SituationOf reads the situation a well-formed response states. For a
// response in a bad style this is NOT the truth; scenarios state the truth.
func SituationOf(c Classification) Situation {
	return Situation{
		Layer:              c.Layer,
		Category:           c.ErrorCategory,
		Empty:              c.Empty,
		RequiresUserAction: c.Meta.RequiresUserAction,
	}
}

// Kind names the situation for feedback: "protocol", "empty", "success",
// "confirmation", "transient", "transient-exhausted", or a category.
func (s Situation) Kind() string {
	switch s.Layer {
	case LayerProtocol:
		return "protocol"
	case LayerSuccess:
		if s.Empty {
			return "empty"
		}
		return "success"
	}
	if s.RequiresUserAction {
		return "confirmation"
	}
	if s.Category == "" {
		return "uncategorised"
	}
	if s.Category == Transient && s.RetriesExhausted {
		return "transient-exhausted"
	}
	return string(s.Category)
}

// Recommendation is the best recovery action for a situation, the other
// actions that also follow the rules, and the rule behind the best one.
type Recommendation struct {
	Best       Action
	Acceptable []Action
	Rule       Rule
}

// Recommend applies LESSON-RULES §2, §4, §5, §8 and §9. ok is false for a
// plain success, which needs no recovery.
//
// Inside a subagent (§5) the subagent recovers locally what it can (a
// transient failure within the cap, an input it can correct) and reports
// everything else upward once: the coordinator, not the subagent, talks
// to the customer, escalates or finds another principal.
func Recommend(s Situation) (rec Recommendation, ok bool) {
	if s.InSubagent {
		switch s.Kind() {
		case "transient-exhausted", string(Business), string(Permission), "confirmation":
			return Recommendation{Best: ReportPartial, Rule: Lookup(RuleReportUpward)}, true
		case string(Validation):
			return Recommendation{Best: FixInput, Acceptable: []Action{ReportPartial}, Rule: Lookup(RuleValidation)}, true
		case "protocol":
			return Recommendation{Best: FixClient, Acceptable: []Action{ReportPartial}, Rule: Lookup(RuleProtocolLayer)}, true
		}
	}
	switch s.Kind() {
	case "protocol":
		return Recommendation{Best: FixClient, Rule: Lookup(RuleProtocolLayer)}, true
	case "empty":
		return Recommendation{Best: AcceptEmpty, Rule: Lookup(RuleValidEmpty)}, true
	case "confirmation":
		return Recommendation{Best: AskConfirmation, Rule: Lookup(RuleConfirmation)}, true
	case "transient-exhausted":
		if s.Coordinator {
			// Proceed with the partial data (explain what is missing and
			// offer a follow-up) or hand over (§5).
			return Recommendation{Best: EscalateHuman, Acceptable: []Action{ExplainAlternative}, Rule: Lookup(RuleReportUpward)}, true
		}
		return Recommendation{Best: EscalateHuman, Acceptable: []Action{ReportPartial}, Rule: Lookup(RuleReportUpward)}, true
	case string(Transient):
		return Recommendation{Best: RetrySame, Rule: Lookup(RuleTransient)}, true
	case string(Validation):
		return Recommendation{Best: FixInput, Rule: Lookup(RuleValidation)}, true
	case string(Business):
		return Recommendation{Best: ExplainAlternative, Acceptable: []Action{EscalateHuman}, Rule: Lookup(RuleBusiness)}, true
	case string(Permission):
		return Recommendation{Best: EscalateHuman, Acceptable: []Action{RequestCredentials}, Rule: Lookup(RulePermission)}, true
	}
	return Recommendation{}, false
}

// Grade is how a chosen action measures against the rules.
type Grade string

const (
	GradeBest       Grade = "best"
	GradeAcceptable Grade = "acceptable"
	GradeWrong      Grade = "wrong"
)

// Correct reports whether the grade counts as a right answer.
func (g Grade) Correct() bool { return g == GradeBest || g == GradeAcceptable }

// Verdict is the score of one choice: the grade, the rule it follows or
// breaks, and a sentence that says why in terms of that rule.
type Verdict struct {
	Action Action
	Grade  Grade
	Best   Action
	Rule   Rule
	Why    string
}

// Score grades a learner's (or an agent's) recovery action for a situation.
func Score(s Situation, a Action) Verdict {
	rec, ok := Recommend(s)
	v := Verdict{Action: a, Best: rec.Best}
	if !ok && s.Kind() == "uncategorised" {
		v.Grade, v.Rule = GradeWrong, Lookup(RuleGenericMessage)
		v.Why = "The result says the call failed but not how: no errorCategory, no isRetryable. No recovery can be justified from it; the fix belongs in the tool."
		return v
	}
	if !ok {
		v.Grade, v.Rule = GradeWrong, Lookup(RuleValidEmpty)
		v.Why = "The call succeeded with data; there is nothing to recover from."
		return v
	}
	switch {
	case a == FixClient && s.Seen == LayerProtocol && s.Layer == LayerExecution:
		// What is on screen is a protocol error for a tool that ran: its
		// server put the failure on the wrong layer, and fixing that
		// server is a sound reading of what is shown (§1).
		v.Grade, v.Rule = GradeAcceptable, Lookup(RuleGoError)
		v.Why = fmt.Sprintf("On the wire this is a protocol error, so the agent can do nothing with it, and the fix is in the server: the tool ran and failed, and should say so with isError: true. What really happened calls for %s: %s.", rec.Best.Title(), rec.Best.Description())
	case a == rec.Best:
		v.Grade, v.Rule = GradeBest, rec.Rule
		v.Why = whyBest(s, a)
	case slices.Contains(rec.Acceptable, a):
		v.Grade, v.Rule = GradeAcceptable, rec.Rule
		v.Why = whyAcceptable(s, a, rec.Best)
	default:
		v.Grade = GradeWrong
		v.Rule, v.Why = whyWrong(s, a, rec)
	}
	return v
}

func whyBest(s Situation, a Action) string {
	switch a {
	case FixClient:
		return "No tool ran, so there is no result for the model to reason about; the request, the tool name or the server code has to change."
	case AcceptEmpty:
		return "The query ran and matched nothing. That is an answer: tell the customer there is no match and move on."
	case AskConfirmation:
		return "The tool refused a destructive action the customer has not confirmed. Ask them, then call again with their confirmation."
	case ReportPartial:
		if s.Category == Transient {
			return "The retry cap is spent. One report with what was obtained, the unresolved error and what was attempted lets the coordinator decide well."
		}
		return "The subagent cannot fix this itself. One report with what it obtained, the unresolved error with its category and what it attempted lets the coordinator choose the next path."
	case EscalateHuman:
		if s.Category == Transient {
			return "The retries are spent and the service is still down: hand over with what was tried rather than loop."
		}
		return "Resending as the same principal can never work; a person with the right access can finish the task."
	case RetrySame:
		return "The request was valid and the failure was temporary, so the same call can succeed after a short, capped wait."
	case FixInput:
		return "The input was wrong. Resending it fails every time; a corrected call can succeed, so fix the argument (or ask the customer) and call again."
	case ExplainAlternative:
		return "A rule said no and will say no every time. Explain it in words the customer accepts and offer another path."
	}
	return ""
}

func whyAcceptable(s Situation, a, best Action) string {
	return fmt.Sprintf("This follows the rules, though %s fits the situation better: %s.", best.Title(), best.Description())
}

// whyWrong names the rule a wrong action breaks.
func whyWrong(s Situation, a Action, rec Recommendation) (Rule, string) {
	kind := s.Kind()
	if s.InSubagent && rec.Best == ReportPartial {
		switch a {
		case ExplainAlternative, EscalateHuman, RequestCredentials, AskConfirmation:
			return Lookup(RuleReportUpward), "A subagent works for its coordinator, not the customer: it reports the unresolved error with its partial results and lets the coordinator explain, escalate or change principal."
		}
	}
	switch a {
	case RetrySame:
		switch kind {
		case "protocol":
			return Lookup(RuleProtocolLayer), "A protocol error means the call never reached a tool; resending the same malformed request gets the same JSON-RPC error."
		case "empty":
			return Lookup(RuleValidEmpty), "The query already ran and found nothing; resending it returns the same empty answer and wastes calls."
		case "transient-exhausted":
			return Lookup(RuleRecoverLocally), "The retry cap is spent; more resends turn a bounded wait into a loop."
		}
		return Lookup(RuleRetryableMeaning), fmt.Sprintf("isRetryable is false for a %s failure: the identical call fails the same way every time.", displayKind(s))
	case FixInput:
		switch kind {
		case "transient", "transient-exhausted":
			return Lookup(RuleTransient), "Nothing was wrong with the input; the service was briefly unavailable. Changing the arguments would not help."
		case "business":
			return Lookup(RuleBusiness), "The input was valid; a policy refused it. Rewording the request to slip past the rule is not a recovery."
		case "permission":
			return Lookup(RulePermission), "The arguments were fine; the caller lacks access. No change of input fixes a missing permission."
		case "protocol":
			return Lookup(RuleProtocolLayer), "The agent's loop never got a tool result to correct from; the fix is in the client or server."
		case "empty":
			return Lookup(RuleValidEmpty), "The query was valid and ran. Inventing a different input to force a hit turns \"no match\" into a guess."
		}
		return rec.Rule, "The input was not the problem here."
	case ExplainAlternative:
		switch kind {
		case "transient":
			return Lookup(RuleTransient), "Giving up on a temporary failure abandons a call that would likely work after a short wait."
		case "validation":
			return Lookup(RuleValidation), "Nothing forbids the request; the input was malformed. The agent can correct it without troubling the customer with a refusal."
		case "empty":
			return Lookup(RuleValidEmpty), "There is no refusal to explain: the query ran and found no match."
		case "protocol":
			return Lookup(RuleProtocolLayer), "The model never received a refusal; the request was broken before any tool ran."
		case "permission":
			return Lookup(RulePermission), "No rule refused the request: the caller lacks access, and the task is still undone. Hand it to a person who has the access instead of stopping at the refusal."
		}
		return rec.Rule, "There is no policy refusal to explain here."
	case EscalateHuman:
		switch kind {
		case "transient":
			return Lookup(RuleRecoverLocally), "A temporary failure should be retried locally first; escalating at once spends a person's time on what a short wait fixes."
		case "validation":
			return Lookup(RuleValidation), "The agent can fix a malformed input itself; a human adds nothing but delay."
		case "empty":
			return Lookup(RuleValidEmpty), "Nothing failed: \"no match\" is an answer, not a case for a person."
		case "protocol":
			return Lookup(RuleProtocolLayer), "A malformed request is a bug in the client or server; a support person cannot fix it."
		case "confirmation":
			return Lookup(RuleConfirmation), "Only the customer can confirm their own refund; ask them first."
		}
		return rec.Rule, "Escalation does not fit this situation."
	case RequestCredentials:
		if kind == "protocol" {
			return Lookup(RuleProtocolLayer), "Credentials do not repair a malformed request."
		}
		return Lookup(RulePermission), fmt.Sprintf("Access was never the problem in a %s situation; a different principal gets the same answer.", displayKind(s))
	case AcceptEmpty:
		switch kind {
		case "transient", "transient-exhausted":
			return Lookup(RuleAccessFailure), "The source was never reached, so nobody knows whether a match exists. Calling it \"no match\" gives the customer a confident wrong answer."
		case "protocol":
			return Lookup(RuleProtocolLayer), "No query ran at all; there is no result, empty or otherwise."
		}
		return Lookup(RuleValidEmpty), "An error is not an empty result; treating it as \"nothing found\" hides the failure."
	case AskConfirmation:
		return Lookup(RuleConfirmation), fmt.Sprintf("Nothing is waiting on the customer's consent in a %s situation.", displayKind(s))
	case FixClient:
		if s.Seen == LayerSuccess {
			return Lookup(RuleExecutionLayer), "The response is an ordinary result, not a JSON-RPC error; the request reached the tool, so nothing in the client needs fixing."
		}
		return Lookup(RuleExecutionLayer), "The tool ran and answered with a result; this is a tool execution outcome the agent handles, not a broken request."
	case ReportPartial:
		if s.Coordinator {
			return Lookup(RuleReportUpward), "The coordinator is the top of the chain: there is nobody to report upward to. It decides: proceed with the partial data, ask the customer, or hand over to a person."
		}
		switch kind {
		case "transient":
			return Lookup(RuleRecoverLocally), "Sending every transient blip upward makes the coordinator do the subagent's job; retry locally first."
		case "validation":
			return Lookup(RuleRecoverLocally), "The subagent can fix the input itself; propagate only what it cannot resolve."
		case "empty":
			return Lookup(RuleValidEmpty), "Nothing failed, so there is nothing to report as unresolved."
		}
		return rec.Rule, "A partial-results report is for failures that outlast local recovery."
	}
	return rec.Rule, "That is not one of the recovery actions."
}

func displayKind(s Situation) string {
	switch s.Kind() {
	case "confirmation":
		return "confirmation-required"
	case "transient-exhausted":
		return "transient (cap reached)"
	case "empty":
		return "valid empty"
	}
	return s.Kind()
}
