package classroom_test

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/classroom/room"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	classpage "github.com/errorlab/errorlab/ui/pages/classroom"
	wtpage "github.com/errorlab/errorlab/ui/pages/walkthrough"
)

// crumbs is the breadcrumb of the student's app.
func crumbs(app tea.Model) string { return uitest.LineWith(app.View(), "errorlab") }

// Each lab scenario the teacher sends replaces the room's previous
// screen instead of stacking; a reveal names its scenario and takes a
// student who moved on (n) back to it.
func TestRoomMovesReplaceAndRevealTakesBack(t *testing.T) {
	c := newClass(t)
	ids := []string{"staff-record-denied", "refund-past-return-window", "timeout-second-try"}
	app, _ := c.student(t, "bob")
	for _, id := range ids {
		sc, ok := c.cat.Get(id)
		if !ok {
			t.Skipf("no %s", id)
		}
		uitest.Must(t, c.hub.Send(room.AskScenario(sc)))
		app, _ = uitest.Drive(app, c.moved(t))
	}
	last := ids[len(ids)-1]
	if got := crumbs(app); strings.Count(got, "›") != 1 || !strings.Contains(got, last) {
		t.Fatalf("three sends left the breadcrumb %q, want errorlab › %s", got, last)
	}
	// n goes to the next scenario; the reveal brings bob back.
	app, _ = uitest.Drive(app, uitest.Press("n"))
	if top(app).Crumb() == last {
		t.Fatal("n did not move on")
	}
	uitest.Must(t, c.hub.Reveal())
	app, _ = uitest.Drive(app, c.moved(t))
	sc, _ := c.cat.Get(last)
	if top(app).Crumb() != last {
		t.Fatalf("after the reveal bob is on %q, want %s", top(app).Crumb(), last)
	}
	if got := crumbs(app); strings.Count(got, "›") != 1 {
		t.Errorf("the breadcrumb after the reveal: %q", got)
	}
	if st := app.(*ui.App).Status(); !strings.Contains(st.Text, sc.Title) || !strings.Contains(st.Text, "answers are closed") {
		t.Errorf("the reveal's status does not name the scenario (or say bob did not choose): %q", st.Text)
	}
}

// A student who joins after a lab scenario's reveal is told the answers
// are closed, and a choice then is not counted.
func TestJoinerAfterRevealIsTold(t *testing.T) {
	c := newClass(t)
	sc, ok := c.cat.Get("staff-record-denied")
	if !ok {
		t.Skip("no staff-record-denied")
	}
	a := room.AskScenario(sc)
	uitest.Must(t, c.hub.Send(a))
	uitest.Must(t, c.hub.Reveal())
	app, _ := c.student(t, "late")
	if st := app.(*ui.App).Status(); !strings.Contains(st.Text, "answers are closed") || strings.Contains(st.Text, "goes to the room") {
		t.Fatalf("the late joiner's status: %q", st.Text)
	}
	app, _ = uitest.Drive(app, uitest.Press("enter"), uitest.Press(uitest.KeyOf(rules.RetrySame)))
	if _, n := c.hub.Tally(a.Item.Key); n != 0 {
		t.Errorf("a choice after the reveal was counted")
	}
	if !strings.Contains(app.View(), "Verdict") {
		t.Errorf("after the reveal the lab is the lab again, with its verdict:\n%s", app.View())
	}
}

// A question asked again is a new poll on the student's screen: open,
// with no answer, and a new answer counts in the new tally.
func TestQuestionAskedAgain(t *testing.T) {
	c := newClass(t)
	q := c.question(t, "empty-which-mistake-is-worse")
	app, _ := c.student(t, "ann")
	uitest.Must(t, c.hub.Send(room.AskQuestion(q)))
	app, _ = uitest.Drive(app, c.moved(t), uitest.Press("b"))
	uitest.Must(t, c.hub.Reveal())
	app, _ = uitest.Drive(app, c.moved(t))
	uitest.Must(t, c.hub.Send(room.AskQuestion(q)))
	app, _ = uitest.Drive(app, c.moved(t))
	view := app.View()
	if !strings.Contains(view, "Answer with a letter") || strings.Contains(view, "The answer:") {
		t.Fatalf("asked again, the question is not open:\n%s", view)
	}
	if st := app.(*ui.App).Status(); !strings.Contains(st.Text, "again") {
		t.Errorf("status: %q", st.Text)
	}
	uitest.Drive(app, uitest.Press("c"))
	if counts, n := c.hub.Tally(common.QuestionKey(q.ID)); n != 1 || counts[2] != 1 {
		t.Errorf("the new poll's tally %v from %d", counts, n)
	}
	// The teacher's picker marks it asked before; the dashboard shows no
	// question id (a projected dashboard would give answers away).
	dash := c.teacher(t, 120, 40)
	if view := dash.View(); strings.Contains(view, q.ID) {
		t.Errorf("the dashboard shows the question's id:\n%s", view)
	}
	words := strings.Join(strings.Fields(q.Stem)[:3], " ")
	dash, _ = uitest.Drive(dash, uitest.Press("a"), uitest.Press("/"), uitest.Press(words), uitest.Press("enter"))
	if view := dash.View(); !strings.Contains(view, "↻ asked 2×") || strings.Contains(view, q.ID) {
		t.Errorf("the picker does not mark the question asked twice, or shows ids:\n%s", view)
	}
}

