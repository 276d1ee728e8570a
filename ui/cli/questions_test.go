package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui"
)

// `questions exam` prints the exam `quiz --mode exam` draws with the same
// seed and count: the same questions in the same order, with no question
// id and no key; --with-keys adds the key with the ids and the concepts
// each question tests.
func TestQuestionsExamPrintsTheAppsDraw(t *testing.T) {
	code, out, errOut := run(t, "questions", "exam", "--seed", "11", "--count", "30")
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	c, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	b, err := quiz.DefaultBank()
	if err != nil {
		t.Fatal(err)
	}
	p, err := quiz.LoadPool(context.Background(), b, c)
	if err != nil {
		t.Fatal(err)
	}
	s, err := quiz.NewSession(p, nil, quiz.Options{Mode: quiz.Exam, Count: 30, Seed: 11}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	at := 0
	for i, it := range s.Items {
		stem := strings.Join(strings.Fields(it.Stem), " ")
		j := strings.Index(out[at:], stem)
		if j < 0 {
			t.Fatalf("question %d (%s) is not printed in the app's order", i+1, it.ID)
		}
		at += j + len(stem)
		if strings.Contains(out, it.ID) {
			t.Errorf("the question id %s is printed for the exam-taker", it.ID)
		}
	}
	if !strings.Contains(out, "30 questions · seed 11") || strings.Contains(out, "Answer key") {
		t.Errorf("header or key wrong:\n%.300s", out)
	}
	code, keyed, _ := run(t, "questions", "exam", "--seed", "11", "--count", "30", "--with-keys")
	if code != ExitOK || !strings.HasPrefix(keyed, out) || !strings.Contains(keyed, "## Answer key") {
		t.Fatalf("--with-keys: exit %d, or it does not add a key to the same exam", code)
	}
	for i, it := range s.Items {
		if !strings.Contains(keyed, "`"+it.ID+"`") {
			t.Errorf("the key lacks question %d's id %s", i+1, it.ID)
		}
		if !strings.Contains(keyed, "· tests: "+strings.Join(it.Concepts, ", ")) {
			t.Errorf("the key lacks the concepts question %d (%s) tests: %v", i+1, it.ID, it.Concepts)
		}
	}
	if code, _, errOut := run(t, "questions", "exam", "--count", "-3"); code != ExitUsage || !strings.Contains(errOut, "--count") {
		t.Errorf("a negative count: exit %d %s", code, errOut)
	}
	// --count 0 is a mistake, not a request for the default (a new user
	// got 20 questions from it without a word).
	for _, args := range [][]string{{"questions", "exam", "--count", "0"}, {"quiz", "--count", "0"}} {
		if code, out, errOut := run(t, args...); code != ExitUsage || !strings.Contains(errOut, "--count must be at least 1") || out != "" {
			t.Errorf("%v: exit %d, stdout %d bytes, %s", args, code, len(out), errOut)
		}
	}
}

// The teacher's report keeps the question ids the learner's screens leave
// out: a missed question is listed by its id.
func TestReportKeepsQuestionIDs(t *testing.T) {
	dir := t.TempDir()
	store, err := quiz.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.RecordItem("retryable-false-is-not-goodbye", "retryable", false, time.Now()); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errOut, IsTerminal: func() bool { return false },
		RunTUI: func(ui.Options) error { t.Fatal("the TUI started"); return nil }}
	if code := Run(env, []string{"--state-dir", dir, "report"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "`retryable-false-is-not-goodbye`") {
		t.Fatalf("the report does not name the missed question by its id:\n%s", out.String())
	}
}

// `questions list --json` gives each question's trap, story and concepts, beside
// its id, for authors and teachers.
func TestQuestionsListGivesTrapAndStory(t *testing.T) {
	code, out, errOut := run(t, "questions", "list", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list []QuestionEntry
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		if e.ID == "" || e.Trap == "" || e.Story == "" || len(e.Concepts) == 0 {
			t.Errorf("entry without id, trap, story or concepts: %+v", e)
		}
	}
}

// The tester's findings on `questions exam`: only authored questions are
// drawn; a --count the caps cannot hold is a stated shortfall, not a
// loosened cap; --topic draws from one topic; without --seed each run is
// a fresh draw that prints the seed and the command to draw it again.
func TestQuestionsExamTopicShortfallAndFreshSeed(t *testing.T) {
	code, out, errOut := run(t, "questions", "exam", "--seed", "4", "--count", "80", "--with-keys")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "drill/") {
		t.Errorf("the printed exam holds a drill:\n%s", out)
	}
	if !strings.Contains(out, ", not 80: the rest of the bank would give answers away") || !strings.Contains(errOut, ", not 80:") {
		t.Errorf("--count 80 is not stated as a shortfall:\nstdout %.400s\nstderr %s", out, errOut)
	}
	code, out, errOut = run(t, "questions", "exam", "--seed", "4", "--count", "3", "--topic", "spellings", "--with-keys")
	if code != ExitOK || !strings.Contains(out, "3 questions on One flag, several spellings") {
		t.Fatalf("--topic: exit %d %s\n%.300s", code, errOut, out)
	}
	key := out[strings.Index(out, "## Answer key"):]
	if n := strings.Count(key, "· One flag, several spellings ·"); n != 3 {
		t.Errorf("--topic spellings: %d of 3 keyed questions on the topic:\n%s", n, key)
	}
	if code, _, errOut := run(t, "questions", "exam", "--topic", "nope"); code != ExitUsage || !strings.Contains(errOut, "layers, categories") {
		t.Errorf("unknown topic: exit %d %s", code, errOut)
	}
	// Two runs without --seed draw afresh and each says how to repeat it.
	_, first, err1 := run(t, "questions", "exam", "--count", "5")
	_, second, err2 := run(t, "questions", "exam", "--count", "5")
	if first == second {
		t.Error("two runs without --seed printed the same exam")
	}
	for _, e := range []string{err1, err2} {
		if !strings.Contains(e, "the same exam again: errorlab questions exam --seed ") {
			t.Errorf("a fresh draw does not say how to repeat it: %q", e)
		}
	}
	seed := strings.Fields(err1[strings.Index(err1, "--seed "):])[1]
	if _, again, _ := run(t, "questions", "exam", "--count", "5", "--seed", seed); again != first {
		t.Errorf("--seed %s does not repeat the first run", seed)
	}
}

