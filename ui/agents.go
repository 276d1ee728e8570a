package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/jsonview"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/components/timeline"
)

// Real pauses between auto-played steps: a pause is the virtual gap at
// the chosen speed, never longer than maxPause (so a long wait never
// feels stuck) and never shorter than minPause (so steps at the same
// virtual moment still appear one after the other). maxPause is long
// enough that 0.5×, 1× and 2× look different on the lessons' backoff
// waits (1 s, 2 s, 4 s).
const (
	maxPause = 6 * time.Second
	minPause = 120 * time.Millisecond
)

// agentSpeeds are the play speeds, as multiples of virtual time.
var agentSpeeds = []float64{0.5, 1, 2, 4, 10}

// speedLabel is "0.5×", "4×".
func speedLabel(s float64) string { return fmt.Sprintf("%g×", s) }

// Sides and focus targets of the agents screen.
const (
	sideNaive = iota
	sideInformed
	focusSummary
	agentsFocusCount
)

// Modes of the agents screen.
type agentsMode int

const (
	modeTimelines agentsMode = iota // the two timelines and the summary
	modeExpanded                    // one step's raw request and response
	modeSubagent                    // the subagent's run, its report, the coordinator
)

// Focus targets of the subagent view.
const (
	subFocusTimeline = iota
	subFocusReport
	subFocusDecision
	subFocusCount
)

type agentsLoadedMsg struct {
	owner    *agentsScreen
	load     int // the screen's load generation it answers
	runs     [2]*agent.Run
	coord    *agent.CoordinatorRun
	coordErr error
	err      error
}

type agentsTickMsg struct {
	owner *agentsScreen
	gen   int
}

// agentsScreen plays the naive and the informed agent on the same
// scenario (or the afternoon series) side by side, step by step on their
// virtual clocks, with a summary of both runs and the subagent view.
type agentsScreen struct {
	c            *common.Common
	keys         AgentsKeys
	id           string
	sc           *scenarios.Scenario // nil for a series
	series       bool
	title        string
	situation    string
	sitCut       bool // the header shows the situation only in part, or not at all
	fromScenario bool
	// rev is the spec revision the runs play under; "" for a series
	// whose scenarios each play their own.
	rev  rules.Revision
	load int // counts loads; a late answer to an older one is dropped

	loading bool
	loaded  bool
	err     error
	runs    [2]*agent.Run
	styles  [2]string // the style each agent met, for the headers

	coord    *agent.CoordinatorRun
	coordErr error // Delegate failed
	delegErr error // the scenario cannot be delegated

	sides   [2]*timeline.Model
	summary *pane.Model
	focus   int

	now     float64 // virtual time of the latest revealed step
	playing bool
	speed   int // index into agentSpeeds
	gen     int // invalidates pending ticks
	// tickAt is when the pending tick was scheduled (real time), so a
	// speed change reschedules only what is left of the pause.
	tickAt time.Time

	mode     agentsMode
	expBack  agentsMode     // where esc from the expanded step returns
	exp      [2]*pane.Model // request, response
	expFocus int
	expWho   string
	expStep  agent.Step
	expPart  timeline.Part

	sub      *timeline.Model
	report   *pane.Model
	decision *pane.Model
	subFocus int

	w, h    int
	header  string
	headerH int
	stacked bool
	closed  bool
}

func newAgentsScreen(c *common.Common, id string, fromScenario bool, rev rules.Revision) *agentsScreen {
	m := &agentsScreen{
		c: c, keys: DefaultAgentsKeys(), id: id, fromScenario: fromScenario, rev: rev,
		speed:   1,
		summary: pane.New(c), report: pane.New(c), decision: pane.New(c),
		sub: timeline.New(c),
	}
	m.exp[0], m.exp[1] = pane.New(c), pane.New(c)
	m.sides[sideNaive], m.sides[sideInformed] = timeline.New(c), timeline.New(c)
	for _, t := range m.sides {
		t.SetEmpty("Loading the runs…")
	}
	switch {
	case id == scenarios.Afternoon.ID:
		m.series = true
		m.title = scenarios.Afternoon.Title
		var titles []string
		for _, sid := range scenarios.Afternoon.IDs {
			if s, ok := c.Catalog.Get(sid); ok {
				titles = append(titles, s.Title)
			}
		}
		m.situation = "Four support tasks in a row on one clock: " + strings.Join(titles, "; ") + "."
		m.delegErr = errors.New("it plays one scenario at a time; pick one marked ⇄ in the list")
		if m.rev == "" {
			m.rev = m.seriesRevision()
		}
	default:
		sc, ok := c.Catalog.Get(id)
		if !ok {
			m.err = errors.New(unknownScenario(c.Catalog, id))
			break
		}
		m.sc, m.title, m.situation = sc, sc.Title, common.OneLineText(sc.Situation)
		if m.rev == "" {
			m.rev = sc.Revision()
		}
		if _, err := sc.DelegationAt(m.rev); err != nil {
			m.delegErr = err
		}
	}
	if m.err != nil {
		for _, t := range m.sides {
			t.SetEmpty("✗ " + m.err.Error())
		}
	}
	m.setFocus(sideNaive)
	m.refreshTitles()
	return m
}

