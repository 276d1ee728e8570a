package walkthrough

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/errorlab/errorlab/assets"
	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// Limits a walkthrough file is held to.
const (
	// MaxMinutes bounds the planned length.
	MaxMinutes = 240
	// MaxSteps bounds the number of steps.
	MaxSteps = 60
	// MaxTextChars bounds a step's text: it is shown large, at 80x24.
	MaxTextChars = 600
	// MaxNotesChars bounds a step's presenter notes.
	MaxNotesChars = 2000
)

// Subdir is where `--content DIR` keeps walkthroughs: DIR/walkthroughs,
// beside the scenario files at the top of DIR.
const Subdir = scenarios.WalkthroughsDir

const embeddedLabel = "embedded:walkthroughs"

// Default loads the walkthroughs embedded in the binary against a
// catalogue and a question bank (nil: the built-in ones). Every file is
// decoded strictly and its fields and names are checked; the checks an
// outside file also gets (scenarios.CheckYAMLText and each expect run
// against the engine) are left to `go test`, which loads the same files
// with [LoadFS].
func Default(cat *scenarios.Catalog, bank *quiz.Bank) (*Set, error) {
	sub, err := fs.Sub(assets.FS, Subdir)
	if err != nil {
		return nil, err
	}
	return load(sub, embeddedLabel, cat, bank, false)
}

// LoadFS reads every *.yaml and *.yml file at the top of fsys, validates
// each walkthrough against cat and bank (nil: the built-in ones),
// including every expect against the engine, and returns them in file
// order. label prefixes file names in problems. When anything is wrong
// the error is a *scenarios.LoadError listing every problem as
// file:line:col, and nothing is returned.
func LoadFS(fsys fs.FS, label string, cat *scenarios.Catalog, bank *quiz.Bank) (*Set, error) {
	return load(fsys, label, cat, bank, true)
}

