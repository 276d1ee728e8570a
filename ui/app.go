// Package ui is errorlab's terminal interface (Bubble Tea): a home menu,
// the lab list, the scenario screen where a learner triggers a failure on
// the embedded mock MCP server, reads the exact JSON-RPC envelopes and
// picks a recovery action, the agents screen where a naive and an
// informed simulated agent play the same failure side by side, a
// Reference of the lesson rules, and the classroom walkthroughs a teacher
// presents to a room.
//
// The root model (App) owns the screen stack, the header, the status line
// and the help bar; every screen gets the same *common.Common (renderer, styles,
// keys, content, size) and is a tea.Model with its own help and SetSize.
// A screen that is common.FullScreener (a walkthrough presented) gets the
// whole terminal instead.
package ui

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/check"
	"github.com/errorlab/errorlab/ui/classroom/room"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/pages/agents"
	checkpage "github.com/errorlab/errorlab/ui/pages/check"
	classpage "github.com/errorlab/errorlab/ui/pages/classroom"
	"github.com/errorlab/errorlab/ui/pages/home"
	"github.com/errorlab/errorlab/ui/pages/lablist"
	"github.com/errorlab/errorlab/ui/pages/propagation"
	quizpage "github.com/errorlab/errorlab/ui/pages/quiz"
	"github.com/errorlab/errorlab/ui/pages/reference"
	"github.com/errorlab/errorlab/ui/pages/scenario"
	servepage "github.com/errorlab/errorlab/ui/pages/serve"
	wtpage "github.com/errorlab/errorlab/ui/pages/walkthrough"
	"github.com/errorlab/errorlab/ui/styles"
)

// Options configure the app.
type Options struct {
	// Catalog is the set of scenarios the lab offers. Nil or empty shows
	// an empty lab rather than failing.
	Catalog *scenarios.Catalog
	// ScenarioID, when set, opens the app directly at this scenario (with
	// Home and the lab list behind it, so esc walks back). An unknown id
	// opens the lab list with an error in the status line naming the
	// closest ids.
	ScenarioID string
	// Progress records the learner's answers; nil means an in-memory
	// store that lasts as long as the program.
	Progress Progress
	// ExportDir is the directory `w` writes exchanges into; "" is the
	// current directory. It is not created.
	ExportDir string
	// Clipboard receives the OSC 52 sequence `y` writes; nil is os.Stdout.
	Clipboard io.Writer
	// Renderer builds every style; nil is lipgloss.DefaultRenderer(), which
	// honours NO_COLOR and the terminal's colour profile. A server (wish)
	// passes one renderer per session.
	Renderer *lipgloss.Renderer
	// Quiz, when set, opens a practice, exam or review session at start.
	Quiz *QuizStart
	// Bank is the question bank the quiz draws from; nil is the built-in
	// one (quiz.DefaultBank). `--questions DIR` passes an overlaid bank.
	Bank *quiz.Bank
	// Notice, when set, is shown in the status line of the first screen:
	// a progress file kept aside, progress that cannot be saved. With a
	// NoticeDetail the status line instead says where that is shown.
	Notice string
	// NoticeDetail, when set, is the whole notice behind Notice (a
	// progress file kept aside: what was left out, what was carried over,
	// where the original is; one part a line). Home and the quiz menu
	// keep it on screen, in a box below the page, until the learner
	// dismisses it with x.
	NoticeDetail string
	// Theme is the colour theme ("" is styles.ThemeAuto); NO_COLOR still
	// drops every colour.
	Theme styles.Theme
	// Walkthroughs are the classroom walkthroughs (`--content DIR` may
	// add some); nil is the built-in ones, loaded when first needed.
	Walkthroughs *walkthrough.Set
	// WalkthroughID, when set, opens the app presenting this walkthrough
	// (with Home and the walkthrough list behind it); Presenter opens the
	// presenter view instead of the audience view. An unknown id opens
	// the list with an error in the status line.
	WalkthroughID string
	Presenter     bool
	// Room, in a student's SSH session of `errorlab classroom`, is their
	// class: the teacher's moves (common.RoomMsg) open the question,
	// scenario or walkthrough step on this screen, and the screen the
	// student is on is reported to the teacher.
	Room common.Room
	// Teacher opens the teacher's dashboard of a class instead of Home.
	Teacher *TeacherStart
	// Serve, when set, opens the watch screen on a server `errorlab serve
	// --watch` is running (with Home behind it).
	Serve *ServeStart
	// Confined makes the session one that may touch nothing on the host
	// but ExportDir (common.Common.Confine): no Check a server, no Serve,
	// no walkthrough link, w only into ExportDir. `errorlab classroom`
	// sets it on every session, a student's and the teacher's over SSH;
	// Room set implies it.
	Confined bool
	// NoSignalHandler leaves SIGINT and SIGTERM to the caller: `errorlab
	// serve --watch` stops its server on them and the watch screen then
	// ends the program (Bubble Tea v1.3.10's own handler can hang when the
	// program ends another way as a signal arrives).
	NoSignalHandler bool
}

