// Package check is the Check a server screen: the learner gives the
// command of a stdio MCP server or the URL of a Streamable HTTP one, the
// probe of `errorlab check --probe` runs against it with a progress bar,
// and the graded responses can be browsed, each response beside its
// findings; enter on a finding opens the Reference at its rule's section.
// The lab's c opens the same results view on the response it shows.
package check

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/check"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/findings"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/keymap"
)

type mode int

const (
	modeInput mode = iota
	modeRunning
	modeResults
)

// The three panes of the results view, in tab order.
const (
	focusList = iota
	focusFindings
	focusResponse
	focusCount
)

// KeyMap is the Check screen's own keys.
type KeyMap struct {
	Run       key.Binding // enter on the input: probe the server
	Spec      key.Binding // tab on the input: the spec revision
	Timeout   key.Binding // ctrl+t on the input: how long each call may take
	Focus     key.Binding // tab on the results: next pane
	Reference key.Binding // enter on the results: read the finding's section
	Again     key.Binding // r: probe the same server again
	Edit      key.Binding // e: back to the input
}

// DefaultKeyMap returns the Check screen's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Run:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "probe it")),
		Spec:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "spec revision")),
		Timeout:   key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "call timeout")),
		Focus:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		Reference: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "read the rule")),
		Again:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "probe again")),
		Edit:      key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "another server")),
	}
}

// Model is the Check a server screen.
type Model struct {
	c    *common.Common
	keys KeyMap
	mode mode
	w, h int

	input textinput.Model
	spec  rules.Revision
	// timeout bounds each tools/call of the probe (one of callTimeouts;
	// `errorlab check --timeout` on the command line).
	timeout time.Duration
	bar     progress.Model
	started time.Time // when the running probe started (its elapsed time is shown)
	done    int
	total   int
	doing   string
	cancel  context.CancelFunc
	ended   chan struct{} // closed when the running probe's Live has returned
	// stopping: esc stopped the running probe; its answers so far are
	// shown once Live returns.
	stopping bool
	gen      int // the run whose messages count
	progCh   chan tea.Msg
	doneCh   chan tea.Msg

	fixed   bool           // opened on one exchange (the lab's c): no input, no rerun
	target  string         // what was probed
	server  string         // the server's name and version, the protocol
	asked   rules.Revision // the revision the probe asked for; spec is the one graded under
	stopped string         // the server stopped answering: what was not called
	skipped []string
	notes   []string
	results []check.Result
	cursor  int // the response shown
	fcursor int // the finding selected
	focus   int
	list    *pane.Model
	found   *pane.Model
	resp    *pane.Model
	err     string
}

// New returns the screen on its input: a command or a URL to probe.
func New(c *common.Common) *Model {
	m := newModel(c)
	ti := textinput.New()
	ti.Placeholder = "npx -y @modelcontextprotocol/server-everything   or   http://127.0.0.1:8765/mcp"
	ti.Prompt = "› "
	ti.CharLimit = 4096
	ti.Focus()
	m.input = ti
	return m
}

// NewResult returns the screen on the findings of one exchange (title
// names it): what `errorlab check` finds in the response.
func NewResult(c *common.Common, title string, it check.Item) *Model {
	m := newModel(c)
	m.fixed, m.mode, m.target = true, modeResults, title
	if it.Source == "" {
		it.Source = title
	}
	if it.Label == "" {
		it.Label = check.Label(it.Request)
	}
	m.spec = it.Spec
	m.results = []check.Result{check.GradeItem(it)}
	m.setFocus(focusFindings)
	m.refresh()
	return m
}

func newModel(c *common.Common) *Model {
	m := &Model{c: c, keys: DefaultKeyMap(), spec: rules.DefaultRevision, timeout: check.DefaultCallTimeout,
		bar:  progress.New(progress.WithDefaultGradient(), progress.WithoutPercentage()),
		list: pane.New(c), found: pane.New(c), resp: pane.New(c)}
	return m
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Crumb implements common.Screen.
func (m *Model) Crumb() string {
	if m.fixed {
		return "Check"
	}
	return "Check a server"
}

// SetSize implements common.Screen.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.input.Width = max(w-6, 10)
	m.bar.Width = max(min(w-8, 60), 10)
	m.layout()
}

