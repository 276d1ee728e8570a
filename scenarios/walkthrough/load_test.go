package walkthrough_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// small is a valid walkthrough using every kind of step; the cases below
// break one line of it at a time.
const small = `id: small-one
title: A small walkthrough
summary: Enough to load.
minutes: 5
topics: [empty, "§4"]
steps:
  - kind: narration
    text: Two kinds of nothing.
    notes: Say it slowly.
  - kind: live_call
    scenario: customer-db-unreachable
    style: empty_success
    expect: {layer: success, empty: true}
  - kind: compare
    scenario: customer-db-unreachable
    expect: {layer: execution, errorCategory: transient, isRetryable: true}
  - kind: agents
    scenario: email-with-no-account
    expect: {naiveCalls: 6}
  - kind: question
    question: empty-plain-zero
  - kind: question
    inline:
      topic: empty
      difficulty: 1
      rule: "§4"
      stem: Which is an answer?
      options:
        - text: A search that ran and matched nothing.
          explanation: Right. The query ran.
        - text: A search that never ran.
          explanation: Wrong. Nobody knows.
        - text: A timeout.
          explanation: Wrong. The query never ran.
        - text: A refused connection.
          explanation: Wrong. Nobody could look.
      answer: A
  - kind: takeaway
    text: Empty is not an error.
`

// load loads files (name → content) as a directory of walkthroughs.
func load(t *testing.T, files map[string]string) (*walkthrough.Set, error) {
	t.Helper()
	c, b := content(t)
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return walkthrough.LoadFS(fsys, "dir", c, b)
}

// problems loads one file expected to fail and returns its problems.
func problems(t *testing.T, text string) []string {
	t.Helper()
	set, err := load(t, map[string]string{"w.yaml": text})
	var le *scenarios.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("a broken walkthrough loaded (err %v)", err)
	}
	if set != nil {
		t.Fatal("a set came back with the error")
	}
	var out []string
	for _, p := range le.Problems {
		out = append(out, p.String())
	}
	return out
}

func TestSmallWalkthroughLoads(t *testing.T) {
	set, err := load(t, map[string]string{"w.yaml": small})
	if err != nil {
		t.Fatal(err)
	}
	w, ok := set.Get("small-one")
	if !ok || len(w.Steps) != 7 || w.File != "dir/w.yaml" {
		t.Fatalf("loaded %+v", w)
	}
	// Styles and revisions are resolved; the inline question gets an id.
	if st := w.Steps[1]; st.Style != mockserver.StyleEmptySuccess || st.Revision != rules.DefaultRevision {
		t.Errorf("live_call resolved to %s %s", st.Style, st.Revision)
	}
	if st := w.Steps[2]; st.Bad != mockserver.StyleEmptySuccess {
		t.Errorf("compare's bad style resolved to %q, want the scenario's main bad style", st.Bad)
	}
	if q := w.Steps[5].Inline; q == nil || q.ID != "small-one-step-6" {
		t.Errorf("inline question id %v", q)
	}
}

