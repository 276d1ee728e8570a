package ui

import (
	"fmt"
	"github.com/errorlab/errorlab/ui/common"
	"io"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/rules"
)

const timeoutID = "timeout-second-try"

// retryKey is the number key of retry_same, from the rules' order.
func retryKey() string { return fmt.Sprint(slices.Index(rules.Actions, rules.RetrySame) + 1) }

// screenStates builds the app in each state the sweep checks.
func screenStates(t testing.TB) map[string]tea.Model {
	t.Helper()
	cat := catalog(t)
	size := tea.WindowSizeMsg{Width: 120, Height: 40}
	mk := func(id string, msgs ...tea.Msg) tea.Model {
		m := New(Options{Catalog: cat, ScenarioID: id, ExportDir: t.(interface{ TempDir() string }).TempDir()})
		m, _ = drive(m, append([]tea.Msg{size}, msgs...)...)
		return m
	}
	states := map[string]tea.Model{
		"home":      mk(""),
		"lablist":   mk("", press("enter")),
		"filter":    mk("", press("enter"), press("/"), press("r"), press("e")),
		"reference": mk("", press("down"), press("enter")),
		"before":    mk(timeoutID),
		"after":     mk(timeoutID, press("enter")),
		"verdict":   mk(timeoutID, press("enter"), press(retryKey())),
		"diff":      mk(timeoutID, press("enter"), press("d")),
		"fullhelp":  mk(timeoutID, press("enter"), press(retryKey()), press("?")),

		"agents-picker":       mk("", append(toAgents(t), press("/"), press("s"))...),
		"agents-before":       mk(timeoutID, press("a")),
		"agents-steps":        mk(timeoutID, press("a"), press(" "), press(" "), press(" ")),
		"agents-after":        mk(timeoutID, press("a"), press("G")),
		"agents-series":       mk("", append(toAgents(t), press("enter"), press("G"), press("tab"), press("tab"))...),
		"agents-expanded":     mk(refundWindowID, press("a"), press("G"), press("g"), press("enter")),
		"agents-subagent":     mk(staffID, press("a"), press("c")),
		"agents-sub-expanded": mk(storeDownID, press("a"), press("c"), press("enter")),
		"agents-help":         mk(timeoutID, press("a"), press("?")),
		"exercise":            mk(storeDownID, press("enter"), press("e")),
		"exercise-answered":   mk(storeDownID, press("enter"), press("e"), press("2"), press("3"), press("4")),
	}
	for name, m := range quizScreenStates(t) {
		states[name] = m
	}
	return states
}

// toAgents is the keys from Home to the agents picker.
func toAgents(t testing.TB) []tea.Msg {
	var in []tea.Msg
	for range agentsKeyIndex(t) {
		in = append(in, press("down"))
	}
	return append(in, press("enter"))
}

func sweepSizes() [][2]int {
	var sizes [][2]int
	for w := 1; w <= 300; w += 7 {
		for h := 1; h <= 100; h += 5 {
			sizes = append(sizes, [2]int{w, h})
		}
	}
	return append(sizes, [2]int{1, 1}, [2]int{59, 19}, [2]int{60, 20}, [2]int{80, 24}, [2]int{120, 40}, [2]int{300, 100}, [2]int{99, 30}, [2]int{100, 30}, [2]int{60, 19}, [2]int{59, 20})
}

// TestSizeSweep resizes every screen through widths 1..300 and heights
// 1..100: View never panics, and from 60x20 up no line is wider than the
// terminal and the frame is no taller than it.
func TestSizeSweep(t *testing.T) {
	states := screenStates(t)
	names := make([]string, 0, len(states))
	for n := range states {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		m := states[name]
		t.Run(name, func(t *testing.T) {
			for _, sz := range sweepSizes() {
				w, h := sz[0], sz[1]
				var view string
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("%dx%d: panic: %v", w, h, r)
						}
					}()
					m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
					view = m.View()
				}()
				lines := strings.Split(view, "\n")
				if w >= common.MinWidth && h >= common.MinHeight {
					for i, l := range lines {
						if lw := ansi.StringWidth(l); lw > w {
							t.Fatalf("%dx%d: line %d is %d wide:\n%s", w, h, i, lw, l)
						}
					}
					if len(lines) > h {
						t.Fatalf("%dx%d: %d lines", w, h, len(lines))
					}
				} else if !strings.Contains(strings.Join(strings.Fields(view), " "), "too small") && w >= 10 && h >= 5 {
					t.Fatalf("%dx%d: no too-small message:\n%s", w, h, view)
				}
			}
		})
	}
}

// TestEveryScenarioRenders opens every built-in scenario, makes the call
// in every style under every revision, cycles the views, answers and
// opens the comparison, at three sizes: no panic, no error status, and
// nothing wider than the terminal.
func TestEveryScenarioRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	cat := catalog(t)
	for _, sc := range cat.Scenarios {
		t.Run(sc.ID, func(t *testing.T) {
			m := New(Options{Catalog: cat, ScenarioID: sc.ID, ExportDir: t.TempDir(), Clipboard: io.Discard})
			m, _ = drive(m, tea.WindowSizeMsg{Width: 120, Height: 40})
			check := func(what string) {
				t.Helper()
				for _, sz := range [][2]int{{60, 20}, {80, 24}, {120, 40}} {
					m, _ = drive(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
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
					m, _ = drive(m, press("enter"))
					check("call")
					for range 3 {
						m, _ = drive(m, press("v"))
						check("view")
					}
					m, _ = drive(m, press("s"))
				}
				m, _ = drive(m, press("r"))
			}
			for i := range rules.Actions {
				m, _ = drive(m, press(fmt.Sprint(i+1)))
				check("verdict")
			}
			m, _ = drive(m, press("d"))
			check("diff")
			m, _ = drive(m, press("w"), press("y"))
			check("export")
		})
	}
}
