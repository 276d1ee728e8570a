package quiz_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errorlab/errorlab/ui/internal/uitest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/pages/quiz"
)

// quizT0 is the fake clock's start.
var quizT0 = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)

// fakeClock is a clock the test moves; the teatest program reads it from
// its own goroutine.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// testQuestion is a one-part authored item; correct holds the right
// letters ("B", "AC").
func testQuestion(id, topic string, multi bool, correct, stem string, texts ...string) *qz.Item {
	p := qz.Part{Multi: multi}
	if multi {
		p.Prompt = "Choose all that apply."
	}
	for i, t := range texts {
		ok := strings.Contains(correct, qz.Letter(i))
		expl := "Not this: " + strings.ToLower(t[:1]) + t[1:] + " does not fit."
		if ok {
			expl = "Yes: " + strings.ToLower(t[:1]) + t[1:] + " is what the rules ask for."
		}
		p.Choices = append(p.Choices, qz.Choice{Text: t, Explanation: expl, Correct: ok})
	}
	return &qz.Item{ID: id, Kind: qz.KindQuestion, Topic: topic, Rule: "§2", Difficulty: 1, Stem: stem, Parts: []qz.Part{p}}
}

// exhibitQuestion is a drill-like question with a short stem whose
// exhibit is a JSON object of fields numbered fields and a last one
// (fields+3 lines).
func exhibitQuestion(fields int) *qz.Item {
	var ex strings.Builder
	ex.WriteString("{\n")
	for i := range fields {
		fmt.Fprintf(&ex, "  \"field%02d\": %d,\n", i, i)
	}
	ex.WriteString("  \"last\": true\n}")
	it := testQuestion("t/ex", "categories", false, "B", "Classify the response.", "transient", "business", "validation", "permission")
	it.Parts[0].Prompt = "Which errorCategory fits?"
	it.Exhibit = ex.String()
	return it
}

// testQuestions are authored items kept in the test, so goldens do not
// move when the bank grows.
func testQuestions() []*qz.Item {
	return []*qz.Item{
		testQuestion("t/window", "categories", false, "B",
			"A refund is refused because the order is past the 30-day return window. Which errorCategory should the refusal carry?",
			"transient", "business", "validation", "permission"),
		testQuestion("t/retry", "retryable", false, "A",
			"A lookup times out after 10 s because the warehouse service is briefly overloaded. What should isRetryable say?",
			"true: the same call can work after a wait", "false: never call again", "nothing: leave it out"),
		testQuestion("t/mirror", "metadata", true, "AC",
			"Which of these make a tool execution error readable by every client?",
			"isError: true on the result", "a JSON-RPC error member", "the structured error mirrored as JSON in a text block", "an HTTP 500 status"),
		testQuestion("t/unknown", "layers", false, "A",
			"The host calls a tool the server does not offer. What comes back?",
			"A JSON-RPC error naming the unknown tool", "A result with isError and errorCategory validation", "A success with empty content"),
	}
}

var testDrills = sync.OnceValues(func() ([]*qz.Item, error) {
	cat, err := scenarios.Default()
	if err != nil {
		return nil, err
	}
	sc, ok := cat.Get(uitest.TimeoutID)
	if !ok {
		return nil, errors.New("no " + uitest.TimeoutID)
	}
	return qz.Drills(context.Background(), &scenarios.Catalog{Scenarios: []*scenarios.Scenario{sc}})
})

