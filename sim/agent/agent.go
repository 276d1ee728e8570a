// Package agent simulates the agents of the lessons on a virtual clock: an
// informed agent that reads the error metadata and follows LESSON-RULES
// (every decision comes from sim/rules), a naive agent that sees only
// "something failed", and a subagent that recovers locally and reports
// once to its coordinator.
//
// Every tool call is a real tools/call through the mock server, recorded
// with its exact envelopes; waits cost no real time, so a run of the whole
// catalogue takes milliseconds.
package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// Kind names a simulated agent.
type Kind string

const (
	// Informed reads isError, errorCategory, isRetryable and the extras and
	// does what LESSON-RULES says.
	Informed Kind = "informed"
	// Naive is what a generic "Operation failed" produces: every failure is
	// resent up to NaiveMaxRetries times with the same backoff, an empty
	// result counts as a failure, and error text inside a success is data.
	Naive Kind = "naive"
)

// NaiveMaxRetries is the naive agent's resend budget.
const NaiveMaxRetries = 5

// ParseKind accepts "naive" or "informed".
func ParseKind(s string) (Kind, error) {
	switch Kind(s) {
	case Informed, Naive:
		return Kind(s), nil
	}
	return "", fmt.Errorf("unknown agent %q: use naive or informed", s)
}

// Clock is virtual time, kept in tenths of a second so sums print
// exactly (0.2 + 1 is 1.2, not 1.2000000000000002). Sleep advances it
// without waiting.
type Clock struct{ tenths int64 }

// Now is the virtual time in seconds since the run began.
func (c *Clock) Now() float64 { return float64(c.tenths) / 10 }

// Sleep advances the clock by d seconds, rounded to a tenth.
func (c *Clock) Sleep(d float64) { c.tenths += int64(math.Round(d * 10)) }

// StepKind is what happened at a step of a run.
type StepKind string

const (
	StepCall     StepKind = "call"
	StepWait     StepKind = "wait"
	StepMessage  StepKind = "message"
	StepEscalate StepKind = "escalate"
)

// Step is one thing an agent did, at a virtual time. Calls and escalations
// carry the tool, the arguments, isError of the result (nil for a protocol
// error, which has no result) and the exact exchange.
type Step struct {
	T         float64               `json:"t"`
	Kind      StepKind              `json:"kind"`
	Tool      string                `json:"tool,omitempty"`
	Arguments map[string]any        `json:"arguments,omitempty"`
	IsError   *bool                 `json:"isError,omitempty"`
	Protocol  int                   `json:"protocolError,omitempty"` // JSON-RPC error code, when the call failed on the protocol layer
	Seconds   float64               `json:"seconds,omitempty"`       // length of a wait
	To        string                `json:"to,omitempty"`            // message recipient: customer, coordinator, developers
	Text      string                `json:"text,omitempty"`          // message text, or why the agent waits
	Exchange  *wire.Exchange        `json:"-"`
	Outcome   *rules.Classification `json:"-"`
}

// Verdict sums up a run.
type Verdict string

const (
	Resolved  Verdict = "resolved correctly"
	Wasted    Verdict = "wasted effort"
	Wrong     Verdict = "wrong answer given with confidence"
	Escalated Verdict = "escalated properly"
)

// Run is the trace of one agent on one task.
type Run struct {
	Scenario       string  `json:"scenario"`
	Agent          Kind    `json:"agent"`
	Style          string  `json:"style"`
	Steps          []Step  `json:"steps"`
	Calls          int     `json:"calls"`
	VirtualSeconds float64 `json:"virtualSeconds"`
	FinalMessage   string  `json:"finalMessage"`
	Verdict        Verdict `json:"verdict"`
	Why            string  `json:"why"`
	// Parts holds the runs of a series (the four failures of one
	// afternoon); Steps then concatenates them on one clock.
	Parts []*Run `json:"parts,omitempty"`
}

// Task is what an agent is asked to do: make a call for a customer and
// deal with whatever comes back.
type Task struct {
	ID   string
	Call wire.Call
	// Correction is the full corrected argument set when the right input
	// can be worked out (ORD-4471x → ORD-4471); nil means ask the customer.
	Correction map[string]any
	// CustomerMessage is the scenario's customer-facing sentence, used when
	// the response carries none.
	CustomerMessage string
	// Truth is what really went wrong (the scenario's expected situation),
	// against which a run's verdict is judged.
	Truth rules.Situation
	// Open starts a session on a fresh mock server writing failures in a
	// style.
	Open func(ctx context.Context, style mockserver.Style) (*wire.Session, error)
	// NaiveStyle is the style the naive agent meets (the scenario's main
	// bad style, or good when it has none).
	NaiveStyle mockserver.Style
}

// maxSteps stops a run that would otherwise loop (it never should).
const maxSteps = 40

type runner struct {
	ctx   context.Context
	task  Task
	sess  *wire.Session
	clock Clock
	run   *Run
}

