package scenario

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/errorlab/errorlab/ui/common"
)

// KeyMap is the scenario screen's own keys. The action chooser's digits
// (1-9) and the verdict's g are its components' keys; the navigation keys
// scroll the focused pane, except g while a verdict is shown (home still
// goes to the top).
type KeyMap struct {
	Call     key.Binding
	Style    key.Binding
	Revision key.Binding
	View     key.Binding
	Diff     key.Binding
	Focus    key.Binding
	FocusRev key.Binding
	Next     key.Binding
	Agents   key.Binding
	Exercise key.Binding // only on subagent scenarios (InSubagent)
	Check    key.Binding // what `errorlab check` finds in the response on screen
}

// DefaultKeyMap returns the scenario screen's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Call:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "make the call")),
		Style:    key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "style")),
		Revision: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "spec revision")),
		View:     key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "view")),
		Diff:     key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "bad vs good")),
		Focus:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		FocusRev: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next scenario")),
		Agents:   key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "watch the agents")),
		Exercise: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "propagation exercise")),
		Check:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check the response")),
	}
}

// ShortHelp implements help.KeyMap. The verdict's g (read the rule's
// section) comes right after the digits, while a verdict is shown.
func (m *Model) ShortHelp() []key.Binding {
	k, g := m.keys, m.c.Keys
	bs := []key.Binding{common.Brief(k.Call, "call"), common.Brief(m.actions.KeyMap.Choose, "choose")}
	if m.verdict != nil {
		bs = append(bs, m.verdictP.ReferenceKey(false))
	}
	if k.Exercise.Enabled() {
		bs = append(bs, common.Brief(k.Exercise, "exercise"))
	}
	return append(bs, k.Style, common.Brief(k.Revision, "spec"), k.View,
		common.Brief(k.Diff, "compare"), common.Brief(k.Focus, "pane"), common.Brief(g.Copy, "copy"), common.Brief(g.Write, "write"), common.Brief(k.Next, "next"),
		common.Brief(k.Agents, "agents"))
}

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding {
	k, n, g := m.keys, m.c.Nav, m.c.Keys
	first := []key.Binding{k.Call, m.actions.KeyMap.Choose}
	if m.verdict != nil {
		first = append(first, m.verdictP.ReferenceKey(true))
	}
	return [][]key.Binding{
		append(first, k.Next, k.Agents, k.Exercise, k.Check),
		{k.Style, k.Revision, k.View, k.Diff},
		{k.Focus, k.FocusRev, n.Up, n.Down, n.PageUp, n.PageDown},
		{g.Copy, g.Write},
	}
}
