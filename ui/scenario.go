package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// callTimeout bounds one in-process call (handshake included).
const callTimeout = 10 * time.Second

// Focus targets on the scenario screen, in tab order.
const (
	focusRequest = iota
	focusResponse
	focusLower
	focusCount
)

// runKey names one session: a scenario is called in one style under one
// revision; each combination keeps its own session and attempt count.
type runKey struct {
	style mockserver.Style
	rev   rules.Revision
}

type run struct {
	sess     *wire.Session
	attempts int
	last     *wire.Exchange
	class    string
}

// diffState holds the bad and good responses to the same call, each
// made on a fresh session.
type diffState struct {
	rev    rules.Revision
	bad    mockserver.Style
	badEx  wire.Exchange
	goodEx wire.Exchange
}

type callDoneMsg struct {
	owner *scenarioScreen
	key   runKey
	sess  *wire.Session
	ex    wire.Exchange
	class string
	err   error
}

type diffDoneMsg struct {
	owner *scenarioScreen
	state diffState
	err   error
}

// scenarioScreen is where the learner makes the call, reads both
// envelopes, picks a recovery action and gets the verdict.
type scenarioScreen struct {
	c    *Common
	sc   *scenarios.Scenario
	keys ScenarioKeys

	style mockserver.Style
	rev   rules.Revision
	view  wire.View

	runs     map[runKey]*run
	busy     bool
	diffOn   bool
	diff     *diffState
	diffBusy bool

	focus    int
	lastPane int // the envelope pane focused last (y, w use it)
	panes    [2]*pane
	lower    *pane
	lowerKey lowerKey

	chosen  rules.Action
	verdict *scenarios.Verdict

	w, h    int
	header  string
	headerH int
	stacked bool
	closed  bool
}

type lowerKey struct {
	chosen  rules.Action
	rev     rules.Revision
	compact bool
	w       int
}

func newScenarioScreen(c *Common, sc *scenarios.Scenario) *scenarioScreen {
	m := &scenarioScreen{
		c:     c,
		sc:    sc,
		keys:  DefaultScenarioKeys(),
		style: mockserver.StyleGood,
		rev:   sc.Revision(),
		view:  wire.ViewMCP,
		runs:  map[runKey]*run{},
		focus: focusRequest,
		lower: newPane(c),
	}
	if len(sc.Styles) > 0 {
		m.style = sc.Styles[0]
	}
	m.keys.Exercise.SetEnabled(sc.InSubagent)
	m.panes[0], m.panes[1] = newPane(c), newPane(c)
	m.setFocus(focusRequest)
	m.refreshPanes()
	return m
}

func (m *scenarioScreen) Init() tea.Cmd { return nil }

func (m *scenarioScreen) Crumb() string { return m.sc.ID }

// Close releases every session the screen opened.
func (m *scenarioScreen) Close() {
	m.closed = true
	for _, r := range m.runs {
		if r.sess != nil {
			_ = r.sess.Close()
		}
	}
}

func (m *scenarioScreen) cur() *run { return m.runs[runKey{m.style, m.rev}] }

func (m *scenarioScreen) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.layout()
}

// Back leaves the diff view before the root leaves the screen.
func (m *scenarioScreen) Back() bool {
	if m.diffOn {
		m.diffOn = false
		m.refreshPanes()
		m.layout()
		return true
	}
	return false
}

func (m *scenarioScreen) ShortHelp() []key.Binding {
	k, g := m.keys, m.c.Keys
	bs := []key.Binding{brief(k.Call, "call"), brief(k.Choose, "choose")}
	if k.Exercise.Enabled() {
		bs = append(bs, brief(k.Exercise, "exercise"))
	}
	return append(bs, k.Style, brief(k.Revision, "spec"), k.View,
		brief(k.Diff, "compare"), brief(k.Focus, "pane"), brief(g.Copy, "copy"), brief(g.Write, "write"), brief(k.Next, "next"),
		brief(k.Agents, "agents"))
}

