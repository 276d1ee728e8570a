// Package agents is the agents page: the naive and the informed simulated
// agent play the same scenario (or the afternoon series) side by side,
// step by step on their virtual clocks, with a summary comparing the two
// runs, any step's raw exchange (enter) and, on a scenario a subagent can
// play, the subagent view (c): its run, the one report it sent and what
// the coordinator did with it. The root opens it on common.OpenAgentsMsg.
package agents

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
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/components/timeline"
)

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
	owner    *Model
	load     int // the screen's load generation it answers
	runs     [2]*agent.Run
	coord    *agent.CoordinatorRun
	coordErr error
	err      error
}

type agentsTickMsg struct {
	owner *Model
	gen   int
}

// Model is the agents page (a common.Screen). It plays the naive and the
// informed agent on the same scenario (or the afternoon series) side by
// side, step by step on their virtual clocks, with a summary of both runs
// and the subagent view.
type Model struct {
	// KeyMap is the page's own keys; the timelines and panes scroll with
	// the session's navigation keys.
	KeyMap KeyMap

	c            *common.Common
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

// New builds the page on scenario id, or on the afternoon series
// (scenarios.Afternoon.ID). fromScenario says it is opened from that
// scenario's screen (the breadcrumb then reads "Agents"); rev is the spec
// revision to play, "" for the scenario's own (for the series, the one
// its scenarios share, or each its own). An unknown id shows the error in
// place of the runs. The runs are computed by the command Activate returns.
func New(c *common.Common, id string, fromScenario bool, rev rules.Revision) *Model {
	m := &Model{
		KeyMap: DefaultKeyMap(), c: c, id: id, fromScenario: fromScenario, rev: rev,
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
			m.err = errors.New(common.UnknownScenario(c.Catalog, id))
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

// Init implements tea.Model; the work starts in Activate.
func (m *Model) Init() tea.Cmd { return nil }

// Crumb implements common.Screen: "Agents" under a scenario, else the id.
func (m *Model) Crumb() string {
	if m.fromScenario {
		return "Agents"
	}
	return m.id
}

// Close stops the clock; pending ticks and a late load are ignored.
func (m *Model) Close() {
	m.closed = true
	m.playing = false
	m.gen++
}

// Activate computes both runs (and the subagent's) once, in a command,
// under the screen's spec revision.
func (m *Model) Activate() tea.Cmd {
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

// SetSize implements common.Screen: the page's area in cells.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.layout()
}

// Back closes the expanded step or the subagent view before the root
// leaves the screen.
func (m *Model) Back() bool {
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

// Update implements tea.Model: keys, the computed runs, the auto-play
// clock's ticks and the mouse.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyMsg:
		cmd = m.handleKey(msg)
	case tea.MouseMsg:
		if !m.mouse(msg) {
			return m, nil
		}
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
func (m *Model) onLoaded(msg agentsLoadedMsg) {
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

func (m *Model) handleKey(k tea.KeyMsg) tea.Cmd {
	switch m.mode {
	case modeExpanded:
		return m.expandedKey(k)
	case modeSubagent:
		return m.subagentKey(k)
	}
	ks, nav := m.KeyMap, m.c.Nav
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

func (m *Model) setFocus(f int) {
	m.focus = f
	m.sides[sideNaive].SetFocused(f == sideNaive)
	m.sides[sideInformed].SetFocused(f == sideInformed)
	m.summary.SetFocused(f == focusSummary)
}