// testPool is the test questions and the drills of timeout-second-try.
func testPool(t testing.TB) *qz.Pool {
	t.Helper()
	drills, err := testDrills()
	if err != nil {
		t.Fatalf("drills: %v", err)
	}
	p, err := qz.NewPool(testQuestions(), drills)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// useQuiz makes the quiz screens load pool and read clock; ticks are
// real unless noTick, when they are dropped (the test sends them).
func useQuiz(t testing.TB, pool *qz.Pool, clock *fakeClock, noTick bool) {
	t.Helper()
	quiz.UseHooks(t, pool, clock.Now, noTick)
}

// sameSession draws the session the app will draw, to know its items.
func sameSession(t testing.TB, pool *qz.Pool, prog *qz.Progress, o qz.Options) *qz.Session {
	t.Helper()
	s, err := qz.NewSession(pool, prog, o, quizT0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// answerKeys are the keys that answer an item right (or, !right, wrong
// in its first part), each part reached with tab.
func answerKeys(it *qz.Item, right bool) []tea.Msg {
	var keys []tea.Msg
	for i, p := range it.Parts {
		if i > 0 {
			keys = append(keys, uitest.Press("tab"))
		}
		if i == 0 && !right {
			for j, c := range p.Choices {
				if !c.Correct {
					keys = append(keys, uitest.Press(fmt.Sprint(j+1)))
					break
				}
			}
			continue
		}
		set := p.CorrectSet()
		if p.AnyOf {
			set = set[:1]
		}
		for _, j := range set {
			keys = append(keys, uitest.Press(fmt.Sprint(j+1)))
		}
	}
	return keys
}

func sendAll(tm *teatest.TestModel, msgs []tea.Msg) {
	for _, m := range msgs {
		tm.Send(m)
	}
}

func sessionOf(t testing.TB, m tea.Model) *quiz.Session {
	t.Helper()
	s, ok := m.(*ui.App).Top().(*quiz.Session)
	if !ok {
		t.Fatalf("top screen is %T, not a quiz session", m.(*ui.App).Top())
	}
	return s
}

func quizSizes() [][2]int { return [][2]int{{80, 24}, {120, 40}} }

// TestQuizPracticeFlow answers one item right and one wrong: ✓ then ✗,
// every choice explained, both answers recorded.
func TestQuizPracticeFlow(t *testing.T) {
	for _, sz := range quizSizes() {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			pool := testPool(t)
			useQuiz(t, pool, &fakeClock{t: quizT0}, false)
			start := &quiz.Start{Mode: qz.Practice, Count: 3, Seed: 7}
			s := sameSession(t, pool, nil, qz.Options{Mode: qz.Practice, Count: 3, Seed: 7})
			store := qz.Memory()
			tm := teatest.NewTestModel(t, ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), Progress: store, Quiz: start}),
				teatest.WithInitialTermSize(sz[0], sz[1]))
			uitest.WaitFor(t, tm, "Question 1 of 3")

			sendAll(tm, answerKeys(s.Items[0], true))
			tm.Send(uitest.Press("enter"))
			uitest.WaitFor(t, tm, "✓ Right.")
			tm.Send(uitest.Press("n"))
			uitest.WaitFor(t, tm, "Question 2 of 3")
			sendAll(tm, answerKeys(s.Items[1], false))
			tm.Send(uitest.Press("enter"))
			uitest.WaitFor(t, tm, "✗ Not right.")

			tm.Send(uitest.Press("q"))
			view := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
			for _, want := range []string{"✗ Not right.", "✓ 1 ✗ 1", "✓ correct", "your pick"} {
				if !strings.Contains(view, want) {
					t.Errorf("final view lacks %q:\n%s", want, view)
				}
			}
			teatest.RequireEqualOutput(t, []byte(view))
			p, err := store.Load()
			if err != nil {
				t.Fatal(err)
			}
			r0, r1 := p.Items[s.Items[0].ID], p.Items[s.Items[1].ID]
			if !r0.LastRes || r0.Right != 1 || r1.LastRes || r1.Box != qz.BoxMissed {
				t.Errorf("recorded %+v and %+v", r0, r1)
			}
		})
	}
}

// TestQuizExamFlow answers some items, flags one, moves back and forth,
// submits, and sees the per-topic results. The test bank holds four
// questions: a mock exam is authored questions only (drills stay in
// practice), so it is an exam of four.
func TestQuizExamFlow(t *testing.T) {
	for _, sz := range quizSizes() {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			pool := testPool(t)
			clock := &fakeClock{t: quizT0}
			useQuiz(t, pool, clock, false)
			o := qz.Options{Mode: qz.Exam, Count: 4, Duration: 10 * time.Minute, Seed: 3}
			s := sameSession(t, pool, nil, o)
			store := qz.Memory()
			tm := teatest.NewTestModel(t, ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), Progress: store,
				Quiz: &quiz.Start{Mode: qz.Exam, Count: 4, Minutes: 10, Seed: 3}}),
				teatest.WithInitialTermSize(sz[0], sz[1]))
			uitest.WaitFor(t, tm, "Question 1 of 4")

			sendAll(tm, answerKeys(s.Items[0], true))
			tm.Send(uitest.Press("right"))
			uitest.WaitFor(t, tm, "Question 2 of 4")
			tm.Send(uitest.Press("f"))
			uitest.WaitFor(t, tm, "flagged")
			sendAll(tm, answerKeys(s.Items[1], false))
			tm.Send(uitest.Press("]"))
			uitest.WaitFor(t, tm, "Question 3 of 4")
			tm.Send(uitest.Press("left"))
			uitest.WaitFor(t, tm, "Question 2 of 4")
			tm.Send(uitest.Press("right"))
			tm.Send(uitest.Press("right"))
			uitest.WaitFor(t, tm, "Question 4 of 4")
			sendAll(tm, answerKeys(s.Items[3], true))
			clock.Advance(4*time.Minute + 30*time.Second)
			tm.Send(uitest.Press("s"))
			uitest.WaitFor(t, tm, "1 unanswered: 3")
			tm.Send(uitest.Press("enter"))
			uitest.WaitFor(t, tm, "By topic")

			tm.Send(uitest.Press("q"))
			view := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
			for _, want := range []string{"2 of 4 right (50%)", "✗ Not passed", "Time taken 4:30 of 10:00", "By topic"} {
				if !strings.Contains(view, want) {
					t.Errorf("final view lacks %q:\n%s", want, view)
				}
			}
			teatest.RequireEqualOutput(t, []byte(view))
			p, _ := store.Load()
			if len(p.Exams) != 1 || p.Exams[0].Correct != 2 || p.Exams[0].Questions != 4 || p.Exams[0].Seconds != 270 {
				t.Errorf("exam record: %+v", p.Exams)
			}
			if len(p.Items) != 4 {
				t.Errorf("%d items recorded, want 4", len(p.Items))
			}
		})
	}
}

