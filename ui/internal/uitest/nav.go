package uitest

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// HomeKeyIndex is how many times to press down on Home to put the cursor
// (▸) on the item named item. home is a fresh root model at Home; it is
// driven (sized, then down presses) to find out, so pass one made for the
// purpose.
func HomeKeyIndex(tb testing.TB, home tea.Model, item string) int {
	tb.Helper()
	m, _ := Drive(home, Size120)
	for i := range 20 {
		if strings.Contains(LineWith(m.View(), "▸"), item) {
			return i
		}
		m, _ = Drive(m, Press("down"))
	}
	tb.Fatalf("no %s item on Home:\n%s", item, m.View())
	return 0
}

// AgentsKeyIndex is how many times to press down on Home to reach Agents
// (home as for HomeKeyIndex).
func AgentsKeyIndex(tb testing.TB, home tea.Model) int {
	tb.Helper()
	return HomeKeyIndex(tb, home, "Agents")
}

// ToAgents is the keys from Home to the agents picker (home as for
// HomeKeyIndex).
func ToAgents(tb testing.TB, home tea.Model) []tea.Msg {
	tb.Helper()
	var in []tea.Msg
	for range AgentsKeyIndex(tb, home) {
		in = append(in, Press("down"))
	}
	return append(in, Press("enter"))
}
