// Package serve is the watch screen of `errorlab serve --http ADDR
// --watch` and Home → Serve: while real MCP clients call the mock server,
// every exchange appears as it arrives (the list, and the selected one's
// request and response side by side as the lab shows them) with the
// client's report card beside it, live: each failure served, the move the
// client made next and the verdict of the lesson rules.
//
// The same screen replays an exchange log (`errorlab lab --replay FILE`,
// or r here): a server read back from the log (serve.ReadLog), whose
// sessions and cards were scored by the same code as a live one.
package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/serve"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/jsonview"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/styles"
)

// HomeAddr is where Home → Serve listens; when it is taken, any free
// loopback port is used instead.
const HomeAddr = "127.0.0.1:8765"

// Start is a server `errorlab serve --watch` is already running: the
// screen watches it, and Stopped closing (a signal) ends the program. A
// server read from a log (serve.ReadLog) is shown as a replay.
type Start struct {
	Server  *serve.Server
	Stopped <-chan struct{}
}

// KeyMap is the screen's own keys.
type KeyMap struct {
	Next, Prev, Older, Newer, Follow, Tab, Check, Replay key.Binding
}

// DefaultKeyMap returns ] and [ for the next and previous client, ← and →
// for the exchange before and after, f to follow the newest exchange, tab
// for the next pane, c for what errorlab check finds in the selected
// response, r to replay an exchange log.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Check:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check response")),
		Replay: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "replay a log…")),
		Next:   key.NewBinding(key.WithKeys("]"), key.WithHelp("[ ]", "client")),
		Prev:   key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous client")),
		Older:  key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", "exchange")),
		Newer:  key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→", "next exchange")),
		Follow: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow newest")),
		Tab:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "pane")),
	}
}

// wideMin is the narrowest body that shows the exchange list as a column;
// below it one line names the selected exchange and ←/→ move it.
const wideMin = 100

func (m *Model) wide() bool { return m.w >= wideMin }

// Panes of the screen, in tab order.
const (
	paneList = iota
	paneRequest
	paneResponse
	paneCard
	paneCount
)

type changedMsg struct{ owner *Model }
type tickMsg struct{ owner *Model }
type stoppedMsg struct{ owner *Model }
type startedMsg struct {
	owner *Model
	err   error
}
type loadedMsg struct {
	owner *Model
	srv   *serve.Server
	err   error
}

// Model is the watch screen (a common.Screen).
type Model struct {
	KeyMap KeyMap

	c       *common.Common
	srv     *serve.Server
	stopped <-chan struct{}
	// own is set when the screen started the server itself (Home →
	// Serve): leaving the screen stops it.
	own     bool
	cancel  context.CancelFunc
	served  chan error
	note    string // how the server came to listen where it does
	failure error  // the server could not start
	// replay is set when srv was read from an exchange log; replayInfo
	// is its line above the panes.
	replay     bool
	replayInfo string
	// asking is set while the "replay a log" prompt takes the keys;
	// loading names the log being read.
	asking  bool
	input   textinput.Model
	loading string
	loadErr error // why the last log asked for could not be replayed

	snap     serve.Snapshot
	client   int  // index into snap.Sessions
	sel      int  // index into the client's exchanges
	follow   bool // the selection follows the newest exchange
	focus    int
	panes    [paneCount]*pane.Model
	lastSeq  int    // the exchange the request and response panes show
	cardSeq  int    // the exchange whose card entry the card pane last scrolled to
	cardOf   string // the session whose card the card pane shows
	w, h     int
	infoRows int
}

// New watches a server `errorlab serve --watch` runs.
func New(c *common.Common, st *Start) *Model {
	m := newModel(c)
	m.srv, m.stopped = st.Server, st.Stopped
	if name := st.Server.Replayed(); name != "" {
		// A replay starts at its first client's first exchange.
		m.replay, m.follow = true, false
		m.replayInfo = replayLine(st.Server, name)
	}
	m.refresh()
	return m
}