func (m *agentsScreen) Init() tea.Cmd { return nil }

func (m *agentsScreen) Crumb() string {
	if m.fromScenario {
		return "Agents"
	}
	return m.id
}

// Close stops the clock; pending ticks and a late load are ignored.
func (m *agentsScreen) Close() {
	m.closed = true
	m.playing = false
	m.gen++
}

// seriesRevision is the revision the series' scenarios share, or "" when
// they differ (each then plays its own).
func (m *agentsScreen) seriesRevision() rules.Revision {
	var rev rules.Revision
	for _, sid := range scenarios.Afternoon.IDs {
		s, ok := m.c.Catalog.Get(sid)
		if !ok {
			continue
		}
		switch {
		case rev == "":
			rev = s.Revision()
		case rev != s.Revision():
			return ""
		}
	}
	return rev
}

// seriesTasks is the series' tasks under rev ("" = each scenario's own).
func seriesTasks(cat *scenarios.Catalog, id string, rev rules.Revision) ([]agent.Task, error) {
	_, tasks, err := cat.SeriesTasks(id)
	if err != nil || rev == "" {
		return tasks, err
	}
	for i, sid := range scenarios.Afternoon.IDs {
		if s, ok := cat.Get(sid); ok && i < len(tasks) {
			tasks[i] = s.TaskAt(rev)
		}
	}
	return tasks, nil
}

// revLabel is the revision the runs play under, for the header.
func (m *agentsScreen) revLabel() string {
	if m.rev == "" {
		return "each scenario's own"
	}
	return string(m.rev)
}

// Activate computes both runs (and the subagent's) once, in a command,
// under the screen's spec revision.
func (m *agentsScreen) Activate() tea.Cmd {
	if m.loaded || m.loading || m.err != nil || m.closed {
		return nil
	}
	m.loading = true
	m.load++
	owner, cat, id, sc, series, rev, load := m, m.c.Catalog, m.id, m.sc, m.series, m.rev, m.load
	canDelegate := m.delegErr == nil
	return common.Safe("playing the agents", func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), common.AgentsTimeout)
		defer cancel()
		msg := agentsLoadedMsg{owner: owner, load: load}
		kinds := [2]agent.Kind{agent.Naive, agent.Informed}
		if series {
			tasks, err := seriesTasks(cat, id, rev)
			if err != nil {
				msg.err = err
				return msg
			}
			for i, k := range kinds {
				if msg.runs[i], msg.err = agent.PlaySeries(ctx, id, tasks, k); msg.err != nil {
					return msg
				}
			}
			return msg
		}
		task := sc.TaskAt(rev)
		for i, k := range kinds {
			if msg.runs[i], msg.err = agent.Play(ctx, task, k); msg.err != nil {
				msg.err = fmt.Errorf("%s agent: %w", k, msg.err)
				return msg
			}
		}
		if canDelegate {
			if d, err := sc.DelegationAt(rev); err == nil {
				msg.coord, msg.coordErr = agent.Delegate(ctx, d)
			}
		}
		return msg
	})
}

func (m *agentsScreen) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.layout()
}

// Back closes the expanded step or the subagent view before the root
// leaves the screen.
func (m *agentsScreen) Back() bool {
	switch m.mode {
	case modeExpanded:
		m.mode = m.expBack
		m.layout()
		return true
	case modeSubagent:
		m.mode = modeTimelines
		m.layout()
		return true
	}
	return false
}

