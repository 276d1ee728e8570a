package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// Delegation is the job a coordinator hands a subagent: gather everything
// about a customer with read-only tools (get_customer and lookup_order
// in the lessons' case: "everything about customer X and order Y").
type Delegation struct {
	ID string
	// Jobs are the calls the subagent makes, in order.
	Jobs []wire.Call
	// Corrections maps a tool to corrected arguments the subagent can work
	// out for itself (a validation error it can fix locally).
	Corrections map[string]map[string]any
	// Open starts a session on a fresh mock server (good style; the
	// scenario's fault injected).
	Open func(ctx context.Context, style mockserver.Style) (*wire.Session, error)
}

// Attempt is one try the subagent made, with its virtual time.
type Attempt struct {
	T         float64        `json:"t"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	Outcome   string         `json:"outcome"` // "ok", "empty", or the errorCategory / "protocol -32602"
}

// UnresolvedError is the failure the subagent could not fix.
type UnresolvedError struct {
	Tool          string         `json:"tool"`
	ErrorCategory rules.Category `json:"errorCategory,omitempty"`
	IsRetryable   *bool          `json:"isRetryable,omitempty"`
	Code          string         `json:"code,omitempty"`
	Description   string         `json:"description"`
	ProtocolCode  int            `json:"protocolCode,omitempty"`
}

// Report is the ONE message a subagent sends its coordinator (LESSON-RULES
// §5): the results it obtained, the unresolved error with its category,
// and what it attempted. A fully successful run sends results only; the
// coordinator never hears of a retry that worked.
type Report struct {
	Status         string                     `json:"status"` // "complete" or "partial"
	PartialResults map[string]json.RawMessage `json:"partialResults"`
	Error          *UnresolvedError           `json:"error,omitempty"`
	Attempted      []Attempt                  `json:"attempted,omitempty"`
}

// CoordinatorRun is a delegation played out: the subagent's trace, the
// report it sent, and what the coordinator did with it.
type CoordinatorRun struct {
	Scenario          string       `json:"scenario"`
	Subagent          *Run         `json:"subagent"`
	Report            Report       `json:"report"`
	CoordinatorAction rules.Action `json:"coordinatorAction"`
	CoordinatorSays   string       `json:"coordinatorSays"`
	Why               string       `json:"why"`
}

// Delegate plays a delegation: the subagent gathers both records,
// recovering locally from transient failures (capped backoff) and from
// validation errors it can correct, then reports once.
func Delegate(ctx context.Context, d Delegation) (*CoordinatorRun, error) {
	sess, err := d.Open(ctx, mockserver.StyleGood)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	r := &runner{ctx: ctx, sess: sess, run: &Run{Scenario: d.ID, Agent: "subagent", Style: string(mockserver.StyleGood)}}
	rep := Report{Status: "complete", PartialResults: map[string]json.RawMessage{}}
	var attempts []Attempt
	for _, call := range d.Jobs {
		retries, corrected := 0, false
		for len(r.run.Steps) < maxSteps {
			ex, cl, err := r.call(StepCall, call)
			if err != nil {
				return nil, err
			}
			attempts = append(attempts, Attempt{T: r.run.Steps[len(r.run.Steps)-1].T, Tool: call.Tool, Arguments: call.Arguments, Outcome: outcomeOf(cl)})
			sit := rules.SituationOf(cl)
			sit.InSubagent = true
			sit.RetriesExhausted = sit.Category == rules.Transient && retries >= rules.MaxRetries
			rec, needsRecovery := rules.Recommend(sit)
			if !needsRecovery || rec.Best == rules.AcceptEmpty {
				rep.PartialResults[call.Tool] = structured(ex)
				break
			}
			if rec.Best == rules.RetrySame {
				retries++
				wait := rules.BackoffSeconds(retries, retryAfter(cl))
				r.wait(wait, fmt.Sprintf("local recovery: resend %d of %d after %gs", retries, rules.MaxRetries, wait))
				continue
			}
			if rec.Best == rules.FixInput && !corrected {
				if fix, ok := d.Corrections[call.Tool]; ok {
					corrected = true
					next := wire.Call{Tool: call.Tool, Arguments: maps.Clone(fix)}
					r.say("self", fmt.Sprintf("local recovery: correcting %s to %s", describe(call), describe(next)))
					call = next
					continue
				}
			}
			if rep.Error == nil {
				rep.Error = &UnresolvedError{Tool: call.Tool, ErrorCategory: cl.ErrorCategory, IsRetryable: cl.IsRetryable,
					Code: cl.Meta.Code, Description: cl.Meta.Description, ProtocolCode: cl.ProtocolCode}
				if cl.Layer == rules.LayerProtocol {
					rep.Error.Description = fmt.Sprintf("JSON-RPC error %d: the request was rejected before any tool ran", cl.ProtocolCode)
				}
			}
			break
		}
	}
	if rep.Error != nil {
		rep.Status = "partial"
		rep.Attempted = attempts
	}
	report, _ := json.Marshal(rep)
	r.say("coordinator", string(report))
	r.run.VirtualSeconds = r.clock.Now()
	r.run.FinalMessage = string(report)

	cr := &CoordinatorRun{Scenario: d.ID, Subagent: r.run, Report: rep}
	cr.decide(retried(attempts))
	r.run.Verdict, r.run.Why = Resolved, cr.Why
	if cr.CoordinatorAction == rules.EscalateHuman {
		r.run.Verdict = Escalated
	}
	return cr, nil
}

func structured(ex wire.Exchange) json.RawMessage {
	env, err := rules.ParseEnvelope(ex.Response)
	if err != nil || env.Result == nil || env.Result.StructuredContent == nil {
		b, _ := json.Marshal(texts(ex))
		return b
	}
	return env.Result.StructuredContent
}

func outcomeOf(cl rules.Classification) string {
	switch cl.Layer {
	case rules.LayerProtocol:
		return fmt.Sprintf("protocol %d", cl.ProtocolCode)
	case rules.LayerSuccess:
		if cl.Empty {
			return "empty"
		}
		return "ok"
	}
	if cl.ErrorCategory == "" {
		return "error"
	}
	return string(cl.ErrorCategory)
}

// retried reports whether any call was tried more than once.
func retried(attempts []Attempt) bool {
	seen := map[string]bool{}
	for _, a := range attempts {
		if seen[a.Tool] {
			return true
		}
		seen[a.Tool] = true
	}
	return false
}

// decide is the coordinator's move on the report, from sim/rules.
func (cr *CoordinatorRun) decide(absorbed bool) {
	e := cr.Report.Error
	if e == nil {
		cr.CoordinatorAction = ""
		var empty []string
		for tool, res := range cr.Report.PartialResults {
			var m struct {
				ResultCount *int `json:"resultCount"`
			}
			if json.Unmarshal(res, &m) == nil && m.ResultCount != nil && *m.ResultCount == 0 {
				empty = append(empty, tool)
			}
		}
		cr.CoordinatorSays = "Every lookup answered; replying to the customer from the results."
		if len(empty) > 0 {
			cr.CoordinatorSays = fmt.Sprintf("Every lookup answered (%s found no match, which is an answer too); replying to the customer from the results.", strings.Join(empty, ", "))
		}
		cr.Why = "Nothing failed, so the report carries results only (§5)."
		if absorbed {
			cr.Why = "A transient failure was absorbed by the subagent's local retries; the report carries results only and the coordinator never heard of the blip (§5)."
		}
		return
	}
	rec, _ := rules.Recommend(rules.CoordinatorSituation(e.ErrorCategory, e.ProtocolCode))
	cr.CoordinatorAction = rec.Best
	switch rec.Best {
	case rules.EscalateHuman:
		cr.CoordinatorSays = fmt.Sprintf("Proceeding with what the subagent found; %s could not be resolved (%s), so a person takes that part over.", e.Tool, e.ErrorCategory)
	case rules.FixInput:
		cr.CoordinatorSays = fmt.Sprintf("Asking the customer to check the details %s rejected, and answering the rest now.", e.Tool)
	case rules.ExplainAlternative:
		cr.CoordinatorSays = "Explaining the refusal to the customer and offering another path."
	case rules.FixClient:
		cr.CoordinatorSays = "Reporting a client bug; answering the customer with the part that worked."
	default:
		cr.CoordinatorSays = "Deciding with partial data."
	}
	tries := 0
	for _, a := range cr.Report.Attempted {
		if a.Tool == e.Tool {
			tries++
		}
	}
	cr.Why = fmt.Sprintf("The subagent sent one report with partial results, the unresolved %s error and what it attempted (%s tried %s); the coordinator chose %s (%s).",
		e.ErrorCategory, e.Tool, plural(tries, "time"), rec.Best, rec.Rule.Ref())
}
