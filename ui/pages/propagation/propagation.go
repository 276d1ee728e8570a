// Package propagation is the propagation exercise of a subagent scenario
// (LESSON-RULES §5), the page the root opens on common.OpenExerciseMsg:
// first the learner picks the report the subagent sends its coordinator,
// then what the coordinator does with it; the report errorlab's simulated
// subagent really sent is the model answer after step 1.
package propagation

import (
	"context"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
)

// Steps of the propagation exercise.
const (
	exReport = iota // what the subagent sends upward
	exCoordinator
)

type modelReportMsg struct {
	owner *Model
	run   *agent.CoordinatorRun
	err   error
}

// Model is the propagation exercise (a common.Screen), the second
// exercise of a subagent scenario (LESSON-RULES §5): first the learner
// picks the report the subagent sends its coordinator (scored with
// rules.ScoreReport), then what the coordinator does with it (scored with
// rules.Score). The report the engine's subagent really sent is the model
// answer after step 1.
type Model struct {
	// KeyMap is the page's own keys; the pane scrolls with the session's
	// navigation keys.
	KeyMap KeyMap

	c     *common.Common
	sc    *scenarios.Scenario
	cat   rules.Category // the category of the scenario's truth
	focus int

	report   rules.ReportKind
	reportV  *rules.Verdict
	action   rules.Action
	actionV  *rules.Verdict
	tries    [2]int
	anchors  [2][2]int // build output: first and end line of each verdict
	heads    [2]int    // build output: the line of each step's question
	scrollTo int       // step whose verdict to keep in view, -1 none
	toHead   int       // step whose question to keep at the top, -1 none
	// scrollTo and toHead hold until the learner scrolls, so a resize
	// (the help bar growing) keeps the same part in view.

	model    *agent.CoordinatorRun
	modelErr error
	delegErr error
	loading  bool

	pane    *pane.Model
	w, h    int
	header  string
	headerH int
}

// New builds the exercise on scenario sc (one a subagent plays: when it
// cannot be delegated, the model answer says why and shows the shape of a
// structured report). The model answer is computed by the command
// Activate returns.
func New(c *common.Common, sc *scenarios.Scenario) *Model {
	m := &Model{
		KeyMap: DefaultKeyMap(), c: c, sc: sc,
		cat:  sc.TruthAt(sc.Revision()).Expected.ErrorCategory,
		pane: pane.New(c), scrollTo: -1, toHead: -1,
	}
	if _, err := sc.Delegation(); err != nil {
		m.delegErr = err
	}
	m.pane.SetFocused(true)
	m.rebuild()
	return m
}

// Init implements tea.Model; the work starts in Activate.
func (m *Model) Init() tea.Cmd { return nil }

// Crumb implements common.Screen.
func (m *Model) Crumb() string { return "Propagation exercise" }

// Activate plays the scenario as a subagent job once, for the model
// answer.
func (m *Model) Activate() tea.Cmd {
	if m.model != nil || m.loading || m.delegErr != nil || m.modelErr != nil {
		return nil
	}
	m.loading = true
	sc, owner := m.sc, m
	return common.Safe("the subagent's run", func() tea.Msg {
		d, err := sc.Delegation()
		if err != nil {
			return modelReportMsg{owner: owner, err: err}
		}
		ctx, cancel := context.WithTimeout(context.Background(), common.AgentsTimeout)
		defer cancel()
		run, err := agent.Delegate(ctx, d)
		return modelReportMsg{owner: owner, run: run, err: err}
	})
}

// SetSize implements common.Screen: the page's area in cells.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.layout()
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding {
	choose := common.Brief(m.KeyMap.Choose, "choose a report")
	if m.focus == exCoordinator {
		choose = common.Brief(m.KeyMap.Choose, "choose the coordinator's move")
	} else {
		choose.SetHelp("1-4", "choose a report")
	}
	bs := []key.Binding{choose}
	if m.reportV != nil {
		bs = append(bs, m.KeyMap.Focus)
	}
	return append(bs, common.Brief(m.c.Nav.Down, "scroll"), common.Brief(m.c.Nav.Up, "scroll"))
}

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding {
	n := m.c.Nav
	return [][]key.Binding{{m.KeyMap.Choose, m.KeyMap.Focus}, {n.Up, n.Down, n.PageUp, n.PageDown, n.Top, n.Bottom}}
}