// replayLine says what a replay is: the log, what was served, and when.
func replayLine(srv *serve.Server, name string) string {
	r := srv.Report()
	line := "replay of " + name
	if sc := srv.Config().Scenario; sc != nil {
		line += fmt.Sprintf(" · scenario %s: %s", sc.ID, sc.Title)
	}
	if r.Style != "" && r.Style != mockserver.StyleGood {
		line += " · style " + string(r.Style)
	}
	from, to := r.Started, r.Ended // as the log wrote them
	span := from.Format("2006-01-02 15:04:05") + " → " + to.Format("15:04:05")
	if to.Format(time.DateOnly) != from.Format(time.DateOnly) {
		span = from.Format("2006-01-02 15:04") + " → " + to.Format("2006-01-02 15:04")
	}
	return line + " · " + span
}

// NewHome is Home → Serve: the screen starts a server of its own on
// Activate (HTTP on HomeAddr, failures on demand through failure_mode)
// and stops it when left.
func NewHome(c *common.Common) *Model {
	m := newModel(c)
	m.own = true
	return m
}

func newModel(c *common.Common) *Model {
	m := &Model{KeyMap: DefaultKeyMap(), c: c, follow: true, lastSeq: -1, cardSeq: -1}
	m.input = textinput.New()
	m.input.Prompt = "› "
	m.input.Placeholder = "exchanges.jsonl (written by errorlab serve --log)"
	m.input.CharLimit = 4096
	_ = m.input.Cursor.SetMode(cursor.CursorStatic) // no blink ticks, as in the lab list
	for i := range m.panes {
		m.panes[i] = pane.New(c)
	}
	m.panes[paneList].SetFocused(true)
	return m
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Activate starts (Home → Serve) or joins the server and listens for its
// changes.
func (m *Model) Activate() tea.Cmd {
	if m.srv == nil && m.own && m.failure == nil {
		if err := m.c.Allowed(common.OpenPort); err != nil {
			m.failure = err
			m.refresh()
			return nil
		}
		return m.start
	}
	if m.replay {
		m.refresh() // a log does not change
		return nil
	}
	m.refresh()
	return tea.Batch(m.waitChange(), m.tick(), m.waitStopped())
}

// start listens on HomeAddr (or a free port) and serves until Close.
func (m *Model) start() tea.Msg {
	ln, err := serve.Listen(HomeAddr, false)
	note := ""
	if err != nil {
		ln, err = serve.Listen("127.0.0.1:0", false)
		note = HomeAddr + " was taken, so another port was chosen"
	}
	if err != nil {
		return startedMsg{owner: m, err: err}
	}
	srv := serve.New(serve.Config{FailureModes: true, Diagnostics: io.Discard})
	ctx, cancel := context.WithCancel(context.Background())
	m.srv, m.cancel, m.note, m.served = srv, cancel, note, make(chan error, 1)
	go func() { m.served <- srv.ServeHTTP(ctx, ln, false) }()
	return startedMsg{owner: m}
}

// Close stops a server the screen started.
func (m *Model) Close() {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
		select {
		case <-m.served:
		case <-time.After(2 * time.Second):
		}
	}
}

func (m *Model) waitChange() tea.Cmd {
	if m.srv == nil {
		return nil
	}
	ch := m.srv.Changed()
	return func() tea.Msg {
		<-ch
		time.Sleep(50 * time.Millisecond) // let a burst land in one redraw
		return changedMsg{owner: m}
	}
}

func (m *Model) tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{owner: m} })
}

func (m *Model) waitStopped() tea.Cmd {
	if m.stopped == nil {
		return nil
	}
	ch := m.stopped
	return func() tea.Msg { <-ch; return stoppedMsg{owner: m} }
}

// Crumb implements common.Screen.
func (m *Model) Crumb() string {
	if m.replay {
		return "Replay"
	}
	return "Serve"
}

// Capturing implements common.InputCapturer: the "replay a log" prompt
// takes every key while it is open.
func (m *Model) Capturing() bool { return m.asking }

