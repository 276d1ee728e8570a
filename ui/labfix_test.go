package ui

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/lablist"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/styles"
)

// openAt opens the app at a scenario of the full catalogue at a size and
// feeds it msgs.
func openAt(t *testing.T, id string, size tea.WindowSizeMsg, msgs ...tea.Msg) tea.Model {
	t.Helper()
	m, _ := uitest.Drive(New(Options{Catalog: uitest.Catalog(t), ScenarioID: id, ExportDir: t.TempDir()}), append([]tea.Msg{size}, msgs...)...)
	return m
}

// revKeys is the r presses that move a scenario from its own revision to rev.
func revKeys(t *testing.T, id string, rev rules.Revision) []tea.Msg {
	sc, ok := uitest.Catalog(t).Get(id)
	if !ok {
		t.Fatalf("no scenario %s", id)
	}
	i, j := slices.Index(rules.Revisions, sc.Revision()), slices.Index(rules.Revisions, rev)
	var out []tea.Msg
	for range (j - i + len(rules.Revisions)) % len(rules.Revisions) {
		out = append(out, uitest.Press("r"))
	}
	return out
}

// lowerView shows the whole lower panel: focus it and give it room.
func lowerView(t *testing.T, m tea.Model) string {
	t.Helper()
	scenarioOf(t, m).setFocus(focusLower)
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 200, Height: 90})
	return m.View()
}

// Item 1: s clears the verdict and the response, as r does.
func TestStyleKeyClearsVerdictAndResponse(t *testing.T) {
	for _, k := range []string{"s", "r"} {
		m := openTimeout(t, Options{}, uitest.Press("enter"), uitest.Press(uitest.RetryKey()))
		if !strings.Contains(m.View(), "✓ Correct") {
			t.Fatalf("no verdict before %s:\n%s", k, m.View())
		}
		m, _ = uitest.Drive(m, uitest.Press(k))
		view := m.View()
		if strings.Contains(view, "✓ Correct") || strings.Contains(view, "Verdict") {
			t.Errorf("%s left the verdict on screen:\n%s", k, view)
		}
		if !strings.Contains(view, "No response yet") || strings.Contains(view, "attempt 1") {
			t.Errorf("%s left the old response on screen:\n%s", k, view)
		}
		if sc := scenarioOf(t, m); sc.verdict != nil || sc.hasResponse() {
			t.Errorf("%s: verdict %v, response %v", k, sc.verdict, sc.hasResponse())
		}
	}
	// Back on the first style, the call starts over at attempt 1.
	m := openTimeout(t, Options{}, uitest.Press("enter"), uitest.Press("s"), uitest.Press("s"), uitest.Press("s"), uitest.Press("enter"))
	if line := uitest.LineWith(m.View(), "Response (server → client)"); !strings.Contains(line, "attempt 1") {
		t.Errorf("the style's run did not start over: %q", line)
	}
}

// Item 3: under a bad style the screen says the verdict is graded on what
// really happened and what the response on screen fails to tell.
func TestBadStyleVerdictSaysWhatTheResponseHides(t *testing.T) {
	m := openAt(t, uitest.PermAsSuccessID, uitest.Size120, uitest.Press("enter"))
	if line := uitest.LineWith(m.View(), "What should the agent do?"); !strings.Contains(line, "(graded on what really happened)") {
		t.Errorf("actions title lacks the caveat: %q", line)
	}
	m, _ = uitest.Drive(m, uitest.Press(uitest.KeyOf(rules.EscalateHuman)))
	if line := uitest.LineWith(m.View(), "Verdict"); !strings.Contains(line, "(graded on what really happened)") {
		t.Errorf("verdict title lacks the caveat: %q", line)
	}
	view := strings.Join(strings.Fields(lowerView(t, m)), " ")
	for _, want := range []string{
		"⚠ Graded on what really happened. A permission error (isRetryable false).",
		"The error as success response on screen does not tell the agent this: it has no isError",
		"A real agent reading only it could not have known. That is this style's defect.",
		"✗ error text inside a result without isError · §3",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("verdict lacks %q:\n%s", want, view)
		}
	}

	// The good style: no caveat anywhere.
	m = openAt(t, uitest.PermAsSuccessID, uitest.Size120, uitest.Press("s"), uitest.Press("enter"))
	if line := uitest.LineWith(m.View(), "What should the agent do?"); strings.Contains(line, "graded on") {
		t.Errorf("good style has the caveat: %q", line)
	}
	m, _ = uitest.Drive(m, uitest.Press(uitest.KeyOf(rules.EscalateHuman)))
	if v := lowerView(t, m); strings.Contains(v, "Graded on what really happened") {
		t.Errorf("good style verdict has the caveat:\n%s", v)
	}
}

