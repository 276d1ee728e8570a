package ui

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
)

var size120 = tea.WindowSizeMsg{Width: 120, Height: 40}

func openTimeout(t *testing.T, opts Options, msgs ...tea.Msg) tea.Model {
	t.Helper()
	if opts.Catalog == nil {
		opts.Catalog = subsetCatalog(t, timeoutID)
	}
	opts.ScenarioID = timeoutID
	m, _ := drive(New(opts), append([]tea.Msg{size120}, msgs...)...)
	return m
}

func scenarioOf(t testing.TB, m tea.Model) *scenarioScreen {
	s, ok := m.(*App).top().(*scenarioScreen)
	if !ok {
		if t == nil {
			panic("not the scenario screen")
		}
		t.Fatalf("top screen is %T, not the scenario screen", m.(*App).top())
	}
	return s
}

func TestViewKeyCyclesLabel(t *testing.T) {
	m := openTimeout(t, Options{}, press("enter"))
	for _, want := range []string{wire.ViewMessages.Label(), wire.ViewModel.Label(), wire.ViewMCP.Label()} {
		m, _ = drive(m, press("v"))
		if line := lineWith(m.View(), "v view"); !strings.Contains(line, want) {
			t.Fatalf("after v the view label is not %q: %q", want, line)
		}
	}
	m, _ = drive(m, press("v"))
	if !strings.Contains(m.View(), "tool_result") {
		t.Errorf("Messages API view shows no tool_result pane:\n%s", m.View())
	}
}

func TestDiffShowsBothStyles(t *testing.T) {
	m := openTimeout(t, Options{}, press("d"))
	view := m.View()
	sc := scenarioOf(t, m)
	bad := sc.sc.BadStyle()
	for _, want := range []string{bad.Label() + " (bad)", "✓ good"} {
		if !strings.Contains(view, want) {
			t.Errorf("diff view lacks %q:\n%s", want, view)
		}
	}
	if sc.diff == nil || bytes.Equal(sc.diff.badEx.Response, sc.diff.goodEx.Response) {
		t.Fatal("the diff did not make two different calls")
	}
	if !strings.Contains(view, "Operation failed") && bad.Label() == "generic" {
		t.Errorf("the generic response is not shown:\n%s", view)
	}
	// esc leaves the comparison, not the screen.
	m, _ = drive(m, press("esc"))
	if scenarioOf(t, m).diffOn {
		t.Error("esc did not leave the diff view")
	}
}

func TestWriteExportsExactBytes(t *testing.T) {
	dir := t.TempDir()
	m := openTimeout(t, Options{ExportDir: dir}, press("enter"), press("w"))
	ex := scenarioOf(t, m).cur().last
	path := filepath.Join(dir, exportName(timeoutID, "good", "2025-11-25", 1))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no export file: %v\nstatus: %s", err, m.(*App).c.Status().Text)
	}
	var rec struct {
		ID, Spec, Style, Request, Response string
		Classification                     map[string]any
		BestAction                         string
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatalf("export is not JSON: %v\n%s", err, b)
	}
	if rec.Request != string(ex.Request) || rec.Response != string(ex.Response) {
		t.Errorf("exported bytes differ from the exchange:\nreq  %s\nwant %s\nresp %s\nwant %s", rec.Request, ex.Request, rec.Response, ex.Response)
	}
	if rec.ID != timeoutID || rec.Spec != "2025-11-25" || rec.Style != "good" || rec.BestAction != "retry_same" {
		t.Errorf("wrong context: %+v", rec)
	}
	if rec.Classification["layer"] != "execution" || rec.Classification["errorCategory"] != "transient" {
		t.Errorf("classification: %v", rec.Classification)
	}
	if !strings.Contains(m.View(), path) {
		t.Errorf("the status line does not name %s:\n%s", path, m.View())
	}
}

func TestWriteErrorInStatus(t *testing.T) {
	m := openTimeout(t, Options{ExportDir: filepath.Join(t.TempDir(), "missing")}, press("enter"), press("w"))
	if line := lineWith(m.View(), "could not write"); !strings.Contains(line, "✗") {
		t.Fatalf("no error status:\n%s", m.View())
	}
}

// syncBuffer is a bytes.Buffer safe for the copy command's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestCopyWritesOSC52(t *testing.T) {
	clip := &syncBuffer{}
	m := openTimeout(t, Options{Clipboard: clip}, press("enter"), press("y"))
	out := clip.String()
	if !strings.Contains(out, "\x1b]52;c;") {
		t.Fatalf("no OSC 52 sequence: %q", out)
	}
	enc := regexp.MustCompile(`\x1b\]52;c;([A-Za-z0-9+/=]+)`).FindStringSubmatch(out)
	got, err := base64.StdEncoding.DecodeString(enc[1])
	if err != nil {
		t.Fatal(err)
	}
	if want := scenarioOf(t, m).cur().last.Response; !bytes.Equal(got, want) {
		t.Errorf("copied %s, want the response envelope %s", got, want)
	}
	if line := lineWith(m.View(), "OSC 52"); !strings.Contains(line, "✓ copied") {
		t.Errorf("no status after copying:\n%s", m.View())
	}
}