// SetSize implements common.Screen.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.layout()
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding {
	if m.asking {
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open the log")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		}
	}
	if m.replay {
		return []key.Binding{m.KeyMap.Tab, m.KeyMap.Older, m.KeyMap.Next, m.KeyMap.Check, m.KeyMap.Replay}
	}
	return []key.Binding{m.KeyMap.Tab, m.KeyMap.Older, m.KeyMap.Next, m.KeyMap.Follow, m.KeyMap.Check, m.KeyMap.Replay}
}

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding {
	if m.asking {
		return [][]key.Binding{m.ShortHelp()}
	}
	return [][]key.Binding{
		{m.KeyMap.Tab, m.KeyMap.Older, m.KeyMap.Newer, m.KeyMap.Next, m.KeyMap.Prev, m.KeyMap.Follow, m.KeyMap.Check, m.KeyMap.Replay},
		{m.c.Nav.Up, m.c.Nav.Down, m.c.Nav.PageUp, m.c.Nav.PageDown, m.c.Nav.Top, m.c.Nav.Bottom},
	}
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case startedMsg:
		if msg.owner != m {
			return m, nil
		}
		if msg.err != nil {
			m.failure = msg.err
			m.c.SetStatus(common.StatusError, "the server could not start: %v", msg.err)
			m.layout()
			return m, nil
		}
		m.refresh()
		return m, tea.Batch(m.waitChange(), m.tick())
	case changedMsg:
		if msg.owner != m {
			return m, nil
		}
		m.refresh()
		return m, m.waitChange()
	case tickMsg:
		if msg.owner != m {
			return m, nil
		}
		m.refresh()
		return m, m.tick()
	case stoppedMsg:
		if msg.owner == m {
			return m, tea.Quit
		}
	case loadedMsg:
		if msg.owner == m {
			return m, m.loaded(msg)
		}
	case tea.KeyMsg:
		if m.asking {
			return m, m.prompt(msg)
		}
		return m, m.key(msg)
	case tea.MouseMsg:
		m.mouse(msg)
	}
	return m, nil
}

func (m *Model) key(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.KeyMap.Check):
		return m.check()
	case key.Matches(k, m.KeyMap.Replay):
		if m.loading != "" {
			m.c.SetStatus(common.StatusInfo, "still reading %s…", m.loading)
			return nil
		}
		m.asking = true
		m.layout()
		m.input.Focus()
		return nil
	case key.Matches(k, m.KeyMap.Tab):
		next := (m.focus + 1) % paneCount
		if next == paneList && !m.wide() {
			next = paneRequest // no list column on a narrow screen
		}
		m.setFocus(next)
	case key.Matches(k, m.KeyMap.Older):
		m.moveSelection(-1)
	case key.Matches(k, m.KeyMap.Newer):
		m.moveSelection(1)
	case key.Matches(k, m.KeyMap.Next):
		m.pickClient(m.client + 1)
	case key.Matches(k, m.KeyMap.Prev):
		m.pickClient(m.client - 1)
	case key.Matches(k, m.KeyMap.Follow) && m.replay:
		m.c.SetStatus(common.StatusInfo, "a replay does not change: ←/→ and [ ] move through it")
	case key.Matches(k, m.KeyMap.Follow):
		m.follow = !m.follow
		if m.follow {
			m.c.SetStatus(common.StatusInfo, "following the newest exchange")
		} else {
			m.c.SetStatus(common.StatusInfo, "the selection stays where it is")
		}
		m.refresh()
	case m.focus == paneList:
		n := len(m.exchanges())
		nav := m.c.Nav
		page := max(m.panes[paneList].Height()-3, 1)
		switch {
		case key.Matches(k, nav.Up):
			m.moveSelection(-1)
		case key.Matches(k, nav.Down):
			m.moveSelection(1)
		case key.Matches(k, nav.PageUp):
			m.moveSelection(-page)
		case key.Matches(k, nav.PageDown):
			m.moveSelection(page)
		case key.Matches(k, nav.Top):
			m.moveSelection(-n)
		case key.Matches(k, nav.Bottom):
			m.moveSelection(n)
		}
	default:
		m.panes[m.focus].Scroll(m.c.Nav, k)
	}
	return nil
}

