package scenario

import (
	"bytes"
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/styles"
)

func TestDiffShowsBothStyles(t *testing.T) {
	m := openTimeout(t, uitest.Press("d"))
	view := m.View()
	bad := m.sc.BadStyle()
	for _, want := range []string{bad.Label() + " (bad)", "✓ good"} {
		if !strings.Contains(view, want) {
			t.Errorf("diff view lacks %q:\n%s", want, view)
		}
	}
	if m.diff == nil || bytes.Equal(m.diff.badEx.Response, m.diff.goodEx.Response) {
		t.Fatal("the diff did not make two different calls")
	}
	if !strings.Contains(view, "Operation failed") && bad.Label() == "generic" {
		t.Errorf("the generic response is not shown:\n%s", view)
	}
	// esc (Back) leaves the comparison, not the screen; then it is the
	// root's again.
	if !m.Back() || m.diffOn {
		t.Error("Back did not leave the diff view")
	}
	if m.Back() {
		t.Error("Back claimed esc with no comparison open")
	}
}

// ExportRecord (w) and ClipText (y) hand the root the exact bytes of the
// exchange on screen, named by scenario, style, revision and attempt.
func TestExportAndClipAreTheExchange(t *testing.T) {
	m := openTimeout(t, uitest.Press("enter"))
	ex := m.cur().last
	rec, name, ok, reason := m.ExportRecord()
	if !ok {
		t.Fatalf("nothing to write: %s", reason)
	}
	if rec.Request != string(ex.Request) || rec.Response != string(ex.Response) {
		t.Errorf("the record's bytes differ from the exchange:\nreq  %s\nwant %s\nresp %s\nwant %s", rec.Request, ex.Request, rec.Response, ex.Response)
	}
	if want := "errorlab-timeout-second-try-good-2025-11-25-attempt1.json"; name != want {
		t.Errorf("export name %q, want %q", name, want)
	}
	text, label, ok, _ := m.ClipText()
	if !ok || text != string(ex.Response) || label != "response envelope" {
		t.Errorf("y takes %q (%s, %v), want the response envelope %s", text, label, ok, ex.Response)
	}
	// Before the call there is nothing to take.
	m = openTimeout(t)
	if _, _, ok, reason := m.ExportRecord(); ok || !strings.Contains(reason, "make the call first") {
		t.Errorf("export before the call: %v %q", ok, reason)
	}
	if _, _, ok, reason := m.ClipText(); ok || !strings.Contains(reason, "make the call first") {
		t.Errorf("copy before the call: %v %q", ok, reason)
	}
}

func TestVerdictParts(t *testing.T) {
	m := openTimeout(t, uitest.Press("enter"), uitest.Press(uitest.RetryKey()))
	view := lowerView(m)
	v := m.sc.Score(m.rev, "retry_same")
	for _, want := range []string{"✓ Correct", v.Rule.Ref(), "Why:", "Takeaway:", "Here:"} {
		if !strings.Contains(view, want) {
			t.Errorf("verdict lacks %q:\n%s", want, view)
		}
	}
}

func TestRevisionCycles(t *testing.T) {
	m := openTimeout(t, uitest.Press("r"))
	if line := uitest.LineWith(m.View(), "follows spec"); !strings.Contains(line, "2026-07-28") {
		t.Errorf("r did not move to 2026-07-28: %q", line)
	}
	m = drive(m, uitest.Press("r"), uitest.Press("enter"))
	if ex := m.cur().last; ex == nil || ex.Revision != "2025-06-18" {
		t.Errorf("the call was not made under 2025-06-18")
	}
}

