package quiz

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/assets"
	"github.com/errorlab/errorlab/quiz/seedcheck"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
)

func bank(t *testing.T) *Bank {
	t.Helper()
	b, err := DefaultBank()
	if err != nil {
		t.Fatalf("the built-in question bank does not load:\n%v", err)
	}
	return b
}

func TestBankCoversEveryTopic(t *testing.T) {
	b := bank(t)
	total := 0
	for _, topic := range Topics {
		n := len(b.ByTopic(topic.ID))
		total += n
		if n < topic.Minimum {
			t.Errorf("topic %s has %d questions; the bank needs at least %d", topic.ID, n, topic.Minimum)
		}
	}
	if total < 80 {
		t.Errorf("the bank has %d questions; it needs at least 80", total)
	}
}

// No sentence of the product may come from the seed lessons: no run of
// eight words in a question, an explanation or a scenario is shared with
// them.
func TestNoEightWordRunFromTheSeeds(t *testing.T) {
	seeds, err := seedcheck.ReadHashes(filepath.Join("seedcheck", "testdata", "seed-shingles.txt"))
	if err != nil || len(seeds) == 0 {
		t.Fatalf("seed fingerprints: %v", err)
	}
	check := func(where, text string) {
		if runs := seedcheck.Copied(text, seeds); len(runs) > 0 {
			t.Errorf("%s shares %d eight-word run(s) with a seed lesson, e.g. %q", where, len(runs), runs[0])
		}
	}
	for _, q := range bank(t).Questions {
		check(q.ID+" stem", q.Stem)
		for i, o := range q.Options {
			check(q.ID+" option "+Letter(i), o.Text)
			check(q.ID+" explanation "+Letter(i), o.Explanation)
		}
	}
	c, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Scenarios {
		check(s.ID+" situation", s.Situation)
		check(s.ID+" title", s.Title)
		check(s.ID+" customerMessage", s.CustomerMessage)
		check(s.ID+" takeaway", s.Takeaway)
		for a, f := range s.Feedback {
			check(s.ID+" feedback "+string(a), f)
		}
	}
	// The classroom walkthroughs: every word of each file (narration,
	// notes, captions, inline questions). The walkthrough package also
	// checks every handout it writes.
	files, err := fs.Glob(assets.FS, "walkthroughs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no embedded walkthroughs to check (%v)", err)
	}
	for _, f := range files {
		data, err := fs.ReadFile(assets.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		check(f, string(data))
	}
}

// A question that cites a scenario and states claims per option must have
// an answer key that sim/rules agrees with for that scenario.
func TestAnswerKeysAgreeWithRules(t *testing.T) {
	c, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	cited := 0
	for _, q := range bank(t).Questions {
		if q.Scenario == "" {
			continue
		}
		s, ok := c.Get(q.Scenario)
		if !ok {
			t.Errorf("%s cites scenario %q, which does not exist", q.ID, q.Scenario)
			continue
		}
		cited++
		rev := s.Revision()
		truth := s.TruthAt(rev)
		correct := map[int]bool{}
		for _, i := range q.Correct() {
			correct[i] = true
		}
		for i, o := range q.Options {
			if o.Claim == nil {
				continue
			}
			holds, what := claimHolds(*o.Claim, s, rev, truth)
			if holds != correct[i] {
				t.Errorf("%s option %s claims %s; the key says %v but sim/rules says %v for scenario %s",
					q.ID, Letter(i), what, correct[i], holds, s.ID)
			}
		}
	}
	if cited == 0 {
		t.Fatal("no question cites a scenario, so no answer key is checked against the rules")
	}
}

func claimHolds(c Claim, s *scenarios.Scenario, rev rules.Revision, truth scenarios.Truth) (bool, string) {
	switch {
	case c.Action != "":
		return s.Score(rev, c.Action).Grade.Correct(), "action " + string(c.Action)
	case c.Category != "":
		return truth.Expected.ErrorCategory == c.Category, "category " + string(c.Category)
	case c.Layer != "":
		return truth.Expected.Layer == c.Layer, "layer " + string(c.Layer)
	case c.IsRetryable != nil:
		got := truth.Expected.Layer == rules.LayerExecution && truth.Expected.ErrorCategory.Retryable()
		return got == *c.IsRetryable, "isRetryable"
	}
	return false, "nothing"
}

func TestQuestionLoaderReportsPositions(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := func(id, answer, expl string) string {
		return "- id: " + id + "\n  topic: layers\n  difficulty: 2\n  stem: What comes back?\n  options:\n" +
			"    - text: one\n      explanation: " + expl + "\n" +
			"    - text: two\n      explanation: because\n" +
			"    - text: three\n      explanation: because\n" +
			"    - text: four\n      explanation: because\n" +
			"  answer: " + answer + "\n  rule: \"§1\"\n"
	}
	write("a.yaml", q("dup", "A", "fine")+q("dup", "B", "fine"))
	write("b.yaml", q("no-expl", "A", "\"\""))
	write("c.yaml", q("out-of-range", "E", "fine"))
	write("d.yaml", "- id: broken\n  topic: [layers\n")
	problems, _, err := ValidateQuestionsDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	joined := ""
	for _, p := range problems {
		joined += p.String() + "\n"
	}
	for _, want := range []string{
		filepath.Join(dir, "a.yaml") + ":16:7: duplicate question id \"dup\"",
		filepath.Join(dir, "b.yaml") + ":7:20: option A has no explanation",
		filepath.Join(dir, "c.yaml") + ":14:11: answer \"E\" is out of range",
		filepath.Join(dir, "d.yaml") + ":2:",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %q in:\n%s", want, joined)
		}
	}
}

