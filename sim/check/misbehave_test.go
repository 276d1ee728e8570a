package check

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/errorlab/errorlab/sim/check/checktest"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// fakeTarget starts this test binary as a checktest server in mode.
func fakeTarget(t *testing.T, mode string) Target {
	t.Helper()
	t.Setenv(checktest.ModeEnv, mode)
	return Target{Command: "'" + os.Args[0] + "'", Name: "checktest " + mode}
}

func allIDs(out *Outcome) []grade.CheckID {
	var ids []grade.CheckID
	for _, r := range out.Results {
		for _, f := range r.Report.Findings {
			ids = append(ids, f.ID)
		}
	}
	return ids
}

func hasCheck(out *Outcome, id grade.CheckID) bool {
	for _, got := range allIDs(out) {
		if got == id {
			return true
		}
	}
	return false
}

// A server that did not accept the revision asked for is graded under the
// one it negotiated, and the outcome says so.
func TestGradedUnderTheNegotiatedSpec(t *testing.T) {
	out, err := Live(context.Background(), fakeTarget(t, checktest.OldSpec),
		Options{Spec: rules.Rev20260728, Tool: "lookup_order", Args: json.RawMessage(`{"order_id":"ORD-4471"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Spec != rules.Rev20251125 || out.Protocol != "2025-11-25" {
		t.Errorf("graded under %s (protocol %s), want 2025-11-25", out.Spec, out.Protocol)
	}
	if !strings.Contains(out.SpecNote, "did not accept spec 2026-07-28") || !strings.Contains(out.SpecNote, "graded under 2025-11-25") {
		t.Errorf("the note: %q", out.SpecNote)
	}
	for _, r := range out.Results {
		if r.Spec != rules.Rev20251125 {
			t.Errorf("%s graded under %s", r.Label, r.Spec)
		}
	}
	if hasCheck(out, grade.CheckResultType) {
		t.Errorf("2025-11-25 answers graded for resultType: %v", allIDs(out))
	}
}

// --args by tool name is read by name with --tool too.
func TestArgsByNameWithTool(t *testing.T) {
	target := fakeTarget(t, checktest.OK)
	for _, opts := range []Options{
		{Probe: true, Tool: "lookup_order", Args: json.RawMessage(`{"lookup_order": {"order_id": "ORD-4471"}}`)},
		{Tool: "lookup_order", Args: json.RawMessage(`{"lookup_order": {"order_id": "ORD-4471"}}`)},
		{Tool: "lookup_order", Args: json.RawMessage(`{"order_id": "ORD-4471"}`)},
	} {
		out, err := Live(context.Background(), target, opts)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, r := range out.Results {
			var req struct {
				Params struct {
					Arguments map[string]any `json:"arguments"`
				} `json:"params"`
			}
			_ = json.Unmarshal(r.Request, &req)
			if _, wrapped := req.Params.Arguments["lookup_order"]; wrapped {
				t.Errorf("%s: the by-name object was sent as the arguments: %s", r.Source, r.Request)
			}
			if req.Params.Arguments["order_id"] == "ORD-4471" {
				found = true
				if r.Report.Verdict != grade.Clean {
					t.Errorf("%s: %+v", r.Source, r.Report.Findings)
				}
			}
		}
		if !found {
			t.Errorf("%s: the example was not called", opts.Args)
		}
		if !opts.Probe && out.Results[0].Source != "--tool lookup_order --args" {
			t.Errorf("a single call's source is %q", out.Results[0].Source)
		}
	}
}

// A tool name the server does not have, in --tool or --args, is an
// *ArgsError naming it, with the server's tools.
func TestUnknownToolNames(t *testing.T) {
	target := fakeTarget(t, checktest.OK)
	for _, c := range []struct {
		opts Options
		flag string
	}{
		{Options{Probe: true, Tool: "no_such_tool"}, "--tool"},
		{Options{Tool: "lookup_ordr"}, "--tool"},
		{Options{Probe: true, Args: json.RawMessage(`{"no_such_tool": {"x": 1}}`)}, "--args"},
	} {
		_, err := Live(context.Background(), target, c.opts)
		var ae *ArgsError
		if !errors.As(err, &ae) || ae.Flag != c.flag || ae.Name == "" || len(ae.Known) != 1 || ae.Known[0] != "lookup_order" {
			t.Errorf("%+v: %v", c.opts, err)
		}
	}
}

// A line on stdout that is not JSON-RPC is a finding.
func TestBannerOnStdout(t *testing.T) {
	out, err := Live(context.Background(), fakeTarget(t, checktest.Banner), Options{Tool: "lookup_order", Args: json.RawMessage(`{"order_id":"ORD-4471"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCheck(out, grade.CheckStrayOutput) {
		t.Errorf("the banner was not reported: %v", allIDs(out))
	}
}

// A server that answers with HTML is said to have done so.
func TestGarbageAnswerIsNamed(t *testing.T) {
	_, err := Live(context.Background(), fakeTarget(t, checktest.GarbageList), Options{Probe: true, CallTimeout: 2 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "<html>500</html>") || !strings.Contains(err.Error(), "tools/list") || strings.Contains(err.Error(), "context deadline") {
		t.Errorf("error: %v", err)
	}
}

// A tool whose inputSchema is not a schema is a finding; the rest is
// probed.
func TestInputSchemaTrue(t *testing.T) {
	out, err := Live(context.Background(), fakeTarget(t, checktest.SchemaTrue), Options{Probe: true})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCheck(out, grade.CheckToolDeclaration) {
		t.Errorf("inputSchema true not reported: %v", allIDs(out))
	}
	probed := false
	for _, r := range out.Results {
		if r.Label == "tools/call lookup_order" {
			probed = true
		}
	}
	if !probed {
		t.Error("lookup_order was not probed")
	}
}

// A server that exits at once is said to have ended, in plain words.
func TestServerThatExits(t *testing.T) {
	_, err := Live(context.Background(), Target{Command: "false"}, Options{Probe: true})
	if err == nil || !strings.Contains(err.Error(), "process ended") || !strings.Contains(err.Error(), "exit status 1") || strings.Contains(err.Error(), "file already closed") {
		t.Errorf("error: %v", err)
	}
}

// Interrupting the handshake says so and stops the server's whole
// process group before Live returns.
func TestInterruptStopsTheServer(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	t.Setenv(checktest.PIDsEnv, pids)
	target := fakeTarget(t, checktest.HangInit)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if b, _ := os.ReadFile(pids); strings.Count(string(b), "\n") == 2 {
				break
			}
		}
		cancel()
	}()
	_, err := Live(ctx, target, Options{Probe: true})
	if err == nil || !strings.Contains(err.Error(), "interrupted during the MCP handshake") {
		t.Errorf("error: %v", err)
	}
	b, _ := os.ReadFile(pids)
	for _, f := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(f)
		// The group was sent SIGKILL before Live returned; a process
		// may take a moment to die on a busy machine, not seconds.
		for deadline := time.Now().Add(2 * time.Second); pid > 0 && running(pid) && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if pid > 0 && running(pid) {
			t.Errorf("process %d still runs 2 s after Live returned", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// A call that gets no answer is its own finding; when the server stops
// answering, the answers so far are kept and the probe says it stopped.
func TestHangingCalls(t *testing.T) {
	out, err := Live(context.Background(), fakeTarget(t, checktest.HangCall), Options{Probe: true, CallTimeout: time.Second,
		Args: json.RawMessage(`{"lookup_order": [{"order_id": "ORD-4471"}, {"order_id": "ORD-4472"}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Stopped, "stopped answering") || !strings.Contains(out.Stopped, "the last 2 of 7 calls were not made") {
		t.Errorf("stopped: %q", out.Stopped)
	}
	noAnswer, answered := 0, 0
	for _, r := range out.Results {
		switch {
		case hasID(r.Report, grade.CheckNoAnswer):
			noAnswer++
			if hasID(r.Report, grade.CheckUnparsable) {
				t.Errorf("a call with no answer graded as unparsable: %+v", r.Report.Findings)
			}
		case r.Label == "tools/call errorlab_probe_no_such_tool" || r.Label == "errorlab/no-such-method":
			answered++
		}
	}
	if noAnswer != 3 || answered != 2 {
		t.Errorf("%d calls without an answer (want 3), %d answered (want 2)", noAnswer, answered)
	}
}

// The out-of-range probe sends a number really past the bound, or none.
func TestOutOfRangeAtTheEdgeOfFloat(t *testing.T) {
	tool := func(prop string) ToolInfo {
		return ToolInfo{Tool: grade.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","required":["n"],"properties":{"n":` + prop + `}}`)}}
	}
	plan, _, notes := Plan([]ToolInfo{tool(`{"type":"number","maximum":1e308}`)}, Options{Probe: true}, nil)
	var sent float64
	for _, p := range plan {
		if strings.Contains(p.What, "above the maximum") {
			sent = p.Args["n"].(float64)
		}
	}
	if !(sent > 1e308) || math.IsInf(sent, 0) || len(notes) != 0 {
		t.Errorf("maximum 1e308: sent %v, notes %v", sent, notes)
	}
	b, _ := json.Marshal(sent)
	var back float64
	if json.Unmarshal(b, &back) != nil || !(back > 1e308) {
		t.Errorf("%s is not above 1e308 once sent", b)
	}
	plan, _, notes = Plan([]ToolInfo{tool(`{"type":"number","maximum":1.7976931348623157e308}`)}, Options{Probe: true}, nil)
	for _, p := range plan {
		if strings.Contains(p.What, "maximum") {
			t.Errorf("a probe past the largest float: %s %v", p.What, p.Args)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "no out-of-range call") {
		t.Errorf("notes %v", notes)
	}
	plan, _, _ = Plan([]ToolInfo{tool(`{"type":"number","minimum":0,"maximum":1.7976931348623157e308}`)}, Options{Probe: true}, nil)
	if !strings.Contains(planText(plan), "below the minimum 0") {
		t.Errorf("the minimum was not tried instead: %s", planText(plan))
	}
}

func planText(plan []Probe) string {
	var s []string
	for _, p := range plan {
		s = append(s, p.What)
	}
	return strings.Join(s, "; ")
}

// An HTTP URL that is not an MCP endpoint: the error says what came back.
func TestHTTPErrorStatusIsNamed(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such page: "+r.URL.Path, http.StatusNotFound)
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(l) }()
	defer hs.Close()
	_, err = Live(context.Background(), Target{URL: "http://" + l.Addr().String() + "/wrong"}, Options{Probe: true, CallTimeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "HTTP 404 Not Found") || !strings.Contains(err.Error(), "no such page: /wrong") {
		t.Errorf("error: %v", err)
	}
}

// running reports a process that exists and is not a zombie (a zombie
// waits for a parent to reap it; in a container that may never happen).
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: the signal said it exists
	}
	// The state follows the command name in parentheses: "pid (comm) S …".
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// A live answer dressed as success ({"status":"error"} with no isError)
// fails the check (LESSON-RULES §3).
func TestLiveErrorAsSuccess(t *testing.T) {
	out, err := Live(context.Background(), fakeTarget(t, checktest.ErrorAsSuccess), Options{Tool: "lookup_order", Args: json.RawMessage(`{"order_id":"ORD-4471"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCheck(out, grade.CheckErrorAsSuccess) || !Failed(out.Results, grade.SevError) {
		t.Errorf("an error dressed as success passed: %v", allIDs(out))
	}
}

// An answer that comes after its call timed out, carrying its own id, is
// not taken for the next call's answer (no false envelope.id finding):
// each call the server answers late is unanswered, three in a row stop
// the probe, and the late answers are noted.
func TestLateAnswersMatchedByID(t *testing.T) {
	timeout := 1500 * time.Millisecond
	out, err := Live(context.Background(), fakeTarget(t, checktest.AnswerLate), Options{Probe: true, CallTimeout: timeout,
		Args: json.RawMessage(`{"lookup_order": {"order_id": "ORD-4471"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if hasCheck(out, grade.CheckEnvelopeID) {
		t.Errorf("a late answer was pinned to another call: %v", allIDs(out))
	}
	waited := 0
	for _, r := range out.Results {
		if r.Label == "tools/call lookup_order" {
			if r.Waited == 0 || len(r.Response) > 0 {
				t.Errorf("%s was graded with an answer that is not its own: %s", r.Source, r.Response)
			}
			waited++
		}
	}
	if waited != 3 || !strings.Contains(out.Stopped, "3 calls in a row got no answer") {
		t.Errorf("%d calls unanswered; stopped: %q", waited, out.Stopped)
	}
	late := 0
	for _, n := range out.Notes {
		if strings.Contains(n, "came after the 1.5s timeout") {
			late++
		}
	}
	if late < 2 {
		t.Errorf("the late answers were not noted: %q", out.Notes)
	}
}

// A server whose process exits during a call is said to have exited (its
// status and stderr), not to have been waited for, and no call is sent
// to it after.
func TestServerThatExitsMidProbe(t *testing.T) {
	out, err := Live(context.Background(), fakeTarget(t, checktest.ExitOnCall), Options{Probe: true, CallTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	last := out.Results[len(out.Results)-1]
	if last.Ended != "exit status 3" || !strings.Contains(last.Source, "exited before answering") {
		t.Errorf("the last result: %q ended %q", last.Source, last.Ended)
	}
	for _, r := range out.Results {
		for _, f := range r.Report.Findings {
			if strings.Contains(f.Message, "within") {
				t.Errorf("%s: %q", r.Source, f.Message)
			}
		}
		if r.Waited != 0 {
			t.Errorf("%s graded as waited for", r.Source)
		}
	}
	if !strings.Contains(out.Stopped, "exited (exit status 3) during call 4 of") || !strings.Contains(out.Stopped, "the order store closed") {
		t.Errorf("stopped: %q", out.Stopped)
	}
	calls := 0
	for _, m := range out.Transcript {
		if m.Dir == wire.ClientToServer && m.Method() == "tools/call" {
			calls++
		}
	}
	if calls != 3 { // the unknown tool, then two of lookup_order
		t.Errorf("%d tools/call sent; the server exited on the 3rd", calls)
	}
}

// A URL where nothing listens says so once, in plain words, not the
// transport's wrapped error twice over.
func TestURLWithNothingListening(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	_, err = Live(context.Background(), Target{URL: "http://" + addr + "/mcp"}, Options{Tool: "x", CallTimeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "nothing listens at that address") || strings.Contains(err.Error(), "failed to send request: failed to send request") {
		t.Errorf("error: %v", err)
	}
	if got := withoutRepeats("transport error: failed to send request: failed to send request: EOF"); got != "transport error: failed to send request: EOF" {
		t.Errorf("withoutRepeats: %q", got)
	}
}
