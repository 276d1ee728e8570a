package ui

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/jsonview"
	"github.com/errorlab/errorlab/ui/components/pane"
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
	gen   int
	sess  *wire.Session
	ex    wire.Exchange
	class string
	err   error
}

// goodCustomerMsg carries the customerMessage of the good-style response
// to the scenario's call, fetched for the verdict's "Tell the customer".
type goodCustomerMsg struct {
	owner *scenarioScreen
	gen   int
	text  string
}

type diffDoneMsg struct {
	owner *scenarioScreen
	state diffState
	err   error
}

// scenarioScreen is where the learner makes the call, reads both
// envelopes, picks a recovery action and gets the verdict.
type scenarioScreen struct {
	c    *common.Common
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
	panes    [2]*pane.Model
	lower    *pane.Model
	lowerKey lowerKey

	chosen  rules.Action
	verdict *scenarios.Verdict
	// caveat explains, under a bad style, that the verdict is graded on
	// what really happened and what the response on screen fails to say.
	caveat *styleCaveat
	// toolCustomer is the customerMessage the good response carries, for
	// "Tell the customer:" (the scenario's own text when it carries none).
	toolCustomer string
	// customerGen changes with every verdict; a late goodCustomerMsg for
	// an older one is dropped.
	customerGen int
	// gen counts resets of the runs (s, r); a call started before a reset
	// is dropped when it returns.
	gen int
	// lowerGen changes whenever the lower panel's content does.
	lowerGen int

	w, h    int
	header  string
	headerH int
	stacked bool
	closed  bool
}

type lowerKey struct {
	chosen rules.Action
	rev    rules.Revision
	style  mockserver.Style
	mode   actionsMode
	gen    int
	w      int
}

func newScenarioScreen(c *common.Common, sc *scenarios.Scenario) *scenarioScreen {
	m := &scenarioScreen{
		c:     c,
		sc:    sc,
		keys:  DefaultScenarioKeys(),
		style: sc.FirstStyle(),
		rev:   sc.Revision(),
		view:  wire.ViewMCP,
		runs:  map[runKey]*run{},
		focus: focusRequest,
		lower: pane.New(c),
	}
	if !sc.HasStyle(m.style) && len(sc.Styles) > 0 {
		m.style = sc.Styles[0]
	}
	m.keys.Exercise.SetEnabled(sc.InSubagent)
	m.panes[0], m.panes[1] = pane.New(c), pane.New(c)
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
		m.refreshCaveat()
		m.layout()
		return true
	}
	return false
}

