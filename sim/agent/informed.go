package agent

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// informed plays the task the way LESSON-RULES says: every branch is
// rules.Recommend applied to what the response states.
func (r *runner) informed() error {
	call := r.task.Call
	retries := 0
	var waited []float64 // the waits before each resend, in seconds
	corrected := false
	confirmed := false
	for len(r.run.Steps) < maxSteps {
		ex, cl, err := r.call(StepCall, call)
		if err != nil {
			return err
		}
		sit := rules.SituationOf(cl)
		sit.RetriesExhausted = sit.Category == rules.Transient && retries >= rules.MaxRetries
		rec, needsRecovery := rules.Recommend(sit)
		if !needsRecovery {
			lead := "Here is what I found: "
			if call.Tool != "" && !mockserver.ReadOnly(call.Tool) {
				lead = "Done: "
			}
			why := "The call succeeded; the agent answered from the result."
			switch {
			case confirmed:
				why = "The tool refused until the customer said yes (requiresUserAction); the agent asked, got the yes, and called again with confirmedByUser: true (§9)."
			case corrected:
				why = fmt.Sprintf("The input was malformed (validation, isRetryable false); the agent corrected it and made a new call instead of resending (§2). The new call: %s.", describe(call))
			case retries > 0:
				why = fmt.Sprintf("The failure was transient (isRetryable true); the agent resent the same call after waiting %s and it worked (§2).", secondsList(waited))
			}
			r.finish(lead+summary(ex), Resolved, why)
			return nil
		}
		switch rec.Best {
		case rules.FixClient:
			r.say("developers", fmt.Sprintf("Client bug: the server answered %s with JSON-RPC error %d. No tool ran, so there is nothing for the agent to recover; the request needs fixing.", describe(call), cl.ProtocolCode))
			r.finish("Sorry, I hit a technical fault on our side and couldn't complete that. I've reported it so it can be fixed; can I help with anything else meanwhile?",
				Escalated, "A protocol error is a broken request, not a tool result: the agent stopped at once and reported a client bug instead of looping (§1).")
			return nil

		case rules.AcceptEmpty:
			msg := r.task.CustomerMessage
			if msg == "" {
				msg = summary(ex)
			}
			r.finish(msg, Resolved, "The query ran and matched nothing; the agent accepted the empty result and did not retry (§4).")
			return nil

		case rules.RetrySame:
			retries++
			wait := rules.BackoffSeconds(retries, retryAfter(cl))
			waited = append(waited, wait)
			why := fmt.Sprintf("transient, isRetryable true: resend %d of %d after %gs", retries, rules.MaxRetries, wait)
			if ra := retryAfter(cl); ra > 0 {
				why += fmt.Sprintf(" (the server asked for %gs)", ra)
			}
			r.wait(wait, why)
			continue

		case rules.FixInput:
			if r.task.Correction != nil && !corrected {
				corrected = true
				next := wire.Call{Tool: call.Tool, Arguments: maps.Clone(r.task.Correction)}
				r.say("self", fmt.Sprintf("validation, isRetryable false: not resending %s; correcting the input to %s and making a new call.", describe(call), describe(next)))
				call = next
				continue
			}
			ask := r.task.CustomerMessage
			if ask == "" {
				ask = askForInput(ex)
			}
			r.finish(ask, Resolved, "The input was wrong and could not be worked out, so the agent asked the customer instead of resending (§2 validation).")
			return nil

		case rules.AskConfirmation:
			if confirmed {
				r.finish("I couldn't complete that even with your confirmation; I'll pass it to a colleague.", Wasted, "The tool still refused after confirmation.")
				return nil
			}
			confirmed = true
			msg := cl.Meta.CustomerMessage
			if msg == "" {
				msg = r.task.CustomerMessage
			}
			r.say("customer", msg)
			r.add(Step{Kind: StepMessage, To: "agent", Text: "Customer: Yes, please go ahead."})
			next := wire.Call{Tool: call.Tool, Arguments: maps.Clone(call.Arguments)}
			next.Arguments["confirmedByUser"] = true
			call = next
			continue

		case rules.ExplainAlternative:
			msg := cl.Meta.CustomerMessage
			if msg == "" {
				msg = r.task.CustomerMessage
			}
			if msg == "" {
				msg = "I can't do that automatically because of our policy, but I can pass it to a colleague who can review it."
			}
			r.finish(msg, Resolved, fmt.Sprintf("A %s refusal is final for this call: the agent did not resend, explained the rule in the tool's customerMessage and offered another path (§2 business).", cl.ErrorCategory))
			return nil

		case rules.EscalateHuman, rules.ReportPartial:
			reason := "permission"
			summaryText := fmt.Sprintf("The customer's request needs %s, which our support role may not run (%s: %s). Please pick it up with the right access.", describe(call), cl.Meta.Code, rules.FirstSentence(cl.Meta.Description))
			final := "That record needs a colleague with extra access, so I've passed your request to a team lead; they'll pick it up shortly."
			why := "A permission error cannot be fixed by resending as the same principal: the agent escalated with the case details (§2 permission)."
			if sit.Category == rules.Transient {
				reason = "outage"
				summaryText = fmt.Sprintf("%s failed %d times (transient: %s); resent after waiting %s. Customer is waiting.", describe(call), retries+1, cl.Meta.Code, secondsList(waited))
				final = "Our systems aren't answering right now, so I couldn't check that. I've passed it to a colleague who will follow up as soon as it's back."
				why = fmt.Sprintf("The retry cap (%d resends, after waiting %s) was spent, so the agent stopped and escalated with what it tried (§5).", rules.MaxRetries, secondsList(waited))
			}
			if sit.Category == rules.Business {
				reason = "business_rule"
			}
			escArgs := map[string]any{"summary": summaryText, "reason": reason}
			for _, k := range []string{"customer_id", "order_id"} {
				if v, ok := call.Arguments[k].(string); ok && v != "" {
					escArgs[k] = v
				}
			}
			_, ecl, err := r.call(StepEscalate, wire.Call{Tool: "escalate_to_human", Arguments: escArgs})
			if err != nil {
				return err
			}
			if ecl.Layer != rules.LayerSuccess {
				r.finish("I couldn't hand this over automatically, so I've noted it for the next colleague on shift.", Escalated, why+" The escalation tool itself failed, which the agent reported rather than hid.")
				return nil
			}
			r.finish(final, Escalated, why)
			return nil
		}
		return fmt.Errorf("no rule for %s", rec.Best)
	}
	r.finish("I've run out of steps on this one; passing it to a colleague.", Wasted, "The run hit the step limit.")
	return nil
}

