package ui

import (
	"github.com/charmbracelet/bubbles/key"
)

// AgentsKeys are the agents screen's own keys.
type AgentsKeys struct {
	Step     key.Binding
	Play     key.Binding
	Faster   key.Binding
	Slower   key.Binding
	Restart  key.Binding
	Revision key.Binding
	All      key.Binding
	Focus    key.Binding
	FocusRev key.Binding
	Expand   key.Binding
	Subagent key.Binding
}

// DefaultAgentsKeys returns the agents screen's keys. space and G/end
// take precedence over the navigation keys they share (page down,
// bottom); r is the spec revision, as on the scenario screen.
func DefaultAgentsKeys() AgentsKeys {
	return AgentsKeys{
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

// ExerciseKeys are the propagation exercise's own keys.
type ExerciseKeys struct {
	Choose key.Binding // digits, for help only
	Focus  key.Binding
}

// DefaultExerciseKeys returns the propagation exercise's keys.
func DefaultExerciseKeys() ExerciseKeys {
	return ExerciseKeys{
		Choose: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "choose")),
		Focus:  key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "other step")),
	}
}
