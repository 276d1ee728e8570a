package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
)

// A new user found `quiz --mode exam --count 500 --seed 1` setting 68
// questions (drills topped it up) while `questions exam` with the same
// seed and count printed 50 and called itself the same draw, and the
// set-up offered at most 48. Now `questions exam` prints the draw the
// quiz makes from its start (no kinds asked: the quiz's options), as
// many questions as the set-up offers (ExamCapacity), and says so. The
// quiz's screen is tested in ui/pages/quiz (TestQuizExamCountCapped).
func TestQuizExamIsTheDrawQuestionsExamPrints(t *testing.T) {
	code, md, errOut := run(t, "questions", "exam", "--count", "500", "--seed", "1")
	if code != ExitOK {
		t.Fatalf("questions exam: exit %d %s", code, errOut)
	}
	var start *ui.QuizStart
	env := Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, IsTerminal: func() bool { return true },
		RunTUI: func(o ui.Options) error { start = o.Quiz; return nil }}
	if code := Run(env, []string{"--state-dir", t.TempDir(), "quiz", "--mode", "exam", "--count", "500", "--seed", "1"}); code != ExitOK || start == nil {
		t.Fatalf("quiz: exit %d", code)
	}
	c, err := scenarios.Default()
	uitest.Must(t, err)
	b, err := quiz.DefaultBank()
	uitest.Must(t, err)
	p, err := quiz.LoadPool(context.Background(), b, c)
	uitest.Must(t, err)
	// What the quiz menu asks of NewSession for that start.
	s, err := quiz.NewSession(p, nil, quiz.Options{Mode: start.Mode, Topic: start.Topic, Count: start.Count, Seed: start.Seed, PassMark: start.PassMark}, time.Now())
	uitest.Must(t, err)
	n := p.ExamCapacity("")
	if len(s.Items) != n {
		t.Fatalf("the quiz draws %d questions, the set-up offers at most %d", len(s.Items), n)
	}
	if want := fmt.Sprintf("%d questions · seed 1 · the same draw as `errorlab quiz --mode exam --seed 1 --count 500`", n); !strings.Contains(md, want) {
		t.Errorf("questions exam's header lacks %q:\n%.400s", want, md)
	}
	if want := fmt.Sprintf("%d questions, not 500: the rest of the bank would give answers away.", n); !strings.Contains(md, want) {
		t.Errorf("questions exam lacks %q:\n%.400s", want, md)
	}
	at := 0
	for i, it := range s.Items {
		stem := strings.Join(strings.Fields(it.Stem), " ")
		j := strings.Index(md[at:], stem)
		if j < 0 {
			t.Fatalf("the quiz's question %d (%s) is not the Markdown's %d", i+1, it.ID, i+1)
		}
		at += j + len(stem)
	}
}

// --minutes 0 used to mean the default, silently: it is refused with
// the range, as a time past the set-up's 600 is.
func TestQuizMinutesOutOfRangeIsRefused(t *testing.T) {
	for _, m := range []string{"0", "601", "-5"} {
		var out, errOut bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errOut, IsTerminal: func() bool { return true },
			RunTUI: func(ui.Options) error { t.Fatal("the TUI started"); return nil }}
		code := Run(env, []string{"--state-dir", t.TempDir(), "quiz", "--mode", "exam", "--minutes", m})
		if code != ExitUsage || !strings.Contains(errOut.String(), "--minutes must be from 1 to 600, not "+m) {
			t.Errorf("--minutes %s: exit %d %q", m, code, errOut.String())
		}
	}
}
