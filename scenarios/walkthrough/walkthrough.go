// Package walkthrough is the data side of errorlab's classroom mode: a
// walkthrough is a lesson a teacher presents to a room, step by step, in
// which every call is live (the mock server really runs it) and every
// agent really plays.
//
// A walkthrough is one YAML file in assets/walkthroughs (or, with
// `--content DIR`, in DIR/walkthroughs, where a file with a built-in id
// replaces that walkthrough and a new id is added):
//
//	id: empty-is-not-an-error       # lower-case letters, digits and dashes
//	title: Empty is not an error
//	summary: >                      # one or two sentences for the list
//	  ...
//	minutes: 15                     # the planned length, 1 to 240
//	topics: [empty, "§4"]           # topic ids (scenarios' or quiz's) or LESSON-RULES sections
//	steps:                          # 1 to 60 steps, each with a kind
//	  - kind: narration             # text (a few lines), title, notes
//	    text: ...
//	    notes: ...                  # presenter notes: the teacher's eyes only
//	  - kind: live_call             # scenario, style, revision, text, expect
//	    scenario: customer-db-unreachable
//	    style: empty_success        # good (default), bad (the scenario's main bad style) or a style it offers
//	    revision: 2025-11-25        # optional: the scenario's own revision
//	    expect: {layer: success, empty: true}
//	  - kind: compare               # the bad and the good response to the same call
//	    scenario: timeout-second-try
//	    bad: generic                # optional: the scenario's main bad style
//	    expect: {layer: execution, errorCategory: transient, isRetryable: true}
//	    expectBad: {layer: execution}
//	  - kind: agents                # the naive and the informed agent, or with
//	    scenario: four-failures     # coordinator: true a subagent and its coordinator
//	    expect: {naiveCalls: 20, informedCalls: 7}
//	  - kind: question              # a bank question by id ...
//	    question: empty-which-mistake-is-worse
//	  - kind: question              # ... or one written here, checked like bank questions
//	    inline: {topic: empty, difficulty: 2, rule: "§4", stem: ..., options: [...], answer: B}
//	  - kind: takeaway
//	    text: ...
//
// Every step takes an optional title and notes. live_call, compare and
// agents steps take an optional text (a caption) and expect: what the
// step says the engine does. When a file loads from outside the binary,
// each expect is checked against the engine (rules.Classify of the real
// exchange; the real agent runs), so a walkthrough cannot tell a room
// something the lab contradicts; `go test` does the same for the embedded
// files.
//
// Loading follows the scenario files: a file that is unreadable, holds
// control codes, anchors or unknown fields, names a scenario, style,
// revision or question that does not exist, or whose inline question is
// incomplete, is reported as file:line:col at the field concerned, and
// nothing loads. After loading, a step's Style and Revision hold the
// resolved values ("bad" becomes the scenario's bad style; an empty
// revision becomes the scenario's own).
//
// For a screen: [Reveals] splits a live call into the parts revealed one
// click at a time, with the lines of wire.Pretty to highlight; [Handout]
// writes a whole walkthrough as Markdown for the students.
package walkthrough

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// Kind is what a step does.
type Kind string

// The kinds of step.
const (
	// KindNarration is a few lines of plain text, large and centred.
	KindNarration Kind = "narration"
	// KindLiveCall makes a scenario's call in a style under a revision; the
	// request and response are revealed part by part (see [Reveals]).
	KindLiveCall Kind = "live_call"
	// KindCompare shows the bad and the good response to the same call.
	KindCompare Kind = "compare"
	// KindAgents plays the naive and the informed agent (or, with
	// Coordinator, a subagent and its coordinator), one event per click.
	KindAgents Kind = "agents"
	// KindQuestion asks the room a question; the next click reveals the
	// answer with the explanation of every option.
	KindQuestion Kind = "question"
	// KindTakeaway is the one thing to remember.
	KindTakeaway Kind = "takeaway"
)

// Kinds lists the kinds of step.
var Kinds = []Kind{KindNarration, KindLiveCall, KindCompare, KindAgents, KindQuestion, KindTakeaway}

// Walkthrough is one classroom lesson.
type Walkthrough struct {
	ID      string   `yaml:"id"`
	Title   string   `yaml:"title"`
	Summary string   `yaml:"summary"`
	Minutes int      `yaml:"minutes"`
	Topics  []string `yaml:"topics"`
	Steps   []*Step  `yaml:"steps"`

	// File is where the walkthrough was loaded from ("embedded:..." for the
	// built-in ones).
	File string `yaml:"-"`
}

