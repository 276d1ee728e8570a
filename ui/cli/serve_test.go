package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui"
)

// serveStdio runs `errorlab serve args...` with lines on stdin and
// returns the exit code, stdout's lines and stderr.
func serveStdio(t *testing.T, lines []string, args ...string) (int, []string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(strings.Join(lines, "\n") + "\n"),
		IsTerminal: func() bool { return false }, RunTUI: func(ui.Options) error { return nil }}
	code := Run(env, append([]string{"--state-dir", t.TempDir(), "serve"}, args...))
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l != "" {
			got = append(got, l)
		}
	}
	return code, got, errOut.String()
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`

func callLine(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}`, id, tool, args)
}

// categoryOf reads a tools/call response: its id, and the errorCategory
// of an isError result ("" for a success).
func categoryOf(t *testing.T, line string) (int, string) {
	t.Helper()
	var m struct {
		ID     int `json:"id"`
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				ErrorCategory string `json:"errorCategory"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("stdout carried a line that is not JSON-RPC: %q", line)
	}
	if !m.Result.IsError {
		return m.ID, ""
	}
	return m.ID, m.Result.StructuredContent.ErrorCategory
}

// TestServeScenarioFailsLikeTheLab: --scenario timeout-second-try times
// out the first lookup_order the server takes and answers the second;
// stderr says which call the scenario is about, and the report card is
// written.
func TestServeScenarioFailsLikeTheLab(t *testing.T) {
	report := filepath.Join(t.TempDir(), "card.md")
	code, out, errOut := serveStdio(t, []string{initLine,
		callLine(2, "lookup_order", `{"order_id":"ORD-4471"}`),
		callLine(3, "lookup_order", `{"order_id":"ORD-4471"}`),
	}, "--scenario", "timeout-second-try", "--report", report)
	if code != 0 || len(out) != 3 {
		t.Fatalf("exit %d, %d lines on stdout:\n%s\n%s", code, len(out), strings.Join(out, "\n"), errOut)
	}
	got := map[int]string{}
	for _, l := range out {
		id, cat := categoryOf(t, l)
		got[id] = cat
	}
	// Piped at once, the two calls run on mcp-go's workers in either order:
	// whichever the server takes first times out, the other gets the order.
	if (got[2] == "transient") == (got[3] == "transient") || got[2]+got[3] != "transient" {
		t.Errorf("calls 2 and 3: %q and %q; want one timeout and one order", got[2], got[3])
	}
	if !strings.Contains(errOut, `ask your client to call lookup_order with {"order_id":"ORD-4471"}`) {
		t.Errorf("stderr does not say what to call:\n%s", errOut)
	}
	b, _ := os.ReadFile(report)
	// Both calls were in flight together (piped at once), so the second is
	// no reaction to the first: the card waits for a move, then "stopped".
	if !strings.Contains(string(b), "scenario timeout-second-try") || !strings.Contains(string(b), "isError: transient (UPSTREAM_TIMEOUT)") {
		t.Errorf("report:\n%s", b)
	}
}

// TestServeScriptFailsCallByCall: --script fails the calls it lists, in
// order, tool by tool.
func TestServeScriptFailsCallByCall(t *testing.T) {
	script := filepath.Join(t.TempDir(), "day.yaml")
	if err := os.WriteFile(script, []byte("title: A refund day\nsteps:\n  - tool: lookup_order\n    failure: timeout\n  - tool: lookup_order\n    failure: none\n  - tool: process_refund\n    failure: business\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// mcp-go's stdio server serves tool calls on several workers, so two
	// calls of one tool piped at once may be attempted in either order:
	// the first call alone times out, and of two, exactly one does.
	_, out, _ := serveStdio(t, []string{initLine, callLine(2, "lookup_order", `{"order_id":"ORD-4471"}`)}, "--script", script)
	for _, l := range out {
		if id, cat := categoryOf(t, l); id == 2 && cat != "transient" {
			t.Errorf("the first lookup_order: %s", l)
		}
	}
	lines := []string{initLine,
		callLine(2, "lookup_order", `{"order_id":"ORD-4471"}`),
		callLine(3, "lookup_order", `{"order_id":"ORD-4471"}`),
		callLine(4, "process_refund", `{"order_id":"ORD-4519","amount":24.99,"confirmedByUser":true}`),
	}
	// And all four in one session, checked by id.
	code, out, errOut := serveStdio(t, lines, "--script", script)
	if code != 0 {
		t.Fatal(errOut)
	}
	byTool := map[int]string{}
	for _, l := range out {
		id, cat := categoryOf(t, l)
		byTool[id] = cat
	}
	if byTool[4] != "business" {
		t.Errorf("process_refund: %v", byTool)
	}
	if (byTool[2] == "transient") == (byTool[3] == "transient") {
		t.Errorf("lookup_order: exactly one of the two calls times out, got %v", byTool)
	}
	if !strings.Contains(errOut, "lookup_order: timeout, then none; process_refund: business") {
		t.Errorf("stderr does not describe the script:\n%s", errOut)
	}
}

// TestServeFailureModeByDefault: with neither --scenario nor --script each
// tool takes failure_mode; --style bad writes the failure as "Operation
// failed"; --spec 2025-06-18 caps the handshake.
func TestServeFailureModeByDefault(t *testing.T) {
	_, out, _ := serveStdio(t, []string{callLine(2, "get_customer", `{"customer_id":"C-1001","failure_mode":"permission"}`)})
	if _, cat := categoryOf(t, out[0]); cat != "permission" {
		t.Errorf("failure_mode permission: %s", out[0])
	}
	_, out, _ = serveStdio(t, []string{callLine(2, "get_customer", `{"customer_id":"C-1001","failure_mode":"permission"}`)}, "--style", "bad")
	if !strings.Contains(out[0], "Operation failed") {
		t.Errorf("--style bad: %s", out[0])
	}
	_, out, _ = serveStdio(t, []string{initLine}, "--spec", "2025-06-18")
	if !strings.Contains(out[0], `"protocolVersion":"2025-06-18"`) {
		t.Errorf("--spec 2025-06-18: %s", out[0])
	}
}

// TestServeRefusesReportFlagsThatLoseWork (finding 16): --report and
// --log on one file would overwrite the log with the cards, and
// --report-format without --report writes nothing: both are usage errors
// (exit 2) that say what to do, and nothing is served or written.
func TestServeRefusesReportFlagsThatLoseWork(t *testing.T) {
	dir := t.TempDir()
	same := filepath.Join(dir, "x.md")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--report", same, "--log", same}, "--report and --log both name"},
		{[]string{"--report", same, "--log", filepath.Join(dir, ".", "x.md")}, "--report and --log both name"},
		{[]string{"--report-format", "json"}, "--report-format json goes with --report FILE"},
	} {
		code, out, stderr := serveStdio(t, []string{initLine}, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || len(out) != 0 {
			t.Errorf("serve %v: exit %d, %d lines out, stderr %q; want exit 2 saying %q", c.args, code, len(out), stderr, c.want)
		}
	}
	if _, err := os.Stat(same); err == nil {
		t.Errorf("%s was written though nothing was served", same)
	}
}

// TestServeAllowRemoteNotice: --allow-remote warns only when the server
// listens where other machines can reach it, and then says plainly who can
// call it and which Hosts are served; on a loopback address it says the
// flag changes nothing instead of a warning.
func TestServeAllowRemoteNotice(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8805", "127.0.0.2:8805", "[::1]:8805"} {
		if n := remoteNotice(addr); strings.Contains(n, "WARNING") || !strings.Contains(n, "changes nothing") {
			t.Errorf("%s: %s", addr, n)
		}
	}
	n := remoteNotice("192.168.1.5:8805")
	for _, want := range []string{"WARNING", "192.168.1.5:8805", "other machines can reach", "anyone on your network", "no password", "any other Host gets 403"} {
		if !strings.Contains(n, want) {
			t.Errorf("missing %q in %s", want, n)
		}
	}
}
