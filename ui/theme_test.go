package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/styles"
)

// The theme reaches every screen: the same scenario screen on a colour
// terminal differs between themes, and mono draws it without colour.
func TestThemeReachesTheScreens(t *testing.T) {
	view := func(th styles.Theme) string {
		r := lipgloss.NewRenderer(nil)
		r.SetColorProfile(termenv.TrueColor)
		r.SetHasDarkBackground(true)
		m, _ := uitest.Drive(New(Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), ScenarioID: uitest.TimeoutID, Renderer: r, Theme: th}), uitest.Size120, uitest.Press("enter"))
		return m.View()
	}
	dark, light, mono := view(styles.ThemeDark), view(styles.ThemeLight), view(styles.ThemeMono)
	if dark == light {
		t.Error("the light theme draws the lab exactly as the dark one")
	}
	if strings.Contains(mono, "38;2;") {
		t.Error("the mono theme draws colours")
	}
	if !strings.Contains(dark, "38;2;") {
		t.Error("the dark theme draws no colour on a true-colour terminal")
	}
}