func (m *agentsScreen) ShortHelp() []key.Binding {
	k, n := m.keys, m.c.Nav
	switch m.mode {
	case modeExpanded:
		return []key.Binding{common.Brief(k.Focus, "other pane"), common.Brief(n.Down, "scroll"), common.Brief(m.c.Keys.Copy, "copy"), common.Brief(m.c.Keys.Write, "write")}
	case modeSubagent:
		return []key.Binding{common.Brief(n.Down, "step"), common.Brief(n.Up, "step"), common.Brief(k.Expand, "raw exchange"), common.Brief(k.Focus, "pane"), common.Brief(m.c.Keys.Copy, "copy report"), common.Brief(k.Subagent, "close")}
	}
	speed := key.NewBinding(key.WithKeys("+", "-"), key.WithHelp("+/-", "speed"))
	return []key.Binding{
		common.Brief(k.Step, "step"), common.Brief(k.Play, "play"), speed, common.Brief(k.All, "all"), common.Brief(k.Focus, "side"),
		common.Brief(k.Expand, "raw"), m.subagentHelp(common.Brief(k.Subagent, "subagent")), common.Brief(k.Revision, "spec"), k.Restart, key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "select")),
	}
}

// subagentHelp is b, or a disabled copy (help leaves it out) where the
// subagent view cannot open: a series, or a scenario that cannot be
// delegated.
func (m *agentsScreen) subagentHelp(b key.Binding) key.Binding {
	if m.delegErr != nil {
		b.SetEnabled(false)
	}
	return b
}

func (m *agentsScreen) FullHelp() [][]key.Binding {
	k, n, g := m.keys, m.c.Nav, m.c.Keys
	switch m.mode {
	case modeExpanded:
		return [][]key.Binding{
			{common.Brief(k.Focus, "request/response"), common.Brief(k.Expand, "close")},
			{n.Up, n.Down, n.PageUp, n.PageDown, n.Top, n.Bottom},
			{common.Brief(g.Copy, "copy envelope"), common.Brief(g.Write, "write exchange")},
		}
	case modeSubagent:
		return [][]key.Binding{
			{common.Brief(n.Up, "previous step"), common.Brief(n.Down, "next step"), common.Brief(k.Expand, "raw exchange")},
			{common.Brief(k.Focus, "next pane"), k.FocusRev, n.PageUp, n.PageDown},
			{common.Brief(g.Copy, "copy report"), common.Brief(k.Subagent, "close subagent view")},
		}
	}
	return [][]key.Binding{
		{k.Step, k.Play, k.Faster, k.Slower, k.All, k.Restart, k.Revision},
		{k.Focus, k.FocusRev, common.Brief(n.Up, "previous step"), common.Brief(n.Down, "next step"), n.PageUp, common.Brief(n.Top, "first step")},
		{k.Expand, m.subagentHelp(k.Subagent), common.Brief(g.Copy, "copy (expanded)"), common.Brief(g.Write, "write (expanded)")},
	}
}

func (m *agentsScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyMsg:
		cmd = m.handleKey(msg)
	case agentsLoadedMsg:
		if msg.owner != m || msg.load != m.load {
			return m, nil
		}
		m.onLoaded(msg)
	case agentsTickMsg:
		if msg.owner != m || msg.gen != m.gen || !m.playing {
			return m, nil
		}
		cmd = m.tick()
	case common.PanicMsg:
		if m.loading {
			m.loading = false
			m.err = errors.New(msg.What)
			for _, t := range m.sides {
				t.SetEmpty("✗ " + msg.What)
				t.Refresh()
			}
		}
	default:
		return m, nil
	}
	m.refreshTitles()
	m.layout()
	return m, cmd
}

