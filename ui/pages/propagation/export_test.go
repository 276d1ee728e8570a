package propagation

import (
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/components/pane"
)

// What the external tests (package propagation_test, which drive the root
// App) may see of the page.

// The exercise's steps, as Focus reports them.
const (
	StepReport      = exReport
	StepCoordinator = exCoordinator
)

func (m *Model) ReportVerdict() *rules.Verdict   { return m.reportV }
func (m *Model) ActionVerdict() *rules.Verdict   { return m.actionV }
func (m *Model) Focus() int                      { return m.focus }
func (m *Model) ModelRun() *agent.CoordinatorRun { return m.model }
func (m *Model) Pane() *pane.Model               { return m.pane }