func (m *scenarioScreen) FullHelp() [][]key.Binding {
	k, n, g := m.keys, m.c.Nav, m.c.Keys
	return [][]key.Binding{
		{k.Call, k.Choose, k.Next, k.Agents, k.Exercise},
		{k.Style, k.Revision, k.View, k.Diff},
		{k.Focus, k.FocusRev, n.Up, n.Down, n.PageUp, n.PageDown},
		{g.Copy, g.Write},
	}
}

func (m *scenarioScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyMsg:
		cmd = m.handleKey(msg)
	case panicMsg:
		// A command of ours panicked: stop waiting for it.
		m.busy, m.diffBusy = false, false
		if m.diffOn && m.diff == nil {
			m.diffOn = false
		}
		m.refreshPanes()
	case callDoneMsg:
		if msg.owner != m {
			return m, nil
		}
		m.callDone(msg)
	case diffDoneMsg:
		if msg.owner != m {
			return m, nil
		}
		m.diffBusy = false
		if msg.err != nil {
			m.c.SetStatus(StatusError, "the comparison calls failed: %v", msg.err)
			m.diffOn = false
		} else {
			d := msg.state
			m.diff = &d
			where := "on the left, good on the right"
			if m.stacked {
				where = "above, good below"
			}
			m.c.SetStatus(StatusInfo, "same call on fresh sessions: %s %s", d.bad.Label(), where)
		}
		m.refreshPanes()
	default:
		return m, nil
	}
	m.layout()
	return m, cmd
}

func (m *scenarioScreen) handleKey(k tea.KeyMsg) tea.Cmd {
	ks := m.keys
	switch {
	case key.Matches(k, ks.Call):
		if m.diffOn {
			m.diffOn = false
			m.refreshPanes()
		}
		return m.call()
	case key.Matches(k, ks.Choose):
		m.choose(k.String())
	case key.Matches(k, ks.Style):
		return m.cycleStyle()
	case key.Matches(k, ks.Revision):
		return m.cycleRevision()
	case key.Matches(k, ks.View):
		m.view = m.view.Next()
		m.c.SetStatus(StatusInfo, "view: %s", m.view.Label())
		m.refreshPanes()
	case key.Matches(k, ks.Diff):
		if m.diffOn {
			m.diffOn = false
			m.refreshPanes()
			return nil
		}
		return m.startDiff()
	case key.Matches(k, ks.Focus):
		m.setFocus((m.focus + 1) % focusCount)
	case key.Matches(k, ks.FocusRev):
		m.setFocus((m.focus + focusCount - 1) % focusCount)
	case key.Matches(k, ks.Agents, ks.Exercise) && (m.busy || m.diffBusy):
		// The answer would arrive while another screen is on top.
		m.c.SetStatus(StatusWarn, "still waiting for the call: try again in a moment")
	case key.Matches(k, ks.Agents):
		return send(openAgentsMsg{ID: m.sc.ID, FromScenario: true})
	case key.Matches(k, ks.Exercise):
		if !m.hasResponse() {
			m.c.SetStatus(StatusWarn, "make the call first (enter) and read the response; then e opens the propagation exercise")
			return nil
		}
		return send(openExerciseMsg{ID: m.sc.ID})
	case key.Matches(k, ks.Next):
		if next := m.c.Catalog.Next(m.sc.ID); next != nil && next.ID != m.sc.ID {
			return send(replaceScenarioMsg{ID: next.ID})
		}
		m.c.SetStatus(StatusInfo, "this is the only scenario")
	default:
		m.focused().Scroll(m.c.Nav, k)
	}
	return nil
}

func (m *scenarioScreen) focused() *pane {
	if m.focus == focusLower {
		return m.lower
	}
	return m.panes[m.focus]
}

func (m *scenarioScreen) setFocus(f int) {
	m.focus = f
	if f != focusLower {
		m.lastPane = f
	}
	m.panes[0].focused = f == focusRequest
	m.panes[1].focused = f == focusResponse
	m.lower.focused = f == focusLower
}