// onLoaded sets up the timelines once the runs are computed.
func (m *agentsScreen) onLoaded(msg agentsLoadedMsg) {
	m.loading = false
	if msg.err != nil {
		m.err = msg.err
		m.c.SetStatus(common.StatusError, "the agents could not play %s: %v", m.id, msg.err)
		for _, t := range m.sides {
			t.SetEmpty("✗ " + msg.err.Error())
			t.Refresh()
		}
		return
	}
	m.loaded = true
	m.runs, m.coord, m.coordErr = msg.runs, msg.coord, msg.coordErr
	longest := 0.0
	for _, r := range m.runs {
		longest = max(longest, r.VirtualSeconds)
	}
	if m.coord != nil {
		longest = max(longest, m.coord.Subagent.VirtualSeconds)
	}
	tw := timeline.TimeColumn(longest)
	for i, r := range m.runs {
		m.styles[i] = r.Style
		var parts []timeline.Part
		if len(r.Parts) > 0 {
			var styles []string
			n := 0
			for j, p := range r.Parts {
				parts = append(parts, timeline.Part{Start: n, Scenario: p.Scenario, Style: p.Style,
					Label: fmt.Sprintf("%d/%d %s · %s style", j+1, len(r.Parts), p.Scenario, common.StyleLabel(p.Style))})
				n += len(p.Steps)
				if !slices.Contains(styles, p.Style) {
					styles = append(styles, p.Style)
				}
			}
			m.styles[i] = strings.Join(styles, "/")
		}
		t := m.sides[i]
		t.SetEmpty("Nothing yet. space reveals the next step on both sides in virtual-time order; p plays them at the chosen speed; G shows everything.")
		t.SetSteps(r.Steps, parts, tw)
	}
	if m.coord != nil {
		m.sub.SetEmpty("The subagent made no calls.")
		m.sub.SetSteps(m.coord.Subagent.Steps, nil, tw)
		m.sub.RevealAll()
		m.sub.Select(0)
	}
	m.refreshSummary()
}

func (m *agentsScreen) handleKey(k tea.KeyMsg) tea.Cmd {
	switch m.mode {
	case modeExpanded:
		return m.expandedKey(k)
	case modeSubagent:
		return m.subagentKey(k)
	}
	ks, nav := m.keys, m.c.Nav
	if !m.loaded {
		if key.Matches(k, ks.Step, ks.Play, ks.All, ks.Restart, ks.Revision, ks.Expand, ks.Subagent) {
			if m.err != nil {
				m.c.SetStatus(common.StatusError, "%v", m.err)
			} else {
				m.c.SetStatus(common.StatusInfo, "still running the agents…")
			}
		}
		return nil
	}
	switch {
	case key.Matches(k, ks.Step):
		m.pause()
		if !m.step() {
			m.c.SetStatus(common.StatusInfo, "both runs are fully shown: 0 restarts, r plays them under another spec revision")
		}
	case key.Matches(k, ks.Play):
		return m.togglePlay()
	case key.Matches(k, ks.Faster), key.Matches(k, ks.Slower):
		old := m.speed
		if key.Matches(k, ks.Faster) {
			m.speed = min(m.speed+1, len(agentSpeeds)-1)
		} else {
			m.speed = max(m.speed-1, 0)
		}
		edge := ""
		if m.speed == old {
			edge = " (the fastest)"
			if key.Matches(k, ks.Slower) {
				edge = " (the slowest)"
			}
		}
		m.c.SetStatus(common.StatusInfo, "speed %s of virtual time%s%s", m.speedText(), edge, m.shortenNote())
		if m.playing && m.speed != old {
			return m.reschedule()
		}
	case key.Matches(k, ks.Restart):
		m.restart()
		m.c.SetStatus(common.StatusInfo, "restarted at t=0: space steps, p plays")
	case key.Matches(k, ks.Revision):
		return m.cycleRevision()
	case key.Matches(k, ks.All):
		m.pause()
		for _, t := range m.sides {
			t.RevealAll()
		}
		m.now = m.endTime()
		m.refreshSummary()
	case key.Matches(k, ks.Focus):
		m.setFocus((m.focus + 1) % agentsFocusCount)
	case key.Matches(k, ks.FocusRev):
		m.setFocus((m.focus + agentsFocusCount - 1) % agentsFocusCount)
	case key.Matches(k, ks.Expand):
		m.expandFrom(modeTimelines)
	case key.Matches(k, ks.Subagent):
		m.openSubagent()
	case m.focus == focusSummary:
		m.summary.Scroll(nav, k)
	default:
		m.sides[m.focus].Update(k)
	}
	return nil
}

// step reveals the next step by virtual time: the earlier of the two
// sides' next steps, or both when they happen at the same moment.
func (m *agentsScreen) step() bool {
	tn, okN := m.sides[sideNaive].NextT()
	ti, okI := m.sides[sideInformed].NextT()
	switch {
	case !okN && !okI:
		return false
	case okN && (!okI || tn < ti-timeline.TimeEps):
		m.sides[sideNaive].Reveal()
		m.now = tn
	case okI && (!okN || ti < tn-timeline.TimeEps):
		m.sides[sideInformed].Reveal()
		m.now = ti
	default:
		m.sides[sideNaive].Reveal()
		m.sides[sideInformed].Reveal()
		m.now = max(tn, ti)
	}
	m.refreshSummary()
	return true
}

