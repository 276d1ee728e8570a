package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/ui/internal/uitest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
)

// spoil writes garbage over the progress file in dir.
func spoil(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, quiz.FileName), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNoticeAfterLabAnswer: the progress file spoiled between two lab
// answers is kept aside by the store on the second; the status line says
// so (⚠) once, not again on the third answer.
func TestNoticeAfterLabAnswer(t *testing.T) {
	dir := t.TempDir()
	store, err := quiz.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := openTimeout(t, Options{Progress: store}, uitest.Press("enter"), uitest.Press("2"))
	if line := uitest.LineWith(m.View(), "progress file"); line != "" {
		t.Fatalf("a notice before anything was spoiled: %q", line)
	}
	spoil(t, dir)
	m, _ = uitest.Drive(m, uitest.Press(uitest.RetryKey()))
	if st := m.(*App).c.Status().Text; !strings.Contains(st, filepath.Join(dir, quiz.FileName)+".corrupt-") {
		t.Errorf("the notice does not say where the old file is: %q", st)
	}
	line := uitest.LineWith(m.View(), "progress file ")
	if !strings.HasPrefix(line, "⚠ ") {
		t.Fatalf("no ⚠ notice after the spoiled write:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("2"))
	if line := uitest.LineWith(m.View(), "progress file "); line != "" {
		t.Errorf("the same notice shows again: %q", line)
	}
	// The file kept aside is there.
	aside, _ := filepath.Glob(filepath.Join(dir, quiz.FileName+".corrupt-*"))
	if len(aside) != 1 {
		t.Errorf("kept aside: %v", aside)
	}
}

// TestNoticeAfterQuizAnswer: the same in a practice session.
func TestNoticeAfterQuizAnswer(t *testing.T) {
	dir := t.TempDir()
	store, err := quiz.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	pool := testPool(t)
	o := quiz.Options{Mode: quiz.Practice, Count: 2, Seed: 7}
	s := sameSession(t, pool, nil, o)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &QuizStart{Mode: quiz.Practice, Count: 2, Seed: 7})
	m, _ = uitest.Drive(m, append(answerKeys(s.Items[0], true), uitest.Press("enter"))...)
	if line := uitest.LineWith(m.View(), "progress file"); line != "" {
		t.Fatalf("a notice before anything was spoiled: %q", line)
	}
	spoil(t, dir)
	m, _ = uitest.Drive(m, uitest.Press("n"))
	m, _ = uitest.Drive(m, append(answerKeys(s.Items[1], true), uitest.Press("enter"))...)
	if line := uitest.LineWith(m.View(), "progress file "); !strings.HasPrefix(line, "⚠ ") {
		t.Fatalf("no ⚠ notice after the spoiled write:\n%s", m.View())
	}
}

// TestNoticeAfterExam: and when an exam is handed in.
func TestNoticeAfterExam(t *testing.T) {
	dir := t.TempDir()
	store, err := quiz.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	pool := testPool(t)
	spoil(t, dir)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &QuizStart{Mode: quiz.Exam, Count: 2, Seed: 7}, uitest.Press("s"), uitest.Press("y"))
	if _, ok := m.(*App).top().(*examResults); !ok {
		t.Fatalf("not on the results: %T", m.(*App).top())
	}
	if line := uitest.LineWith(m.View(), "progress file "); !strings.HasPrefix(line, "⚠ ") {
		t.Fatalf("no ⚠ notice after the exam:\n%s", m.View())
	}
}

