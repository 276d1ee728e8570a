package rules

import (
	"fmt"
	"math"
	"strconv"
)

// Move is what a client did after a tool result a server gave it, as the
// server sees it: the next tools/call the same client sent once the
// result was out, or none at all. A server cannot read what the client
// told its user, so a move is read as the recovery action of LESSON-RULES
// §8 it amounts to (ActionOfMove), and that action is scored like a
// learner's choice (ScoreObserved).
type Move string

const (
	// MoveResend: the identical call again (same tool, same arguments).
	MoveResend Move = "resend"
	// MoveConfirm: the same call again with confirmedByUser now true,
	// after a refusal that needed the user's yes.
	MoveConfirm Move = "confirm"
	// MoveChangeArgs: the same tool with other arguments.
	MoveChangeArgs Move = "change_arguments"
	// MoveOtherTool: another tool, not the escalation tool.
	MoveOtherTool Move = "other_tool"
	// MoveEscalate: the escalation tool (escalate_to_human).
	MoveEscalate Move = "escalate"
	// MoveRebuild: the same body sent again after a protocol error the
	// transport gave for the request's headers (a 2026-07-28 header
	// mismatch, -32020), with the headers now changed: the client rebuilt
	// the request, which is the fix_client move, not a resend.
	MoveRebuild Move = "rebuild"
	// MoveStop: no further tool call before the client's session ended.
	MoveStop Move = "stop"
)

// ThinkSeconds is how long a client may take to decide its next move
// after a result (a model reading it, a person answering) before a server
// that stops may count the silence as a decision to stop. See MoveWindow.
const ThinkSeconds = 30

// MoveWindow is how many seconds after a result a client's next move may
// still come: the wait the rules ask for before a resend of a transient
// failure within the cap (the backoff of LESSON-RULES §2, or the
// retryAfterSeconds of §9), plus ThinkSeconds. When a server stops sooner
// than that after a result with no move yet, the move was cut off by the
// server: it is pending, not a stop (a client cannot be blamed for a move
// the server never let it make).
func MoveWindow(s Situation, resend int, retryAfterSeconds float64) float64 {
	w := 0.0
	if s.Kind() == string(Transient) {
		w = BackoffSeconds(max(resend, 1), retryAfterSeconds)
	}
	return w + ThinkSeconds
}

// Observed is one client move and what the server measured around it.
type Observed struct {
	Move Move
	// Tool is the tool of the next call, for MoveOtherTool.
	Tool string
	// WaitSeconds is the time from the result to the next call.
	WaitSeconds float64
	// Resend numbers a MoveResend: 1 for the first resend of the call, 2
	// for the second...
	Resend int
	// RetryAfterSeconds is the wait the failed result asked for (0: none).
	RetryAfterSeconds float64
	// RefusedAgain, for a resend after a result with retryAfterSeconds,
	// says whether the server refused the resend again for the same limit
	// (nil: not known). The server's own decision is the one comparison
	// of the wait against retryAfterSeconds: the grade follows it.
	RefusedAgain *bool
}

// waitTolerance is how much shorter than the backoff a real client's wait
// may be and still count as waiting (timers and networks are not exact).
const waitTolerance = 0.9

// ActionOfMove reads a move as the recovery action it amounts to in a
// situation (LESSON-RULES §8), with a sentence saying how it was read. A
// resend is retry_same, new arguments fix_input (fix_client after a
// protocol error: the request was rebuilt), the escalation tool
// escalate_human. Another tool and no further call depend on the
// situation: after a refusal they are the other path or the explanation
// (explain_alternative), after an empty result the acceptance
// (accept_empty), after a transient failure giving up.
func ActionOfMove(s Situation, o Observed) (Action, string) {
	kind := s.Kind()
	switch o.Move {
	case MoveResend:
		return RetrySame, fmt.Sprintf("resent the same call after %s", seconds(o.WaitSeconds))
	case MoveRebuild:
		return FixClient, "sent the same body again with the request's headers corrected: the request was rebuilt"
	case MoveConfirm:
		return AskConfirmation, "called again with confirmedByUser: true, the customer's yes"
	case MoveEscalate:
		return EscalateHuman, "called escalate_to_human"
	case MoveChangeArgs:
		if kind == "protocol" {
			return FixClient, "rebuilt the request: the same tool with other arguments"
		}
		return FixInput, "called the same tool with other arguments"
	case MoveOtherTool:
		what := "called another tool"
		if o.Tool != "" {
			what = "called another tool, " + o.Tool
		}
		switch kind {
		case "protocol":
			return FixClient, what + ": the request was rebuilt"
		case "empty":
			return AcceptEmpty, what + ", taking the empty result as the answer"
		case string(Validation):
			return FixInput, what + " to get the input another way"
		case string(Permission):
			return FixInput, what + " to reach the same record another way"
		case "transient-exhausted":
			return ReportPartial, what + ", going on without the missing answer"
		case string(Business):
			// Read as moving on; ScoreObserved holds it below best: the
			// server cannot see an explanation, only another call.
			return ExplainAlternative, what + ", moving on without the refused call"
		}
		return ExplainAlternative, what + ", leaving this call behind"
	}
	// MoveStop: the server cannot see what was said to the user.
	stop := "made no further call"
	switch kind {
	case "protocol":
		return FixClient, stop + ": nothing in the agent's loop can repair a broken request"
	case "empty":
		return AcceptEmpty, stop + ", taking the empty result as the answer"
	case "confirmation":
		return AskConfirmation, stop + ", read as asking the customer to confirm (no confirmed call followed)"
	case "transient-exhausted":
		return ReportPartial, stop + " after the last resend, read as reporting what was tried"
	case string(Validation):
		return FixInput, stop + ", read as asking the customer for the right value (no corrected call followed)"
	case string(Business):
		return ExplainAlternative, stop + ", read as explaining the refusal to the customer"
	}
	return ExplainAlternative, stop + ", read as giving up"
}

