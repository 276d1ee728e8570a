// Package scenarios holds the lab's content model: a Scenario is one
// failure from the lessons (the customer's situation, the call, the fault,
// the response styles it offers, the expected classification, the best
// recovery action and feedback for every action), written as YAML in
// assets/scenarios and checked against the engine when loaded.
package scenarios

import (
	"context"
	"fmt"
	"slices"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// Topic groups scenarios in the lab list, following the lessons' sections.
type Topic struct {
	ID      string
	Title   string
	Section string
}

// Topics lists the topics in the order the lab shows them.
var Topics = []Topic{
	{"layers", "Two layers of failure", "§1"},
	{"categories", "The four categories", "§2"},
	{"metadata", "Writing the error: metadata and anti-patterns", "§3 §6"},
	{"empty", "Valid empty result or access failure", "§4"},
	{"propagation", "Subagents: recover locally, report upward", "§5"},
}

// TopicByID returns the topic with that id.
func TopicByID(id string) (Topic, bool) {
	for _, t := range Topics {
		if t.ID == id {
			return t, true
		}
	}
	return Topic{}, false
}

// Expected is the classification the good-style response must have
// (LESSON-RULES §1-§4): the truth of the scenario, whatever a bad style
// makes it look like.
type Expected struct {
	Layer              rules.Layer    `yaml:"layer" json:"layer"`
	ErrorCategory      rules.Category `yaml:"errorCategory,omitempty" json:"errorCategory,omitempty"`
	IsRetryable        *bool          `yaml:"isRetryable,omitempty" json:"isRetryable,omitempty"`
	Empty              bool           `yaml:"empty,omitempty" json:"empty,omitempty"`
	ProtocolCode       int            `yaml:"protocolCode,omitempty" json:"protocolCode,omitempty"`
	RequiresUserAction bool           `yaml:"requiresUserAction,omitempty" json:"requiresUserAction,omitempty"`
}

// RevisionOverride changes what a scenario expects under one revision, for
// the failures whose layer moved between revisions (LESSON-RULES §1).
type RevisionOverride struct {
	Expected          *Expected      `yaml:"expected,omitempty"`
	BestAction        rules.Action   `yaml:"bestAction,omitempty"`
	AcceptableActions []rules.Action `yaml:"acceptableActions,omitempty"`
	Note              string         `yaml:"note,omitempty"`
}

// Scenario is one lab exercise.
type Scenario struct {
	ID        string `yaml:"id"`
	Title     string `yaml:"title"`
	Topic     string `yaml:"topic"`
	Section   string `yaml:"section"`
	Situation string `yaml:"situation"`
	// Call is what the agent sends: a tool and its arguments, or raw bytes.
	Call wire.Call `yaml:"call"`
	// Failure is the fault the mock server injects, if any. Many failures
	// need none: the call's data produces them (a malformed id, a refund
	// past the window).
	Failure mockserver.Fault `yaml:"failure,omitempty"`
	// Styles the learner can choose; the first is "good", the second is the
	// scenario's main bad style.
	Styles []mockserver.Style `yaml:"styles"`
	// OpenStyle, when set, is the style the lab shows first: for scenarios
	// whose point is an anti-pattern ("ERROR: Permission denied" sent as a
	// success). Default good.
	OpenStyle mockserver.Style `yaml:"openStyle,omitempty"`
	// Spec is the revision the scenario opens with (default 2025-11-25).
	Spec rules.Revision `yaml:"spec,omitempty"`
	// InSubagent marks a call made by a subagent for a coordinator (§5).
	InSubagent bool `yaml:"inSubagent,omitempty"`
	// RetriesExhausted marks a transient failure that has already outlasted
	// the retry cap when the learner is asked (§5).
	RetriesExhausted bool `yaml:"retriesExhausted,omitempty"`
	// Correction is the full corrected argument set when the right input can
	// be worked out (ORD-4471x → ORD-4471); the informed agent uses it. Empty
	// means the agent has to ask the customer.
	Correction        map[string]any                      `yaml:"correction,omitempty"`
	Expected          Expected                            `yaml:"expected"`
	BestAction        rules.Action                        `yaml:"bestAction"`
	AcceptableActions []rules.Action                      `yaml:"acceptableActions,omitempty"`
	Feedback          map[rules.Action]string             `yaml:"feedback"`
	CustomerMessage   string                              `yaml:"customerMessage,omitempty"`
	Takeaway          string                              `yaml:"takeaway,omitempty"`
	Revisions         map[rules.Revision]RevisionOverride `yaml:"revisions,omitempty"`

	// File is where the scenario was loaded from ("embedded:..." for the
	// built-in catalogue).
	File string `yaml:"-"`
}

// Truth is what a scenario expects under one revision.
type Truth struct {
	Expected   Expected
	Best       rules.Action
	Acceptable []rules.Action
	Note       string
}

// TruthAt applies the revision's override, if any.
func (s *Scenario) TruthAt(rev rules.Revision) Truth {
	t := Truth{Expected: s.Expected, Best: s.BestAction, Acceptable: s.AcceptableActions}
	if o, found := s.Revisions[rev]; found {
		if o.Expected != nil {
			t.Expected = *o.Expected
		}
		if o.BestAction != "" {
			t.Best = o.BestAction
			t.Acceptable = o.AcceptableActions
		}
		t.Note = o.Note
	}
	return t
}

// SituationAt is the rules' view of the scenario's truth under a revision.
func (s *Scenario) SituationAt(rev rules.Revision) rules.Situation {
	e := s.TruthAt(rev).Expected
	return rules.Situation{
		Layer:              e.Layer,
		Category:           e.ErrorCategory,
		Empty:              e.Empty,
		RequiresUserAction: e.RequiresUserAction,
		InSubagent:         s.InSubagent,
		RetriesExhausted:   s.RetriesExhausted,
	}
}

// Revision returns the revision the scenario opens with.
func (s *Scenario) Revision() rules.Revision {
	if s.Spec == "" {
		return rules.DefaultRevision
	}
	return s.Spec
}

// BadStyle is the scenario's main bad style, or "" when it offers only
// the good one.
func (s *Scenario) BadStyle() mockserver.Style {
	for _, st := range s.Styles {
		if st != mockserver.StyleGood {
			return st
		}
	}
	return ""
}

// FirstStyle is the style the lab opens with.
func (s *Scenario) FirstStyle() mockserver.Style {
	if s.OpenStyle != "" {
		return s.OpenStyle
	}
	return mockserver.StyleGood
}

// HasStyle reports whether the scenario offers a style.
func (s *Scenario) HasStyle(st mockserver.Style) bool { return slices.Contains(s.Styles, st) }

// Layer is the scenario's expected layer at its own revision.
func (s *Scenario) Layer() rules.Layer { return s.TruthAt(s.Revision()).Expected.Layer }

// Server builds a fresh mock server injecting the scenario's failure.
func (s *Scenario) Server(style mockserver.Style, rev rules.Revision) *mockserver.Server {
	opts := mockserver.Options{Style: style, Revision: rev}
	if s.Failure.Kind != "" && s.Failure.Kind != mockserver.FaultNone && s.Call.Tool != "" {
		opts.Faults = map[string]mockserver.Fault{s.Call.Tool: s.Failure}
	}
	return mockserver.New(opts)
}

// Open starts an in-process session with a fresh server for the scenario;
// each Call on it is one attempt (a timeout that works on the second try
// works on the session's second call).
func (s *Scenario) Open(ctx context.Context, style mockserver.Style, rev rules.Revision) (*wire.Session, error) {
	return wire.Open(ctx, s.Server(style, rev), rev)
}

// Conversation makes the scenario's call on a fresh session over the real
// stdio transport and returns the whole conversation: the handshake
// (initialize, or server/discover under 2026-07-28), tools/list and the
// call, byte for byte as they crossed the pipes.
func (s *Scenario) Conversation(ctx context.Context, style mockserver.Style, rev rules.Revision) ([]wire.Message, error) {
	sess, err := wire.OpenStdio(ctx, s.Server(style, rev), rev)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", s.ID, err)
	}
	defer sess.Close()
	if _, err := sess.Call(ctx, s.Call); err != nil {
		return nil, fmt.Errorf("scenario %s: %w", s.ID, err)
	}
	return sess.Transcript(), nil
}

