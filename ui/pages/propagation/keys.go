package propagation

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the propagation exercise's own keys (the global keys and the
// navigation keys are the session's).
type KeyMap struct {
	Choose key.Binding // the digits, for help only; the digit pressed is the answer
	Focus  key.Binding // the other step, once step 1 is answered
}

// DefaultKeyMap returns the exercise's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Choose: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "choose")),
		Focus:  key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "other step")),
	}
}