// Update implements tea.Model: the digits answer, tab changes step, the
// navigation keys and the mouse wheel scroll.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		m.handleKey(msg)
	case tea.MouseMsg:
		// The page has one scrollable area: the wheel scrolls it wherever
		// the pointer is, and lets go of the part held in view.
		if !m.pane.Wheel(msg) {
			return m, nil
		}
		m.scrollTo, m.toHead = -1, -1
	case modelReportMsg:
		if msg.owner != m {
			return m, nil
		}
		m.loading = false
		m.model, m.modelErr = msg.run, msg.err
		if msg.err != nil {
			m.c.SetStatus(common.StatusError, "the subagent could not play %s: %v", m.sc.ID, msg.err)
		}
		m.rebuild()
	case common.PanicMsg:
		if m.loading {
			m.loading = false
			m.modelErr = fmt.Errorf("%s", msg.What)
			m.rebuild()
		}
	default:
		return m, nil
	}
	m.layout()
	return m, nil
}

func (m *Model) handleKey(k tea.KeyMsg) {
	switch {
	case key.Matches(k, m.KeyMap.Choose):
		m.choose(int(k.String()[0] - '0'))
	case key.Matches(k, m.KeyMap.Focus):
		if m.reportV == nil {
			m.c.SetStatus(common.StatusWarn, "answer step 1 first: which report should the subagent send? (1-4)")
			return
		}
		m.focus = 1 - m.focus
		m.toHead, m.scrollTo = m.focus, -1
		m.rebuild()
	default:
		if m.pane.Scroll(m.c.Nav, k) {
			m.scrollTo, m.toHead = -1, -1
		}
	}
}

func (m *Model) choose(n int) {
	switch m.focus {
	case exReport:
		if n < 1 || n > len(rules.ReportKinds) {
			m.c.SetStatus(common.StatusWarn, "step 1 has %d reports: press 1-%d", len(rules.ReportKinds), len(rules.ReportKinds))
			return
		}
		k := rules.ReportKinds[n-1]
		v := rules.ScoreReport(k)
		m.report, m.reportV = k, &v
		m.tries[exReport]++
		if v.Grade.Correct() {
			m.focus = exCoordinator
			m.toHead, m.scrollTo = exCoordinator, -1
			m.c.SetStatus(common.StatusOK, "correct · model answer above (k) · step 2: the coordinator's move (1-9)")
		} else {
			m.scrollTo, m.toHead = exReport, -1
			m.c.SetStatus(common.StatusError, "%s breaks %s · try another (1-4), or tab to step 2", k.Title(), v.Rule.Ref())
		}
	case exCoordinator:
		if n < 1 || n > len(rules.Actions) {
			return
		}
		a := rules.Actions[n-1]
		v := rules.Score(rules.CoordinatorSituation(m.cat, 0), a)
		m.action, m.actionV = a, &v
		m.tries[exCoordinator]++
		if v.Grade.Correct() {
			m.c.SetStatus(common.StatusOK, "%s: %s · esc goes back to the scenario", common.GradeWord(v.Grade), a.Title())
		} else {
			m.c.SetStatus(common.StatusError, "not the best move for the coordinator: %s · try another number", a.Title())
		}
		m.scrollTo, m.toHead = exCoordinator, -1
	}
	m.rebuild()
}

// rebuild replaces the content, keeping the scroll position.
func (m *Model) rebuild() {
	title := "Step 1 of 2 · what the subagent reports"
	if m.focus == exCoordinator {
		title = "Step 2 of 2 · what the coordinator does"
	}
	m.pane.SetBuild(title, "", m.build)
	m.follow()
}

// follow brings the verdict just given, or the question of the step
// just focused, into view.
func (m *Model) follow() {
	_, ih := m.pane.Inner()
	if ih <= 0 {
		return
	}
	if m.toHead >= 0 {
		m.pane.Viewport().SetYOffset(max(m.heads[m.toHead]-1, 0))
		return
	}
	if m.scrollTo < 0 {
		return
	}
	a := m.anchors[m.scrollTo]
	if a[1] <= a[0] {
		return
	}
	y := m.pane.Viewport().YOffset
	if a[1] > y+ih {
		y = a[1] - ih
	}
	if a[0] < y {
		y = a[0]
	}
	m.pane.Viewport().SetYOffset(y)
}