// Capturing implements common.InputCapturer: the input takes every key
// (none is shown, and none taken, in a session that may not probe).
func (m *Model) Capturing() bool { return m.mode == modeInput && m.refused() == nil }

// refused is why this session may not probe a server (nil: it may):
// in a class over SSH the probe would run on the class's server.
func (m *Model) refused() error {
	if err := m.c.Allowed(common.RunProgram); err != nil {
		return err
	}
	return m.c.Allowed(common.OpenURL)
}

// closeWait bounds how long Close waits for a stopped probe's server to
// be gone.
const closeWait = 5 * time.Second

// Close implements common.Closer: a probe still running is stopped, and
// Close returns once the server's process group has been killed (or after
// closeWait), so that quitting the app (q, ctrl+c) leaves no server
// behind.
func (m *Model) Close() {
	ended := m.ended
	m.stop()
	if ended != nil {
		select {
		case <-ended:
		case <-time.After(closeWait):
		}
	}
}

// stop cancels a running probe; its server is stopped in the background.
func (m *Model) stop() {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
}

// Back implements common.BackHandler: esc stops a running probe first,
// keeping the calls already answered (shown once the server is stopped);
// a second esc goes back to the input at once.
func (m *Model) Back() bool {
	if m.mode == modeRunning && !m.stopping && m.cancel != nil {
		m.stop()
		m.stopping = true
		m.doing = "stopping the probe and the server; the answers so far will show"
		m.c.SetStatus(common.StatusInfo, "stopping the probe")
		return true
	}
	if m.mode == modeRunning {
		m.stop()
		m.stopping = false
		m.mode = modeInput
		m.input.Focus()
		m.gen++
		m.c.SetStatus(common.StatusInfo, "probe stopped")
		return true
	}
	return false
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding {
	switch m.mode {
	case modeInput:
		if m.refused() != nil {
			return []key.Binding{m.c.Keys.Back}
		}
		return []key.Binding{m.keys.Run, common.Brief(m.keys.Spec, "spec "+string(m.spec)), common.Brief(m.keys.Timeout, "timeout "+seconds(m.timeout)), m.c.Keys.Back}
	case modeRunning:
		return []key.Binding{common.Brief(m.c.Keys.Back, "stop")}
	}
	bs := []key.Binding{m.c.Nav.Up, m.c.Nav.Down, m.keys.Focus, m.referenceKey()}
	if !m.fixed {
		bs = append(bs, m.keys.Again, m.keys.Edit)
	}
	return bs
}

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding {
	if m.mode != modeResults {
		return [][]key.Binding{m.ShortHelp()}
	}
	n := m.c.Nav
	help := [][]key.Binding{{n.Up, n.Down, n.PageUp, n.PageDown}, {m.keys.Focus, m.referenceKey()}}
	if !m.fixed {
		help = append(help, []key.Binding{m.keys.Again, m.keys.Edit})
	}
	return help
}

// referenceKey is enter, named after the selected finding's section.
func (m *Model) referenceKey() key.Binding {
	if f, ok := m.finding(); ok {
		return common.Brief(m.keys.Reference, "read "+f.Section)
	}
	return m.keys.Reference
}

// startingDoing is what a probe is doing until its first progress report.
const startingDoing = "starting the server and the handshake"

// Messages of a running probe; gen ties them to the run that sent them.
type (
	progressMsg struct {
		gen         int
		done, total int
		what        string
	}
	doneMsg struct {
		gen int
		out *check.Outcome
		err error
	}
	// tickMsg redraws the elapsed time while a probe is quiet (a server
	// that is slow to start sends no progress).
	tickMsg struct{ gen int }
)

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return m, m.key(msg)
	case tea.MouseMsg:
		if m.mode == modeResults && msg.Action == tea.MouseActionPress {
			m.mouse(msg)
		}
	case progressMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		m.done, m.total, m.doing = msg.done, msg.total, msg.what
		return m, m.listen()
	case tickMsg:
		if msg.gen != m.gen || m.mode != modeRunning {
			return m, nil
		}
		return m, m.listen()
	case doneMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		m.finish(msg.out, msg.err)
	}
	return m, nil
}

