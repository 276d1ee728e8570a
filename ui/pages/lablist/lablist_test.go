package lablist_test

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
)

func TestMain(m *testing.M) { uitest.Main(m) }

// On the lab list a click selects the scenario under the pointer, a
// second click opens it, and the wheel moves the cursor.
func TestLabListMouse(t *testing.T) {
	cat := uitest.Catalog(t)
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: cat}), uitest.Size120, uitest.Press("enter"))
	second := cat.Scenarios[1]
	// The list is grouped by topic; find a title that is not under the cursor.
	var target string
	for _, s := range cat.Scenarios {
		if l := uitest.LineWith(m.View(), s.Title); l != "" && !strings.Contains(l, "▸") {
			target = s.Title
			break
		}
	}
	if target == "" {
		t.Fatalf("no unselected scenario on screen (second is %s)", second.ID)
	}
	y := uitest.RowOf(t, m.View(), target)
	m, _ = uitest.Drive(m, uitest.MousePress(10, y, tea.MouseButtonLeft))
	if l := uitest.LineWith(m.View(), target); !strings.Contains(l, "▸") {
		t.Fatalf("a click did not select %q: %q", target, l)
	}
	m, _ = uitest.Drive(m, uitest.MousePress(10, y, tea.MouseButtonLeft))
	if h := strings.Split(m.View(), "\n")[0]; !strings.Contains(h, "› Lab ›") {
		t.Fatalf("a second click did not open the scenario; header %q", h)
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	before := uitest.RowOf(t, m.View(), "▸")
	m, _ = uitest.Drive(m, uitest.MousePress(10, 10, tea.MouseButtonWheelDown))
	if after := uitest.RowOf(t, m.View(), "▸"); after <= before {
		t.Fatalf("wheel down did not move the cursor down: row %d, then %d", before, after)
	}
}
