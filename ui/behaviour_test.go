package ui

import (
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

	"github.com/errorlab/errorlab/ui/internal/uitest"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/pages/scenario"
)

func openTimeout(t *testing.T, opts Options, msgs ...tea.Msg) tea.Model {
	t.Helper()
	if opts.Catalog == nil {
		opts.Catalog = uitest.SubsetCatalog(t, uitest.TimeoutID)
	}
	opts.ScenarioID = uitest.TimeoutID
	m, _ := uitest.Drive(New(opts), append([]tea.Msg{uitest.Size120}, msgs...)...)
	return m
}

// scenarioOf is the scenario screen on top of the app; it fails the test
// (panics when t is nil) when another screen is on top.
func scenarioOf(t testing.TB, m tea.Model) *scenario.Model {
	s, ok := m.(*App).Top().(*scenario.Model)
	if !ok {
		if t == nil {
			panic("not the scenario screen")
		}
		t.Fatalf("top screen is %T, not the scenario screen", m.(*App).Top())
	}
	return s
}

func TestViewKeyCyclesLabel(t *testing.T) {
	m := openTimeout(t, Options{}, uitest.Press("enter"))
	for _, want := range []string{wire.ViewMessages.Label(), wire.ViewModel.Label(), wire.ViewMCP.Label()} {
		m, _ = uitest.Drive(m, uitest.Press("v"))
		if line := uitest.LineWith(m.View(), "v view"); !strings.Contains(line, want) {
			t.Fatalf("after v the view label is not %q: %q", want, line)
		}
	}
	m, _ = uitest.Drive(m, uitest.Press("v"))
	if !strings.Contains(m.View(), "tool_result") {
		t.Errorf("Messages API view shows no tool_result pane:\n%s", m.View())
	}
}