func (m *Model) key(k tea.KeyMsg) tea.Cmd {
	switch m.mode {
	case modeInput:
		switch {
		case k.Type == tea.KeyEsc:
			return common.Send(common.NavMsg{Pop: true})
		case key.Matches(k, m.keys.Run):
			return m.start()
		case key.Matches(k, m.keys.Spec):
			m.spec = common.Next(rules.Revisions, m.spec)
			return nil
		case key.Matches(k, m.keys.Timeout):
			m.timeout = common.Next(callTimeouts, m.timeout)
			return nil
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(k)
		m.err = ""
		return cmd
	case modeRunning:
		return nil
	}
	n := m.c.Nav
	switch {
	case key.Matches(k, m.keys.Focus):
		m.setFocus((m.focus + 1) % focusCount)
	case key.Matches(k, m.c.Keys.Back):
		return nil
	case key.Matches(k, m.keys.Reference):
		if m.focus == focusList {
			m.setFocus(focusFindings)
			return nil
		}
		if f, ok := m.finding(); ok {
			return common.Send(common.OpenReferenceMsg{Section: f.Section})
		}
		m.c.SetStatus(common.StatusInfo, "no finding here: this response follows the rules")
	case !m.fixed && key.Matches(k, m.keys.Again):
		return m.start()
	case !m.fixed && key.Matches(k, m.keys.Edit):
		m.mode = modeInput
		m.input.Focus()
	case m.focus == focusList && key.Matches(k, n.Up, n.Down, n.PageUp, n.PageDown, n.Top, n.Bottom):
		_, page := m.list.Inner()
		m.cursor = moveCursor(n, k, m.cursor, len(m.results), page)
		m.fcursor = 0
		m.refresh()
	case m.focus == focusFindings && key.Matches(k, n.Up, n.Down, n.Top, n.Bottom):
		m.fcursor = moveCursor(n, k, m.fcursor, len(m.current().Report.Findings), 1)
		m.refreshFindings()
	default:
		m.focused().Scroll(n, k)
	}
	return nil
}

// moveCursor moves a cursor over n rows for the navigation keys; page
// is the rows a page key moves.
func moveCursor(nav keymap.Nav, k tea.KeyMsg, cur, n, page int) int {
	switch {
	case key.Matches(k, nav.Up):
		cur--
	case key.Matches(k, nav.Down):
		cur++
	case key.Matches(k, nav.PageUp):
		cur -= max(page, 1)
	case key.Matches(k, nav.PageDown):
		cur += max(page, 1)
	case key.Matches(k, nav.Top):
		cur = 0
	case key.Matches(k, nav.Bottom):
		cur = n - 1
	}
	return max(0, min(cur, n-1))
}

// callTimeouts are the per-call timeouts ctrl+t steps through: a quick
// local server, the default, and servers behind npx or a slow upstream.
var callTimeouts = []time.Duration{10 * time.Second, check.DefaultCallTimeout, 60 * time.Second, 120 * time.Second}

// seconds writes d as "30 s".
func seconds(d time.Duration) string { return fmt.Sprintf("%d s", int(d/time.Second)) }

// start probes the server in the input.
func (m *Model) start() tea.Cmd {
	text := strings.TrimSpace(m.input.Value())
	if text == "" {
		m.err = "type the command of a stdio MCP server, or the URL of a Streamable HTTP one"
		return nil
	}
	t, act := check.Target{Command: text}, common.RunProgram
	if strings.HasPrefix(text, "http://") || strings.HasPrefix(text, "https://") {
		t, act = check.Target{URL: text}, common.OpenURL
	}
	if err := m.c.Allowed(act); err != nil {
		m.err = err.Error()
		return nil
	}
	m.stop()
	m.gen++
	gen := m.gen
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	m.cancel, m.ended, m.asked = cancel, ended, m.spec
	m.mode, m.done, m.total, m.doing, m.err, m.target = modeRunning, 0, 0, startingDoing, "", text
	m.started = time.Now()
	m.input.Blur()
	m.c.ClearStatus() // a failed probe's "see the message under the input" is not this one's
	prog, done := make(chan tea.Msg, 1), make(chan tea.Msg, 1)
	m.progCh, m.doneCh = prog, done
	opts := check.Options{Spec: m.spec, Probe: true, CallTimeout: m.timeout, Progress: func(d, total int, what string) {
		select { // a progress report may be dropped; the result never is
		case prog <- progressMsg{gen: gen, done: d, total: total, what: what}:
		default:
		}
	}}
	go func() {
		out, err := check.Live(ctx, t, opts)
		close(ended)
		done <- doneMsg{gen: gen, out: out, err: err} // buffered: never blocks
	}()
	return m.listen()
}

// listen waits for the running probe's next progress report or its end,
// or a second, so the elapsed time on screen moves while nothing comes.
func (m *Model) listen() tea.Cmd {
	prog, done, gen := m.progCh, m.doneCh, m.gen
	return func() tea.Msg {
		select {
		case msg := <-prog:
			return msg
		case msg := <-done:
			return msg
		case <-time.After(time.Second):
			return tickMsg{gen: gen}
		}
	}
}

func (m *Model) finish(out *check.Outcome, err error) {
	m.cancel, m.ended = nil, nil
	stopped := m.stopping
	m.stopping = false
	if stopped && out != nil && len(out.Results) > 0 {
		m.showResults(out)
		m.stopped = fmt.Sprintf("you stopped the probe: the %s answered before are shown", common.Plural(len(out.Results), "response"))
		m.layout()
		return
	}
	if stopped {
		m.mode = modeInput
		m.input.Focus()
		m.c.SetStatus(common.StatusInfo, "probe stopped before any answer")
		return
	}
	if err != nil {
		m.mode = modeInput
		m.input.Focus()
		m.err = common.OneLineText(err.Error())
		m.c.SetStatus(common.StatusError, "the probe did not finish: see the message under the input")
		return
	}
	m.showResults(out)
}

// showResults shows a probe's outcome on the results view.
func (m *Model) showResults(out *check.Outcome) {
	m.mode, m.results, m.skipped, m.notes, m.stopped = modeResults, out.Results, out.Skipped, out.Notes, out.Stopped
	m.server = strings.TrimSpace(out.Server + " · protocol " + out.Protocol)
	m.spec = out.Spec
	m.layout()
	m.cursor, m.fcursor = 0, 0
	m.setFocus(focusList)
	m.refresh()
	s := check.Summarize(out.Results)
	m.c.SetStatus(common.StatusInfo, "%s graded: %d ✗ fail, %d ⚠ warn, %d ✓ clean", common.Plural(s.Responses, "response"), s.Fail, s.Warn, s.Clean)
}

func (m *Model) current() check.Result {
	if m.cursor < len(m.results) {
		return m.results[m.cursor]
	}
	return check.Result{}
}

// finding is the selected finding of the response shown.
func (m *Model) finding() (grade.Finding, bool) {
	fs := findings.Sorted(m.current().Report.Findings)
	if m.fcursor < len(fs) {
		return fs[m.fcursor], true
	}
	return grade.Finding{}, false
}

func (m *Model) focused() *pane.Model {
	switch m.focus {
	case focusFindings:
		return m.found
	case focusResponse:
		return m.resp
	}
	return m.list
}

func (m *Model) setFocus(f int) {
	m.focus = f
	m.list.SetFocused(f == focusList)
	m.found.SetFocused(f == focusFindings)
	m.resp.SetFocused(f == focusResponse)
}
