package findings

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/errorlab/errorlab/sim/check"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/ui/styles"
)

func plainStyles() *styles.Styles {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	return styles.New(r, styles.ThemeAuto)
}

// A server's text cannot drive the terminal: escape sequences in a
// message come out as replacement characters.
func TestServerTextIsSanitized(t *testing.T) {
	res := check.GradeItem(check.Item{Source: "evil\x1b[2J", Label: "tools/call x\x1b]0;pwned\x07",
		Response: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ERROR: \u001b[31mred\u001b[0m /home/u/x"}]}}`)})
	out := strings.Join(Report(plainStyles(), []check.Result{res}, 0), "\n")
	if strings.ContainsRune(out, '\x1b') || strings.ContainsRune(out, '\x07') {
		t.Fatalf("control characters reached the output: %q", out)
	}
	if !strings.Contains(out, "✗ fail") || !strings.Contains(out, "fix: ") {
		t.Fatalf("no verdict or fix:\n%s", out)
	}
}

// Lines wraps to the width given and sorts errors before warnings and notes.
func TestLinesWrapAndOrder(t *testing.T) {
	fs := []grade.Finding{
		{ID: "metadata.synonyms", Severity: grade.SevNote, Rule: "metadata.fields", Path: "$.result", Message: "note", Fix: "fix it"},
		{ID: "leak.path", Severity: grade.SevError, Rule: "safe.no-internals", Path: "$.result.content[0].text", Message: strings.Repeat("word ", 40), Fix: "fix it"},
		{ID: "metadata.retryable-missing", Severity: grade.SevWarning, Rule: "retryable.meaning", Path: "$.result", Message: "warn", Fix: "fix it"},
	}
	lines := Lines(plainStyles(), fs, 60, 2)
	var order []string
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line %d wide: %q", w, l)
		}
		for _, sym := range []string{"✗", "⚠", "•"} {
			if strings.HasPrefix(strings.TrimSpace(l), sym+" ") {
				order = append(order, sym)
			}
		}
	}
	if strings.Join(order, "") != "✗⚠•" {
		t.Errorf("order %v, want errors, warnings, notes", order)
	}
}

// A code is never split at its hyphen when a message wraps: -32602 stays
// whole on one line at every width.
func TestWrapKeepsCodesWhole(t *testing.T) {
	f := grade.Finding{ID: "layer.input-validation", Severity: grade.SevError, Rule: "layer.protocol", Path: "$.error",
		Message: "the arguments break get_user's inputSchema; since 2025-11-25 (SEP-1303) that is a tool execution error, not -32602", Fix: "Answer with isError: true, not -32602."}
	for w := 20; w <= 120; w++ {
		text := strings.Join(Lines(plainStyles(), []grade.Finding{f}, w, 2), "\n")
		if strings.Count(text, "-32602") != 2 {
			t.Fatalf("at width %d -32602 was split:\n%s", w, text)
		}
	}
}
