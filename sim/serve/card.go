package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
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
	// CutOff marks a pending failure whose move the server's stopping cut
	// off (rules.MoveWindow): not scored.
	CutOff bool `json:"serverStopped,omitempty"`
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
	call       *callRec
	sit        rules.Situation
	retryAfter float64
	// move is the call read as this failure's next move (nil: none yet);
	// prev the failure this one's call was the resend of.
	move *callRec
	prev *entry
}

// callRec is one tools/call the card has seen.
type callRec struct {
	seq            int
	tool           string
	args           json.RawMessage
	received, sent time.Time
	class          *rules.Classification
	e              *entry // the failure it was answered with, if any
}

// before orders calls by arrival, then (same instant) by number.
func (r *callRec) before(o *callRec) bool {
	if !r.received.Equal(o.received) {
		return r.received.Before(o.received)
	}
	return r.seq < o.seq
}

// recentCalls is how many of a session's last tools/calls the card keeps
// to pair moves that arrived out of order (replies sent out of order).
const recentCalls = 256

// cardBuilder keeps a session's card as its exchanges arrive.
type cardBuilder struct {
	calls   int
	entries []*entry
	open    []*entry
	recent  []*callRec // by received time
}

// observe takes one exchange. The card does not depend on the order the
// responses went out in, only on when each call arrived and its result
// left: a failure's move is the first call (by arrival) after it that
// either arrived once its result was out (a reaction), or is the same
// call again sent while the result was still on its way (a resend made
// without waiting: wait 0). Other calls sent while the result was on its
// way are not a reaction to it.
func (c *cardBuilder) observe(ex Exchange, truth *rules.Classification, sc *Scenario) {
	if ex.Method != "tools/call" || ex.Response == nil {
		return
	}
	c.calls++
	rec := &callRec{seq: ex.Seq, tool: ex.Tool, args: ex.Arguments, received: ex.Received, sent: ex.Sent, class: ex.Class}
	i := len(c.recent)
	for i > 0 && rec.before(c.recent[i-1]) {
		i--
	}
	c.recent = slices.Insert(c.recent, i, rec)
	if len(c.recent) > 2*recentCalls {
		c.recent = slices.Clone(c.recent[len(c.recent)-recentCalls:])
	}

	// rec as the move of failures already on the card.
	for _, e := range c.candidates(rec) {
		if e.call.before(rec) && e.qualifies(rec) && (e.move == nil || rec.before(e.move)) {
			c.setMove(e, rec, sc)
		}
	}

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
	e := &entry{call: rec, sit: sit}
	rec.e = e
	e.Seq, e.Time, e.Tool, e.Arguments = ex.Seq, ex.Sent, ex.Tool, ex.Arguments
	if seen.Layer != truth.Layer {
		e.sit.Seen, e.Seen = seen.Layer, seen.Layer
	}
	if seen.Meta.RetryAfterSeconds != nil {
		e.retryAfter = *seen.Meta.RetryAfterSeconds
	}
	e.Served = served(*seen)
	e.Truth = Truth{Layer: truth.Layer, ErrorCategory: truth.ErrorCategory, ProtocolCode: truth.ProtocolCode,
		Empty: truth.Empty, RequiresUser: truth.Meta.RequiresUserAction}
	e.Pending = true
	for _, p := range c.entries { // the failure this call resent, if any
		if p.move == rec && p.Move == rules.MoveResend {
			e.prev = p
		}
	}
	c.refresh(e, sc)
	j := len(c.entries)
	for j > 0 && rec.before(c.entries[j-1].call) {
		j--
	}
	c.entries = slices.Insert(c.entries, j, e)
	c.open = append(c.open, e)
	// Its move may have arrived already (a reply that left late).
	for _, r := range c.recent {
		if rec.before(r) && e.qualifies(r) {
			c.setMove(e, r, sc)
			break
		}
	}
}

// candidates are the failures whose move rec could be: those without one
// and those whose move arrived after rec.
func (c *cardBuilder) candidates(rec *callRec) []*entry {
	out := slices.Clone(c.open)
	for _, r := range c.recent {
		if e := r.e; e != nil && e.move != nil && rec.before(e.move) {
			out = append(out, e)
		}
	}
	return out
}

// qualifies reports whether call r can be e's move: it arrived once e's
// result was out, or it is e's call again.
func (e *entry) qualifies(r *callRec) bool {
	return !r.received.Before(e.call.sent) || e.same(r)
}