// TeacherStart opens the app on a class's dashboard: the room and where
// the export goes, and whether this is the server's own terminal.
type TeacherStart struct {
	Hub  *room.Hub
	Opts classpage.DashboardOptions
}

// ServeStart is the server the watch screen opens on (servepage.Start).
type ServeStart = servepage.Start

// QuizStart opens the app directly in a quiz session (`errorlab quiz`):
// mode, topic, count, exam minutes, seed and pass line.
type QuizStart = quizpage.Start

// Run starts the app full screen (alternate screen) and returns when the
// user quits. The error is Bubble Tea's (no terminal, a failed render).
func Run(opts Options) error {
	popts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithFPS(120)}
	if opts.NoSignalHandler {
		popts = append(popts, tea.WithoutSignalHandler())
	}
	m, err := tea.NewProgram(New(opts), popts...).Run()
	if a, ok := m.(*App); ok {
		a.Close()
	}
	return err
}

// Close releases what the screens on the stack hold (common.Closer): a
// walkthrough's link, say, so the views linked to it hear at once that
// it has gone. Run calls it when the program ends.
func (a *App) Close() {
	for i := len(a.stack) - 1; i >= 0; i-- {
		if cl, ok := a.stack[i].(common.Closer); ok {
			cl.Close()
		}
	}
}

// New builds the root model. It never fails: problems (an unknown
// ScenarioID, an empty catalogue) are shown in the app.
func New(opts Options) tea.Model {
	r := opts.Renderer
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	// Ask the terminal for its background now, before Bubble Tea reads
	// the input; adaptive colours need it.
	_ = r.HasDarkBackground()
	cat := opts.Catalog
	if cat == nil {
		cat = &scenarios.Catalog{}
	}
	prog := opts.Progress
	if prog == nil {
		prog = NewMemoryProgress()
	}
	// The store's notice at start is the one opts.Notice reports (or
	// chose not to); only a later one shows while running.
	c := common.New(r, cat, prog)
	if opts.Theme != "" && opts.Theme != styles.ThemeAuto {
		c.Styles = styles.New(r, opts.Theme)
	}
	c.Bank, c.ExportDir, c.Clipboard = opts.Bank, opts.ExportDir, opts.Clipboard
	c.Walkthroughs = opts.Walkthroughs
	c.Room = opts.Room
	if opts.Confined || opts.Room != nil {
		c.Confine(opts.ExportDir)
	}
	switch {
	case opts.NoticeDetail != "":
		// The status line says where to read it (App.noticeHint); Home
		// and the quiz menu show it whole.
		c.PinNotice(opts.NoticeDetail)
	case opts.Notice != "":
		c.SetStatus(common.StatusWarn, "%s", strings.TrimPrefix(opts.Notice, "⚠ "))
	}
	h := help.New()
	h.Styles = c.Styles.Help
	a := &App{c: c, help: h}
	a.stack = []common.Screen{home.New(c)}
	switch {
	case opts.Teacher != nil:
		a.stack = []common.Screen{classpage.NewDashboard(c, opts.Teacher.Hub, opts.Teacher.Opts)}
	case opts.Serve != nil:
		a.stack = append(a.stack, servepage.New(c, opts.Serve))
	case opts.Quiz != nil:
		a.stack = append(a.stack, quizpage.NewMenu(c, opts.Quiz))
	case opts.WalkthroughID != "":
		a.stack = append(a.stack, wtpage.NewList(c))
		if s := a.presenting(opts.WalkthroughID, opts.Presenter); s != nil {
			a.stack = append(a.stack, s)
		}
	case opts.ScenarioID != "":
		a.stack = append(a.stack, lablist.New(c))
		if sc, ok := cat.Get(opts.ScenarioID); ok {
			a.stack = append(a.stack, scenario.New(c, sc))
		} else {
			c.SetStatus(common.StatusError, "%s", common.UnknownScenario(cat, opts.ScenarioID))
		}
	}
	return a
}