// Step is one click-through unit of a walkthrough. Which fields a kind
// takes is checked when the file loads.
type Step struct {
	Kind  Kind   `yaml:"kind"`
	Title string `yaml:"title,omitempty"`
	// Text is the narration or takeaway, or a caption on a call or agents
	// step.
	Text string `yaml:"text,omitempty"`
	// Notes are the presenter's notes, never shown to the room.
	Notes string `yaml:"notes,omitempty"`

	// Scenario is the scenario id of a live_call, compare or agents step;
	// an agents step may name the afternoon series (scenarios.Afternoon).
	Scenario string `yaml:"scenario,omitempty"`
	// Style is a live_call's response style (resolved when loaded).
	Style mockserver.Style `yaml:"style,omitempty"`
	// Bad is a compare step's bad style (resolved when loaded).
	Bad mockserver.Style `yaml:"bad,omitempty"`
	// Revision is the spec revision (resolved when loaded).
	Revision rules.Revision `yaml:"revision,omitempty"`
	// Coordinator makes an agents step play the scenario as a subagent job
	// reporting to its coordinator.
	Coordinator bool `yaml:"coordinator,omitempty"`

	// Question is a question id from the bank; Inline is a question written
	// in the step. A question step has exactly one of them.
	Question string         `yaml:"question,omitempty"`
	Inline   *quiz.Question `yaml:"inline,omitempty"`

	// Expect is what the step claims the engine produces: for a live_call
	// its response, for a compare the good response (ExpectBad the bad
	// one), for agents the runs.
	Expect    *Expect `yaml:"expect,omitempty"`
	ExpectBad *Expect `yaml:"expectBad,omitempty"`
}

// Expect is what a step says the engine does, checked against the engine
// when the walkthrough loads from outside the binary (and by `go test`
// for the embedded ones).
//
// For a response (live_call, compare): Layer is required; ErrorCategory
// is compared always ("" claims that the response carries none); Empty is
// compared always; IsRetryable when given; ProtocolCode is required on
// the protocol layer.
//
// For agents: NaiveCalls and InformedCalls count the tools/calls each
// agent made (0: not claimed); with coordinator, Status is the report's
// status (complete or partial) and CoordinatorAction, when given, the
// coordinator's move.
type Expect struct {
	Layer         rules.Layer    `yaml:"layer,omitempty"`
	ErrorCategory rules.Category `yaml:"errorCategory,omitempty"`
	IsRetryable   *bool          `yaml:"isRetryable,omitempty"`
	ProtocolCode  int            `yaml:"protocolCode,omitempty"`
	Empty         bool           `yaml:"empty,omitempty"`

	NaiveCalls        int          `yaml:"naiveCalls,omitempty"`
	InformedCalls     int          `yaml:"informedCalls,omitempty"`
	Status            string       `yaml:"status,omitempty"`
	CoordinatorAction rules.Action `yaml:"coordinatorAction,omitempty"`
}

// Set is a validated collection of walkthroughs, in file order.
type Set struct {
	Walkthroughs []*Walkthrough
	byID         map[string]*Walkthrough
}

func newSet() *Set { return &Set{byID: map[string]*Walkthrough{}} }

func (s *Set) add(w *Walkthrough) {
	s.Walkthroughs = append(s.Walkthroughs, w)
	s.byID[w.ID] = w
}

// Get returns the walkthrough with that id.
func (s *Set) Get(id string) (*Walkthrough, bool) {
	w, ok := s.byID[id]
	return w, ok
}

// IDs lists the ids in order.
func (s *Set) IDs() []string {
	out := make([]string, len(s.Walkthroughs))
	for i, w := range s.Walkthroughs {
		out[i] = w.ID
	}
	return out
}

// Closest returns up to n ids nearest to id, for "did you mean" messages.
func (s *Set) Closest(id string, n int) []string { return scenarios.ClosestIDs(id, s.IDs(), n) }

// Heading is the step's title, or a heading made from its kind and what
// it shows, for lists and the handout.
func (st *Step) Heading(cat *scenarios.Catalog) string {
	if t := strings.TrimSpace(st.Title); t != "" {
		return t
	}
	name := st.Scenario
	if s, ok := cat.Get(st.Scenario); ok {
		name = s.Title
	} else if st.Scenario == scenarios.Afternoon.ID {
		name = scenarios.Afternoon.Title
	}
	switch st.Kind {
	case KindLiveCall:
		return "Live call: " + name
	case KindCompare:
		return "Bad and good: " + name
	case KindAgents:
		if st.Coordinator {
			return "Subagent and coordinator: " + name
		}
		return "Two agents: " + name
	case KindQuestion:
		return "A question for the room"
	case KindTakeaway:
		return "Takeaway"
	}
	return "Narration"
}

// Digest identifies this version of the walkthrough: a short hash of its
// steps and fields as loaded (where it was loaded from aside), so two
// views presenting the same id can tell they hold the same walkthrough.
func (w *Walkthrough) Digest() string {
	c := *w
	c.File = ""
	b, err := json.Marshal(&c)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}
