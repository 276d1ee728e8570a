package home_test

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
)

func TestMain(m *testing.M) { uitest.Main(m) }

// A click on a section selects it (the ▸ moves there); a second click on
// it opens it, as enter does.
func TestClickSelectsThenOpens(t *testing.T) {
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}), uitest.Size120)
	y := uitest.RowOf(t, m.View(), "Reference")
	m, _ = uitest.Drive(m, uitest.MousePress(5, y, tea.MouseButtonLeft))
	if l := uitest.LineWith(m.View(), "Reference"); !strings.Contains(l, "▸") {
		t.Fatalf("a click on Reference did not select it: %q", l)
	}
	if strings.Contains(uitest.LineWith(m.View(), "errorlab"), "›") {
		t.Fatalf("the first click opened a screen already")
	}
	m, _ = uitest.Drive(m, uitest.MousePress(5, y, tea.MouseButtonLeft))
	if h := uitest.LineWith(m.View(), "errorlab"); !strings.Contains(h, "› Reference") {
		t.Fatalf("a second click did not open the Reference; header %q", h)
	}
}

// The wheel moves the selection; a click on the header or a blank row
// does nothing.
func TestWheelAndStrayClicks(t *testing.T) {
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}), uitest.Size120)
	m, _ = uitest.Drive(m, uitest.MousePress(5, 10, tea.MouseButtonWheelDown))
	if l := uitest.LineWith(m.View(), "Reference"); !strings.Contains(l, "▸") {
		t.Fatalf("wheel down did not move the selection to Reference: %q", l)
	}
	before := m.View()
	m, _ = uitest.Drive(m, uitest.MousePress(5, 0, tea.MouseButtonLeft), uitest.MousePress(5, 1, tea.MouseButtonLeft))
	if m.View() != before {
		t.Fatalf("a click on the header or a blank row changed the screen")
	}
}
