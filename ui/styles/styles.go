// Package styles holds every lipgloss style errorlab's screens use, built
// from one *lipgloss.Renderer per session (soft-serve pkg/ui/styles).
package styles

import (
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

	// Text.
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

	// Help bar.
	Help help.Styles
}

// DefaultStyles builds the styles from r. It never touches package-level
// lipgloss state, so two renderers (two SSH sessions) get their own colours.
func DefaultStyles(r *lipgloss.Renderer) *Styles {
	ac := func(light, dark string) lipgloss.AdaptiveColor {
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	var (
		accent = ac("#5A3FC0", "#A78BFA")
		green  = ac("#1A7F37", "#56D364")
		red    = ac("#C62828", "#FF7B72")
		yellow = ac("#9A6700", "#E3B341")
		blue   = ac("#0550AE", "#79C0FF")
		muted  = ac("#6E7781", "#8B949E")
		faint  = ac("#AFB8C1", "#484F58")
		text   = ac("#1F2328", "#E6EDF3")
	)
	ns := r.NewStyle
	s := &Styles{
		HeaderBar:   ns(),
		HeaderBrand: ns().Bold(true).Foreground(accent),
		Crumb:       ns().Foreground(text),
		HeaderRight: ns().Foreground(muted),

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
