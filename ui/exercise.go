package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/jsonview"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/styles"
)

// Steps of the propagation exercise.
const (
	exReport = iota // what the subagent sends upward
	exCoordinator
)

type modelReportMsg struct {
	owner *propagationScreen
	run   *agent.CoordinatorRun
	err   error
}

// propagationScreen is the second exercise of a subagent scenario
// (LESSON-RULES §5): first the learner picks the report the subagent
// sends its coordinator (scored with rules.ScoreReport), then what the
// coordinator does with it (scored with rules.Score). The report the
// engine's subagent really sent is the model answer after step 1.
type propagationScreen struct {
	c     *common.Common
	keys  ExerciseKeys
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

func newPropagationScreen(c *common.Common, sc *scenarios.Scenario) *propagationScreen {
	m := &propagationScreen{
		c: c, keys: DefaultExerciseKeys(), sc: sc,
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

func (m *propagationScreen) Init() tea.Cmd { return nil }

func (m *propagationScreen) Crumb() string { return "Propagation exercise" }

// Activate plays the scenario as a subagent job once, for the model
// answer.
func (m *propagationScreen) Activate() tea.Cmd {
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

func (m *propagationScreen) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.layout()
}

func (m *propagationScreen) ShortHelp() []key.Binding {
	choose := common.Brief(m.keys.Choose, "choose a report")
	if m.focus == exCoordinator {
		choose = common.Brief(m.keys.Choose, "choose the coordinator's move")
	} else {
		choose.SetHelp("1-4", "choose a report")
	}
	bs := []key.Binding{choose}
	if m.reportV != nil {
		bs = append(bs, m.keys.Focus)
	}
	return append(bs, common.Brief(m.c.Nav.Down, "scroll"), common.Brief(m.c.Nav.Up, "scroll"))
}

func (m *propagationScreen) FullHelp() [][]key.Binding {
	n := m.c.Nav
	return [][]key.Binding{{m.keys.Choose, m.keys.Focus}, {n.Up, n.Down, n.PageUp, n.PageDown, n.Top, n.Bottom}}
}

func (m *propagationScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		m.handleKey(msg)
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

func (m *propagationScreen) handleKey(k tea.KeyMsg) {
	switch {
	case key.Matches(k, m.keys.Choose):
		m.choose(int(k.String()[0] - '0'))
	case key.Matches(k, m.keys.Focus):
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

func (m *propagationScreen) choose(n int) {
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
func (m *propagationScreen) rebuild() {
	title := "Step 1 of 2 · what the subagent reports"
	if m.focus == exCoordinator {
		title = "Step 2 of 2 · what the coordinator does"
	}
	m.pane.SetBuild(title, "", m.build)
	m.follow()
}

// follow brings the verdict just given, or the question of the step
// just focused, into view.
func (m *propagationScreen) follow() {
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

func (m *propagationScreen) layout() {
	w, h := m.w, m.h
	st := m.c.Styles
	var hdr []string
	if w > 0 && h > 0 {
		t, _ := scenarios.TopicByID(m.sc.Topic)
		right := st.Muted.Render(strings.TrimSpace(m.sc.Section + " · " + t.Title))
		title := "Propagation exercise · " + m.sc.Title
		if ansi.StringWidth(title)+ansi.StringWidth(right)+2 > w {
			right = ""
		}
		hdr = append(hdr, common.JoinEnds(st.Title.Render(title), right, w))
		sit := strings.Split(ansi.Wrap(common.OneLineText(m.sc.Situation), w, ""), "\n")
		maxSit := 3
		if h < 24 {
			maxSit = 1
		}
		if len(sit) > maxSit {
			sit = sit[:maxSit]
			sit[maxSit-1] = ansi.Truncate(sit[maxSit-1], max(w-1, 0), "") + "…"
		}
		for _, l := range sit {
			hdr = append(hdr, st.Muted.Render(l))
		}
		if maxH := max(h/3, 1); len(hdr) > maxH {
			hdr = hdr[:maxH]
		}
	}
	m.header, m.headerH = strings.Join(hdr, "\n"), len(hdr)
	m.pane.SetSize(w, max(h-m.headerH, 0))
	m.follow()
}

// build renders both steps at width w and records where the verdicts are.
func (m *propagationScreen) build(w int) string {
	st := m.c.Styles
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	m.anchors = [2][2]int{}

	premise := fmt.Sprintf("The subagent's %s call failed with a %s error and its local retries (3 resends, after 1 s, 2 s and 4 s) are spent.", m.sc.Call.Tool, m.cat)
	if !m.sc.RetriesExhausted {
		premise = fmt.Sprintf("Here a retry would have worked, and then nothing goes upward: the coordinator never hears of a blip the subagent absorbed. Suppose instead the %s failure (%s) outlasted all 3 resends (after 1 s, 2 s and 4 s).", m.sc.Call.Tool, m.cat)
	}
	add(common.WrapLines(st.Plain, premise, w)...)
	add("")

	head := func(step int, text string) {
		m.heads[step] = len(out)
		mark, hs := "  ", st.Bold
		if m.focus == step {
			mark, hs = st.Cursor.Render("▸ "), st.Cursor
		}
		for i, l := range strings.Split(ansi.Wrap(text, max(w-2, 1), ""), "\n") {
			if i == 0 {
				add(mark + hs.Render(l))
				continue
			}
			add("  " + hs.Render(l))
		}
	}
	mark := func(chosen bool, v *rules.Verdict) string {
		if !chosen || v == nil {
			return "  "
		}
		if v.Grade.Correct() {
			return st.OK.Render("✓ ")
		}
		return st.Bad.Render("✗ ")
	}

	head(exReport, fmt.Sprintf("Step 1 of 2 · Which report should the subagent send its coordinator? (1-%d)", len(rules.ReportKinds)))
	for i, k := range rules.ReportKinds {
		add("  " + mark(m.reportV != nil && k == m.report, m.reportV) + st.ChipKey.Render(fmt.Sprint(i+1)) + " " + st.Bold.Render(k.Title()))
		for _, l := range strings.Split(jsonview.JSON(k.Example(m.sc.Call.Tool, m.cat)).Render(max(w-6, 1), st), "\n") {
			add("      " + l)
		}
	}
	if v := m.reportV; v != nil {
		add("")
		m.anchors[exReport][0] = len(out)
		n := slices.Index(rules.ReportKinds, m.report) + 1
		add(verdictHead(st, v.Grade, fmt.Sprintf("%d %s", n, m.report.Title()), w)...)
		add(common.WrapLead(st.Bold, "Rule:", v.Rule.Ref(), w, st.Accent)...)
		add(common.WrapLead(st.Bold, "Why:", v.Why, w, st.Plain)...)
		m.anchors[exReport][1] = len(out)
		add("")
		add(m.modelLines(w)...)
		add("")
		head(exCoordinator, "Step 2 of 2 · The coordinator receives the structured report. What should it do next? (1-9)")
		for i, a := range rules.Actions {
			add(ansi.Truncate("  "+mark(m.actionV != nil && a == m.action, m.actionV)+st.ChipKey.Render(fmt.Sprint(i+1))+" "+st.Bold.Render(a.Title())+st.Muted.Render(" · "+string(a)), w, "…"))
		}
		if v := m.actionV; v != nil {
			add("")
			m.anchors[exCoordinator][0] = len(out)
			n := slices.Index(rules.Actions, m.action) + 1
			add(verdictHead(st, v.Grade, fmt.Sprintf("%d %s (%s)", n, m.action.Title(), m.action), w)...)
			add(common.WrapLead(st.Bold, "Rule:", v.Rule.Ref(), w, st.Accent)...)
			add(common.WrapLead(st.Bold, "Why:", v.Why, w, st.Plain)...)
			m.anchors[exCoordinator][1] = len(out)
		}
	}
	return strings.Join(out, "\n")
}

// modelLines is the report the engine's subagent sent on this scenario,
// the model answer.
func (m *propagationScreen) modelLines(w int) []string {
	st := m.c.Styles
	switch {
	case m.delegErr != nil:
		out := common.WrapLead(st.Bold, "Model answer:", fmt.Sprintf("the simulated subagent cannot play this scenario (%v). A structured partial report has this shape:", m.delegErr), w, st.Plain)
		for _, l := range strings.Split(jsonview.JSON(rules.ReportStructured.Example(m.sc.Call.Tool, m.cat)).Render(max(w-2, 1), st), "\n") {
			out = append(out, "  "+l)
		}
		return out
	case m.modelErr != nil:
		return common.WrapLines(st.Bad, "✗ the subagent's run failed: "+m.modelErr.Error(), w)
	case m.model == nil:
		return common.WrapLines(st.Muted, "playing the scenario as a subagent job…", w)
	}
	out := common.WrapLead(st.Bold, "Model answer:", "the one report errorlab's simulated subagent sent its coordinator on this scenario.", w, st.Plain)
	doc := jsonview.JSON(wire.Pretty([]byte(m.model.Subagent.FinalMessage)))
	for _, l := range strings.Split(doc.Render(max(w-2, 1), st), "\n") {
		out = append(out, "  "+l)
	}
	return out
}

// verdictHead is "✓ Correct: …", "✓ Acceptable: …" or "✗ Not the best
// move: …", wrapped to w.
func verdictHead(st *styles.Styles, g rules.Grade, what string, w int) []string {
	head, gs := "✗ Not the best move:", st.Bad
	switch g {
	case rules.GradeBest:
		head, gs = "✓ Correct:", st.OK
	case rules.GradeAcceptable:
		head, gs = "✓ Acceptable:", st.Warn
	}
	return common.WrapLead(gs.Bold(true), head, what, w, st.Plain)
}

func (m *propagationScreen) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	var blocks []string
	if m.headerH > 0 {
		blocks = append(blocks, m.header)
	}
	if m.pane.Height() > 0 {
		blocks = append(blocks, m.pane.View())
	}
	return strings.Join(blocks, "\n")
}
