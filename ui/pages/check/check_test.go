package check_test

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mark3labs/mcp-go/server"

	"github.com/errorlab/errorlab/sim/check"
	"github.com/errorlab/errorlab/sim/check/checktest"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/findings"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	checkpage "github.com/errorlab/errorlab/ui/pages/check"
)

// TestMain lets this test binary be a misbehaving MCP server (package
// checktest) when a test starts it as one.
func TestMain(m *testing.M) {
	if checktest.Serving() {
		return
	}
	uitest.Main(m)
}

// mockURL serves the mock server in a style over Streamable HTTP on the
// loopback; the test stops it.
func mockURL(t *testing.T, style mockserver.Style) string {
	t.Helper()
	srv := server.NewStreamableHTTPServer(mockserver.New(mockserver.Options{Style: style}).MCPServer())
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(l) }()
	t.Cleanup(func() { _ = hs.Close() })
	return "http://" + l.Addr().String() + "/mcp"
}

func typeText(s string) []tea.Msg {
	return []tea.Msg{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}}
}

// openCheck goes from Home to Check a server.
func openCheck(t *testing.T) tea.Model {
	t.Helper()
	fresh := func() tea.Model { return ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}) }
	n := uitest.HomeKeyIndex(t, fresh(), "Check a server")
	m, _ := uitest.Drive(fresh(), uitest.Size120)
	for range n {
		m, _ = uitest.Drive(m, uitest.Press("down"))
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	if h := uitest.LineWith(m.View(), "errorlab"); !strings.Contains(h, "› Check a server") {
		t.Fatalf("Home → Check a server did not open it: %q\n%s", h, m.View())
	}
	return m
}

