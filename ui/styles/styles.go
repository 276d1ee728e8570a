// Package styles holds every lipgloss style errorlab's screens use, built
// from one *lipgloss.Renderer per session (soft-serve pkg/ui/styles).
package styles

import (
	"fmt"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
)

// Styles holds every lipgloss style the screens use. All of them come from
// one *lipgloss.Renderer, so a session's colour profile (NO_COLOR, a dumb
// terminal, an SSH client) applies to everything: under the Ascii profile
// every style renders plain text, and the symbols (✓ ✗ ⚠ ▸) carry the
// meaning on their own.
type Styles struct {
	// Chrome.
	HeaderBar   lipgloss.Style
	HeaderBrand lipgloss.Style
	Crumb       lipgloss.Style
	HeaderRight lipgloss.Style

	// Text. Body is running prose (the Reference): plain, or the
	// brightest text colour under high-contrast.
	Body    lipgloss.Style
	Title   lipgloss.Style
	Heading lipgloss.Style
	Bold    lipgloss.Style
	Muted   lipgloss.Style
	Accent  lipgloss.Style
	Code    lipgloss.Style

	// Status colours; always paired with a symbol.
	OK   lipgloss.Style
	Bad  lipgloss.Style
	Warn lipgloss.Style
	Info lipgloss.Style

	// Lists.
	Cursor      lipgloss.Style
	Selected    lipgloss.Style
	TopicHeader lipgloss.Style
	Coming      lipgloss.Style

	// Panes.
	Border        lipgloss.Style
	BorderFocused lipgloss.Style
	PaneTitle     lipgloss.Style
	PaneTitleOn   lipgloss.Style

	// Controls line on the scenario screen.
	ChipKey   lipgloss.Style
	ChipLabel lipgloss.Style
	ChipValue lipgloss.Style

	// JSON highlighting, one style per token class.
	JSONKey    lipgloss.Style
	JSONString lipgloss.Style
	JSONNumber lipgloss.Style
	JSONConst  lipgloss.Style
	JSONPunct  lipgloss.Style
	Plain      lipgloss.Style

	// Tables on the Reference screen.
	TableHeader lipgloss.Style
	TableCell   lipgloss.Style
	TableBorder lipgloss.Style

	// Presenting a walkthrough: the revealed member of an envelope
	// (reverse video, so it reads in mono; a ▶ column marks it too) and
	// the screen blanked to black or to white (b, w).
	Highlight  lipgloss.Style
	BlankBlack lipgloss.Style
	BlankWhite lipgloss.Style

	// Help bar.
	Help help.Styles

	// Theme is the theme these styles were built for.
	Theme Theme
}

// Theme is a colour scheme for the whole interface. Every theme keeps the
// symbols (✓ ✗ ⚠ ▸) and the words, so each state reads without colour;
// NO_COLOR (the renderer's Ascii profile) drops colour under any theme.
type Theme string

// The themes `--theme` and ERRORLAB_THEME accept.
const (
	// ThemeAuto follows the terminal's background (adaptive colours).
	ThemeAuto Theme = "auto"
	// ThemeDark is for a dark background, whatever the terminal reports.
	ThemeDark Theme = "dark"
	// ThemeLight is for a light background: a bright room, a projector.
	ThemeLight Theme = "light"
	// ThemeHighContrast uses pure, bold colours and no faint text.
	ThemeHighContrast Theme = "high-contrast"
	// ThemeMono uses no colour at all: bold, underline and reverse video
	// carry the emphasis.
	ThemeMono Theme = "mono"
)

// Themes lists the themes in the order help texts name them.
var Themes = []Theme{ThemeAuto, ThemeDark, ThemeLight, ThemeHighContrast, ThemeMono}

// ParseTheme reads a theme name ("" is ThemeAuto). The error names the
// themes there are.
func ParseTheme(name string) (Theme, error) {
	if name == "" {
		return ThemeAuto, nil
	}
	for _, t := range Themes {
		if string(t) == name {
			return t, nil
		}
	}
	return "", fmt.Errorf("unknown theme %q: use one of auto, dark, light, high-contrast, mono", name)
}

// palette is a theme's colours (lipgloss.NoColor for mono).
type palette struct {
	accent, green, red, yellow, blue, muted, faint, text lipgloss.TerminalColor
}

