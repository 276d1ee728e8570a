package ui

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/rules"
)

// screenStates builds the app in each state the sweep checks.
func screenStates(t testing.TB) map[string]tea.Model {
	t.Helper()
	cat := uitest.Catalog(t)
	size := tea.WindowSizeMsg{Width: 120, Height: 40}
	mk := func(id string, msgs ...tea.Msg) tea.Model {
		m := New(Options{Catalog: cat, ScenarioID: id, ExportDir: t.(interface{ TempDir() string }).TempDir()})
		m, _ = uitest.Drive(m, append([]tea.Msg{size}, msgs...)...)
		return m
	}
	states := map[string]tea.Model{
		"home":      mk(""),
		"lablist":   mk("", uitest.Press("enter")),
		"filter":    mk("", uitest.Press("enter"), uitest.Press("/"), uitest.Press("r"), uitest.Press("e")),
		"reference": mk("", uitest.Press("down"), uitest.Press("enter")),
		"before":    mk(uitest.TimeoutID),
		"after":     mk(uitest.TimeoutID, uitest.Press("enter")),
		"verdict":   mk(uitest.TimeoutID, uitest.Press("enter"), uitest.Press(uitest.RetryKey())),
		"diff":      mk(uitest.TimeoutID, uitest.Press("enter"), uitest.Press("d")),
		"fullhelp":  mk(uitest.TimeoutID, uitest.Press("enter"), uitest.Press(uitest.RetryKey()), uitest.Press("?")),

		"agents-picker":       mk("", append(uitest.ToAgents(t, New(Options{})), uitest.Press("/"), uitest.Press("s"))...),
		"agents-before":       mk(uitest.TimeoutID, uitest.Press("a")),
		"agents-steps":        mk(uitest.TimeoutID, uitest.Press("a"), uitest.Press(" "), uitest.Press(" "), uitest.Press(" ")),
		"agents-after":        mk(uitest.TimeoutID, uitest.Press("a"), uitest.Press("G")),
		"agents-series":       mk("", append(uitest.ToAgents(t, New(Options{})), uitest.Press("enter"), uitest.Press("G"), uitest.Press("tab"), uitest.Press("tab"))...),
		"agents-expanded":     mk(uitest.RefundWindowID, uitest.Press("a"), uitest.Press("G"), uitest.Press("g"), uitest.Press("enter")),
		"agents-subagent":     mk(uitest.StaffID, uitest.Press("a"), uitest.Press("c")),
		"agents-sub-expanded": mk(uitest.StoreDownID, uitest.Press("a"), uitest.Press("c"), uitest.Press("enter")),
		"agents-help":         mk(uitest.TimeoutID, uitest.Press("a"), uitest.Press("?")),
		"exercise":            mk(uitest.StoreDownID, uitest.Press("enter"), uitest.Press("e")),
		"exercise-answered":   mk(uitest.StoreDownID, uitest.Press("enter"), uitest.Press("e"), uitest.Press("2"), uitest.Press("3"), uitest.Press("4")),
	}
	return states
}

// TestSizeSweep resizes every screen through widths 1..300 and heights
// 1..100: View never panics, and from 60x20 up no line is wider than the
// terminal and the frame is no taller than it. The quiz screens' states
// are swept in ui/pages/quiz (TestQuizSizeSweep).
func TestSizeSweep(t *testing.T) {
	uitest.Sweep(t, screenStates(t))
}

// TestEveryScenarioRenders opens every built-in scenario, makes the call
// in every style under every revision, cycles the views, answers and
// opens the comparison, at three sizes: no panic, no error status, and
// nothing wider than the terminal.
func TestEveryScenarioRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	cat := uitest.Catalog(t)
	for _, sc := range cat.Scenarios {
		t.Run(sc.ID, func(t *testing.T) {
			m := New(Options{Catalog: cat, ScenarioID: sc.ID, ExportDir: t.TempDir(), Clipboard: io.Discard})
			m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 120, Height: 40})
			check := func(what string) {
				t.Helper()
				for _, sz := range [][2]int{{60, 20}, {80, 24}, {120, 40}} {
					m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
					for i, l := range strings.Split(m.View(), "\n") {
						if ansi.StringWidth(l) > sz[0] {
							t.Fatalf("%s at %dx%d: line %d too wide: %q", what, sz[0], sz[1], i, l)
						}
					}
				}
				if st := m.(*App).c.Status(); st.Kind == common.StatusError && !strings.Contains(st.Text, "not the best move") {
					t.Fatalf("%s: error status: %s", what, st.Text)
				}
			}
			for range rules.Revisions {
				for range sc.Styles {
					m, _ = uitest.Drive(m, uitest.Press("enter"))
					check("call")
					for range 3 {
						m, _ = uitest.Drive(m, uitest.Press("v"))
						check("view")
					}
					m, _ = uitest.Drive(m, uitest.Press("s"))
				}
				m, _ = uitest.Drive(m, uitest.Press("r"))
			}
			for i := range rules.Actions {
				m, _ = uitest.Drive(m, uitest.Press(fmt.Sprint(i+1)))
				check("verdict")
			}
			m, _ = uitest.Drive(m, uitest.Press("d"))
			check("diff")
			m, _ = uitest.Drive(m, uitest.Press("w"), uitest.Press("y"))
			check("export")
		})
	}
}
