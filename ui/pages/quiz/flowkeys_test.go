package quiz_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/quiz"
)

// header is the breadcrumb row of the app's view.
func header(m tea.Model) string {
	return strings.TrimSpace(strings.SplitN(m.View(), "\n", 2)[0])
}

// A new user's `quiz --mode exam --count 500 --seed 1` set 68 questions
// while the set-up offered at most 48, and said nothing of the shortfall
// once a key was pressed. The exam now holds what the set-up offers
// (Pool.ExamCapacity), says on every question that it is fewer than
// asked, and the set-up afterwards offers that same number.
func TestQuizExamCountCapped(t *testing.T) {
	pool, err := quiz.LoadPool(context.Background(), uitest.Catalog(t), nil)
	uitest.Must(t, err)
	n := pool.ExamCapacity("")
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 500, Seed: 1})
	short := fmt.Sprintf("%d questions, not 500: the rest of the bank would give answers away", n)
	for i, keys := range [][]tea.Msg{nil, {uitest.Press("right")}, {uitest.Press("right"), uitest.Press("f")}} {
		m, _ = uitest.Drive(m, keys...)
		v := m.View()
		if !strings.Contains(v, fmt.Sprintf(" of %d ", n)) || !strings.Contains(v, short) {
			t.Fatalf("step %d: want %d questions and %q on screen:\n%s", i, n, short, v)
		}
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("y"))
	m, _ = uitest.Drive(m, uitest.Press("enter")) // the menu's cursor is on Mock exam
	row := strings.Join(strings.Fields(uitest.LineWith(m.View(), "Questions")), " ")
	if want := fmt.Sprintf("‹ %d › of at most %d: no two give each other away", n, n); !strings.Contains(row, want) {
		t.Errorf("the set-up after the capped exam: %q, want %q", row, want)
	}
}

// esc (or q) in an exam asks; enter there used to leave and discard the
// exam. Only y discards now; enter stays, and the question says so.
func TestExamLeaveEnterStays(t *testing.T) {
	pool := testPool(t)
	store := qz.Memory()
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4}, uitest.Press("a"))
	for _, leave := range []string{"esc", "q"} {
		m, _ = uitest.Drive(m, uitest.Press(leave))
		v := uitest.Flat(m.View())
		if !strings.Contains(v, "Leavetheexam") || !strings.Contains(v, "yleave,discard") && !strings.Contains(v, "yleaveanddiscard") || !strings.Contains(v, "n,escorenterstayintheexam") ||
			strings.Contains(v, "yorenterleave") {
			t.Fatalf("%s: the question does not say y leaves and enter stays:\n%s", leave, m.View())
		}
		var quit bool
		m, quit = uitest.Drive(m, uitest.Press("enter"))
		v = m.View()
		if quit || strings.Contains(v, "Leave the exam") || !strings.Contains(v, "Question 1 of 3") || strings.Contains(v, "abandoned") {
			t.Fatalf("%s then enter did not stay in the exam (quit %v):\n%s", leave, quit, v)
		}
	}
	if s := sessionOf(t, m); s.Session().Answers[0] == nil {
		t.Fatal("the answer given is gone")
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("y"))
	if v := m.View(); !strings.Contains(v, "exam abandoned") || len(mustLoad(t, store).Exams) != 0 {
		t.Fatalf("y did not leave and discard:\n%s", v)
	}
}