// Each broken line is reported at the field concerned, as file:line:col,
// in words an author can act on.
func TestLoaderMessages(t *testing.T) {
	cases := []struct {
		name, old, new string
		want           []string
	}{
		{"YAML syntax error", "minutes: 5\n", "minutes: [5\n",
			[]string{"dir/w.yaml:5:1: "}},
		{"unknown field", "    notes: Say it slowly.\n", "    notes: Say it slowly.\n    colour: red\n",
			[]string{`dir/w.yaml:10:5: unknown field "colour"`}},
		{"unknown scenario", "    scenario: email-with-no-account\n", "    scenario: email-without-account\n",
			[]string{`dir/w.yaml:18:15: unknown scenario "email-without-account" (closest: email-with-no-account`}},
		{"unknown question id", "question: empty-plain-zero", "question: empty-plain-nothing",
			[]string{`dir/w.yaml:21:15: unknown question id "empty-plain-nothing" (closest: empty-plain-zero`}},
		{"unknown style", "style: empty_success", "style: emptyish",
			[]string{`dir/w.yaml:12:12: unknown style "emptyish": scenario customer-db-unreachable offers good, empty_success, generic (or bad, for its main bad style)`}},
		{"style the scenario does not offer", "style: empty_success", "style: raw_exception",
			[]string{"dir/w.yaml:12:12: scenario customer-db-unreachable does not offer style raw_exception (styles: good, empty_success, generic)"}},
		{"bad revision", "    style: empty_success\n", "    style: empty_success\n    revision: 2025-03-26\n",
			[]string{`dir/w.yaml:13:15: unknown spec revision "2025-03-26": use one of 2025-06-18, 2025-11-25, 2026-07-28`}},
		{"inline question missing an explanation", "          explanation: Wrong. Nobody knows.\n", "",
			[]string{"dir/w.yaml:31:15: option B has no explanation: every option says why it is right or wrong"}},
		{"inline question with an answer out of range", "      answer: A\n", "      answer: F\n",
			[]string{`dir/w.yaml:37:15: answer "F" is out of range: use a letter from A to D`}},
		{"unknown kind", "  - kind: takeaway\n", "  - kind: slide\n",
			[]string{`dir/w.yaml:38:11: unknown step kind "slide": use one of narration, live_call, compare, agents, question, takeaway`}},
		{"a field the kind does not take", "    text: Two kinds of nothing.\n", "    text: Two kinds of nothing.\n    scenario: timeout-second-try\n",
			[]string{"dir/w.yaml:9:15: a narration step does not take scenario (it takes text, title and notes)"}},
		{"question with both an id and an inline question", "  - kind: question\n    inline:", "  - kind: question\n    question: empty-plain-zero\n    inline:",
			[]string{"dir/w.yaml:23:15: a question step has a question id or an inline question, not both"}},
		{"expect the engine contradicts", "expect: {layer: success, empty: true}", "expect: {layer: execution, errorCategory: transient}",
			[]string{"dir/w.yaml:13:13: the engine disagrees: under 2025-11-25 the empty_success response is on the success layer, not execution; has errorCategory none, not transient; has empty true, not false"}},
		{"agents claim the engine contradicts", "expect: {naiveCalls: 6}", "expect: {naiveCalls: 3}",
			[]string{"dir/w.yaml:19:13: the engine disagrees: the naive agent makes 6 calls, not 3"}},
		{"compare on a scenario with only the good style", "    scenario: customer-db-unreachable\n    expect: {layer: execution",
			"    scenario: email-with-no-account\n    expect: {layer: execution",
			[]string{"dir/w.yaml:15:15: scenario email-with-no-account offers only the good style, so there is nothing to compare"}},
		{"coordinator on a scenario a subagent cannot take", "    scenario: email-with-no-account\n    expect: {naiveCalls: 6}",
			"    scenario: refund-past-return-window\n    coordinator: true",
			[]string{"dir/w.yaml:18:15: scenario refund-past-return-window calls process_refund; a subagent gathers information"}},
		{"bad id and missing minutes", "id: small-one\n", "id: Small One\n",
			[]string{`dir/w.yaml:1:5: id "Small One" must start with a letter`}},
		{"unknown topic", `topics: [empty, "§4"]`, `topics: [empty, emptiness]`,
			[]string{`dir/w.yaml:5:17: unknown topic "emptiness": use a LESSON-RULES section`}},
		{"control code", "text: Two kinds of nothing.", "text: \"Two kinds \\e[2J of nothing.\"",
			[]string{"dir/w.yaml:8:11: steps[0].text holds the character U+001B"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(small, c.old) {
				t.Fatalf("the test's file lacks %q", c.old)
			}
			got := problems(t, strings.Replace(small, c.old, c.new, 1))
			all := strings.Join(got, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("problems lack %q:\n%s", w, all)
				}
			}
		})
	}
}

// A directory with one good and one broken file loads nothing, and the
// problems name only the broken one; so does a duplicate id.
func TestNothingHalfLoaded(t *testing.T) {
	broken := strings.Replace(small, "scenario: email-with-no-account", "scenario: nope", 1)
	got := problems(t, broken)
	set, err := load(t, map[string]string{"a.yaml": small, "b.yaml": broken})
	if set != nil || err == nil {
		t.Fatal("one broken file, yet something loaded")
	}
	if !strings.Contains(err.Error(), "dir/b.yaml:") || strings.Contains(err.Error(), "dir/a.yaml") || len(got) != 1 {
		t.Errorf("problems:\n%v", err)
	}
	_, err = load(t, map[string]string{"a.yaml": small, "b.yaml": small})
	if err == nil || !strings.Contains(err.Error(), `dir/b.yaml:1:5: duplicate walkthrough id "small-one" (first defined in dir/a.yaml)`) {
		t.Errorf("duplicate id: %v", err)
	}
	_, err = load(t, map[string]string{"notes.txt": "hello"})
	if err == nil || !strings.Contains(err.Error(), "no *.yaml walkthrough files here") {
		t.Errorf("empty directory: %v", err)
	}
}

