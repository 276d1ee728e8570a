package agents

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the agents page's own keys (the global keys and the
// navigation keys are the session's).
type KeyMap struct {
	Step     key.Binding // reveal the next step by virtual time
	Play     key.Binding // auto-play or pause
	Faster   key.Binding
	Slower   key.Binding
	Restart  key.Binding // back to t=0
	Revision key.Binding // play again under the next spec revision
	All      key.Binding // reveal everything
	Focus    key.Binding
	FocusRev key.Binding
	Expand   key.Binding // the selected step's raw exchange
	Subagent key.Binding // open or close the subagent view
}

// DefaultKeyMap returns the agents page's keys. space and G/end take
// precedence over the navigation keys they share (page down, bottom); r
// is the spec revision, as on the scenario screen.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Step:     key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "next step")),
		Play:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "play/pause")),
		Faster:   key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
		Slower:   key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "slower")),
		Restart:  key.NewBinding(key.WithKeys("0"), key.WithHelp("0", "restart")),
		Revision: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "spec revision (plays again)")),
		All:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "reveal all")),
		Focus:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		FocusRev: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Expand:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "raw exchange")),
		Subagent: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "subagent view")),
	}
}
