package agents

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/errorlab/errorlab/ui/common"
)

// ShortHelp implements help.KeyMap: the keys of the current mode (the
// timelines, an expanded step, the subagent view).
func (m *Model) ShortHelp() []key.Binding {
	k, n := m.KeyMap, m.c.Nav
	switch m.mode {
	case modeExpanded:
		return []key.Binding{common.Brief(k.Focus, "other pane"), common.Brief(n.Down, "scroll"), common.Brief(m.c.Keys.Copy, "copy"), common.Brief(m.c.Keys.Write, "write")}
	case modeSubagent:
		return []key.Binding{common.Brief(n.Down, "step"), common.Brief(n.Up, "step"), common.Brief(k.Expand, "raw exchange"), common.Brief(k.Focus, "pane"), common.Brief(m.c.Keys.Copy, "copy report"), common.Brief(k.Subagent, "close")}
	}
	speed := key.NewBinding(key.WithKeys("+", "-"), key.WithHelp("+/-", "speed"))
	return []key.Binding{
		common.Brief(k.Step, "step"), common.Brief(k.Play, "play"), speed, common.Brief(k.All, "all"), common.Brief(k.Focus, "side"),
		common.Brief(k.Expand, "raw"), m.subagentHelp(common.Brief(k.Subagent, "subagent")), common.Brief(k.Revision, "spec"), k.Restart, key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "select")),
	}
}

// subagentHelp is b, or a disabled copy (help leaves it out) where the
// subagent view cannot open: a series, or a scenario that cannot be
// delegated.
func (m *Model) subagentHelp(b key.Binding) key.Binding {
	if m.delegErr != nil {
		b.SetEnabled(false)
	}
	return b
}

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding {
	k, n, g := m.KeyMap, m.c.Nav, m.c.Keys
	switch m.mode {
	case modeExpanded:
		return [][]key.Binding{
			{common.Brief(k.Focus, "request/response"), common.Brief(k.Expand, "close")},
			{n.Up, n.Down, n.PageUp, n.PageDown, n.Top, n.Bottom},
			{common.Brief(g.Copy, "copy envelope"), common.Brief(g.Write, "write exchange")},
		}
	case modeSubagent:
		return [][]key.Binding{
			{m.sub.KeyMap.Up, m.sub.KeyMap.Down, common.Brief(k.Expand, "raw exchange")},
			{common.Brief(k.Focus, "next pane"), k.FocusRev, n.PageUp, n.PageDown},
			{common.Brief(g.Copy, "copy report"), common.Brief(k.Subagent, "close subagent view")},
		}
	}
	tk := m.sides[sideNaive].KeyMap
	return [][]key.Binding{
		{k.Step, k.Play, k.Faster, k.Slower, k.All, k.Restart, k.Revision},
		{k.Focus, k.FocusRev, tk.Up, tk.Down, tk.PageUp, tk.Top},
		{k.Expand, m.subagentHelp(k.Subagent), common.Brief(g.Copy, "copy (expanded)"), common.Brief(g.Write, "write (expanded)")},
	}
}
