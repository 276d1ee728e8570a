package quiz

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Kind says where an item comes from.
type Kind string

const (
	// KindQuestion is an authored question from assets/questions.
	KindQuestion Kind = "question"
	// KindClassify shows a scenario's raw response; the learner names the
	// layer, the category and isRetryable. Scored by sim/rules.Classify.
	KindClassify Kind = "classify"
	// KindNextAction asks for the recovery action (LESSON-RULES §8).
	// Scored by sim/rules.Score.
	KindNextAction Kind = "next-action"
	// KindSpotDefects shows a bad-style response; the learner marks what is
	// wrong. Scored by sim/grade.
	KindSpotDefects Kind = "spot-defects"
)

// Choice is one option of a part, with the explanation shown after
// answering.
type Choice struct {
	Text        string
	Explanation string
	Correct     bool
}

// Part is one multiple-choice question inside an item. A drill may have
// several (classify asks for layer, category and isRetryable).
type Part struct {
	Prompt  string
	Choices []Choice
	Multi   bool // choose all that apply
	// AnyOf marks a single-choice part with several right answers (the
	// best recovery action and the acceptable ones): one correct choice
	// is a right answer.
	AnyOf bool
}

// CorrectSet returns the indexes of the correct choices.
func (p Part) CorrectSet() []int {
	var out []int
	for i, c := range p.Choices {
		if c.Correct {
			out = append(out, i)
		}
	}
	return out
}

// Check reports whether exactly the correct choices were chosen (or, for
// an AnyOf part, one correct choice).
func (p Part) Check(chosen []int) bool {
	if p.AnyOf {
		return len(chosen) == 1 && chosen[0] >= 0 && chosen[0] < len(p.Choices) && p.Choices[chosen[0]].Correct
	}
	got := append([]int(nil), chosen...)
	sort.Ints(got)
	got = slices.Compact(got)
	return slices.Equal(got, p.CorrectSet())
}

// Item is one thing to answer in a session: an authored question or a
// drill generated from a scenario.
type Item struct {
	ID         string
	Kind       Kind
	Topic      string
	Rule       string // LESSON-RULES section
	Difficulty int
	Stem       string
	// Exhibit is the raw envelope a drill shows (pretty JSON), if any;
	// ExhibitTitle says what it is.
	Exhibit      string
	ExhibitTitle string
	Parts        []Part
	// Scenario is the lab scenario a drill (or a citing question) is about.
	Scenario string
	// Story names the facts the stem tells (a question's story, a drill's
	// scenario's story); a session draws at most StoryCap items of one
	// story. "" is a story of its own for every item.
	Story string
	// Customers are the recurring customers the item's text names (ids of
	// [Customers], set by NewPool): two items about one customer share
	// facts across stories, so StoryCap counts each customer as a story.
	Customers []string
	// Concepts are the LESSON-RULES rules an authored question tests
	// (Question.Concepts, the tested rule first); a session keeps an item
	// that tests a rule apart from any that tests or shows it (clash).
	// Drills have none.
	Concepts []string
	// Apart are the ids of items a session never draws with this one
	// (Question.Apart), in either direction.
	Apart []string
	// Trap is the misconception an authored question tests (for the
	// teacher's key; never shown while answering).
	Trap string
	// After is a closing note shown with the explanations (a drill's
	// takeaway).
	After string
}

// Answer is the learner's choices for each part of an item.
type Answer [][]int

// Check reports whether every part was answered correctly.
func (it *Item) Check(a Answer) bool {
	if len(a) != len(it.Parts) {
		return false
	}
	for i, p := range it.Parts {
		if !p.Check(a[i]) {
			return false
		}
	}
	return true
}

// Fits reports whether answer a has the shape of it (nil, or one choice
// list per part, each index one of that part's choices): an answer read
// from a progress file edited by hand, or kept from before the item
// changed, must not point past its choices.
func (it *Item) Fits(a Answer) bool {
	if a == nil {
		return true
	}
	if len(a) != len(it.Parts) {
		return false
	}
	for i, picks := range a {
		for _, c := range picks {
			if c < 0 || c >= len(it.Parts[i].Choices) {
				return false
			}
		}
	}
	return true
}