// TestQuizReviewFlow seeds a missed item: review shows it first.
func TestQuizReviewFlow(t *testing.T) {
	for _, sz := range quizSizes() {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			pool := testPool(t)
			useQuiz(t, pool, &fakeClock{t: quizT0}, false)
			store := qz.Memory()
			uitest.Must(t, store.RecordItem("t/window", "categories", true, quizT0.Add(-3*time.Hour)))
			uitest.Must(t, store.RecordItem("t/retry", "retryable", false, quizT0.Add(-time.Hour)))
			tm := teatest.NewTestModel(t, ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), Progress: store,
				Quiz: &quiz.Start{Mode: qz.Review, Seed: 1}}), teatest.WithInitialTermSize(sz[0], sz[1]))
			uitest.WaitFor(t, tm, "Question 1 of 2")
			tm.Send(uitest.Press("b"))
			tm.Send(uitest.Press("enter"))
			uitest.WaitFor(t, tm, "Not right")
			tm.Send(uitest.Press("q"))
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
			if id := sessionOf(t, fm).Session().Items[0].ID; id != "t/retry" {
				t.Errorf("review starts with %s, want the missed t/retry", id)
			}
			view := fm.View()
			if !strings.Contains(view, "isRetryable") {
				t.Errorf("the missed item is not shown:\n%s", view)
			}
			teatest.RequireEqualOutput(t, []byte(view))
		})
	}
}

// TestQuizResultsFlow: after an exam, r shows the results with the
// history row and the weakest topic.
func TestQuizResultsFlow(t *testing.T) {
	for _, sz := range quizSizes() {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			pool := testPool(t)
			clock := &fakeClock{t: quizT0}
			useQuiz(t, pool, clock, false)
			o := qz.Options{Mode: qz.Exam, Count: 4, Seed: 5}
			s := sameSession(t, pool, nil, o)
			store := qz.Memory()
			tm := teatest.NewTestModel(t, ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), Progress: store,
				Quiz: &quiz.Start{Mode: qz.Exam, Count: 4, Seed: 5}}), teatest.WithInitialTermSize(sz[0], sz[1]))
			uitest.WaitFor(t, tm, "Question 1 of 4")
			for i, it := range s.Items {
				sendAll(tm, answerKeys(it, i%2 == 0))
				tm.Send(uitest.Press("enter"))
			}
			uitest.WaitFor(t, tm, "Submit the exam?")
			clock.Advance(125 * time.Second)
			tm.Send(uitest.Press("y"))
			uitest.WaitFor(t, tm, "By topic")
			tm.Send(uitest.Press("r"))
			uitest.WaitFor(t, tm, "Mock exams")
			tm.Send(uitest.Press("q"))
			view := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
			weakest := qz.Summarize(pool, mustLoad(t, store)).Weakest
			if len(weakest) == 0 {
				t.Fatal("no weakest topic after a half-wrong exam")
			}
			for _, want := range []string{"2026-03-14 09:32 UTC", "2/4 (50%)", "✗ not passed", "▸ " + qz.TopicTitle(weakest[0])} {
				if !strings.Contains(view, want) {
					t.Errorf("results lack %q:\n%s", want, view)
				}
			}
			teatest.RequireEqualOutput(t, []byte(view))
		})
	}
}

