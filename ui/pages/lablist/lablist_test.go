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

// After the list has scrolled, a click selects the row under the pointer
// and leaves the list where it is, so a second click opens that very
// scenario.
func TestClickInAScrolledList(t *testing.T) {
	for _, size := range []tea.WindowSizeMsg{uitest.Size120, {Width: 80, Height: 24}} {
		m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.Catalog(t)}), size, uitest.Press("enter"), uitest.Press("G"))
		lines := strings.Split(m.View(), "\n")
		y, title := -1, ""
		for i, l := range lines[4:] { // below the header, title, legend and gap
			if strings.Contains(l, "▸") || strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "§") {
				continue
			}
			for _, s := range uitest.Catalog(t).Scenarios {
				if strings.Contains(l, s.Title) {
					y, title = i+4, s.ID
				}
			}
			if y >= 0 {
				break
			}
		}
		if y < 0 {
			t.Fatalf("%v: no unselected scenario row on screen:\n%s", size, m.View())
		}
		m, _ = uitest.Drive(m, uitest.MousePress(10, y, tea.MouseButtonLeft))
		if l := strings.Split(m.View(), "\n")[y]; !strings.Contains(l, "▸") {
			t.Fatalf("%v: after a click on row %d the selection is not on that row: %q\n%s", size, y, l, m.View())
		}
		m, _ = uitest.Drive(m, uitest.MousePress(10, y, tea.MouseButtonLeft))
		if h := strings.Split(m.View(), "\n")[0]; !strings.Contains(h, "› "+title) {
			t.Errorf("%v: the second click opened something else than %s: %q", size, title, h)
		}
	}
}

// Opening a scenario with the mouse while typing a filter keeps the
// filter, as enter would: back on the list, keys are keys again.
func TestMouseOpenWhileFiltering(t *testing.T) {
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.Catalog(t)}), uitest.Size120, uitest.Press("enter"), uitest.Press("/"), uitest.Press("r"), uitest.Press("e"))
	y := uitest.RowOf(t, m.View(), "▸")
	m, _ = uitest.Drive(m, uitest.MousePress(10, y, tea.MouseButtonLeft), uitest.Press("esc"))
	if l := uitest.LineWith(m.View(), "match"); !strings.Contains(l, `match "re"`) {
		t.Errorf("the filter was not kept: %q", l)
	}
	if h := uitest.LineWith(m.View(), "esc"); strings.Contains(h, "keep filter") {
		t.Errorf("the filter is still being typed in: %q", h)
	}
}