func retryAfter(cl rules.Classification) float64 {
	if cl.Meta.RetryAfterSeconds != nil {
		return *cl.Meta.RetryAfterSeconds
	}
	return 0
}

// fieldWords names arguments the way a customer would.
var fieldWords = map[string]string{
	"order_id":    "order number",
	"customer_id": "customer number",
	"identifier":  "email address or customer number",
	"amount":      "amount",
	"query":       "search words",
}

// askForInput turns a validation error into a question for the customer,
// in the customer's words: which detail looks wrong and what it should
// look like, without field names or other customers' data.
func askForInput(ex wire.Exchange) string {
	env, err := rules.ParseEnvelope(ex.Response)
	if err == nil && env.Result != nil {
		var sc struct {
			FieldErrors []struct {
				Field    string `json:"field"`
				Expected string `json:"expected"`
			} `json:"fieldErrors"`
		}
		if json.Unmarshal(env.Result.StructuredContent, &sc) == nil && len(sc.FieldErrors) > 0 {
			fe := sc.FieldErrors[0]
			what, ok := fieldWords[fe.Field]
			if !ok {
				what = strings.ReplaceAll(fe.Field, "_", " ")
			}
			shape := fe.Expected
			if i := strings.Index(shape, ", e.g."); i > 0 {
				shape = shape[:i]
			}
			return fmt.Sprintf("I couldn't use the %s you gave me: it should be %s. Could you check it and send it again?", what, shape)
		}
	}
	return "I couldn't use the details I had; could you check them and send them again?"
}

// secondsList renders waits as "1s, 2s and 4s".
func secondsList(ws []float64) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = fmt.Sprintf("%gs", w)
	}
	switch len(parts) {
	case 0:
		return "no time"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