func TestCopyBeforeCallWarns(t *testing.T) {
	clip := &syncBuffer{}
	m := openTimeout(t, Options{Clipboard: clip}, press("y"))
	if clip.String() != "" {
		t.Errorf("copied before any call: %q", clip.String())
	}
	if !strings.Contains(m.View(), "⚠ nothing to copy yet") {
		t.Errorf("no warning:\n%s", m.View())
	}
}

func TestQInFilterDoesNotQuit(t *testing.T) {
	m, quit := drive(New(Options{Catalog: catalog(t)}), size120, press("enter"), press("/"), press("q"))
	if quit {
		t.Fatal("q quit while typing in the filter")
	}
	if !strings.Contains(m.View(), "/ q") {
		t.Errorf("q was not typed into the filter:\n%s", m.View())
	}
	// After esc clears the filter, q quits.
	_, quit = drive(m, press("esc"), press("q"))
	if !quit {
		t.Error("q did not quit outside the filter")
	}
}

// recordingProgress records every answer given to it, and passes it on
// to the store, which decides the marks.
type recordingProgress struct {
	*quiz.Store
	mu      sync.Mutex
	answers []recordedAnswer
}

type recordedAnswer struct {
	id, action, grade string
	correct           bool
}

func (p *recordingProgress) MarkSolved(id string) error {
	return p.RecordScenario(id, "", "best", true)
}

func (p *recordingProgress) RecordScenario(id, action, grade string, correct bool) error {
	p.mu.Lock()
	p.answers = append(p.answers, recordedAnswer{id, action, grade, correct})
	p.mu.Unlock()
	return p.Store.RecordScenario(id, action, grade, correct)
}

// TestMarksFollowTheFirstAnswerEver: every answer is recorded with
// whether it was right; wrong then right is ◑, in the status, the list
// and the header, and stays ◑ on a later visit whose first answer is
// right. A right first answer on a fresh scenario is ✓.
func TestMarksFollowTheFirstAnswerEver(t *testing.T) {
	prog := &recordingProgress{Store: quiz.Memory()}
	cat := catalog(t)
	sc, _ := cat.Get(timeoutID)
	m := openTimeout(t, Options{Catalog: cat, Progress: prog}, press("enter"))
	m, _ = drive(m, press("2")) // fix_input: wrong here
	if !strings.Contains(m.View(), "✗ Not the best move") {
		t.Errorf("no ✗ verdict:\n%s", m.View())
	}
	m, _ = drive(m, press(retryKey()))
	if !strings.Contains(m.View(), "✓ Correct") {
		t.Errorf("no ✓ verdict after the right answer:\n%s", m.View())
	}
	if got := prog.ScenarioMark(timeoutID); got != quiz.MarkAfterMiss {
		t.Fatalf("wrong then right is marked %q, want ◑", got)
	}
	want := []recordedAnswer{{timeoutID, "fix_input", "wrong", false}, {timeoutID, "retry_same", "best", true}}
	if !slices.Equal(prog.answers, want) {
		t.Errorf("recorded %+v, want %+v", prog.answers, want)
	}
	if line := lineWith(m.View(), "recorded as right after a miss"); !strings.HasPrefix(line, "✓ correct") || !strings.Contains(line, "◑") {
		t.Errorf("the status does not say ◑ right after a miss: %q\n%s", line, m.View())
	}
	if line := lineWith(m.View(), "errorlab"); !strings.Contains(line, fmt.Sprintf("✓ 0 · ◑ 1 of %d", len(cat.Scenarios))) {
		t.Errorf("header: %q", line)
	}
	m, _ = drive(m, press("esc")) // back to the lab list
	if line := lineWith(m.View(), sc.Title); strings.Contains(line, "✓") || !strings.Contains(line, "◑") {
		t.Errorf("the lab list does not show ◑ (and only ◑) for %s after wrong-then-right: %q", timeoutID, line)
	}
	if line := lineWith(m.View(), "/ to filter"); !strings.Contains(line, "✓ right first time · ◑ right after a miss") {
		t.Errorf("no legend: %q", line)
	}

	// A new visit, the right answer first: still ◑.
	m, _ = drive(m, common.OpenScenarioMsg{ID: timeoutID}, press("enter"), press(retryKey()))
	if got := prog.ScenarioMark(timeoutID); got != quiz.MarkAfterMiss {
		t.Fatalf("reopening and answering right turned ◑ into %q", got)
	}
	if last := prog.answers[len(prog.answers)-1]; last != (recordedAnswer{timeoutID, "retry_same", "best", true}) {
		t.Errorf("last answer recorded as %+v", last)
	}
	if line := lineWith(m.View(), "recorded as right after a miss"); line == "" {
		t.Errorf("the status does not say ◑ on the later visit:\n%s", m.View())
	}
	m, _ = drive(m, press("esc"))
	if line := lineWith(m.View(), sc.Title); strings.Contains(line, "✓ ") {
		t.Errorf("the lab list shows ✓ for %s after reopening: %q", timeoutID, line)
	}

	// Another scenario, right first time: ✓.
	other := cat.Next(timeoutID)
	if other == nil || other.ID == timeoutID {
		t.Skip("one scenario only")
	}
	m, _ = drive(m, common.OpenScenarioMsg{ID: other.ID}, press("enter"))
	m, _ = drive(m, press(keyOf(other.TruthAt(other.Revision()).Best)))
	if got := prog.ScenarioMark(other.ID); got != quiz.MarkFirstTime {
		t.Fatalf("a right first answer on %s is marked %q; status %q", other.ID, got, m.(*App).c.Status().Text)
	}
	if line := lineWith(m.View(), "recorded as right first time"); !strings.HasPrefix(line, "✓ correct") {
		t.Errorf("the status does not say ✓ right first time:\n%s", m.View())
	}
	m, _ = drive(m, press("esc"))
	if line := lineWith(m.View(), other.Title); !strings.Contains(line, "✓") {
		t.Errorf("the lab list shows no ✓ for %s: %q\n%s", other.ID, line, m.View())
	}
	if line := lineWith(m.View(), "errorlab"); !strings.Contains(line, fmt.Sprintf("✓ 1 · ◑ 1 of %d", len(cat.Scenarios))) {
		t.Errorf("header: %q", line)
	}
}

