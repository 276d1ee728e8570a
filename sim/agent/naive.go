package agent

import (
	"fmt"

	"github.com/errorlab/errorlab/sim/rules"
)

// naive plays the task without reading any metadata: a protocol error,
// isError or an empty result are all "it failed", resent up to
// NaiveMaxRetries times with backoff; anything else is data, error text
// included.
func (r *runner) naive() error {
	retries := 0
	askedToWait := 0.0 // the longest retryAfterSeconds the naive agent ignored
	sawEmpty := false  // an empty "success" came back at least once
	for len(r.run.Steps) < maxSteps {
		ex, cl, err := r.call(StepCall, r.task.Call)
		if err != nil {
			return err
		}
		if ra := retryAfter(cl); ra > askedToWait {
			askedToWait = ra
		}
		sawEmpty = sawEmpty || (cl.Layer == rules.LayerSuccess && cl.Empty)
		failed := cl.Layer != rules.LayerSuccess || cl.Empty
		if !failed {
			text := texts(ex)
			msg := "Here is what I found: " + summary(ex)
			if rules.LooksLikeError(text) {
				r.finish(msg, Wrong, fmt.Sprintf("The tool hid a %s failure inside a success (%q); the naive agent passed the error text to the customer as if it were the answer (§3).", kindOf(r.task.Truth), firstLine(text)))
				return nil
			}
			if retries > 1 {
				why := fmt.Sprintf("It got there by luck: %d blind calls over %gs. Without a category or a retry-after hint the agent could only hammer the service until it gave way.", retries+1, r.clock.Now())
				if askedToWait > 0 {
					why = fmt.Sprintf("The server asked for a %gs wait; resending blind was refused until the limit lifted, costing %d calls where one patient resend would do.", askedToWait, retries+1)
				}
				r.finish(msg, Wasted, why)
				return nil
			}
			if retries > 0 && sawEmpty {
				r.finish(msg, Resolved, fmt.Sprintf("Luck: the first answer was an empty result hiding an outage, and the naive agent resent it (%s) only because it treats \"nothing\" as a failure. Had it trusted the empty result, the customer would have heard, confidently, that nothing exists (§4).", plural(retries, "resend")))
				return nil
			}
			if retries > 0 {
				r.finish(msg, Resolved, fmt.Sprintf("Blind resending happened to work here (%s) because the failure was transient; with any other category it would have burned every try.", plural(retries, "resend")))
				return nil
			}
			r.finish(msg, Resolved, "The call succeeded.")
			return nil
		}
		if retries < NaiveMaxRetries {
			retries++
			wait := rules.BackoffSeconds(retries, 0)
			what := "it failed, no idea why"
			if cl.Layer == rules.LayerSuccess {
				what = "nothing came back, so it must have failed"
			}
			r.wait(wait, fmt.Sprintf("%s: resend %d of %d after %gs", what, retries, NaiveMaxRetries, wait))
			continue
		}
		r.finish("I'm sorry, something went wrong and I couldn't complete that. Please try again later.", Wasted, r.naiveWhy(retries, sawEmpty))
		return nil
	}
	return nil
}

func (r *runner) naiveWhy(retries int, sawEmpty bool) string {
	t := r.task.Truth
	switch {
	case sawEmpty && t.Layer != rules.LayerSuccess:
		return fmt.Sprintf("The tool passed a %s failure off as an empty result. The naive agent happened to read \"nothing\" as a failure and resent it %d times, never learning what was wrong; an agent that trusted the empty result would have told the customer, confidently and wrongly, that nothing exists (§4).", kindOf(t), retries)
	case t.Layer == rules.LayerProtocol:
		return fmt.Sprintf("A protocol error means the request itself was broken; %d identical resends got the same JSON-RPC error and the customer got a shrug (§1).", retries)
	case t.Layer == rules.LayerSuccess && t.Empty:
		return fmt.Sprintf("The query had already run and found nothing; treating \"no match\" as a failure cost %d resends and ended in \"I couldn't check\" (§4).", retries)
	case t.Category == rules.Transient:
		return fmt.Sprintf("The outage outlasted %d blind resends; with no category the agent could neither stop at a sensible cap nor tell the customer what was wrong (§2).", retries)
	default:
		return fmt.Sprintf("A %s failure comes back the same every time: %d resends could never work, and the customer heard nothing useful (§2).", kindOf(t), retries)
	}
}

func kindOf(s rules.Situation) string {
	switch {
	case s.Layer == rules.LayerProtocol:
		return "protocol"
	case s.RequiresUserAction:
		return "confirmation-required"
	case s.Category != "":
		return string(s.Category)
	}
	return string(s.Layer)
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
