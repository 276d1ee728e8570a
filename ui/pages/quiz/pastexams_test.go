package quiz_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/quiz"
)

// takeExam runs a three-question exam in a fresh app on prog and hands
// it in, answering the first right questions right and the rest wrong.
// It returns the app on the exam's results and its score line.
func takeExam(t *testing.T, pool *qz.Pool, clock *fakeClock, prog ui.Progress, seed uint64, right int) (tea.Model, string) {
	t.Helper()
	s := sameSession(t, pool, nil, qz.Options{Mode: qz.Exam, Count: 3, Seed: seed})
	m := openQuiz(t, pool, clock, prog, &quiz.Start{Mode: qz.Exam, Count: 3, Seed: seed})
	for i, it := range s.Items {
		m, _ = uitest.Drive(m, answerKeys(it, i < right)...)
		m, _ = uitest.Drive(m, uitest.Press("right"))
	}
	clock.Advance(90 * time.Second)
	m, _ = uitest.Drive(m, uitest.Press("s"), uitest.Press("y"))
	score := uitest.LineWith(m.View(), "pass line")
	if score == "" {
		t.Fatalf("no score after handing in:\n%s", m.View())
	}
	return m, score
}

// TestPastExamsReopenAnyRecentExam: after two exams, Past exams on the
// quiz menu lists both, newest first, each with its date, score and
// number of questions, and enter reopens the one chosen, the older one
// too (only the latest could be reopened).
func TestPastExamsReopenAnyRecentExam(t *testing.T) {
	pool := testPool(t)
	clock := &fakeClock{t: quizT0}
	prog := qz.Memory()
	_, first := takeExam(t, pool, clock, prog, 4, 3)
	clock.Advance(2 * time.Hour)
	m, second := takeExam(t, pool, clock, prog, 5, 0)
	if first == second {
		t.Fatalf("the two exams score alike: %q", first)
	}
	// esc from the results is the menu; Past exams is its last entry.
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("G"))
	if line := uitest.LineWith(m.View(), "▸"); !strings.Contains(line, "Past exams (2 kept)") {
		t.Fatalf("the menu's last entry is not Past exams with 2 kept:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	v := m.View()
	newer, older := uitest.LineWith(v, "2026-03-14 11:33 UTC"), uitest.LineWith(v, "2026-03-14 09:31 UTC")
	if !strings.Contains(newer, "▸") || !strings.Contains(newer, "0/3 right (0%)") || !strings.Contains(newer, "3 questions") {
		t.Errorf("the newest exam is not first, chosen, with its score and count: %q\n%s", newer, v)
	}
	if !strings.Contains(older, "3/3 right (100%)") || !strings.Contains(older, "✓ passed") || strings.Index(v, older) < strings.Index(v, newer) {
		t.Errorf("the older exam is not listed below with its score: %q\n%s", older, v)
	}
	if !strings.Contains(v, "your last 10 mock exams") {
		t.Errorf("the list does not say how many exams are kept:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("down"), uitest.Press("enter"))
	if got := uitest.LineWith(m.View(), "pass line"); got != first {
		t.Fatalf("enter on the older exam opens %q, want %q:\n%s", got, first, m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("right"))
	if v := m.View(); !strings.Contains(v, "Answer 1 of 3") || !strings.Contains(v, "✓ right") {
		t.Errorf("the older exam does not walk its answers:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("up"), uitest.Press("enter"))
	if got := uitest.LineWith(m.View(), "pass line"); got != second {
		t.Errorf("back on the list, enter on the newest opens %q, want %q", got, second)
	}
	// The mouse, as on the menu: a click chooses, a second one opens.
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	x, y := uitest.CellOf(t, m.View(), "09:31 UTC")
	m, _ = uitest.Drive(m, uitest.MousePress(x, y, tea.MouseButtonLeft))
	if !strings.Contains(uitest.LineWith(m.View(), "09:31 UTC"), "▸") {
		t.Fatalf("a click did not choose the older exam:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.MousePress(x, y, tea.MouseButtonLeft))
	if got := uitest.LineWith(m.View(), "pass line"); got != first {
		t.Errorf("a second click opens %q, want %q", got, first)
	}
}

// TestPastExamsReadAnOlderFile: a progress file from before exams were
// kept for reopening, with one exam and no answers, still loads; the exam
// is listed and enter says why it cannot be reopened.
func TestPastExamsReadAnOlderFile(t *testing.T) {
	dir := t.TempDir()
	old := `{"schemaVersion": 1, "scenarios": {}, "items": {}, "exams": [
  {"at": "2026-02-01T08:00:00Z", "questions": 20, "correct": 15, "passMark": 0.7, "passed": true, "seconds": 1500, "byTopic": {"layers": [15, 20]}}
]}`
	if err := os.WriteFile(filepath.Join(dir, qz.FileName), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := qz.Open(dir)
	if err != nil || store.Notice != "" {
		t.Fatalf("an older file did not load as it is: %v %q", err, store.Notice)
	}
	useQuiz(t, testPool(t), &fakeClock{t: quizT0}, true)
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), Progress: store}), uitest.Size120)
	for range uitest.HomeKeyIndex(t, ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}), "Practice & exam") {
		m, _ = uitest.Drive(m, uitest.Press("down"))
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"), uitest.Press("G"), uitest.Press("enter"))
	line := uitest.LineWith(m.View(), "2026-02-01 08:00 UTC")
	for _, want := range []string{"15/20 right (75%)", "20 questions", "answers not kept"} {
		if !strings.Contains(line, want) {
			t.Errorf("the older exam's row %q lacks %q:\n%s", line, want, m.View())
		}
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	if st := m.(*ui.App).Status().Text; !strings.Contains(st, "answers were not kept") {
		t.Errorf("enter on it says %q", st)
	}
}
