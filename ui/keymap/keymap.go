// Package keymap holds the keys shared by every screen: the global keys the
// root model handles and the navigation keys panes scroll with
// (soft-serve pkg/ui/keymap). A screen's own keys live in its page package.
package keymap

import "github.com/charmbracelet/bubbles/key"

// Global keys work on every screen; the root model handles them before the
// active screen sees a key.
type Global struct {
	Help  key.Binding
	Back  key.Binding
	Quit  key.Binding
	Force key.Binding // ctrl+c: quits even while typing in a filter
	Copy  key.Binding
	Write key.Binding
	// Dismiss closes the progress notice Home and the quiz menu keep on
	// screen (common.Common.PinNotice); it acts only while one shows.
	Dismiss key.Binding
}

// DefaultGlobal returns the keys people expect in a Charm app.
func DefaultGlobal() Global {
	return Global{
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Quit:    key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		Force:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Copy:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy envelope")),
		Write:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "write JSON")),
		Dismiss: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "dismiss notice")),
	}
}

// Nav move a cursor or scroll a pane.
type Nav struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
}

// DefaultNav returns arrows, j/k, pgup/pgdn and g/G (home/end).
func DefaultNav() Nav {
	return Nav{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d", " "), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "bottom")),
	}
}
