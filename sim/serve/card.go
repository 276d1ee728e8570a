package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// Card is the report card of one client session: every failure (and
// valid empty result) the server served, what the client did next and
// the verdict of sim/rules on that move.
type Card struct {
	Session   string         `json:"session"`
	Client    string         `json:"client"`
	Transport string         `json:"transport"`
	Spec      rules.Revision `json:"spec"`
	Started   time.Time      `json:"started"`
	Ended     time.Time      `json:"ended,omitzero"`
	// Exchanges counts every JSON-RPC exchange; Calls the tools/call ones.
	Exchanges int `json:"exchanges"`
	Calls     int `json:"calls"`
	// Best, Acceptable and Wrong count the verdicts; Pending the failures
	// whose next move has not come yet.
	Best       int `json:"best"`
	Acceptable int `json:"acceptable"`
	Wrong      int `json:"wrong"`
	Pending    int `json:"pending"`
	// Wasted counts calls that could not work: resends of failures that
	// are not transient, of empty results or protocol errors, past the
	// retry cap, or sooner than the server's retryAfterSeconds.
	Wasted int `json:"wastedCalls"`
	// Waits are the seconds the client waited before each resend of a
	// transient failure, in order.
	Waits   []float64 `json:"waits"`
	Entries []Entry   `json:"failures"`
}

// Entry is one result that asked the client for a decision, and the
// client's move.
type Entry struct {
	// Seq is the exchange's number; Time when its response was sent.
	Seq  int       `json:"seq"`
	Time time.Time `json:"time"`
	Tool string    `json:"tool"`
	// Arguments are the call's arguments (keys sorted).
	Arguments json.RawMessage `json:"arguments"`
	// Served says what the client got, in a few words ("isError:
	// transient (UPSTREAM_TIMEOUT)", "a valid empty result").
	Served string `json:"served"`
	// Truth is what really went wrong; Seen is the layer the client saw,
	// when a bad style showed it another way.
	Truth Truth       `json:"truth"`
	Seen  rules.Layer `json:"seen,omitempty"`
	// Attempt numbers the call: 2 for the first resend of the same call.
	Attempt int `json:"attempt"`

	// The move: empty while Pending.
	Pending  bool       `json:"pending,omitempty"`
	Move     rules.Move `json:"move,omitempty"`
	MoveTool string     `json:"moveTool,omitempty"`
	// WaitSeconds is the time from the result to the next call (absent for
	// a stop); for a pending entry, the time so far.
	WaitSeconds *float64 `json:"waitSeconds,omitempty"`
	// Reading says how the move was read as a recovery action.
	Reading    string       `json:"reading,omitempty"`
	Action     rules.Action `json:"action,omitempty"`
	Grade      rules.Grade  `json:"grade,omitempty"`
	BestAction rules.Action `json:"bestAction"`
	// Rule is the rule the move follows or breaks ("§2 Business errors").
	Rule   string `json:"rule,omitempty"`
	RuleID string `json:"ruleId,omitempty"`
	Why    string `json:"why,omitempty"`
	Wasted bool   `json:"wasted,omitempty"`
	// WaitOK says, for a resend of a transient failure, whether the wait
	// was as long as the rules ask (WantedWait seconds).
	WaitOK     *bool   `json:"waitOk,omitempty"`
	WantedWait float64 `json:"wantedWait,omitempty"`
	// Feedback is the scenario's own text for the action, when the
	// failure is the served scenario's.
	Feedback string `json:"feedback,omitempty"`
}

// Truth is the situation a failure really was.
type Truth struct {
	Layer            rules.Layer    `json:"layer"`
	ErrorCategory    rules.Category `json:"errorCategory,omitempty"`
	ProtocolCode     int            `json:"protocolCode,omitempty"`
	Empty            bool           `json:"empty,omitempty"`
	RequiresUser     bool           `json:"requiresUserAction,omitempty"`
	RetriesExhausted bool           `json:"retriesExhausted,omitempty"`
}

