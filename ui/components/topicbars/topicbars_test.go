package topicbars

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui/common"
)

func testBars(t *testing.T) *Model {
	t.Helper()
	c := common.New(lipgloss.NewRenderer(io.Discard), &scenarios.Catalog{}, nil)
	m := New(c)
	m.SetRows([]Row{
		{Title: "Error categories", Fraction: 0.75, Numbers: " 3/4  75%", Mark: Pass},
		{Title: "Retries", Fraction: 1.5, Numbers: " 0/2   0%", Mark: Fail},
		{Title: "Layers", Fraction: -1, Numbers: " 1/1 100%"},
	})
	return m
}

// TestLinesLayout: the title column takes the longest title, the bar the
// room left up to MaxBar, fractions clamp, marks follow the numbers, and
// the labels sit right above the numbers.
func TestLinesLayout(t *testing.T) {
	m := testBars(t)
	m.SetHeading("By topic", "right    %")
	m.SetSize(120, 0)
	lines := m.Lines()
	if len(lines) != 4 {
		t.Fatalf("%d lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	bar := strings.Repeat("█", 23) + strings.Repeat("░", 7)
	if want := "  Error categories  " + bar + "  3/4  75% ✓"; lines[1] != want {
		t.Errorf("row 1:\n%q\nwant\n%q", lines[1], want)
	}
	if !strings.Contains(lines[2], strings.Repeat("█", 30)+"  0/2   0% ✗") {
		t.Errorf("a fraction over 1 is not a full bar: %q", lines[2])
	}
	if !strings.Contains(lines[3], strings.Repeat("░", 30)+"  1/1 100%") || strings.HasSuffix(lines[3], " ") {
		t.Errorf("a fraction under 0 is not an empty bar, or a mark-less row ends in a space: %q", lines[3])
	}
	cell := func(l, sub string) int { return ansi.StringWidth(l[:strings.Index(l, sub)]) }
	if at, want := cell(lines[0], "right"), cell(lines[1], " 3/4"); at != want || !strings.HasPrefix(lines[0], " By topic ") {
		t.Errorf("labels at %d, numbers at %d:\n%s\n%s", at, want, lines[0], lines[1])
	}
	m.MaxBar = 12
	if l := m.Lines()[1]; !strings.Contains(l, "  "+strings.Repeat("█", 9)+strings.Repeat("░", 3)+" ") {
		t.Errorf("MaxBar 12: %q", l)
	}
}

// TestLinesFitEveryWidth: no line is wider than the width; narrow, the
// title is cut with … before the bar goes under 8 cells.
func TestLinesFitEveryWidth(t *testing.T) {
	m := testBars(t)
	m.SetHeading("Mastery by topic", "mastered of")
	for w := 1; w <= 200; w++ {
		m.SetSize(w, 0)
		for i, l := range m.Lines() {
			if lw := ansi.StringWidth(l); lw > w {
				t.Fatalf("width %d, line %d is %d wide: %q", w, i, lw, l)
			}
		}
	}
	m.SetSize(40, 0)
	if l := m.Lines()[1]; !strings.Contains(l, "Error categori…") || !strings.Contains(l, strings.Repeat("█", 6)+strings.Repeat("░", 2)) {
		t.Errorf("at 40: %q", l)
	}
}

// TestViewCutsToHeight: View shows at most the height's rows; the empty
// KeyMap has no help.
func TestViewCutsToHeight(t *testing.T) {
	m := testBars(t)
	m.SetSize(80, 2)
	if n := len(strings.Split(m.View(), "\n")); n != 2 {
		t.Errorf("View at height 2 has %d lines", n)
	}
	m.SetSize(80, 0)
	if n := len(strings.Split(m.View(), "\n")); n != 3 {
		t.Errorf("View at height 0 has %d lines", n)
	}
	if m.ShortHelp() != nil || m.FullHelp() != nil {
		t.Error("the bars have help")
	}
}
