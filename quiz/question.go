package quiz

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/errorlab/errorlab/assets"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
)

// Topic is a question topic with the minimum number of authored questions
// the bank must hold on it, and its weight in a mock exam.
type Topic struct {
	ID      string
	Title   string
	Section string
	Minimum int
	// Weight is the topic's share of a mock exam, in exam questions out
	// of 30 (the weights add up to 30): an exam of N questions gives the
	// topic about N*Weight/30 of them.
	Weight int
}

// Topics lists the question topics in the order results show them.
var Topics = []Topic{
	{"layers", "Two layers: protocol vs execution", "§1", 8, 4},
	{"categories", "The four categories", "§2", 12, 5},
	{"retryable", "What isRetryable means", "§2", 8, 3},
	{"empty", "Valid empty vs access failure", "§4", 8, 4},
	{"propagation", "Subagent recovery and propagation", "§5", 8, 3},
	{"metadata", "Metadata, structuredContent, outputSchema", "§3", 8, 3},
	{"safety", "What is safe to show the model", "§6", 10, 2},
	{"spellings", "One flag, several spellings", "§7", 10, 2},
	{"revisions", "Spec revisions: SEP-1303, 2026-07-28", "§1", 10, 2},
	{"judgement", "Judgement on the decision table", "§9", 10, 2},
}

// TopicTitle returns a topic's title, or the id when unknown.
func TopicTitle(id string) string {
	for _, t := range Topics {
		if t.ID == id {
			return t.Title
		}
	}
	return id
}

// Option is one answer choice with the explanation of why it is right or
// wrong. Claim, optional, states what the option asserts about a cited
// scenario so a test can check the key against sim/rules.
type Option struct {
	Text        string `yaml:"text" json:"text"`
	Explanation string `yaml:"explanation" json:"explanation"`
	Claim       *Claim `yaml:"claim,omitempty" json:"claim,omitempty"`
}

// Claim is what an option asserts about the scenario its question cites:
// the recovery action to take, the category, the layer, or isRetryable.
type Claim struct {
	Action      rules.Action   `yaml:"action,omitempty" json:"action,omitempty"`
	Category    rules.Category `yaml:"category,omitempty" json:"category,omitempty"`
	Layer       rules.Layer    `yaml:"layer,omitempty" json:"layer,omitempty"`
	IsRetryable *bool          `yaml:"isRetryable,omitempty" json:"isRetryable,omitempty"`
}

// Question is one authored exam-style question.
type Question struct {
	ID         string   `yaml:"id" json:"id"`
	Topic      string   `yaml:"topic" json:"topic"`
	Difficulty int      `yaml:"difficulty" json:"difficulty"` // 1 easy, 2 medium, 3 hard
	Stem       string   `yaml:"stem" json:"stem"`
	Options    []Option `yaml:"options" json:"options"`
	// Answer is the letter of the correct option (A-D); for a multi-select
	// question, Answers lists every correct letter and Multi is true.
	Answer   string   `yaml:"answer,omitempty" json:"answer,omitempty"`
	Answers  []string `yaml:"answers,omitempty" json:"answers,omitempty"`
	Multi    bool     `yaml:"multi,omitempty" json:"multi,omitempty"`
	Rule     string   `yaml:"rule" json:"rule"`                             // the LESSON-RULES section, e.g. "§2"
	Scenario string   `yaml:"scenario,omitempty" json:"scenario,omitempty"` // a lab scenario the question is about
	// Trap names the misconception the question tests: the wrong belief a
	// half-prepared learner holds, which its distractors are built on.
	Trap string `yaml:"trap,omitempty" json:"trap,omitempty"`
	// Story names the situation the stem tells (a customer, a product, a
	// system: "dana-desk-refund", "clinic-booking"), as a lowercase slug.
	// Questions that share a story share facts, so a session draws at most
	// [StoryCap] of them. Empty means the cited scenario's id, if any.
	Story string `yaml:"story,omitempty" json:"story,omitempty"`
	// Concepts names the rule(s) of LESSON-RULES the question tests, as ids
	// of the [Concepts] catalogue (one to three, the key's rule first; the
	// others are rules a stem or option shows, which would hand another
	// question its answer).
	// A question that shows the rule another tests hands it the answer, so
	// a session keeps them apart (see clash, in session.go).
	Concepts []string `yaml:"concepts,omitempty" json:"concepts,omitempty"`
	// Apart lists the ids of questions that hand this one its answer: a
	// reader who knew nothing of MCP answered it from their text (their
	// stems show the practice this one asks about). A session never draws
	// the two together, whichever of them lists the other (issue 12: the
	// blind readers of rounds 13-15 named these pairs).
	Apart []string `yaml:"apart,omitempty" json:"apart,omitempty"`

	File string `yaml:"-" json:"-"`
	// src and idx place the question in its file for the design review.
	src []byte
	idx int
}

