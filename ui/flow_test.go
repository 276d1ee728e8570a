package ui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
)

// waitFor waits until the program's output (since the last wait) holds s.
func waitFor(t *testing.T, tm *teatest.TestModel, s string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(s))
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// TestLabFlow walks the main job as a newcomer does: home → lab → filter
// to timeout-second-try → open → enter (attempt 1: a transient error) →
// the number of retry_same → ✓ verdict → enter (attempt 2 succeeds), and
// goldens the final screen at two sizes.
func TestLabFlow(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			cat := subsetCatalog(t, timeoutID)
			tm := teatest.NewTestModel(t, New(Options{Catalog: cat, ExportDir: t.TempDir()}),
				teatest.WithInitialTermSize(sz[0], sz[1]))
			waitFor(t, tm, "Reference")

			tm.Send(press("enter")) // Lab is the first item
			waitFor(t, tm, "Lab scenarios")

			tm.Send(press("/"))
			tm.Type(timeoutID)
			tm.Send(press("enter")) // keep the filter
			waitFor(t, tm, "match")
			tm.Send(press("enter")) // open it
			waitFor(t, tm, "make the call")

			tm.Send(press("enter"))
			waitFor(t, tm, "attempt 1")

			tm.Send(press(retryKey()))
			waitFor(t, tm, "✓ Correct")

			tm.Send(press("enter"))
			waitFor(t, tm, "attempt 2")

			tm.Send(press("q"))
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
			view := fm.View()
			for _, want := range []string{"attempt 2", "✓ Correct", "§2 Transient errors", "resultCount"} {
				if !strings.Contains(view, want) && !(want == "resultCount" && sz[0] < 100) {
					t.Errorf("final view lacks %q:\n%s", want, view)
				}
			}
			teatest.RequireEqualOutput(t, []byte(view))
		})
	}
}

// TestReferenceTop goldens the top of the Reference screen at 80x24.
func TestReferenceTop(t *testing.T) {
	m, _ := drive(New(Options{Catalog: subsetCatalog(t, timeoutID)}),
		tea.WindowSizeMsg{Width: 80, Height: 24}, press("down"), press("enter"))
	view := m.View()
	for _, want := range []string{"§1  Two layers of failure", "protocol error", "who deals with it"} {
		if !strings.Contains(view, want) {
			t.Errorf("reference lacks %q:\n%s", want, view)
		}
	}
	teatest.RequireEqualOutput(t, []byte(view))
}

// TestTooSmall goldens the size message at 50x15.
func TestTooSmall(t *testing.T) {
	m, _ := drive(New(Options{Catalog: subsetCatalog(t, timeoutID)}), tea.WindowSizeMsg{Width: 50, Height: 15})
	view := m.View()
	// The sizes on a line of their own; "q quits" on the last line.
	if strings.TrimSpace(lineWith(view, "need at least")) != "need at least 60x20, have 50x15" ||
		strings.TrimSpace(lineWith(view, "terminal too small")) != "terminal too small" {
		t.Fatalf("no size message:\n%s", view)
	}
	if last := strings.Fields(view); len(last) < 2 || strings.Join(last[len(last)-2:], " ") != "q quits" {
		t.Errorf("q quits is not last:\n%s", view)
	}
	// Smaller still: q quits stays, nothing overflows.
	for _, sz := range [][2]int{{20, 3}, {12, 2}, {40, 1}, {5, 4}} {
		v := tooSmallView(sz[0], sz[1])
		lines := strings.Split(v, "\n")
		if len(lines) > sz[1] || !strings.Contains(v, "q quits") && sz[0] >= 7 {
			t.Errorf("%v: %q", sz, v)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > sz[0] {
				t.Errorf("%v: line %q too wide", sz, l)
			}
		}
	}
	teatest.RequireEqualOutput(t, []byte(view))
}
