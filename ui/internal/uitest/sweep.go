package uitest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/common"
)

func sweepSizes() [][2]int {
	var sizes [][2]int
	for w := 1; w <= 300; w += 7 {
		for h := 1; h <= 100; h += 5 {
			sizes = append(sizes, [2]int{w, h})
		}
	}
	return append(sizes, [2]int{1, 1}, [2]int{59, 19}, [2]int{60, 20}, [2]int{80, 24}, [2]int{120, 40}, [2]int{300, 100}, [2]int{99, 30}, [2]int{100, 30}, [2]int{60, 19}, [2]int{59, 20})
}

// Sweep resizes every state (the root model in some screen's state, by
// name; one subtest each) through widths 1..300 and heights 1..100: View
// never panics, and from common.MinWidth x common.MinHeight up no line is
// wider than the terminal and the frame is no taller than it; below, the
// too-small message shows.
func Sweep(t *testing.T, states map[string]tea.Model) {
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

// Must fails the test on a non-nil error.
func Must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

// SpoilProgress writes garbage over the progress file in dir.
func SpoilProgress(tb testing.TB, dir string) {
	tb.Helper()
	Must(tb, os.WriteFile(filepath.Join(dir, quiz.FileName), []byte("{not json"), 0o644))
}