// Load returns the built-in walkthroughs overlaid with those of
// dir/walkthroughs when dir is not empty (the `--content DIR` layout): a
// walkthrough there replaces the built-in one with the same id, a new id
// is added. A dir without a walkthroughs directory adds nothing. If
// anything there is wrong, nothing loads.
func Load(dir string, cat *scenarios.Catalog, bank *quiz.Bank) (*Set, error) {
	base, err := Default(cat, bank)
	if err != nil || dir == "" {
		return base, err
	}
	if err := scenarios.IsContentDir(dir); err != nil {
		return nil, err
	}
	sub := filepath.Join(dir, Subdir)
	info, err := os.Stat(sub)
	if errors.Is(err, fs.ErrNotExist) {
		return base, nil
	}
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory: walkthroughs go in %s/*.yaml", sub, sub)
	}
	extra, err := LoadFS(os.DirFS(sub), sub, cat, bank)
	if err != nil {
		return nil, err
	}
	merged := newSet()
	for _, w := range scenarios.Overlay(base.Walkthroughs, extra.Walkthroughs, func(w *Walkthrough) string { return w.ID }) {
		merged.add(w)
	}
	return merged, nil
}

// ValidateDir checks the walkthrough files of dir on their own (no
// overlay), with every check an outside file gets, and returns the
// problems (empty when all is well) and the number of walkthroughs. A dir
// with no *.yaml of its own but a walkthroughs directory (the `--content`
// layout) is checked there.
func ValidateDir(dir string, cat *scenarios.Catalog, bank *quiz.Bank) ([]scenarios.Problem, int, error) {
	if err := scenarios.IsContentDir(dir); err != nil {
		return nil, 0, err
	}
	if files, err := scenarios.ContentFiles(os.DirFS(dir)); err == nil && len(files) == 0 {
		if info, err := os.Stat(filepath.Join(dir, Subdir)); err == nil && info.IsDir() {
			dir = filepath.Join(dir, Subdir)
		}
	}
	set, err := LoadFS(os.DirFS(dir), dir, cat, bank)
	var le *scenarios.LoadError
	if errors.As(err, &le) {
		return le.Problems, 0, nil
	}
	if err == nil && filepath.Base(filepath.Clean(dir)) != Subdir {
		// --content DIR reads DIR/walkthroughs/*.yaml, and a *.yaml at
		// DIR's root as a scenario: say so rather than pass what will not load.
		var ps []scenarios.Problem
		for _, w := range set.Walkthroughs {
			ps = append(ps, scenarios.Problem{File: w.File, Msg: fmt.Sprintf("a walkthrough at the root of the content directory: --content %s reads walkthroughs from %s/*.yaml, and this file as a scenario; move it there", dir, filepath.Join(dir, Subdir))})
		}
		return ps, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	return nil, len(set.Walkthroughs), nil
}

// load is LoadFS; with full false (the embedded files) it skips
// CheckYAMLText and the engine.
func load(fsys fs.FS, label string, cat *scenarios.Catalog, bank *quiz.Bank, full bool) (*Set, error) {
	var err error
	if cat == nil {
		if cat, err = scenarios.Default(); err != nil {
			return nil, err
		}
	}
	if bank == nil {
		if bank, err = quiz.DefaultBank(); err != nil {
			return nil, err
		}
	}
	files, err := scenarios.ContentFiles(fsys)
	if err != nil {
		return nil, fmt.Errorf("cannot read the directory %s: %w", label, err)
	}
	if len(files) == 0 {
		return nil, &scenarios.LoadError{Problems: []scenarios.Problem{{File: label, Msg: "no *.yaml walkthrough files here"}}}
	}
	set := newSet()
	var problems []scenarios.Problem
	first := map[string]string{}
	for _, name := range files {
		file := path.Join(label, name)
		var w Walkthrough
		data, ps := scenarios.DecodeContentFile(fsys, name, file, full, &w)
		if len(ps) == 0 {
			w.File = file
			c := checker{file: file, data: data, cat: cat, bank: bank}
			c.walkthrough(&w)
			if full && len(c.problems) == 0 {
				c.engine(&w)
			}
			ps = c.problems
		}
		if len(ps) > 0 {
			problems = append(problems, ps...)
			continue
		}
		if prev, dup := first[w.ID]; dup {
			problems = append(problems, scenarios.ProblemAt(file, data, "$.id", "duplicate walkthrough id %q (first defined in %s)", w.ID, prev))
			continue
		}
		first[w.ID] = file
		set.add(&w)
	}
	if len(problems) > 0 {
		return nil, &scenarios.LoadError{Problems: problems}
	}
	return set, nil
}

// checker collects the problems of one file.
type checker struct {
	file     string
	data     []byte
	cat      *scenarios.Catalog
	bank     *quiz.Bank
	problems []scenarios.Problem
}

func (c *checker) bad(p, msg string, a ...any) {
	c.problems = append(c.problems, scenarios.ProblemAt(c.file, c.data, p, msg, a...))
}

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
var sectionPattern = regexp.MustCompile(`^§[1-9]$`)

func (c *checker) walkthrough(w *Walkthrough) {
	if !idPattern.MatchString(w.ID) {
		c.bad("$.id", "id %q must start with a letter and hold only lower-case letters, digits and dashes, e.g. empty-is-not-an-error", w.ID)
	}
	if strings.TrimSpace(w.Title) == "" {
		c.bad("$.title", "title is missing")
	}
	if strings.TrimSpace(w.Summary) == "" {
		c.bad("$.summary", "summary is missing: one or two sentences saying what the room will see")
	}
	if w.Minutes < 1 || w.Minutes > MaxMinutes {
		c.bad("$.minutes", "minutes %d must be the planned length in whole minutes, 1 to %d", w.Minutes, MaxMinutes)
	}
	if len(w.Topics) == 0 {
		c.bad("$.topics", "topics is missing: list topic ids or LESSON-RULES sections, e.g. [empty, \"§4\"]")
	}
	for i, t := range w.Topics {
		if !knownTopic(t) {
			c.bad(fmt.Sprintf("$.topics[%d]", i), "unknown topic %q: use a LESSON-RULES section (§1 to §9) or one of %s", t, strings.Join(topicIDs(), ", "))
		}
	}
	switch {
	case len(w.Steps) == 0:
		c.bad("$.steps", "a walkthrough needs steps")
	case len(w.Steps) > MaxSteps:
		c.bad("$.steps", "%d steps is more than a class can follow: at most %d", len(w.Steps), MaxSteps)
	}
	for i, st := range w.Steps {
		if st == nil {
			c.bad(fmt.Sprintf("$.steps[%d]", i), "step %d is empty: give it a kind", i+1)
			continue
		}
		c.step(w, i, st)
	}
}

// knownTopic accepts the scenarios' and the quiz's topic ids and the
// LESSON-RULES sections.
func knownTopic(t string) bool {
	if sectionPattern.MatchString(t) {
		return true
	}
	for _, id := range topicIDs() {
		if id == t {
			return true
		}
	}
	return false
}

func topicIDs() []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range scenarios.Topics {
		out, seen[t.ID] = append(out, t.ID), true
	}
	for _, t := range quiz.Topics {
		if !seen[t.ID] {
			out, seen[t.ID] = append(out, t.ID), true
		}
	}
	return out
}

// fieldsOf says which optional fields a kind takes, besides kind, title
// and notes.
var fieldsOf = map[Kind][]string{
	KindNarration: {"text"},
	KindTakeaway:  {"text"},
	KindLiveCall:  {"text", "scenario", "style", "revision", "expect"},
	KindCompare:   {"text", "scenario", "bad", "revision", "expect", "expectBad"},
	KindAgents:    {"text", "scenario", "revision", "coordinator", "expect"},
	KindQuestion:  {"question", "inline"},
}

func (c *checker) step(w *Walkthrough, i int, st *Step) {
	p := fmt.Sprintf("$.steps[%d]", i)
	allowed, ok := fieldsOf[st.Kind]
	if !ok {
		names := make([]string, len(Kinds))
		for i, k := range Kinds {
			names[i] = string(k)
		}
		if st.Kind == "" {
			c.bad(p, "step %d has no kind: use one of %s", i+1, strings.Join(names, ", "))
		} else {
			c.bad(p+".kind", "unknown step kind %q: use one of %s", st.Kind, strings.Join(names, ", "))
		}
		return
	}
	set := map[string]bool{
		"text": st.Text != "", "scenario": st.Scenario != "", "style": st.Style != "", "bad": st.Bad != "",
		"revision": st.Revision != "", "coordinator": st.Coordinator, "question": st.Question != "",
		"inline": st.Inline != nil, "expect": st.Expect != nil, "expectBad": st.ExpectBad != nil,
	}
	for _, f := range []string{"text", "scenario", "style", "bad", "revision", "coordinator", "question", "inline", "expect", "expectBad"} {
		if set[f] && !contains(allowed, f) {
			c.bad(p+"."+f, "a %s step does not take %s (it takes %s, title and notes)", st.Kind, f, strings.Join(allowed, ", "))
		}
	}
	if n := len([]rune(strings.TrimSpace(st.Text))); n > MaxTextChars {
		c.bad(p+".text", "text is %d characters: a step is shown large on a projector, so keep it under %d", n, MaxTextChars)
	}
	if n := len([]rune(st.Notes)); n > MaxNotesChars {
		c.bad(p+".notes", "notes are %d characters; keep presenter notes under %d", n, MaxNotesChars)
	}
	switch st.Kind {
	case KindNarration, KindTakeaway:
		if strings.TrimSpace(st.Text) == "" {
			c.bad(p, "a %s step needs text", st.Kind)
		}
	case KindLiveCall, KindCompare:
		if s := c.scenario(p, st); s != nil {
			c.revision(p, st, s)
			if st.Kind == KindLiveCall {
				c.liveStyle(p, st, s)
				c.expectResponse(p+".expect", st.Expect)
			} else {
				c.badStyle(p, st, s)
				c.expectResponse(p+".expect", st.Expect)
				c.expectResponse(p+".expectBad", st.ExpectBad)
			}
		}
	case KindAgents:
		c.agents(p, st)
	case KindQuestion:
		c.question(w, i, p, st)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// scenario resolves a step's scenario id.
func (c *checker) scenario(p string, st *Step) *scenarios.Scenario {
	if st.Scenario == "" {
		c.bad(p, "a %s step needs a scenario id", st.Kind)
		return nil
	}
	s, ok := c.cat.Get(st.Scenario)
	if !ok {
		c.bad(p+".scenario", "unknown scenario %q (closest: %s)", st.Scenario, strings.Join(c.cat.Closest(st.Scenario, 3), ", "))
		return nil
	}
	return s
}

// revision checks and resolves a step's revision (default: the
// scenario's own).
func (c *checker) revision(p string, st *Step, s *scenarios.Scenario) {
	if st.Revision == "" {
		st.Revision = s.Revision()
		return
	}
	if _, err := rules.ParseRevision(string(st.Revision)); err != nil {
		c.bad(p+".revision", "%v", err)
	}
}

// offered lists a scenario's styles for messages.
func offered(s *scenarios.Scenario) string {
	names := make([]string, len(s.Styles))
	for i, st := range s.Styles {
		names[i] = string(st)
	}
	return strings.Join(names, ", ")
}

// liveStyle resolves a live_call's style: good (the default), bad (the
// scenario's main bad style) or a style the scenario offers.
func (c *checker) liveStyle(p string, st *Step, s *scenarios.Scenario) {
	switch st.Style {
	case "", mockserver.StyleGood:
		st.Style = mockserver.StyleGood
		return
	case "bad":
		if b := s.BadStyle(); b != "" {
			st.Style = b
			return
		}
		c.bad(p+".style", "scenario %s offers no bad style (styles: %s)", s.ID, offered(s))
		return
	}
	c.offeredStyle(p+".style", st.Style, s)
}

// badStyle resolves a compare step's bad style (default: the scenario's
// main bad style).
func (c *checker) badStyle(p string, st *Step, s *scenarios.Scenario) {
	switch st.Bad {
	case "":
		if st.Bad = s.BadStyle(); st.Bad == "" {
			c.bad(p+".scenario", "scenario %s offers only the good style, so there is nothing to compare: pick a scenario with a bad style", s.ID)
		}
		return
	case mockserver.StyleGood:
		c.bad(p+".bad", "bad must be one of the scenario's bad styles, not good (styles: %s)", offered(s))
		return
	}
	c.offeredStyle(p+".bad", st.Bad, s)
}

func (c *checker) offeredStyle(p string, style mockserver.Style, s *scenarios.Scenario) {
	if _, err := mockserver.ParseStyle(string(style)); err != nil {
		c.bad(p, "unknown style %q: scenario %s offers %s (or bad, for its main bad style)", style, s.ID, offered(s))
		return
	}
	if !s.HasStyle(style) {
		c.bad(p, "scenario %s does not offer style %s (styles: %s)", s.ID, style, offered(s))
	}
}

// expectResponse checks the shape of a response claim.
func (c *checker) expectResponse(p string, e *Expect) {
	if e == nil {
		return
	}
	if e.NaiveCalls != 0 || e.InformedCalls != 0 || e.Status != "" || e.CoordinatorAction != "" {
		c.bad(p, "naiveCalls, informedCalls, status and coordinatorAction are claims about agents: an agents step takes them")
	}
	switch e.Layer {
	case rules.LayerProtocol, rules.LayerExecution, rules.LayerSuccess:
	case "":
		c.bad(p, "expect needs a layer: protocol, execution or success")
	default:
		c.bad(p+".layer", "layer %q must be protocol, execution or success", e.Layer)
	}
	if e.ErrorCategory == "none" {
		e.ErrorCategory = "" // the messages say "not none": the claim of no category
	}
	if e.ErrorCategory != "" && !e.ErrorCategory.Valid() {
		c.bad(p+".errorCategory", "errorCategory %q must be transient, validation, business or permission (or none, for no category)", e.ErrorCategory)
	}
	if e.Layer == rules.LayerProtocol && e.ProtocolCode == 0 {
		c.bad(p, "a protocol error claim needs its protocolCode, e.g. -32602")
	}
	if e.Layer != rules.LayerProtocol && e.ProtocolCode != 0 {
		c.bad(p+".protocolCode", "protocolCode belongs to the protocol layer")
	}
}

// agents checks an agents step: a scenario or the afternoon series; with
// coordinator, a scenario a subagent can be given.
func (c *checker) agents(p string, st *Step) {
	if e := st.Expect; e != nil {
		if e.Layer != "" || e.ErrorCategory != "" || e.IsRetryable != nil || e.ProtocolCode != 0 || e.Empty {
			c.bad(p+".expect", "layer, errorCategory, isRetryable, protocolCode and empty are claims about one response: a live_call or compare step takes them")
		}
		if st.Coordinator && (e.NaiveCalls != 0 || e.InformedCalls != 0) {
			c.bad(p+".expect", "a coordinator run has no naive or informed agent: claim status (and coordinatorAction) instead")
		}
		if !st.Coordinator && (e.Status != "" || e.CoordinatorAction != "") {
			c.bad(p+".expect", "status and coordinatorAction are claims about a coordinator run: add coordinator: true")
		}
		if e.Status != "" && e.Status != "complete" && e.Status != "partial" {
			c.bad(p+".expect.status", "status %q must be complete or partial", e.Status)
		}
		if e.CoordinatorAction != "" {
			if _, err := rules.ParseAction(string(e.CoordinatorAction)); err != nil {
				c.bad(p+".expect.coordinatorAction", "%v", err)
			}
		}
	}
	if st.Scenario == scenarios.Afternoon.ID {
		if st.Coordinator {
			c.bad(p+".coordinator", "%s is a series of four scenarios; a coordinator run plays one scenario as a subagent job", st.Scenario)
		}
		if st.Revision != "" {
			c.bad(p+".revision", "the series %s plays each scenario at its own revision: leave out revision", st.Scenario)
		}
		if _, _, err := c.cat.SeriesTasks(st.Scenario); err != nil {
			c.bad(p+".scenario", "%v", err)
		}
		return
	}
	if st.Scenario == "" {
		c.bad(p, "an agents step needs a scenario id (or %s, the afternoon series)", scenarios.Afternoon.ID)
		return
	}
	s, ok := c.cat.Get(st.Scenario)
	if !ok {
		ids := append(c.cat.IDs(), scenarios.Afternoon.ID)
		c.bad(p+".scenario", "unknown scenario %q (closest: %s)", st.Scenario, strings.Join(scenarios.ClosestIDs(st.Scenario, ids, 3), ", "))
		return
	}
	c.revision(p, st, s)
	if st.Coordinator {
		if _, err := s.Delegation(); err != nil {
			c.bad(p+".scenario", "%v", err)
		}
	}
}

// question resolves a bank question or checks an inline one with the
// quiz's own validator.
func (c *checker) question(w *Walkthrough, i int, p string, st *Step) {
	switch {
	case st.Question != "" && st.Inline != nil:
		c.bad(p+".question", "a question step has a question id or an inline question, not both")
	case st.Question != "":
		if _, ok := c.bank.Get(st.Question); !ok {
			ids := make([]string, len(c.bank.Questions))
			for i, q := range c.bank.Questions {
				ids[i] = q.ID
			}
			c.bad(p+".question", "unknown question id %q (closest: %s; `errorlab questions list` shows them all)", st.Question, strings.Join(scenarios.ClosestIDs(st.Question, ids, 3), ", "))
		}
	case st.Inline != nil:
		q := st.Inline
		if q.ID == "" {
			q.ID = fmt.Sprintf("%s-step-%d", w.ID, i+1)
		}
		q.File = c.file
		quiz.ValidateQuestion(q, func(field, msg string, a ...any) { c.bad(p+".inline"+field, msg, a...) })
		if q.Scenario != "" {
			if _, ok := c.cat.Get(q.Scenario); !ok {
				c.bad(p+".inline.scenario", "the question cites scenario %q, which does not exist (closest: %s)", q.Scenario, strings.Join(c.cat.Closest(q.Scenario, 3), ", "))
			}
		}
	default:
		c.bad(p, "a question step needs a question id from the bank (question: ID) or an inline question (inline: stem, options, answer, ...)")
	}
}
