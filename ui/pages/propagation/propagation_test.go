package propagation_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/propagation"
)

// TestPropagationExercise scores the report (structured ✓, empty ✗ with
// the no-suppression rule) and the coordinator's move.
func TestPropagationExercise(t *testing.T) {
	cat := uitest.Catalog(t)
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: cat, ScenarioID: uitest.StoreDownID}), uitest.Size120, uitest.Press("e"))
	if top := m.(*ui.App).Top(); top.Crumb() != uitest.StoreDownID || !strings.Contains(m.View(), "make the call first") {
		t.Fatalf("e before the call:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"), uitest.Press("e"))
	ex, ok := m.(*ui.App).Top().(*propagation.Model)
	if !ok {
		t.Fatalf("e did not open the exercise:\n%s", m.View())
	}
	key := func(k rules.ReportKind) string { return fmt.Sprint(slices.Index(rules.ReportKinds, k) + 1) }

	m, _ = uitest.Drive(m, uitest.Press(key(rules.ReportEmpty)))
	noSup := rules.Lookup(rules.RuleNoSuppression).Ref()
	if ex.ReportVerdict() == nil || ex.ReportVerdict().Grade.Correct() || ex.ReportVerdict().Rule.ID != rules.RuleNoSuppression {
		t.Fatalf("empty success scored %+v", ex.ReportVerdict())
	}
	view := m.View()
	if !strings.Contains(view, "✗ Not the best move: "+key(rules.ReportEmpty)) || !strings.Contains(view, noSup) {
		t.Errorf("empty success: no ✗ verdict naming %q:\n%s", noSup, view)
	}

	m, _ = uitest.Drive(m, uitest.Press(key(rules.ReportStructured)))
	if ex.ReportVerdict().Grade != rules.GradeBest || ex.Focus() != propagation.StepCoordinator {
		t.Fatalf("structured report scored %+v, focus %d", ex.ReportVerdict(), ex.Focus())
	}
	// The model answer is the engine's report; its verdict is above.
	if ex.ModelRun() == nil || !strings.Contains(ex.ModelRun().Subagent.FinalMessage, `"partialResults"`) {
		t.Fatal("no model answer from agent.Delegate")
	}
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 140, Height: 200})
	view = m.View()
	for _, want := range []string{"✓ Correct: " + key(rules.ReportStructured), rules.Lookup(rules.RuleReportUpward).Ref(), "Model answer:", `"attempted"`, "Step 2 of 2"} {
		if !strings.Contains(view, want) {
			t.Errorf("after step 1 the view lacks %q:\n%s", want, view)
		}
	}

	want := rules.Score(rules.CoordinatorSituation(rules.Transient, 0), rules.EscalateHuman)
	m, _ = uitest.Drive(m, uitest.Press(uitest.RetryKey()))
	if ex.ActionVerdict() == nil || ex.ActionVerdict().Grade.Correct() {
		t.Fatalf("retry_same after the cap scored %+v", ex.ActionVerdict())
	}
	m, _ = uitest.Drive(m, uitest.Press(fmt.Sprint(slices.Index(rules.Actions, rules.EscalateHuman)+1)))
	if ex.ActionVerdict().Grade != want.Grade || want.Grade != rules.GradeBest {
		t.Fatalf("escalate_human scored %+v, want %+v", ex.ActionVerdict(), want)
	}
	if !strings.Contains(m.View(), "✓ Correct: 4 Escalate to a human") {
		t.Errorf("no ✓ for the coordinator's move:\n%s", m.View())
	}
}

// TestExerciseOnlyOnSubagentScenarios: e does nothing on other scenarios
// and is not in their help.
func TestExerciseOnlyOnSubagentScenarios(t *testing.T) {
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), ScenarioID: uitest.TimeoutID}),
		uitest.Size120, uitest.Press("enter"), uitest.Press("e"))
	if top := m.(*ui.App).Top(); top.Crumb() != uitest.TimeoutID {
		t.Fatalf("e left a scenario that is not a subagent's: the top screen is %T %q", top, top.Crumb())
	}
	if strings.Contains(m.View(), "e exercise") {
		t.Error("e is offered on a scenario without a propagation exercise")
	}
}