// s clears the verdict and the response, as r does.
func TestStyleKeyClearsVerdictAndResponse(t *testing.T) {
	for _, k := range []string{"s", "r"} {
		m := openTimeout(t, uitest.Press("enter"), uitest.Press(uitest.RetryKey()))
		if !strings.Contains(m.View(), "✓ Correct") {
			t.Fatalf("no verdict before %s:\n%s", k, m.View())
		}
		m = drive(m, uitest.Press(k))
		view := m.View()
		if strings.Contains(view, "✓ Correct") || strings.Contains(view, "Verdict") {
			t.Errorf("%s left the verdict on screen:\n%s", k, view)
		}
		if !strings.Contains(view, "No response yet") || strings.Contains(view, "attempt 1") {
			t.Errorf("%s left the old response on screen:\n%s", k, view)
		}
		if m.verdict != nil || m.hasResponse() {
			t.Errorf("%s: verdict %v, response %v", k, m.verdict, m.hasResponse())
		}
		if _, ok := m.verdictP.Content(); ok {
			t.Errorf("%s: the verdict panel still holds a verdict", k)
		}
	}
	// Back on the first style, the call starts over at attempt 1.
	m := openTimeout(t, uitest.Press("enter"), uitest.Press("s"), uitest.Press("s"), uitest.Press("s"), uitest.Press("enter"))
	if line := uitest.LineWith(m.View(), "Response (server → client)"); !strings.Contains(line, "attempt 1") {
		t.Errorf("the style's run did not start over: %q", line)
	}
}

// Under a bad style the screen says the verdict is graded on what really
// happened and what the response on screen fails to tell.
func TestBadStyleVerdictSaysWhatTheResponseHides(t *testing.T) {
	m := openAt(t, uitest.PermAsSuccessID, uitest.Size120, uitest.Press("enter"))
	if line := uitest.LineWith(m.View(), "What should the agent do?"); !strings.Contains(line, "(graded on what really happened)") {
		t.Errorf("actions title lacks the caveat: %q", line)
	}
	m = drive(m, uitest.Press(uitest.KeyOf(rules.EscalateHuman)))
	if line := uitest.LineWith(m.View(), "Verdict"); !strings.Contains(line, "(graded on what really happened)") {
		t.Errorf("verdict title lacks the caveat: %q", line)
	}
	view := strings.Join(strings.Fields(lowerView(m)), " ")
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
	m = drive(m, uitest.Press(uitest.KeyOf(rules.EscalateHuman)))
	if v := lowerView(m); strings.Contains(v, "Graded on what really happened") {
		t.Errorf("good style verdict has the caveat:\n%s", v)
	}
}

// A structured_only response does carry the category, in
// structuredContent: the caveat must not say it does not.
func TestStructuredOnlyCaveatDoesNotContradictTheResponse(t *testing.T) {
	m := openAt(t, uitest.AboveLimitID, uitest.Size120, uitest.Press("s"), uitest.Press("enter"), uitest.Press(uitest.KeyOf(rules.ExplainAlternative)))
	if got := m.style; got != mockserver.StyleStructuredOnly {
		t.Fatalf("style is %s", got)
	}
	view := strings.Join(strings.Fields(lowerView(m)), " ")
	if strings.Contains(view, "does not tell the agent this") {
		t.Errorf("the caveat says the response hides what its structuredContent says:\n%s", view)
	}
	for _, want := range []string{"says this only in structuredContent", "⚠ structuredContent with no text block"} {
		if !strings.Contains(view, want) {
			t.Errorf("verdict lacks %q:\n%s", want, view)
		}
	}
}

// After the resend works, the success on screen is real: no caveat may
// call it the style's defect.
func TestNoCaveatOnARealSuccess(t *testing.T) {
	m := openTimeout(t, uitest.Press("s"), uitest.Press("enter"), uitest.Press("enter"), uitest.Press(uitest.RetryKey()))
	if m.style.Good() || m.cur().attempts != 2 {
		t.Fatalf("style %s, attempts %d", m.style, m.cur().attempts)
	}
	if v := lowerView(m); strings.Contains(v, "does not tell the agent") {
		t.Errorf("caveat on the successful second attempt:\n%s", v)
	}
}

// Every scenario: a caveat appears exactly when the bad style's response
// differs from the good one, and names the grader's findings.
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
				m := New(&common.Common{Catalog: cat, Styles: styles.DefaultStyles(nil), Progress: common.NewMemoryProgress()}, s)
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
				case !same && (cv == nil || len(cv.Findings) == 0):
					t.Errorf("%s %s %s: no caveat or no findings for a bad response: %+v", s.ID, rev, st, cv)
				}
			}
		}
	}
}

