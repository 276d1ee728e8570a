package pane

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui/common"
)

func newPane() *Model {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	p := New(common.New(r, &scenarios.Catalog{}, common.NewMemoryProgress()))
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, "line "+strings.Repeat("x", i%5))
	}
	p.SetContent("Response", "raw", func(int) string { return strings.Join(lines, "\n") })
	p.SetSize(40, 10)
	return p
}

func TestFocusTitleAndPosition(t *testing.T) {
	p := newPane()
	top := strings.Split(p.View(), "\n")[0]
	if strings.Contains(top, "▸") || !strings.Contains(top, "Response") {
		t.Fatalf("unfocused title: %q", top)
	}
	p.SetFocused(true)
	lines := strings.Split(p.View(), "\n")
	if !strings.Contains(lines[0], "▸ Response") || !strings.HasPrefix(lines[0], "┏") {
		t.Errorf("focused title: %q", lines[0])
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "↓ 1-8/30") {
		t.Errorf("bottom border: %q", last)
	}
}

func TestWheelAndKeysScroll(t *testing.T) {
	p := newPane()
	p.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	if y := p.Viewport().YOffset; y != 3 {
		t.Fatalf("wheel down: offset %d, want 3", y)
	}
	p.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp})
	p.Update(tea.MouseMsg{Action: tea.MouseActionRelease, Button: tea.MouseButtonWheelDown})
	if y := p.Viewport().YOffset; y != 0 {
		t.Fatalf("wheel up, then a release: offset %d, want 0", y)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("G")})
	if !p.Viewport().AtBottom() {
		t.Error("G did not scroll to the bottom")
	}
	if !p.Contains(0, 0) || !p.Contains(39, 9) || p.Contains(40, 0) || p.Contains(0, 10) {
		t.Error("Contains does not match the pane's 40x10 area")
	}
	if len(p.ShortHelp()) == 0 || len(p.FullHelp()[0]) != 6 {
		t.Error("help lists no keys")
	}
}
