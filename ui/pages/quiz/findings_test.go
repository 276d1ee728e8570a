package quiz_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/quiz"
)

// TestNoticeAfterQuizAnswer: as TestNoticeAfterLabAnswer (package ui),
// in a practice session.
func TestNoticeAfterQuizAnswer(t *testing.T) {
	dir := t.TempDir()
	store, err := qz.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	pool := testPool(t)
	o := qz.Options{Mode: qz.Practice, Count: 2, Seed: 7}
	s := sameSession(t, pool, nil, o)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &quiz.Start{Mode: qz.Practice, Count: 2, Seed: 7})
	m, _ = uitest.Drive(m, append(answerKeys(s.Items[0], true), uitest.Press("enter"))...)
	if line := uitest.LineWith(m.View(), "rogress file"); line != "" {
		t.Fatalf("a notice before anything was spoiled: %q", line)
	}
	uitest.SpoilProgress(t, dir)
	m, _ = uitest.Drive(m, uitest.Press("n"))
	m, _ = uitest.Drive(m, append(answerKeys(s.Items[1], true), uitest.Press("enter"))...)
	if line := uitest.LineWith(m.View(), "Progress file "); !strings.HasPrefix(line, "⚠ ") {
		t.Fatalf("no ⚠ notice after the spoiled write:\n%s", m.View())
	}
}

// TestNoticeAfterExam: and when an exam is handed in.
func TestNoticeAfterExam(t *testing.T) {
	dir := t.TempDir()
	store, err := qz.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	pool := testPool(t)
	uitest.SpoilProgress(t, dir)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &quiz.Start{Mode: qz.Exam, Count: 2, Seed: 7}, uitest.Press("s"), uitest.Press("y"))
	if _, ok := m.(*ui.App).Top().(*quiz.ExamResults); !ok {
		t.Fatalf("not on the results: %T", m.(*ui.App).Top())
	}
	if line := uitest.LineWith(m.View(), "Progress file "); !strings.HasPrefix(line, "⚠ ") {
		t.Fatalf("no ⚠ notice after the exam:\n%s", m.View())
	}
}

// TestExamQAsks: q in a running exam asks like esc; n stays; y leaves
// and quits, with nothing recorded. After submitting, q quits at once.
func TestExamQAsks(t *testing.T) {
	pool := testPool(t)
	store := qz.Memory()
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4}, uitest.Press("a"))
	m, quit := uitest.Drive(m, uitest.Press("q"))
	if quit {
		t.Fatal("q quit a running exam at once")
	}
	v := m.View()
	for _, want := range []string{"Leave the exam", "leave, discard and quit", "stay in the exam"} {
		if !strings.Contains(v, want) {
			t.Errorf("the question lacks %q:\n%s", want, v)
		}
	}
	if line := uitest.LineWith(v, "n/esc/enter stay"); !strings.Contains(line, "y leave, discard and quit") {
		t.Errorf("help bar: %q", line)
	}
	m, quit = uitest.Drive(m, uitest.Press("n"))
	if quit || sessionOf(t, m).Confirming() {
		t.Fatal("n did not stay in the exam")
	}
	m, _ = uitest.Drive(m, uitest.Press("q"))
	_, quit = uitest.Drive(m, uitest.Press("y"))
	if !quit {
		t.Error("y after q did not quit")
	}
	if p := mustLoad(t, store); len(p.Exams) != 0 || len(p.Items) != 0 {
		t.Errorf("an abandoned exam was recorded: %+v", p)
	}
	m = openQuiz(t, pool, &fakeClock{t: quizT0}, store, &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4}, uitest.Press("s"), uitest.Press("y"))
	if _, quit := uitest.Drive(m, uitest.Press("q")); !quit {
		t.Error("q on the exam's results did not quit")
	}
}