// TestSwitchingRevisionDoesNotEraseAMiss: after a wrong first answer, r
// (another revision) and a right answer give ◑, never ✓.
func TestSwitchingRevisionDoesNotEraseAMiss(t *testing.T) {
	prog := &recordingProgress{Store: quiz.Memory()}
	m := openTimeout(t, Options{Progress: prog}, press("enter"), press("2"))
	m, _ = drive(m, press("r"), press("enter"), press(retryKey()))
	if got := prog.ScenarioMark(timeoutID); got != quiz.MarkAfterMiss {
		t.Fatalf("a right answer under another revision after a miss is marked %q, want ◑; recorded %+v", got, prog.answers)
	}
	if line := lineWith(m.View(), "◑ recorded as right after a miss"); line == "" {
		t.Errorf("no ◑ status:\n%s", m.View())
	}
}

func TestVerdictParts(t *testing.T) {
	m := openTimeout(t, Options{}, press("enter"), press(retryKey()))
	sc := scenarioOf(t, m)
	// Give the lower pane room to show everything.
	sc.setFocus(focusLower)
	m, _ = drive(m, tea.WindowSizeMsg{Width: 200, Height: 80})
	view := m.View()
	v := sc.sc.Score(sc.rev, "retry_same")
	for _, want := range []string{"✓ Correct", v.Rule.Ref(), "Why:", "Takeaway:", "Here:"} {
		if !strings.Contains(view, want) {
			t.Errorf("verdict lacks %q:\n%s", want, view)
		}
	}
}

func TestUnknownScenarioID(t *testing.T) {
	m, _ := drive(New(Options{Catalog: catalog(t), ScenarioID: "timeout-second"}), size120)
	view := m.View()
	if !strings.Contains(view, `✗ no scenario "timeout-second"`) || !strings.Contains(view, timeoutID) {
		t.Errorf("no helpful error:\n%s", view)
	}
}

func TestRevisionCycles(t *testing.T) {
	m := openTimeout(t, Options{}, press("r"))
	if line := lineWith(m.View(), "follows spec"); !strings.Contains(line, "2026-07-28") {
		t.Errorf("r did not move to 2026-07-28: %q", line)
	}
	m, _ = drive(m, press("r"), press("enter"))
	if ex := scenarioOf(t, m).cur().last; ex == nil || ex.Revision != "2025-06-18" {
		t.Errorf("the call was not made under 2025-06-18")
	}
}

func TestEmptyCatalogDoesNotPanic(t *testing.T) {
	m, _ := drive(New(Options{ScenarioID: "anything"}), size120, press("enter"), press("enter"), press("/"), press("x"), press("esc"), press("esc"), press("esc"), press("down"), press("enter"))
	if v := m.View(); !strings.Contains(v, "Reference") {
		t.Errorf("no reference after walking an empty lab:\n%s", v)
	}
}

func TestPanicInCommandBecomesStatus(t *testing.T) {
	m := openTimeout(t, Options{})
	cmd := common.Safe("the call", func() tea.Msg { panic("boom") })
	m, _ = drive(m, cmd())
	if line := lineWith(m.View(), "boom"); !strings.Contains(line, "✗ the call failed unexpectedly") {
		t.Errorf("no error status:\n%s", m.View())
	}
}
