package ui

import (
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui/internal/uitest"

	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/styles"
)

// The Reference fits every width from 60 to 300: no line is wider than
// the screen, every table is exactly as wide as the page and keeps its
// right border, and no identifier is cut in two.
func TestReferenceTablesFitEveryWidth(t *testing.T) {
	idents := []string{"isRetryable", "errorCategory", "structuredContent", "requiresUserAction",
		"retryAfterSeconds", "exampleArguments", "customerMessage", "correlationId", "partialResults",
		"REFUND_WINDOW_EXCEEDED", "inputSchema", "outputSchema", "clientCapabilities", "protocolVersion",
		"automatic_retry_allowed"}
	for _, a := range rules.Actions {
		idents = append(idents, string(a))
	}
	count := func(content string) map[string]int {
		out := map[string]int{}
		for _, id := range idents {
			out[id] = strings.Count(content, id)
		}
		return out
	}
	wide, _, _ := buildReference(styles.DefaultStyles(nil), 300)
	want := count(ansi.Strip(wide))
	for _, id := range idents {
		if want[id] == 0 {
			t.Errorf("the Reference never names %s", id)
		}
	}
	for w := 60; w <= 300; w++ {
		full, _, _ := buildReference(styles.DefaultStyles(nil), w)
		content := ansi.Strip(full)
		tables := 0
		for i, l := range strings.Split(content, "\n") {
			lw := ansi.StringWidth(l)
			if lw > w {
				t.Fatalf("width %d, line %d is %d cells wide: %q", w, i, lw, l)
			}
			first, _ := firstRune(l)
			if !strings.ContainsRune("╭├│╰", first) {
				continue
			}
			tables++
			last := []rune(l)[len([]rune(l))-1]
			if !strings.ContainsRune("╮┤│╯", last) || lw != w {
				t.Fatalf("width %d, line %d lacks its right border or is not %d wide (%d): %q", w, i, w, lw, l)
			}
		}
		if tables == 0 {
			t.Fatalf("width %d: no tables", w)
		}
		got := count(content)
		for _, id := range idents {
			// Narrow layouts may name a field once more (§2's
			// "isRetryable:" under each category), never less.
			if got[id] < want[id] {
				t.Fatalf("width %d: %s appears whole %d times, at 300 %d times (cut mid-word?)", w, id, got[id], want[id])
			}
		}
	}
}

func firstRune(s string) (rune, bool) {
	for _, r := range s {
		return r, true
	}
	return 0, false
}

// Item 2: a verdict word at the start of an explanation is dropped where
// the label beside it already says it.
func TestStripVerdict(t *testing.T) {
	for _, c := range []struct {
		in    string
		words []string
		want  string
	}{
		{"Right. The tool ran.", common.RightWords, "The tool ran."},
		{"Wrong. isRetryable is false.", common.WrongWords, "isRetryable is false."},
		{"Not quite. A person adds delay.", common.WrongWords, "A person adds delay."},
		{"Correct! Escalate.", common.RightWords, "Escalate."},
		{"Acceptable: the accounts team is the other path.", common.AcceptableWords, "The accounts team is the other path."},
		{"Best. Resend once.", common.BestWords, "Resend once."},
		{"Yes: isError: true is right.", common.RightWords, "isError: true is right."},
		{"Right, and the best move.", common.RightWords, "Right, and the best move."},
		{"Wrong for this SDK. That is what happens.", common.WrongWords, "Wrong for this SDK. That is what happens."},
		{"No coordinator is involved.", common.WrongWords, "No coordinator is involved."},
		{"Wrong.", common.WrongWords, "Wrong."},
		{"Wrong twice: no role is missing.", common.WrongWords, "No role is missing."},
		{"Right. The tool ran.", common.WrongWords, "Right. The tool ran."},
	} {
		if got := common.StripVerdict(c.in, c.words...); got != c.want {
			t.Errorf("common.StripVerdict(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// A scenario's feedback under the verdict line.
	m := openTimeout(t, Options{}, uitest.Press("enter"), uitest.Press(uitest.RetryKey()))
	view := lowerView(t, m)
	if line := uitest.LineWith(view, "Here:"); line == "" || strings.Contains(line, "Here: Right") {
		t.Errorf("feedback line %q", line)
	}
}

// Item 8: in the comparison with the verdict focused, y and w say which
// side they took.
func TestCompareCopySaysWhichSide(t *testing.T) {
	clip := &uitest.SyncBuffer{}
	// After a call the response pane was focused last: y takes the good
	// side of the comparison.
	m, _ := uitest.Drive(New(Options{Catalog: uitest.Catalog(t), ScenarioID: uitest.GoErrorID, ExportDir: t.TempDir(), Clipboard: clip}),
		uitest.Size120, uitest.Press("enter"), uitest.Press("d"), uitest.Press(uitest.KeyOf(rules.RetrySame)))
	// The verdict is focused in the comparison: the screen names the side.
	if note := scenarioOf(t, m).SideNote(); note.Note == "" {
		t.Fatalf("no side note in the comparison with the verdict focused:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("y"))
	if line := uitest.LineWith(m.View(), "✓ copied"); !strings.Contains(line, "copied the good response (compare: bad left, good right; tab to choose)") {
		t.Errorf("copy status %q", line)
	}
	m, _ = uitest.Drive(m, uitest.Press("w"))
	if st := m.(*App).c.Status().Text; !strings.HasPrefix(st, "wrote the good response to ") || !strings.HasSuffix(st, ".json (compare: bad left, good right; tab to choose)") {
		t.Errorf("write status %q", st)
	}
	// With an envelope focused the label names the side, no note.
	m, _ = uitest.Drive(m, uitest.Press("tab"), uitest.Press("y"))
	if line := uitest.LineWith(m.View(), "✓ copied"); !strings.Contains(line, "copied the protocol error response (") || strings.Contains(line, "tab to choose") {
		t.Errorf("copy status with the bad pane focused %q", line)
	}
	// Straight into the comparison, the request pane (the bad side) was
	// focused last: the note says so.
	m, _ = uitest.Drive(New(Options{Catalog: uitest.Catalog(t), ScenarioID: uitest.GoErrorID, ExportDir: t.TempDir(), Clipboard: clip}),
		uitest.Size120, uitest.Press("d"), uitest.Press(uitest.KeyOf(rules.RetrySame)), uitest.Press("y"))
	if line := uitest.LineWith(m.View(), "✓ copied"); !strings.Contains(line, "copied the protocol error response (compare: bad left, good right; tab to choose)") {
		t.Errorf("copy status %q", line)
	}
}