func (m *scenarioScreen) ShortHelp() []key.Binding {
	k, g := m.keys, m.c.Keys
	bs := []key.Binding{common.Brief(k.Call, "call"), common.Brief(k.Choose, "choose")}
	if k.Exercise.Enabled() {
		bs = append(bs, common.Brief(k.Exercise, "exercise"))
	}
	return append(bs, k.Style, common.Brief(k.Revision, "spec"), k.View,
		common.Brief(k.Diff, "compare"), common.Brief(k.Focus, "pane"), common.Brief(g.Copy, "copy"), common.Brief(g.Write, "write"), common.Brief(k.Next, "next"),
		common.Brief(k.Agents, "agents"))
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
	case common.PanicMsg:
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
	case goodCustomerMsg:
		if msg.owner != m || msg.gen != m.customerGen {
			return m, nil
		}
		if msg.text != m.toolCustomer {
			m.toolCustomer = msg.text
			m.lowerGen++
		}
	case diffDoneMsg:
		if msg.owner != m {
			return m, nil
		}
		m.diffBusy = false
		if msg.err != nil {
			m.c.SetStatus(common.StatusError, "the comparison calls failed: %v", msg.err)
			m.diffOn = false
		} else {
			d := msg.state
			m.diff = &d
			where := "on the left, good on the right"
			if m.stacked {
				where = "above, good below"
			}
			if d.sameResponse() {
				m.c.SetStatus(common.StatusInfo, "%s", d.sameReason())
			} else {
				m.c.SetStatus(common.StatusInfo, "same call on fresh sessions: %s %s", d.bad.Label(), where)
			}
		}
		m.refreshPanes()
		m.refreshCaveat()
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
			m.refreshCaveat()
		}
		return m.call()
	case key.Matches(k, ks.Choose):
		return m.choose(k.String())
	case key.Matches(k, ks.Style):
		return m.cycleStyle()
	case key.Matches(k, ks.Revision):
		return m.cycleRevision()
	case key.Matches(k, ks.View):
		m.view = m.view.Next()
		m.c.SetStatus(common.StatusInfo, "view: %s", m.view.Label())
		m.refreshPanes()
	case key.Matches(k, ks.Diff):
		if m.diffOn {
			m.diffOn = false
			m.refreshPanes()
			m.refreshCaveat()
			return nil
		}
		cmd := m.startDiff()
		m.refreshCaveat()
		return cmd
	case key.Matches(k, ks.Focus):
		m.setFocus((m.focus + 1) % focusCount)
	case key.Matches(k, ks.FocusRev):
		m.setFocus((m.focus + focusCount - 1) % focusCount)
	case key.Matches(k, ks.Agents, ks.Exercise) && (m.busy || m.diffBusy):
		// The answer would arrive while another screen is on top.
		m.c.SetStatus(common.StatusWarn, "still waiting for the call: try again in a moment")
	case key.Matches(k, ks.Agents):
		return common.Send(common.OpenAgentsMsg{ID: m.sc.ID, FromScenario: true, Rev: m.rev})
	case key.Matches(k, ks.Exercise):
		if !m.hasResponse() {
			m.c.SetStatus(common.StatusWarn, "make the call first (enter) and read the response; then e opens the propagation exercise")
			return nil
		}
		return common.Send(common.OpenExerciseMsg{ID: m.sc.ID})
	case key.Matches(k, ks.Next):
		if next := m.c.Catalog.Next(m.sc.ID); next != nil && next.ID != m.sc.ID {
			return common.Send(common.ReplaceScenarioMsg{ID: next.ID})
		}
		m.c.SetStatus(common.StatusInfo, "this is the only scenario")
	default:
		m.focused().Scroll(m.c.Nav, k)
	}
	return nil
}

func (m *scenarioScreen) focused() *pane.Model {
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
	m.panes[0].SetFocused(f == focusRequest)
	m.panes[1].SetFocused(f == focusResponse)
	m.lower.SetFocused(f == focusLower)
}

// call makes the scenario's call once more on the session of the current
// style and revision, opening it first if needed.
func (m *scenarioScreen) call() tea.Cmd {
	if m.busy {
		m.c.SetStatus(common.StatusWarn, "still waiting for the previous call")
		return nil
	}
	k := runKey{m.style, m.rev}
	var sess *wire.Session
	if r := m.runs[k]; r != nil {
		sess = r.sess
		if m.sc.RetriesExhausted && r.attempts > 0 {
			// The scenario starts after the last resend the cap allows.
			m.c.SetStatus(common.StatusWarn, "the retry cap is spent: decide what the subagent does now (1-9)")
			return nil
		}
	}
	m.busy = true
	sc, owner, gen := m.sc, m, m.gen
	return common.Safe("the call", func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		if sess == nil {
			s, err := sc.Open(ctx, k.style, k.rev)
			if err != nil {
				return callDoneMsg{owner: owner, key: k, gen: gen, err: fmt.Errorf("opening a session: %w", err)}
			}
			sess = s
		}
		ex, err := sess.Call(ctx, sc.Call)
		msg := callDoneMsg{owner: owner, key: k, gen: gen, sess: sess, ex: ex, err: err}
		if err == nil {
			msg.class = classSummary(ex)
		}
		return msg
	})
}

func (m *scenarioScreen) callDone(msg callDoneMsg) {
	if msg.gen != m.gen {
		// The style or revision changed while the call was out: its run
		// was reset, so this answer belongs to nothing on screen (and the
		// busy flag to a newer call, if any).
		if msg.sess != nil {
			_ = msg.sess.Close()
		}
		return
	}
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
		m.c.SetStatus(common.StatusError, "the call failed: %v", msg.err)
		return
	}
	r.attempts++
	ex := msg.ex
	r.last, r.class = &ex, msg.class
	if msg.key == (runKey{m.style, m.rev}) {
		m.setFocus(focusResponse)
		label := m.attemptLabel(r.attempts)
		if m.sc.InSubagent {
			m.c.SetStatus(common.StatusInfo, "%s: %s · e opens the propagation exercise", label, msg.class)
		} else {
			m.c.SetStatus(common.StatusInfo, "%s: %s", label, msg.class)
		}
		m.refreshPanes()
		m.refreshCaveat()
	}
}

