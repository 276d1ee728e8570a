// Package scenario is the scenario screen, the lab's main job: the
// learner makes the scenario's call on the embedded mock MCP server,
// reads the exact request and response envelopes side by side (in any
// response style, under any spec revision, or bad against good), picks a
// recovery action from the action chooser and reads the verdict.
//
// The files: scenario.go (the model and its update), keymap.go (its keys
// and help), call.go (making the call), compare.go (bad vs good),
// caveat.go (what a bad style hides), envelopes.go (the two envelope
// panes, copy and export) and scenarioview.go (layout and view).
package scenario

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/actions"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/components/verdict"
)

// Focus targets on the scenario screen, in tab order.
const (
	focusRequest = iota
	focusResponse
	focusLower
	focusCount
)

// Model is the scenario screen: where the learner makes the call, reads
// both envelopes, picks a recovery action and gets the verdict.
type Model struct {
	c    *common.Common
	sc   *scenarios.Scenario
	keys KeyMap

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
	// lower is the panel under the envelopes: the verdict, if any, above
	// the action chooser, in one scrolling pane.
	lower    *pane.Model
	lowerKey lowerKey
	actions  *actions.Model
	verdictP *verdict.Model

	chosen  rules.Action
	verdict *scenarios.Verdict
	// polled is the student's answer to the room's open poll of this
	// scenario, whose verdict waits for the teacher's reveal (poll.go).
	polled rules.Action
	// caveat explains, under a bad style, that the verdict is graded on
	// what really happened and what the response on screen fails to say.
	caveat *verdict.Caveat
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

// New builds the screen on scenario sc, in its first style under its own
// revision, before any call.
func New(c *common.Common, sc *scenarios.Scenario) *Model {
	m := &Model{
		c:        c,
		sc:       sc,
		keys:     DefaultKeyMap(),
		style:    sc.FirstStyle(),
		rev:      sc.Revision(),
		view:     wire.ViewMCP,
		runs:     map[runKey]*run{},
		focus:    focusRequest,
		lower:    pane.New(c),
		actions:  actions.New(c),
		verdictP: verdict.New(c),
	}
	if !sc.HasStyle(m.style) && len(sc.Styles) > 0 {
		m.style = sc.Styles[0]
	}
	if p := c.RoomPoll(common.ScenarioKey(sc.ID)); p.Open() && len(p.Answer) == 1 && p.Answer[0] < len(rules.Actions) {
		m.polled = rules.Actions[p.Answer[0]] // chosen on an earlier screen of this poll
	}
	m.keys.Exercise.SetEnabled(sc.InSubagent)
	m.panes[0], m.panes[1] = pane.New(c), pane.New(c)
	m.setFocus(focusRequest)
	m.refreshPanes()
	return m
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Crumb implements common.Screen: the scenario's id.
func (m *Model) Crumb() string { return m.sc.ID }

// Close implements common.Closer: it releases every session the screen
// opened.
func (m *Model) Close() {
	m.closed = true
	for _, r := range m.runs {
		if r.sess != nil {
			_ = r.sess.Close()
		}
	}
}

// SetSize implements common.Screen.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.layout()
}

// Back implements common.BackHandler: esc leaves the comparison before
// the root leaves the screen.
func (m *Model) Back() bool {
	if m.diffOn {
		m.closeDiff()
		m.layout()
		return true
	}
	return false
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyMsg:
		cmd = m.handleKey(msg)
	case tea.MouseMsg:
		if !m.mouse(msg) {
			return m, nil
		}
	case actions.ChosenMsg:
		if !msg.From(m.actions) {
			return m, nil
		}
		cmd = m.choose(msg.Action)
	case common.RoomMsg:
		cmd = m.onRoom(msg.Item)
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
		m.diffDone(msg)
	default:
		return m, nil
	}
	m.layout()
	return m, cmd
}