// nextT is the virtual time of the next step on either side.
func (m *agentsScreen) nextT() (float64, bool) {
	tn, okN := m.sides[sideNaive].NextT()
	ti, okI := m.sides[sideInformed].NextT()
	switch {
	case okN && okI:
		return min(tn, ti), true
	case okN:
		return tn, true
	case okI:
		return ti, true
	}
	return 0, false
}

func (m *agentsScreen) done() bool { return m.sides[0].Done() && m.sides[1].Done() }

func (m *agentsScreen) endTime() float64 {
	end := 0.0
	for _, r := range m.runs {
		if r != nil {
			end = max(end, r.VirtualSeconds)
		}
	}
	return end
}

func (m *agentsScreen) pause() {
	if m.playing {
		m.playing = false
		m.gen++
	}
}

func (m *agentsScreen) restart() {
	m.pause()
	m.gen++
	m.now = 0
	for _, t := range m.sides {
		t.Reset()
	}
	m.refreshSummary()
}

func (m *agentsScreen) togglePlay() tea.Cmd {
	if m.playing {
		m.pause()
		m.c.SetStatus(common.StatusInfo, "paused at %s: space steps, p plays on", timeline.TimeLabel(m.now))
		return nil
	}
	if m.done() {
		m.restart()
	}
	m.playing = true
	m.gen++
	m.c.SetStatus(common.StatusInfo, "playing at %s of virtual time: p pauses, +/- changes the speed%s", m.speedText(), m.shortenNote())
	return m.schedule()
}

// speedText is "1×", or "1× · waits over 6s shortened" when the runs
// have a wait that maxPause cuts at this speed.
func (m *agentsScreen) speedText() string {
	s := agentSpeeds[m.speed]
	if m.longestGap()/s > maxPause.Seconds()+timeline.TimeEps {
		return fmt.Sprintf("%s · waits over %gs shortened", speedLabel(s), maxPause.Seconds()*s)
	}
	return speedLabel(s)
}

// shortenNote explains the shortening in the status line, or "".
func (m *agentsScreen) shortenNote() string {
	s := agentSpeeds[m.speed]
	if m.longestGap()/s > maxPause.Seconds()+timeline.TimeEps {
		return fmt.Sprintf(" · auto-play waits at most %gs, so a longer wait is shown in %gs (the clock still counts it all)", maxPause.Seconds(), maxPause.Seconds())
	}
	return ""
}

// longestGap is the longest virtual gap between two steps in reveal
// order (both sides merged), 0 before the runs load.
func (m *agentsScreen) longestGap() float64 {
	var ts []float64
	for _, t := range m.sides {
		for _, st := range t.Steps() {
			ts = append(ts, st.T)
		}
	}
	slices.Sort(ts)
	gap, prev := 0.0, 0.0
	for _, t := range ts {
		gap = max(gap, t-prev)
		prev = t
	}
	return gap
}

// schedule waits the virtual gap to the next step at the chosen speed,
// clamped to [minPause, maxPause], then ticks.
func (m *agentsScreen) schedule() tea.Cmd {
	next, ok := m.nextT()
	if !ok {
		return nil
	}
	m.tickAt = time.Now()
	return agentsTick(m, m.gen, pauseFor(next-m.now, agentSpeeds[m.speed]))
}

// reschedule replaces the pending tick after a speed change: the pause
// to the next step at the new speed, less the time already waited.
func (m *agentsScreen) reschedule() tea.Cmd {
	next, ok := m.nextT()
	if !ok {
		return nil
	}
	m.gen++ // the pending tick is now stale
	waited := time.Since(m.tickAt)
	d := max(pauseFor(next-m.now, agentSpeeds[m.speed])-waited, minPause)
	return agentsTick(m, m.gen, d)
}