func mustLoad(t testing.TB, store *qz.Store) *qz.Progress {
	t.Helper()
	p, err := store.Load()
	uitest.Must(t, err)
	return p
}

// openQuiz builds the app at 120x40 started in a quiz session, ticks off.
func openQuiz(t testing.TB, pool *qz.Pool, clock *fakeClock, prog ui.Progress, start *quiz.Start, msgs ...tea.Msg) tea.Model {
	t.Helper()
	useQuiz(t, pool, clock, true)
	a := ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), Progress: prog, Quiz: start})
	msgs = append([]tea.Msg{uitest.Size120}, msgs...)
	msgs = append([]tea.Msg{a.Init()()}, msgs...)
	m, _ := uitest.Drive(a, msgs...)
	return m
}

// TestExamShowsNoVerdict: before the exam is submitted no verdict, mark or
// explanation shows, right or wrong.
func TestExamShowsNoVerdict(t *testing.T) {
	pool := testPool(t)
	s := sameSession(t, pool, nil, qz.Options{Mode: qz.Exam, Count: 6, Seed: 9})
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 6, Seed: 9})
	for i, it := range s.Items {
		m, _ = uitest.Drive(m, answerKeys(it, i%2 == 0)...)
		m, _ = uitest.Drive(m, uitest.Press("enter"))
		view := m.View()
		for _, bad := range []string{"✓ Right", "Not right", "✓ correct", "✗ wrong", "your pick", "Yes: ", "Not this: ", "Takeaway"} {
			if strings.Contains(view, bad) {
				t.Fatalf("item %d: the exam shows %q before submit:\n%s", i+1, bad, view)
			}
		}
	}
	if !strings.Contains(m.View(), "Submit the exam?") {
		t.Fatalf("enter on the last item does not ask to submit:\n%s", m.View())
	}
}

// TestExamTimeUp: when the clock reaches 0 the exam is handed in, with a
// notice, and recorded.
func TestExamTimeUp(t *testing.T) {
	pool := testPool(t)
	clock := &fakeClock{t: quizT0}
	store := qz.Memory()
	m := openQuiz(t, pool, clock, store, &quiz.Start{Mode: qz.Exam, Count: 3, Minutes: 1, Seed: 2})
	sess := sessionOf(t, m)
	if !strings.Contains(m.View(), "time left 1:00") {
		t.Fatalf("no countdown:\n%s", m.View())
	}
	clock.Advance(59 * time.Second)
	m, _ = uitest.Drive(m, sess.Tick())
	if !strings.Contains(m.View(), "time left 0:01") {
		t.Fatalf("the countdown does not follow the clock:\n%s", m.View())
	}
	clock.Advance(time.Second)
	m, _ = uitest.Drive(m, sess.Tick())
	res, ok := m.(*ui.App).Top().(*quiz.ExamResults)
	if !ok {
		t.Fatalf("time up: top screen is %T", m.(*ui.App).Top())
	}
	if !res.TimeUp() || !res.Session().Submitted {
		t.Error("not submitted on time up")
	}
	view := m.View()
	for _, want := range []string{"Time is up", "3 unanswered", "time ran out", "0 of 3 right"} {
		if !strings.Contains(view, want) {
			t.Errorf("time-up view lacks %q:\n%s", want, view)
		}
	}
	if p := mustLoad(t, store); len(p.Exams) != 1 || len(p.Items) != 3 {
		t.Errorf("recorded %d exams, %d items", len(p.Exams), len(p.Items))
	}
	// A late tick of the finished session changes nothing.
	m, _ = uitest.Drive(m, sess.Tick())
	if p := mustLoad(t, store); len(p.Exams) != 1 {
		t.Errorf("a late tick recorded the exam again")
	}
	if _, ok := m.(*ui.App).Top().(*quiz.ExamResults); !ok {
		t.Errorf("a late tick left the results: %T", m.(*ui.App).Top())
	}
}