// Freeing the room (x) lets go of a student following a walkthrough in
// class mode: the steps are theirs to move.
func TestFreeingReleasesClassMode(t *testing.T) {
	c := newClass(t)
	w := c.set.Walkthroughs[0]
	app, m := c.student(t, "cy")
	var mu sync.Mutex
	var got []tea.Msg
	m.Attach(func(msg tea.Msg) { mu.Lock(); got = append(got, msg); mu.Unlock() })
	a, err := room.AskStep(w, 1, c.cat, c.bank)
	uitest.Must(t, err)
	uitest.Must(t, c.hub.Send(a))
	app, _ = uitest.Drive(app, c.moved(t))
	page, ok := top(app).(*wtpage.Model)
	if !ok || !page.Following() {
		t.Fatalf("the student is on %T", top(app))
	}
	dash := c.teacher(t, 100, 30)
	uitest.Drive(dash, uitest.Press("x"))
	deadline := time.Now().Add(2 * time.Second)
	var free tea.Msg
	for free == nil && time.Now().Before(deadline) {
		mu.Lock()
		for _, msg := range got {
			if rm, ok := msg.(common.RoomMsg); ok && rm.Item.Kind == common.RoomFree {
				free = msg
			}
		}
		mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	if free == nil {
		t.Fatal("x sent the students nothing")
	}
	app, _ = uitest.Drive(app, free)
	if page.Following() {
		t.Fatal("the walkthrough still follows the room after x")
	}
	if st := app.(*ui.App).Status(); !strings.Contains(st.Text, "freed the room") {
		t.Errorf("status: %q", st.Text)
	}
	app, _ = uitest.Drive(app, uitest.Press("a"), uitest.Press(" "))
	if page.Step() != 2 {
		t.Errorf("space after the release: step %d, want 3", page.Step()+1)
	}
	if strings.Contains(app.View(), "the teacher moves the steps") {
		t.Errorf("the footer still says the teacher moves the steps:\n%s", app.View())
	}
}

// The dashboard's idle column reads the room's clock, the one the idle
// timeout uses: a student who presses a key is not shown idle.
func TestDashboardIdleIsLastKey(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2025, 1, 31, 14, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	hub, err := room.New(room.Config{Now: clock, HostKey: "SHA256:abcdefgh"})
	uitest.Must(t, err)
	defer hub.Close()
	m, err := hub.Join("busy", room.Student, "test")
	uitest.Must(t, err)
	c := newClass(t)
	app := ui.New(ui.Options{Catalog: c.cat, Bank: c.bank, Walkthroughs: c.set,
		Teacher: &ui.TeacherStart{Hub: hub, Opts: classpage.DashboardOptions{}}})
	app, _ = uitest.Start(app, tea.WindowSizeMsg{Width: 120, Height: 40})
	d := top(app).(*classpage.Dashboard)
	classpage.SetClock(d, clock)
	for range 12 { // a key every 2 s for 24 s
		mu.Lock()
		now = now.Add(2 * time.Second)
		mu.Unlock()
		m.Touch()
	}
	classpage.Tick(d)
	line := uitest.LineWith(app.View(), "busy")
	if !strings.HasSuffix(strings.TrimRight(strings.TrimRight(line, " │"), " "), " 0s") {
		t.Errorf("a student pressing keys shows %q, want 0s idle", line)
	}
	if !strings.Contains(app.View(), "host key SHA256:abcdefgh") {
		t.Errorf("the dashboard does not show the host key:\n%s", app.View())
	}
}

// A long name is cut with … and leaves every column to the others: the
// idle column stays and "where" keeps its room, at 120x40 and 80x24.
func TestLongNameKeepsTheColumns(t *testing.T) {
	c := newClass(t)
	for _, n := range []string{"bo", strings.Repeat("averyveryverylongname", 3)} {
		m, _ := c.hub.Join(n, room.Student, "test")
		m.Room().Where("Lab › refund-past-return-window")
	}
	uitest.Must(t, c.hub.Send(room.AskQuestion(c.question(t, "empty-which-mistake-is-worse"))))
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		dash := c.teacher(t, size[0], size[1])
		line := uitest.LineWith(dash.View(), "bo ")
		if !strings.Contains(line, "Lab › refund-past") || !strings.Contains(line, "s ") && !strings.HasSuffix(strings.TrimRight(line, " │"), "s") {
			t.Errorf("at %dx%d bo's row lost its columns: %q", size[0], size[1], line)
		}
		if long := uitest.LineWith(dash.View(), "averyvery"); !strings.Contains(long, "…") {
			t.Errorf("at %dx%d the long name is not cut: %q", size[0], size[1], long)
		}
	}
}

// After the reveal the dashboard marks an acceptable lab answer ◑, a
// wrong one ✗ and the best ✓, as the record does.
func TestDashboardMarksAcceptable(t *testing.T) {
	c := newClass(t)
	sc, ok := c.cat.Get("staff-record-denied")
	if !ok {
		t.Skip("no staff-record-denied")
	}
	a := room.AskScenario(sc)
	uitest.Must(t, c.hub.Send(a))
	choices := map[string]rules.Grade{}
	for _, g := range []rules.Grade{rules.GradeBest, rules.GradeAcceptable, rules.GradeWrong} {
		i := slices.Index(a.Grades, g)
		name := map[rules.Grade]string{rules.GradeBest: "best", rules.GradeAcceptable: "fine", rules.GradeWrong: "bad"}[g]
		m, _ := c.hub.Join(name, room.Student, "test")
		uitest.Must(t, m.Room().Answer(a.Item.Key, []int{i}))
		choices[name] = g
	}
	uitest.Must(t, c.hub.Reveal())
	dash := c.teacher(t, 120, 40)
	for name, g := range choices {
		if line := uitest.LineWith(dash.View(), "│ "+name+" "); !strings.Contains(line, room.GradeMark(g)) {
			t.Errorf("%s's row lacks %s: %q", name, room.GradeMark(g), line)
		}
	}
}
