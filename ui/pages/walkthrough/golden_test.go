package walkthrough_test

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/walkthrough"
	"github.com/errorlab/errorlab/ui/styles"
)

// frames are the states every golden holds: each kind of step (the live
// call mid-reveal, the agents part-way and at the end, the question
// before and after its answer), the notes over the room's screen and the
// presenter view. keys lead there from the first step.
var frames = []struct {
	name      string
	presenter bool
	keys      []string
}{
	{"narration", false, nil},
	{"live call, errorCategory revealed", false, []string{"g", "2", "enter", "space", "space", "space", "space"}},
	{"compare, both", false, []string{"g", "3", "enter", "space", "space"}},
	{"agents, three events", false, []string{"g", "4", "enter", "space", "space", "space"}},
	{"agents, all shown", false, []string{"g", "5", "enter", "left"}},
	{"coordinator, all shown", false, []string{"g", "6", "enter", "left"}},
	{"question", false, []string{"g", "7", "enter"}},
	{"answer", false, []string{"g", "8", "enter", "left"}},
	{"takeaway", false, []string{"end"}},
	{"notes over the live call", false, []string{"g", "2", "enter", "space", "n"}},
	{"presenter, live call", true, []string{"g", "2", "enter", "space", "space"}},
}

// TestSlides goldens every frame at 80x24 and 120x40: without colour
// (NO_COLOR, the Ascii profile) and under each theme on a 256-colour
// terminal, so a theme that loses a state or a colour shows here. Every
// frame is checked for size, and the plain ones for their words.
func TestSlides(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	walkthrough.UseHooks(t, func() time.Time { return t0 }, nil, 0)
	set, cat := testSet(t)
	type profile struct {
		name  string
		p     termenv.Profile
		theme styles.Theme
	}
	profiles := []profile{{"plain", termenv.Ascii, styles.ThemeAuto}}
	for _, th := range styles.Themes {
		profiles = append(profiles, profile{string(th), termenv.ANSI256, th})
	}
	for _, pr := range profiles {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s/%dx%d", pr.name, sz[0], sz[1]), func(t *testing.T) {
				var out strings.Builder
				for _, f := range frames {
					r := lipgloss.NewRenderer(io.Discard)
					r.SetColorProfile(pr.p)
					r.SetHasDarkBackground(true)
					o := ui.Options{Catalog: cat, Walkthroughs: set, WalkthroughID: "every-kind", Presenter: f.presenter,
						Renderer: r, Theme: pr.theme, ExportDir: t.TempDir()}
					m, _ := uitest.Start(ui.New(o), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
					m, _ = press(m, f.keys...)
					view := m.View()
					lines := strings.Split(view, "\n")
					if len(lines) != sz[1] {
						t.Errorf("%s: %d lines", f.name, len(lines))
					}
					for i, l := range lines {
						if w := ansi.StringWidth(l); w > sz[0] {
							t.Errorf("%s: line %d is %d wide", f.name, i, w)
						}
					}
					if pr.p == termenv.Ascii {
						checkWords(t, f.name, view, sz[0])
					}
					fmt.Fprintf(&out, "=== %s\n%s\n", f.name, view)
				}
				teatest.RequireEqualOutput(t, []byte(out.String()))
			})
		}
	}
}

// checkWords: each frame says what it shows in words and symbols, so it
// reads without colour.
func checkWords(t *testing.T, name string, view string, w int) {
	t.Helper()
	want := map[string][]string{
		"narration":                         {"The afternoon rush", "1/8 · narration", "step 1 of 8"},
		"live call, errorCategory revealed": {"▶ revealing 4/8 errorCategory: transient", `▶       "errorCategory": "transient",`, "Request (client → server)", "Response (server → client)"},
		"compare, both":                     {"✗ generic (bad) · isError true · no errorCategory", "✓ good · isError true · business"},
		"agents, three events":              {"▶ event 3/", "Naive · meets generic", "✓ Informed · meets good"},
		"agents, all shown":                 {"✓ all shown", "✗ Naive", "Naive:    6 calls in 32.2s · ✗ wasted effort", "Informed: 2 calls in 0.4s · ✓ escalated properly"},
		"coordinator, all shown":            {"Subagent", "The one report it sent (partial)", "The coordinator's move", "Move:"},
		"question":                          {"? to the room", "▷ next click: the answer", "A  Wait a moment"},
		"answer":                            {"✓ Answer: A", "▶ A  Wait a moment", "  B  Change the arguments", "the answer: A transient failure"},
		"takeaway":                          {"★ the one thing to remember", "A transient failure is the one you resend"},
		"notes over the live call":          {"✎ Presenter notes · n hides", "Request first"},
		"presenter, live call":              {"Now · step 2 of 8 · part 2 of 8", "✎ Notes · n hides", "Next · 3/8 · bad and good", "▷ next click: isError: true", "⏱ 00:00 / 10:00", "not linked"},
	}[name]
	for _, s := range want {
		if !strings.Contains(view, s) {
			t.Errorf("%s at width %d lacks %q:\n%s", name, w, s, view)
		}
	}
}
