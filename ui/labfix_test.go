package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/lablist"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/pages/scenario"
	"github.com/errorlab/errorlab/ui/styles"
)

// openAt opens the app at a scenario of the full catalogue at a size and
// feeds it msgs.
func openAt(t *testing.T, id string, size tea.WindowSizeMsg, msgs ...tea.Msg) tea.Model {
	t.Helper()
	m, _ := uitest.Drive(New(Options{Catalog: uitest.Catalog(t), ScenarioID: id, ExportDir: t.TempDir()}), append([]tea.Msg{size}, msgs...)...)
	return m
}

// lowerView shows the whole lower panel: focused (tab until its title
// has the focus mark ▸) and given room.
func lowerView(t *testing.T, m tea.Model) string {
	t.Helper()
	scenarioOf(t, m)
	focused := func() bool {
		for _, title := range []string{"▸ Verdict", "▸ What should", "▸ Press 1-9"} {
			if strings.Contains(m.View(), title) {
				return true
			}
		}
		return false
	}
	for i := 0; i < 3 && !focused(); i++ {
		m, _ = uitest.Drive(m, uitest.Press("tab"))
	}
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 200, Height: 90})
	return m.View()
}

// Item 4: identical responses are said to be identical, not ✗ and ✓, and
// the style line says the style has no effect.
func TestCompareIdenticalResponses(t *testing.T) {
	m := openAt(t, uitest.ArgsSchemaID, uitest.Size120, append(uitest.RevKeys(t, uitest.ArgsSchemaID, rules.Rev20250618), uitest.Press("d"))...)
	view := m.View()
	if !strings.Contains(strings.Join(strings.Fields(view), " "), "Under 2025-06-18 this request never reaches a tool, so the response style makes no difference") {
		t.Errorf("the comparison does not say the styles make no difference:\n%s", view)
	}
	if strings.Contains(view, "✗ ") || strings.Contains(view, "(bad) · Response") {
		t.Errorf("identical responses labelled bad and good:\n%s", view)
	}
	// Outside the comparison, under the same revision, s says so too.
	m = openAt(t, uitest.ArgsSchemaID, uitest.Size120, append(uitest.RevKeys(t, uitest.ArgsSchemaID, rules.Rev20250618), uitest.Press("s"))...)
	if line := uitest.LineWith(m.View(), "s style"); !strings.Contains(line, "no effect under 2025-06-18") {
		t.Errorf("style line does not say the style has no effect: %q", line)
	}
	// Under 2025-11-25 the comparison is a real one.
	m = openAt(t, uitest.ArgsSchemaID, uitest.Size120, uitest.Press("d"))
	if view := m.View(); !strings.Contains(view, "✗ structured only (bad)") || strings.Contains(view, "no effect") {
		t.Errorf("the 2025-11-25 comparison is not bad vs good:\n%s", view)
	}
}

// Item 9: esc closes the full help and stays on the screen.
func TestEscClosesFullHelp(t *testing.T) {
	m := openTimeout(t, Options{}, uitest.Press("?"))
	if !m.(*App).help.ShowAll {
		t.Fatal("? did not open the full help")
	}
	if line := uitest.LineWith(m.View(), "?/esc"); !strings.Contains(line, "close help") {
		t.Errorf("the full help does not say esc closes it:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if m.(*App).help.ShowAll {
		t.Error("esc did not close the full help")
	}
	scenarioOf(t, m) // still on the scenario common.Screen
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if _, ok := m.(*App).top().(*lablist.Model); !ok {
		t.Errorf("esc with the help closed did not go back: top is %T", m.(*App).top())
	}
}

// Item 10: when the panel has room the descriptions wrap instead of being
// cut with "…".
func TestActionDescriptionsWrap(t *testing.T) {
	long := rules.FixInput.Description()
	for _, tc := range []struct {
		name string
		size tea.WindowSizeMsg
		keys []tea.Msg
	}{
		{"tall", tea.WindowSizeMsg{Width: 120, Height: 60}, nil},
		{"focused", uitest.Size120, []tea.Msg{uitest.Press("tab"), uitest.Press("tab")}},
	} {
		m := openTimeout(t, Options{}, append([]tea.Msg{tc.size}, tc.keys...)...)
		view := m.View()
		if !strings.Contains(uitest.Flat(view), uitest.Flat(long)) {
			t.Errorf("%s: the fix_input description is not whole:\n%s", tc.name, view)
		}
		for _, a := range rules.Actions {
			if l := uitest.LineWith(view, a.Title()); strings.Contains(l, "…") {
				t.Errorf("%s: cut description: %q", tc.name, l)
			}
		}
	}
}

// Item 11: w never overwrites: the attempt is in the name, then -2, -3.
func TestWriteNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	m := openTimeout(t, Options{ExportDir: dir}, uitest.Press("enter"), uitest.Press("w"), uitest.Press("w"), uitest.Press("enter"), uitest.Press("w"))
	names := []string{
		"errorlab-timeout-second-try-good-2025-11-25-attempt1.json",
		"errorlab-timeout-second-try-good-2025-11-25-attempt1-2.json",
		"errorlab-timeout-second-try-good-2025-11-25-attempt2.json",
	}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("missing %s: %v", n, err)
		}
	}
	if !strings.Contains(names[0], "attempt1") {
		t.Errorf("no attempt in %s", names[0])
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("%d files, want 3", len(entries))
	}
	path := filepath.Join(dir, names[2])
	if !strings.Contains(m.(*App).c.Status().Text, path) {
		t.Errorf("status %q does not name %s", m.(*App).c.Status().Text, path)
	}
}

