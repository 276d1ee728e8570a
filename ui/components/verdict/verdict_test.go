package verdict

import (
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/styles"
)

func newModel() *Model {
	return New(&common.Common{Styles: styles.DefaultStyles(lipgloss.NewRenderer(io.Discard))})
}

func press(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// best is a right answer on a transient error, with every part set.
func best() Content {
	return Content{
		Verdict:  rules.Verdict{Action: rules.RetrySame, Grade: rules.GradeBest, Rule: rules.Lookup(rules.RuleTransient), Why: "The failure was temporary."},
		Feedback: "Right.   The store was\nbriefly overloaded.",
		Note:     "Under 2025-06-18 too.",
		Customer: "Your order is on its way.",
		Takeaway: "Resend only   what is transient.",
	}
}

func text(m *Model, w int) string {
	return strings.Join(strings.Fields(strings.Join(m.Lines(w), " ")), " ")
}

func TestEmptyPanel(t *testing.T) {
	m := newModel()
	m.SetSize(80, 10)
	if m.Lines(80) != nil || m.View() != "" || m.Section() != "" {
		t.Error("an empty panel draws something or has a section")
	}
	if _, cmd := m.Update(press("g")); cmd != nil {
		t.Errorf("g with no verdict sent %#v", cmd())
	}
	if b := m.ShortHelp()[0]; b.Enabled() {
		t.Error("g is offered with no verdict")
	}
	m.SetContent(best())
	m.Clear()
	if _, ok := m.Content(); ok || m.View() != "" {
		t.Error("Clear left the verdict")
	}
}

func TestPartsOfAVerdict(t *testing.T) {
	m := newModel()
	m.SetContent(best())
	got := text(m, 200)
	for _, want := range []string{
		"✓ Correct: 1 Resend the same call (retry_same)",
		"Rule: §2 Transient errors",
		"Here: The store was briefly overloaded.", // "Right." is the grade line's word already
		"Why: The failure was temporary.",
		"Revision note: Under 2025-06-18 too.",
		"Tell the customer: “Your order is on its way.”",
		"Takeaway: Resend only what is transient.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	// The customer message follows the best grade only.
	c := best()
	c.Verdict.Grade = rules.GradeAcceptable
	m.SetContent(c)
	got = text(m, 200)
	if !strings.HasPrefix(got, "✓ Acceptable: 1 ") || strings.Contains(got, "Tell the customer") {
		t.Errorf("acceptable:\n%s", got)
	}
	c.Verdict.Grade, c.What = rules.GradeWrong, "3 Empty success"
	m.SetContent(c)
	if got = text(m, 200); !strings.HasPrefix(got, "✗ Not the best move: 3 Empty success Rule:") || strings.Contains(got, "Tell the customer") {
		t.Errorf("wrong, with What:\n%s", got)
	}
	for w := 10; w <= 200; w++ {
		for i, l := range m.Lines(w) {
			if lw := ansi.StringWidth(l); lw > w {
				t.Fatalf("width %d: line %d is %d wide: %q", w, i, lw, l)
			}
		}
	}
	m.SetSize(200, 2)
	if n := len(strings.Split(m.View(), "\n")); n != 2 {
		t.Errorf("View at height 2 has %d lines", n)
	}
}

func TestCaveat(t *testing.T) {
	m := newModel()
	c := best()
	c.Caveat = &Caveat{
		Style: mockserver.StyleErrorAsSuccess,
		Truth: "a permission error (isRetryable false)",
		Gap:   "it has no isError",
		Findings: []grade.Finding{
			{Severity: grade.SevError, Defect: grade.DefectNoTextBlock, Rule: rules.RuleMetadataMirror},
			{Severity: grade.SevWarning, Message: "something else", Rule: "no.such.rule"},
		},
	}
	m.SetContent(c)
	got := text(m, 200)
	for _, want := range []string{
		"⚠ Graded on what really happened. A permission error (isRetryable false). The error as success response on screen does not tell the agent this: it has no isError.",
		"✗ " + grade.DefectText[grade.DefectNoTextBlock] + " · §3 Mirror structuredContent in text",
		"⚠ something else · §? unknown rule no.such.rule",
		"Here (as the good response tells it): The store",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	c.Caveat.Gap, c.Caveat.Textless = "", true
	m.SetContent(c)
	if got := text(m, 200); !strings.Contains(got, "says this only in structuredContent") || !strings.Contains(got, "Here: The store") {
		t.Errorf("textless caveat:\n%s", got)
	}
}

func TestGOpensTheRulesSection(t *testing.T) {
	m := newModel()
	m.SetContent(best())
	_, cmd := m.Update(press("g"))
	if cmd == nil || cmd() != (common.OpenReferenceMsg{Section: "§2"}) {
		t.Fatalf("g did not ask for §2")
	}
	if b := m.ShortHelp()[0]; !b.Enabled() || b.Help().Key != "g" || b.Help().Desc != "read §2" {
		t.Errorf("short help %q %q %v", b.Help().Key, b.Help().Desc, b.Enabled())
	}
	if b := m.FullHelp()[0][0]; b.Help().Desc != "read §2 in the Reference" {
		t.Errorf("full help %q", b.Help().Desc)
	}
	// An unknown rule ("§?") opens the Reference at its top.
	c := best()
	c.Verdict.Rule = rules.Lookup("no.such.rule")
	m.SetContent(c)
	if _, cmd := m.Update(press("g")); cmd == nil || cmd() != (common.OpenReferenceMsg{}) {
		t.Error("g on an unknown rule does not open the Reference at its top")
	}
	if d := m.ShortHelp()[0].Help().Desc; d != "Reference" {
		t.Errorf("help on an unknown rule: %q", d)
	}
	if _, cmd := m.Update(press("x")); cmd != nil {
		t.Error("x sent something")
	}
}