// A design fault: `questions validate DIR` lists it at file:line:col and
// exits 2; `--questions DIR` loads the file (the README's rule) but names
// the same fault on stderr. A load fault: both exit 2 and nothing loads.
func TestQuestionsValidateAndOverlayReportFaults(t *testing.T) {
	q := func(difficulty, trap string) string {
		return "- id: own-question\n  topic: categories\n  difficulty: " + difficulty + "\n  story: own-story\n  trap: " + trap +
			"\n  stem: Which move fits the refusal?\n  options:\n" +
			"    - text: own alpha one\n      explanation: why\n    - text: own bravo two\n      explanation: why\n" +
			"    - text: own charlie three\n      explanation: why\n    - text: own delta four\n      explanation: why\n" +
			"  answer: B\n  rule: \"§2\"\n  concepts: [cat-business]\n"
	}
	write := func(body string) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "own.yaml"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	design := write(q("2", "own bravo two"))
	code, out, errOut := run(t, "questions", "validate", design)
	want := filepath.Join(design, "own.yaml") + ":5:9: the trap of own-question repeats its key B"
	if code != ExitUsage || !strings.Contains(out, want) || !strings.Contains(errOut, "1 problem in "+design) {
		t.Errorf("validate: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = run(t, "--questions", design, "questions", "list")
	if code != ExitOK || !strings.Contains(out, "own-question") || !strings.Contains(errOut, "  "+want) {
		t.Errorf("--questions with a design fault: exit %d, stderr %q", code, errOut)
	}
	broken := write(q("5", "a belief"))
	code, out, errOut = run(t, "--questions", broken, "questions", "list")
	want = filepath.Join(broken, "own.yaml") + ":3:15: difficulty 5 is out of range"
	if code != ExitUsage || out != "" || !strings.Contains(errOut, "none were loaded") || !strings.Contains(errOut, want) {
		t.Errorf("--questions with a load fault: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	sound := write(q("2", "a belief"))
	if code, out, _ := run(t, "questions", "validate", sound); code != ExitOK || out != "1 question in "+sound+" is valid\n" {
		t.Errorf("a sound file: exit %d, %q", code, out)
	}
}
