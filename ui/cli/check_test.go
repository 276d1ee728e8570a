package cli

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/errorlab/errorlab/sim/check"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/ui"
)

// runIn is run with stdin.
func runIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runEnv(t, stdin, t.TempDir(), args...)
}

// runEnv runs errorlab with stdin, the state directory state and args,
// and returns its exit code, stdout and stderr; the TUI must not start.
func runEnv(t *testing.T, stdin, state string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, IsTerminal: func() bool { return false },
		RunTUI: func(ui.Options) error { t.Fatal("the TUI started"); return nil }}
	code := Run(env, append([]string{"--state-dir", state}, args...))
	return code, out.String(), errOut.String()
}

const fixtureDir = "../../sim/grade/testdata/public-cases"

func TestCheckExitCodes(t *testing.T) {
	warnOnly := filepath.Join(t.TempDir(), "warn.json")
	if err := os.WriteFile(warnOnly, []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[]"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		want string // in stdout or stderr
	}{
		{"a faulty response", []string{"check", filepath.Join(fixtureDir, "case07-faulty.json")}, ExitFailure, "1 of 1 response fails the check"},
		{"a correct response", []string{"check", filepath.Join(fixtureDir, "case07-correct.json")}, ExitOK, "1 ✓ clean"},
		{"a warning passes", []string{"check", warnOnly}, ExitOK, "1 ⚠ warn"},
		{"a warning fails with --fail-on warn", []string{"check", "--fail-on", "warn", warnOnly}, ExitFailure, "fails the check"},
		{"a missing file", []string{"check", "no-such-file.json"}, ExitUsage, "cannot read no-such-file.json"},
		{"--probe without a server", []string{"check", "--probe", warnOnly}, ExitUsage, "need a live server"},
		{"a live server without a call", []string{"check", "--server", "x"}, ExitUsage, "--probe"},
		{"both --server and --url", []string{"check", "--server", "x", "--url", "http://127.0.0.1:1/mcp", "--probe"}, ExitUsage, "not both"},
		{"an unknown format", []string{"check", "--format", "xml", warnOnly}, ExitUsage, "unknown --format"},
		{"an unknown revision", []string{"check", "--spec", "2024-01-01", warnOnly}, ExitUsage, "unknown spec revision"},
		{"an unknown --fail-on", []string{"check", "--fail-on", "note", warnOnly}, ExitUsage, "use error or warn"},
		{"a server that is not there", []string{"check", "--server", "no-such-program-errorlab", "--probe"}, ExitUsage, "not a program on PATH"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runIn(t, "", c.args...)
			if code != c.code || !strings.Contains(out+errOut, c.want) {
				t.Errorf("exit %d (want %d); want %q in\n%s%s", code, c.code, c.want, out, errOut)
			}
		})
	}
}

func TestCheckStdinAndBadInput(t *testing.T) {
	var lines []string
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		var v any
		_ = json.Unmarshal(b, &v)
		one, _ := json.Marshal(v)
		lines = append(lines, string(one))
	}
	code, out, _ := runIn(t, strings.Join(lines, "\n"), "check")
	if code != ExitFailure || !strings.Contains(out, "20 responses:") || !strings.Contains(out, "stdin:7") {
		t.Errorf("JSON lines on stdin: exit %d\n%s", code, out)
	}
	code, _, errOut := runIn(t, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\nnot json\n", "check", "-")
	if code != ExitUsage || !strings.Contains(errOut, "stdin:2: not JSON") {
		t.Errorf("a bad line: exit %d\n%s", code, errOut)
	}
}

// TestCheckTextOutput: in a pipe the text has no colour codes, and every
// state reads by its symbol; each finding carries its fix.
func TestCheckTextOutput(t *testing.T) {
	code, out, _ := runIn(t, "", "check", filepath.Join(fixtureDir, "case07-faulty.json"), filepath.Join(fixtureDir, "case07-correct.json"))
	if code != ExitFailure {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("colour codes in a pipe:\n%q", out)
	}
	for _, want := range []string{"✗ fail  tools/call query_orders", "✓ clean  tools/call query_orders", "✗ leak.stack-trace · §6 Safe to show the model · $.result.content[0].text",
		"fix: Log the trace on the server", "2 responses: 1 ✓ clean, 0 ⚠ warn, 1 ✗ fail"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestCheckFormats(t *testing.T) {
	file := filepath.Join(fixtureDir, "case07-faulty.json")
	_, out, _ := runIn(t, "", "check", "--format", "json", file)
	var rep check.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--format json: %v\n%s", err, out)
	}
	if len(rep.Responses) != 1 || rep.Responses[0].Verdict != grade.Fail || len(rep.Responses[0].Findings) == 0 || rep.Responses[0].Findings[0].Fix == "" {
		t.Errorf("--format json: %+v", rep)
	}
	_, out, _ = runIn(t, "", "check", "--format", "junit", file)
	if !strings.HasPrefix(out, "<?xml") || !strings.Contains(out, "<failure") {
		t.Errorf("--format junit:\n%s", out)
	}
	_, out, _ = runIn(t, "", "check", "--format", "sarif", file)
	if !strings.Contains(out, `"version": "2.1.0"`) || !strings.Contains(out, `"ruleId": "leak.stack-trace"`) {
		t.Errorf("--format sarif:\n%s", out)
	}
}

func TestCheckRules(t *testing.T) {
	code, out, _ := runIn(t, "", "check", "--rules")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, c := range grade.Checks() {
		if !strings.Contains(out, string(c.ID)) {
			t.Errorf("--rules does not list %s", c.ID)
		}
	}
	for _, kind := range []string{"leak.stack-trace", "leak.system-error", "leak.sql", "leak.secret", "leak.private-host", "leak.path"} {
		if !strings.Contains(out, kind) {
			t.Errorf("no %s", kind)
		}
	}
	_, out, _ = runIn(t, "", "check", "--rules", "--format", "json")
	var checks []grade.Check
	if err := json.Unmarshal([]byte(out), &checks); err != nil || len(checks) != len(grade.Checks()) {
		t.Errorf("--rules --format json: %v, %d checks", err, len(checks))
	}
}

// TestCheckURL probes the mock server over mcp-go's Streamable HTTP
// transport on the loopback, as `--url` would reach `errorlab serve --http`.
func TestCheckURL(t *testing.T) {
	srv := server.NewStreamableHTTPServer(mockserver.New(mockserver.Options{Style: mockserver.StyleGeneric}).MCPServer())
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(l) }()
	defer hs.Close()
	url := "http://" + l.Addr().String() + "/mcp"
	code, out, errOut := runIn(t, "", "check", "--url", url, "--tool", "lookup_order", "--args", `{"order_id":"ORD-4471x"}`)
	if code != ExitFailure || !strings.Contains(out, "metadata.generic-message") {
		t.Errorf("the generic style over HTTP: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runIn(t, "", "check", "--url", url, "--probe", "--format", "json")
	var rep check.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitFailure || rep.Target != url || len(rep.Responses) < 10 {
		t.Errorf("--probe over HTTP: exit %d, %v, %d responses\n%s", code, err, len(rep.Responses), errOut)
	}
	if !strings.Contains(errOut, "skipped process_refund") {
		t.Errorf("the skipped destructive tool is not named on stderr:\n%s", errOut)
	}
}
