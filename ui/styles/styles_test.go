package styles

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func renderer(p termenv.Profile, dark bool) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(p)
	r.SetHasDarkBackground(dark)
	return r
}

// Each theme gives its own colours on a colour terminal; mono gives none;
// NO_COLOR (the Ascii profile) gives none under every theme.
func TestThemes(t *testing.T) {
	seen := map[string]Theme{}
	for _, th := range Themes {
		got := New(renderer(termenv.TrueColor, true), th).OK.Render("ok")
		if th == ThemeMono {
			if strings.Contains(got, "38;2") {
				t.Errorf("mono has a colour: %q", got)
			}
			continue
		}
		if !strings.Contains(got, "\x1b[") {
			t.Errorf("%s: no colour on a true-colour terminal: %q", th, got)
		}
		if other, ok := seen[got]; ok && !(th == ThemeDark && other == ThemeAuto) {
			t.Errorf("%s draws OK exactly as %s does: %q", th, other, got)
		}
		seen[got] = th
		if plain := New(renderer(termenv.Ascii, true), th).OK.Render("ok"); plain != "ok" {
			t.Errorf("%s under NO_COLOR: %q", th, plain)
		}
	}
	// Light and dark differ on a dark terminal: the theme, not the
	// terminal, decides.
	if New(renderer(termenv.TrueColor, true), ThemeLight).Muted.Render("x") == New(renderer(termenv.TrueColor, true), ThemeDark).Muted.Render("x") {
		t.Error("light and dark themes look the same")
	}
}

func TestParseTheme(t *testing.T) {
	for _, name := range []string{"", "auto", "dark", "light", "high-contrast", "mono"} {
		if _, err := ParseTheme(name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	_, err := ParseTheme("neon")
	if err == nil || !strings.Contains(err.Error(), "high-contrast") {
		t.Errorf("neon: %v; want an error naming the themes", err)
	}
}
