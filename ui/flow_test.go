package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/ui/internal/uitest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
)

// TestLabFlow walks the main job as a newcomer does: home → lab → filter
// to timeout-second-try → open → enter (attempt 1: a transient error) →
// the number of retry_same → ✓ verdict → enter (attempt 2 succeeds), and
// goldens the final screen at two sizes.
func TestLabFlow(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			cat := uitest.SubsetCatalog(t, uitest.TimeoutID)
			tm := teatest.NewTestModel(t, New(Options{Catalog: cat, ExportDir: t.TempDir()}),
				teatest.WithInitialTermSize(sz[0], sz[1]))
			uitest.WaitFor(t, tm, "Reference")

			tm.Send(uitest.Press("enter")) // Lab is the first item
			uitest.WaitFor(t, tm, "Lab scenarios")

			tm.Send(uitest.Press("/"))
			tm.Type(uitest.TimeoutID)
			tm.Send(uitest.Press("enter")) // keep the filter
			uitest.WaitFor(t, tm, "match")
			tm.Send(uitest.Press("enter")) // open it
			uitest.WaitFor(t, tm, "make the call")

			tm.Send(uitest.Press("enter"))
			uitest.WaitFor(t, tm, "attempt 1")

			tm.Send(uitest.Press(uitest.RetryKey()))
			uitest.WaitFor(t, tm, "✓ Correct")

			tm.Send(uitest.Press("enter"))
			uitest.WaitFor(t, tm, "attempt 2")

			tm.Send(uitest.Press("q"))
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
	m, _ := uitest.Drive(New(Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}),
		tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.Press("down"), uitest.Press("enter"))
	view := m.View()
	for _, want := range []string{"§1 Two layers of failure", "protocol error", "who deals with it"} {
		if !strings.Contains(view, want) {
			t.Errorf("reference lacks %q:\n%s", want, view)
		}
	}
	teatest.RequireEqualOutput(t, []byte(view))
}

// TestTooSmall goldens the size message at 50x15.
func TestTooSmall(t *testing.T) {
	m, _ := uitest.Drive(New(Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}), tea.WindowSizeMsg{Width: 50, Height: 15})
	view := m.View()
	// The sizes on a line of their own; "q quits" on the last line.
	if strings.TrimSpace(uitest.LineWith(view, "need at least")) != "need at least 60x20, have 50x15" ||
		strings.TrimSpace(uitest.LineWith(view, "terminal too small")) != "terminal too small" {
		t.Fatalf("no size message:\n%s", view)
	}
	if last := strings.Fields(view); len(last) < 2 || strings.Join(last[len(last)-2:], " ") != "q quits" {
		t.Errorf("q quits is not last:\n%s", view)
	}
	// Smaller still: q quits stays, nothing overflows.
	for _, sz := range [][2]int{{20, 3}, {12, 2}, {40, 1}, {5, 4}} {
		v := tooSmallView(sz[0], sz[1], false)
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

// TestTooSmallWordsWhole: the size message never cuts a word, wherever it
// is too small. At 20x5, after q on a screen with work, it read "this
// screen has work" and "q again quits and lo"; now it gives way to a
// shorter wording that reads whole, with the quit line last and whole.
func TestTooSmallWordsWhole(t *testing.T) {
	vocab := map[string]bool{}
	for _, s := range []string{
		"terminal too small", "need at least 60x20, have", "q quits",
		"this screen has work in progress: enlarge the terminal to keep it",
		"q again quits and loses it", "work in progress: enlarge to keep it", "too small", "unsaved work",
	} {
		for _, f := range strings.Fields(s) {
			vocab[f] = true
		}
	}
	if v := strings.Join(strings.Fields(tooSmallView(20, 5, true)), " "); !strings.Contains(v, "work in progress: enlarge to keep it") || !strings.HasSuffix(v, "q again quits and loses it") {
		t.Errorf("20x5 does not read whole: %q", v)
	}
	// Smaller than any wording: no panic, nothing overflows.
	for w := 0; w < 12; w++ {
		for h := 0; h < 6; h++ {
			for _, asked := range []bool{false, true} {
				for _, l := range strings.Split(tooSmallView(w, h, asked), "\n") {
					if ansi.StringWidth(l) > w {
						t.Fatalf("%dx%d: line %q too wide", w, h, l)
					}
				}
			}
		}
	}
	for _, asked := range []bool{false, true} {
		quits := []string{"q quits"}
		if asked {
			quits = []string{"q again quits and loses it", "q again quits"}
		}
		for w := 10; w < 60; w++ {
			for h := 5; h < 20; h++ {
				v := tooSmallView(w, h, asked)
				lines := strings.Split(v, "\n")
				if len(lines) > h {
					t.Fatalf("%dx%d: %d lines", w, h, len(lines))
				}
				for _, l := range lines {
					if ansi.StringWidth(l) > w {
						t.Fatalf("%dx%d: line %q too wide", w, h, l)
					}
				}
				have := fmt.Sprintf("%dx%d", w, h)
				for _, f := range strings.Fields(v) {
					if !vocab[f] && f != have {
						t.Fatalf("%dx%d asked=%v: %q is not a whole word:\n%s", w, h, asked, f, v)
					}
				}
				folded := strings.Join(strings.Fields(v), " ")
				if !strings.Contains(folded, "too small") {
					t.Errorf("%dx%d asked=%v: no \"too small\":\n%s", w, h, asked, v)
				}
				ok := false
				for _, q := range quits {
					ok = ok || strings.HasSuffix(folded, q)
				}
				if !ok {
					t.Errorf("%dx%d asked=%v: the quit line is not last and whole:\n%s", w, h, asked, v)
				}
			}
		}
	}
}