// TestProbeFromHome: type a URL, the probe runs, the responses show
// beside their findings, and enter on a finding opens the Reference at
// its section.
func TestProbeFromHome(t *testing.T) {
	m := openCheck(t)
	// Enter with nothing typed says what to type.
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	if !strings.Contains(m.View(), "type the command of a stdio MCP server") {
		t.Fatalf("an empty input is not explained:\n%s", m.View())
	}
	// tab changes the revision; q types a q (the input takes every key).
	m, _ = uitest.Drive(m, uitest.Press("tab"))
	if !strings.Contains(m.View(), "graded under spec 2026-07-28") {
		t.Fatalf("tab did not change the revision:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("tab"), uitest.Press("tab"))
	m, _ = uitest.Drive(m, typeText(mockURL(t, mockserver.StyleGeneric))...)
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	v := m.View()
	for _, want := range []string{"✗ fail", "Responses ·", "Findings ·", "Response (server → client)", "tools/call", "not called: process_refund"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the results lack %q:\n%s", want, v)
		}
	}
	// Down the list to a generic answer, then to its findings.
	for i := 0; i < 20 && !strings.Contains(m.View(), "metadata.generic-message"); i++ {
		m, _ = uitest.Drive(m, uitest.Press("down"))
	}
	if !strings.Contains(m.View(), "metadata.generic-message · §3") {
		t.Fatalf("no generic-message finding while moving down the list:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("tab"))
	var ref tea.Msg
	_, cmd := m.Update(uitest.Press("enter"))
	if cmd != nil {
		ref = cmd()
	}
	if r, ok := ref.(common.OpenReferenceMsg); !ok || !strings.HasPrefix(r.Section, "§") {
		t.Fatalf("enter on a finding sent %#v, not the Reference at a section", ref)
	}
	m, _ = uitest.Drive(m, ref)
	if h := uitest.LineWith(m.View(), "errorlab"); !strings.Contains(h, "› Reference") {
		t.Fatalf("the Reference did not open: %q", h)
	}
}

// TestProbeFailureIsExplained: a server that is not there leaves the
// learner on the input with the reason.
func TestProbeFailureIsExplained(t *testing.T) {
	m := openCheck(t)
	m, _ = uitest.Drive(m, typeText("no-such-program-errorlab --stdio")...)
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	if v := m.View(); !strings.Contains(v, "not a program on PATH") || !strings.Contains(v, "› no-such-program-errorlab") {
		t.Fatalf("the failure is not shown under the input:\n%s", v)
	}
}

// TestLabC: c in the lab shows what check finds in the response on screen.
func TestLabC(t *testing.T) {
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID), ScenarioID: uitest.TimeoutID}), uitest.Size120)
	m, _ = uitest.Drive(m, uitest.Press("c"))
	if !strings.Contains(m.View(), "make the call first") {
		t.Fatalf("c before a call does not say what to do:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	m, _ = uitest.Drive(m, uitest.Press("c"))
	v := m.View()
	if !strings.Contains(uitest.LineWith(v, "errorlab"), "› Check") || !strings.Contains(v, "Findings ·") {
		t.Fatalf("c did not open the findings:\n%s", v)
	}
	if !strings.Contains(v, "✓ no finding") {
		t.Fatalf("the good style's response has findings:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if !strings.Contains(uitest.LineWith(m.View(), "errorlab"), uitest.TimeoutID) {
		t.Fatalf("esc did not return to the scenario")
	}
}

// TestCheckSizes: every state of the screen fits any terminal, and below
// the minimum the too-small message shows.
func TestCheckSizes(t *testing.T) {
	input := openCheck(t)
	results := openCheck(t)
	results, _ = uitest.Drive(results, typeText(mockURL(t, mockserver.StyleRawException))...)
	results, _ = uitest.Drive(results, uitest.Press("enter"))
	uitest.Sweep(t, map[string]tea.Model{"input": input, "results": results})
}

// In a confined session (a class over SSH) the screen says Check a
// server is not available and runs nothing, whatever is typed: the
// command would run on the class's server.
func TestConfinedSessionProbesNothing(t *testing.T) {
	c := common.New(nil, uitest.SubsetCatalog(t, uitest.TimeoutID), nil)
	c.Confine("")
	m := checkpage.New(c)
	m.SetSize(100, 30)
	marker := filepath.Join(t.TempDir(), "x")
	var model tea.Model = m
	model, _ = uitest.Drive(model, append(typeText("sh -c 'id > "+marker+"'"), uitest.Press("enter"))...)
	model, _ = uitest.Drive(model, append(typeText("http://127.0.0.1:1/mcp"), uitest.Press("enter"))...)
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the command ran")
	}
	view := uitest.Flat(model.View())
	if !strings.Contains(view, uitest.Flat("Not available in a class: run errorlab check on your own machine")) || strings.Contains(view, "Probing") {
		t.Fatalf("the screen does not say why nothing runs:\n%s", model.View())
	}
	if m.Capturing() {
		t.Error("a screen that takes no input captures the keys (q would not quit)")
	}
}

// At 80x24 the selected finding opens with its first line (check id,
// section, JSON path) in view, also when its block is taller than the
// Findings pane, and keeps it after a resize to 120x40 and after moving
// to the next finding and back.
func TestSelectedFindingHeadInView(t *testing.T) {
	c := common.New(nil, uitest.SubsetCatalog(t, uitest.TimeoutID), nil)
	resp := `{"jsonrpc":"2.0","id":3,"result":{"isError":true,"content":[{"type":"text","text":"TypeError: Cannot read properties of undefined (reading 'id')\n    at getUser (/app/src/users.js:12:5)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)"}]}}`
	req := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_user","arguments":{"user_id":5}}}`
	m := checkpage.NewResult(c, "get_user", check.Item{Request: []byte(req), Response: []byte(resp)})
	res := check.GradeItem(check.Item{Request: []byte(req), Response: []byte(resp)})
	fs := findings.Sorted(res.Report.Findings)
	if len(fs) < 2 {
		t.Fatalf("want several findings: %v", fs)
	}
	head := func(f grade.Finding) string { return string(f.ID) + " · " + f.Section }
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m.SetSize(size[0], size[1])
		if v := m.View(); !strings.Contains(v, "▸ ✗ "+head(fs[0])) {
			t.Errorf("%dx%d: the first finding's head line is not in view:\n%s", size[0], size[1], v)
		}
	}
	m.SetSize(80, 24)
	var model tea.Model = m
	for i := 1; i < len(fs); i++ {
		model, _ = uitest.Drive(model, uitest.Press("down"))
		if v := model.View(); !strings.Contains(v, "▸ ✗ "+head(fs[i])) {
			t.Errorf("down to finding %d: its head line is not in view:\n%s", i+1, v)
		}
	}
	for range fs {
		model, _ = uitest.Drive(model, uitest.Press("up"))
	}
	if v := model.View(); !strings.Contains(v, "▸ ✗ "+head(fs[0])) {
		t.Errorf("back up: the first finding's head line is not in view:\n%s", v)
	}
}

// TestTooSmallTerminalTakesNoTyping: below the minimum size only "q quits"
// is on screen, so keys typed there must not reach the hidden input, and q
// quits even though the input would otherwise take it as a letter.
func TestTooSmallTerminalTakesNoTyping(t *testing.T) {
	m := openCheck(t)
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 50, Height: 15})
	m, _ = uitest.Drive(m, typeText("npx hidden")...)
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("tab"))
	m, _ = uitest.Drive(m, uitest.Size120)
	v := m.View()
	if strings.Contains(v, "hidden") {
		t.Errorf("text typed at a too-small terminal reached the input:\n%s", v)
	}
	if !strings.Contains(v, "› Check a server") || !strings.Contains(v, "graded under spec 2025-11-25") {
		t.Errorf("esc or tab at a too-small terminal acted on the hidden screen:\n%s", v)
	}
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 50, Height: 15})
	if _, cmd := m.Update(uitest.Press("q")); cmd == nil || cmd() != tea.Quit() {
		t.Errorf("q at a too-small terminal did not quit")
	}
}