// entry is an Entry with what the card needs to judge the next move.
type entry struct {
	Entry
	sent       time.Time
	sit        rules.Situation
	retryAfter float64
}

// cardBuilder keeps a session's card as its exchanges arrive.
type cardBuilder struct {
	calls   int
	entries []*entry
	open    []*entry
}

// observe takes one exchange (in the order responses were sent). A
// tools/call is first the move for every failure whose result was out
// before it arrived; then, if its own result asks for a decision, it
// becomes an entry waiting for the next move.
func (c *cardBuilder) observe(ex Exchange, truth *rules.Classification, sc *Scenario) {
	if ex.Method != "tools/call" || ex.Response == nil {
		return
	}
	c.calls++
	var resent *entry
	still := c.open[:0]
	for _, e := range c.open {
		if e.sent.After(ex.Received) {
			still = append(still, e) // in flight together: not a reaction
			continue
		}
		o := e.moveTo(ex)
		if o.Move == rules.MoveResend && resent == nil {
			resent = e
		}
		e.decide(o, sc)
	}
	c.open = still

	seen := ex.Class
	if seen == nil {
		return // not a JSON-RPC response: nothing to score
	}
	if truth == nil {
		truth = seen
	}
	sit := rules.SituationOf(*truth)
	if sit.Layer == rules.LayerSuccess && !sit.Empty {
		return // a plain success needs no recovery
	}
	e := &entry{sent: ex.Sent, sit: sit}
	e.Seq, e.Time, e.Tool, e.Arguments = ex.Seq, ex.Sent, ex.Tool, ex.Arguments
	e.Attempt = 1
	if resent != nil && resent.Tool == ex.Tool && bytes.Equal(resent.Arguments, ex.Arguments) {
		e.Attempt = resent.Attempt + 1
	}
	e.sit.RetriesExhausted = sit.Category == rules.Transient && e.Attempt > rules.MaxRetries
	if seen.Layer != truth.Layer {
		e.sit.Seen, e.Seen = seen.Layer, seen.Layer
	}
	if seen.Meta.RetryAfterSeconds != nil {
		e.retryAfter = *seen.Meta.RetryAfterSeconds
	}
	e.Served = served(*seen)
	e.Truth = Truth{Layer: truth.Layer, ErrorCategory: truth.ErrorCategory, ProtocolCode: truth.ProtocolCode,
		Empty: truth.Empty, RequiresUser: truth.Meta.RequiresUserAction, RetriesExhausted: e.sit.RetriesExhausted}
	if rec, ok := rules.Recommend(e.sit); ok {
		e.BestAction = rec.Best
	}
	e.Pending = true
	c.entries = append(c.entries, e)
	c.open = append(c.open, e)
}

// moveTo reads the call ex as the move made after e's result.
func (e *entry) moveTo(ex Exchange) rules.Observed {
	wait := math.Max(ex.Received.Sub(e.sent).Seconds(), 0)
	o := rules.Observed{WaitSeconds: wait, RetryAfterSeconds: e.retryAfter, Tool: ex.Tool}
	switch {
	case ex.Tool == e.Tool && bytes.Equal(ex.Arguments, e.Arguments):
		o.Move, o.Resend = rules.MoveResend, e.Attempt
	case ex.Tool == e.Tool && addsConfirmation(e.Arguments, ex.Arguments):
		o.Move = rules.MoveConfirm
	case ex.Tool == e.Tool:
		o.Move = rules.MoveChangeArgs
	case ex.Tool == mockserver.EscalationTool:
		o.Move = rules.MoveEscalate
	default:
		o.Move = rules.MoveOtherTool
	}
	return o
}