func (e *entry) same(r *callRec) bool {
	return r.tool == e.Tool && bytes.Equal(r.args, e.Arguments)
}

// setMove makes r e's move and scores it; a resend's own failure then
// counts one attempt more.
func (c *cardBuilder) setMove(e *entry, r *callRec, sc *Scenario) {
	if old := e.move; old != nil && old.e != nil && old.e.prev == e {
		old.e.prev = nil
		c.refresh(old.e, sc)
	}
	e.move = r
	c.open = slices.DeleteFunc(c.open, func(x *entry) bool { return x == e })
	e.decide(e.moveTo(r), sc)
	if e.Move == rules.MoveResend && r.e != nil {
		r.e.prev = e
		c.refresh(r.e, sc)
	}
}

// refresh recomputes e's attempt (and what depends on it) from the
// failure it resent, then its verdict, and passes the change on along a
// chain of resends.
func (c *cardBuilder) refresh(e *entry, sc *Scenario) {
	e.Attempt = 1
	if e.prev != nil {
		e.Attempt = e.prev.Attempt + 1
	}
	e.sit.RetriesExhausted = e.sit.Category == rules.Transient && e.Attempt > rules.MaxRetries
	e.Truth.RetriesExhausted = e.sit.RetriesExhausted
	if rec, ok := rules.Recommend(e.sit); ok {
		e.BestAction = rec.Best
	}
	if e.move != nil {
		e.decide(e.moveTo(e.move), sc)
		if e.Move == rules.MoveResend && e.move.e != nil && e.move.e.prev == e {
			c.refresh(e.move.e, sc)
		}
	}
}

// moveTo reads the call r as the move made after e's result.
func (e *entry) moveTo(r *callRec) rules.Observed {
	wait := math.Max(r.received.Sub(e.call.sent).Seconds(), 0)
	o := rules.Observed{WaitSeconds: wait, RetryAfterSeconds: e.retryAfter, Tool: r.tool}
	switch {
	case e.same(r) && e.Truth.ProtocolCode == rules.HeaderMismatchCode && !headerMismatch(r.class):
		// The transport refused the headers, not the body: the same body
		// that now gets through was sent with its headers fixed.
		o.Move = rules.MoveRebuild
	case e.same(r):
		o.Move, o.Resend = rules.MoveResend, e.Attempt
		if e.retryAfter > 0 && r.class != nil {
			refused := r.class.Meta.RetryAfterSeconds != nil
			o.RefusedAgain = &refused
		}
	case r.tool == e.Tool && addsConfirmation(e.Arguments, r.args):
		o.Move = rules.MoveConfirm
	case r.tool == e.Tool:
		o.Move = rules.MoveChangeArgs
	case r.tool == mockserver.EscalationTool:
		o.Move = rules.MoveEscalate
	default:
		o.Move = rules.MoveOtherTool
	}
	return o
}

func headerMismatch(cl *rules.Classification) bool {
	return cl != nil && cl.Layer == rules.LayerProtocol && cl.ProtocolCode == rules.HeaderMismatchCode
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

// finish ends the card at now. A failure still waiting for a move is
// "stopped" (the client made no further call) when the client ended its
// session, or when the server stopped long after the result (past
// rules.MoveWindow); when the server stopped sooner, its move was cut
// off: it stays pending, marked "server stopped".
func (c *cardBuilder) finish(serverStopped bool, now time.Time) {
	still := c.open[:0]
	for _, e := range c.open {
		waited := now.Sub(e.call.sent).Seconds()
		if serverStopped && waited < rules.MoveWindow(e.sit, e.Attempt, e.retryAfter) {
			e.CutOff = true
			still = append(still, e)
			continue
		}
		e.decide(rules.Observed{Move: rules.MoveStop}, nil)
	}
	c.open = still
}

// view is the card at time now (pending entries show the wait so far).
func (c *cardBuilder) view(now time.Time) Card {
	card := Card{Calls: c.calls, Entries: make([]Entry, 0, len(c.entries)), Waits: []float64{}}
	for _, e := range c.entries {
		en := e.Entry
		switch {
		case en.Pending:
			card.Pending++
			w := math.Round(math.Max(now.Sub(e.call.sent).Seconds(), 0)*10) / 10
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