// TestAgentsFollowTheScenarioRevision: a on a scenario screen under
// 2025-06-18 plays the agents under 2025-06-18 (the schema break is a
// -32602 there), says so in the header and names exports with it; from
// the picker the scenario's own revision plays; r on the agents common.Screen
// plays again under the next revision.
func TestAgentsFollowTheScenarioRevision(t *testing.T) {
	cat := uitest.Catalog(t)
	dir := t.TempDir()
	keys := append(revKeys(t, uitest.ArgsSchemaID, rules.Rev20250618), uitest.Press("a"))
	m, _ := uitest.Drive(New(Options{Catalog: cat, ScenarioID: uitest.ArgsSchemaID, ExportDir: dir}), append([]tea.Msg{uitest.Size120}, keys...)...)
	s := agentsOf(t, m)
	if s.rev != rules.Rev20250618 || !s.loaded {
		t.Fatalf("agents rev %q loaded %v", s.rev, s.loaded)
	}
	if line := uitest.LineWith(m.View(), "r spec"); !strings.Contains(line, "r spec 2025-06-18") {
		t.Errorf("the header does not say spec 2025-06-18: %q", line)
	}
	first := s.runs[sideInformed].Steps[0]
	if first.Exchange == nil || first.Exchange.Revision != rules.Rev20250618 || first.Protocol != -32602 {
		t.Fatalf("the informed agent's call was not made under 2025-06-18: %+v", first)
	}
	m, _ = uitest.Drive(m, uitest.Press("G"), uitest.Press("tab"), uitest.Press("g"), uitest.Press("enter"), uitest.Press("w"))
	files, _ := filepath.Glob(filepath.Join(dir, "*-2025-06-18.json"))
	if len(files) != 1 {
		t.Errorf("export not named with the revision: %v; status %q", files, m.(*App).c.Status().Text)
	}

	// r plays again under the next revision, from t=0.
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("r"))
	s = agentsOf(t, m)
	if s.rev != rules.Rev20251125 || !s.loaded || s.sides[0].shown != 0 {
		t.Fatalf("r: rev %q loaded %v shown %d", s.rev, s.loaded, s.sides[0].shown)
	}
	if ex := s.runs[sideInformed].Steps[0]; ex.Exchange.Revision != rules.Rev20251125 || ex.Protocol != 0 {
		t.Errorf("after r the call is not under 2025-11-25: protocol %d", ex.Protocol)
	}
	if line := uitest.LineWith(m.View(), "r spec"); !strings.Contains(line, "r spec 2025-11-25") {
		t.Errorf("header after r: %q", line)
	}

	// From the picker: the scenario's own revision.
	sc, _ := cat.Get(uitest.ArgsSchemaID)
	p := openAgents(t, cat, scenarios.Afternoon.ID, uitest.Size120)
	if got := agentsOf(t, p).rev; got != sc.Revision() {
		t.Errorf("the series plays under %q", got)
	}
	m2, _ := uitest.Drive(New(Options{Catalog: cat}), append(append([]tea.Msg{uitest.Size120}, toAgents(t)...), uitest.Press("/"), uitest.Press("s"), uitest.Press("c"), uitest.Press("h"), uitest.Press("e"), uitest.Press("m"), uitest.Press("a"), uitest.Press("enter"), uitest.Press("enter"))...)
	if s := agentsOf(t, m2); s.id != uitest.ArgsSchemaID || s.rev != sc.Revision() {
		t.Errorf("from the picker: %s under %q, want %s under %s", s.id, s.rev, uitest.ArgsSchemaID, sc.Revision())
	}
}

// TestAgentsRowsAreShared: stacked at 80x24 and 60x20, neither timeline
// is cut to one line while the other shows blank rows, and the summary
// keeps its two verdict rows, at every step of a run.
func TestAgentsRowsAreShared(t *testing.T) {
	for _, id := range []string{uitest.RefundWindowID, uitest.TimeoutID, uitest.StaffID} {
		for _, sz := range []tea.WindowSizeMsg{{Width: 80, Height: 24}, {Width: 60, Height: 20}} {
			m := openAgents(t, uitest.Catalog(t), id, sz)
			s := agentsOf(t, m)
			for step := 0; ; step++ {
				var inner, content [2]int
				for i, tl := range s.sides {
					_, inner[i] = tl.p.Inner()
					content[i] = tl.p.Viewport().TotalLineCount()
				}
				for i := range 2 {
					j := 1 - i
					if inner[i] < content[i] && inner[i] <= 1 && inner[j] > content[j] {
						t.Fatalf("%s %dx%d step %d: side %d shows %d of %d lines while side %d has %d rows for %d lines\n%s",
							id, sz.Width, sz.Height, step, i, inner[i], content[i], j, inner[j], content[j], m.View())
					}
					if inner[i] < content[i] && inner[j] > content[j]+1 {
						t.Errorf("%s %dx%d step %d: side %d cut (%d of %d) while side %d has %d blank rows",
							id, sz.Width, sz.Height, step, i, inner[i], content[i], j, inner[j]-content[j])
					}
				}
				if _, ih := s.summary.Inner(); ih < 2 {
					t.Errorf("%s %dx%d step %d: the summary has %d rows", id, sz.Width, sz.Height, step, ih)
				}
				if s.done() {
					break
				}
				m, _ = uitest.Drive(m, uitest.Press(" "))
			}
			if n := len(strings.Split(m.View(), "\n")); n > sz.Height {
				t.Errorf("%dx%d: %d lines", sz.Width, sz.Height, n)
			}
		}
	}
}