// esc leaves the comparison first (the screen's Back), then the screen.
func TestEscLeavesTheComparisonFirst(t *testing.T) {
	m := openTimeout(t, Options{}, uitest.Press("d"))
	if !strings.Contains(m.View(), "d comparing") {
		t.Fatalf("d did not open the comparison:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	scenarioOf(t, m)
	if strings.Contains(m.View(), "d comparing") {
		t.Errorf("esc did not leave the comparison:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if got := m.(*App).Top().Crumb(); got != "Lab" {
		t.Errorf("the second esc left for %q, not the lab list", got)
	}
}

func TestWriteExportsExactBytes(t *testing.T) {
	dir := t.TempDir()
	m := openTimeout(t, Options{ExportDir: dir}, uitest.Press("enter"), uitest.Press("w"))
	// The screen's record holds the exchange's exact bytes (its own
	// test); the file must hold the record.
	ex, _, ok, _ := scenarioOf(t, m).ExportRecord()
	if !ok {
		t.Fatal("the screen has no record to write")
	}
	path := filepath.Join(dir, "errorlab-timeout-second-try-good-2025-11-25-attempt1.json")
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
	if rec.Request != ex.Request || rec.Response != ex.Response {
		t.Errorf("exported bytes differ from the exchange:\nreq  %s\nwant %s\nresp %s\nwant %s", rec.Request, ex.Request, rec.Response, ex.Response)
	}
	if rec.ID != uitest.TimeoutID || rec.Spec != "2025-11-25" || rec.Style != "good" || rec.BestAction != "retry_same" {
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
	m := openTimeout(t, Options{ExportDir: filepath.Join(t.TempDir(), "missing")}, uitest.Press("enter"), uitest.Press("w"))
	if line := uitest.LineWith(m.View(), "could not write"); !strings.Contains(line, "✗") {
		t.Fatalf("no error status:\n%s", m.View())
	}
}

func TestCopyWritesOSC52(t *testing.T) {
	clip := &uitest.SyncBuffer{}
	m := openTimeout(t, Options{Clipboard: clip}, uitest.Press("enter"), uitest.Press("y"))
	out := clip.String()
	if !strings.Contains(out, "\x1b]52;c;") {
		t.Fatalf("no OSC 52 sequence: %q", out)
	}
	enc := regexp.MustCompile(`\x1b\]52;c;([A-Za-z0-9+/=]+)`).FindStringSubmatch(out)
	got, err := base64.StdEncoding.DecodeString(enc[1])
	if err != nil {
		t.Fatal(err)
	}
	if want, label, _, _ := scenarioOf(t, m).ClipText(); string(got) != want || label != "response envelope" {
		t.Errorf("copied %s, want the %s %s", got, label, want)
	}
	if line := uitest.LineWith(m.View(), "OSC 52"); !strings.Contains(line, "✓ copied") {
		t.Errorf("no status after copying:\n%s", m.View())
	}
}

func TestCopyBeforeCallWarns(t *testing.T) {
	clip := &uitest.SyncBuffer{}
	m := openTimeout(t, Options{Clipboard: clip}, uitest.Press("y"))
	if clip.String() != "" {
		t.Errorf("copied before any call: %q", clip.String())
	}
	if !strings.Contains(m.View(), "⚠ nothing to copy yet") {
		t.Errorf("no warning:\n%s", m.View())
	}
}

func TestQInFilterDoesNotQuit(t *testing.T) {
	m, quit := uitest.Drive(New(Options{Catalog: uitest.Catalog(t)}), uitest.Size120, uitest.Press("enter"), uitest.Press("/"), uitest.Press("q"))
	if quit {
		t.Fatal("q quit while typing in the filter")
	}
	if !strings.Contains(m.View(), "/ q") {
		t.Errorf("q was not typed into the filter:\n%s", m.View())
	}
	// After esc clears the filter, q quits.
	_, quit = uitest.Drive(m, uitest.Press("esc"), uitest.Press("q"))
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
	cat := uitest.Catalog(t)
	sc, _ := cat.Get(uitest.TimeoutID)
	m := openTimeout(t, Options{Catalog: cat, Progress: prog}, uitest.Press("enter"))
	m, _ = uitest.Drive(m, uitest.Press("2")) // fix_input: wrong here
	if !strings.Contains(m.View(), "✗ Not the best move") {
		t.Errorf("no ✗ verdict:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press(uitest.RetryKey()))
	if !strings.Contains(m.View(), "✓ Correct") {
		t.Errorf("no ✓ verdict after the right answer:\n%s", m.View())
	}
	if got := prog.ScenarioMark(uitest.TimeoutID); got != quiz.MarkAfterMiss {
		t.Fatalf("wrong then right is marked %q, want ◑", got)
	}
	want := []recordedAnswer{{uitest.TimeoutID, "fix_input", "wrong", false}, {uitest.TimeoutID, "retry_same", "best", true}}
	if !slices.Equal(prog.answers, want) {
		t.Errorf("recorded %+v, want %+v", prog.answers, want)
	}
	if line := uitest.LineWith(m.View(), "recorded as right after a miss"); !strings.HasPrefix(line, "✓ correct") || !strings.Contains(line, "◑") {
		t.Errorf("the status does not say ◑ right after a miss: %q\n%s", line, m.View())
	}
	if line := uitest.LineWith(m.View(), "errorlab"); !strings.Contains(line, fmt.Sprintf("✓ 0 · ◑ 1 of %d", len(cat.Scenarios))) {
		t.Errorf("header: %q", line)
	}
	m, _ = uitest.Drive(m, uitest.Press("esc")) // back to the lab list
	if line := uitest.LineWith(m.View(), sc.Title); strings.Contains(line, "✓") || !strings.Contains(line, "◑") {
		t.Errorf("the lab list does not show ◑ (and only ◑) for %s after wrong-then-right: %q", uitest.TimeoutID, line)
	}
	if line := uitest.LineWith(m.View(), "/ to filter"); !strings.Contains(line, "✓ right first time · ◑ right after a miss") {
		t.Errorf("no legend: %q", line)
	}

	// A new visit, the right answer first: still ◑.
	m, _ = uitest.Drive(m, common.OpenScenarioMsg{ID: uitest.TimeoutID}, uitest.Press("enter"), uitest.Press(uitest.RetryKey()))
	if got := prog.ScenarioMark(uitest.TimeoutID); got != quiz.MarkAfterMiss {
		t.Fatalf("reopening and answering right turned ◑ into %q", got)
	}
	if last := prog.answers[len(prog.answers)-1]; last != (recordedAnswer{uitest.TimeoutID, "retry_same", "best", true}) {
		t.Errorf("last answer recorded as %+v", last)
	}
	if line := uitest.LineWith(m.View(), "recorded as right after a miss"); line == "" {
		t.Errorf("the status does not say ◑ on the later visit:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if line := uitest.LineWith(m.View(), sc.Title); strings.Contains(line, "✓ ") {
		t.Errorf("the lab list shows ✓ for %s after reopening: %q", uitest.TimeoutID, line)
	}

	// Another scenario, right first time: ✓.
	other := cat.Next(uitest.TimeoutID)
	if other == nil || other.ID == uitest.TimeoutID {
		t.Skip("one scenario only")
	}
	m, _ = uitest.Drive(m, common.OpenScenarioMsg{ID: other.ID}, uitest.Press("enter"))
	m, _ = uitest.Drive(m, uitest.Press(uitest.KeyOf(other.TruthAt(other.Revision()).Best)))
	if got := prog.ScenarioMark(other.ID); got != quiz.MarkFirstTime {
		t.Fatalf("a right first answer on %s is marked %q; status %q", other.ID, got, m.(*App).c.Status().Text)
	}
	if line := uitest.LineWith(m.View(), "recorded as right first time"); !strings.HasPrefix(line, "✓ correct") {
		t.Errorf("the status does not say ✓ right first time:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if line := uitest.LineWith(m.View(), other.Title); !strings.Contains(line, "✓") {
		t.Errorf("the lab list shows no ✓ for %s: %q\n%s", other.ID, line, m.View())
	}
	if line := uitest.LineWith(m.View(), "errorlab"); !strings.Contains(line, fmt.Sprintf("✓ 1 · ◑ 1 of %d", len(cat.Scenarios))) {
		t.Errorf("header: %q", line)
	}
}

// TestSwitchingRevisionDoesNotEraseAMiss: after a wrong first answer, r
// (another revision) and a right answer give ◑, never ✓.
func TestSwitchingRevisionDoesNotEraseAMiss(t *testing.T) {
	prog := &recordingProgress{Store: quiz.Memory()}
	m := openTimeout(t, Options{Progress: prog}, uitest.Press("enter"), uitest.Press("2"))
	m, _ = uitest.Drive(m, uitest.Press("r"), uitest.Press("enter"), uitest.Press(uitest.RetryKey()))
	if got := prog.ScenarioMark(uitest.TimeoutID); got != quiz.MarkAfterMiss {
		t.Fatalf("a right answer under another revision after a miss is marked %q, want ◑; recorded %+v", got, prog.answers)
	}
	if line := uitest.LineWith(m.View(), "◑ recorded as right after a miss"); line == "" {
		t.Errorf("no ◑ status:\n%s", m.View())
	}
}

func TestUnknownScenarioID(t *testing.T) {
	m, _ := uitest.Drive(New(Options{Catalog: uitest.Catalog(t), ScenarioID: "timeout-second"}), uitest.Size120)
	view := m.View()
	if !strings.Contains(view, `✗ no scenario "timeout-second"`) || !strings.Contains(view, uitest.TimeoutID) {
		t.Errorf("no helpful error:\n%s", view)
	}
}

func TestEmptyCatalogDoesNotPanic(t *testing.T) {
	m, _ := uitest.Drive(New(Options{ScenarioID: "anything"}), uitest.Size120, uitest.Press("enter"), uitest.Press("enter"), uitest.Press("/"), uitest.Press("x"), uitest.Press("esc"), uitest.Press("esc"), uitest.Press("esc"), uitest.Press("down"), uitest.Press("enter"))
	if v := m.View(); !strings.Contains(v, "Reference") {
		t.Errorf("no reference after walking an empty lab:\n%s", v)
	}
}

func TestPanicInCommandBecomesStatus(t *testing.T) {
	m := openTimeout(t, Options{})
	cmd := common.Safe("the call", func() tea.Msg { panic("boom") })
	m, _ = uitest.Drive(m, cmd())
	if line := uitest.LineWith(m.View(), "boom"); !strings.Contains(line, "✗ the call failed unexpectedly") {
		t.Errorf("no error status:\n%s", m.View())
	}
}

// g from a verdict opens the Reference (the screen asks with the rule's
// section); the help offers it; before a verdict g stays on the screen.
func TestGFromAVerdictOpensTheReference(t *testing.T) {
	m := openTimeout(t, Options{}, uitest.Press("enter"), uitest.Press("g"))
	scenarioOf(t, m)
	m, _ = uitest.Drive(m, uitest.Press(uitest.RetryKey()))
	if line := uitest.LineWith(m.View(), "1-9 choose"); !strings.Contains(line, "g read §2") {
		t.Errorf("the help bar does not offer g read §2:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("g"))
	if got := m.(*App).Top().Crumb(); got != "Reference" {
		t.Fatalf("g after the verdict opened %q, not the Reference", got)
	}
	if line := uitest.LineWith(m.View(), "errorlab"); !strings.Contains(line, uitest.TimeoutID+" › Reference") {
		t.Errorf("the breadcrumb does not say Reference: %q", line)
	}
	// It opens at the rule's section: §2 heads the page and the footer
	// names it.
	lines := strings.Split(m.View(), "\n")
	if !strings.Contains(lines[1], "§2") {
		t.Errorf("the Reference did not open at §2; its first line is %q", lines[1])
	}
	if foot := uitest.LineWith(m.View(), "── §"); !strings.Contains(foot, "── §2 ") {
		t.Errorf("the footer does not name §2: %q", foot)
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if !strings.Contains(scenarioOf(t, m).View(), "✓ Correct") {
		t.Errorf("esc from the Reference did not return to the verdict:\n%s", m.View())
	}
}
