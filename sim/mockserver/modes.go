package mockserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// FailureMode is one value of the failure_mode practice argument that
// Options.FailureModes adds to every tool: the fault it injects and what
// it teaches, in the words the tool descriptions use.
type FailureMode struct {
	Name    string
	Fault   Fault
	Teaches string
}

// failureModeArg is the practice argument's name.
const failureModeArg = "failure_mode"

// FailureModes lists the practice modes in the order the declarations
// give them. "empty" is offered only by the tools whose success can be
// empty (the lookups and the ticket search).
//
// Unlike Options.Faults, a mode applies to the call that names it. Two
// modes keep state so that the right recovery works: a timeout answers
// the same call the second time, and a rate limit lets a resend through
// once its retryAfterSeconds have passed on the server's clock.
var FailureModes = []FailureMode{
	{"none", Fault{Kind: FaultNone}, "the call works normally"},
	{"timeout", Fault{Kind: FaultTimeout}, "transient, the store did not answer in time: resend the same call after a short wait, and the resend works"},
	{"rate_limit", Fault{Kind: FaultRateLimit, RetryAfterSeconds: 5}, "transient with retryAfterSeconds 5: wait that long, then resend unchanged (sooner is refused again)"},
	{"transient", Fault{Kind: FaultAccessFailure}, "transient, the source stays unreachable: resend at most 3 times after 1, 2 and 4 seconds, then escalate_to_human with what was tried; the query did not run, so it is not an empty result"},
	{"validation", Fault{Kind: FaultValidation}, "an argument is malformed: correct it from fieldErrors and exampleArguments and send a new call; the same call fails every time"},
	{"business", Fault{Kind: FaultBusiness}, "a rule refused: do not resend; explain it with customerMessage and offer another path"},
	{"permission", Fault{Kind: FaultPermission}, "the caller lacks access: do not resend; escalate to a person who has it"},
	{"empty", Fault{Kind: FaultEmpty}, "a valid empty result (resultCount 0): accept it and say there is no match; do not retry"},
	{"internal", Fault{Kind: FaultInternal}, "an unexpected fault, sanitized to a generic message and a correlationId: resend with the backoff (at most 3 times), then escalate_to_human quoting the id"},
	{"go_error", Fault{Kind: FaultGoError}, "the handler returned a Go error: the good style writes a sanitized isError result, a bad style sends the -32603 protocol error a model cannot act on"},
	{"crash", Fault{Kind: FaultPanic}, "the handler crashed: the good style recovers with a sanitized result, a bad style leaks the crash text in a -32603"},
}

// customerLookupOwnModes are the modes customer_lookup has always
// understood itself (LESSON-RULES' build exercise); its own logic serves
// them, with or without Options.FailureModes.
var customerLookupOwnModes = []string{"none", "transient", "validation", "business", "permission", "empty"}

// escalationTeaches replaces what a mode teaches on escalate_to_human
// itself: after the resends, the agent reports that the hand-over failed
// rather than being sent back to the tool that just failed.
var escalationTeaches = map[string]string{
	"transient": "transient, the escalation queue stays unreachable: resend at most 3 times after 1, 2 and 4 seconds, then report that the hand-over failed, with what was tried",
	"internal":  "an unexpected fault, sanitized to a generic message and a correlationId: resend with the backoff (at most 3 times), then report that the hand-over failed, quoting the id",
}

// TeachesOn is what the mode teaches on tool, in its description.
func (m FailureMode) TeachesOn(tool string) string {
	if teaches, ok := escalationTeaches[m.Name]; ok && tool == EscalationTool {
		return teaches
	}
	return m.Teaches
}

// modesFor lists the practice modes a tool offers.
func (t toolSpec) modesFor() []FailureMode {
	var out []FailureMode
	for _, m := range FailureModes {
		if m.Name == "empty" && t.empty == nil {
			continue
		}
		m.Teaches = m.TeachesOn(t.name)
		out = append(out, m)
	}
	return out
}

// FailureModeNames lists the practice modes tool offers (none first), or
// nil for an unknown tool.
func FailureModeNames(tool string) []string {
	t, found := specFor(tool)
	if !found {
		return nil
	}
	var out []string
	for _, m := range t.modesFor() {
		out = append(out, m.Name)
	}
	return out
}