// prompt is a key while the "replay a log" prompt is open: enter reads
// the log (on a command, so a long one does not stop the screen), esc
// closes the prompt.
func (m *Model) prompt(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyEsc:
		m.asking, m.loadErr = false, nil
		m.input.Blur()
		m.layout()
		return nil
	case tea.KeyEnter:
		path := strings.TrimSpace(m.input.Value())
		if path == "" {
			m.c.SetStatus(common.StatusWarn, "type the path of a log written by errorlab serve --log FILE (esc cancels)")
			return nil
		}
		m.asking, m.loading, m.loadErr = false, path, nil
		m.input.Blur()
		m.layout()
		m.c.SetStatus(common.StatusInfo, "reading %s…", path)
		cat := m.c.Catalog
		return common.Safe("reading the log", func() tea.Msg {
			srv, err := common.ReadReplay(path, cat)
			return loadedMsg{owner: m, srv: srv, err: err}
		})
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return cmd
}

// loaded opens the replay of a log just read, over this screen (instead
// of it, when this is a replay too), or says what is wrong with the log
// and opens the prompt again.
func (m *Model) loaded(msg loadedMsg) tea.Cmd {
	path := m.loading
	m.loading = ""
	if msg.err != nil {
		m.c.SetStatus(common.StatusError, "%s", replayProblem(path, msg.err))
		m.asking, m.loadErr = true, msg.err
		m.layout()
		m.input.Focus()
		return nil
	}
	m.input.SetValue("")
	m.c.SetStatus(common.StatusInfo, "%s: %s", path, common.Plural(len(msg.srv.Report().Sessions), "client session"))
	return common.Send(common.NavMsg{Push: New(m.c, &Start{Server: msg.srv}), Replace: m.replay})
}

