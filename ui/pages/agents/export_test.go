package agents

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/components/timeline"
)

// What the external tests (package agents_test, which drive the root
// App) may see of the page.

// Sides and focus targets.
const (
	SideNaive    = sideNaive
	SideInformed = sideInformed
	FocusSummary = focusSummary
)

// Mode is the page's mode.
type Mode = agentsMode

// The modes.
const (
	ModeTimelines = modeTimelines
	ModeExpanded  = modeExpanded
	ModeSubagent  = modeSubagent
)

// The bounds of an auto-play pause.
const (
	MaxPause = maxPause
	MinPause = minPause
)

func (m *Model) Loaded() bool                 { return m.loaded }
func (m *Model) Err() error                   { return m.err }
func (m *Model) Side(i int) *timeline.Model   { return m.sides[i] }
func (m *Model) Done() bool                   { return m.done() }
func (m *Model) Now() float64                 { return m.now }
func (m *Model) Run(i int) *agent.Run         { return m.runs[i] }
func (m *Model) SetFocus(f int)               { m.setFocus(f) }
func (m *Model) Mode() Mode                   { return m.mode }
func (m *Model) Expanded(i int) *pane.Model   { return m.exp[i] }
func (m *Model) Summary() *pane.Model         { return m.summary }
func (m *Model) Coord() *agent.CoordinatorRun { return m.coord }
func (m *Model) Speed() float64               { return agentSpeeds[m.speed] }
func (m *Model) Playing() bool                { return m.playing }
func (m *Model) Gen() int                     { return m.gen }
func (m *Model) SummaryLines(w int) string    { return m.summaryLines(w) }
func (m *Model) ID() string                   { return m.id }
func (m *Model) FromScenario() bool           { return m.fromScenario }
func (m *Model) Rev() rules.Revision          { return m.rev }
func (m *Model) SitCut() bool                 { return m.sitCut }

// SetTick replaces the auto-play clock until restore is called.
func SetTick(f func(owner *Model, gen int, d time.Duration) tea.Cmd) (restore func()) {
	orig := agentsTick
	agentsTick = f
	return func() { agentsTick = orig }
}

// TickMsg is the clock's tick for owner's generation gen.
func TickMsg(owner *Model, gen int) tea.Msg { return agentsTickMsg{owner: owner, gen: gen} }