func TestIsCorrectSingleAndMulti(t *testing.T) {
	single := &Question{Answer: "C", Options: make([]Option, 4)}
	if !single.IsCorrect([]int{2}) || single.IsCorrect([]int{1}) || single.IsCorrect([]int{2, 3}) {
		t.Fatal("single-answer scoring is wrong")
	}
	multi := &Question{Multi: true, Answers: []string{"A", "D"}, Options: make([]Option, 4)}
	if !multi.IsCorrect([]int{3, 0}) || multi.IsCorrect([]int{0}) || multi.IsCorrect([]int{0, 1, 3}) {
		t.Fatal("multi-select scoring is wrong: all correct options and nothing else")
	}
}

// A test-wise learner must not pass by picking the longest option: in at
// most a third of single-answer questions may the key be the strictly
// longest option (by chance it would be about a quarter).
func TestKeyIsNotGivenAwayByLength(t *testing.T) {
	longest, single := 0, 0
	var worst []string
	for _, q := range bank(t).Questions {
		if q.Multi {
			continue
		}
		single++
		key := q.Correct()[0]
		kl := len(strings.TrimSpace(q.Options[key].Text))
		strictly := true
		for i, o := range q.Options {
			if i != key && len(strings.TrimSpace(o.Text)) >= kl {
				strictly = false
			}
		}
		if strictly {
			longest++
			worst = append(worst, q.ID)
		}
	}
	if longest*3 > single {
		t.Errorf("the key is the strictly longest option in %d of %d single-answer questions (at most a third allowed): %v", longest, single, worst)
	}
}

// Questions are drawn in any order, so none may lean on another.
func TestStemsStandAlone(t *testing.T) {
	for _, q := range bank(t).Questions {
		stem := strings.ToLower(strings.TrimSpace(q.Stem))
		for _, lead := range []string{"the same ", "same situation", "as before", "in the previous", "the previous question"} {
			if strings.HasPrefix(stem, lead) || strings.Contains(stem, " "+lead) && strings.Contains(lead, "previous") {
				t.Errorf("%s leans on another question: %.60q", q.ID, q.Stem)
			}
		}
	}
}

func TestQuestionValidatorCatchesSubtleMistakes(t *testing.T) {
	base := "- id: q\n  topic: layers\n  difficulty: 2\n  stem: What comes back?\n  options:\n" +
		"    - {text: one, explanation: because}\n    - {text: two, explanation: because}\n" +
		"    - {text: three, explanation: because}\n    - {text: four, explanation: because}\n"
	for name, c := range map[string]struct{ tail, want string }{
		"duplicate letters":     {"  multi: true\n  answers: [A, A]\n  rule: \"§1\"\n", "answer A is listed twice"},
		"no answer":             {"  rule: \"§1\"\n", "no answer given"},
		"answers without multi": {"  answers: [A, C]\n  rule: \"§1\"\n", "add multi: true"},
		"nonsense rule":         {"  answer: A\n  rule: \"§99 nonsense\"\n", "must name LESSON-RULES sections §1 to §9"},
		"unknown scenario":      {"  answer: A\n  rule: \"§1\"\n  scenario: no-such-scenario\n", "cites scenario \"no-such-scenario\", which does not exist"},
		"escaped control code":  {"  answer: A\n  rule: \"§1\"\n  scenario: \"\\e[2J\"\n", "U+001B"},
		"unknown concept":       {"  answer: A\n  rule: \"§1\"\n  concepts: [wire-unknown-tool, no-such-rule]\n", "unknown concept \"no-such-rule\""},
		"concept twice":         {"  answer: A\n  rule: \"§1\"\n  concepts: [wire-codes, wire-codes]\n", "concept wire-codes is listed twice"},
		"four concepts":         {"  answer: A\n  rule: \"§1\"\n  concepts: [wire-codes, wire-unknown-tool, protocol-host-side, execution-to-model]\n", "4 concepts: name at most 3"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "q.yaml"), []byte(base+c.tail), 0o644); err != nil {
				t.Fatal(err)
			}
			ps, n, err := ValidateQuestionsDir(dir)
			if err != nil || n != 0 || len(ps) == 0 {
				t.Fatalf("accepted: n=%d err=%v", n, err)
			}
			var all []string
			for _, p := range ps {
				all = append(all, p.String())
			}
			if joined := strings.Join(all, "\n"); !strings.Contains(joined, c.want) {
				t.Fatalf("want %q in:\n%s", c.want, joined)
			}
		})
	}
	empty := t.TempDir()
	_ = os.WriteFile(filepath.Join(empty, "q.yaml"), nil, 0o644)
	if ps, _, _ := ValidateQuestionsDir(empty); len(ps) == 0 {
		t.Fatal("an empty question file was reported valid")
	}
}