// A scenario opens in its first style; the style line lists the others
// and marks bad ones.
func TestOpensInFirstStyle(t *testing.T) {
	m := openAt(t, uitest.PermAsSuccessID, uitest.Size120)
	if got := m.style; got != mockserver.StyleErrorAsSuccess {
		t.Errorf("opened in %s", got)
	}
	if line := uitest.LineWith(m.View(), "s style"); !strings.Contains(line, "s style error as success (bad) · also: good") {
		t.Errorf("style line: %q", line)
	}
	m = openAt(t, uitest.TimeoutID, uitest.Size120)
	if line := uitest.LineWith(m.View(), "s style"); !strings.Contains(line, "s style good · also: generic (bad), raw exception (bad)") {
		t.Errorf("style line: %q", line)
	}
}

// The customer message follows the best answer only.
func TestCustomerMessageOnlyOnTheBestAnswer(t *testing.T) {
	sc, _ := uitest.Catalog(t).Get(uitest.RefundWindowID)
	if sc.CustomerMessage == "" || len(sc.AcceptableActions) == 0 {
		t.Fatalf("%s has no customer message or acceptable action", uitest.RefundWindowID)
	}
	for _, a := range rules.Actions {
		m := openAt(t, uitest.RefundWindowID, uitest.Size120, uitest.Press("enter"), uitest.Press(uitest.KeyOf(a)))
		view := lowerView(m)
		shown := strings.Contains(view, "Tell the customer:")
		if want := a == sc.BestAction; shown != want {
			t.Errorf("%s (%s): customer message shown %v", a, sc.Score(sc.Revision(), a).Grade, shown)
		}
	}
}

// "Tell the customer:" quotes the customerMessage the good response
// carries, under any style.
func TestTellTheCustomerQuotesTheTool(t *testing.T) {
	cat := uitest.Catalog(t)
	sc, ok := cat.Get(uitest.RefundWindowID)
	if !ok {
		t.Skip("no " + uitest.RefundWindowID)
	}
	ex, err := sc.Exchange(context.Background(), mockserver.StyleGood, sc.Revision())
	if err != nil {
		t.Fatal(err)
	}
	c, err := rules.Classify(ex.Response)
	if err != nil {
		t.Fatal(err)
	}
	want := c.Meta.CustomerMessage
	if want == "" || want == strings.Join(strings.Fields(sc.CustomerMessage), " ") {
		t.Skipf("the tool's customerMessage %q does not differ from the scenario's", want)
	}
	for _, keys := range [][]tea.Msg{
		{uitest.Press("enter"), uitest.Press(uitest.KeyOf(sc.BestAction))},                    // good style
		{uitest.Press("s"), uitest.Press("enter"), uitest.Press(uitest.KeyOf(sc.BestAction))}, // a bad style: fetched
		{uitest.Press("d"), uitest.Press(uitest.KeyOf(sc.BestAction))},                        // the comparison
	} {
		m := openAt(t, uitest.RefundWindowID, uitest.Size120, keys...)
		view := lowerView(m)
		if !strings.Contains(uitest.Flat(view), uitest.Flat("Tell the customer: “"+want+"”")) {
			t.Errorf("%v: Tell the customer does not quote the tool:\n%s", keys, view)
		}
	}
}

// The call summary is compact JSON, wrapped without splitting an id.
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

// A scenario that starts with its retries spent says so, and enter does
// not make a fifth attempt.
func TestRetryCapSpent(t *testing.T) {
	m := openAt(t, uitest.StoreDownID, uitest.Size120, uitest.Press("enter"))
	if line := uitest.LineWith(m.View(), "attempt 4 of 4"); !strings.Contains(line, "retry cap spent") {
		t.Errorf("no spent cap in the attempt label:\n%s", m.View())
	}
	m = drive(m, uitest.Press("enter"), uitest.Press("enter"))
	view := m.View()
	if strings.Contains(view, "attempt 5") || strings.Contains(view, "attempt 6") || m.cur().attempts != 1 {
		t.Errorf("enter made another attempt:\n%s", view)
	}
	if st := m.c.Status(); st.Kind != common.StatusWarn || !strings.Contains(st.Text, "retry cap is spent: decide what the subagent does now") {
		t.Errorf("no status about the cap: %+v", st)
	}
}