// cycleRevision plays the runs again under the next spec revision, from
// t=0.
func (m *agentsScreen) cycleRevision() tea.Cmd {
	cur := m.rev
	if cur == "" {
		cur = rules.DefaultRevision
	}
	i := slices.Index(rules.Revisions, cur)
	m.rev = rules.Revisions[(i+1)%len(rules.Revisions)]
	m.pause()
	m.gen++
	m.mode = modeTimelines
	m.loaded, m.loading, m.err = false, false, nil
	m.runs, m.coord, m.coordErr = [2]*agent.Run{}, nil, nil
	m.styles = [2]string{}
	m.now = 0
	for _, t := range m.sides {
		t.SetSteps(nil, nil, 0)
		t.SetEmpty("Running both agents under " + string(m.rev) + "…")
		t.Refresh()
	}
	m.refreshSummary()
	m.c.SetStatus(common.StatusInfo, "playing both agents again under spec %s: %s", m.rev, common.RevisionBlurb(m.rev))
	return m.Activate()
}

// pauseFor is the real pause for a virtual gap at a speed.
func pauseFor(gap, speed float64) time.Duration {
	d := time.Duration(max(gap, 0) / speed * float64(time.Second))
	return min(max(d, minPause), maxPause)
}

// agentsTick is the auto-play clock, a variable so tests can replace it.
var agentsTick = func(owner *agentsScreen, gen int, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return agentsTickMsg{owner: owner, gen: gen} })
}

func (m *agentsScreen) tick() tea.Cmd {
	m.step()
	if m.done() {
		m.playing = false
		m.gen++
		m.c.SetStatus(common.StatusOK, "both runs played out at %s: the summary compares them", timeline.TimeLabel(m.now))
		return nil
	}
	return m.schedule()
}

func (m *agentsScreen) setFocus(f int) {
	m.focus = f
	m.sides[sideNaive].SetFocused(f == sideNaive)
	m.sides[sideInformed].SetFocused(f == sideInformed)
	m.summary.SetFocused(f == focusSummary)
}

// expandFrom opens the selected step's raw exchange.
func (m *agentsScreen) expandFrom(from agentsMode) {
	var t *timeline.Model
	who := ""
	switch from {
	case modeSubagent:
		t, who = m.sub, "subagent"
	default:
		if m.focus == focusSummary {
			m.c.SetStatus(common.StatusWarn, "select a call on one side first (tab to a timeline, j/k)")
			return
		}
		t = m.sides[m.focus]
		who = string(m.runs[m.focus].Agent)
	}
	s := t.Selected()
	if s == nil {
		m.c.SetStatus(common.StatusWarn, "nothing shown yet: space reveals the next step")
		return
	}
	if s.Exchange == nil {
		m.c.SetStatus(common.StatusWarn, "a %s has no exchange: select a call (→) or an escalation (⇡)", s.Kind)
		return
	}
	m.pause()
	m.expStep, m.expWho = *s, who
	m.expPart = timeline.Part{Scenario: m.id, Style: string(mockserver.StyleGood)}
	if from != modeSubagent {
		m.expPart.Style = m.styles[m.focus]
	}
	if p, ok := t.PartOf(t.Cursor()); ok {
		m.expPart = p
	}
	m.expBack, m.mode = from, modeExpanded
	st := m.c.Styles
	ex := *s.Exchange
	reqDoc, respDoc := jsonview.JSON(wire.Pretty(ex.Request)), jsonview.JSON(wire.Pretty(ex.Response))
	head := fmt.Sprintf("%s · %s · %s", m.whoLabel(), timeline.TimeLabel(s.T), s.Tool)
	m.exp[0].SetContent("Request · "+head, string(ex.Request), func(w int) string { return reqDoc.Render(w, st) })
	m.exp[1].SetContent("Response · "+outcomePlain(*s), string(ex.Response), func(w int) string { return respDoc.Render(w, st) })
	m.setExpFocus(1)
	m.c.SetStatus(common.StatusInfo, "the %s's %s at %s, exact bytes pretty-printed · esc closes", m.whoLabel(), s.Kind, timeline.TimeLabel(s.T))
}

// whoLabel names the agent of the expanded step: "naive agent",
// "informed agent" or "subagent".
func (m *agentsScreen) whoLabel() string {
	if m.expWho == "subagent" {
		return m.expWho
	}
	return m.expWho + " agent"
}

func (m *agentsScreen) setExpFocus(f int) {
	m.expFocus = f
	m.exp[0].SetFocused(f == 0)
	m.exp[1].SetFocused(f == 1)
}

