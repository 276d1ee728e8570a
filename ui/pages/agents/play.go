package agents

import (
	"fmt"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
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

// step reveals the next step by virtual time: the earlier of the two
// sides' next steps, or both when they happen at the same moment.
func (m *Model) step() bool {
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
func (m *Model) nextT() (float64, bool) {
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

func (m *Model) done() bool { return m.sides[0].Done() && m.sides[1].Done() }

func (m *Model) endTime() float64 {
	end := 0.0
	for _, r := range m.runs {
		if r != nil {
			end = max(end, r.VirtualSeconds)
		}
	}
	return end
}

func (m *Model) pause() {
	if m.playing {
		m.playing = false
		m.gen++
	}
}

func (m *Model) restart() {
	m.pause()
	m.gen++
	m.now = 0
	for _, t := range m.sides {
		t.Reset()
	}
	m.refreshSummary()
}

func (m *Model) togglePlay() tea.Cmd {
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
func (m *Model) speedText() string {
	s := agentSpeeds[m.speed]
	if m.longestGap()/s > maxPause.Seconds()+timeline.TimeEps {
		return fmt.Sprintf("%s · waits over %gs shortened", speedLabel(s), maxPause.Seconds()*s)
	}
	return speedLabel(s)
}

// shortenNote explains the shortening in the status line, or "".
func (m *Model) shortenNote() string {
	s := agentSpeeds[m.speed]
	if m.longestGap()/s > maxPause.Seconds()+timeline.TimeEps {
		return fmt.Sprintf(" · auto-play waits at most %gs, so a longer wait is shown in %gs (the clock still counts it all)", maxPause.Seconds(), maxPause.Seconds())
	}
	return ""
}

// longestGap is the longest virtual gap between two steps in reveal
// order (both sides merged), 0 before the runs load.
func (m *Model) longestGap() float64 {
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
func (m *Model) schedule() tea.Cmd {
	next, ok := m.nextT()
	if !ok {
		return nil
	}
	m.tickAt = time.Now()
	return agentsTick(m, m.gen, pauseFor(next-m.now, agentSpeeds[m.speed]))
}

// reschedule replaces the pending tick after a speed change: the pause
// to the next step at the new speed, less the time already waited.
func (m *Model) reschedule() tea.Cmd {
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
func (m *Model) cycleRevision() tea.Cmd {
	cur := m.rev
	if cur == "" {
		cur = rules.DefaultRevision
	}
	m.rev = common.Next(rules.Revisions, cur)
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
var agentsTick = func(owner *Model, gen int, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return agentsTickMsg{owner: owner, gen: gen} })
}

func (m *Model) tick() tea.Cmd {
	m.step()
	if m.done() {
		m.playing = false
		m.gen++
		m.c.SetStatus(common.StatusOK, "both runs played out at %s: the summary compares them", timeline.TimeLabel(m.now))
		return nil
	}
	return m.schedule()
}

// seriesRevision is the revision the series' scenarios share, or "" when
// they differ (each then plays its own).
func (m *Model) seriesRevision() rules.Revision {
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
func (m *Model) revLabel() string {
	if m.rev == "" {
		return "each scenario's own"
	}
	return string(m.rev)
}