// Item 12: at the smallest size, before the call, the call, every
// action's id and the help's tail are on screen.
func TestSmallestSizeBeforeCall(t *testing.T) {
	cat := uitest.Catalog(t)
	for _, s := range cat.Scenarios {
		m, _ := uitest.Drive(New(Options{Catalog: cat, ScenarioID: s.ID}), tea.WindowSizeMsg{Width: common.MinWidth, Height: common.MinHeight})
		view := m.View()
		if n := len(strings.Split(view, "\n")); n > common.MinHeight {
			t.Fatalf("%s: %d lines", s.ID, n)
		}
		scenarioOf(t, m)
		if !strings.Contains(uitest.Flat(view), uitest.Flat(scenario.DescribeCall(s))) {
			t.Errorf("%s: the call summary is not whole:\n%s", s.ID, view)
		}
		for i, a := range rules.Actions {
			if !regexp.MustCompile(fmt.Sprintf(`\b%d %s\b`, i+1, a)).MatchString(view) {
				t.Errorf("%s: action %d %s not shown:\n%s", s.ID, i+1, a, view)
			}
		}
		if !strings.Contains(view, "? more") || !strings.Contains(view, "q quit") {
			t.Errorf("%s: help tail cut:\n%s", s.ID, view)
		}
	}
}

// Item 13: JSON-RPC codes never split at their minus sign: no line ends
// at a minus or hyphen, and each code is shown whole (a plain minus in
// prose, which wraps only at spaces; a non-breaking one in tables, which
// lipgloss would otherwise wrap at it).
func TestReferenceCodesDoNotSplit(t *testing.T) {
	for w := 20; w <= 160; w++ {
		content, _, _ := buildReference(styles.DefaultStyles(nil), w)
		lines := strings.Split(ansi.Strip(content), "\n")
		for i, l := range lines {
			if end := strings.TrimRight(l, " │"); strings.HasSuffix(end, "‑") || strings.HasSuffix(end, "-") {
				t.Fatalf("width %d, line %d ends with a split code: %q / %q", w, i, l, lines[min(i+1, len(lines)-1)])
			}
		}
	}
	content, _, _ := buildReference(styles.DefaultStyles(nil), 80)
	for _, code := range []string{"32700", "32600", "32601", "32602", "32603"} {
		if !strings.Contains(content, "‑"+code) && !strings.Contains(content, "-"+code) {
			t.Errorf("reference lacks -%s", code)
		}
	}
}

// Item 14: the count in the lab list's header is live while typing.
func TestFilterCountIsLive(t *testing.T) {
	cat := uitest.Catalog(t)
	m, _ := uitest.Drive(New(Options{Catalog: cat}), uitest.Size120, uitest.Press("enter"), uitest.Press("/"))
	for _, r := range "refund" {
		m, _ = uitest.Drive(m, uitest.Press(string(r)))
	}
	l := m.(*App).top().(*lablist.Model)
	if !l.Capturing() {
		t.Fatal("the filter lost focus")
	}
	want := fmt.Sprintf("%d of %d match", l.Shown(), len(cat.Scenarios))
	if l.Shown() == 0 || l.Shown() == len(cat.Scenarios) {
		t.Fatalf("filter matched %d", l.Shown())
	}
	if line := uitest.LineWith(m.View(), "Lab scenarios"); !strings.Contains(line, want) {
		t.Errorf("header %q lacks %q", line, want)
	}
}

// Item 15: the notice shows on Home at start and survives resizes.
func TestNoticeShowsOnHome(t *testing.T) {
	notice := "⚠ Progress will not be saved this session: read-only. Use --state-dir."
	m, _ := uitest.Drive(New(Options{Catalog: uitest.Catalog(t), Notice: notice}), tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.Size120)
	if line := uitest.LineWith(m.View(), "Progress will not be saved"); !strings.HasPrefix(line, "⚠ Progress will not be saved this session") {
		t.Errorf("no notice on Home:\n%s", m.View())
	}
}