// withModes is the tool's description and inputSchema with the
// failure_mode practice argument: the description lists each mode and
// what it teaches; the schema declares the argument with its modes.
func (t toolSpec) withModes() (description, inputSchema string) {
	modes := t.modesFor()
	var b strings.Builder
	own, _, _ := strings.Cut(t.description, " failure_mode triggers") // customer_lookup's own sentence, said again below
	b.WriteString(own)
	b.WriteString(" Practice: failure_mode makes this call fail on purpose. ")
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = m.Name
		if m.Name == "none" {
			continue
		}
		b.WriteString(m.Name + ": " + m.Teaches + ". ")
	}
	var schema map[string]any
	if err := json.Unmarshal([]byte(t.inputSchema), &schema); err != nil {
		panic("mockserver: " + t.name + " inputSchema: " + err.Error())
	}
	props, _ := schema["properties"].(map[string]any)
	props[failureModeArg] = map[string]any{
		"type":        "string",
		"enum":        names,
		"default":     "none",
		"description": "Practice switch: make this call fail on purpose (the tool description says what each mode teaches)",
	}
	return strings.TrimSpace(b.String()), string(mustMarshal(schema))
}

// sharedModesValidator checks arguments against the declarations with
// failure_mode.
var sharedModesValidator = sync.OnceValue(func() *inputValidator {
	return newInputValidatorFrom(func(t toolSpec) string { _, schema := t.withModes(); return schema })
})

// practiceMode reads the failure_mode a call names, when Options.
// FailureModes is on and the tool's own logic does not serve that mode
// itself. practised is false when the call is left to the usual path.
func (s *Server) practiceMode(t toolSpec, args map[string]any) (mode Fault, practised bool) {
	if !s.opts.FailureModes {
		return Fault{}, false
	}
	name, given := args[failureModeArg].(string)
	if !given {
		return Fault{}, false
	}
	if t.name == "customer_lookup" && slices.Contains(customerLookupOwnModes, name) {
		return Fault{}, false
	}
	for _, m := range t.modesFor() {
		if m.Name == name {
			return m.Fault, true
		}
	}
	return Fault{}, false // the validator has refused an unknown mode already
}

// withoutMode is args without failure_mode, so the call is the one the
// lab makes: the same argument checks, the same correlationId.
func withoutMode(args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		if k != failureModeArg {
			out[k] = v
		}
	}
	return out
}

// modeFires reports whether a practice mode fails this call. key is the
// call's other arguments as JSON.
func (s *Server) modeFires(ctx context.Context, tool string, f Fault, key string) bool {
	switch f.Kind {
	case FaultNone:
		return false
	case FaultTimeout:
		s.mu.Lock()
		defer s.mu.Unlock()
		k := tool + key
		if s.timedOut[k] {
			delete(s.timedOut, k) // the resend works; the next call times out again
			return false
		}
		s.timedOut[k] = true
		return true
	case FaultRateLimit:
		now, _ := s.now(ctx)
		s.mu.Lock()
		defer s.mu.Unlock()
		k := "mode:" + tool
		if until, limited := s.limitedUntil[k]; limited {
			if now >= until {
				delete(s.limitedUntil, k) // waited long enough: let it through
				return false
			}
			return true
		}
		s.limitedUntil[k] = now + float64(f.RetryAfterSeconds)
		return true
	}
	return true
}

// ParseFailure reads a failure by the name a script or a person gives it:
// a practice mode of FailureModes ("timeout", "transient", "crash") or a
// fault kind ("access_failure", "panic"). The error lists the names.
func ParseFailure(name string) (Fault, error) {
	for _, m := range FailureModes {
		if m.Name == name {
			return m.Fault, nil
		}
	}
	if k, err := ParseFaultKind(name); err == nil {
		f := Fault{Kind: k}
		if k == FaultRateLimit {
			f.RetryAfterSeconds = 5
		}
		return f, nil
	}
	names := make([]string, len(FailureModes))
	for i, m := range FailureModes {
		names[i] = m.Name
	}
	return Fault{}, fmt.Errorf("unknown failure %q: use one of %s (or access_failure, panic)", name, strings.Join(names, ", "))
}

// CanBeEmpty reports whether a tool's success can be a valid empty result
// (the lookups and the ticket search), so the empty failure applies to it.
func CanBeEmpty(tool string) bool { t, found := specFor(tool); return found && t.empty != nil }
