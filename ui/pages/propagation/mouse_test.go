package propagation_test

import (
	"fmt"
	"slices"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/propagation"
)

// TestExerciseWheel: the wheel scrolls the exercise (from anywhere on the
// page), and once scrolled a resize keeps the place instead of jumping
// back to the verdict or the question the exercise brought into view.
func TestExerciseWheel(t *testing.T) {
	size := tea.WindowSizeMsg{Width: 80, Height: 24}
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.Catalog(t), ScenarioID: uitest.StoreDownID}), size, uitest.Press("enter"), uitest.Press("e"))
	ex, ok := m.(*ui.App).Top().(*propagation.Model)
	if !ok {
		t.Fatalf("e did not open the exercise:\n%s", m.View())
	}
	key := func(k rules.ReportKind) string { return fmt.Sprint(slices.Index(rules.ReportKinds, k) + 1) }
	pos := func() string { return uitest.ScrollPos.FindString(m.View()) }
	// A wrong report: its verdict is brought into view and held there.
	m, _ = uitest.Drive(m, uitest.Press(key(rules.ReportEmpty)))
	held := ex.Pane().Viewport().YOffset
	if got := pos(); got == "" || held == 0 {
		t.Fatalf("the verdict should be scrolled to: offset %d, position %q\n%s", held, got, m.View())
	}
	down := uitest.MousePress(10, 12, tea.MouseButtonWheelDown)
	m, _ = uitest.Drive(m, down)
	if y := ex.Pane().Viewport().YOffset; y != held+3 {
		t.Fatalf("one notch down scrolled from %d to %d, want %d", held, y, held+3)
	}
	if got := pos(); got[0:3] != "↕" {
		t.Errorf("the border does not show the scroll: %q", got)
	}
	// Over the header too: the page has one scrollable area.
	m, _ = uitest.Drive(m, uitest.MousePress(10, 1, tea.MouseButtonWheelUp))
	if y := ex.Pane().Viewport().YOffset; y != held {
		t.Errorf("a notch up over the header scrolled to %d, want %d", y, held)
	}

	// Answer step 1: the view jumps to step 2's question and holds it
	// there; after a wheel notch a resize keeps the learner's place.
	m, _ = uitest.Drive(m, uitest.Press(key(rules.ReportStructured)))
	head := ex.Pane().Viewport().YOffset
	m, _ = uitest.Drive(m, uitest.MousePress(10, 12, tea.MouseButtonWheelUp))
	if y := ex.Pane().Viewport().YOffset; y != head-3 {
		t.Fatalf("a notch up from %d scrolled to %d", head, y)
	}
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 80, Height: 25}, size)
	if y := ex.Pane().Viewport().YOffset; y != head-3 {
		t.Errorf("after a resize the exercise jumped from %d to %d", head-3, y)
	}
	// The keyboard works as before.
	m, _ = uitest.Drive(m, uitest.Press("j"))
	if y := ex.Pane().Viewport().YOffset; y != head-2 {
		t.Errorf("j scrolled to %d, want %d", y, head-2)
	}
}