// After a practice answer is checked, enter moved on while the footer
// named only n: a second enter skipped the explanation just given. Enter
// now stays, says n moves on, and the footer and help name n; n before
// an answer says what to do instead of nothing.
func TestPracticeEnterAfterCheckStays(t *testing.T) {
	pool := testPool(t)
	o := qz.Options{Mode: qz.Practice, Count: 2, Seed: 7}
	s := sameSession(t, pool, nil, o)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: 2, Seed: 7})
	m, _ = uitest.Drive(m, uitest.Press("n"))
	if v := m.View(); !strings.Contains(v, "Question 1 of 2") || !strings.Contains(v, "answer this one first") {
		t.Fatalf("n before answering gives no hint:\n%s", v)
	}
	m, _ = uitest.Drive(m, append(answerKeys(s.Items[0], true), uitest.Press("enter"))...)
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	v := m.View()
	if !strings.Contains(v, "Question 1 of 2") || !strings.Contains(v, "✓ Right.") {
		t.Fatalf("a second enter moved on past the explanation:\n%s", v)
	}
	if !strings.Contains(v, "n for the next question (enter does not move on)") || !strings.Contains(v, "n next question") {
		t.Errorf("enter after the check does not say n moves on, or the footer does not name n:\n%s", v)
	}
	if strings.Contains(v, "enter next") {
		t.Errorf("the footer offers enter to move on:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("n"))
	if v := m.View(); !strings.Contains(v, "Question 2 of 2") {
		t.Fatalf("n did not move on:\n%s", v)
	}
}

// n in an exam (practice's key to move on) said nothing: it names the
// exam's keys.
func TestExamNSaysWhatMoves(t *testing.T) {
	pool := testPool(t)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4}, uitest.Press("n"))
	if v := m.View(); !strings.Contains(v, "Question 1 of 3") || !strings.Contains(v, "→ or enter goes to the next question") {
		t.Fatalf("n in an exam gives no hint:\n%s", v)
	}
}

// Results › a (the latest exam) › p (answer the missed again) › answers
// › n (Results) › a … grew the breadcrumb by two screens a round, and
// esc took one step back at a time. A screen already on the stack is gone
// back to, so the history stays as deep as one round.
func TestResultsHistoryDoesNotGrow(t *testing.T) {
	pool := testPool(t)
	ex := sameSession(t, pool, nil, qz.Options{Mode: qz.Exam, Count: 3, Seed: 4})
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4},
		uitest.Press("s"), uitest.Press("y"), uitest.Press("r"))
	var crumbs []string
	for round := range 3 {
		m, _ = uitest.Drive(m, uitest.Press("a"))
		crumbs = append(crumbs, header(m))
		m, _ = uitest.Drive(m, uitest.Press("p"))
		for _, it := range ex.Items { // every one was missed (none answered)
			m, _ = uitest.Drive(m, append(answerKeys(it, round%2 == 0), uitest.Press("enter"), uitest.Press("n"))...)
		}
		if _, ok := m.(*ui.App).Top().(*quiz.Results); !ok {
			t.Fatalf("round %d: the review did not end on Results:\n%s", round, m.View())
		}
		crumbs = append(crumbs, header(m))
	}
	for i, c := range crumbs {
		if strings.Count(c, "Results") > 1 || strings.Count(c, "Exam ") > 1 {
			t.Errorf("step %d: the history holds a screen twice: %q", i, c)
		}
		if i >= 2 && c != crumbs[i-2] {
			t.Errorf("step %d: the breadcrumb changed from %q to %q in one round", i, crumbs[i-2], c)
		}
	}
}

// A reopened past exam said nothing of which exam it was ("Past exams ›
// Exam results"), and its help said esc went to the menu while it went
// to the Past exams list. Its breadcrumb names it by date, the overview
// by date and score, and the help names where esc goes.
func TestReopenedExamNamesItself(t *testing.T) {
	pool := testPool(t)
	clock := &fakeClock{t: quizT0}
	m := openQuiz(t, pool, clock, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4}, uitest.Press("s"), uitest.Press("y"))
	if h := header(m); !strings.Contains(h, "› Exam results") {
		t.Fatalf("the exam just handed in: %q", h)
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("G"), uitest.Press("enter"), uitest.Press("enter"))
	h := header(m)
	if !strings.Contains(h, "Past exams › Exam 2026-03-14 09:30") {
		t.Fatalf("the reopened exam's header does not name it: %q", h)
	}
	if v := m.View(); !strings.Contains(v, "Handed in 2026-03-14 09:30 UTC") || !strings.Contains(v, "0 of 3 right") {
		t.Errorf("the overview does not give the exam's date and score:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("?"))
	if v := uitest.Flat(m.View()); !strings.Contains(v, "escbacktoPastexams") || strings.Contains(v, "backtothemenu") {
		t.Errorf("the help does not say esc goes back to Past exams:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("?"), uitest.Press("esc"))
	if h := header(m); !strings.Contains(h, "› Past exams") || strings.Contains(h, "Exam 2026") {
		t.Errorf("esc did not go back to Past exams: %q", h)
	}
}