// presenting builds the presenting screen of walkthrough id, or says in
// the status line why there is none (nil).
func (a *App) presenting(id string, presenter bool) common.Screen {
	set, err := a.c.WalkthroughSet()
	if err != nil {
		a.c.SetStatus(common.StatusError, "the walkthroughs did not load: %v", err)
		return nil
	}
	w, ok := set.Get(id)
	if !ok {
		a.c.SetStatus(common.StatusError, "no walkthrough %q (closest: %s)", id, strings.Join(set.Closest(id, 3), ", "))
		return nil
	}
	return wtpage.New(a.c, w, presenter)
}

// App is the root model: a stack of screens (home at the bottom), the
// header, the status line and the help bar.
type App struct {
	c     *common.Common
	stack []common.Screen
	help  help.Model
	// smallQuitAsked: q was pressed below the minimum size on a screen that
	// guards quitting; the size message warns, and q again quits.
	smallQuitAsked bool

	helpView string
	helpH    int
	bodyW    int
	bodyH    int
	// noticeView is the pinned notice's box below the page ("" when it
	// does not show), built by layout.
	noticeView string
	// noticeHint is the status line's word on a pinned notice that does
	// not show on this screen: what it is about and where to read it
	// ("" when none waits or it shows), built by layout.
	noticeHint string

	// In a class: the last room item acted on, the screen the room opened
	// last (the next move replaces it), and where the student was last
	// reported to be.
	roomItem   common.RoomItem
	roomScreen common.Screen
	lastWhere  string
}

func (a *App) top() common.Screen { return a.stack[len(a.stack)-1] }

// Init implements tea.Model.
func (a *App) Init() tea.Cmd {
	switch s := a.top().(type) {
	case *quizpage.Menu:
		return s.Activate() // `errorlab quiz`: build the pool, then start
	case *wtpage.Model:
		return s.Activate() // `errorlab walkthrough NAME`: load the step, link
	case *classpage.Dashboard:
		return s.Activate() // the teacher's dashboard: hear the room
	case *servepage.Model:
		return s.Activate() // `errorlab serve --watch`: watch the server
	}
	if a.c.Room != nil {
		a.reportWhere()
		// A student joining (or coming back) goes where the room is.
		if it, ok := a.c.Room.Current(); ok {
			return common.Send(common.RoomMsg{Item: it})
		}
	}
	return nil
}

// Update implements tea.Model: global keys first, navigation messages,
// then everything else goes to the active screen.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.c.Width, a.c.Height = max(msg.Width, 0), max(msg.Height, 0)
		a.layout(true)
		return a, nil
	case tea.MouseMsg:
		cmd = a.mouse(msg)
	case tea.KeyMsg:
		// Keys that arrived together are taken one at a time, on every
		// screen.
		cmd = common.EachKey(msg, a.key)
	case common.OpenLabMsg:
		cmd = a.push(lablist.New(a.c))
	case common.OpenQuizMsg:
		cmd = a.push(quizpage.NewMenu(a.c, nil))
	case common.OpenWalkthroughsMsg:
		cmd = a.push(wtpage.NewList(a.c))
	case common.OpenCheckMsg:
		cmd = a.push(checkpage.New(a.c))
	case common.OpenFindingsMsg:
		cmd = a.push(checkpage.NewResult(a.c, msg.Title, check.Item{Request: msg.Request, Response: msg.Response, Tools: msg.Tools, Spec: msg.Spec, Truth: msg.Truth}))
	case common.OpenServeMsg:
		cmd = a.push(servepage.NewHome(a.c))
	case common.OpenWalkthroughMsg:
		if s := a.presenting(msg.ID, msg.Presenter); s != nil {
			cmd = a.push(s)
		}
	case common.NavMsg:
		cmd = a.nav(msg)
	case common.OpenReferenceMsg:
		cmd = a.push(reference.New(a.c, msg.Section))
	case common.OpenScenarioMsg:
		sc, ok := a.c.Catalog.Get(msg.ID)
		if !ok {
			a.c.SetStatus(common.StatusError, "%s", common.UnknownScenario(a.c.Catalog, msg.ID))
			break
		}
		cmd = a.push(scenario.New(a.c, sc))
	case common.OpenAgentPickerMsg:
		cmd = a.push(lablist.NewAgentPicker(a.c))
	case common.OpenAgentsMsg:
		cmd = a.push(agents.New(a.c, msg.ID, msg.FromScenario, msg.Rev))
	case common.OpenExerciseMsg:
		sc, ok := a.c.Catalog.Get(msg.ID)
		if !ok {
			a.c.SetStatus(common.StatusError, "%s", common.UnknownScenario(a.c.Catalog, msg.ID))
			break
		}
		cmd = a.push(propagation.New(a.c, sc))
	case common.ReplaceScenarioMsg:
		sc, ok := a.c.Catalog.Get(msg.ID)
		if !ok {
			a.c.SetStatus(common.StatusError, "%s", common.UnknownScenario(a.c.Catalog, msg.ID))
			break
		}
		wasRoom := a.top() == a.roomScreen
		a.dropTop()
		cmd = a.push(scenario.New(a.c, sc))
		if wasRoom {
			a.roomScreen = a.top() // n from the room's scenario: the next move replaces this one
		}
	case common.PanicMsg:
		a.c.SetStatus(common.StatusError, "%s", msg.What)
		cmd = a.route(msg) // the screen may be waiting for an answer
	case common.RoomMsg:
		cmd = a.onRoom(msg.Item)
	case clipDoneMsg:
		a.c.PutStatus(msg.status())
	case exportDoneMsg:
		a.c.PutStatus(msg.status())
	default:
		cmd = a.route(msg)
	}
	a.layout(false)
	if a.c.TakeAnnounce() && a.noticeHint != "" {
		// A notice that came with this write goes ahead of what the
		// status says; on Home or the quiz menu the box shows it.
		text := a.noticeHint
		if st := a.c.Status().Text; st != "" {
			text += " · " + st
		}
		a.c.SetStatus(common.StatusWarn, "%s", text)
	}
	a.reportWhere()
	return a, cmd
}

