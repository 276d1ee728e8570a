package classroom

import (
	"time"
)

// Quiet makes dashboards wait on nothing (the tests send
// room.ChangedMsg) and never tick; TestMain calls it.
func Quiet() {
	watchRoom, tickEvery = false, 0
}

// SetClock sets a dashboard's clock (for the idle column).
func SetClock(d *Dashboard, now func() time.Time) { d.clock = now }