// replayProblem is the status line's sentence for a log that cannot be
// replayed: the first bad line and how many more there are.
func replayProblem(path string, err error) string {
	var le *serve.LogError
	if errors.As(err, &le) {
		more := ""
		if n := len(le.Problems) - 1; n > 0 {
			more = fmt.Sprintf(" (and %s more)", common.Plural(n, "problem"))
			if le.Stopped {
				more = fmt.Sprintf(" (and %d more problems at least)", n)
			}
		}
		return "cannot replay it: " + le.Problems[0] + more
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("cannot replay %s: no such file", path)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Sprintf("cannot replay %s: %v", path, err)
}

// check asks for the Check screen on the selected exchange's response:
// what `errorlab check` finds in it, graded with the tools the session
// listed.
func (m *Model) check() tea.Cmd {
	exs := m.exchanges()
	if len(exs) == 0 {
		m.c.SetStatus(common.StatusWarn, "no exchange yet: c checks the selected exchange's response")
		return nil
	}
	ex := exs[m.sel]
	if len(ex.Response) == 0 {
		m.c.SetStatus(common.StatusWarn, "#%d has no response to check (a notification, or a request the transport refused)", ex.Seq)
		return nil
	}
	spec := ex.Spec
	if spec == "" {
		spec = rules.DefaultRevision
	}
	what := ex.Method
	if ex.Tool != "" {
		what = ex.Tool
	}
	return common.Send(common.OpenFindingsMsg{Title: fmt.Sprintf("#%d %s · %s", ex.Seq, common.Sanitize(what), spec),
		Spec: spec, Request: ex.Request, Response: ex.Response, Tools: m.tools(exs)})
}

// tools are the tool declarations the session's client was given (its
// last tools/list still kept), else the mock server's own.
func (m *Model) tools(exs []serve.Exchange) []grade.Tool {
	for i := len(exs) - 1; i >= 0; i-- {
		if exs[i].Method != "tools/list" || exs[i].Response == nil {
			continue
		}
		var out struct {
			Result struct {
				Tools []grade.Tool `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal(exs[i].Response, &out) == nil && out.Result.Tools != nil {
			return out.Result.Tools
		}
	}
	var out []grade.Tool
	for _, t := range mockserver.New(mockserver.Options{FailureModes: m.srv.Config().FailureModes}).Tools() {
		out = append(out, grade.Tool{Name: t.Name, InputSchema: t.RawInputSchema, OutputSchema: t.RawOutputSchema})
	}
	return out
}

// mouse: the wheel scrolls the pane under the pointer, a click focuses it.
func (m *Model) mouse(msg tea.MouseMsg) {
	y := msg.Y - m.infoRows
	for i, p := range m.panes {
		top, left := m.paneOrigin(i)
		if !p.Contains(msg.X-left, y-top) {
			continue
		}
		if p.Wheel(msg) {
			return
		}
		if msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft {
			m.setFocus(i)
		}
		return
	}
}

// moveSelection moves the selected exchange by d; the newest one
// follows the stream again.
func (m *Model) moveSelection(d int) {
	n := len(m.exchanges())
	m.sel = max(min(m.sel+d, n-1), 0)
	m.follow = m.sel == n-1 && !m.replay
	m.refresh()
}

func (m *Model) setFocus(i int) {
	m.focus = i
	for j, p := range m.panes {
		p.SetFocused(j == i)
	}
}

func (m *Model) pickClient(i int) {
	n := len(m.snap.Sessions)
	if n == 0 {
		return
	}
	m.client = (i%n + n) % n
	m.follow, m.lastSeq = !m.replay, -1
	if m.replay {
		m.sel = 0 // a replayed client from its first exchange
	}
	m.refresh()
}

func (m *Model) exchanges() []serve.Exchange {
	if m.client >= len(m.snap.Sessions) {
		return nil
	}
	return m.snap.Sessions[m.client].Exchanges
}

// refresh takes a new snapshot and rebuilds what changed.
func (m *Model) refresh() {
	if m.srv == nil {
		m.layout()
		return
	}
	var cur string
	if m.client < len(m.snap.Sessions) {
		cur = m.snap.Sessions[m.client].Card.Session
	}
	before := len(m.snap.Sessions)
	m.snap = m.srv.Snapshot()
	m.client = 0
	if !m.follow || len(m.snap.Sessions) == before {
		// Stay with the client shown; when following, a new client's
		// session (the newest, first) takes the screen.
		for i, s := range m.snap.Sessions {
			if s.Card.Session == cur {
				m.client = i
			}
		}
	}
	exs := m.exchanges()
	if m.follow || m.sel >= len(exs) {
		m.sel = max(len(exs)-1, 0)
	}
	m.layout()
	m.buildList()
	m.buildExchange()
	m.buildCard()
}

// info is the lines above the panes: where the server listens, what it
// serves, and the clients.
func (m *Model) info() []string {
	st := m.c.Styles
	if m.failure != nil {
		return []string{st.Bad.Render("✗ not serving: " + m.failure.Error())}
	}
	if m.srv == nil {
		return []string{st.Muted.Render("starting the server…")}
	}
	var lines []string
	if m.asking {
		m.input.Width = max(m.w-4, 10)
		lines = append(lines, ansi.Truncate(st.Bold.Render("Replay a log")+st.Muted.Render(" written by errorlab serve --log FILE: enter opens it, esc cancels"), m.w, "…"),
			ansi.Truncate(m.input.View(), m.w, ""))
		if m.loadErr != nil {
			// What is wrong with the log, first problems first (the
			// status line has room for one).
			var what []string
			for _, l := range strings.Split(m.loadErr.Error(), "\n") {
				what = append(what, common.WrapLines(st.Bad, strings.TrimSpace(l), m.w)...)
			}
			lines = append(lines, what[:min(len(what), 4)]...)
		}
	}
	if m.replay {
		lines = append(lines, ansi.Truncate(st.Bold.Render("◆ "+common.Sanitize(m.replayInfo)), m.w, "…"))
		return append(lines, m.chips())
	}
	cfg := m.srv.Config()
	addr := m.srv.Listening()
	if addr == "" {
		addr = "starting…"
	}
	spec := "every revision"
	if cfg.Spec != "" {
		spec = "up to " + string(cfg.Spec)
	}
	lines = append(lines, ansi.Truncate(st.OK.Render("● serving ")+st.Bold.Render(addr)+st.Muted.Render(" · "+common.Sanitize(m.srv.Describe())+" · style "+string(cfg.Style)+" · "+spec), m.w, "…"))
	if m.note != "" {
		lines = append(lines, st.Warn.Render("⚠ "+m.note))
	}
	if len(m.snap.Sessions) == 0 {
		hint := "No client yet. Point an MCP client at " + addr + ", e.g. claude mcp add --transport http errorlab " + addr
		return append(lines, common.WrapLines(st.Muted, hint, m.w)...)
	}
	return append(lines, m.chips())
}

// chips is the line of client sessions, the one shown marked.
func (m *Model) chips() string {
	if len(m.snap.Sessions) == 0 {
		return m.c.Styles.Muted.Render("no client session in the log")
	}
	var chips []string
	for i, s := range m.snap.Sessions {
		mark := "  "
		if i == m.client {
			mark = "▸ "
		}
		name := common.Sanitize(s.Card.Client)
		if name == "" {
			name = "unnamed client"
		}
		chips = append(chips, fmt.Sprintf("%s%s · %s %s · %s · ✓%d ◑%d ✗%d · %d wasted", mark, name, s.Card.Transport, s.Card.Spec, common.Plural(s.Card.Calls, "call"), s.Card.Best, s.Card.Acceptable, s.Card.Wrong, s.Card.Wasted))
	}
	return ansi.Truncate(strings.Join(chips, "   "), m.w, "…")
}

// layout sizes the panes: on a wide screen the list on the left, request
// and response side by side on the right, the report card along the
// bottom; on a narrow one a line names the selected exchange instead of
// the list.
func (m *Model) layout() {
	m.infoRows = len(m.info())
	if !m.wide() {
		m.infoRows++ // the selector line
		if m.focus == paneList && m.w > 0 {
			m.setFocus(paneRequest)
		}
	}
	h := max(m.h-m.infoRows, 0)
	cardH := max(h*2/5, 5)
	topH := max(h-cardH, 0)
	listW := 0
	if m.wide() {
		listW = max(m.w/4, 32)
	}
	rest := max(m.w-listW, 0)
	m.panes[paneList].SetSize(listW, topH)
	m.panes[paneRequest].SetSize(rest/2, topH)
	m.panes[paneResponse].SetSize(rest-rest/2, topH)
	m.panes[paneCard].SetSize(m.w, h-topH)
}

// paneOrigin is the top-left cell of pane i below the info lines.
func (m *Model) paneOrigin(i int) (top, left int) {
	lw := m.panes[paneList].Width()
	switch i {
	case paneRequest:
		return 0, lw
	case paneResponse:
		return 0, lw + m.panes[paneRequest].Width()
	case paneCard:
		return m.panes[paneRequest].Height(), 0
	}
	return 0, 0
}

// selector is the narrow screen's line for the selected exchange.
func (m *Model) selector() string {
	st := m.c.Styles
	exs := m.exchanges()
	if len(exs) == 0 {
		return st.Muted.Render("no exchange yet")
	}
	ex := exs[m.sel]
	line := fmt.Sprintf("◂ %d of %d ▸ %s", m.sel+1, len(exs), common.Sanitize(listRow(ex)))
	if m.follow {
		line += st.Muted.Render(" · newest")
	}
	return ansi.Truncate(line, m.w, "…")
}

// buildList fills the exchange list, keeping the selection in view.
func (m *Model) buildList() {
	st := m.c.Styles
	exs := m.exchanges()
	rows := make([]string, len(exs))
	for i, ex := range exs {
		rows[i] = listRow(ex)
	}
	sel := m.sel
	title := common.Plural(len(exs), "exchange")
	if m.follow {
		title += " · newest"
	}
	m.panes[paneList].SetBuild(title, "", func(w int) string {
		if len(rows) == 0 {
			return st.Muted.Render(ansi.Wrap("Exchanges appear here as the client sends them.", w, ""))
		}
		out := make([]string, len(rows))
		for i, r := range rows {
			r = ansi.Truncate(common.Sanitize(r), max(w-2, 1), "…")
			if i == sel {
				out[i] = st.Selected.Render("▸ " + r)
			} else {
				out[i] = "  " + r
			}
		}
		return strings.Join(out, "\n")
	})
	vp := m.panes[paneList].Viewport()
	if sel < vp.YOffset {
		vp.SetYOffset(sel)
	} else if vh := vp.Height; vh > 0 && sel >= vp.YOffset+vh {
		vp.SetYOffset(sel - vh + 1)
	}
}

// listRow is one exchange in a line: number, method or tool, and what
// came back (short).
func listRow(ex serve.Exchange) string {
	what := ex.Method
	if what == "" {
		what = "(not a request)"
	}
	if ex.Tool != "" {
		what = ex.Tool
	}
	return fmt.Sprintf("#%d %s %s", ex.Seq, what, shortOutcome(ex))
}

// shortOutcome is outcome in a word or two, with its symbol.
func shortOutcome(ex serve.Exchange) string {
	o := outcome(ex)
	o = strings.TrimPrefix(o, "✗ isError ")
	o = strings.Replace(o, "✗ protocol ", "✗ ", 1)
	switch {
	case o == "✓ success", o == "ok":
		return "✓"
	case o == "∅ empty result":
		return "∅ empty"
	case o == "(notification)":
		return "·"
	case !strings.HasPrefix(o, "✗") && !strings.HasPrefix(o, "HTTP"):
		return "✗ " + o
	}
	return o
}

// outcome says in a few words what a response was.
func outcome(ex serve.Exchange) string {
	if ex.Response == nil {
		if ex.HTTPStatus >= 400 {
			return fmt.Sprintf("HTTP %d", ex.HTTPStatus)
		}
		return "(notification)"
	}
	if ex.Class == nil {
		if cl, err := rules.Classify(ex.Response); err == nil && cl.Layer == rules.LayerProtocol {
			return fmt.Sprintf("✗ %d", cl.ProtocolCode)
		}
		return "ok"
	}
	cl := ex.Class
	switch cl.Layer {
	case rules.LayerProtocol:
		return fmt.Sprintf("✗ protocol %d", cl.ProtocolCode)
	case rules.LayerExecution:
		if cl.ErrorCategory != "" {
			return "✗ isError " + string(cl.ErrorCategory)
		}
		return "✗ isError"
	}
	if cl.Empty {
		return "∅ empty result"
	}
	return "✓ success"
}

// buildExchange shows the selected exchange's request and response as the
// lab's MCP view shows them.
func (m *Model) buildExchange() {
	st := m.c.Styles
	exs := m.exchanges()
	if len(exs) == 0 {
		m.lastSeq = -1
		wait := func(w int) string { return st.Muted.Render(ansi.Wrap("Waiting for the client.", w, "")) }
		m.panes[paneRequest].SetContent("Request (client → server)", "", wait)
		m.panes[paneResponse].SetContent("Response (server → client)", "", wait)
		return
	}
	ex := exs[m.sel]
	if ex.Seq == m.lastSeq {
		return
	}
	m.lastSeq = ex.Seq
	req, resp := wire.Render(wire.Exchange{Revision: ex.Spec, Request: ex.Request, Response: ex.Response}, wire.ViewMCP)
	setJSON := func(p *pane.Model, title, raw string, body wire.Pane) {
		d := jsonview.Plain(common.Sanitize(body.Body))
		if body.JSON {
			d = jsonview.JSON(body.Body)
		}
		p.SetContent(title, raw, func(w int) string { return d.Render(w, st) })
	}
	setJSON(m.panes[paneRequest], fmt.Sprintf("#%d %s · %s", ex.Seq, req.Title, ex.Spec), string(ex.Request), req)
	if ex.Response == nil {
		note := "No response: a notification."
		if ex.HTTPStatus >= 400 {
			note = fmt.Sprintf("The transport refused the request: HTTP %d.", ex.HTTPStatus)
		}
		m.panes[paneResponse].SetContent(resp.Title, "", func(w int) string { return st.Muted.Render(ansi.Wrap(note, w, "")) })
		return
	}
	setJSON(m.panes[paneResponse], resp.Title+" · "+outcome(ex), string(ex.Response), resp)
}

// buildCard writes the client's report card.
func (m *Model) buildCard() {
	st := m.c.Styles
	if m.client >= len(m.snap.Sessions) {
		m.panes[paneCard].SetContent("Report card", "", func(w int) string {
			return st.Muted.Render(ansi.Wrap("For each failure served, the client's next call shows what it did; the lesson rules score that move here.", w, ""))
		})
		return
	}
	card := m.snap.Sessions[m.client].Card
	title := "Report card · " + orUnnamed(card.Client)
	selSeq := -1
	if exs := m.exchanges(); len(exs) > 0 {
		selSeq = exs[m.sel].Seq
	}
	empty := "No failure served yet. Ask the client to call a tool with failure_mode (timeout, business, permission…), or with data that fails (order ORD-4471x)."
	if m.replay {
		empty = "No failure was served in this session: nothing asked the client for a recovery."
	}
	selLine := -1 // where the selected exchange's entry starts, once built
	set := m.panes[paneCard].SetBuild
	if card.Session != m.cardOf {
		set = m.panes[paneCard].SetContent // another client's card: from its top
		m.cardOf = card.Session
	}
	set(title, "", func(w int) string {
		var lines []string
		lines = append(lines, common.WrapLines(st.Bold, card.Summary(), w)...)
		if len(card.Entries) == 0 {
			lines = append(lines, common.WrapLines(st.Muted, empty, w)...)
		}
		selLine = -1
		for i := len(card.Entries) - 1; i >= 0; i-- { // newest first
			e := card.Entries[i]
			if e.Seq == selSeq {
				selLine = len(lines)
			}
			lines = append(lines, entryLines(st, e, w, e.Seq == selSeq)...)
		}
		return strings.Join(lines, "\n")
	})
	// The selected exchange's failure comes into view when the selection
	// moves to it (and only then: scrolling the card by hand stays).
	if selSeq != m.cardSeq {
		m.cardSeq = selSeq
		if selLine >= 0 {
			vp := m.panes[paneCard].Viewport()
			if selLine < vp.YOffset || selLine >= vp.YOffset+vp.Height-1 {
				vp.SetYOffset(selLine)
			}
		}
	}
}

// entryLines is one failure and the client's move: a line with the
// verdict's symbol (it reads without colour), then why, indented. The
// entry of the selected exchange is marked ▸.
func entryLines(st *styles.Styles, e serve.Entry, w int, selected bool) []string {
	sym, symSt := "…", st.Muted
	verdict := ""
	switch e.Grade {
	case rules.GradeBest:
		sym, symSt, verdict = "✓", st.OK, "best"
	case rules.GradeAcceptable:
		sym, symSt, verdict = "◑", st.Warn, "acceptable; best "+string(e.BestAction)
	case rules.GradeWrong:
		sym, symSt, verdict = "✗", st.Bad, "wrong; best "+string(e.BestAction)
	}
	move := e.Reading
	if e.Pending {
		wait := 0.0
		if e.WaitSeconds != nil {
			wait = *e.WaitSeconds
		}
		move = fmt.Sprintf("no call yet (%.0f s); best %s", wait, e.BestAction)
		if e.CutOff {
			move = fmt.Sprintf("pending (server stopped after %.0f s); best %s", wait, e.BestAction)
		}
	}
	text := fmt.Sprintf("#%d %s: %s → %s", e.Seq, common.Sanitize(e.Tool), e.Served, move)
	if e.Wasted {
		text += " · wasted call"
	}
	if verdict != "" {
		text += " · " + verdict + " · " + e.Rule
	}
	textSt := st.Plain
	if selected {
		sym, textSt = "▸"+sym, st.Selected
	}
	lines := common.HangLead(symSt, sym, text, w, textSt, 2)
	if e.Why != "" && !e.Pending {
		for _, l := range strings.Split(ansi.Wrap(e.Why, max(w-4, 1), ""), "\n") {
			lines = append(lines, "    "+st.Muted.Render(l))
		}
	}
	return lines
}

func orUnnamed(s string) string {
	if s = common.Sanitize(s); s == "" {
		return "an unnamed client"
	}
	return s
}

// View implements tea.Model.
func (m *Model) View() string {
	lines := m.info()
	envelopes := common.JoinColumns(m.panes[paneRequest].View(), m.panes[paneResponse].View())
	if m.wide() {
		lines = append(lines, common.JoinColumns(m.panes[paneList].View(), envelopes))
	} else {
		lines = append(lines, m.selector(), envelopes)
	}
	return strings.Join(append(lines, m.panes[paneCard].View()), "\n")
}

// ClipText implements common.ClipSource: the focused envelope's bytes.
func (m *Model) ClipText() (string, string, bool, string) {
	for _, i := range []int{m.focus, paneResponse} {
		if i == paneRequest || i == paneResponse {
			p := m.panes[i]
			if p.Raw() == "" {
				return "", "", false, "nothing to copy yet: no exchange"
			}
			label := "request"
			if i == paneResponse {
				label = "response"
			}
			return p.Raw(), label + " envelope", true, ""
		}
	}
	return "", "", false, ""
}