// ObservedVerdict is the score of a client's move.
type ObservedVerdict struct {
	Verdict
	// Reading says how the move was read as an action.
	Reading string
	// Wasted marks a call that could not work (LESSON-RULES §2, §4, §9): a
	// resend of a failure that is not transient, of an empty result or of
	// a protocol error, a resend past the retry cap, or one sent before
	// the retryAfterSeconds the server asked for.
	Wasted bool
	// WaitOK, for a resend of a transient failure within the cap, says
	// whether the client waited as long as the backoff (1 s, 2 s, 4 s) or
	// the server's retryAfterSeconds asked; nil otherwise.
	WaitOK *bool
	// WantedWait is the wait the rules asked for before that resend.
	WantedWait float64
}

// ScoreObserved grades a client's observed move in a situation: the
// action the move amounts to is scored by Score, and a resend of a
// transient failure is also held to the backoff of LESSON-RULES §2 and
// the retryAfterSeconds of §9. A resend sooner than the backoff is
// acceptable, not best; one sooner than the server's retryAfterSeconds
// is wrong and wasted (the server refuses it again).
func ScoreObserved(s Situation, o Observed) ObservedVerdict {
	action, reading := ActionOfMove(s, o)
	ov := ObservedVerdict{Verdict: Score(s, action), Reading: reading}
	if o.Move == MoveOtherTool && s.Kind() == string(Business) && ov.Grade == GradeBest {
		// An unrelated call after a refusal is no explanation the server
		// can see: it may be the next task, or a way around the rule. The
		// refusal's own paths are telling the customer (no further call)
		// and the escalation it names.
		ov.Grade = GradeAcceptable
		ov.Why = "Moving on does not resend the refused call, which is right, but another tool is not an explanation: tell the customer the rule (customerMessage) and offer the path the refusal names, escalate_to_human for a goodwill or approval request."
	}
	if o.Move != MoveResend {
		return ov
	}
	kind := s.Kind()
	if kind != string(Transient) {
		ov.Wasted = true
		return ov
	}
	ov.WantedWait = BackoffSeconds(max(o.Resend, 1), o.RetryAfterSeconds)
	var waited bool
	if o.RetryAfterSeconds > 0 {
		// No tolerance here: the server refuses anything sooner, and when
		// it is known whether it did, that decision is the grade's.
		waited = o.WaitSeconds >= ov.WantedWait
		if o.RefusedAgain != nil {
			waited = !*o.RefusedAgain
		}
	} else {
		waited = o.WaitSeconds >= ov.WantedWait*waitTolerance
	}
	ov.WaitOK = &waited
	switch {
	case waited:
	case o.RetryAfterSeconds > 0:
		ov.Wasted = true
		ov.Grade, ov.Rule = GradeWrong, Lookup(RuleRateLimit)
		ov.Why = fmt.Sprintf("Resending was the right move, but after %s: the server asked for %s (retryAfterSeconds) and refused this resend again, so it was wasted.",
			seconds(o.WaitSeconds), seconds(o.RetryAfterSeconds))
	default:
		ov.Grade, ov.Rule = GradeAcceptable, Lookup(RuleTransient)
		ov.Why = fmt.Sprintf("Resending was the right move, but after %s where the backoff waits %s before resend %d (1 s, 2 s, then 4 s): a struggling service needs the room.",
			seconds(o.WaitSeconds), seconds(ov.WantedWait), max(o.Resend, 1))
	}
	return ov
}

// seconds renders a duration in seconds for a sentence: "0.3 s", "2 s".
func seconds(s float64) string {
	// Cut, not rounded, to hundredths: a wait of 4.999 s before a
	// retryAfterSeconds of 5 reads "4.99 s", never "5 s".
	return strconv.FormatFloat(math.Floor(s*100)/100, 'f', -1, 64) + " s"
}
