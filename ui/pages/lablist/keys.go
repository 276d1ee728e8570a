package lablist

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the lab list's own keys.
type KeyMap struct {
	Open   key.Binding
	Filter key.Binding
	Accept key.Binding // enter while typing a filter
	Clear  key.Binding // esc while a filter is typed or applied
}

// DefaultKeyMap returns the lab list's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Filter: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Accept: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		Clear:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	}
}