// fullScreen reports whether the top screen takes the whole terminal
// now (common.FullScreener): no header, status line or help bar.
func (a *App) fullScreen() bool {
	fs, ok := a.top().(common.FullScreener)
	return ok && fs.FullScreen()
}

func (a *App) tooSmall() bool { return a.c.Width < common.MinWidth || a.c.Height < common.MinHeight }

func (a *App) key(k tea.KeyMsg) tea.Cmd {
	g := a.c.Keys
	top := a.top()
	if key.Matches(k, g.Force) {
		// ctrl+c on a screen that guards quitting (a running exam) asks
		// once, as q does; ctrl+c again while it asks quits.
		if qg, ok := top.(common.QuitGuard); ok && !a.tooSmall() {
			if ic, capturing := top.(common.InputCapturer); !capturing || !ic.Capturing() {
				if qg.GuardQuit() {
					a.c.ClearStatus()
					a.help.ShowAll = false
					return nil
				}
			}
		}
		return tea.Quit
	}
	if a.tooSmall() {
		// Below the minimum size nothing but "q quits" is visible, and no
		// key but q acts on the screen the learner cannot see, even one
		// whose input takes every key. On a screen that guards quitting (a
		// running exam) the first q only warns, on the size message, and a
		// second q quits.
		if !key.Matches(k, g.Quit) {
			return nil
		}
		if qg, ok := top.(common.QuitGuard); ok && !a.smallQuitAsked && qg.GuardQuit() {
			a.smallQuitAsked = true
			return nil
		}
		return tea.Quit
	}
	a.smallQuitAsked = false
	if ic, ok := top.(common.InputCapturer); ok && ic.Capturing() {
		return a.route(k)
	}
	if key.Matches(k, g.Quit) {
		if qg, ok := top.(common.QuitGuard); ok && qg.GuardQuit() {
			a.c.ClearStatus()
			a.help.ShowAll = false
			return nil
		}
		return tea.Quit
	}
	a.c.ClearStatus()
	switch {
	case key.Matches(k, g.Dismiss) && a.noticeShown():
		a.c.DismissNotice()
		a.layout(true)
		return nil
	case key.Matches(k, g.Help):
		a.help.ShowAll = !a.help.ShowAll
		return nil
	case key.Matches(k, g.Back) && a.help.ShowAll:
		a.help.ShowAll = false // esc closes the full help first
		return nil
	case key.Matches(k, g.Back):
		if bh, ok := top.(common.BackHandler); ok && bh.Back() {
			return nil
		}
		return a.pop()
	case key.Matches(k, g.Copy):
		return a.copy()
	case key.Matches(k, g.Write):
		return a.write()
	}
	return a.route(k)
}