// Item 3: a structured_only response does carry the category, in
// structuredContent: the caveat must not say it does not.
func TestStructuredOnlyCaveatDoesNotContradictTheResponse(t *testing.T) {
	m := openAt(t, uitest.AboveLimitID, uitest.Size120, uitest.Press("s"), uitest.Press("enter"), uitest.Press(uitest.KeyOf(rules.ExplainAlternative)))
	if got := scenarioOf(t, m).style; got != mockserver.StyleStructuredOnly {
		t.Fatalf("style is %s", got)
	}
	view := strings.Join(strings.Fields(lowerView(t, m)), " ")
	if strings.Contains(view, "does not tell the agent this") {
		t.Errorf("the caveat says the response hides what its structuredContent says:\n%s", view)
	}
	for _, want := range []string{"says this only in structuredContent", "⚠ structuredContent with no text block"} {
		if !strings.Contains(view, want) {
			t.Errorf("verdict lacks %q:\n%s", want, view)
		}
	}
}

// Item 3: after the resend works, the success on screen is real: no
// caveat may call it the style's defect.
func TestNoCaveatOnARealSuccess(t *testing.T) {
	m := openTimeout(t, Options{}, uitest.Press("s"), uitest.Press("enter"), uitest.Press("enter"), uitest.Press(uitest.RetryKey()))
	sc := scenarioOf(t, m)
	if sc.style.Good() || sc.cur().attempts != 2 {
		t.Fatalf("style %s, attempts %d", sc.style, sc.cur().attempts)
	}
	if v := lowerView(t, m); strings.Contains(v, "does not tell the agent") {
		t.Errorf("caveat on the successful second attempt:\n%s", v)
	}
}

// Item 3, every scenario: a caveat appears exactly when the bad style's
// response differs from the good one, and names the grader's findings.
func TestCaveatForEveryBadStyle(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	cat := uitest.Catalog(t)
	for _, s := range cat.Scenarios {
		for _, rev := range rules.Revisions {
			good, err := s.Exchange(context.Background(), mockserver.StyleGood, rev)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range s.Styles {
				if st.Good() {
					continue
				}
				ex, err := s.Exchange(context.Background(), st, rev)
				if err != nil {
					t.Fatal(err)
				}
				m := newScenarioScreen(&common.Common{Catalog: cat, Styles: styles.DefaultStyles(nil), Progress: NewMemoryProgress()}, s)
				m.style, m.rev = st, rev
				m.runs[runKey{st, rev}] = &run{attempts: 1, last: &ex}
				v := s.Score(rev, s.TruthAt(rev).Best)
				m.verdict = &v
				cv := m.computeCaveat()
				same := bytes.Equal(ex.Response, good.Response)
				if same != m.styleNoEffect() {
					t.Errorf("%s %s %s: same response %v, but styleNoEffect %v", s.ID, rev, st, same, m.styleNoEffect())
				}
				switch {
				case same && cv != nil:
					t.Errorf("%s %s %s: caveat on a response identical to the good one: %+v", s.ID, rev, st, cv)
				case !same && (cv == nil || len(cv.findings) == 0):
					t.Errorf("%s %s %s: no caveat or no findings for a bad response: %+v", s.ID, rev, st, cv)
				}
			}
		}
	}
}

// Item 4: identical responses are said to be identical, not ✗ and ✓, and
// the style line says the style has no effect.
func TestCompareIdenticalResponses(t *testing.T) {
	m := openAt(t, uitest.ArgsSchemaID, uitest.Size120, append(revKeys(t, uitest.ArgsSchemaID, rules.Rev20250618), uitest.Press("d"))...)
	view := m.View()
	if !strings.Contains(strings.Join(strings.Fields(view), " "), "Under 2025-06-18 this request never reaches a tool, so the response style makes no difference") {
		t.Errorf("the comparison does not say the styles make no difference:\n%s", view)
	}
	if strings.Contains(view, "✗ ") || strings.Contains(view, "(bad) · Response") {
		t.Errorf("identical responses labelled bad and good:\n%s", view)
	}
	// Outside the comparison, under the same revision, s says so too.
	m = openAt(t, uitest.ArgsSchemaID, uitest.Size120, append(revKeys(t, uitest.ArgsSchemaID, rules.Rev20250618), uitest.Press("s"))...)
	if line := uitest.LineWith(m.View(), "s style"); !strings.Contains(line, "no effect under 2025-06-18") {
		t.Errorf("style line does not say the style has no effect: %q", line)
	}
	// Under 2025-11-25 the comparison is a real one.
	m = openAt(t, uitest.ArgsSchemaID, uitest.Size120, uitest.Press("d"))
	if view := m.View(); !strings.Contains(view, "✗ structured only (bad)") || strings.Contains(view, "no effect") {
		t.Errorf("the 2025-11-25 comparison is not bad vs good:\n%s", view)
	}
}

// Item 5: a scenario opens in its first style; the style line lists the
// others and marks bad ones.
func TestOpensInFirstStyle(t *testing.T) {
	m := openAt(t, uitest.PermAsSuccessID, uitest.Size120)
	if got := scenarioOf(t, m).style; got != mockserver.StyleErrorAsSuccess {
		t.Errorf("opened in %s", got)
	}
	if line := uitest.LineWith(m.View(), "s style"); !strings.Contains(line, "s style error as success (bad) · also: good") {
		t.Errorf("style line: %q", line)
	}
	m = openTimeout(t, Options{Catalog: uitest.Catalog(t)})
	if line := uitest.LineWith(m.View(), "s style"); !strings.Contains(line, "s style good · also: generic (bad), raw exception (bad)") {
		t.Errorf("style line: %q", line)
	}
}