func (m *agentsScreen) expandedKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Focus, m.keys.FocusRev):
		m.setExpFocus(1 - m.expFocus)
	case key.Matches(k, m.keys.Expand):
		m.Back()
	default:
		m.exp[m.expFocus].Scroll(m.c.Nav, k)
	}
	return nil
}

// openSubagent shows the subagent view, or says why there is none.
func (m *agentsScreen) openSubagent() {
	switch {
	case m.delegErr != nil:
		m.c.SetStatus(common.StatusWarn, "no subagent view: %v", m.delegErr)
		return
	case m.coordErr != nil:
		m.c.SetStatus(common.StatusError, "the subagent could not play %s: %v", m.id, m.coordErr)
		return
	case m.coord == nil:
		m.c.SetStatus(common.StatusWarn, "no subagent view: the subagent's run is missing")
		return
	}
	m.pause()
	m.mode = modeSubagent
	m.setSubFocus(subFocusTimeline)
	st := m.c.Styles
	cr := m.coord
	m.sub.SetTitle(fmt.Sprintf("Subagent · %s · %s", common.Plural(cr.Subagent.Calls, "call"), timeline.TimeLabel(cr.Subagent.VirtualSeconds)))
	reportRaw := cr.Subagent.FinalMessage
	doc := jsonview.JSON(wire.Pretty([]byte(reportRaw)))
	title := "The one report it sent (" + cr.Report.Status + ")"
	m.report.SetContent(title, reportRaw, func(w int) string { return doc.Render(w, st) })
	m.decision.SetContent("The coordinator's decision", "", func(w int) string { return strings.Join(m.decisionLines(w), "\n") })
	m.c.SetStatus(common.StatusInfo, "the same failure inside a subagent: local recovery, then one report (§5)")
}

func (m *agentsScreen) setSubFocus(f int) {
	m.subFocus = f
	m.sub.SetFocused(f == subFocusTimeline)
	m.report.SetFocused(f == subFocusReport)
	m.decision.SetFocused(f == subFocusDecision)
}

func (m *agentsScreen) subagentKey(k tea.KeyMsg) tea.Cmd {
	ks := m.keys
	switch {
	case key.Matches(k, ks.Subagent):
		m.mode = modeTimelines
	case key.Matches(k, ks.Focus):
		m.setSubFocus((m.subFocus + 1) % subFocusCount)
	case key.Matches(k, ks.FocusRev):
		m.setSubFocus((m.subFocus + subFocusCount - 1) % subFocusCount)
	case key.Matches(k, ks.Expand) && m.subFocus == subFocusTimeline:
		m.expandFrom(modeSubagent)
	case m.subFocus == subFocusTimeline:
		m.sub.Update(k)
	case m.subFocus == subFocusReport:
		m.report.Scroll(m.c.Nav, k)
	default:
		m.decision.Scroll(m.c.Nav, k)
	}
	return nil
}

// ClipText implements clipSource: the expanded step's request or
// response, or the subagent's report.
func (m *agentsScreen) ClipText() (string, string, bool, string) {
	switch m.mode {
	case modeExpanded:
		if m.expFocus == 0 {
			return m.exp[0].Raw(), m.whoLabel() + "'s request envelope", true, ""
		}
		return m.exp[1].Raw(), m.whoLabel() + "'s response envelope", true, ""
	case modeSubagent:
		return m.report.Raw(), "subagent's report", true, ""
	}
	if m.delegErr != nil {
		return "", "", false, "nothing to copy here: select a call and press enter to open its exchange"
	}
	return "", "", false, "nothing to copy here: select a call and press enter to open its exchange, or c for the subagent's report"
}

// ExportRecord implements exportSource: the expanded step's exchange.
func (m *agentsScreen) ExportRecord() (common.ExportRecord, string, bool, string) {
	if m.mode != modeExpanded || m.expStep.Exchange == nil {
		return common.ExportRecord{}, "", false, "nothing to write here: select a call and press enter to open its exchange first"
	}
	ex := *m.expStep.Exchange
	p := m.expPart
	sc, ok := m.c.Catalog.Get(p.Scenario)
	if !ok {
		return common.ExportRecord{}, "", false, "this run's scenario is not in the catalogue"
	}
	rec := sc.Record(ex, mockserver.Style(p.Style), 0)
	name := fmt.Sprintf("errorlab-%s-%s-agent-t%.1f-%s.json", p.Scenario, m.expWho, m.expStep.T, ex.Revision)
	return rec, name, true, ""
}