// TestTooSmallQDoesNotLoseAnExam: below the minimum size the size message
// says "q quits", but in a running exam the first q only warns there (the
// exam's own question cannot be shown); q again quits. Enlarged again, the
// exam is where it was, asking whether to leave.
func TestTooSmallQDoesNotLoseAnExam(t *testing.T) {
	pool := testPool(t)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4}, uitest.Press("a"))
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 50, Height: 15})
	m, quit := uitest.Drive(m, uitest.Press("q"))
	if quit {
		t.Fatal("q at a too-small terminal threw a running exam away")
	}
	if v := m.View(); !strings.Contains(v, "q again quits") || !strings.Contains(uitest.Flat(v), uitest.Flat("enlarge the terminal to keep it")) {
		t.Fatalf("the size message does not warn:\n%s", v)
	}
	if _, quit = uitest.Drive(m, uitest.Press("q")); !quit {
		t.Error("q again at a too-small terminal did not quit")
	}
	// Enlarged after the first q, the exam is there, asking.
	m = openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4}, uitest.Press("a"))
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 50, Height: 15}, uitest.Press("q"), uitest.Size120)
	if v := m.View(); !strings.Contains(v, "Leave the exam") || !strings.Contains(v, "stay in the exam") {
		t.Errorf("enlarged, the exam does not ask whether to leave:\n%s", v)
	}
}

// TestArrowStopsAtTheLastQuestion: → past the last question does not open
// the hand-in question, so → → → then enter (to choose an option) cannot
// hand the exam in by accident; the status line says s hands it in.
func TestArrowStopsAtTheLastQuestion(t *testing.T) {
	m := openQuiz(t, testPool(t), &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4})
	m, _ = uitest.Drive(m, uitest.Press("right"), uitest.Press("right"), uitest.Press("right"))
	if v := m.View(); strings.Contains(v, "Submit the exam?") || !strings.Contains(v, "this is the last question: s hands the exam in") {
		t.Fatalf("→ on the last question did not stay and say so:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	if strings.Contains(m.View(), "Exam results") {
		t.Fatalf("→ → → enter handed the exam in:\n%s", m.View())
	}
}

// TestExamHelpDoesNotOfferReservedLetters: in an exam, f and s are not
// advertised as choice keys.
func TestExamHelpDoesNotOfferReservedLetters(t *testing.T) {
	pool := testPool(t)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4}, uitest.Press("?"))
	v := m.View()
	if strings.Contains(v, "a-i") {
		t.Errorf("the exam's full help offers a-i:\n%s", v)
	}
	// The full help names the same keys as the footer (a-d/1-4 for four
	// choices), and that f and s are taken.
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "a-d/1-4 choose (letters too, but f flags and s submits)") {
		t.Errorf("the exam's full help does not name the footer's keys and say f and s are taken:\n%s", v)
	}
	// Six or more choices: the short help names digits, and the letters
	// before f.
	it := testQuestion("t/six", "categories", false, "A", "Six choices?", "one", "two", "three", "four", "five", "six", "seven")
	q := quiz.NewQuestion(quiz.CommonOf(m.(*ui.App).Top()), it, "fs")
	if got := q.ChooseKeys(); got != "1-7 (a-e too)" {
		t.Errorf("chooseKeys with f reserved = %q", got)
	}
	if got := quiz.NewQuestion(quiz.CommonOf(m.(*ui.App).Top()), it, "").ChooseKeys(); got != "a-g/1-7" {
		t.Errorf("chooseKeys in practice = %q", got)
	}
}

// twentyQuestions is a pool of 20 one-part questions.
func twentyQuestions(t *testing.T) *qz.Pool {
	var items []*qz.Item
	for i := range 20 {
		items = append(items, testQuestion(fmt.Sprintf("t/q%02d", i), "categories", false, "B", fmt.Sprintf("Question %d?", i+1), "no", "yes", "maybe"))
	}
	p, err := qz.NewPool(items, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExamResultsRowAt80: 20 answers fit numbered in 80 columns; the
// unanswered show ○, the wrong ✗.
func TestExamResultsRowAt80(t *testing.T) {
	pool := twentyQuestions(t)
	in := []tea.Msg{uitest.Press("2"), uitest.Press("right"), uitest.Press("1")} // 1 right, 2 wrong, the rest unanswered
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 20, Seed: 4}, append(in, uitest.Press("s"), uitest.Press("y"))...)
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	r, ok := m.(*ui.App).Top().(*quiz.ExamResults)
	if !ok {
		t.Fatalf("not on the results: %T", m.(*ui.App).Top())
	}
	row := r.AnswerRow(80)
	if ansi.StringWidth(row) > 80 || !strings.Contains(row, "1✓ 2✗ 3○") || !strings.Contains(row, "20○") {
		t.Errorf("answer row at 80: %q", row)
	}
	if !strings.Contains(m.View(), "20○") {
		t.Errorf("the numbered row is not on screen:\n%s", m.View())
	}
	// Too narrow for every number: numbered every 5th.
	if row := ansi.Strip(r.AnswerRow(30)); row != " 1✓✗○○5○○○○○10○○○○○15○○○○○20○" {
		t.Errorf("row at 30 columns: %q", row)
	}
	// Too narrow for numbers: symbols, ○ still for the unanswered.
	if row := r.AnswerRow(22); !strings.HasPrefix(ansi.Strip(row), " ✓✗○○") {
		t.Errorf("narrow row: %q", row)
	}
}

