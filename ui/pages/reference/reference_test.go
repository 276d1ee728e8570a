package reference

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"
)

func TestMain(m *testing.M) { uitest.Main(m) }

func open(t *testing.T, section string) *Model {
	c := common.New(lipgloss.DefaultRenderer(), uitest.SubsetCatalog(t, uitest.TimeoutID), common.NewMemoryProgress())
	m := New(c, section)
	m.SetSize(100, 30)
	return m
}

// New opens at the section asked for, or the top for none or an unknown
// one; the wheel scrolls three lines a notch.
func TestOpensAtSectionAndScrolls(t *testing.T) {
	for _, sec := range []string{"§1", "§4", "§9"} {
		if got := open(t, sec).Section(); !strings.HasPrefix(got, sec+" ") {
			t.Errorf("New(%s) shows %q", sec, got)
		}
	}
	for _, sec := range []string{"", "§12"} {
		if got := open(t, sec).Section(); got != "Reference" {
			t.Errorf("New(%q) shows %q, not the top", sec, got)
		}
	}
	m := open(t, "")
	m.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	if m.vp.YOffset != 3 {
		t.Errorf("wheel down: offset %d, want 3", m.vp.YOffset)
	}
}

// A resize re-wraps the page and keeps the section in view.
func TestResizeKeepsTheSection(t *testing.T) {
	for _, sec := range []string{"§2", "§5", "§8"} {
		m := open(t, sec)
		m.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
		for _, w := range []int{80, 70, 120, 60} {
			m.SetSize(w, 22)
			if got := m.Section(); !strings.HasPrefix(got, sec+" ") {
				t.Errorf("opened at %s, resized to %d: shows %q", sec, w, got)
			}
		}
	}
}