// TestStyleIDsReadAsLabels: feedback written with a style id reads with
// its label, on the scenario screen and in the agents' titles.
func TestStyleIDsReadAsLabels(t *testing.T) {
	if got := common.StyleWords("In the error_as_success style the flag is missing; raw_exception too. empty_successes stay."); got != "In the error as success style the flag is missing; raw exception too. empty_successes stay." {
		t.Errorf("styleWords: %q", got)
	}
	m := openAt(t, uitest.PermAsSuccessID, uitest.Size120, uitest.Press("enter"), uitest.Press(uitest.KeyOf(rules.RetrySame)))
	v := lowerView(t, m)
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "In the error as success style") {
		t.Errorf("the feedback does not use the label:\n%s", v)
	}
	for _, id := range []string{"error_as_success", "raw_exception", "structured_only", "empty_success", "protocol_error"} {
		if strings.Contains(v, id) {
			t.Errorf("the verdict shows the raw id %s:\n%s", id, v)
		}
	}
	m = openAgents(t, uitest.Catalog(t), uitest.PermAsSuccessID, uitest.Size120, uitest.Press("G"))
	view := m.View()
	if strings.Contains(view, "error_as_success") || !strings.Contains(view, "meets error as success") {
		t.Errorf("the agents screen shows a raw style id:\n%s", view)
	}
}

// TestExamQAsks: q in a running exam asks like esc; n stays; y leaves
// and quits, with nothing recorded. After submitting, q quits at once.
func TestExamQAsks(t *testing.T) {
	pool := testPool(t)
	store := quiz.Memory()
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, store, &QuizStart{Mode: quiz.Exam, Count: 3, Seed: 4}, uitest.Press("a"))
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
	if line := uitest.LineWith(v, "y/enter"); !strings.Contains(line, "n/esc stay") {
		t.Errorf("help bar: %q", line)
	}
	m, quit = uitest.Drive(m, uitest.Press("n"))
	if quit || sessionOf(t, m).confirm != confirmNone {
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
	m = openQuiz(t, pool, &fakeClock{t: quizT0}, store, &QuizStart{Mode: quiz.Exam, Count: 3, Seed: 4}, uitest.Press("s"), uitest.Press("y"))
	if _, quit := uitest.Drive(m, uitest.Press("q")); !quit {
		t.Error("q on the exam's results did not quit")
	}
}

// TestExamHelpDoesNotOfferReservedLetters: in an exam, f and s are not
// advertised as choice keys.
func TestExamHelpDoesNotOfferReservedLetters(t *testing.T) {
	pool := testPool(t)
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, quiz.Memory(), &QuizStart{Mode: quiz.Exam, Count: 3, Seed: 4}, uitest.Press("?"))
	v := m.View()
	if strings.Contains(v, "a-i") {
		t.Errorf("the exam's full help offers a-i:\n%s", v)
	}
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "1-9 choose (letters too, but f flags and s submits)") {
		t.Errorf("the exam's full help does not say f and s are taken:\n%s", v)
	}
	// Six or more choices: the short help names digits, and the letters
	// before f.
	it := testQuestion("t/six", "categories", false, "A", "Six choices?", "one", "two", "three", "four", "five", "six", "seven")
	q := newQuizItem(m.(*App).c, it, "fs")
	if got := q.chooseKeys(); got != "1-7 (a-e too)" {
		t.Errorf("chooseKeys with f reserved = %q", got)
	}
	if got := newQuizItem(m.(*App).c, it, "").chooseKeys(); got != "a-g/1-7" {
		t.Errorf("chooseKeys in practice = %q", got)
	}
}