// call makes the scenario's call once more on the session of the current
// style and revision, opening it first if needed.
func (m *scenarioScreen) call() tea.Cmd {
	if m.busy {
		m.c.SetStatus(StatusWarn, "still waiting for the previous call")
		return nil
	}
	k := runKey{m.style, m.rev}
	var sess *wire.Session
	if r := m.runs[k]; r != nil {
		sess = r.sess
	}
	m.busy = true
	sc, owner := m.sc, m
	return safe("the call", func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		if sess == nil {
			s, err := sc.Open(ctx, k.style, k.rev)
			if err != nil {
				return callDoneMsg{owner: owner, key: k, err: fmt.Errorf("opening a session: %w", err)}
			}
			sess = s
		}
		ex, err := sess.Call(ctx, sc.Call)
		msg := callDoneMsg{owner: owner, key: k, sess: sess, ex: ex, err: err}
		if err == nil {
			msg.class = classSummary(ex)
		}
		return msg
	})
}

func (m *scenarioScreen) callDone(msg callDoneMsg) {
	m.busy = false
	r := m.runs[msg.key]
	if r == nil {
		r = &run{}
		m.runs[msg.key] = r
	}
	if msg.sess != nil {
		r.sess = msg.sess
	}
	if m.closed && r.sess != nil {
		_ = r.sess.Close()
	}
	if msg.err != nil {
		m.c.SetStatus(StatusError, "the call failed: %v", msg.err)
		return
	}
	r.attempts++
	ex := msg.ex
	r.last, r.class = &ex, msg.class
	if msg.key == (runKey{m.style, m.rev}) {
		m.setFocus(focusResponse)
		if m.sc.InSubagent {
			m.c.SetStatus(StatusInfo, "attempt %d: %s · e opens the propagation exercise", r.attempts, msg.class)
		} else {
			m.c.SetStatus(StatusInfo, "attempt %d: %s", r.attempts, msg.class)
		}
		m.refreshPanes()
	}
}

// classSummary says what a response is, in a few words, from rules.Classify.
func classSummary(ex wire.Exchange) string {
	c, err := ex.Classify()
	if err != nil {
		return "the response is not a JSON-RPC response"
	}
	switch c.Layer {
	case rules.LayerProtocol:
		return fmt.Sprintf("protocol error %d (no tool result)", c.ProtocolCode)
	case rules.LayerSuccess:
		if c.Empty {
			return "success, empty result"
		}
		if looksLikeErrorText(ex) {
			return "success (no isError) whose text reads as an error"
		}
		return "success"
	}
	s := "tool execution error (isError: true)"
	if c.ErrorCategory != "" {
		s += ", " + string(c.ErrorCategory)
	} else {
		s += ", no errorCategory"
	}
	if c.IsRetryable != nil {
		s += fmt.Sprintf(", isRetryable %v", *c.IsRetryable)
	}
	return s
}

func looksLikeErrorText(ex wire.Exchange) bool {
	env, err := rules.ParseEnvelope(ex.Response)
	if err != nil || env.Result == nil {
		return false
	}
	for _, t := range env.Result.Texts() {
		if rules.LooksLikeError(t) {
			return true
		}
	}
	return false
}

func (m *scenarioScreen) startDiff() tea.Cmd {
	bad := m.style
	if bad.Good() {
		bad = m.sc.BadStyle()
	}
	if bad == "" {
		m.c.SetStatus(StatusWarn, "this scenario offers only the good style: nothing to compare")
		return nil
	}
	m.diffOn = true
	if m.diff != nil && m.diff.bad == bad && m.diff.rev == m.rev {
		m.refreshPanes()
		return nil
	}
	return m.fetchDiff(bad)
}

func (m *scenarioScreen) fetchDiff(bad mockserver.Style) tea.Cmd {
	m.diffBusy = true
	m.refreshPanes()
	sc, rev, owner := m.sc, m.rev, m
	return safe("the comparison", func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		badEx, err := sc.Exchange(ctx, bad, rev)
		if err != nil {
			return diffDoneMsg{owner: owner, err: err}
		}
		goodEx, err := sc.Exchange(ctx, mockserver.StyleGood, rev)
		if err != nil {
			return diffDoneMsg{owner: owner, err: err}
		}
		return diffDoneMsg{owner: owner, state: diffState{rev: rev, bad: bad, badEx: badEx, goodEx: goodEx}}
	})
}

