package walkthrough

import (
	"github.com/charmbracelet/bubbles/key"
)

// KeyMap is the presenting screen's keys. Forward and Back are what
// presentation clickers send; the screen takes every key itself (the
// root's w, y, q, esc and ? mean something else here), ctrl+c aside.
type KeyMap struct {
	Forward key.Binding // the next part, past the last one the next step
	Back    key.Binding // the previous part, before the first the previous step
	Jump    key.Binding // g, a step number, enter (or a pause)
	All     key.Binding // every part of this step (a long agents run)
	First   key.Binding
	Last    key.Binding
	Black   key.Binding // blank the room's screen to black
	White   key.Binding // ... to white
	Notes   key.Binding
	Timer   key.Binding
	Up      key.Binding // scroll the pane in focus
	Down    key.Binding
	Focus   key.Binding // the next pane to scroll
	Relink  key.Binding // presenter: join the audience view again
	Help    key.Binding
	Leave   key.Binding // back to the list (asks)
	Quit    key.Binding // asks first
}

// DefaultKeyMap returns the clicker keys (space, →, PgDn and enter
// forward; ←, PgUp and backspace back) and the presenter's letters.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Forward: key.NewBinding(key.WithKeys(" ", "right", "pgdown", "enter"), key.WithHelp("space/→/pgdn/enter", "forward")),
		Back:    key.NewBinding(key.WithKeys("left", "pgup", "backspace"), key.WithHelp("←/pgup/backspace", "back")),
		Jump:    key.NewBinding(key.WithKeys("g"), key.WithHelp("g 7 enter", "go to step 7")),
		All:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "all of this step")),
		First:   key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "first step")),
		Last:    key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "last step")),
		Black:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "blank to black")),
		White:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "blank to white")),
		Notes:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "presenter notes")),
		Timer:   key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "timer")),
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		Focus:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "pane to scroll")),
		Relink:  key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "link again")),
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "keys")),
		Leave:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the list")),
		Quit:    key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding {
	k := m.KeyMap
	return []key.Binding{k.Forward, k.Back, k.Jump, k.Black, k.Notes, k.Timer, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding {
	k := m.KeyMap
	if m.follow {
		return [][]key.Binding{{answerBinding}, {k.Up, k.Down, k.Focus}, {k.Help, k.Leave, k.Quit}}
	}
	scroll := []key.Binding{k.Up, k.Down, k.Focus}
	if m.presenter {
		scroll = append(scroll, k.Relink)
	}
	return [][]key.Binding{
		{k.Forward, k.Back, k.All, k.Jump, k.First, k.Last},
		{k.Black, k.White, k.Notes, k.Timer},
		scroll,
		{k.Help, k.Leave, k.Quit},
	}
}

// ListKeyMap is the walkthrough list's own keys; the cursor moves with
// the session's navigation keys.
type ListKeyMap struct {
	Present   key.Binding
	Presenter key.Binding
}

// DefaultListKeyMap returns enter to present (the room's screen) and p
// for the presenter view.
func DefaultListKeyMap() ListKeyMap {
	return ListKeyMap{
		Present:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "present")),
		Presenter: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "presenter view")),
	}
}