// StoryOf is the story a question declares, or the scenario it cites when
// it declares none ("" when neither).
func (q *Question) StoryOf() string {
	if q.Story != "" {
		return q.Story
	}
	return q.Scenario
}

// Correct returns the indexes (0-based) of the correct options.
func (q *Question) Correct() []int {
	letters := q.Answers
	if !q.Multi {
		letters = []string{q.Answer}
	}
	var out []int
	for _, l := range letters {
		if i, ok := letterIndex(l); ok {
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out
}

// IsCorrect reports whether the chosen option indexes are exactly the
// correct ones.
func (q *Question) IsCorrect(chosen []int) bool {
	want := q.Correct()
	got := append([]int(nil), chosen...)
	sort.Ints(got)
	if len(got) != len(want) {
		return false
	}
	for i := range want {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// Letter names option i (0 → "A").
func Letter(i int) string { return string(rune('A' + i)) }

func letterIndex(l string) (int, bool) {
	l = strings.ToUpper(strings.TrimSpace(l))
	if len(l) != 1 || l[0] < 'A' || l[0] > 'Z' {
		return 0, false
	}
	return int(l[0] - 'A'), true
}

// Bank is a validated set of questions.
type Bank struct {
	Questions []*Question
	byID      map[string]*Question
}

// Get returns the question with that id.
func (b *Bank) Get(id string) (*Question, bool) {
	q, ok := b.byID[id]
	return q, ok
}

// ByTopic returns the questions of one topic in bank order.
func (b *Bank) ByTopic(topic string) []*Question {
	var out []*Question
	for _, q := range b.Questions {
		if q.Topic == topic {
			out = append(out, q)
		}
	}
	return out
}

// embeddedLabel prefixes the built-in files' names in problems.
const embeddedLabel = "embedded:questions"

// DefaultBank loads the questions embedded in the binary: each file is
// decoded strictly and every question validated, which loading needs. The
// hostile-text checks an outside file gets (scenarios.CheckYAMLText) are
// left to `go test` (TestEmbeddedBankIsValid loads the same files with
// [LoadBank]): the embedded files cannot change after the build.
func DefaultBank() (*Bank, error) {
	sub, err := fs.Sub(assets.FS, "questions")
	if err != nil {
		return nil, err
	}
	return loadBank(sub, embeddedLabel, false)
}

// LoadBankDir returns the built-in bank overlaid with the questions of dir
// when dir is not empty: a question in dir replaces the built-in one with
// the same id, new ids are added. If anything in dir is wrong (including
// a cited scenario that c does not hold, when c is given), nothing is
// loaded and the error lists every problem as file:line:col.
func LoadBankDir(dir string, c *scenarios.Catalog) (*Bank, error) {
	base, err := DefaultBank()
	if err != nil || dir == "" {
		return base, err
	}
	if err := scenarios.IsContentDir(dir); err != nil {
		return nil, err
	}
	extra, err := LoadBank(os.DirFS(dir), dir)
	if err != nil {
		return nil, err
	}
	if c != nil {
		if ps := ScenarioRefs(extra, c); len(ps) > 0 {
			return nil, &BankError{Problems: ps}
		}
	}
	merged := &Bank{Questions: scenarios.Overlay(base.Questions, extra.Questions, func(q *Question) string { return q.ID }), byID: map[string]*Question{}}
	for _, q := range merged.Questions {
		merged.byID[q.ID] = q
	}
	return merged, nil
}

// QuestionProblem is one thing wrong in a question file, at a position
// (the same shape as a scenario file's problem).
type QuestionProblem = scenarios.Problem

// BankError lists every problem found; when it is returned nothing loaded.
type BankError = scenarios.LoadError

// ValidateQuestionsDir checks a directory of question files and returns
// the problems (empty when all is well) and the number of questions. On
// top of what loading checks, it runs the design review ([ReviewBank]):
// faults that do not stop the files from loading but make questions easy
// to guess.
func ValidateQuestionsDir(dir string) ([]QuestionProblem, int, error) {
	if err := scenarios.IsContentDir(dir); err != nil {
		return nil, 0, err
	}
	b, err := LoadBank(os.DirFS(dir), dir)
	var be *BankError
	if errors.As(err, &be) {
		return be.Problems, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	if c, cerr := scenarios.Default(); cerr == nil {
		if ps := ScenarioRefs(b, c); len(ps) > 0 {
			return ps, 0, nil
		}
	}
	if ps := ReviewBank(b); len(ps) > 0 {
		return ps, 0, nil
	}
	return nil, len(b.Questions), nil
}

// ScenarioRefs reports questions that cite a scenario the catalogue does
// not hold.
func ScenarioRefs(b *Bank, c *scenarios.Catalog) []QuestionProblem {
	var out []QuestionProblem
	for _, q := range b.Questions {
		if q.Scenario == "" {
			continue
		}
		if _, ok := c.Get(q.Scenario); !ok {
			out = append(out, QuestionProblem{File: q.File, Msg: fmt.Sprintf("question %s cites scenario %q, which does not exist (closest: %s)", q.ID, q.Scenario, strings.Join(c.Closest(q.Scenario, 2), ", "))})
		}
	}
	return out
}

// LoadBank reads every *.yaml file at the top of fsys (each a list of
// questions), validates them and returns the bank. Problems are reported
// as file:line:col; when there are any, nothing is returned.
func LoadBank(fsys fs.FS, label string) (*Bank, error) {
	return loadBank(fsys, label, true)
}

// loadBank is [LoadBank]; with full false (the embedded files, see
// [DefaultBank]) it skips scenarios.CheckYAMLText.
func loadBank(fsys fs.FS, label string, full bool) (*Bank, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	var files []string
	for _, e := range entries {
		if ext := path.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml") {
			files = append(files, e.Name())
		}
	}
	sort.Strings(files)
	b := &Bank{byID: map[string]*Question{}}
	var problems []QuestionProblem
	where := map[string]string{}
	for _, name := range files {
		file := path.Join(label, name)
		data, err := scenarios.ReadContentFile(fsys, name)
		if err != nil {
			problems = append(problems, QuestionProblem{File: file, Msg: err.Error()})
			continue
		}
		if full {
			if cps := scenarios.CheckYAMLText(data); len(cps) > 0 {
				for _, cp := range cps {
					problems = append(problems, QuestionProblem{File: file, Line: cp.Line, Column: cp.Column, Msg: cp.Msg})
				}
				continue
			}
		}
		var qs []*Question
		if err := yaml.UnmarshalWithOptions(data, &qs, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
			var ye yaml.Error
			if errors.As(err, &ye) && ye.GetToken() != nil {
				pos := ye.GetToken().Position
				problems = append(problems, QuestionProblem{File: file, Line: pos.Line, Column: pos.Column, Msg: scenarios.YAMLMessage(err)})
			} else {
				problems = append(problems, QuestionProblem{File: file, Msg: scenarios.YAMLMessage(err)})
			}
			continue
		}
		for i, q := range qs {
			q.File, q.src, q.idx = file, data, i
			at := func(field, msg string, a ...any) {
				line, col := scenarios.Locate(data, fmt.Sprintf("$[%d]%s", i, field))
				problems = append(problems, QuestionProblem{File: file, Line: line, Column: col, Msg: fmt.Sprintf(msg, a...)})
			}
			ValidateQuestion(q, at)
			if prev, dup := where[q.ID]; dup && q.ID != "" {
				at(".id", "duplicate question id %q (first in %s)", q.ID, prev)
				continue
			}
			where[q.ID] = file
			b.Questions = append(b.Questions, q)
			b.byID[q.ID] = q
		}
	}
	if len(problems) == 0 && len(b.Questions) == 0 {
		problems = append(problems, QuestionProblem{File: label, Msg: "no questions here: a question file is a YAML list of questions"})
	}
	if len(problems) > 0 {
		return nil, &BankError{Problems: problems}
	}
	return b, nil
}

var rulePattern = regexp.MustCompile(`^§[1-9]( §[1-9])*$`)

// ValidateQuestion checks one question exactly as the bank loader does
// (id, topic, difficulty, stem, four options each with text and an
// explanation, the answer letters, the rule section). at receives each
// problem with the field it concerns, relative to the question (".stem",
// ".options[1].explanation"), so a caller holding the question elsewhere
// in a file (a walkthrough's inline question) can place it at file:line:col.
func ValidateQuestion(q *Question, at func(field, msg string, a ...any)) {
	if q.ID == "" {
		at(".id", "question has no id")
	}
	if !knownTopic(q.Topic) {
		ids := make([]string, len(Topics))
		for i, t := range Topics {
			ids[i] = t.ID
		}
		at(".topic", "unknown topic %q: use one of %s", q.Topic, strings.Join(ids, ", "))
	}
	switch {
	case q.Difficulty == 0:
		at(".id", "question %s has no difficulty: add difficulty: 1 (easy), 2 (medium) or 3 (hard: two options are defensible until one precise rule is applied)", q.ID)
	case q.Difficulty < 1 || q.Difficulty > 3:
		at(".difficulty", "difficulty %d is out of range: use 1 (easy), 2 (medium) or 3 (hard: two options are defensible until one precise rule is applied)", q.Difficulty)
	}
	if strings.TrimSpace(q.Stem) == "" {
		at(".stem", "the stem is empty")
	}
	if len(q.Options) != 4 {
		// Go on: the other problems of the question are reported too.
		at(".options", "a question has exactly 4 options; found %d", len(q.Options))
	}
	for i, o := range q.Options {
		if strings.TrimSpace(o.Text) == "" {
			at(fmt.Sprintf(".options[%d].text", i), "option %s has no text", Letter(i))
		}
		if strings.TrimSpace(o.Explanation) == "" {
			at(fmt.Sprintf(".options[%d].explanation", i), "option %s has no explanation: every option says why it is right or wrong", Letter(i))
		}
		if o.Claim != nil && q.Scenario == "" {
			at(fmt.Sprintf(".options[%d].claim", i), "a claim needs the question to cite a scenario")
		}
	}
	switch {
	case q.Multi && (len(q.Answers) < 1 || q.Answer != ""):
		at(".answers", "a multi-select question lists one to four letters in answers (and no answer)")
	case !q.Multi && len(q.Answers) > 0:
		at(".answers", "answers is for multi-select questions: add multi: true, or give one letter in answer")
		return
	case !q.Multi && strings.TrimSpace(q.Answer) == "":
		at(".answer", "no answer given: set answer to the letter of the correct option (A to %s)", Letter(max(len(q.Options), 1)-1))
		return
	}
	letters, field := q.Answers, ".answers"
	if !q.Multi {
		letters, field = []string{q.Answer}, ".answer"
	}
	// Checked against the 4 options there must be, even when the options
	// are wrong already.
	const n = 4
	seen := map[int]bool{}
	for _, l := range letters {
		i, ok := letterIndex(l)
		switch {
		case !ok || i >= n:
			at(field, "answer %q is out of range: use a letter from A to %s", l, Letter(n-1))
		case seen[i]:
			at(field, "answer %s is listed twice", Letter(i))
		}
		seen[i] = true
	}
	if !rulePattern.MatchString(q.Rule) {
		at(".rule", "rule %q must name LESSON-RULES sections §1 to §9, e.g. \"§2\" or \"§3 §6\"", q.Rule)
	}
	seenConcept := map[string]bool{}
	for i, c := range q.Concepts {
		field := fmt.Sprintf(".concepts[%d]", i)
		if _, ok := ConceptOf(c); !ok {
			at(field, "unknown concept %q: use ids of the concept catalogue (quiz.Concepts): %s", c, conceptIDs())
		} else if seenConcept[c] {
			at(field, "concept %s is listed twice", c)
		}
		seenConcept[c] = true
	}
	if len(q.Concepts) > maxConcepts {
		at(".concepts", "%d concepts: name at most %d, the rule the key rests on first; a question that tests more rules blocks more of the bank from a session", len(q.Concepts), maxConcepts)
	}
	if q.Story != "" && !storyPattern.MatchString(q.Story) {
		at(".story", "story %q must be a lowercase slug of letters, digits and hyphens, e.g. \"dana-desk-refund\"", q.Story)
	}
}

// maxConcepts is the most concepts one question may name: the rule its key
// rests on and up to two it shows on the way (a question that sets four
// situations side by side may show three rules).
const maxConcepts = 3

var storyPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