// shownAttempt is the attempt number the learner sees: a scenario whose
// retries are already spent starts at the last attempt the cap allows.
func (m *scenarioScreen) shownAttempt(attempts int) int {
	if m.sc.RetriesExhausted {
		return attempts + rules.MaxRetries
	}
	return attempts
}

// attemptLabel is "attempt 2", or "attempt 4 of 4 · retry cap spent".
func (m *scenarioScreen) attemptLabel(attempts int) string {
	n := m.shownAttempt(attempts)
	if m.sc.RetriesExhausted {
		return fmt.Sprintf("attempt %d of %d · retry cap spent", n, rules.MaxRetries+1)
	}
	return fmt.Sprintf("attempt %d", n)
}

// resetRun forgets the response of the current style and revision, so
// the screen shows no response until the next call, and drops any call
// still out.
func (m *scenarioScreen) resetRun() {
	k := runKey{m.style, m.rev}
	if r := m.runs[k]; r != nil && r.sess != nil {
		_ = r.sess.Close()
	}
	delete(m.runs, k)
	m.gen++
	m.busy = false
}

// clearVerdict removes the verdict: it belongs to a response that is no
// longer on screen.
func (m *scenarioScreen) clearVerdict() {
	m.chosen, m.verdict, m.caveat = "", nil, nil
	m.toolCustomer = ""
	m.customerGen++
	m.lowerGen++
}

// styleNoEffect reports whether, under the current revision, the call is
// refused before any tool runs, so every style gets the same response.
func (m *scenarioScreen) styleNoEffect() bool {
	return m.sc.TruthAt(m.rev).Expected.Layer == rules.LayerProtocol
}