// TestMultiSelectNeedsAll: one of two right choices is wrong; both is
// right; space toggles.
func TestMultiSelectNeedsAll(t *testing.T) {
	var multi *qz.Item
	for _, it := range testQuestions() {
		if it.ID == "t/mirror" {
			multi = it
		}
	}
	pool, err := qz.NewPool([]*qz.Item{multi})
	uitest.Must(t, err)
	start := &quiz.Start{Mode: qz.Practice, Count: 1, Seed: 1}
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), start, uitest.Press("a"), uitest.Press("enter"))
	if v := m.View(); !strings.Contains(v, "✗ Not right. The answers are A, C.") || !strings.Contains(v, "choose all that apply") && !strings.Contains(v, "Choose all that apply") {
		t.Fatalf("A alone is not wrong:\n%s", v)
	}
	m = openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), start, uitest.Press("a"), uitest.Press("down"), uitest.Press("down"), uitest.Press(" "), uitest.Press("enter"))
	if v := m.View(); !strings.Contains(v, "✓ Right.") {
		t.Fatalf("A and C (space on C) is not right:\n%s", v)
	}
	m = openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), start, uitest.Press("a"), uitest.Press("c"), uitest.Press("b"), uitest.Press("b"), uitest.Press("enter"))
	if v := m.View(); !strings.Contains(v, "✓ Right.") {
		t.Fatalf("b twice does not untoggle:\n%s", v)
	}
	if multi.Check(qz.Answer{{0}}) || !multi.Check(qz.Answer{{2, 0}}) {
		t.Error("engine: multi-select check")
	}
}

// TestSubmitConfirmation lists the unanswered and flagged questions;
// n keeps working.
func TestSubmitConfirmation(t *testing.T) {
	pool := testPool(t)
	s := sameSession(t, pool, nil, qz.Options{Mode: qz.Exam, Count: 4, Seed: 4})
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 4, Seed: 4})
	m, _ = uitest.Drive(m, answerKeys(s.Items[0], true)...)
	m, _ = uitest.Drive(m, uitest.Press("right"), uitest.Press("right"), uitest.Press("f"), uitest.Press("s"))
	v := m.View()
	for _, want := range []string{"Submit the exam?", "1 of 4 answered", "3 unanswered: 2, 3, 4.", "1 flagged: 3."} {
		if !strings.Contains(v, want) {
			t.Errorf("confirmation lacks %q:\n%s", want, v)
		}
	}
	m, quit := uitest.Drive(m, uitest.Press("q"))
	if quit {
		t.Fatal("q quit from the confirmation")
	}
	m, _ = uitest.Drive(m, uitest.Press("n"))
	if strings.Contains(m.View(), "Submit the exam?") || sessionOf(t, m).Cur() != 2 {
		t.Fatalf("n did not go back to question 3:\n%s", m.View())
	}
}

// TestExamEscAsks: esc asks; n stays; y leaves with nothing recorded.
func TestExamEscAsks(t *testing.T) {
	pool := testPool(t)
	store := qz.Memory()
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4}, uitest.Press("a"), uitest.Press("esc"))
	if !strings.Contains(m.View(), "Leave the exam?") {
		t.Fatalf("esc did not ask:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	sessionOf(t, m)
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("y"))
	if _, ok := m.(*ui.App).Top().(*quiz.Menu); !ok {
		t.Fatalf("y did not leave to the menu: %T", m.(*ui.App).Top())
	}
	if p := mustLoad(t, store); len(p.Exams) != 0 || len(p.Items) != 0 {
		t.Errorf("an abandoned exam was recorded: %+v", p)
	}
}

// TestPracticeNeedsAnswer: enter with a part empty warns and focuses it.
func TestPracticeNeedsAnswer(t *testing.T) {
	pool := testPool(t)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Seed: 7}, uitest.Press("enter"))
	if st := m.(*ui.App).Status(); st.Kind != common.StatusWarn || !strings.Contains(st.Text, "answer") {
		t.Fatalf("status %+v", st)
	}
	if sessionOf(t, m).Checked(0) {
		t.Fatal("an empty answer was checked")
	}
}

// failingProgress fails every write.
type failingProgress struct{ *qz.Store }

func (failingProgress) RecordItem(string, string, bool, time.Time) error {
	return errors.New("disk full")
}
func (failingProgress) RecordExam(qz.ExamRecord) error { return errors.New("disk full") }

