package quiz_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/quiz"
)

// tall shows a whole question with every explanation at once, so nothing
// can hide below the fold.
var tall = tea.WindowSizeMsg{Width: 160, Height: 400}

// Question ids can give answers away ("retryable-false-is-not-goodbye"),
// so no learner's screen shows one: practice (asking and revealed), the
// exam (asking, submitted, each answer walked through), review, and the
// results. The teacher's report keeps them (ui/cli's report test).
func TestQuestionIDsNeverOnScreen(t *testing.T) {
	pool, err := quiz.LoadPool(context.Background(), uitest.Catalog(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, it := range pool.Filter("", qz.KindQuestion) {
		ids = append(ids, it.ID)
	}
	if len(ids) < 100 {
		t.Fatalf("only %d authored questions in the pool", len(ids))
	}
	check := func(where string, m tea.Model, shows ...string) {
		t.Helper()
		v := m.View()
		flat := uitest.Flat(v)
		for _, want := range shows {
			if !strings.Contains(flat, uitest.Flat(want)) {
				t.Fatalf("%s: the screen does not show %q, so it is not the screen meant:\n%s", where, want, v)
			}
		}
		for _, id := range ids {
			if strings.Contains(v, id) || strings.Contains(flat, id) {
				t.Errorf("%s shows the question id %q:\n%s", where, id, v)
				return
			}
		}
	}

	t.Run("practice", func(t *testing.T) {
		o := qz.Options{Mode: qz.Practice, Count: len(pool.Items), Seed: 5}
		s := sameSession(t, pool, nil, o)
		m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: o.Count, Seed: 5}, tall)
		for i, it := range s.Items {
			check("practice, asking "+it.ID, m, opening(it))
			m, _ = uitest.Drive(m, append(answerKeys(it, i%2 == 0 || allRight(it)), uitest.Press("enter"))...)
			check("practice, revealed "+it.ID, m, opening(it), "ight.")
			m, _ = uitest.Drive(m, uitest.Press("n"))
		}
	})

	t.Run("exam and results", func(t *testing.T) {
		store := qz.Memory()
		o := qz.Options{Mode: qz.Exam, Count: 30, Seed: 5}
		s := sameSession(t, pool, nil, o)
		m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &quiz.Start{Mode: qz.Exam, Count: 30, Seed: 5}, tall)
		for i, it := range s.Items {
			check("exam, asking "+it.ID, m, opening(it))
			m, _ = uitest.Drive(m, append(answerKeys(it, i%3 == 0 || allRight(it)), uitest.Press("right"))...)
		}
		m, _ = uitest.Drive(m, uitest.Press("s"), uitest.Press("y"))
		check("exam results", m, "By topic")
		for i := range s.Items {
			m, _ = uitest.Drive(m, uitest.Press("right"))
			check("exam answer walk "+s.Items[i].ID, m, opening(s.Items[i]))
		}
		m, _ = uitest.Drive(m, uitest.Press("r"))
		check("results", m, "Mock exams")
	})

	t.Run("review", func(t *testing.T) {
		store := qz.Memory()
		for i, id := range ids[:12] {
			uitest.Must(t, store.RecordItem(id, "layers", false, quizT0.Add(-time.Duration(i+1)*time.Hour)))
		}
		m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &quiz.Start{Mode: qz.Review, Seed: 1}, tall)
		s := sessionOf(t, m).Session()
		for _, it := range s.Items {
			check("review, asking "+it.ID, m, opening(it))
			m, _ = uitest.Drive(m, append(answerKeys(it, allRight(it)), uitest.Press("enter"))...)
			check("review, revealed "+it.ID, m, opening(it), "ight.")
			m, _ = uitest.Drive(m, uitest.Press("n"))
		}
	})
}

// opening is the first words of an item's stem, as the screen shows them.
func opening(it *qz.Item) string {
	w := strings.Fields(it.Stem)
	return strings.Join(w[:min(6, len(w))], " ")
}

// allRight reports an item whose first part has no wrong choice (a
// choose-all-that-apply question where all apply), which cannot be
// answered wrong by picking a wrong choice.
func allRight(it *qz.Item) bool {
	for _, c := range it.Parts[0].Choices {
		if !c.Correct {
			return false
		}
	}
	return true
}

// The tester found drills that give the answer away before it is given:
// a spot-the-defects drill takes its topic from the defects it holds (a
// leak makes it "What is safe to show the model", an empty success
// "Valid empty vs access failure"), so the question line may not name
// it until the answer is checked. Nothing a drill shows before the
// answer may hold its explanations or its takeaway either.
func TestDrillsKeepTheAnswerUntilChecked(t *testing.T) {
	pool, err := quiz.LoadPool(context.Background(), uitest.Catalog(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := qz.Options{Mode: qz.Practice, Count: len(pool.Items), Seed: 5}
	s := sameSession(t, pool, nil, o)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: o.Count, Seed: 5}, tall)
	defects := 0
	for i, it := range s.Items {
		v := uitest.Flat(m.View())
		if !strings.Contains(v, uitest.Flat(opening(it))) {
			t.Fatalf("item %d is not on screen:\n%s", i, v)
		}
		if it.Kind == qz.KindSpotDefects {
			defects++
			if title := uitest.Flat(qz.TopicTitle(it.Topic)); strings.Contains(v, title) && !strings.Contains(uitest.Flat(it.Stem), title) {
				t.Errorf("the unanswered defects drill %s names its topic %q, which tells its defects", it.ID, title)
			}
		}
		if it.Kind != qz.KindQuestion {
			hidden := []string{it.After}
			for _, p := range it.Parts {
				for _, c := range p.Choices {
					hidden = append(hidden, c.Explanation)
				}
			}
			for _, h := range hidden {
				if h = uitest.Flat(strings.TrimSpace(h)); len(h) > 20 && strings.Contains(v, h) {
					t.Errorf("the unanswered drill %s shows %q", it.ID, h)
				}
			}
		}
		m, _ = uitest.Drive(m, append(answerKeys(it, true), uitest.Press("enter"))...)
		if it.Kind == qz.KindSpotDefects && !strings.Contains(uitest.Flat(m.View()), uitest.Flat(qz.TopicTitle(it.Topic))) {
			t.Errorf("the checked defects drill %s does not name its topic:\n%.300s", it.ID, m.View())
		}
		m, _ = uitest.Drive(m, uitest.Press("n"))
	}
	if defects == 0 {
		t.Fatal("no defects drill was drawn")
	}
}