func (m *scenarioScreen) cycleStyle() tea.Cmd {
	styles := m.sc.Styles
	cur := m.style
	if m.diffOn {
		styles = slices.DeleteFunc(slices.Clone(styles), func(s mockserver.Style) bool { return s.Good() })
		if m.diff != nil {
			cur = m.diff.bad
		}
		if len(styles) < 2 {
			m.c.SetStatus(StatusInfo, "this scenario has one bad style to compare: %s", m.sc.BadStyle().Label())
			return nil
		}
	} else if len(styles) < 2 {
		m.c.SetStatus(StatusWarn, "this scenario offers only the good style")
		return nil
	}
	i := slices.Index(styles, cur)
	next := styles[(i+1)%len(styles)]
	m.style = next
	m.c.SetStatus(StatusInfo, "style %s: %s", next.Label(), next.Description())
	if m.diffOn {
		return m.fetchDiff(next)
	}
	m.refreshPanes()
	return nil
}

func (m *scenarioScreen) cycleRevision() tea.Cmd {
	i := slices.Index(rules.Revisions, m.rev)
	m.rev = rules.Revisions[(i+1)%len(rules.Revisions)]
	// The verdict depends on the revision: choose again under this one.
	m.chosen, m.verdict = "", nil
	m.c.SetStatus(StatusInfo, "following spec %s: %s", m.rev, revisionBlurb(m.rev))
	if m.diffOn {
		bad := m.style
		if bad.Good() {
			bad = m.sc.BadStyle()
		}
		return m.fetchDiff(bad)
	}
	m.refreshPanes()
	return nil
}

// revisionBlurb says in one line what a revision changes for errors.
func revisionBlurb(r rules.Revision) string {
	switch r {
	case rules.Rev20250618:
		return "arguments that break inputSchema are protocol errors (-32602)"
	case rules.Rev20251125:
		return "argument errors are isError results the model can correct (SEP-1303); unknown tool stays -32602"
	case rules.Rev20260728:
		return "error rules as 2025-11-25; stateless: server/discover, _meta on requests, resultType on results"
	}
	return ""
}

func (m *scenarioScreen) choose(digit string) {
	n := int(digit[0] - '0')
	if n < 1 || n > len(rules.Actions) {
		return
	}
	if !m.hasResponse() {
		m.c.SetStatus(StatusWarn, "make the call first (enter) and read the response")
		return
	}
	a := rules.Actions[n-1]
	v := m.sc.Score(m.rev, a)
	m.chosen, m.verdict = a, &v
	m.setFocus(focusLower)
	m.lowerKey = lowerKey{} // force a rebuild, scrolled to the top
	switch {
	case v.Grade.Correct():
		if err := m.c.markSolved(m.sc.ID); err != nil {
			m.c.SetStatus(StatusError, "correct, but progress was not saved: %v", err)
		} else {
			next := "n for the next scenario"
			if m.sc.InSubagent {
				next = "e for the propagation exercise · " + next
			}
			m.c.SetStatus(StatusOK, "%s: %s · %s", gradeWord(v.Grade), a.Title(), next)
		}
	default:
		m.c.SetStatus(StatusError, "not the best move: %s · try another number", a.Title())
	}
}

func (m *scenarioScreen) hasResponse() bool {
	if r := m.cur(); r != nil && r.last != nil {
		return true
	}
	return m.diffOn && m.diff != nil
}

func gradeWord(g rules.Grade) string {
	switch g {
	case rules.GradeBest:
		return "correct"
	case rules.GradeAcceptable:
		return "acceptable"
	}
	return "not the best move"
}