// Exchange makes the scenario's call once, on a fresh session.
func (s *Scenario) Exchange(ctx context.Context, style mockserver.Style, rev rules.Revision) (wire.Exchange, error) {
	sess, err := s.Open(ctx, style, rev)
	if err != nil {
		return wire.Exchange{}, fmt.Errorf("scenario %s: %w", s.ID, err)
	}
	defer sess.Close()
	return sess.Call(ctx, s.Call)
}

// Verdict is the score of a learner's choice on a scenario: the rules'
// verdict plus the scenario's own feedback for that action.
type Verdict struct {
	rules.Verdict
	Feedback string
	Note     string // the revision's note, when the answer depends on it
}

// Score grades a recovery action under a revision. The grade comes from
// sim/rules (the scenario's bestAction is checked against it when
// loaded); the feedback is the scenario's own text for that action.
func (s *Scenario) Score(rev rules.Revision, a rules.Action) Verdict {
	return s.ScoreSeen(rev, "", a)
}

// ScoreSeen is Score when the learner is looking at a response on the
// given layer (a bad style can show a protocol error or a success for a
// failure that really was a tool execution error). The grade still comes
// from what really happened, except where the rules accept a reading of
// what is seen (fix_client for a -32603 that hides a tool failure).
func (s *Scenario) ScoreSeen(rev rules.Revision, seen rules.Layer, a rules.Action) Verdict {
	sit := s.SituationAt(rev)
	if seen != sit.Layer {
		sit.Seen = seen
	}
	v := rules.Score(sit, a)
	fb := s.Feedback[a]
	if v.Grade == rules.GradeAcceptable && v.Rule.ID == rules.RuleGoError {
		fb = "" // the scenario's feedback for fix_client speaks of the good response
	}
	return Verdict{Verdict: v, Feedback: fb, Note: s.TruthAt(rev).Note}
}