// TestProgressErrorsShowAndContinue: a failing store shows in the status
// line and the session goes on.
func TestProgressErrorsShowAndContinue(t *testing.T) {
	pool := testPool(t)
	s := sameSession(t, pool, nil, qz.Options{Mode: qz.Practice, Count: 2, Seed: 7})
	prog := failingProgress{qz.Memory()}
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, prog, &quiz.Start{Mode: qz.Practice, Count: 2, Seed: 7})
	m, _ = uitest.Drive(m, answerKeys(s.Items[0], true)...)
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	if line := uitest.LineWith(m.View(), "disk full"); !strings.Contains(line, "⚠") {
		t.Fatalf("no warning with a symbol:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("n"))
	if sessionOf(t, m).Cur() != 1 {
		t.Fatal("the session stopped")
	}
	m = openQuiz(t, pool, &fakeClock{t: quizT0}, prog, &quiz.Start{Mode: qz.Exam, Count: 2, Seed: 7}, uitest.Press("s"), uitest.Press("y"))
	if _, ok := m.(*ui.App).Top().(*quiz.ExamResults); !ok || !strings.Contains(m.View(), "not saved: disk full") {
		t.Fatalf("exam: %T\n%s", m.(*ui.App).Top(), m.View())
	}
}

// TestNothingToReview: an empty review is a friendly screen whose p
// starts a practice session.
func TestNothingToReview(t *testing.T) {
	pool := testPool(t)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Review})
	if v := m.View(); !strings.Contains(v, "Nothing to review yet") || !strings.Contains(v, "practise") {
		t.Fatalf("no friendly screen:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("p"))
	if s := sessionOf(t, m); s.Session().Mode != qz.Practice {
		t.Fatalf("p opened %s", s.Session().Mode)
	}
}

// TestQuizMenuSetUp walks Home → Practice & exam → Mock exam set-up,
// types a count (q does not quit while typing) and starts.
func TestQuizMenuSetUp(t *testing.T) {
	pool := testPool(t)
	useQuiz(t, pool, &fakeClock{t: quizT0}, true)
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}), uitest.Size120)
	for !strings.Contains(uitest.LineWith(m.View(), "▸"), "Practice & exam") {
		m, _ = uitest.Drive(m, uitest.Press("down"))
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	if v := m.View(); !strings.Contains(v, "4 exam-style questions and 5 drills on 10 topics") {
		t.Fatalf("menu not loaded:\n%s", v)
	}
	// The menu's help offers the menu's keys, not a set-up's not yet open.
	m, _ = uitest.Drive(m, uitest.Press("?"))
	if v := m.View(); strings.Contains(v, "close the set-up") {
		t.Fatalf("the menu's help lists the set-up's keys:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("?"))
	m, _ = uitest.Drive(m, uitest.Press("down"), uitest.Press("enter"))
	if v := m.View(); !strings.Contains(v, "Mock exam · set up") || !strings.Contains(v, "Minutes") {
		t.Fatalf("no exam set-up:\n%s", v)
	}
	// The time follows the typed count at once, not on leaving the field.
	m, _ = uitest.Drive(m, uitest.Press("2"))
	if row := uitest.LineWith(m.View(), "Minutes"); !strings.Contains(row, " 3 ") {
		t.Fatalf("typing 2 questions left the time at %q, want 3 minutes", row)
	}
	// 24 is more than the bank holds: the field shows 4 at once.
	m, _ = uitest.Drive(m, uitest.Press("4"))
	if row := uitest.LineWith(m.View(), "Questions"); !strings.Contains(row, "‹ 4▏ ›") {
		t.Fatalf("typing 24 of 4 shows %q, want the most the exam holds, 4", row)
	}
	m, quit := uitest.Drive(m, uitest.Press("q"))
	if quit {
		t.Fatal("q quit while typing a number")
	}
	// Every number field shows its top at once: a pass line of 500% is 100%.
	m, _ = uitest.Drive(m, uitest.Press("down"), uitest.Press("down"), uitest.Press("5"), uitest.Press("0"), uitest.Press("0"))
	if row := uitest.LineWith(m.View(), "Pass line"); !strings.Contains(row, "100▏") {
		t.Fatalf("typing a pass line of 500 shows %q, want 100", row)
	}
	// ⌫ on a value shown, not typed, takes its last digit off (it did nothing).
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("backspace"))
	if row := uitest.LineWith(m.View(), "Pass line"); !strings.Contains(row, " 7▏") {
		t.Fatalf("⌫ on a pass line of 70 shows %q, want 7 being typed", row)
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("left"), uitest.Press("enter"))
	s := sessionOf(t, m)
	if len(s.Session().Items) != 4 || s.Session().Duration != 6*time.Minute || s.Session().PassMark != 0.65 {
		t.Fatalf("exam of %d items, %s, pass %.2f", len(s.Session().Items), s.Session().Duration, s.Session().PassMark)
	}
	// Practice on a topic.
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("y"), uitest.Press("up"), uitest.Press("enter"), uitest.Press("right"), uitest.Press("right"), uitest.Press("enter"))
	s = sessionOf(t, m)
	if s.Session().Topic != qz.Topics[1].ID {
		t.Fatalf("practice topic %q", s.Session().Topic)
	}
	for _, it := range s.Session().Items {
		if it.Topic != qz.Topics[1].ID {
			t.Fatalf("item %s is on %s", it.ID, it.Topic)
		}
	}
}