func (a *App) route(msg tea.Msg) tea.Cmd {
	m, cmd := a.top().Update(msg)
	if s, ok := m.(common.Screen); ok {
		a.stack[len(a.stack)-1] = s
	}
	return cmd
}

func (a *App) push(s common.Screen) tea.Cmd {
	if k, ok := s.(common.StackKeyed); ok && k.StackKey() != "" {
		// Already open further down: go back there, the new screen in
		// its place, so the history never holds two of it.
		for i := len(a.stack) - 1; i >= 1; i-- {
			if o, ok := a.stack[i].(common.StackKeyed); ok && o.StackKey() == k.StackKey() {
				for len(a.stack) > i {
					a.dropTop()
				}
				break
			}
		}
	}
	a.stack = append(a.stack, s)
	a.help.ShowAll = false
	a.layout(true)
	if ac, ok := s.(common.Activator); ok {
		return ac.Activate()
	}
	return nil
}

func (a *App) dropTop() {
	if len(a.stack) <= 1 {
		return
	}
	if cl, ok := a.top().(common.Closer); ok {
		cl.Close()
	}
	a.stack = a.stack[:len(a.stack)-1]
}

func (a *App) pop() tea.Cmd {
	if len(a.stack) <= 1 {
		a.c.SetStatus(common.StatusInfo, "this is the home screen: q quits")
		return nil
	}
	a.dropTop()
	a.help.ShowAll = false
	a.layout(true)
	if ac, ok := a.top().(common.Activator); ok {
		return ac.Activate()
	}
	return nil
}

// nav is the root's handling of common.NavMsg: a page moving between
// its own screens.
func (a *App) nav(m common.NavMsg) tea.Cmd {
	if m.Pop {
		return a.pop()
	}
	if m.Replace {
		a.dropTop()
	}
	if m.Push == nil {
		return nil
	}
	return a.push(m.Push)
}

// layout recomputes the help bar and gives the active screen the space
// left between the header and the status line. force resizes the common.Screen
// even if its area did not change.
func (a *App) layout(force bool) {
	w, h := a.c.Width, a.c.Height
	a.c.Below = ""
	if n := len(a.stack); n > 1 {
		a.c.Below = a.stack[n-2].Crumb()
	}
	a.helpView = ""
	if !a.fullScreen() { // a full-screen page draws its own help
		a.helpView = a.renderHelp(w)
	}
	a.helpH = lipgloss.Height(a.helpView)
	if a.helpView == "" {
		a.helpH = 0
	}
	bw, bh := w, max(h-2-a.helpH, 0)
	a.noticeView, a.noticeHint = "", a.hint()
	if a.noticeShown() && !a.tooSmall() {
		// Two thirds of the page at most: the screen stays usable
		// beside it.
		a.noticeView = a.noticeBox(w, max(bh*2/3, 6))
		bh = max(bh-lipgloss.Height(a.noticeView), 0)
	}
	if a.fullScreen() {
		bw, bh = w, h
	}
	if a.tooSmall() {
		// Screens keep a usable size while the message shows.
		bw, bh = max(w, common.MinWidth), max(bh, common.MinHeight-4)
	}
	if force || bw != a.bodyW || bh != a.bodyH {
		a.bodyW, a.bodyH = bw, bh
		a.top().SetSize(bw, bh)
	}
}

// View implements tea.Model. It only assembles cached pieces; no exchange,
// file or JSON work happens here.
func (a *App) View() string {
	w, h := a.c.Width, a.c.Height
	if w <= 0 || h <= 0 {
		return ""
	}
	if a.tooSmall() {
		return tooSmallView(w, h, a.smallQuitAsked)
	}
	if a.fullScreen() {
		return clampFrame(fitBlock(a.top().View(), w, h), w, h)
	}
	body := fitBlock(a.top().View(), a.bodyW, a.bodyH)
	status := a.c.StatusLine()
	if status == "" && a.noticeHint != "" {
		// Until it is read, the notice is not forgotten at the next key.
		status = a.c.Styles.Warn.Render(common.StatusWarn.Symbol() + " " + a.noticeHint)
	}
	status = ansi.Truncate(status, w, "…")
	parts := []string{a.header(w), body}
	if a.noticeView != "" {
		parts = append(parts, a.noticeView)
	}
	parts = append(parts, status)
	if a.helpView != "" {
		parts = append(parts, a.helpView)
	}
	return clampFrame(strings.Join(parts, "\n"), w, h)
}