// twentyQuestions is a pool of 20 one-part questions.
func twentyQuestions(t *testing.T) *quiz.Pool {
	var items []*quiz.Item
	for i := range 20 {
		items = append(items, testQuestion(fmt.Sprintf("t/q%02d", i), "categories", false, "B", fmt.Sprintf("Question %d?", i+1), "no", "yes", "maybe"))
	}
	p, err := quiz.NewPool(items, nil)
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
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, quiz.Memory(), &QuizStart{Mode: quiz.Exam, Count: 20, Seed: 4}, append(in, uitest.Press("s"), uitest.Press("y"))...)
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	r, ok := m.(*App).top().(*examResults)
	if !ok {
		t.Fatalf("not on the results: %T", m.(*App).top())
	}
	row := r.answerRow(80)
	if ansi.StringWidth(row) > 80 || !strings.Contains(row, "1✓ 2✗ 3○") || !strings.Contains(row, "20○") {
		t.Errorf("answer row at 80: %q", row)
	}
	if !strings.Contains(m.View(), "20○") {
		t.Errorf("the numbered row is not on screen:\n%s", m.View())
	}
	// Too narrow for numbers: symbols, ○ still for the unanswered.
	if row := r.answerRow(30); !strings.HasPrefix(ansi.Strip(row), " ✓✗○○") {
		t.Errorf("narrow row: %q", row)
	}
}

// TestPartlyAnsweredDrill: a classify drill with only its first part
// answered is "partly answered" in the submit question and the review.
func TestPartlyAnsweredDrill(t *testing.T) {
	pool := testPool(t)
	o := quiz.Options{Mode: quiz.Exam, Count: 8, Seed: 4}
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
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, quiz.Memory(), &QuizStart{Mode: quiz.Exam, Count: 8, Seed: 4}, in...)
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
	var ex strings.Builder
	ex.WriteString("{\n")
	for i := range 27 {
		fmt.Fprintf(&ex, "  \"field%02d\": %d,\n", i, i)
	}
	ex.WriteString("  \"last\": true\n}")
	it := testQuestion("t/ex", "categories", false, "B", "Classify the response.", "transient", "business", "validation", "permission")
	it.Parts[0].Prompt = "Which errorCategory fits?"
	it.Exhibit = ex.String()
	m := openQuiz(t, testPool(t), &fakeClock{t: quizT0}, quiz.Memory(), &QuizStart{Mode: quiz.Practice, Count: 1, Seed: 7})
	c := m.(*App).c
	q := newQuizItem(c, it, "")
	q.SetSize(80, 18) // the item's area at 80x24
	if q.exH-2 < 9 {
		t.Errorf("the exhibit box shows %d lines at 80x24", q.exH-2)
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
	q = newQuizItem(c, it, "")
	q.SetSize(80, 18)
	if q.exH != max(5, 18*2/5) {
		t.Errorf("long stem: exhibit %d rows", q.exH)
	}
	it.Stem = "Classify the response."
	q = newQuizItem(c, it, "")
	q.SetSize(80, 36)
	if q.exH > 36*3/5 {
		t.Errorf("tall: the exhibit takes %d of 36 rows", q.exH)
	}
}

// TestNothingToReviewSaysWhatIsTrue: the empty review says why nothing
// waits; an item answered right once (box 2) is reviewed.
func TestNothingToReviewSaysWhatIsTrue(t *testing.T) {
	pool := testPool(t)
	clock := &fakeClock{t: quizT0}
	m := openQuiz(t, pool, clock, quiz.Memory(), &QuizStart{Mode: quiz.Review})
	v := strings.Join(strings.Fields(m.View()), " ")
	if !strings.Contains(v, "You have not answered any question yet") || strings.Contains(v, "either right or mastered") {
		t.Errorf("fresh progress:\n%s", m.View())
	}
	store := quiz.Memory()
	for range quiz.MasteryStreak {
		if err := store.RecordItem("t/window", "categories", true, quizT0.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	m = openQuiz(t, pool, clock, store, &QuizStart{Mode: quiz.Review})
	v = strings.Join(strings.Fields(m.View()), " ")
	for _, want := range []string{"Nothing you missed is waiting", "the one question you have answered is mastered (right three times in a row)", "until you answer it right three times in a row"} {
		if !strings.Contains(v, want) {
			t.Errorf("mastered: lacks %q:\n%s", want, m.View())
		}
	}
	once := quiz.Memory()
	if err := once.RecordItem("t/window", "categories", true, quizT0.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	m = openQuiz(t, pool, clock, once, &QuizStart{Mode: quiz.Review})
	if s := sessionOf(t, m); s.s.Items[0].ID != "t/window" {
		t.Errorf("the item answered right once is not reviewed: %s", s.s.Items[0].ID)
	}
}
