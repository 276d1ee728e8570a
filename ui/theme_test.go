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

// The Reference follows the theme too: mono has no colour, and light and
// dark draw its prose differently on the same terminal.
func TestReferenceFollowsTheTheme(t *testing.T) {
	view := func(th styles.Theme) string {
		r := lipgloss.NewRenderer(nil)
		r.SetColorProfile(termenv.ANSI256)
		r.SetHasDarkBackground(true)
		m, _ := uitest.Drive(New(Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), Renderer: r, Theme: th}), uitest.Size120, uitest.Press("down"), uitest.Press("enter"))
		if h := strings.Split(m.View(), "\n")[0]; !strings.Contains(h, "Reference") {
			t.Fatalf("not on the Reference: %q", h)
		}
		// The body only: the header and the help bar have their own styles.
		lines := strings.Split(m.View(), "\n")
		return strings.Join(lines[1:len(lines)-3], "\n")
	}
	if mono := view(styles.ThemeMono); strings.Contains(mono, "\x1b[38;5;") || strings.Contains(mono, "\x1b[48;5;") {
		t.Errorf("the Reference has colours under the mono theme:\n%q", mono[:min(len(mono), 400)])
	}
	if view(styles.ThemeLight) == view(styles.ThemeDark) {
		t.Error("the Reference looks the same under the light and the dark theme")
	}
	if view(styles.ThemeHighContrast) == view(styles.ThemeDark) {
		t.Error("the Reference looks the same under the high-contrast and the dark theme")
	}
}