func (m *Model) handleKey(k tea.KeyMsg) tea.Cmd {
	ks := m.keys
	switch {
	case key.Matches(k, ks.Call):
		if m.diffOn {
			m.closeDiff()
		}
		return m.call()
	case key.Matches(k, m.actions.KeyMap.Choose):
		// Chosen here, in key order, not through the chooser's ChosenMsg:
		// keys that arrive together ("12" in one packet, split by
		// common.EachKey) would send their messages from commands Bubble
		// Tea runs at once, so the second could be chosen first, and in a
		// class poll the first choice is the answer.
		if a, ok := m.actions.Action(k); ok {
			return m.choose(a)
		}
		return nil
	case m.verdict != nil && key.Matches(k, m.verdictP.KeyMap.Reference):
		// g, from a verdict, opens its rule's section; without one it
		// scrolls the focused pane to the top.
		_, cmd := m.verdictP.Update(k)
		return cmd
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
			m.closeDiff()
			return nil
		}
		cmd := m.startDiff()
		m.refreshCaveat()
		return cmd
	case key.Matches(k, ks.Focus):
		m.setFocus((m.focus + 1) % focusCount)
	case key.Matches(k, ks.FocusRev):
		m.setFocus((m.focus + focusCount - 1) % focusCount)
	case key.Matches(k, ks.Check):
		ex, _ := m.shown()
		if ex == nil || len(ex.Response) == 0 {
			m.c.SetStatus(common.StatusWarn, "make the call first (enter); then c shows what errorlab check finds in the response")
			return nil
		}
		truth := m.sc.SituationAt(m.rev)
		return common.Send(common.OpenFindingsMsg{Title: m.sc.ID + " · " + m.style.Label() + " · " + string(m.rev),
			Spec: m.rev, Request: ex.Request, Response: ex.Response, Tools: mockTools(), Truth: &truth})
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

// mouse: the wheel scrolls the pane under the pointer, a left click
// focuses it. It reports whether anything changed.
func (m *Model) mouse(e tea.MouseMsg) bool {
	f := m.paneAt(e.X, e.Y)
	if f < 0 || e.Action != tea.MouseActionPress {
		return false
	}
	p := m.lower
	if f != focusLower {
		p = m.panes[f]
	}
	if e.Button == tea.MouseButtonLeft {
		if m.focus == f {
			return false
		}
		m.setFocus(f)
		return true
	}
	return p.Wheel(e)
}

// paneAt is the pane drawn at cell (x, y) of the screen (focusRequest,
// focusResponse or focusLower), or -1: the layout View draws.
func (m *Model) paneAt(x, y int) int {
	y -= m.headerH
	if y < 0 {
		return -1
	}
	if m.stacked {
		for i, p := range m.panes {
			if y < p.Height() {
				return i
			}
			y -= p.Height()
		}
	} else if h := m.panes[0].Height(); y < h {
		if x < m.panes[0].Width() {
			return focusRequest
		}
		return focusResponse
	} else {
		y -= h
	}
	if y < m.lower.Height() {
		return focusLower
	}
	return -1
}

func (m *Model) focused() *pane.Model {
	if m.focus == focusLower {
		return m.lower
	}
	return m.panes[m.focus]
}

func (m *Model) setFocus(f int) {
	m.focus = f
	if f != focusLower {
		m.lastPane = f
	}
	m.panes[0].SetFocused(f == focusRequest)
	m.panes[1].SetFocused(f == focusResponse)
	m.lower.SetFocused(f == focusLower)
}

func (m *Model) cur() *run { return m.runs[runKey{m.style, m.rev}] }

// clearVerdict removes the verdict: it belongs to a response that is no
// longer on screen.
func (m *Model) clearVerdict() {
	m.chosen, m.verdict, m.caveat = "", nil, nil
	m.toolCustomer = ""
	m.customerGen++
	m.lowerGen++
}

// styleNoEffect reports whether, under the current revision, the call is
// refused before any tool runs, so every style gets the same response.
func (m *Model) styleNoEffect() bool {
	return m.sc.TruthAt(m.rev).Expected.Layer == rules.LayerProtocol
}

// badStyleMatters reports whether a bad style is selected and changes
// the response under the current revision.
func (m *Model) badStyleMatters() bool {
	return !m.style.Good() && !m.styleNoEffect()
}

func (m *Model) cycleStyle() tea.Cmd {
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
	next := common.Next(styles, cur)
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

func (m *Model) cycleRevision() tea.Cmd {
	m.rev = common.Next(rules.Revisions, m.rev)
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

// choose grades action a on the response on screen, records the answer
// and says in the status how it stands.
func (m *Model) choose(a rules.Action) tea.Cmd {
	if !m.hasResponse() {
		m.c.SetStatus(common.StatusWarn, "make the call first (enter) and read the response")
		return nil
	}
	if p, ok := m.inPoll(); ok {
		return m.choosePolled(p, a)
	}
	return m.grade(a)
}

// grade shows the verdict on action a, records it in the learner's
// progress and says in the status how it stands.
func (m *Model) grade(a rules.Action) tea.Cmd {
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

// seenLayer is the layer of the response the verdict is given on: the
// current exchange's, or in the comparison the bad side's. "" when there
// is none or it is not a JSON-RPC response.
func (m *Model) seenLayer() rules.Layer {
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

func (m *Model) hasResponse() bool {
	if r := m.cur(); r != nil && r.last != nil {
		return true
	}
	return m.diffOn && m.diff != nil
}