// --content DIR keeps walkthroughs in DIR/walkthroughs: a file there
// replaces the built-in walkthrough with its id and adds new ones; a DIR
// without walkthroughs adds nothing; a broken file there loads nothing.
func TestLoadOverlay(t *testing.T) {
	c, b := content(t)
	dir := t.TempDir()
	set, err := walkthrough.Load(dir, c, b)
	if err != nil || len(set.Walkthroughs) != 5 {
		t.Fatalf("a content dir without walkthroughs: %v, %d", err, len(set.Walkthroughs))
	}
	sub := filepath.Join(dir, "walkthroughs")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	replaced := strings.Replace(small, "id: small-one", "id: empty-is-not-an-error", 1)
	write(t, filepath.Join(sub, "a.yaml"), replaced)
	write(t, filepath.Join(sub, "b.yaml"), small)
	set, err = walkthrough.Load(dir, c, b)
	if err != nil {
		t.Fatal(err)
	}
	ids := set.IDs()
	if len(ids) != 6 || ids[1] != "empty-is-not-an-error" || ids[5] != "small-one" {
		t.Fatalf("overlay ids %v", ids)
	}
	if w, _ := set.Get("empty-is-not-an-error"); w.Title != "A small walkthrough" || w.File != filepath.Join(sub, "a.yaml") {
		t.Errorf("the replacement did not replace: %s from %s", w.Title, w.File)
	}
	write(t, filepath.Join(sub, "b.yaml"), strings.Replace(small, "minutes: 5", "minutes: 0", 1))
	if set, err := walkthrough.Load(dir, c, b); set != nil || err == nil || !strings.Contains(err.Error(), "b.yaml:4:10: minutes 0 must be") {
		t.Errorf("a broken overlay: %v", err)
	}
	if _, err := walkthrough.Load(filepath.Join(dir, "missing"), c, b); err == nil {
		t.Error("a missing content dir loaded")
	}
}

// walkthroughs validate DIR checks DIR, or DIR/walkthroughs when DIR
// holds no walkthrough files of its own (the --content layout).
func TestValidateDir(t *testing.T) {
	c, b := content(t)
	root := t.TempDir()
	// A walkthrough at the root of a content directory is where --content
	// does not look: validate says so.
	write(t, filepath.Join(root, "w.yaml"), small)
	if ps, n, err := walkthrough.ValidateDir(root, c, b); err != nil || len(ps) != 1 || n != 0 || !strings.Contains(ps[0].Msg, filepath.Join(root, "walkthroughs")+"/*.yaml") {
		t.Errorf("a walkthrough at the root: %v %v %d", err, ps, n)
	}
	dir := filepath.Join(root, "walkthroughs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "w.yaml"), small)
	if ps, n, err := walkthrough.ValidateDir(dir, c, b); err != nil || len(ps) != 0 || n != 1 {
		t.Errorf("valid dir: %v %v %d", err, ps, n)
	}
	// errorCategory: none claims no category, as the messages word it.
	write(t, filepath.Join(dir, "w.yaml"), strings.Replace(small, "expect: {layer: success, empty: true}", "expect: {layer: success, errorCategory: none, empty: true}", 1))
	if ps, n, err := walkthrough.ValidateDir(dir, c, b); err != nil || len(ps) != 0 || n != 1 {
		t.Errorf("errorCategory none: %v %v %d", err, ps, n)
	}
	write(t, filepath.Join(dir, "w.yaml"), strings.Replace(small, "empty-plain-zero", "empty-plain-one", 1))
	ps, n, err := walkthrough.ValidateDir(dir, c, b)
	if err != nil || n != 0 || len(ps) != 1 || ps[0].Line != 21 || ps[0].Column != 15 {
		t.Errorf("broken dir: %v %v %d", err, ps, n)
	}
	layout := t.TempDir()
	if err := os.Mkdir(filepath.Join(layout, "walkthroughs"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(layout, "walkthroughs", "w.yaml"), small)
	if ps, n, err := walkthrough.ValidateDir(layout, c, b); err != nil || len(ps) != 0 || n != 1 {
		t.Errorf("--content layout: %v %v %d", err, ps, n)
	}
	if _, _, err := walkthrough.ValidateDir(filepath.Join(layout, "missing"), c, b); err == nil || !strings.Contains(err.Error(), filepath.Join(layout, "missing")) {
		t.Errorf("a missing dir: %v, want an error naming it", err)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An inline question with too few options and an answer out of range
// reports both in one pass, not the first only.
func TestInlineQuestionReportsEveryProblem(t *testing.T) {
	text := strings.Replace(small, `        - text: A timeout.
          explanation: Wrong. The query never ran.
        - text: A refused connection.
          explanation: Wrong. Nobody could look.
      answer: A`, `      answer: E`, 1)
	_, err := load(t, map[string]string{"w.yaml": text})
	var le *scenarios.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("load: %v", err)
	}
	var msgs []string
	for _, p := range le.Problems {
		msgs = append(msgs, p.Msg)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"exactly 4 options; found 2", `answer "E" is out of range: use a letter from A to D`} {
		if !strings.Contains(all, want) {
			t.Errorf("the problems do not say %q:\n%s", want, all)
		}
	}
}
