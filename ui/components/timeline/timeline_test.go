package timeline

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
)

func newTestTimeline(t *testing.T) *Model {
	t.Helper()
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	return New(common.New(r, &scenarios.Catalog{}, nil))
}

// run is a call failing with a transient isError, a wait and the retry
// that works, twice over (two parts of a series).
func run() ([]agent.Step, []Part) {
	var steps []agent.Step
	for i := range 2 {
		t0 := float64(i) * 10
		steps = append(steps,
			agent.Step{T: t0, Kind: agent.StepCall, Tool: "lookup_order", Arguments: map[string]any{"id": "A1"},
				Outcome: &rules.Classification{Layer: rules.LayerExecution, ErrorCategory: rules.Transient}},
			agent.Step{T: t0 + 1, Kind: agent.StepWait, Seconds: 1, Text: "backoff"},
			agent.Step{T: t0 + 1, Kind: agent.StepCall, Tool: "lookup_order", Outcome: &rules.Classification{}},
		)
	}
	return steps, []Part{{Start: 0, Scenario: "a", Label: "1/2 a"}, {Start: 3, Scenario: "b", Label: "2/2 b"}}
}

func TestRevealAndCursor(t *testing.T) {
	tl := newTestTimeline(t)
	steps, parts := run()
	tl.SetEmpty("Nothing yet.")
	tl.SetSteps(steps, parts, TimeColumn(11))
	tl.SetTitle("Naive agent")
	tl.SetFocused(true)
	tl.SetSize(60, 20)
	if !strings.Contains(tl.View(), "Nothing yet.") || tl.Selected() != nil {
		t.Fatalf("an empty timeline:\n%s", tl.View())
	}
	if next, ok := tl.NextT(); !ok || next != 0 {
		t.Fatalf("next step at %g, %v", next, ok)
	}
	tl.Reveal()
	view := tl.View()
	for _, want := range []string{"▸ Naive agent", "── 1/2 a", "▸ t=0.0s  → call lookup_order {\"id\":\"A1\"}", "✗ isError true (transient)"} {
		if !strings.Contains(view, want) {
			t.Errorf("after one reveal the view lacks %q:\n%s", want, view)
		}
	}
	tl.Reveal()
	tl.Reveal()
	if tl.Shown() != 3 || tl.Cursor() != 2 || tl.Calls() != 2 || tl.Clock() != 1 {
		t.Fatalf("shown %d cursor %d calls %d clock %g", tl.Shown(), tl.Cursor(), tl.Calls(), tl.Clock())
	}
	if !strings.Contains(tl.View(), "⏱ wait 1s · backoff") || !strings.Contains(tl.View(), "✓ success") {
		t.Errorf("the wait and the success:\n%s", tl.View())
	}
	// The keys move the cursor over the shown steps only.
	tl, _ = tl.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("k")})
	if tl.Cursor() != 1 || tl.Selected().Kind != agent.StepWait {
		t.Errorf("k: cursor %d", tl.Cursor())
	}
	tl, _ = tl.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("G")})
	if tl.Cursor() != 2 {
		t.Errorf("G: cursor %d, want the last shown step", tl.Cursor())
	}
	tl.RevealAll()
	if !tl.Done() || tl.Cursor() != 5 {
		t.Fatalf("reveal all: done %v cursor %d", tl.Done(), tl.Cursor())
	}
	if p, ok := tl.PartOf(4); !ok || p.Scenario != "b" {
		t.Errorf("step 4 is in part %+v", p)
	}
	tl.Reset()
	if tl.Shown() != 0 || tl.Cursor() != -1 {
		t.Errorf("reset: shown %d cursor %d", tl.Shown(), tl.Cursor())
	}
}

// TestWheelScrollsFreely: the wheel scrolls the pane away from the
// cursor, a resize keeps it there, and the next cursor move follows again.
func TestWheelScrollsFreely(t *testing.T) {
	tl := newTestTimeline(t)
	var steps []agent.Step
	for i := range 30 {
		steps = append(steps, agent.Step{T: float64(i), Kind: agent.StepWait, Seconds: 1, Text: fmt.Sprint("pause ", i)})
	}
	tl.SetSteps(steps, nil, TimeColumn(30))
	tl.SetSize(50, 8)
	tl.RevealAll()
	bottom := tl.Pane().Viewport().YOffset
	if bottom == 0 {
		t.Fatal("the cursor on the last step is not in view")
	}
	up := tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp}
	if !tl.Wheel(up) {
		t.Fatal("a wheel event was not taken")
	}
	tl.SetSize(50, 8)
	if got := tl.Pane().Viewport().YOffset; got != bottom-3 {
		t.Fatalf("after a notch up the offset is %d, want %d", got, bottom-3)
	}
	tl, _ = tl.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("k")})
	if got := tl.Pane().Viewport().YOffset; got < bottom-1 {
		t.Errorf("k did not bring the cursor back into view: offset %d", got)
	}
	if tl.Wheel(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}) {
		t.Error("a click counted as the wheel")
	}
}

func TestHelpAndOutcome(t *testing.T) {
	tl := newTestTimeline(t)
	if h := tl.ShortHelp(); len(h) != 2 || h[0].Help().Desc != "previous step" || h[1].Help().Desc != "next step" {
		t.Errorf("short help %+v", h)
	}
	if len(tl.FullHelp()[0]) != 6 {
		t.Errorf("full help %+v", tl.FullHelp())
	}
	for _, c := range []struct {
		s    agent.Step
		want string
	}{
		{agent.Step{Protocol: -32602}, "✗ protocol error -32602 (no tool result)"},
		{agent.Step{}, "⚠ no readable response"},
		{agent.Step{Outcome: &rules.Classification{Layer: rules.LayerExecution}}, "✗ isError true (no category)"},
		{agent.Step{Outcome: &rules.Classification{Empty: true}}, "∅ success, empty"},
		{agent.Step{Outcome: &rules.Classification{}}, "✓ success"},
	} {
		sym, text := Outcome(c.s)
		if got := sym + " " + text; got != c.want {
			t.Errorf("Outcome = %q, want %q", got, c.want)
		}
	}
}

// SetShown jumps to n revealed steps in one go, clamped to the run, and
// draws the same as revealing them one by one.
func TestSetShown(t *testing.T) {
	one, many := newTestTimeline(t), newTestTimeline(t)
	steps, parts := run()
	for _, tl := range []*Model{one, many} {
		tl.SetSteps(steps, parts, TimeColumn(11))
		tl.SetSize(60, 12)
	}
	for range 4 {
		one.Reveal()
	}
	many.SetShown(4)
	if many.Shown() != 4 || many.Cursor() != 3 || many.View() != one.View() {
		t.Errorf("SetShown(4): shown %d, cursor %d\n%s\nwant\n%s", many.Shown(), many.Cursor(), many.View(), one.View())
	}
	if many.SetShown(99); !many.Done() {
		t.Errorf("SetShown(99) leaves %d of %d shown", many.Shown(), len(steps))
	}
	if many.SetShown(-1); many.Shown() != 0 || many.Selected() != nil {
		t.Errorf("SetShown(-1): shown %d", many.Shown())
	}
}
