package agents_test

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/agents"
)

// positionsBelow is the scroll positions on the first line below row
// that has any, left to right.
func positionsBelow(view string, row int) []string {
	lines := strings.Split(view, "\n")
	for _, l := range lines[min(row+1, len(lines)):] {
		if p := uitest.ScrollPos.FindAllString(l, -1); len(p) > 0 {
			return p
		}
	}
	return nil
}

// TestAgentsMouseTimelines: on the two timelines the wheel scrolls the
// one under the pointer (and the scroll holds), and a click focuses a
// timeline or the summary.
func TestAgentsMouseTimelines(t *testing.T) {
	m := openAgents(t, uitest.AfternoonCatalog(t), scenarios.Afternoon.ID, uitest.Size120, uitest.Press("G"))
	view := m.View()
	top := uitest.RowOf(t, view, "▸ Naive agent")
	before := positionsBelow(view, top)
	if len(before) != 2 || !strings.HasPrefix(before[0], "↑") {
		t.Fatalf("both timelines should overflow, at their end: %q\n%s", before, view)
	}
	inside := top + 3
	m, _ = uitest.Drive(m, uitest.MousePress(10, inside, tea.MouseButtonWheelUp))
	view = m.View()
	after := positionsBelow(view, top)
	if len(after) != 2 || after[0] == before[0] || !strings.HasPrefix(after[0], "↕") || after[1] != before[1] {
		t.Fatalf("the wheel over the naive timeline: positions %q, were %q\n%s", after, before, view)
	}
	if !strings.Contains(view, "▸ Naive agent") {
		t.Errorf("the wheel moved the focus:\n%s", view)
	}
	m, _ = uitest.Drive(m, uitest.MousePress(90, inside, tea.MouseButtonWheelUp), uitest.MousePress(90, inside, tea.MouseButtonWheelUp))
	view = m.View()
	if got := positionsBelow(view, top); got[0] != after[0] || got[1] == before[1] {
		t.Errorf("the wheel over the informed timeline: positions %q, were %q", got, after)
	}

	// A click focuses the informed side, then the summary.
	m, _ = uitest.Drive(m, uitest.MousePress(90, inside, tea.MouseButtonLeft))
	view = m.View()
	if !strings.Contains(view, "▸ Informed agent") || strings.Contains(view, "▸ Naive agent") {
		t.Fatalf("a click on the informed timeline did not focus it:\n%s", view)
	}
	if s := agentsOf(t, m); s.Side(agents.SideNaive).Focused() || !s.Side(agents.SideInformed).Focused() {
		t.Error("the timelines' focus does not follow the click")
	}
	sum := uitest.RowOf(t, view, "Summary")
	m, _ = uitest.Drive(m, uitest.MousePress(5, sum+1, tea.MouseButtonLeft))
	if view = m.View(); !strings.Contains(view, "▸ Summary") || strings.Contains(view, "▸ Informed agent") {
		t.Fatalf("a click on the summary did not focus it:\n%s", view)
	}
	// The keyboard works as before: tab goes on from the clicked pane.
	m, _ = uitest.Drive(m, uitest.Press("tab"))
	if !strings.Contains(m.View(), "▸ Naive agent") {
		t.Errorf("tab after the click:\n%s", m.View())
	}
}

// TestAgentsMouseExpanded: on an expanded step a click focuses the
// request and the wheel scrolls the response under the pointer.
func TestAgentsMouseExpanded(t *testing.T) {
	m := openAgents(t, uitest.Catalog(t), uitest.RefundWindowID, tea.WindowSizeMsg{Width: 80, Height: 24},
		uitest.Press("G"), uitest.Press("g"), uitest.Press("enter"))
	if agentsOf(t, m).Mode() != agents.ModeExpanded {
		t.Fatalf("not expanded: %s", status(m))
	}
	view := m.View()
	req := uitest.RowOf(t, view, "Request · ")
	m, _ = uitest.Drive(m, uitest.MousePress(5, req+1, tea.MouseButtonLeft))
	view = m.View()
	if !strings.Contains(view, "▸ Request · ") || strings.Contains(view, "▸ Response · ") {
		t.Fatalf("a click on the request did not focus it:\n%s", view)
	}
	resp := uitest.RowOf(t, view, "Response · ")
	before := positionsBelow(view, resp)
	if len(before) != 1 || !strings.HasPrefix(before[0], "↓") {
		t.Fatalf("the response should overflow, at its top: %q\n%s", before, view)
	}
	m, _ = uitest.Drive(m, uitest.MousePress(5, resp+1, tea.MouseButtonWheelDown))
	if got := positionsBelow(m.View(), resp); len(got) != 1 || got[0] == before[0] {
		t.Errorf("the wheel over the response: %q, was %q\n%s", got, before, m.View())
	}
	if !strings.Contains(m.View(), "▸ Request · ") {
		t.Error("the wheel moved the focus")
	}
}

// TestAgentsMouseSubagent: in the subagent view a click focuses the
// report, then the coordinator's decision.
func TestAgentsMouseSubagent(t *testing.T) {
	m := openAgents(t, uitest.Catalog(t), uitest.StaffID, uitest.Size120, uitest.Press("c"))
	view := m.View()
	rep := uitest.RowOf(t, view, "The one report it sent")
	m, _ = uitest.Drive(m, uitest.MousePress(100, rep+1, tea.MouseButtonLeft))
	view = m.View()
	if !strings.Contains(view, "▸ The one report it sent") || strings.Contains(view, "▸ Subagent ·") {
		t.Fatalf("a click on the report did not focus it:\n%s", view)
	}
	dec := uitest.RowOf(t, view, "The coordinator's decision")
	m, _ = uitest.Drive(m, uitest.MousePress(5, dec+1, tea.MouseButtonLeft))
	if view = m.View(); !strings.Contains(view, "▸ The coordinator's decision") || strings.Contains(view, "▸ The one report") {
		t.Fatalf("a click on the decision did not focus it:\n%s", view)
	}
	// A click on the header or a release does nothing.
	m, _ = uitest.Drive(m, uitest.MousePress(5, 1, tea.MouseButtonLeft), tea.MouseMsg{X: 5, Y: rep + 1, Action: tea.MouseActionRelease, Button: tea.MouseButtonLeft})
	if !strings.Contains(m.View(), "▸ The coordinator's decision") {
		t.Errorf("the focus moved:\n%s", m.View())
	}
}