// badStyleMatters reports whether a bad style is selected and changes
// the response under the current revision.
func (m *scenarioScreen) badStyleMatters() bool {
	return !m.style.Good() && !m.styleNoEffect()
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
		if common.LooksLikeErrorText(ex) {
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

func (m *scenarioScreen) startDiff() tea.Cmd {
	bad := m.style
	if bad.Good() {
		bad = m.sc.BadStyle()
	}
	if bad == "" {
		m.c.SetStatus(common.StatusWarn, "this scenario offers only the good style: nothing to compare")
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
	return common.Safe("the comparison", func() tea.Msg {
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
			m.c.SetStatus(common.StatusInfo, "this scenario has one bad style to compare: %s", m.sc.BadStyle().Label())
			return nil
		}
	} else if len(styles) < 2 {
		m.c.SetStatus(common.StatusWarn, "this scenario offers only the good style")
		return nil
	}
	i := slices.Index(styles, cur)
	next := styles[(i+1)%len(styles)]
	m.style = next
	// The verdict was given on the response of the old style: start over
	// with no response and no verdict, as r does.
	m.clearVerdict()
	m.resetRun()
	switch {
	case m.styleNoEffect() && !next.Good():
		m.c.SetStatus(common.StatusInfo, "style %s: no effect under %s: this request never reaches a tool, so every style gets the same response", next.Label(), m.rev)
	default:
		m.c.SetStatus(common.StatusInfo, "style %s%s: %s", next.Label(), badMark(next), next.Description())
	}
	if m.diffOn {
		return m.fetchDiff(next)
	}
	m.setFocus(focusRequest)
	m.refreshPanes()
	return nil
}

// badMark is " (bad)" for a bad style, "" for the good one.
func badMark(s mockserver.Style) string {
	if s.Good() {
		return ""
	}
	return " (bad)"
}

func (m *scenarioScreen) cycleRevision() tea.Cmd {
	i := slices.Index(rules.Revisions, m.rev)
	m.rev = rules.Revisions[(i+1)%len(rules.Revisions)]
	// The verdict depends on the revision: choose again under this one,
	// on a fresh call.
	m.clearVerdict()
	m.resetRun()
	m.c.SetStatus(common.StatusInfo, "following spec %s: %s", m.rev, common.RevisionBlurb(m.rev))
	if m.diffOn {
		bad := m.style
		if bad.Good() {
			bad = m.sc.BadStyle()
		}
		return m.fetchDiff(bad)
	}
	m.setFocus(focusRequest)
	m.refreshPanes()
	return nil
}

func (m *scenarioScreen) choose(digit string) tea.Cmd {
	n := int(digit[0] - '0')
	if n < 1 || n > len(rules.Actions) {
		return nil
	}
	if !m.hasResponse() {
		m.c.SetStatus(common.StatusWarn, "make the call first (enter) and read the response")
		return nil
	}
	a := rules.Actions[n-1]
	// Grade what is on screen: a bad style can show a protocol error for
	// a tool that ran, and reading that as a server to fix is sound.
	v := m.sc.ScoreSeen(m.rev, m.seenLayer(), a)
	m.chosen, m.verdict = a, &v
	m.lowerGen++
	cmd := m.fetchCustomer()
	m.refreshCaveat()
	m.setFocus(focusLower)
	m.lowerKey = lowerKey{} // force a rebuild, scrolled to the top

	// Every answer is recorded with whether it was right; the store
	// keeps ✓ for a scenario whose very first answer ever was right, on
	// any visit and under any revision, and ◑ for right after a miss.
	before := m.c.Mark(m.sc.ID)
	err := m.c.RecordScenario(m.sc.ID, a, v.Grade)
	defer m.c.AfterWrite()
	if err != nil {
		m.c.SetStatus(common.StatusError, "%s, but progress was not saved: %v", common.GradeWord(v.Grade), err)
		return cmd
	}
	after := m.c.Mark(m.sc.ID)
	next := "n for the next scenario"
	if m.sc.InSubagent {
		next = "e for the propagation exercise · " + next
	}
	switch {
	case v.Grade.Correct() && after == quiz.MarkFirstTime && before == quiz.MarkNone:
		m.c.SetStatus(common.StatusOK, "%s · ✓ recorded as right first time · %s · %s", common.GradeWord(v.Grade), a.Title(), next)
	case v.Grade.Correct() && after == quiz.MarkAfterMiss:
		m.c.SetStatus(common.StatusOK, "%s · ◑ recorded as right after a miss (the first answer counts) · %s · %s", common.GradeWord(v.Grade), a.Title(), next)
	case v.Grade.Correct():
		m.c.SetStatus(common.StatusOK, "%s: %s · %s", common.GradeWord(v.Grade), a.Title(), next)
	case before == quiz.MarkNone && after == quiz.MarkNone:
		m.c.SetStatus(common.StatusError, "not the best move: %s · try another number (a right answer now counts as ◑, right after a miss)", a.Title())
	default:
		m.c.SetStatus(common.StatusError, "not the best move: %s · try another number", a.Title())
	}
	return cmd
}

// fetchCustomer finds the customerMessage of the good-style response for
// the verdict's "Tell the customer:", shown with the best answer only:
// from a good response at hand (the comparison's good side, or the good
// style's last call), or else from a fresh good-style call in a command.
func (m *scenarioScreen) fetchCustomer() tea.Cmd {
	m.customerGen++
	m.toolCustomer = ""
	if v := m.verdict; v == nil || v.Grade != rules.GradeBest || v.Action != m.sc.BestAction {
		return nil
	}
	var good *wire.Exchange
	switch {
	case m.diff != nil && m.diff.rev == m.rev:
		good = &m.diff.goodEx
	case m.runs[runKey{mockserver.StyleGood, m.rev}] != nil && m.runs[runKey{mockserver.StyleGood, m.rev}].last != nil:
		good = m.runs[runKey{mockserver.StyleGood, m.rev}].last
	}
	if good != nil {
		m.toolCustomer = customerMessageOf(good.Response)
		return nil
	}
	sc, rev, owner, gen := m.sc, m.rev, m, m.customerGen
	return common.Safe("the good response", func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		ex, err := sc.Exchange(ctx, mockserver.StyleGood, rev)
		if err != nil {
			return goodCustomerMsg{owner: owner, gen: gen}
		}
		return goodCustomerMsg{owner: owner, gen: gen, text: customerMessageOf(ex.Response)}
	})
}

// customerMessageOf is the customerMessage a response's metadata carries.
func customerMessageOf(resp []byte) string {
	c, err := rules.Classify(resp)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(c.Meta.CustomerMessage)
}

// seenLayer is the layer of the response the verdict is given on: the
// current exchange's, or in the comparison the bad side's. "" when there
// is none or it is not a JSON-RPC response.
func (m *scenarioScreen) seenLayer() rules.Layer {
	var resp []byte
	switch {
	case m.diffOn && m.diff != nil:
		resp = m.diff.badEx.Response
	case m.cur() != nil && m.cur().last != nil:
		resp = m.cur().last.Response
	default:
		return ""
	}
	c, err := rules.Classify(resp)
	if err != nil {
		return ""
	}
	return c.Layer
}

func (m *scenarioScreen) hasResponse() bool {
	if r := m.cur(); r != nil && r.last != nil {
		return true
	}
	return m.diffOn && m.diff != nil
}

// sameResponse reports whether the diff's bad and good responses are
// byte for byte the same (a request refused before any tool ran).
func (d *diffState) sameResponse() bool {
	return bytes.Equal(d.badEx.Response, d.goodEx.Response)
}

// sameReason says why the styles make no difference to a diff.
func (d *diffState) sameReason() string {
	if c, err := d.goodEx.Classify(); err == nil && c.Layer == rules.LayerProtocol {
		return fmt.Sprintf("Under %s this request never reaches a tool, so the response style makes no difference", d.rev)
	}
	return fmt.Sprintf("Under %s the %s style sends the same response as the good one here, so the style makes no difference", d.rev, d.bad.Label())
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
		if d.sameResponse() {
			// No ✗ and ✓ here: the two responses are the same bytes.
			note := d.sameReason() + ": both sides are the same bytes."
			m.setPaneNote(0, fmt.Sprintf("%s style · %s", d.bad.Label(), badResp.Title), rawOf(d.badEx.Response, badResp, m.view), badResp, note)
			m.setPaneNote(1, fmt.Sprintf("good style · %s · identical", goodResp.Title), rawOf(d.goodEx.Response, goodResp, m.view), goodResp, note)
			return
		}
		m.setPane(0, fmt.Sprintf("✗ %s (bad) · %s", d.bad.Label(), badResp.Title), rawOf(d.badEx.Response, badResp, m.view), badResp)
		m.setPane(1, fmt.Sprintf("✓ %s · %s", mockserver.StyleGood.Label(), goodResp.Title), rawOf(d.goodEx.Response, goodResp, m.view), goodResp)
		return
	}
	r := m.cur()
	if r == nil || r.last == nil {
		call := m.describeCall()
		m.panes[0].SetContent("Request · the agent will send", "", func(w int) string {
			return wrapCall(call, w) + "\n\n" + ansi.Wrap(st.Muted.Render("Press enter to make the call."), w, "")
		})
		m.panes[1].SetContent("Response", "", func(w int) string {
			return ansi.Wrap(st.Muted.Render("No response yet."), w, "")
		})
		return
	}
	req, resp := wire.Render(*r.last, m.view)
	m.setPane(0, req.Title, rawOf(r.last.Request, req, m.view), req)
	m.setPane(1, fmt.Sprintf("%s · %s", resp.Title, m.attemptLabel(r.attempts)), rawOf(r.last.Response, resp, m.view), resp)
}

// callLines is how many lines the call summary takes at inner width w.
func (m *scenarioScreen) callLines(w int) int {
	return len(strings.Split(wrapCall(m.describeCall(), w), "\n"))
}

// wrapCall wraps a call summary to w cells, breaking after a comma or at
// a space (never inside "ORD-4471" at its hyphen), and cutting a token
// only when it is wider than a line.
func wrapCall(s string, w int) string {
	w = max(w, 1)
	var out []string
	for _, para := range strings.Split(s, "\n") {
		var tokens []string
		start := 0
		for i, r := range para {
			if r == ',' || r == ' ' {
				tokens = append(tokens, para[start:i+1])
				start = i + 1
			}
		}
		if start < len(para) {
			tokens = append(tokens, para[start:])
		}
		line := ""
		flush := func() {
			out = append(out, strings.TrimRight(line, " "))
			line = ""
		}
		for _, t := range tokens {
			if line != "" && ansi.StringWidth(strings.TrimRight(line+t, " ")) > w {
				flush()
			}
			if line == "" {
				t = strings.TrimLeft(t, " ")
			}
			for ansi.StringWidth(t) > w {
				// A token wider than a line: cut it.
				head := ansi.Truncate(t, w-ansi.StringWidth(line), "")
				if head == "" {
					flush()
					continue
				}
				line += head
				t = t[len(head):]
				flush()
			}
			line += t
		}
		flush()
	}
	return strings.Join(out, "\n")
}

// describeCall is what the agent will send: the tool and its arguments as
// compact JSON (a string "24.99" keeps its quotes), or the raw bytes.
func (m *scenarioScreen) describeCall() string {
	c := m.sc.Call
	if c.Raw != "" {
		return "hand-written bytes:\n" + c.Raw
	}
	return fmt.Sprintf("tools/call %s %s", c.Tool, common.ArgsJSON(c.Arguments))
}

// mockTools is the mock server's tool declarations, for the grader.
var mockTools = sync.OnceValue(func() []grade.Tool {
	var out []grade.Tool
	for _, t := range mockserver.New(mockserver.Options{}).Tools() {
		out = append(out, grade.Tool{Name: t.Name, InputSchema: t.RawInputSchema, OutputSchema: t.RawOutputSchema})
	}
	return out
})

// styleCaveat is what the verdict adds under a bad style: the verdict is
// graded on the scenario's truth, and the response on screen does not
// say it (or says it only where some clients never look).
type styleCaveat struct {
	style    mockserver.Style
	truth    string          // what really happened, in words
	gap      string          // what the response fails to tell; "" when it tells it
	textless bool            // it tells it only in structuredContent
	findings []grade.Finding // the grader's errors and warnings
}

// shown is the exchange whose response is on screen for the current
// style and the attempt it was (the comparison's calls are first calls).
func (m *scenarioScreen) shown() (*wire.Exchange, int) {
	if m.diffOn && m.diff != nil {
		if m.style.Good() {
			return &m.diff.goodEx, 1
		}
		return &m.diff.badEx, 1
	}
	if r := m.cur(); r != nil && r.last != nil {
		return r.last, r.attempts
	}
	return nil, 0
}

// refreshCaveat recomputes the caveat for the verdict and the response
// now on screen. It runs in Update (the grader is not free).
func (m *scenarioScreen) refreshCaveat() {
	old := m.caveat
	m.caveat = m.computeCaveat()
	if old != m.caveat {
		m.lowerGen++
	}
}

func (m *scenarioScreen) computeCaveat() *styleCaveat {
	if m.verdict == nil || !m.badStyleMatters() {
		return nil
	}
	ex, attempt := m.shown()
	if ex == nil {
		return nil
	}
	if f := m.sc.Failure; f.SucceedOnAttempt > 0 && attempt >= f.SucceedOnAttempt {
		// The failure has passed (the resend worked): the response on
		// screen is a real success, not the style hiding a failure.
		return nil
	}
	cl, err := ex.Classify()
	if err != nil {
		return nil
	}
	truth := m.sc.SituationAt(m.rev)
	rep := grade.Grade(grade.Input{Request: ex.Request, Response: ex.Response, Tools: mockTools(), Spec: m.rev, Truth: &truth})
	cv := &styleCaveat{style: m.style, truth: truthText(m.sc.TruthAt(m.rev).Expected, m.sc.RetriesExhausted)}
	seen := map[grade.Defect]bool{}
	for _, f := range rep.Findings {
		if f.Severity == grade.SevNote || seen[f.Defect] {
			continue
		}
		seen[f.Defect] = true
		cv.findings = append(cv.findings, f)
		if f.Defect == grade.DefectNoTextBlock {
			cv.textless = true
		}
	}
	cv.gap = gapText(m.sc.TruthAt(m.rev).Expected, cl)
	if cv.gap == "" && len(cv.findings) == 0 {
		return nil
	}
	return cv
}

// truthText says what really happened, e.g. "a transient error
// (isRetryable true)".
func truthText(e scenarios.Expected, exhausted bool) string {
	switch e.Layer {
	case rules.LayerProtocol:
		return fmt.Sprintf("a JSON-RPC protocol error (%d): no tool ran", e.ProtocolCode)
	case rules.LayerSuccess:
		if e.Empty {
			return "a valid empty result: the query ran and found nothing"
		}
		return "a success"
	}
	s := "a tool execution error"
	if e.ErrorCategory != "" {
		s = fmt.Sprintf("a %s error", e.ErrorCategory)
	}
	if e.IsRetryable != nil {
		s += fmt.Sprintf(" (isRetryable %v)", *e.IsRetryable)
	}
	if exhausted {
		s += " whose retries are spent"
	}
	return s
}

// gapText says what the response (classified as cl) fails to tell about
// the truth e, or "" when its classification matches.
func gapText(e scenarios.Expected, cl rules.Classification) string {
	switch {
	case cl.Layer == rules.LayerProtocol && e.Layer != rules.LayerProtocol:
		return fmt.Sprintf("it is a JSON-RPC error %d, so no tool result reaches the model", cl.ProtocolCode)
	case cl.Layer == rules.LayerSuccess && e.Layer != rules.LayerSuccess:
		if cl.Empty {
			return "it has no isError and reads as a success that found nothing"
		}
		return "it has no isError, so it reads as a success, and it carries no errorCategory or isRetryable"
	case cl.Layer != e.Layer:
		return fmt.Sprintf("it reads as %s", cl.Layer)
	case cl.Layer != rules.LayerExecution:
		return ""
	}
	var parts []string
	switch {
	case cl.ErrorCategory == "" && cl.IsRetryable == nil:
		parts = append(parts, "it carries no errorCategory and no isRetryable")
	case cl.ErrorCategory == "":
		parts = append(parts, "it carries no errorCategory")
	case e.ErrorCategory != "" && cl.ErrorCategory != e.ErrorCategory:
		parts = append(parts, fmt.Sprintf("its errorCategory says %s", cl.ErrorCategory))
	}
	if cl.ErrorCategory != "" {
		switch {
		case cl.IsRetryable == nil:
			parts = append(parts, "it carries no isRetryable")
		case e.IsRetryable != nil && *cl.IsRetryable != *e.IsRetryable:
			parts = append(parts, fmt.Sprintf("its isRetryable says %v", *cl.IsRetryable))
		}
	}
	return strings.Join(parts, "; ")
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
	m.setPaneNote(i, title, raw, p, "")
}

// setPaneNote is setPane with a muted note above the envelope.
func (m *scenarioScreen) setPaneNote(i int, title, raw string, p wire.Pane, note string) {
	var d jsonview.Doc
	if p.JSON {
		d = jsonview.JSON(p.Body)
	} else {
		d = jsonview.Plain(p.Body)
	}
	st := m.c.Styles
	m.panes[i].SetContent(title, raw, func(w int) string {
		if note == "" {
			return d.Render(w, st)
		}
		return st.Muted.Render(ansi.Wrap(note, w, "")) + "\n\n" + d.Render(w, st)
	})
}

// ClipText implements clipSource: the focused envelope pane's raw text.
func (m *scenarioScreen) ClipText() (string, string, bool, string) {
	i := m.lastPane
	p := m.panes[i]
	if p.Raw() == "" {
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
	return p.Raw(), label, true, ""
}

// ExportRecord implements exportSource: the current exchange, or in the
// diff view the one whose pane was focused last.
func (m *scenarioScreen) ExportRecord() (common.ExportRecord, string, bool, string) {
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
		ex, attempt = *m.cur().last, m.shownAttempt(m.cur().attempts)
	default:
		return common.ExportRecord{}, "", false, "nothing to write yet: make the call first (enter)"
	}
	return m.sc.Record(ex, style, attempt), exportName(m.sc.ID, style, ex.Revision, attempt), true, ""
}

// SideNote implements sideNoter: in the comparison with the verdict
// focused, y and w take the envelope pane focused last, which the learner
// may not have in mind; the status then says which side and how to pick.
func (m *scenarioScreen) SideNote() common.SideNote {
	if !m.diffOn || m.diff == nil || m.focus != focusLower {
		return common.SideNote{}
	}
	what := "good response"
	if m.lastPane == focusRequest {
		what = m.diff.bad.Label() + " response"
	}
	where := "bad left, good right"
	if m.stacked {
		where = "bad above, good below"
	}
	return common.SideNote{What: what, Note: "compare: " + where + "; tab to choose"}
}
