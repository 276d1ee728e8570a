package walkthrough_test

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/walkthrough"
)

// keyMsg is the key a clicker or a keyboard sends, by name.
func keyMsg(name string) tea.KeyMsg {
	types := map[string]tea.KeyType{
		"right": tea.KeyRight, "left": tea.KeyLeft, "up": tea.KeyUp, "down": tea.KeyDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp,
		"backspace": tea.KeyBackspace, "enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab,
		"ctrl+c": tea.KeyCtrlC,
	}
	if name == "space" || name == " " {
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	if t, ok := types[name]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

func keys(names ...string) []tea.Msg {
	out := make([]tea.Msg, len(names))
	for i, n := range names {
		out[i] = keyMsg(n)
	}
	return out
}

// open builds the App presenting the test walkthrough at w×h (the
// audience view, or the presenter view), its first step loaded.
func open(tb testing.TB, presenter bool, w, h int) tea.Model {
	tb.Helper()
	set, cat := testSet(tb)
	o := ui.Options{Catalog: cat, Walkthroughs: set, WalkthroughID: "every-kind", Presenter: presenter, ExportDir: tb.TempDir()}
	m, _ := uitest.Start(ui.New(o), tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// press feeds the named keys; it reports whether the app quit.
func press(m tea.Model, names ...string) (tea.Model, bool) {
	return uitest.Drive(m, keys(names...)...)
}

func screen(tb testing.TB, m tea.Model) *walkthrough.Model {
	tb.Helper()
	s, ok := m.(*ui.App).Top().(*walkthrough.Model)
	if !ok {
		tb.Fatalf("the top screen is %T, not the presenting screen", m.(*ui.App).Top())
	}
	return s
}

// at checks the step (1-based) and part on screen.
func at(tb testing.TB, m tea.Model, step, part int, what string) {
	tb.Helper()
	s := screen(tb, m)
	if s.Step()+1 != step || s.Part() != part {
		tb.Fatalf("%s: at step %d part %d, want step %d part %d\n%s", what, s.Step()+1, s.Part(), step, part, m.View())
	}
}

// The parts of the test walkthrough's steps (the opening view counted):
// the live call reveals the request, the result, isError and five
// structuredContent fields.
const liveCallParts = 9

// Forward reveals a part at a time and past the last part opens the next
// step; back hides a part, and before the first goes to the previous
// step fully revealed. Every clicker key works.
func TestForwardAndBack(t *testing.T) {
	m := open(t, false, 80, 24)
	at(t, m, 1, 0, "opened")
	if v := m.View(); !strings.Contains(v, "The afternoon rush") || !strings.Contains(v, "1/8 · narration") {
		t.Fatalf("the first step:\n%s", v)
	}
	m, _ = press(m, "space")
	at(t, m, 2, 0, "space on a narration")
	for i, k := range []string{"right", "pgdown", "enter", "space"} {
		m, _ = press(m, k)
		at(t, m, 2, i+1, k)
	}
	if v := m.View(); !strings.Contains(v, "▶ revealing 4/8 errorCategory: transient") || !strings.Contains(v, `▶       "errorCategory": "transient"`) {
		t.Errorf("part 4 does not mark errorCategory:\n%s", v)
	}
	for range liveCallParts - 1 - 4 {
		m, _ = press(m, "space")
	}
	at(t, m, 2, liveCallParts-1, "the last part")
	if !strings.Contains(m.View(), "✓ all shown · → next step") {
		t.Errorf("the last part does not say so:\n%s", m.View())
	}
	m, _ = press(m, "space")
	at(t, m, 3, 0, "past the last part")
	m, _ = press(m, "left")
	at(t, m, 2, liveCallParts-1, "back from a step's first part: the previous step, fully revealed")
	for i, k := range []string{"pgup", "backspace", "left"} {
		m, _ = press(m, k)
		at(t, m, 2, liveCallParts-2-i, k)
	}
	m, _ = press(m, "a")
	at(t, m, 2, liveCallParts-1, "a: all of the step")
	m, _ = press(m, "home")
	at(t, m, 1, 0, "home")
	m, _ = press(m, "left")
	at(t, m, 1, 0, "back on the first step")
	if !strings.Contains(m.View(), "this is the first step") {
		t.Errorf("back on the first step says nothing:\n%s", m.View())
	}
	m, _ = press(m, "end")
	at(t, m, 8, 0, "end")
	m, _ = press(m, "space")
	at(t, m, 8, 0, "forward on the last step")
	if !strings.Contains(m.View(), "the end of the walkthrough") {
		t.Errorf("forward at the end says nothing:\n%s", m.View())
	}
}

// Each kind reveals what the issue says, one click at a time.
func TestEveryKindReveals(t *testing.T) {
	m := open(t, false, 120, 40)
	// The comparison: the bad response, then the good one, labelled.
	m, _ = press(m, "g", "3", "enter", "space")
	at(t, m, 3, 1, "compare, bad")
	v := m.View()
	if !strings.Contains(v, "✗ generic (bad) · isError true · no errorCategory") || !strings.Contains(v, "▷ next click: the good response") {
		t.Errorf("compare part 1:\n%s", v)
	}
	m, _ = press(m, "space")
	if v := m.View(); !strings.Contains(v, "✓ good · isError true · business · isRetryable false") {
		t.Errorf("compare part 2:\n%s", v)
	}
	// Two agents, one event per click; the verdicts at the end.
	m, _ = press(m, "space", "space")
	at(t, m, 4, 1, "agents, first event")
	if v := m.View(); !strings.Contains(v, "▶ event 1/") || !strings.Contains(v, "Naive · meets generic") || !strings.Contains(v, "Informed · meets good") {
		t.Errorf("agents part 1:\n%s", v)
	}
	m, _ = press(m, "g", "5", "enter", "left")
	if v := m.View(); !strings.Contains(v, "Naive:    6 calls") || !strings.Contains(v, "Informed: 2 calls") || !strings.Contains(v, "✓ all shown") {
		t.Errorf("agents fully revealed:\n%s", v)
	}
	// The subagent: its steps, its one report, the coordinator's move.
	m, _ = press(m, "g", "6", "enter", "left")
	if v := m.View(); !strings.Contains(v, "The one report it sent (partial)") || !strings.Contains(v, "Move:") || !strings.Contains(v, "Escalate") {
		t.Errorf("coordinator fully revealed:\n%s", v)
	}
	// A question: the options, then the answer with every option explained.
	m, _ = press(m, "g", "7", "enter")
	v = m.View()
	if !strings.Contains(v, "What should the agent do?") || strings.Contains(v, "▶ A ") || !strings.Contains(v, "▷ next click: the answer") {
		t.Errorf("the question before the answer:\n%s", v)
	}
	m, _ = press(m, "space")
	v = m.View()
	for _, want := range []string{"✓ Answer: A", "▶ A  Wait a moment", "  B  Change the arguments", "the answer: A transient failure can succeed", "Nothing was wrong with the arguments"} {
		if !strings.Contains(v, want) {
			t.Errorf("the answer lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "Right. A transient") {
		t.Errorf("the explanation repeats the verdict beside ✓:\n%s", v)
	}
}

// g then a number and enter (or a pause) jumps; a number out of range
// says so and stays.
func TestJump(t *testing.T) {
	m := open(t, false, 80, 24)
	m, _ = press(m, "g", "5")
	if !strings.Contains(m.View(), "go to step: 5▏") {
		t.Errorf("typing a step number shows nothing:\n%s", m.View())
	}
	m, _ = press(m, "enter")
	at(t, m, 5, 0, "g 5 enter")
	m, _ = press(m, "g", "9", "9", "enter")
	at(t, m, 5, 0, "g 99 enter")
	if !strings.Contains(m.View(), "no step 99: this walkthrough has steps 1 to 8") {
		t.Errorf("no word on a step out of range:\n%s", m.View())
	}
	m, _ = press(m, "g", "3", "esc")
	at(t, m, 5, 0, "g 3 esc")
	m, _ = press(m, "g", "2", "backspace", "7", "enter")
	at(t, m, 7, 0, "g 2 backspace 7 enter")

	// A short pause takes the number too.
	walkthrough.UseHooks(t, nil, nil, 5*time.Millisecond)
	m, _ = press(m, "g", "2")
	at(t, m, 2, 0, "g 2 and a pause")
}

// b and w blank the room's screen; any key shows the step again and does
// nothing else. w is not the root's "write JSON" here.
func TestBlank(t *testing.T) {
	for _, c := range []struct{ key, blank string }{{"b", "black"}, {"w", "white"}} {
		m := open(t, false, 80, 24)
		m, _ = press(m, "space")
		m, _ = press(m, c.key)
		if walkthrough.Blank(m.(*ui.App).Top()) != c.blank || strings.TrimSpace(m.View()) != "" {
			t.Errorf("%s: blank %q, view:\n%s", c.key, walkthrough.Blank(m.(*ui.App).Top()), m.View())
		}
		if n := strings.Count(m.View(), "\n") + 1; n != 24 {
			t.Errorf("%s: the blank screen has %d lines", c.key, n)
		}
		m, _ = press(m, "space")
		at(t, m, 2, 0, c.key+" then space: unblanked, not moved")
		if walkthrough.Blank(m.(*ui.App).Top()) != "" || !strings.Contains(m.View(), "The timeout on the wire") {
			t.Errorf("%s: space did not unblank:\n%s", c.key, m.View())
		}
	}
	// w wrote no file.
	m := open(t, false, 80, 24)
	m, _ = press(m, "g", "2", "enter", "space", "w", "x")
	if s := m.(*ui.App).Status(); strings.Contains(s.Text, "wrote") {
		t.Errorf("w wrote a file: %s", s.Text)
	}
}

// n shows the presenter notes over the step and hides them again; in the
// presenter view they show from the start.
func TestNotes(t *testing.T) {
	m := open(t, false, 80, 24)
	const note = "Set the scene; ask the room"
	if strings.Contains(m.View(), note) {
		t.Fatalf("the room sees the notes unasked:\n%s", m.View())
	}
	m, _ = press(m, "n")
	if v := m.View(); !strings.Contains(v, note) || !strings.Contains(v, "✎ Presenter notes · n hides") {
		t.Errorf("n shows no notes:\n%s", v)
	}
	m, _ = press(m, "space")
	if !strings.Contains(m.View(), "Request first, then the result member") {
		t.Errorf("the notes do not follow the step:\n%s", m.View())
	}
	m, _ = press(m, "n")
	if strings.Contains(m.View(), "Presenter notes") {
		t.Errorf("n does not hide the notes:\n%s", m.View())
	}
	p := open(t, true, 120, 40)
	if v := p.View(); !strings.Contains(v, note) || !strings.Contains(v, "Next · 2/8 · live call") {
		t.Errorf("the presenter view lacks its notes or the next step:\n%s", v)
	}
	p, _ = press(p, "n")
	if strings.Contains(p.View(), note) {
		t.Errorf("n does not hide the presenter's notes:\n%s", p.View())
	}
}

// t shows the time since the first click against the planned minutes.
func TestTimer(t *testing.T) {
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	walkthrough.UseHooks(t, func() time.Time { return now }, nil, 0)
	m := open(t, false, 80, 24)
	if strings.Contains(m.View(), "⏱") {
		t.Fatalf("the timer shows unasked:\n%s", m.View())
	}
	m, _ = press(m, "t")
	if !strings.Contains(m.View(), "⏱ 00:00 / 10:00 · starts at the first click") {
		t.Errorf("before the first click:\n%s", m.View())
	}
	m, _ = press(m, "space")
	now = now.Add(12*time.Minute + 30*time.Second)
	m, _ = press(m, "space")
	if !strings.Contains(m.View(), "⏱ 12:30 / 10:00 ⚠ 02:30 over") {
		t.Errorf("past the planned time:\n%s", m.View())
	}
	m, _ = press(m, "t")
	if strings.Contains(m.View(), "⏱") {
		t.Errorf("t does not hide the timer:\n%s", m.View())
	}
}

// q asks before it quits, and any other key stays; ctrl+c quits at once.
// esc asks before it leaves for the list. ? shows the keys.
func TestQuitLeaveHelp(t *testing.T) {
	m := open(t, false, 80, 24)
	m, quit := press(m, "q")
	if quit || !strings.Contains(m.View(), "quit errorlab? q again (or y) quits") {
		t.Fatalf("q: quit %v\n%s", quit, m.View())
	}
	m, quit = press(m, "space")
	at(t, m, 1, 0, "q then space: stays, does not move")
	if quit || strings.Contains(m.View(), "quit errorlab?") {
		t.Fatalf("space after q: quit %v\n%s", quit, m.View())
	}
	if _, quit = press(m, "q", "q"); !quit {
		t.Error("q q does not quit")
	}
	if _, quit = press(m, "q", "y"); !quit {
		t.Error("q y does not quit")
	}
	if _, quit = press(m, "ctrl+c"); !quit {
		t.Error("ctrl+c does not quit")
	}
	m, _ = press(m, "esc")
	if !strings.Contains(m.View(), "⚠ leave for the list? esc again (or y) leaves · any other key stays") {
		t.Fatalf("esc does not ask:\n%s", m.View())
	}
	m, _ = press(m, "esc")
	if _, ok := m.(*ui.App).Top().(*walkthrough.List); !ok {
		t.Fatalf("esc esc: top is %T, not the list", m.(*ui.App).Top())
	}
	m = open(t, false, 80, 24)
	m, _ = press(m, "?")
	v := m.View()
	for _, want := range []string{"Keys", "space/→/pgdn/enter", "blank to white", "go to step 7", "any key closes this"} {
		if !strings.Contains(v, want) {
			t.Errorf("? lacks %q:\n%s", want, v)
		}
	}
	m, _ = press(m, "space")
	at(t, m, 1, 0, "a key closing the help does not move")
	if strings.Contains(m.View(), "any key closes this") {
		t.Errorf("the help stays:\n%s", m.View())
	}
}

// Home has Present; the list shows each walkthrough's length, steps and
// topics; enter presents the one selected and p opens its presenter view.
func TestListAndHome(t *testing.T) {
	set, cat := testSet(t)
	home := func() tea.Model {
		return ui.New(ui.Options{Catalog: cat, Walkthroughs: set})
	}
	var in []tea.Msg
	for range uitest.HomeKeyIndex(t, home(), "Present") {
		in = append(in, keyMsg("down"))
	}
	toList := append([]tea.Msg{uitest.Size120}, append(in, keyMsg("enter"))...)
	m, _ := uitest.Drive(home(), toList...)
	v := m.View()
	for _, want := range []string{"Classroom walkthroughs", "▸ Every kind of step", "10 min · 8 steps · categories §2", "errorlab › Present"} {
		if !strings.Contains(v, want) {
			t.Errorf("the list lacks %q:\n%s", want, v)
		}
	}
	p, _ := press(m, "p")
	if s := screen(t, p); !s.Presenter() || s.Walkthrough().ID != "every-kind" {
		t.Errorf("p opens presenter %v on %s", s.Presenter(), s.Walkthrough().ID)
	}
	m, _ = uitest.Drive(home(), toList...)
	m, _ = press(m, "enter")
	if s := screen(t, m); s.Presenter() {
		t.Error("enter opens the presenter view")
	}
	// An unknown id at start opens the list and says so.
	m, _ = uitest.Start(ui.New(ui.Options{Catalog: cat, Walkthroughs: set, WalkthroughID: "every-kinds"}), uitest.Size120)
	if _, ok := m.(*ui.App).Top().(*walkthrough.List); !ok || !strings.Contains(m.View(), `no walkthrough "every-kinds" (closest: every-kind)`) {
		t.Errorf("unknown id: %T\n%s", m.(*ui.App).Top(), m.View())
	}
}

// The built-in walkthroughs all load and open in the list.
func TestBuiltInList(t *testing.T) {
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.Catalog(t)}), uitest.Size120, common.OpenWalkthroughsMsg{})
	if v := m.View(); !strings.Contains(v, "Four failures in one afternoon") || !strings.Contains(v, "25 min · 14 steps") {
		t.Errorf("the built-in list:\n%s", v)
	}
	// The mouse: the wheel moves the cursor, a click on the selected
	// walkthrough presents it.
	m, _ = uitest.Drive(m, uitest.MousePress(10, 5, tea.MouseButtonWheelDown))
	l := m.(*ui.App).Top().(*walkthrough.List)
	if l.Selected().ID != "empty-is-not-an-error" {
		t.Fatalf("the wheel selects %s", l.Selected().ID)
	}
	row := uitest.RowOf(t, m.View(), "▸ Empty is not an error")
	m, _ = uitest.Drive(m, uitest.MousePress(10, row, tea.MouseButtonLeft))
	if s := screen(t, m); s.Walkthrough().ID != "empty-is-not-an-error" || s.Presenter() {
		t.Errorf("a click on the selected one presents %s (presenter %v)", s.Walkthrough().ID, s.Presenter())
	}
}

// Keys that arrive in one message (tmux send-keys, a clicker's macro,
// fast typing) count one by one: "g7" then enter goes to step 7, "nb"
// shows the notes and blanks.
func TestKeysTogether(t *testing.T) {
	m := open(t, false, 80, 24)
	m, _ = uitest.Drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g7")}, keyMsg("enter"))
	at(t, m, 7, 0, "g7 in one message, then enter")
	m, _ = uitest.Drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("nb")})
	if walkthrough.Blank(m.(*ui.App).Top()) != "black" {
		t.Errorf("nb in one message: blank %q", walkthrough.Blank(m.(*ui.App).Top()))
	}
}

// The wheel scrolls the pane under the pointer (the room's screen has no
// header: rows are the terminal's), ↑/↓ the one in focus, tab moves the
// focus.
func TestScroll(t *testing.T) {
	m := open(t, false, 80, 24)
	m, _ = press(m, "g", "2", "enter", "space", "space", "space", "space")
	before := uitest.LineWith(m.View(), "/26")
	row := uitest.RowOf(t, m.View(), `"errorCategory": "transient"`)
	m, _ = uitest.Drive(m, uitest.MousePress(20, row, tea.MouseButtonWheelUp))
	after := uitest.LineWith(m.View(), "/26")
	if before == after || !strings.Contains(after, "12-23/26") {
		t.Errorf("the wheel over the response: %q, then %q\n%s", before, after, m.View())
	}
	m, _ = press(m, "down")
	if !strings.Contains(m.View(), "13-24/26") {
		t.Errorf("↓ does not scroll the response in focus:\n%s", m.View())
	}
	m, _ = press(m, "tab", "down")
	if !strings.Contains(m.View(), "7-10/11") {
		t.Errorf("tab, ↓ does not scroll the request:\n%s", m.View())
	}
}

// A click on a pane focuses it: ↓ then scrolls that pane.
func TestClickFocuses(t *testing.T) {
	m := open(t, false, 80, 24)
	m, _ = press(m, "g", "2", "enter", "space", "space", "space", "space")
	row := uitest.RowOf(t, m.View(), "Request (client → server)")
	m, _ = uitest.Drive(m, uitest.MousePress(20, row+1, tea.MouseButtonLeft))
	before := m.View()
	m, _ = press(m, "down")
	if !strings.Contains(m.View(), "7-10/11") || m.View() == before {
		t.Errorf("a click on the request does not focus it: ↓ does not scroll it\n%s\n%s", before, m.View())
	}
	if strings.Contains(uitest.LineWith(m.View(), "/27"), "14-") {
		t.Errorf("↓ after a click on the request scrolled the response:\n%s", m.View())
	}
}

// At 80x24 the subagent step gives its rows to the part shown: the
// report, once sent, shows from its open error, and the coordinator's
// move shows whole with no blank rows while the report is cut.
func TestCoordinatorRows(t *testing.T) {
	m := open(t, false, 80, 24)
	m, _ = press(m, "g", "5", "enter", "a")
	s := screen(t, m)
	last := s.Part()
	m, _ = press(m, "left")
	v := m.View()
	for _, want := range []string{`"error": {`, `"errorCategory":`} {
		if !strings.Contains(v, want) {
			t.Errorf("the report part lacks %q on screen:\n%s", want, v)
		}
	}
	m, _ = press(m, "space")
	at(t, m, 5, last, "the move")
	v = m.View()
	for _, want := range []string{`"error": {`, "Move:", "Why:", "▸ The coordinator's move"} {
		if !strings.Contains(v, want) {
			t.Errorf("the move part lacks %q on screen:\n%s", want, v)
		}
	}
	if strings.Contains(v, "│                                                                              │\n╰") {
		t.Errorf("a pane ends in blank rows while the report is cut:\n%s", v)
	}
}

// At 80x24 the part revealed is brought into view: the answer's right
// option with its explanation, and the good response, focused, at its
// structuredContent.
func TestRevealInView(t *testing.T) {
	m := open(t, false, 80, 24)
	m, _ = press(m, "g", "6", "enter", "space")
	v := m.View()
	if !strings.Contains(v, "✓ Answer:") || !strings.Contains(v, "▶ A  Resend the same call after about a second") || !strings.Contains(v, "4 s at most") {
		t.Errorf("the answer is not in view:\n%s", v)
	}
	m, _ = press(m, "g", "3", "enter", "space", "space")
	v = m.View()
	if !strings.Contains(v, "▸ ✓ good") || !strings.Contains(v, `"structuredContent": {`) || !strings.Contains(v, `"errorCategory": "business"`) {
		t.Errorf("the good response is not focused at its structuredContent:\n%s", v)
	}
}

// The answer is marked as the answer, not as good: no ✓ or ✗ on the
// options (a stem asking which is NOT sensible has its answer marked
// too), and an option's lines share one left edge.
func TestAnswerMarker(t *testing.T) {
	m := open(t, false, 80, 24)
	m, _ = press(m, "g", "7", "enter", "space")
	v := m.View()
	for _, bad := range []string{"✓ A ", "✗ B ", "✗ C "} {
		if strings.Contains(v, bad) {
			t.Errorf("the answer has %q, a verdict, on an option:\n%s", bad, v)
		}
	}
	if !strings.Contains(v, "┃ ▶ A  Wait a moment") || !strings.Contains(v, "┃      the answer: A transient failure") || !strings.Contains(v, "┃      Nothing was wrong") {
		t.Errorf("the answer's marker or the explanations' edge:\n%s", v)
	}
}

// At 80x24 a live call's panes share rows by content: once the response
// shows whole, the request gets its blank rows and shows its arguments.
func TestLiveCallRows(t *testing.T) {
	m := open(t, false, 80, 24)
	m, _ = press(m, "g", "2", "enter", "a")
	v := m.View()
	if !strings.Contains(v, `"arguments": {`) {
		t.Errorf("the request's arguments are off screen:\n%s", v)
	}
	if strings.Contains(v, "│                                                                              │\n╰") || strings.Contains(v, "┃                                                                              ┃\n┗") {
		t.Errorf("a pane ends in blank rows while the other is cut:\n%s", v)
	}
}

// The revisions walkthrough's step 8 tells the room where to look, and
// at 80x24 its first click shows the request's _meta it talks about.
func TestRevisionsStep8LooksWhereItSays(t *testing.T) {
	o := ui.Options{Catalog: uitest.Catalog(t), WalkthroughID: "what-changed-between-revisions", ExportDir: t.TempDir()}
	m, _ := uitest.Start(ui.New(o), tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = press(m, "g", "8", "enter")
	if v := m.View(); !strings.Contains(v, "top of the request") {
		t.Errorf("step 8 does not say where to look:\n%s", v)
	}
	m, _ = press(m, "space")
	if v := m.View(); !strings.Contains(v, `▶     "_meta": {`) {
		t.Errorf("the first click does not show _meta:\n%s", v)
	}
}

// The questions asked on the footer fit 80 columns whole.
func TestPromptsFit80(t *testing.T) {
	for _, c := range []struct {
		presenter bool
		key, want string
	}{{false, "esc", "any other key stays"}, {false, "q", "any other key stays"}, {true, "q", "any other key stays"}} {
		m := open(t, c.presenter, 80, 24)
		m, _ = press(m, c.key)
		if v := m.View(); !strings.Contains(v, c.want) {
			t.Errorf("presenter %v, %s: the prompt is cut:\n%s", c.presenter, c.key, v)
		}
	}
}