// TestExamStripNumberedAt80: a 30-question exam's progress strip at 80
// columns still says where the learner is in numbers (it showed 30 bare
// dots): every 5th question numbered and the current one, one line, the
// answered and flagged marks kept; at 120 every question is numbered.
func TestExamStripNumberedAt80(t *testing.T) {
	var items []*qz.Item
	for i := range 30 {
		items = append(items, testQuestion(fmt.Sprintf("t/q%02d", i), "categories", false, "B", fmt.Sprintf("Question %d?", i+1), "no", "yes", "maybe"))
	}
	pool, err := qz.NewPool(items, nil)
	uitest.Must(t, err)
	in := []tea.Msg{uitest.Press("2")}
	for range 12 {
		in = append(in, uitest.Press("right"))
	}
	in = append(in, uitest.Press("f"))
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 30, Seed: 4}, in...)
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {120, 40}} {
		m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		strip := uitest.LineWith(m.View(), "[13")
		if strip == "" {
			t.Fatalf("%dx%d: the strip does not number the current question 13:\n%s", sz[0], sz[1], m.View())
		}
		if w := ansi.StringWidth(strip); w > sz[0] {
			t.Errorf("%dx%d: the strip is %d wide", sz[0], sz[1], w)
		}
		for _, want := range []string{"1●", "[13○⚑]", "10○", "20○", "30○"} {
			if !strings.Contains(strip, want) {
				t.Errorf("%dx%d: the strip lacks %q: %q", sz[0], sz[1], want, strip)
			}
		}
	}
}

// TestExamByTopicInExamOrder: the exam's "By topic" rows come in the
// order the topics first come in the exam, the order of the row of
// answers below them (they came in the bank's topic order, which the
// exam does not follow).
func TestExamByTopicInExamOrder(t *testing.T) {
	bank, err := qz.DefaultBank()
	uitest.Must(t, err)
	var items []*qz.Item
	for _, q := range bank.Questions {
		items = append(items, qz.FromQuestion(q))
	}
	pool, err := qz.NewPool(items, nil)
	uitest.Must(t, err)
	o := qz.Options{Mode: qz.Exam, Count: 30, Seed: 8000}
	s := sameSession(t, pool, nil, o)
	var order []string
	seen := map[string]bool{}
	for _, it := range s.Items {
		if !seen[it.Topic] {
			seen[it.Topic] = true
			order = append(order, qz.TopicTitle(it.Topic))
		}
	}
	canonical := true
	for i, k := 0, 0; i < len(qz.Topics) && k < len(order); i++ {
		if qz.Topics[i].Title == order[k] {
			k++
		} else if seen[qz.Topics[i].ID] {
			canonical = false
		}
	}
	if canonical || len(order) < 3 {
		t.Fatalf("the exam meets its topics in the bank's order; pick another seed: %q", order)
	}
	for _, sz := range quizSizes() {
		m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 30, Seed: 8000},
			tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}, uitest.Press("s"), uitest.Press("y"))
		v := m.View()
		lines := strings.Split(v, "\n")
		at := -1
		for _, title := range order {
			row := -1
			for i, l := range lines {
				if i > at && strings.HasPrefix(strings.TrimSpace(l), title) {
					row = i
					break
				}
			}
			if row < 0 {
				t.Fatalf("%dx%d: %q is not in exam order (%q):\n%s", sz[0], sz[1], title, order, v)
			}
			at = row
		}
	}
}

