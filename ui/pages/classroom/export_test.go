package classroom

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Quiet makes dashboards wait on nothing (the tests send
// room.ChangedMsg) and never tick; TestMain calls it.
func Quiet() {
	watchRoom, tickEvery = false, 0
}

// SetClock sets a dashboard's clock (for the idle column).
func SetClock(d *Dashboard, now func() time.Time) { d.clock = now }

// Tick delivers the dashboard's clock tick (the tests run without one).
func Tick(d *Dashboard) (tea.Model, tea.Cmd) { return d.Update(tickMsg{owner: d, gen: d.tickGen}) }
