package actions

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/styles"
)

// newModel is a chooser whose styles render plain text (the renderer
// writes nowhere, so it has no colours).
func newModel() *Model {
	return New(&common.Common{Styles: styles.DefaultStyles(lipgloss.NewRenderer(io.Discard))})
}

func press(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func TestEveryModeListsEveryActionWithinTheWidth(t *testing.T) {
	m := newModel()
	for _, mode := range []Mode{Wrap, Cut, Compact} {
		for w := 10; w <= 200; w++ {
			lines := m.Lines(w, mode)
			for i, l := range lines {
				if lw := ansi.StringWidth(l); lw > w {
					t.Fatalf("mode %d width %d: line %d is %d wide: %q", mode, w, i, lw, l)
				}
			}
			if m.Height(w, mode) != len(lines) {
				t.Fatalf("mode %d width %d: Height %d for %d lines", mode, w, m.Height(w, mode), len(lines))
			}
		}
	}
	flat := func(lines []string) string { return strings.Join(strings.Fields(strings.Join(lines, " ")), " ") }
	wide := flat(m.Lines(200, Wrap))
	compact := m.Lines(200, Compact)
	for i, a := range rules.Actions {
		n := string(rune('1' + i))
		if !strings.Contains(wide, n+" "+a.Title()) || !strings.Contains(wide, strings.Join(strings.Fields(a.Description()), " ")) {
			t.Errorf("Wrap lacks %s %s and its whole description:\n%s", n, a.Title(), wide)
		}
		if !strings.Contains(strings.Join(compact, "\n"), n+" "+string(a)) {
			t.Errorf("Compact lacks %s %s:\n%s", n, a, strings.Join(compact, "\n"))
		}
	}
	if len(compact) >= len(rules.Actions) {
		t.Errorf("Compact takes %d lines at 200 columns", len(compact))
	}
	// Cut: one line per action, beside its title, long ones cut.
	cut := m.Lines(110, Cut)
	if len(cut) != len(rules.Actions) || !strings.Contains(strings.Join(cut, "\n"), "…") {
		t.Errorf("Cut at 110 is not one cut line per action:\n%s", strings.Join(cut, "\n"))
	}
}

func TestDigitSendsChosenMsg(t *testing.T) {
	m, other := newModel(), newModel()
	_, cmd := m.Update(press("3"))
	if cmd == nil {
		t.Fatal("3 sent nothing")
	}
	msg, ok := cmd().(ChosenMsg)
	if !ok || msg.Action != rules.Actions[2] {
		t.Fatalf("3 sent %#v, want %s", msg, rules.Actions[2])
	}
	if !msg.From(m) || msg.From(other) {
		t.Error("From does not tell the choosers apart")
	}
	for _, k := range []string{"0", "x", "g"} {
		if _, cmd := m.Update(press(k)); cmd != nil {
			t.Errorf("%s sent %#v", k, cmd())
		}
	}
	// Rebound keys pick by position.
	m.KeyMap.Choose = key.NewBinding(key.WithKeys("a", "b", "c", "d", "e", "f", "g", "h", "i"))
	if a, ok := m.Action(press("b")); !ok || a != rules.Actions[1] {
		t.Errorf("b picks %q %v", a, ok)
	}
	if _, ok := m.Action(press("2")); ok {
		t.Error("2 still picks after rebinding")
	}
}

func TestMarkShowsTheGrade(t *testing.T) {
	m := newModel()
	line := func(a rules.Action) string {
		for _, l := range m.Lines(200, Wrap) {
			if strings.Contains(l, a.Title()) {
				return l
			}
		}
		return ""
	}
	if l := line(rules.RetrySame); !strings.HasPrefix(l, "  1 ") {
		t.Errorf("unmarked: %q", l)
	}
	m.Mark(rules.RetrySame, true)
	if l := line(rules.RetrySame); !strings.HasPrefix(l, "✓ 1 ") {
		t.Errorf("right: %q", l)
	}
	if l := line(rules.FixInput); !strings.HasPrefix(l, "  2 ") {
		t.Errorf("another action is marked: %q", l)
	}
	m.Mark(rules.FixInput, false)
	if l := line(rules.FixInput); !strings.HasPrefix(l, "✗ 2 ") {
		t.Errorf("wrong: %q", l)
	}
	if l := line(rules.RetrySame); strings.Contains(l, "✓") {
		t.Errorf("the old mark stays: %q", l)
	}
	m.ClearMark()
	if strings.ContainsAny(strings.Join(m.Lines(200, Compact), ""), "✓✗") {
		t.Error("ClearMark left a mark")
	}
}

func TestViewFitsItsSize(t *testing.T) {
	m := newModel()
	if m.View() != "" {
		t.Error("a chooser with no size draws something")
	}
	m.SetSize(80, 3)
	m.SetMode(Compact)
	if m.Mode() != Compact {
		t.Error("SetMode did not stick")
	}
	if lines := strings.Split(m.View(), "\n"); len(lines) > 3 || !strings.Contains(lines[0], "1 retry_same") {
		t.Errorf("View at 80x3:\n%s", m.View())
	}
	if got := m.ShortHelp(); len(got) != 1 || got[0].Help().Key != "1-9" {
		t.Errorf("ShortHelp: %v", got)
	}
}