// TestExamResultsHelpAligned: ? on an exam's results shows its keys in
// columns whose descriptions start at one place on every row, the global
// keys' rows included when they wrap below (at 80 columns), with no
// row cut or ending in a stray "…". A sentence-long description used to
// push each column onto rows of its own, each with its key column
// elsewhere, and cut two rows at 80.
func TestExamResultsHelpAligned(t *testing.T) {
	pool := testPool(t)
	for _, sz := range quizSizes() {
		m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4},
			tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}, uitest.Press("s"), uitest.Press("y"), uitest.Press("?"))
		v := ansi.Strip(m.View())
		_, top := uitest.CellOf(t, v, "previous answer")
		lines := strings.Split(v, "\n")[top:]
		descAt := -1
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > sz[0] {
				t.Errorf("%dx%d: a help row is %d wide: %q", sz[0], sz[1], w, l)
			}
			if strings.HasSuffix(l, "…") {
				t.Errorf("%dx%d: a help row is cut: %q", sz[0], sz[1], l)
			}
			if l == "" || l[0] == ' ' {
				continue // no key in the first column on this row
			}
			key, rest, _ := strings.Cut(l, " ")
			x := ansi.StringWidth(key) + 1 + len(rest) - len(strings.TrimLeft(rest, " "))
			if descAt < 0 {
				descAt = x
			}
			if x != descAt {
				t.Errorf("%dx%d: the description of %q starts at %d, the first row's at %d:\n%s", sz[0], sz[1], key, x, descAt, strings.Join(lines, "\n"))
			}
		}
		for _, want := range []string{"close help", "all your results", "answer the missed again"} {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d: the help lacks %q:\n%s", sz[0], sz[1], want, v)
			}
		}
	}
}

// TestPartlyAnsweredDrill: a classify drill with only its first part
// answered is "partly answered" in the submit question and the review.
func TestPartlyAnsweredDrill(t *testing.T) {
	pool := testPool(t)
	o := qz.Options{Mode: qz.Exam, Count: 8, Seed: 4}
	s := sameSession(t, pool, nil, o)
	idx := -1
	for i, it := range s.Items {
		if len(it.Parts) > 1 {
			idx = i
			break
		}
	}
	if idx < 0 {
		t.Skip("no multi-part drill in the session")
	}
	var in []tea.Msg
	for range idx {
		in = append(in, uitest.Press("right"))
	}
	in = append(in, uitest.Press("1"), uitest.Press("s"))
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 8, Seed: 4}, in...)
	v := strings.Join(strings.Fields(m.View()), " ")
	if !strings.Contains(v, fmt.Sprintf("1 partly answered: %d.", idx+1)) {
		t.Errorf("the submit question does not say partly answered:\n%s", m.View())
	}
	if strings.Contains(v, fmt.Sprintf(": %d,", idx+1)) || strings.Contains(v, fmt.Sprintf(", %d,", idx+1)) {
		t.Errorf("question %d is also listed as unanswered:\n%s", idx+1, m.View())
	}
	if nav := uitest.LineWith(m.View(), "submit"); !strings.Contains(nav, fmt.Sprintf("%d◐", idx+1)) || !strings.Contains(nav, "◐ partly") {
		t.Errorf("the navigator does not mark question %d ◐: %q", idx+1, nav)
	}
	m, _ = uitest.Drive(m, uitest.Press("y"))
	for range idx + 1 {
		m, _ = uitest.Drive(m, uitest.Press("right"))
	}
	if line := uitest.LineWith(m.View(), fmt.Sprintf("Answer %d of", idx+1)); !strings.Contains(line, "✗ partly answered") {
		t.Errorf("the review says %q", line)
	}
}

// TestExhibitGetsTheRoomAShortStemLeaves: at 80x24 a drill with a short
// stem shows much more of its exhibit than the old 5 lines, with the
// first part's prompt, a choice and the "more lines" hint still on
// screen.
func TestExhibitGetsTheRoomAShortStemLeaves(t *testing.T) {
	it := exhibitQuestion(27)
	m := openQuiz(t, testPool(t), &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: 1, Seed: 7})
	c := quiz.CommonOf(m.(*ui.App).Top())
	q := quiz.NewQuestion(c, it, "")
	q.SetSize(80, 18) // the item's area at 80x24
	if q.ExhibitRows()-2 < 9 {
		t.Errorf("the exhibit box shows %d lines at 80x24", q.ExhibitRows()-2)
	}
	v := q.View()
	for _, want := range []string{"Classify the response.", "\"field00\"", "Which errorCategory fits?", "A  transient", "more lines below"} {
		if !strings.Contains(v, want) {
			t.Errorf("the item lacks %q:\n%s", want, v)
		}
	}
	// A long stem keeps the old share; a tall screen keeps room for the
	// choices.
	it.Stem = strings.Repeat("A long stem that fills the column. ", 20)
	q = quiz.NewQuestion(c, it, "")
	q.SetSize(80, 18)
	if q.ExhibitRows() != max(5, 18*2/5) {
		t.Errorf("long stem: exhibit %d rows", q.ExhibitRows())
	}
	it.Stem = "Classify the response."
	q = quiz.NewQuestion(c, it, "")
	q.SetSize(80, 36)
	if q.ExhibitRows() > 36*3/5 {
		t.Errorf("tall: the exhibit takes %d of 36 rows", q.ExhibitRows())
	}
}