// header is the breadcrumb on the left and progress on the right.
func (a *App) header(w int) string {
	st := a.c.Styles
	crumbs := make([]string, 0, len(a.stack))
	for _, s := range a.stack[1:] {
		crumbs = append(crumbs, s.Crumb())
	}
	left := st.HeaderBrand.Render("errorlab")
	if len(crumbs) > 0 {
		left += st.Muted.Render(" › ") + st.Crumb.Render(strings.Join(crumbs, " › "))
	}
	right := ""
	if len(a.c.Catalog.Scenarios) > 0 {
		right = st.HeaderRight.Render(a.c.MarkText())
	}
	return common.JoinEnds(left, right, w)
}

// tooSmallView centres the size message: what is wrong, the sizes on a
// line of their own, and "q quits" last. Every line wraps at spaces, so
// no word is cut; when the full message does not fit the height it gives
// way to shorter wordings (the blank line, then the sizes, then terser
// text) before anything is dropped, and "q quits" always stays last.
func tooSmallView(w, h int, asked bool) string {
	sizes := fmt.Sprintf("need at least %dx%d, have %dx%d", common.MinWidth, common.MinHeight, w, h)
	type tier struct {
		msgs  []string // "" is a blank line
		quits string
	}
	var tiers []tier
	if asked {
		const wip, quits = "this screen has work in progress: enlarge the terminal to keep it", "q again quits and loses it"
		tiers = []tier{
			{[]string{"terminal too small", sizes, wip, ""}, quits},
			{[]string{"terminal too small", sizes, wip}, quits},
			{[]string{"terminal too small", wip}, quits},
			{[]string{"terminal too small", "work in progress: enlarge to keep it"}, quits},
			{[]string{"too small", "unsaved work"}, "q again quits"},
		}
	} else {
		tiers = []tier{
			{[]string{"terminal too small", sizes, ""}, "q quits"},
			{[]string{"terminal too small", sizes}, "q quits"},
			{[]string{"terminal too small"}, "q quits"},
			{[]string{"too small"}, "q quits"},
		}
	}
	tw := max(w, 1)
	var lines, quits []string
	for _, t := range tiers {
		lines = lines[:0]
		for _, m := range t.msgs {
			if m == "" {
				lines = append(lines, "")
				continue
			}
			lines = append(lines, common.WrapWords(m, tw)...)
		}
		quits = common.WrapWords(t.quits, tw)
		if len(lines)+len(quits) <= h {
			break
		}
	}
	if len(quits) > h {
		// Not even the quit line fits whole: one row of it.
		quits = []string{ansi.Truncate(strings.Join(quits, " "), tw, "")}
	}
	keep := min(len(lines), max(h-len(quits), 0))
	lines = append(lines[:keep:keep], quits...)
	for i, l := range lines {
		// Each line centred on its own, also when the longest fills w.
		lines[i] = lipgloss.PlaceHorizontal(w, lipgloss.Center, l)
	}
	return clampFrame(lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n")), w, h)
}

// fitBlock pads or cuts s to exactly h lines, each at most w cells.
func fitBlock(s string, w, h int) string {
	return strings.Join(common.FitLines(strings.Split(s, "\n"), w, h), "\n")
}

// clampFrame is the last guard: no line wider than w, no more than h lines.
func clampFrame(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

// Progress is where the learner's progress goes (common.Progress).
type Progress = common.Progress

// NewMemoryProgress returns a Progress kept in memory, safe for concurrent
// use.
func NewMemoryProgress() Progress { return common.NewMemoryProgress() }

// mouse hands a mouse event to the active screen with its coordinates
// made relative to the screen's area (below the one-line header): the
// wheel scrolls the pane under the pointer and a click focuses a pane.
// Events on the header, the status line or the help bar are dropped.
func (a *App) mouse(m tea.MouseMsg) tea.Cmd {
	if a.tooSmall() {
		return nil
	}
	if a.fullScreen() {
		return a.route(m)
	}
	m.Y--
	if m.Y < 0 || m.Y >= a.bodyH {
		return nil
	}
	return a.route(m)
}

// Top is the screen on top of the stack, the one the learner sees.
func (a *App) Top() common.Screen { return a.top() }

// Status is the status line's current message.
func (a *App) Status() common.Status { return a.c.Status() }