// TestPracticeEndsInResults: after the last item, n shows the results
// with the session's score.
func TestPracticeEndsInResults(t *testing.T) {
	pool := testPool(t)
	s := sameSession(t, pool, nil, qz.Options{Mode: qz.Practice, Count: 2, Seed: 7})
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: 2, Seed: 7})
	m, _ = uitest.Drive(m, answerKeys(s.Items[0], true)...)
	m, _ = uitest.Drive(m, uitest.Press("enter"), uitest.Press("n"))
	m, _ = uitest.Drive(m, answerKeys(s.Items[1], false)...)
	m, _ = uitest.Drive(m, uitest.Press("enter"), uitest.Press("n"))
	if _, ok := m.(*ui.App).Top().(*quiz.Results); !ok {
		t.Fatalf("top is %T", m.(*ui.App).Top())
	}
	if v := m.View(); !strings.Contains(v, "Practice done: 1 of 2 right (50%).") {
		t.Fatalf("no banner:\n%s", v)
	}
	// enter on the weak topic practises it, and the end comes back here.
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	ss := sessionOf(t, m)
	if !ss.HasParent() || ss.Session().Topic == "" {
		t.Fatalf("weak-topic practice: parent %v topic %q", ss.HasParent(), ss.Session().Topic)
	}
}