// refreshPanes sets the two envelope panes from the current state. The
// lexing happens here (in Update), never in View.
func (m *scenarioScreen) refreshPanes() {
	st := m.c.Styles
	if m.diffOn {
		if m.diff == nil || m.diffBusy {
			wait := func(int) string { return st.Muted.Render("making the call on a fresh session…") }
			m.panes[0].SetContent("bad style", "", wait)
			m.panes[1].SetContent("good style", "", wait)
			return
		}
		d := m.diff
		_, badResp := wire.Render(d.badEx, m.view)
		_, goodResp := wire.Render(d.goodEx, m.view)
		m.setPane(0, fmt.Sprintf("✗ %s (bad) · %s", d.bad.Label(), badResp.Title), rawOf(d.badEx.Response, badResp, m.view), badResp)
		m.setPane(1, fmt.Sprintf("✓ %s · %s", mockserver.StyleGood.Label(), goodResp.Title), rawOf(d.goodEx.Response, goodResp, m.view), goodResp)
		return
	}
	r := m.cur()
	if r == nil || r.last == nil {
		call := m.describeCall()
		m.panes[0].SetContent("Request", "", func(w int) string {
			return ansi.Wrap(st.Muted.Render("The agent will send:")+"\n"+call+"\n\n"+
				st.Muted.Render("Press enter to make the call."), w, "")
		})
		m.panes[1].SetContent("Response", "", func(w int) string {
			return ansi.Wrap(st.Muted.Render("No response yet."), w, "")
		})
		return
	}
	req, resp := wire.Render(*r.last, m.view)
	m.setPane(0, req.Title, rawOf(r.last.Request, req, m.view), req)
	m.setPane(1, fmt.Sprintf("%s · attempt %d", resp.Title, r.attempts), rawOf(r.last.Response, resp, m.view), resp)
}

func (m *scenarioScreen) describeCall() string {
	c := m.sc.Call
	if c.Raw != "" {
		return "hand-written bytes:\n" + c.Raw
	}
	return fmt.Sprintf("tools/call %s %s", c.Tool, compactJSON(c.Arguments))
}

func compactJSON(v map[string]any) string {
	if len(v) == 0 {
		return "{}"
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %v", k, v[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// rawOf is what y copies from a pane: the exact wire bytes in the MCP
// view, the pane's text in the others.
func rawOf(wireBytes []byte, p wire.Pane, v wire.View) string {
	if v == wire.ViewMCP {
		return string(wireBytes)
	}
	return p.Body
}

func (m *scenarioScreen) setPane(i int, title, raw string, p wire.Pane) {
	var d doc
	if p.JSON {
		d = tokenizeJSON(p.Body)
	} else {
		d = tokenizePlain(p.Body)
	}
	st := m.c.Styles
	m.panes[i].SetContent(title, raw, func(w int) string { return d.render(w, st) })
}

// ClipText implements clipSource: the focused envelope pane's raw text.
func (m *scenarioScreen) ClipText() (string, string, bool, string) {
	i := m.lastPane
	p := m.panes[i]
	if p.raw == "" {
		return "", "", false, "nothing to copy yet: make the call first (enter)"
	}
	label := "request"
	if i == focusResponse {
		label = "response"
	}
	if m.diffOn && m.diff != nil {
		label = m.diff.bad.Label() + " response"
		if i == focusResponse {
			label = "good response"
		}
	} else if m.view != wire.ViewMCP {
		label += " (" + m.view.Label() + ")"
	} else {
		label += " envelope"
	}
	return p.raw, label, true, ""
}

// ExportRecord implements exportSource: the current exchange, or in the
// diff view the one whose pane was focused last.
func (m *scenarioScreen) ExportRecord() (exportRecord, string, bool, string) {
	var ex wire.Exchange
	style, attempt := m.style, 0
	switch {
	case m.diffOn && m.diff != nil:
		ex, style = m.diff.goodEx, mockserver.StyleGood
		if m.lastPane == focusRequest {
			ex, style = m.diff.badEx, m.diff.bad
		}
		attempt = 1
	case m.cur() != nil && m.cur().last != nil:
		ex, attempt = *m.cur().last, m.cur().attempts
	default:
		return exportRecord{}, "", false, "nothing to write yet: make the call first (enter)"
	}
	rec := exportRecord{
		Scenario: m.sc.ID, Title: m.sc.Title, Spec: ex.Revision, Style: style, Attempt: attempt,
		Call: ex.Call, Request: string(ex.Request), Response: string(ex.Response),
	}
	return rec, exportName(m.sc.ID, style, ex.Revision), true, ""
}
