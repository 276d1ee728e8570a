package quiz_test

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/quiz"
)

// Item 2 (TestStripVerdict in package ui), on the quiz: a verdict word
// at the start of an explanation is dropped where the tag beside it
// already says it.
func TestStripVerdictInQuizExplanations(t *testing.T) {
	// A quiz item's explanation under its tag.
	pool := testPool(t)
	s := sameSession(t, pool, nil, qz.Options{Mode: qz.Practice, Count: 1, Seed: 7})
	qm := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: 1, Seed: 7})
	qm, _ = uitest.Drive(qm, answerKeys(s.Items[0], false)...)
	qm, _ = uitest.Drive(qm, uitest.Press("enter"))
	v := qm.View()
	if !strings.Contains(v, "✓ correct") || strings.Contains(v, "correct: Yes") || strings.Contains(v, "correct · your pick: Yes") {
		t.Errorf("double label in the explanations:\n%s", v)
	}
}

// Item 3: moving the practice topic to a small one and back keeps the
// chosen count.
func TestPracticeCountSurvivesTopicChange(t *testing.T) {
	var items []*qz.Item
	for i := range 30 {
		items = append(items, testQuestion(fmt.Sprintf("t/big%d", i), qz.Topics[0].ID, false, "A", "Stem?", "yes", "no"))
	}
	for i := range 3 {
		items = append(items, testQuestion(fmt.Sprintf("t/small%d", i), qz.Topics[1].ID, false, "A", "Stem?", "yes", "no"))
	}
	pool, err := qz.NewPool(items, nil)
	uitest.Must(t, err)
	useQuiz(t, pool, &fakeClock{t: quizT0}, true)
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}), uitest.Size120)
	for !strings.Contains(uitest.LineWith(m.View(), "▸"), "Practice & exam") {
		m, _ = uitest.Drive(m, uitest.Press("down"))
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"), uitest.Press("enter"))
	menu := m.(*ui.App).Top().(*quiz.Menu)
	count := func() string { return strings.Join(strings.Fields(uitest.LineWith(m.View(), "Questions")), " ") }
	if c := count(); !strings.Contains(c, "10") || !strings.Contains(c, "of 33") {
		t.Fatalf("default count: %q", c)
	}
	m, _ = uitest.Drive(m, uitest.Press("right"), uitest.Press("right")) // the second topic: 3 items
	if c := count(); !strings.Contains(c, "‹ 3 ›") && !strings.Contains(c, " 3 of 3") {
		t.Fatalf("small topic count: %q", c)
	}
	m, _ = uitest.Drive(m, uitest.Press("left"), uitest.Press("left")) // back to all topics
	if c := count(); !strings.Contains(c, "10 of 33") || menu.PracticeCount() != 10 {
		t.Fatalf("back on all topics the count is %q (%d), want 10", c, menu.PracticeCount())
	}
	// Starting on the small topic asks for what it has.
	m, _ = uitest.Drive(m, uitest.Press("right"), uitest.Press("right"), uitest.Press("enter"))
	if s := sessionOf(t, m); len(s.Session().Items) != 3 {
		t.Errorf("small-topic practice has %d items", len(s.Session().Items))
	}
}

// Item 4: the menu says what Review counts; exam results offer to
// practise the missed questions.
func TestReviewWording(t *testing.T) {
	pool := testPool(t)
	store := qz.Memory()
	ids := []string{}
	for _, it := range pool.Items {
		ids = append(ids, it.ID)
	}
	if len(ids) < 5 {
		t.Fatalf("pool of %d", len(ids))
	}
	uitest.Must(t, store.RecordItem(ids[0], "x", false, quizT0))
	uitest.Must(t, store.RecordItem(ids[1], "x", false, quizT0))
	for _, id := range ids[2:5] {
		uitest.Must(t, store.RecordItem(id, "x", true, quizT0))
	}
	useQuiz(t, pool, &fakeClock{t: quizT0}, true)
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), Progress: store}), uitest.Size120)
	for !strings.Contains(uitest.LineWith(m.View(), "▸"), "Practice & exam") {
		m, _ = uitest.Drive(m, uitest.Press("down"))
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	if line := uitest.LineWith(m.View(), "Review"); !strings.Contains(line, "Review (2 missed · 3 still learning)") {
		t.Errorf("menu review line %q", line)
	}

	// An exam with wrong answers: p practises exactly the missed ones.
	s := sameSession(t, pool, nil, qz.Options{Mode: qz.Exam, Count: 3, Seed: 4})
	m = openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4})
	m, _ = uitest.Drive(m, answerKeys(s.Items[0], false)...)
	m, _ = uitest.Drive(m, uitest.Press("right"))
	m, _ = uitest.Drive(m, answerKeys(s.Items[1], true)...)
	m, _ = uitest.Drive(m, uitest.Press("s"), uitest.Press("y"))
	view := strings.Join(strings.Fields(m.View()), " ")
	if !strings.Contains(view, "2 questions to revisit. p or enter: practise these 2 now") {
		t.Errorf("results do not offer to practise the missed:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("p"))
	rs := sessionOf(t, m)
	if rs.Session().Mode != qz.Review || len(rs.Session().Items) != 2 || rs.Session().Items[0].ID != s.Items[0].ID || rs.Session().Items[1].ID != s.Items[2].ID {
		var got []string
		for _, it := range rs.Session().Items {
			got = append(got, it.ID)
		}
		t.Errorf("p started %s of %v, want a review of %s and %s", rs.Session().Mode, got, s.Items[0].ID, s.Items[2].ID)
	}
	if !strings.Contains(m.View(), "reviewing the 2 questions you missed") {
		t.Errorf("no status:\n%s", m.View())
	}
}

// Item 7: the exam's leave prompt wraps at 60 columns.
func TestExamLeavePromptWraps(t *testing.T) {
	pool := testPool(t)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4},
		tea.WindowSizeMsg{Width: 60, Height: 24}, uitest.Press("esc"))
	view := m.View()
	for _, want := range []string{"leave and discard", "n or esc stay in the exam"} {
		if !strings.Contains(view, want) {
			t.Errorf("leave prompt lacks %q:\n%s", want, view)
		}
	}
	for _, l := range strings.Split(view, "\n") {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("line wider than 60: %q", l)
		}
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("s"))
	if v := m.View(); !strings.Contains(v, "n or esc keep working") {
		t.Errorf("submit prompt:\n%s", v)
	}
}