// Complete reports whether every part has at least one choice.
func (it *Item) Complete(a Answer) bool {
	if len(a) != len(it.Parts) {
		return false
	}
	for _, c := range a {
		if len(c) == 0 {
			return false
		}
	}
	return true
}

// FromQuestion turns an authored question into an item.
func FromQuestion(q *Question) *Item {
	correct := map[int]bool{}
	for _, i := range q.Correct() {
		correct[i] = true
	}
	p := Part{Multi: q.Multi}
	if q.Multi && !strings.Contains(strings.ToLower(q.Stem), "all that apply") {
		p.Prompt = "Choose all that apply."
	}
	for i, o := range q.Options {
		p.Choices = append(p.Choices, Choice{Text: strings.TrimSpace(o.Text), Explanation: strings.TrimSpace(o.Explanation), Correct: correct[i]})
	}
	return &Item{ID: q.ID, Kind: KindQuestion, Topic: q.Topic, Rule: q.Rule, Difficulty: q.Difficulty,
		Stem: strings.TrimSpace(q.Stem), Parts: []Part{p}, Scenario: q.Scenario, Story: q.StoryOf(), Concepts: q.Concepts, Apart: q.Apart, Trap: strings.TrimSpace(q.Trap)}
}

// Pool is every item a session can draw from.
type Pool struct {
	Items []*Item
	byID  map[string]*Item
}

// NewPool indexes items by id. Duplicate ids are an error.
func NewPool(items ...[]*Item) (*Pool, error) {
	p := &Pool{byID: map[string]*Item{}}
	for _, list := range items {
		for _, it := range list {
			if _, dup := p.byID[it.ID]; dup {
				return nil, fmt.Errorf("two items share the id %q", it.ID)
			}
			p.byID[it.ID] = it
			if it.Customers == nil {
				it.Customers = CustomersIn(it)
			}
			p.Items = append(p.Items, it)
		}
	}
	return p, nil
}

// Get returns the item with that id.
func (p *Pool) Get(id string) (*Item, bool) {
	it, ok := p.byID[id]
	return it, ok
}

// Filter returns the items on a topic ("" = all) of the given kinds (none
// = all).
func (p *Pool) Filter(topic string, kinds ...Kind) []*Item {
	var out []*Item
	for _, it := range p.Items {
		if topic != "" && it.Topic != topic {
			continue
		}
		if len(kinds) > 0 && !slices.Contains(kinds, it.Kind) {
			continue
		}
		out = append(out, it)
	}
	return out
}

// Customers are the people the bank and the lab's scenarios come back to
// in more than one story, by id and the name a text calls them. Their
// facts (an order number, a refund, a role) carry from one story to the
// next, so a session counts each as a story of its own (StoryCap).
var Customers = []struct{ ID, Name string }{
	{"dana", "Dana"},
	{"priya", "Priya"},
	{"sam", "Sam"},
	{"felix", "Felix"},
}

var customerPattern = func() *regexp.Regexp {
	var names []string
	for _, c := range Customers {
		names = append(names, regexp.QuoteMeta(c.Name))
	}
	return regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`)
}()

// CustomersIn returns the ids of the [Customers] the item's stem, exhibit
// or choices name, in catalogue order.
func CustomersIn(it *Item) []string {
	text := it.Stem + "\n" + it.Exhibit
	for _, p := range it.Parts {
		text += "\n" + p.Prompt
		for _, c := range p.Choices {
			text += "\n" + c.Text
		}
	}
	found := map[string]bool{}
	for _, m := range customerPattern.FindAllString(text, -1) {
		found[m] = true
	}
	out := []string{}
	for _, c := range Customers {
		if found[c.Name] {
			out = append(out, c.ID)
		}
	}
	return out
}