// TestExamReviewWalk: after submit, → walks every answer with the
// learner's choice and every explanation.
func TestExamReviewWalk(t *testing.T) {
	pool := testPool(t)
	s := sameSession(t, pool, nil, qz.Options{Mode: qz.Exam, Count: 3, Seed: 4})
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4})
	m, _ = uitest.Drive(m, answerKeys(s.Items[0], false)...)
	m, _ = uitest.Drive(m, uitest.Press("s"), uitest.Press("y"), uitest.Press("right"))
	v := m.View()
	for _, want := range []string{"Answer 1 of 3", "✗ wrong · your pick", "✓ correct"} {
		if !strings.Contains(v, want) {
			t.Errorf("review lacks %q:\n%s", want, v)
		}
	}
	// Only the learner's own wrong pick gets ✗: a wrong option left
	// alone is no mistake (a new user read "✗ wrong" there as one).
	if !strings.Contains(v, "✓ correct · you missed it") {
		t.Errorf("the right answer the learner missed is not marked as missed:\n%s", v)
	}
	if strings.Contains(v, "✗ wrong —") || !strings.Contains(v, "– wrong option —") {
		t.Errorf("want the wrong options not picked marked – wrong option, not ✗ wrong:\n%s", v)
	}
	// A dash, not a colon, sets the explanation apart from the mark (after
	// "your pick:" a new user read the explanation as the pick itself).
	if strings.Contains(v, "you missed it:") || !strings.Contains(v, "you missed it —") {
		t.Errorf("want a dash between the mark and its explanation:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("right"))
	if v := m.View(); !strings.Contains(v, "Answer 2 of 3") || !strings.Contains(v, "not answered") {
		t.Errorf("second answer:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("left"), uitest.Press("left"))
	if v := m.View(); !strings.Contains(v, "By topic") {
		t.Errorf("← from the first answer is not the overview:\n%s", v)
	}
}

// BenchmarkQuizView measures one frame of a practice item with an
// exhibit at 120x40 (target: at most 2 ms).
func BenchmarkQuizView(b *testing.B) {
	pool := testPool(b)
	var withEx []*qz.Item
	for _, it := range pool.Items {
		if it.Exhibit != "" {
			withEx = append(withEx, it)
		}
	}
	p, err := qz.NewPool(withEx)
	uitest.Must(b, err)
	m := openQuiz(b, p, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: 1, Seed: 1})
	if !sessionOf(b, m).HasExhibit() {
		b.Fatal("no exhibit")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}

// quizScreenStates are the quiz screens for the size sweep, on the real
// pool (the longest texts and exhibits).
func quizScreenStates(t testing.TB) map[string]tea.Model {
	t.Helper()
	cat := uitest.Catalog(t)
	pool, err := quiz.LoadPool(context.Background(), cat, nil)
	if err != nil {
		t.Fatalf("pool: %v", err)
	}
	clock := &fakeClock{t: quizT0}
	quiz.UseHooks(t, nil, clock.Now, true)

	// withSession opens the app on a session drawn from items (a kind).
	// The session is built on the App's own Common, taken from the menu
	// New puts on top for a Start; the session replaces that menu, so
	// the stack is Home and the session.
	withSession := func(o qz.Options, msgs ...tea.Msg) tea.Model {
		a := ui.New(ui.Options{Catalog: cat, Progress: qz.Memory(), Quiz: &quiz.Start{}})
		m, _ := uitest.Drive(a, uitest.Size120)
		c := quiz.CommonOf(m.(*ui.App).Top())
		s, err := qz.NewSession(pool, nil, o, quizT0)
		if err != nil {
			t.Fatal(err)
		}
		m, _ = uitest.Drive(m, append([]tea.Msg{common.NavMsg{Push: quiz.NewSession(c, pool, s), Replace: true}}, msgs...)...)
		return m
	}
	classify := qz.Options{Mode: qz.Practice, Count: 3, Seed: 11, Kinds: []qz.Kind{qz.KindClassify}}
	next := qz.Options{Mode: qz.Practice, Count: 3, Seed: 11, Kinds: []qz.Kind{qz.KindNextAction}}
	exam := qz.Options{Mode: qz.Exam, Count: 20, Seed: 11, Duration: 30 * time.Minute}
	ex := sameSession(t, pool, nil, exam)
	cl := sameSession(t, pool, nil, classify)
	nx := sameSession(t, pool, nil, next)
	var examKeys []tea.Msg
	for i, it := range ex.Items[:6] {
		examKeys = append(examKeys, answerKeys(it, i%2 == 0)...)
		examKeys = append(examKeys, uitest.Press("right"))
	}
	examKeys = append(examKeys, uitest.Press("f"), uitest.Press("left"))
	store := qz.Memory()
	menu := func(msgs ...tea.Msg) tea.Model {
		a := ui.New(ui.Options{Catalog: cat, Progress: store})
		m, _ := uitest.Drive(a, uitest.Size120)
		for !strings.Contains(uitest.LineWith(m.View(), "▸"), "Practice & exam") {
			m, _ = uitest.Drive(m, uitest.Press("down"))
		}
		m, _ = uitest.Drive(m, append([]tea.Msg{uitest.Press("enter")}, msgs...)...)
		return m
	}
	submitted := withSession(exam, append(append([]tea.Msg{}, examKeys...), uitest.Press("s"), uitest.Press("y"))...)
	return map[string]tea.Model{
		"quiz-menu":           menu(),
		"quiz-setup":          menu(uitest.Press("down"), uitest.Press("enter"), uitest.Press("3")),
		"quiz-item-exhibit":   withSession(classify),
		"quiz-exhibit-focus":  withSession(classify, uitest.Press("tab"), uitest.Press("tab"), uitest.Press("tab"), uitest.Press("tab"), uitest.Press("down")),
		"quiz-practice-multi": withSession(classify, append(answerKeys(cl.Items[0], false), uitest.Press("enter"))...),
		"quiz-practice-next":  withSession(next, append(answerKeys(nx.Items[0], true), uitest.Press("enter"))...),
		"quiz-exam-navigator": withSession(exam, examKeys...),
		"quiz-exam-confirm":   withSession(exam, append(append([]tea.Msg{}, examKeys...), uitest.Press("s"))...),
		"quiz-exam-results":   submitted,
		"quiz-exam-review":    withSession(exam, append(append([]tea.Msg{}, examKeys...), uitest.Press("s"), uitest.Press("y"), uitest.Press("right"), uitest.Press("right"))...),
		"quiz-results":        func() tea.Model { m, _ := uitest.Drive(submitted, uitest.Press("r")); return m }(),
		"quiz-review-nothing": menu(uitest.Press("down"), uitest.Press("down"), uitest.Press("enter")),
		"quiz-exam-fullhelp":  withSession(exam, uitest.Press("?")),
	}
}

// TestQuizScreensFitTheirArea checks each quiz screen's own View against
// the area the root gives it (the root cuts what overflows, which would
// hide text): no line wider, no more lines.
func TestQuizScreensFitTheirArea(t *testing.T) {
	for name, m := range quizScreenStates(t) {
		for _, sz := range [][2]int{{60, 20}, {61, 21}, {80, 24}, {100, 30}, {109, 30}, {110, 30}, {120, 40}, {200, 60}} {
			m, _ = m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			top := m.(*ui.App).Top()
			bodyW, bodyH := quiz.AreaOf(top)
			lines := strings.Split(top.View(), "\n")
			if len(lines) > bodyH {
				t.Errorf("%s at %dx%d: %d lines for %d rows", name, sz[0], sz[1], len(lines), bodyH)
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > bodyW {
					t.Errorf("%s at %dx%d: line %d is %d wide for %d: %q", name, sz[0], sz[1], i, w, bodyW, ansi.Strip(l))
					break
				}
			}
		}
	}
}
