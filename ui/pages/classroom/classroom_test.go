package classroom_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/classroom/room"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	classpage "github.com/errorlab/errorlab/ui/pages/classroom"
	wtpage "github.com/errorlab/errorlab/ui/pages/walkthrough"
)

func TestMain(m *testing.M) {
	classpage.Quiet()
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// class is a room with a bank and the built-in catalogue and
// walkthroughs.
type class struct {
	hub  *room.Hub
	cat  *scenarios.Catalog
	bank *quiz.Bank
	set  *wt.Set
	dir  string
}

func newClass(t *testing.T) *class {
	t.Helper()
	dir := t.TempDir()
	hub, err := room.New(room.Config{Dir: dir, Listen: "127.0.0.1:2222"})
	uitest.Must(t, err)
	t.Cleanup(func() { _ = hub.Close() })
	cat := uitest.Catalog(t)
	bank, err := quiz.DefaultBank()
	uitest.Must(t, err)
	set, err := wt.Default(cat, bank)
	uitest.Must(t, err)
	return &class{hub: hub, cat: cat, bank: bank, set: set, dir: dir}
}

// student is a student's app in the class, at 100x30.
func (c *class) student(t *testing.T, name string) (tea.Model, *room.Member) {
	t.Helper()
	m, err := c.hub.Join(name, room.Student, "test")
	uitest.Must(t, err)
	app := ui.New(ui.Options{Catalog: c.cat, Bank: c.bank, Walkthroughs: c.set, Room: m.Room()})
	app, _ = uitest.Start(app, tea.WindowSizeMsg{Width: 100, Height: 30})
	return app, m
}

// moved is the room message the hub sent for its current item.
func (c *class) moved(t *testing.T) tea.Msg {
	t.Helper()
	it, ok := c.hub.Current()
	if !ok {
		t.Fatal("the room is on no item")
	}
	return common.RoomMsg{Item: it}
}

func (c *class) question(t *testing.T, id string) *quiz.Question {
	t.Helper()
	q, ok := c.bank.Get(id)
	if !ok {
		t.Fatalf("no question %s", id)
	}
	return q
}

func top(m tea.Model) common.Screen { return m.(*ui.App).Top() }

// A question sent to the room opens on the student's screen; a letter
// answers, another replaces it (the tally counts the student once), and
// the reveal shows the answer and closes the answers.
func TestStudentAnswersARoomQuestion(t *testing.T) {
	c := newClass(t)
	app, _ := c.student(t, "ann")
	q := c.question(t, "empty-which-mistake-is-worse")
	uitest.Must(t, c.hub.Send(room.AskQuestion(q)))
	app, _ = uitest.Drive(app, c.moved(t))
	if _, ok := top(app).(*classpage.Question); !ok {
		t.Fatalf("the student's screen is %T, want the room question", top(app))
	}
	view := uitest.Flat(app.View())
	if !strings.Contains(view, uitest.Flat(common.OneLineText(q.Stem))[:40]) || !strings.Contains(view, uitest.Flat("Answer with a letter, A–D")) {
		t.Fatalf("the question is not on screen:\n%s", app.View())
	}
	key := common.QuestionKey(q.ID)
	app, _ = uitest.Drive(app, uitest.Press("b"))
	app, _ = uitest.Drive(app, uitest.Press("c"))
	counts, n := c.hub.Tally(key)
	if n != 1 || !slices.Equal(counts, []int{0, 0, 1, 0}) {
		t.Fatalf("tally = %v from %d, want C once", counts, n)
	}
	view = app.View()
	if !strings.Contains(view, "Your answer: C") || !strings.Contains(view, "▷ C") || !strings.Contains(view, "replaces your answer") {
		t.Fatalf("the screen does not show the answer and that it can change:\n%s", view)
	}
	uitest.Must(t, c.hub.Reveal())
	// On a small screen too, the reveal scrolls the answer into view.
	app, _ = uitest.Drive(app, tea.WindowSizeMsg{Width: 80, Height: 24}, c.moved(t))
	view = app.View()
	right := common.ChoiceLetters(q.Correct())
	if !strings.Contains(view, "The answer: "+right) || !strings.Contains(view, "▶ "+right) || !strings.Contains(view, "the answer:") {
		t.Fatalf("the reveal is not on screen:\n%s", view)
	}
	app, _ = uitest.Drive(app, uitest.Press("a"))
	if counts, _ := c.hub.Tally(key); !slices.Equal(counts, []int{0, 0, 1, 0}) {
		t.Errorf("an answer after the reveal changed the tally: %v", counts)
	}
	if st := app.(*ui.App).Status(); !strings.Contains(st.Text, "closed") {
		t.Errorf("status after a late answer = %q", st.Text)
	}
	// esc leaves the question; the next move brings the student back.
	app, _ = uitest.Drive(app, uitest.Press("esc"))
	if _, ok := top(app).(*classpage.Question); ok {
		t.Fatal("esc did not leave the question")
	}
}

// A warning the student gets as they join (their user name was mapped)
// stays in the status line when the room takes them to its item.
func TestJoinNoticeSurvivesTheRoom(t *testing.T) {
	c := newClass(t)
	sc, ok := c.cat.Get("refund-past-return-window")
	if !ok {
		t.Skip("no scenario")
	}
	uitest.Must(t, c.hub.Send(room.AskScenario(sc)))
	m, err := c.hub.Join("x+123456", room.Student, "test")
	uitest.Must(t, err)
	app := ui.New(ui.Options{Catalog: c.cat, Bank: c.bank, Walkthroughs: c.set, Room: m.Room(), Notice: "your user name \"../../x\" cannot be used as it is: in this class you are x+123456"})
	app, _ = uitest.Start(app, tea.WindowSizeMsg{Width: 100, Height: 30})
	if top(app).Crumb() != sc.ID {
		t.Fatalf("the joiner is on %q", top(app).Crumb())
	}
	if st := app.(*ui.App).Status(); st.Kind != common.StatusWarn || !strings.Contains(st.Text, "cannot be used as it is") {
		t.Errorf("status = %+v, want the name's warning", st)
	}
	if got := c.hub.Snapshot().Members[0].Where; got != "Lab › "+sc.ID && !strings.HasSuffix(got, sc.ID) {
		t.Errorf("the teacher sees the student at %q", got)
	}
}

// A student who connects (or reconnects) while the room is on an item
// goes straight there, with their answer kept.
func TestJoinerGoesWhereTheRoomIs(t *testing.T) {
	c := newClass(t)
	q := c.question(t, "empty-which-mistake-is-worse")
	uitest.Must(t, c.hub.Send(room.AskQuestion(q)))
	app, m := c.student(t, "bo")
	uitest.Drive(app, uitest.Press("d"))
	m.Leave("left", "")
	app, _ = c.student(t, "bo")
	if _, ok := top(app).(*classpage.Question); !ok {
		t.Fatalf("a joiner lands on %T, want the room question", top(app))
	}
	if !strings.Contains(app.View(), "Your answer: D") {
		t.Errorf("the reconnected student's answer is not shown:\n%s", app.View())
	}
}

// Class mode: the student's screen follows the teacher's steps (the
// student cannot move them), answers a question step with a letter, and
// shows the answer when the teacher reveals it.
func TestClassModeWalkthrough(t *testing.T) {
	c := newClass(t)
	w, ok := c.set.Get("empty-is-not-an-error")
	if !ok {
		t.Skip("walkthrough empty-is-not-an-error is not built in")
	}
	qi := slices.IndexFunc(w.Steps, func(s *wt.Step) bool { return s.Kind == wt.KindQuestion })
	app, _ := c.student(t, "cy")
	a, err := room.AskStep(w, 0, c.cat, c.bank)
	uitest.Must(t, err)
	uitest.Must(t, c.hub.Send(a))
	app, _ = uitest.Drive(app, c.moved(t))
	page, ok := top(app).(*wtpage.Model)
	if !ok || !page.Following() {
		t.Fatalf("the student's screen is %T, want the walkthrough in class mode", top(app))
	}
	app, _ = uitest.Drive(app, uitest.Press(" "), uitest.Press("right"))
	if page.Step() != 0 {
		t.Fatalf("the student moved the walkthrough to step %d", page.Step()+1)
	}
	if !strings.Contains(app.View(), "the teacher moves") {
		t.Errorf("no word that the teacher moves the steps:\n%s", app.View())
	}
	a, err = room.AskStep(w, qi, c.cat, c.bank)
	uitest.Must(t, err)
	uitest.Must(t, c.hub.Send(a))
	app, _ = uitest.Drive(app, c.moved(t))
	if page.Step() != qi || page.Part() != 0 {
		t.Fatalf("at step %d part %d, want the question (step %d) unrevealed", page.Step()+1, page.Part(), qi+1)
	}
	app, _ = uitest.Drive(app, uitest.Press("a"))
	counts, n := c.hub.Tally(a.Item.Key)
	if n != 1 || counts[0] != 1 {
		t.Fatalf("tally %v from %d, want A once", counts, n)
	}
	if view := app.View(); !strings.Contains(view, "your answer A") || !strings.Contains(uitest.Flat(view), uitest.Flat("◂ your answer")) {
		t.Fatalf("the student's answer is not marked:\n%s", view)
	}
	uitest.Must(t, c.hub.Reveal())
	app, _ = uitest.Drive(app, c.moved(t))
	if page.Part() != 1 {
		t.Fatalf("after the reveal the step shows part %d, want the answer", page.Part())
	}
	if view := app.View(); !strings.Contains(view, "the answer:") {
		t.Fatalf("the answer is not shown:\n%s", view)
	}
}

// A scenario sent to the room opens in the student's lab, and the
// action they choose first is their answer in the tally; the lab's
// verdict waits for the reveal (its ✓/◑ count too).
func TestScenarioChoiceGoesToTheRoom(t *testing.T) {
	c := newClass(t)
	sc, ok := c.cat.Get("refund-past-return-window")
	if !ok {
		t.Skip("scenario not in the catalogue")
	}
	app, _ := c.student(t, "di")
	a := room.AskScenario(sc)
	uitest.Must(t, c.hub.Send(a))
	app, _ = uitest.Drive(app, c.moved(t))
	if top(app).Crumb() != sc.ID {
		t.Fatalf("the student is on %q, want the scenario", top(app).Crumb())
	}
	app, _ = uitest.Drive(app, uitest.Press("enter"), uitest.Press(uitest.KeyOf(rules.RetrySame)))
	if st := app.(*ui.App).Status(); !strings.Contains(st.Text, "is in: the teacher will reveal") {
		t.Errorf("the status after the choice: %q", st.Text)
	}
	app, _ = uitest.Drive(app, uitest.Press(uitest.KeyOf(rules.ExplainAlternative)))
	counts, n := c.hub.Tally(a.Item.Key)
	if n != 1 || counts[common.ActionIndex(rules.RetrySame)] != 1 || counts[common.ActionIndex(rules.ExplainAlternative)] != 0 {
		t.Fatalf("tally %v from %d: want the first action, once", counts, n)
	}
	view := app.View()
	if strings.Contains(view, "Verdict") || strings.Contains(view, "not the best move") || !strings.Contains(view, "✓ 0 · ◑ 0") {
		t.Fatalf("the verdict shows before the reveal:\n%s", view)
	}
	uitest.Must(t, c.hub.Reveal())
	app, _ = uitest.Drive(app, c.moved(t))
	if st := app.(*ui.App).Status(); !strings.Contains(st.Text, "revealed the answer to "+sc.Title) || !strings.Contains(st.Text, "your choice "+uitest.KeyOf(rules.RetrySame)) {
		t.Errorf("the reveal's status line: %q", st.Text)
	}
	if view := app.View(); !strings.Contains(view, "Verdict") {
		t.Errorf("no verdict after the reveal:\n%s", view)
	}
}

// teacher is the teacher's app on the class's dashboard, at w x h.
func (c *class) teacher(t *testing.T, w, h int) tea.Model {
	t.Helper()
	app := ui.New(ui.Options{Catalog: c.cat, Bank: c.bank, Walkthroughs: c.set,
		Teacher: &ui.TeacherStart{Hub: c.hub, Opts: classpage.DashboardOptions{ExportDir: filepath.Join(c.dir, "exports")}}})
	app, _ = uitest.Start(app, tea.WindowSizeMsg{Width: w, Height: h})
	return app
}

// The dashboard shows who is connected and where, the live tally with a
// bar and a count per option, the reveal, and writes the export.
func TestDashboardTallyRevealExport(t *testing.T) {
	c := newClass(t)
	q := c.question(t, "empty-which-mistake-is-worse")
	dash := c.teacher(t, 120, 40)
	if !strings.Contains(dash.View(), "the room is free") {
		t.Fatalf("an empty room's dashboard:\n%s", dash.View())
	}
	// The teacher asks through the picker: a, filter, enter.
	dash, _ = uitest.Drive(dash, uitest.Press("a"), uitest.Press("/"))
	for _, r := range q.ID {
		dash, _ = uitest.Drive(dash, uitest.Press(string(r)))
	}
	dash, _ = uitest.Drive(dash, uitest.Press("enter"), uitest.Press("enter"))
	if it, ok := c.hub.Current(); !ok || it.Question != q.ID {
		t.Fatalf("the picker sent the room to %+v", it)
	}
	names := []string{"ann", "bo", "cy"}
	for i, n := range names {
		m, err := c.hub.Join(n, room.Student, "test")
		uitest.Must(t, err)
		m.Room().Where("Home")
		if i < 2 {
			uitest.Must(t, m.Room().Answer(common.QuestionKey(q.ID), []int{1}))
		}
	}
	dash, _ = uitest.Drive(dash, room.ChangedMsg{})
	view := dash.View()
	for _, want := range []string{"3 students connected", "2 of 3 answered", "3 students connected while it was open", "ann", "cy", "a changed answer replaces"} {
		if !strings.Contains(uitest.Flat(view), uitest.Flat(want)) {
			t.Errorf("the dashboard lacks %q:\n%s", want, view)
		}
	}
	optB := "B " + strings.Fields(q.Options[1].Text)[0]
	if line := uitest.LineWith(view, optB); !strings.Contains(line, "█") || !strings.Contains(line, "  2") {
		t.Errorf("option B's bar: %q", line)
	}
	dash, _ = uitest.Drive(dash, uitest.Press("r"))
	if st := dash.(*ui.App).Status(); !strings.Contains(st.Text, "every student's screen") {
		t.Errorf("status after r: %q", st.Text)
	}
	view = dash.View()
	if !strings.Contains(view, "✓ revealed") || !strings.Contains(uitest.LineWith(view, "ann "), "B ✗") || !strings.Contains(uitest.LineWith(view, "cy "), "—") {
		t.Errorf("no reveal on the dashboard, or no ✗ on ann's answer:\n%s", view)
	}
	uitest.Drive(dash, uitest.Press("e"))
	md := filepath.Join(c.dir, "exports", "class-"+c.hub.ID()+".md")
	data, err := os.ReadFile(md)
	uitest.Must(t, err)
	if !strings.Contains(string(data), "| ann | B |") || !strings.Contains(string(data), "2 of 3 answered") {
		t.Errorf("the export:\n%s", data)
	}
	if _, err := os.Stat(strings.TrimSuffix(md, ".md") + ".json"); err != nil {
		t.Error(err)
	}
}

// The dashboard runs a walkthrough in class mode: t picks one, → and ←
// move every screen a step, s jumps to a step.
func TestDashboardDrivesAWalkthrough(t *testing.T) {
	c := newClass(t)
	dash := c.teacher(t, 100, 30)
	dash, _ = uitest.Drive(dash, uitest.Press("t"), uitest.Press("enter"))
	it, ok := c.hub.Current()
	if !ok || it.Kind != common.RoomStep || it.Step != 0 {
		t.Fatalf("after t enter the room is on %+v", it)
	}
	dash, _ = uitest.Drive(dash, room.ChangedMsg{}, uitest.Press("right"), room.ChangedMsg{}, uitest.Press("right"), room.ChangedMsg{}, uitest.Press("left"), room.ChangedMsg{})
	if it, _ = c.hub.Current(); it.Step != 1 {
		t.Fatalf("after → → ← the room is on step %d, want 2", it.Step+1)
	}
	if !strings.Contains(dash.View(), "class mode · step 2") {
		t.Errorf("the dashboard does not say where the walkthrough is:\n%s", dash.View())
	}
	dash, _ = uitest.Drive(dash, uitest.Press("s"), uitest.Press("end"), uitest.Press("enter"), room.ChangedMsg{})
	w, _ := c.set.Get(it.Walkthrough)
	if it, _ = c.hub.Current(); it.Step != len(w.Steps)-1 {
		t.Errorf("s end enter went to step %d, want the last (%d)", it.Step+1, len(w.Steps))
	}
	_ = dash
}

// The host's own dashboard asks before q ends the class.
func TestHostDashboardAsksBeforeQuitting(t *testing.T) {
	c := newClass(t)
	app := ui.New(ui.Options{Catalog: c.cat, Bank: c.bank, Walkthroughs: c.set,
		Teacher: &ui.TeacherStart{Hub: c.hub, Opts: classpage.DashboardOptions{Host: true, ExportDir: t.TempDir()}}})
	app, _ = uitest.Start(app, tea.WindowSizeMsg{Width: 100, Height: 30})
	app, quit := uitest.Drive(app, uitest.Press("q"))
	if quit || !strings.Contains(app.View(), "end the class?") {
		t.Fatalf("q quit at once (%v) or did not ask:\n%s", quit, app.View())
	}
	app, quit = uitest.Drive(app, uitest.Press("x"))
	if quit {
		t.Fatal("another key quit")
	}
	app, _ = uitest.Drive(app, uitest.Press("q"))
	if _, quit = uitest.Drive(app, uitest.Press("y")); !quit {
		t.Fatal("q then y did not end the class")
	}
}

// Every room screen fits every terminal size without a panic.
func TestRoomScreensFitEverySize(t *testing.T) {
	c := newClass(t)
	q := c.question(t, "empty-which-mistake-is-worse")
	uitest.Must(t, c.hub.Send(room.AskQuestion(q)))
	for _, n := range []string{"ann", "a-very-long-student-name-that-goes-on-and-on", "bo"} {
		m, _ := c.hub.Join(n, room.Student, "test")
		_ = m.Room().Answer(common.QuestionKey(q.ID), []int{0})
		m.Room().Where(strings.Repeat("Lab › somewhere ", 10))
	}
	student, _ := c.student(t, "cy")
	student, _ = uitest.Drive(student, c.moved(t))
	dash := c.teacher(t, 120, 40)
	dash, _ = uitest.Drive(dash, room.ChangedMsg{})
	picker, _ := uitest.Drive(c.teacher(t, 120, 40), uitest.Press("a"))
	classpage.SetClock(dash.(*ui.App).Top().(*classpage.Dashboard), func() time.Time { return time.Now().Add(2 * time.Hour) })
	uitest.Sweep(t, map[string]tea.Model{"question": student, "dashboard": dash, "picker": picker})
}