func paletteOf(t Theme) palette {
	ac := func(light, dark string) lipgloss.TerminalColor {
		switch t {
		case ThemeDark:
			return lipgloss.Color(dark)
		case ThemeLight:
			return lipgloss.Color(light)
		}
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	switch t {
	case ThemeMono:
		n := lipgloss.NoColor{}
		return palette{n, n, n, n, n, n, n, n}
	case ThemeHighContrast:
		return palette{
			accent: ac("#0000D7", "#FFFF00"), green: ac("#006400", "#00FF00"),
			red: ac("#B00000", "#FF5F5F"), yellow: ac("#5F3F00", "#FFD700"),
			blue: ac("#00008B", "#00FFFF"), muted: ac("#000000", "#FFFFFF"),
			faint: ac("#000000", "#FFFFFF"), text: ac("#000000", "#FFFFFF"),
		}
	}
	return palette{
		accent: ac("#5A3FC0", "#A78BFA"), green: ac("#1A7F37", "#56D364"),
		red: ac("#C62828", "#FF7B72"), yellow: ac("#9A6700", "#E3B341"),
		blue: ac("#0550AE", "#79C0FF"), muted: ac("#6E7781", "#8B949E"),
		faint: ac("#AFB8C1", "#484F58"), text: ac("#1F2328", "#E6EDF3"),
	}
}

// DefaultStyles builds the styles of the auto theme from r. It never
// touches package-level lipgloss state, so two renderers (two SSH
// sessions) get their own colours.
func DefaultStyles(r *lipgloss.Renderer) *Styles { return New(r, ThemeAuto) }

// New builds the styles of theme t from r (nil is lipgloss's default
// renderer). An unknown theme is ThemeAuto.
func New(r *lipgloss.Renderer, t Theme) *Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	p := paletteOf(t)
	var (
		accent, green, red, yellow = p.accent, p.green, p.red, p.yellow
		blue, muted, faint, text   = p.blue, p.muted, p.faint, p.text
	)
	ns := r.NewStyle
	s := &Styles{
		HeaderBar:   ns(),
		HeaderBrand: ns().Bold(true).Foreground(accent),
		Crumb:       ns().Foreground(text),
		HeaderRight: ns().Foreground(muted),

		Body:    ns(),
		Title:   ns().Bold(true).Foreground(text),
		Heading: ns().Bold(true).Foreground(accent),
		Bold:    ns().Bold(true),
		Muted:   ns().Foreground(muted),
		Accent:  ns().Foreground(accent),
		Code:    ns().Foreground(blue),

		OK:   ns().Foreground(green),
		Bad:  ns().Foreground(red),
		Warn: ns().Foreground(yellow),
		Info: ns().Foreground(blue),

		Cursor:      ns().Bold(true).Foreground(accent),
		Selected:    ns().Bold(true).Foreground(text),
		TopicHeader: ns().Bold(true).Foreground(accent),
		Coming:      ns().Foreground(muted).Italic(true),

		Border:        ns().Foreground(faint),
		BorderFocused: ns().Foreground(accent),
		PaneTitle:     ns().Foreground(muted),
		PaneTitleOn:   ns().Bold(true).Foreground(accent),

		ChipKey:   ns().Bold(true).Foreground(accent),
		ChipLabel: ns().Foreground(muted),
		ChipValue: ns().Bold(true).Foreground(text),

		JSONKey:    ns().Foreground(blue),
		JSONString: ns().Foreground(green),
		JSONNumber: ns().Foreground(yellow),
		JSONConst:  ns().Foreground(red),
		JSONPunct:  ns().Foreground(muted),
		Plain:      ns(),

		TableHeader: ns().Bold(true).Foreground(accent).Padding(0, 1),
		TableCell:   ns().Padding(0, 1),
		TableBorder: ns().Foreground(faint),

		Highlight:  ns().Bold(true).Reverse(true),
		BlankBlack: ns().Background(lipgloss.Color("#000000")),
		BlankWhite: ns().Background(lipgloss.Color("#FFFFFF")),
	}
	s.Theme = t
	if t == ThemeHighContrast {
		s.Body = ns().Foreground(text)
	}
	if t == ThemeMono {
		// Without colour, emphasis is weight and underline.
		s.Heading = s.Heading.Underline(true)
		s.TopicHeader = s.TopicHeader.Underline(true)
		s.Cursor = s.Cursor.Reverse(true)
		s.PaneTitleOn = s.PaneTitleOn.Underline(true)
		// Black is the terminal's own background; white is reverse video.
		s.BlankBlack = ns()
		s.BlankWhite = ns().Reverse(true)
	}
	s.Help = help.Styles{
		Ellipsis:       ns().Foreground(faint),
		ShortKey:       ns().Bold(true).Foreground(accent),
		ShortDesc:      ns().Foreground(muted),
		ShortSeparator: ns().Foreground(faint),
		FullKey:        ns().Bold(true).Foreground(accent),
		FullDesc:       ns().Foreground(muted),
		FullSeparator:  ns().Foreground(faint),
	}
	return s
}