// The verdict grades the response on screen. With the protocol error
// style, "fix the client or server" is a sound reading of a -32603 for a
// tool that ran: acceptable, citing the go-error rule, with a Why about
// the wire (not "answered with a result").
func TestVerdictGradesTheResponseOnScreen(t *testing.T) {
	m := openAt(t, uitest.GoErrorID, uitest.Size120, uitest.Press("s"))
	if m.style != mockserver.StyleProtocolError {
		t.Fatalf("s chose %s, not the protocol error style", m.style)
	}
	m = drive(m, uitest.Press("enter"), uitest.Press(uitest.KeyOf(rules.FixClient)))
	v := m.verdict
	if v == nil || v.Grade != rules.GradeAcceptable || v.Rule.ID != rules.RuleGoError {
		t.Fatalf("verdict %+v, want acceptable under %s", v, rules.RuleGoError)
	}
	view := strings.Join(strings.Fields(lowerView(m)), " ")
	for _, want := range []string{"✓ Acceptable: 8 Fix the client or server", "Rule: §1 A handler that returns an error", "Why: On the wire this is a protocol error"} {
		if !strings.Contains(view, want) {
			t.Errorf("verdict lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "answered with a result") {
		t.Errorf("the verdict says the tool answered with a result, which the screen does not show:\n%s", view)
	}
	// The good style shows an isError result: fixing the client is wrong.
	m = openAt(t, uitest.GoErrorID, uitest.Size120, uitest.Press("enter"), uitest.Press(uitest.KeyOf(rules.FixClient)))
	if v := m.verdict; v == nil || v.Grade != rules.GradeWrong {
		t.Errorf("good style: %+v, want wrong", v)
	}
	// In the comparison the bad side is graded.
	m = openAt(t, uitest.GoErrorID, uitest.Size120, uitest.Press("d"), uitest.Press(uitest.KeyOf(rules.FixClient)))
	if v := m.verdict; v == nil || v.Grade != rules.GradeAcceptable {
		t.Errorf("comparison: %+v, want acceptable (the bad side)", v)
	}
}

// The digits go through the action chooser: a digit before the call
// warns, after it grades and marks the chosen action in the list.
func TestChooserGradesAndMarks(t *testing.T) {
	m := openTimeout(t, uitest.Press("2"))
	if m.verdict != nil || !strings.Contains(m.c.Status().Text, "make the call first") {
		t.Fatalf("a digit before the call: verdict %v, status %q", m.verdict, m.c.Status().Text)
	}
	m = drive(m, uitest.Press("enter"), uitest.Press("2"))
	if m.verdict == nil || m.chosen != rules.FixInput || m.focus != focusLower {
		t.Fatalf("2 after the call: verdict %v, chosen %s, focus %d", m.verdict, m.chosen, m.focus)
	}
	// The list's line, not the verdict's: the title padded before its
	// description.
	if line := uitest.LineWith(lowerView(m), "2 "+rules.FixInput.Title()+"  "); !strings.Contains(line, "✗ 2 "+rules.FixInput.Title()) {
		t.Errorf("the chosen action is not marked ✗: %q", line)
	}
	m = drive(m, uitest.Press(uitest.RetryKey()))
	view := lowerView(m)
	if line := uitest.LineWith(view, "2 "+rules.FixInput.Title()+"  "); line == "" || strings.Contains(line, "✗") {
		t.Errorf("the earlier choice keeps its mark: %q", line)
	}
	if line := uitest.LineWith(view, rules.RetrySame.Title()+"  "); !strings.Contains(line, "✓ "+uitest.RetryKey()+" ") {
		t.Errorf("the right choice is not marked ✓: %q", line)
	}
	// A ChosenMsg from another chooser (a screen since replaced) is
	// ignored.
	other := New(m.c, m.sc)
	_, cmd := other.actions.Update(uitest.Press("2"))
	drive(m, cmd())
	if m.chosen != rules.RetrySame {
		t.Errorf("another chooser's message was taken: chosen %s", m.chosen)
	}
}

// g, from a verdict, asks the root for the Reference at the section of
// the verdict's rule, and says so in the help; without a verdict g is
// the panes' top key.
func TestReferenceKeyFromVerdict(t *testing.T) {
	m := openTimeout(t, uitest.Press("enter"))
	if msg := keyCmd(m, "g"); msg != nil {
		t.Errorf("g before a verdict sent %#v", msg)
	}
	for _, b := range m.ShortHelp() {
		if b.Help().Key == "g" {
			t.Errorf("g is in the help before a verdict: %q", b.Help().Desc)
		}
	}
	m = drive(m, uitest.Press(uitest.RetryKey()))
	want := m.verdict.Rule.Section
	if want != "§2" {
		t.Fatalf("the timeout's verdict cites %q (%s), want §2", want, m.verdict.Rule.Ref())
	}
	if msg := keyCmd(m, "g"); msg != (common.OpenReferenceMsg{Section: "§2"}) {
		t.Errorf("g after the verdict sent %#v, want OpenReferenceMsg{§2}", msg)
	}
	found := false
	for _, b := range m.ShortHelp() {
		if b.Help().Key == "g" && b.Enabled() {
			found = b.Help().Desc == "read §2"
		}
	}
	if !found {
		t.Errorf("the short help does not offer g read §2: %v", m.ShortHelp())
	}
	found = false
	for _, g := range m.FullHelp() {
		for _, b := range g {
			found = found || b.Help().Key == "g" && b.Help().Desc == "read §2 in the Reference"
		}
	}
	if !found {
		t.Errorf("the full help does not offer g: %v", m.FullHelp())
	}
	// Another rule, another section.
	m = openAt(t, uitest.GoErrorID, uitest.Size120, uitest.Press("s"), uitest.Press("enter"), uitest.Press(uitest.KeyOf(rules.FixClient)))
	if msg := keyCmd(m, "g"); msg != (common.OpenReferenceMsg{Section: "§1"}) {
		t.Errorf("g after the go-error verdict sent %#v, want §1", msg)
	}
	// s clears the verdict: g scrolls again.
	drive(m, uitest.Press("s"))
	if msg := keyCmd(m, "g"); msg != nil {
		t.Errorf("g after s sent %#v", msg)
	}
}

// The screen draws within any area it is given: no panic at any size, and
// from the root's smallest area (60x16) no line wider and no more lines
// than the area, in every state.
func TestScreenFitsItsArea(t *testing.T) {
	states := map[string][]tea.Msg{
		"before":  nil,
		"after":   {uitest.Press("enter")},
		"verdict": {uitest.Press("enter"), uitest.Press(uitest.RetryKey())},
		"lower":   {uitest.Press("enter"), uitest.Press("tab")},
		"diff":    {uitest.Press("enter"), uitest.Press("d")},
		"view":    {uitest.Press("enter"), uitest.Press("v"), uitest.Press("2")},
	}
	for name, msgs := range states {
		for _, id := range []string{uitest.TimeoutID, uitest.PermAsSuccessID, uitest.StoreDownID} {
			m := openAt(t, id, uitest.Size120, msgs...)
			for w := 0; w <= 300; w += 13 {
				for h := 0; h <= 100; h += 7 {
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Fatalf("%s %s %dx%d: panic: %v", name, id, w, h, r)
							}
						}()
						m.SetSize(w, h)
						view := m.View()
						if w < 60 || h < 16 {
							return
						}
						lines := strings.Split(view, "\n")
						if len(lines) > h {
							t.Fatalf("%s %s %dx%d: %d lines", name, id, w, h, len(lines))
						}
						for i, l := range lines {
							if lw := ansi.StringWidth(l); lw > w {
								t.Fatalf("%s %s %dx%d: line %d is %d wide: %q", name, id, w, h, i, lw, l)
							}
						}
					}()
				}
			}
		}
	}
}