// addsConfirmation reports whether after is before with confirmedByUser
// set to true and nothing else changed.
func addsConfirmation(before, after json.RawMessage) bool {
	var b, a map[string]any
	if json.Unmarshal(before, &b) != nil || json.Unmarshal(after, &a) != nil {
		return false
	}
	if yes, _ := a["confirmedByUser"].(bool); !yes {
		return false
	}
	if was, _ := b["confirmedByUser"].(bool); was {
		return false
	}
	delete(a, "confirmedByUser")
	delete(b, "confirmedByUser")
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// decide scores the move and fills the entry.
func (e *entry) decide(o rules.Observed, sc *Scenario) {
	v := rules.ScoreObserved(e.sit, o)
	e.Pending = false
	e.Move = o.Move
	if o.Move == rules.MoveOtherTool {
		e.MoveTool = o.Tool
	}
	if o.Move != rules.MoveStop {
		w := math.Round(o.WaitSeconds*100) / 100
		e.WaitSeconds = &w
	} else {
		e.WaitSeconds = nil
	}
	e.Reading, e.Action, e.Grade, e.BestAction = v.Reading, v.Action, v.Grade, v.Best
	e.Rule, e.RuleID, e.Why = v.Rule.Ref(), v.Rule.ID, v.Why
	e.Wasted, e.WaitOK, e.WantedWait = v.Wasted, v.WaitOK, v.WantedWait
	if sc != nil && sc.Tool == e.Tool {
		e.Feedback = sc.Feedback[v.Action]
	}
}

// finish marks every failure still waiting as "stopped": the session
// ended without another call.
func (c *cardBuilder) finish() {
	for _, e := range c.open {
		e.decide(rules.Observed{Move: rules.MoveStop}, nil)
	}
	c.open = nil
}

// view is the card at time now (pending entries show the wait so far).
func (c *cardBuilder) view(now time.Time) Card {
	card := Card{Calls: c.calls, Entries: make([]Entry, 0, len(c.entries)), Waits: []float64{}}
	for _, e := range c.entries {
		en := e.Entry
		switch {
		case en.Pending:
			card.Pending++
			w := math.Round(math.Max(now.Sub(e.sent).Seconds(), 0)*10) / 10
			en.WaitSeconds = &w
		case en.Grade == rules.GradeBest:
			card.Best++
		case en.Grade == rules.GradeAcceptable:
			card.Acceptable++
		default:
			card.Wrong++
		}
		if en.Wasted {
			card.Wasted++
		}
		if en.Move == rules.MoveResend && en.WaitOK != nil && en.WaitSeconds != nil {
			card.Waits = append(card.Waits, *en.WaitSeconds)
		}
		card.Entries = append(card.Entries, en)
	}
	return card
}

// served says in a few words what a client was sent.
func served(cl rules.Classification) string {
	switch cl.Layer {
	case rules.LayerProtocol:
		return fmt.Sprintf("protocol error %d", cl.ProtocolCode)
	case rules.LayerSuccess:
		if cl.Empty {
			return "a valid empty result"
		}
		return "a success"
	}
	what := "isError"
	switch {
	case cl.ErrorCategory != "":
		what += ": " + string(cl.ErrorCategory)
	default:
		what += " without a category"
	}
	if cl.Meta.Code != "" {
		what += " (" + cl.Meta.Code + ")"
	}
	return what
}

// Summary is the card in one sentence: "5 failures served: 2 best, 1
// acceptable, 2 wrong; 3 wasted calls".
func (c Card) Summary() string {
	if len(c.Entries) == 0 {
		return plural(c.Calls, "tool call") + ", no failure served yet"
	}
	s := fmt.Sprintf("%s, %s served: %d best, %d acceptable, %d wrong", plural(c.Calls, "tool call"), plural(len(c.Entries), "failure"), c.Best, c.Acceptable, c.Wrong)
	if c.Pending > 0 {
		s += fmt.Sprintf(", %d waiting for a move", c.Pending)
	}
	return s + fmt.Sprintf("; %s", plural(c.Wasted, "wasted call"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
