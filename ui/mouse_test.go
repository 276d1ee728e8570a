package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui/internal/uitest"
)

// On the scenario screen a click on a pane focuses it (its title gets the
// ▸ and the heavy border) and the wheel scrolls the pane under the
// pointer, whichever pane has the keyboard's focus.
func TestScenarioMouse(t *testing.T) {
	m := openTimeout(t, Options{}, uitest.Press("enter"))
	x, y := uitest.CellOf(t, m.View(), "Response")
	m, _ = uitest.Drive(m, uitest.MousePress(x+2, y+2, tea.MouseButtonLeft))
	if l := uitest.LineWith(m.View(), "Response"); !strings.Contains(l, "▸ Response") {
		t.Fatalf("a click on the response pane did not focus it: %q", l)
	}
	// The request pane: scroll it with the wheel while the response keeps
	// the focus. Make it overflow first with a small terminal.
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 120, Height: 24})
	before := m.View()
	rx, ry := uitest.CellOf(t, before, "Request")
	m, _ = uitest.Drive(m, uitest.MousePress(rx+2, ry+2, tea.MouseButtonWheelDown))
	if m.View() == before {
		t.Fatalf("the wheel on the request pane changed nothing:\n%s", before)
	}
	if l := uitest.LineWith(m.View(), "Response"); !strings.Contains(l, "▸ Response") {
		t.Errorf("the wheel moved the focus: %q", l)
	}
	if l := uitest.LineWith(m.View(), "Request"); strings.Contains(l, "▸ Request") {
		t.Errorf("the wheel focused the request pane: %q", l)
	}
}

// The full help (?) says what the mouse does.
func TestFullHelpNamesTheMouse(t *testing.T) {
	m, _ := uitest.Drive(New(Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}), uitest.Size120, uitest.Press("?"))
	if !strings.Contains(m.View(), "wheel scrolls, click focuses") {
		t.Errorf("the full help does not mention the mouse:\n%s", m.View())
	}
}
