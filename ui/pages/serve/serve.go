// Package serve is the watch screen of `errorlab serve --http ADDR
// --watch` and Home → Serve: while real MCP clients call the mock server,
// every exchange appears as it arrives (the list, and the selected one's
// request and response side by side as the lab shows them) with the
// client's report card beside it, live: each failure served, the move the
// client made next and the verdict of the lesson rules.
package serve

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

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
// screen watches it, and Stopped closing (a signal) ends the program.
type Start struct {
	Server  *serve.Server
	Stopped <-chan struct{}
}

// KeyMap is the screen's own keys.
type KeyMap struct {
	Next, Prev, Older, Newer, Follow, Tab key.Binding
}

// DefaultKeyMap returns ] and [ for the next and previous client, ← and →
// for the exchange before and after, f to follow the newest exchange, tab
// for the next pane.
func DefaultKeyMap() KeyMap {
	return KeyMap{
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

	snap     serve.Snapshot
	client   int  // index into snap.Sessions
	sel      int  // index into the client's exchanges
	follow   bool // the selection follows the newest exchange
	focus    int
	panes    [paneCount]*pane.Model
	lastSeq  int // the exchange the request and response panes show
	w, h     int
	infoRows int
}

// New watches a server `errorlab serve --watch` runs.
func New(c *common.Common, st *Start) *Model {
	m := newModel(c)
	m.srv, m.stopped = st.Server, st.Stopped
	m.refresh()
	return m
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
	m := &Model{KeyMap: DefaultKeyMap(), c: c, follow: true, lastSeq: -1}
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
func (m *Model) Crumb() string { return "Serve" }

// SetSize implements common.Screen.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.layout()
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding {
	return []key.Binding{m.KeyMap.Tab, m.KeyMap.Older, m.KeyMap.Next, m.KeyMap.Follow}
}

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{m.KeyMap.Tab, m.KeyMap.Older, m.KeyMap.Newer, m.KeyMap.Next, m.KeyMap.Prev, m.KeyMap.Follow},
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
	case tea.KeyMsg:
		m.key(msg)
	case tea.MouseMsg:
		m.mouse(msg)
	}
	return m, nil
}

func (m *Model) key(k tea.KeyMsg) {
	switch {
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
	m.follow = m.sel == n-1
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
	m.follow, m.lastSeq = true, -1
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
	cfg := m.srv.Config()
	addr := m.srv.Listening()
	if addr == "" {
		addr = "starting…"
	}
	spec := "every revision"
	if cfg.Spec != "" {
		spec = "up to " + string(cfg.Spec)
	}
	lines := []string{ansi.Truncate(st.OK.Render("● serving ")+st.Bold.Render(addr)+st.Muted.Render(" · "+common.Sanitize(m.srv.Describe())+" · style "+string(cfg.Style)+" · "+spec), m.w, "…")}
	if m.note != "" {
		lines = append(lines, st.Warn.Render("⚠ "+m.note))
	}
	if len(m.snap.Sessions) == 0 {
		hint := "No client yet. Point an MCP client at " + addr + ", e.g. claude mcp add --transport http errorlab " + addr
		return append(lines, common.WrapLines(st.Muted, hint, m.w)...)
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
	line := strings.Join(chips, "   ")
	return append(lines, ansi.Truncate(line, m.w, "…"))
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
	m.panes[paneCard].SetBuild(title, "", func(w int) string {
		var lines []string
		lines = append(lines, common.WrapLines(st.Bold, card.Summary(), w)...)
		if len(card.Entries) == 0 {
			lines = append(lines, common.WrapLines(st.Muted, "No failure served yet. Ask the client to call a tool with failure_mode (timeout, business, permission…), or with data that fails (order ORD-4471x).", w)...)
		}
		for i := len(card.Entries) - 1; i >= 0; i-- { // newest first
			lines = append(lines, entryLines(st, card.Entries[i], w)...)
		}
		return strings.Join(lines, "\n")
	})
}

// entryLines is one failure and the client's move: a line with the
// verdict's symbol (it reads without colour), then why, indented.
func entryLines(st *styles.Styles, e serve.Entry, w int) []string {
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
	}
	text := fmt.Sprintf("#%d %s: %s → %s", e.Seq, common.Sanitize(e.Tool), e.Served, move)
	if e.Wasted {
		text += " · wasted call"
	}
	if verdict != "" {
		text += " · " + verdict + " · " + e.Rule
	}
	lines := common.HangLead(symSt, sym, text, w, st.Plain, 2)
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