func (r *runner) add(s Step) {
	s.T = r.clock.Now()
	r.run.Steps = append(r.run.Steps, s)
}

// call makes one tools/call and records it as a step of kind k.
func (r *runner) call(k StepKind, call wire.Call) (wire.Exchange, rules.Classification, error) {
	ex, err := r.sess.Call(mockserver.WithVirtualTime(r.ctx, r.clock.Now()), call)
	if err != nil {
		return ex, rules.Classification{}, err
	}
	cl, err := ex.Classify()
	if err != nil {
		return ex, cl, fmt.Errorf("%s: unreadable response: %w", call.Tool, err)
	}
	st := Step{Kind: k, Tool: call.Tool, Arguments: call.Arguments, Exchange: &ex, Outcome: &cl}
	if call.Raw != "" {
		st.Tool = "(hand-written request)"
	}
	if cl.Layer == rules.LayerProtocol {
		st.Protocol = cl.ProtocolCode
	} else {
		isErr := cl.Layer == rules.LayerExecution
		st.IsError = &isErr
	}
	r.add(st)
	r.run.Calls++
	r.clock.Sleep(0.2) // a call takes a little virtual time
	return ex, cl, nil
}

func (r *runner) wait(sec float64, why string) {
	r.add(Step{Kind: StepWait, Seconds: sec, Text: why})
	r.clock.Sleep(sec)
}

func (r *runner) say(to, text string) {
	r.add(Step{Kind: StepMessage, To: to, Text: text})
}

func (r *runner) finish(msg string, v Verdict, why string) {
	r.say("customer", msg)
	r.run.FinalMessage, r.run.Verdict, r.run.Why = msg, v, why
}

// Play runs one agent on a task and returns its trace.
func Play(ctx context.Context, task Task, kind Kind) (*Run, error) {
	return play(ctx, task, kind, 0)
}

func play(ctx context.Context, task Task, kind Kind, start float64) (*Run, error) {
	style := mockserver.StyleGood
	if kind == Naive && task.NaiveStyle != "" {
		style = task.NaiveStyle
	}
	sess, err := task.Open(ctx, style)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	r := &runner{ctx: ctx, task: task, sess: sess, clock: Clock{tenths: int64(math.Round(start * 10))}, run: &Run{Scenario: task.ID, Agent: kind, Style: string(style)}}
	switch kind {
	case Informed:
		err = r.informed()
	case Naive:
		err = r.naive()
	default:
		err = fmt.Errorf("unknown agent %q", kind)
	}
	r.run.VirtualSeconds = math.Round((r.clock.Now()-start)*10) / 10
	if r.run.Steps == nil {
		r.run.Steps = []Step{}
	}
	return r.run, err
}

// PlaySeries runs one agent through several tasks in turn on one clock, as
// one afternoon at the support desk. The result's Parts hold each task's
// run; Steps, Calls and VirtualSeconds add them up; Verdict counts them.
func PlaySeries(ctx context.Context, id string, tasks []Task, kind Kind) (*Run, error) {
	series := &Run{Scenario: id, Agent: kind, Style: "per task", Steps: []Step{}}
	now := 0.0
	counts := map[Verdict]int{}
	var finals []string
	for _, t := range tasks {
		part, err := play(ctx, t, kind, now)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.ID, err)
		}
		now = math.Round((now+part.VirtualSeconds)*10) / 10
		series.Parts = append(series.Parts, part)
		series.Steps = append(series.Steps, part.Steps...)
		series.Calls += part.Calls
		counts[part.Verdict]++
		finals = append(finals, fmt.Sprintf("[%s] %s", t.ID, part.FinalMessage))
	}
	series.VirtualSeconds = now
	series.FinalMessage = strings.Join(finals, "\n")
	var parts []string
	for _, v := range []Verdict{Resolved, Escalated, Wasted, Wrong} {
		if counts[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[v], v))
		}
	}
	series.Verdict = Verdict(strings.Join(parts, ", "))
	series.Why = fmt.Sprintf("%d tasks, %d calls, %gs of virtual time.", len(tasks), series.Calls, now)
	return series, nil
}

// texts returns the text blocks of a result.
func texts(ex wire.Exchange) string {
	env, err := rules.ParseEnvelope(ex.Response)
	if err != nil || env.Result == nil {
		return ""
	}
	return strings.Join(env.Result.Texts(), "\n")
}

// summary reads the "summary" a mock-server success carries, falling back
// to the text.
func summary(ex wire.Exchange) string {
	env, err := rules.ParseEnvelope(ex.Response)
	if err == nil && env.Result != nil {
		var m struct {
			Summary string `json:"summary"`
		}
		if json.Unmarshal(env.Result.StructuredContent, &m) == nil && m.Summary != "" {
			return m.Summary
		}
	}
	return texts(ex)
}

func describe(call wire.Call) string {
	if call.Raw != "" {
		return "a hand-written request"
	}
	args, _ := json.Marshal(call.Arguments)
	return fmt.Sprintf("%s %s", call.Tool, args)
}