// TestNothingToReviewSaysWhatIsTrue: the empty review says why nothing
// waits; an item answered right once (box 2) is reviewed.
func TestNothingToReviewSaysWhatIsTrue(t *testing.T) {
	pool := testPool(t)
	clock := &fakeClock{t: quizT0}
	m := openQuiz(t, pool, clock, qz.Memory(), &quiz.Start{Mode: qz.Review})
	v := strings.Join(strings.Fields(m.View()), " ")
	if !strings.Contains(v, "You have not answered any question yet") || strings.Contains(v, "either right or mastered") {
		t.Errorf("fresh progress:\n%s", m.View())
	}
	store := qz.Memory()
	for i := range qz.MasteryStreak {
		if err := store.RecordItem("t/window", "categories", true, quizT0.Add(-time.Duration(i+1)*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	m = openQuiz(t, pool, clock, store, &quiz.Start{Mode: qz.Review})
	v = strings.Join(strings.Fields(m.View()), " ")
	for _, want := range []string{"Nothing you missed is waiting", "the one question you have answered is mastered (right three times in a row on three different days)", "until you answer it right three times in a row on three different days", "moves a question up a box once a day at most"} {
		if !strings.Contains(v, want) {
			t.Errorf("mastered: lacks %q:\n%s", want, m.View())
		}
	}
	once := qz.Memory()
	if err := once.RecordItem("t/window", "categories", true, quizT0.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	m = openQuiz(t, pool, clock, once, &quiz.Start{Mode: qz.Review})
	if s := sessionOf(t, m); s.Session().Items[0].ID != "t/window" {
		t.Errorf("the item answered right once is not reviewed: %s", s.Session().Items[0].ID)
	}
}

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
	if !strings.Contains(v, "✓ correct") || strings.Contains(v, "correct: Yes") || strings.Contains(v, "correct · your pick — Yes") {
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
	if c := count(); !strings.Contains(c, "10") || !strings.Contains(c, "of at most 33: no two give each other away") {
		t.Fatalf("default count: %q", c)
	}
	m, _ = uitest.Drive(m, uitest.Press("right"), uitest.Press("right")) // the second topic: 3 items
	if c := count(); !strings.Contains(c, "‹ 3 ›") && !strings.Contains(c, " 3 of 3") {
		t.Fatalf("small topic count: %q", c)
	}
	m, _ = uitest.Drive(m, uitest.Press("left"), uitest.Press("left")) // back to all topics
	if c := count(); !strings.Contains(c, "10 of at most 33") || menu.PracticeCount() != 10 {
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
	if !strings.Contains(view, "2 missed · p or enter: answer them again in exam order") {
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
	for _, want := range []string{"y leave and discard", "n, esc or enter stay in the exam"} {
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

// ctrl+c in the middle of an exam used to quit at once and lose every
// answer given. It asks, as q does: s hands the exam in (scored and
// saved) and quits; ctrl+c again while it asks quits without saving.
func TestCtrlCMidExamAsksAndCanSave(t *testing.T) {
	pool := testPool(t)
	store := qz.Memory()
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4}, uitest.Press("a"))
	m, quit := uitest.Drive(m, tea.KeyMsg{Type: tea.KeyCtrlC})
	if quit {
		t.Fatal("ctrl+c quit a running exam at once")
	}
	v := m.View()
	for _, want := range []string{"Leave the exam", "You have answered 1 of 3", "hand in now and quit"} {
		if !strings.Contains(uitest.Flat(v), uitest.Flat(want)) {
			t.Errorf("the question lacks %q:\n%s", want, v)
		}
	}
	if _, quit := uitest.Drive(m, tea.KeyMsg{Type: tea.KeyCtrlC}); !quit {
		t.Error("a second ctrl+c did not quit")
	}
	uitest.Drive(m, uitest.Press("s"))
	if p := mustLoad(t, store); len(p.Exams) != 1 {
		t.Fatalf("s did not hand in and save the exam: %+v", p.Exams)
	}
}

// TestExamResultsFitAt80x24: a 30-question exam's results, ten topic
// bars and all, fit 80x24 whole, the offer to review the missed included
// (a new user found its last sentence cut until j scrolled).
func TestExamResultsFitAt80x24(t *testing.T) {
	bank, err := qz.DefaultBank()
	if err != nil {
		t.Fatal(err)
	}
	var items []*qz.Item
	for _, q := range bank.Questions {
		items = append(items, qz.FromQuestion(q))
	}
	pool, err := qz.NewPool(items, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 30, Seed: 8000})
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.Press("s"), uitest.Press("y"))
	v := m.View()
	if !strings.Contains(v, "30 missed · p or enter: answer them again in exam order, each explained.") || !strings.Contains(v, "Judgement on the decision table") {
		t.Errorf("the results do not fit 80x24:\n%s", v)
	}
	if strings.Contains(v, "↑/↓ scroll") {
		t.Errorf("offers to scroll a page that fits:\n%s", v)
	}
}

// TestResultsReopenTheLatestExam: once an exam's results are left, a on
// Results opens them again, answers and explanations included (a new
// user found no way back to them).
func TestResultsReopenTheLatestExam(t *testing.T) {
	pool := testPool(t)
	s := sameSession(t, pool, nil, qz.Options{Mode: qz.Exam, Count: 3, Seed: 4})
	prog := qz.Memory()
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, prog, &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4})
	m, _ = uitest.Drive(m, answerKeys(s.Items[0], false)...)
	m, _ = uitest.Drive(m, uitest.Press("right"))
	m, _ = uitest.Drive(m, answerKeys(s.Items[1], true)...)
	m, _ = uitest.Drive(m, uitest.Press("s"), uitest.Press("y"))
	score := uitest.LineWith(m.View(), "pass line")
	m, _ = uitest.Drive(m, uitest.Press("r"))
	if v := m.View(); !strings.Contains(v, "a walks the latest one's answers again") {
		t.Fatalf("Results do not offer the latest exam:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("a"))
	if got := uitest.LineWith(m.View(), "pass line"); got != score || score == "" {
		t.Fatalf("a opens %q, want the exam's own score %q:\n%s", got, score, m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("right"))
	if v := m.View(); !strings.Contains(v, "Answer 1 of 3") || !strings.Contains(v, "✗ wrong · your pick") {
		t.Errorf("the reopened exam does not walk its answers:\n%s", v)
	}
}

// TestResultsAndTheExamDoNotStack: r on an exam's results and a on
// Results go back to each other rather than stacking pages without end
// (a new user needed twelve esc after five rounds of r and a). The exam
// reopened by a is named by its date, so the depth is compared.
func TestResultsAndTheExamDoNotStack(t *testing.T) {
	pool := testPool(t)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 3, Seed: 4})
	m, _ = uitest.Drive(m, uitest.Press("s"), uitest.Press("y"))
	crumbs := func() string { return strings.SplitN(m.View(), "\n", 2)[0] }
	before := crumbs()
	for range 3 {
		m, _ = uitest.Drive(m, uitest.Press("r"), uitest.Press("a"))
	}
	if got := crumbs(); strings.Count(got, "›") != strings.Count(before, "›") {
		t.Errorf("after r and a three times the path is\n%s\nwas\n%s", got, before)
	}
	m, _ = uitest.Drive(m, uitest.Press("r"))
	m, _ = uitest.Drive(m, uitest.Press("a"), uitest.Press("r"), uitest.Press("a"))
	if _, ok := m.(*ui.App).Top().(*quiz.ExamResults); !ok || strings.Count(crumbs(), "›") != strings.Count(before, "›") {
		t.Errorf("top is %T under %q, want the exam's results where it was", m.(*ui.App).Top(), crumbs())
	}
}