// Item 6: the customer message follows the best answer only.
func TestCustomerMessageOnlyOnTheBestAnswer(t *testing.T) {
	sc, _ := uitest.Catalog(t).Get(uitest.RefundWindowID)
	if sc.CustomerMessage == "" || len(sc.AcceptableActions) == 0 {
		t.Fatalf("%s has no customer message or acceptable action", uitest.RefundWindowID)
	}
	for _, a := range rules.Actions {
		m := openAt(t, uitest.RefundWindowID, uitest.Size120, uitest.Press("enter"), uitest.Press(uitest.KeyOf(a)))
		view := lowerView(t, m)
		shown := strings.Contains(view, "Tell the customer:")
		if want := a == sc.BestAction; shown != want {
			t.Errorf("%s (%s): customer message shown %v", a, sc.Score(sc.Revision(), a).Grade, shown)
		}
	}
}

// Item 7: the call summary is compact JSON.
func TestCallSummaryIsJSON(t *testing.T) {
	m := openAt(t, uitest.ArgsSchemaID, tea.WindowSizeMsg{Width: 80, Height: 40}) // stacked panes: lines read in order
	if !strings.Contains(uitest.Flat(m.View()), uitest.Flat(`tools/call process_refund {"amount":"24.99","order_id":"ORD-4519"}`)) {
		t.Errorf("the call summary is not JSON:\n%s", m.View())
	}
	for _, w := range []int{1, 5, 20, 57} {
		call := `tools/call escalate_to_human {"customer_id":"C-1001","order_id":"ORD-4502","summary":"Refund of £750.00 on ORD-4502 needs approval"}`
		got := wrapCall(call, w)
		for _, l := range strings.Split(got, "\n") {
			if ansi.StringWidth(l) > w {
				t.Errorf("wrapCall(%d): line %q too wide", w, l)
			}
		}
		if uitest.Flat(got) != uitest.Flat(call) {
			t.Errorf("wrapCall(%d) lost text: %q", w, got)
		}
		if w == 57 && strings.Contains(got, "C-\n") {
			t.Errorf("wrapCall broke an id at its hyphen: %q", got)
		}
	}
	got := common.ArgsJSON(map[string]any{"filter": map[string]any{"status": "open", "ids": []any{1, 2}}, "q": "a<b"})
	if want := `{"filter":{"ids":[1,2],"status":"open"},"q":"a<b"}`; got != want {
		t.Errorf("argsJSON = %s, want %s", got, want)
	}
}

// Item 8: a scenario that starts with its retries spent says so, and
// enter does not make a fifth attempt.
func TestRetryCapSpent(t *testing.T) {
	m := openAt(t, uitest.StoreDownID, uitest.Size120, uitest.Press("enter"))
	if line := uitest.LineWith(m.View(), "attempt 4 of 4"); !strings.Contains(line, "retry cap spent") {
		t.Errorf("no spent cap in the attempt label:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"), uitest.Press("enter"))
	view := m.View()
	if strings.Contains(view, "attempt 5") || strings.Contains(view, "attempt 6") || scenarioOf(t, m).cur().attempts != 1 {
		t.Errorf("enter made another attempt:\n%s", view)
	}
	if line := uitest.LineWith(view, "retry cap is spent"); !strings.Contains(line, "decide what the subagent does now") {
		t.Errorf("no status about the cap:\n%s", view)
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
		exportName(uitest.TimeoutID, "good", "2025-11-25", 1),
		strings.TrimSuffix(exportName(uitest.TimeoutID, "good", "2025-11-25", 1), ".json") + "-2.json",
		exportName(uitest.TimeoutID, "good", "2025-11-25", 2),
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
		sc := scenarioOf(t, m)
		if !strings.Contains(uitest.Flat(view), uitest.Flat(sc.describeCall())) {
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

// Item 13: JSON-RPC codes never split at their minus sign.
func TestReferenceCodesDoNotSplit(t *testing.T) {
	for w := 20; w <= 160; w++ {
		content, _, _ := buildReference(styles.DefaultStyles(nil), w)
		if strings.Contains(content, "-32") {
			t.Fatalf("width %d: a code with a breakable hyphen", w)
		}
		lines := strings.Split(ansi.Strip(content), "\n")
		for i, l := range lines {
			if strings.HasSuffix(strings.TrimRight(l, " │"), "‑") {
				t.Fatalf("width %d, line %d ends with a split code: %q / %q", w, i, l, lines[min(i+1, len(lines)-1)])
			}
		}
	}
	content, _, _ := buildReference(styles.DefaultStyles(nil), 80)
	for _, code := range []string{"32700", "32600", "32601", "32602", "32603"} {
		if !strings.Contains(content, "‑"+code) {
			t.Errorf("reference lacks ‑%s", code)
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
