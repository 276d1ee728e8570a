package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/mark3labs/mcp-go/server"

	"github.com/errorlab/errorlab/sim/check/checktest"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/ui"
)

var (
	fakeOnce sync.Once
	fakeBin  string
	fakeErr  error
)

// fakeServer builds package checktest's server once and returns the
// --server command that starts it in mode.
func fakeServer(t *testing.T, mode string) string {
	t.Helper()
	fakeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "checktest")
		if err != nil {
			fakeErr = err
			return
		}
		fakeBin = filepath.Join(dir, "checktest-server")
		if out, err := exec.Command("go", "build", "-o", fakeBin, "github.com/errorlab/errorlab/sim/check/checktest/server").CombinedOutput(); err != nil {
			fakeErr = err
			t.Logf("%s", out)
		}
	})
	if fakeErr != nil {
		t.Fatalf("building the checktest server: %v", fakeErr)
	}
	t.Setenv(checktest.ModeEnv, mode)
	return fakeBin
}

// tempFile writes content to a file named name in a new folder.
func tempFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	writeFile(t, p, content)
	return p
}

const okResponse = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Order ORD-4471 shipped."}]}}`

// Usage errors exit 2 with a message that says what to do.
func TestCheckUsageErrors(t *testing.T) {
	file := tempFile(t, "ok.json", okResponse)
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"--timeout 0", []string{"check", "--server", "x", "--probe", "--timeout", "0"}, "more than zero"},
		{"a negative --timeout", []string{"check", "--server", "x", "--probe", "--timeout", "-5s"}, "more than zero"},
		{"--rules with a file", []string{"check", "--rules", file}, "--rules lists the checks and reads no file"},
		{"--rules as junit", []string{"check", "--rules", "--format", "junit"}, "text, json or sarif"},
		{"a directory", []string{"check", dir}, "is a directory: give the files in it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runIn(t, "", c.args...)
			if code != ExitUsage || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d (want %d); want %q in\n%s%s", code, ExitUsage, c.want, out, errOut)
			}
		})
	}
}

// --rules --format sarif is a SARIF log listing every check.
func TestCheckRulesAsSARIF(t *testing.T) {
	code, out, _ := runIn(t, "", "check", "--rules", "--format", "sarif")
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []any
		}
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &log) != nil || log.Version != "2.1.0" || len(log.Runs[0].Tool.Driver.Rules) != len(grade.Checks()) || len(log.Runs[0].Results) != 0 {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// The text says which spec each response was graded under, and stderr
// says when a record's own spec is used instead of --spec.
func TestCheckShowsTheSpec(t *testing.T) {
	own := tempFile(t, "own.json", `{"spec":"2025-06-18","response":`+okResponse+`}`)
	code, out, errOut := runIn(t, "", "check", "--spec", "2026-07-28", own)
	if code != ExitOK || !strings.Contains(out, "graded under spec 2025-06-18") || !strings.Contains(errOut, "names spec 2025-06-18, so it is graded under that, not --spec 2026-07-28") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	plain := tempFile(t, "plain.json", okResponse)
	_, out, errOut = runIn(t, "", "check", own, plain)
	if !strings.Contains(out, "own.json:1 · spec 2025-06-18") || !strings.Contains(out, "plain.json:1 · spec 2025-11-25") || errOut != "" {
		t.Errorf("mixed revisions:\n%s%s", out, errOut)
	}
}

// A secret is masked in every output format.
func TestCheckMasksSecrets(t *testing.T) {
	token := "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	file := tempFile(t, "secret.json", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"GitHub refused `+token+`"}],"isError":true}}`)
	for _, format := range []string{"text", "sarif", "junit"} {
		_, out, _ := runIn(t, "", "check", "--format", format, file)
		if strings.Contains(out, token) || !strings.Contains(out, "40 characters") {
			t.Errorf("--format %s: the token is not masked:\n%s", format, out)
		}
	}
}

// Against a live server: a tool name it does not have is a usage error
// naming the closest; a revision it does not accept is said on stderr;
// a server that stops answering is reported with what it did answer.
func TestCheckLiveProblems(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the checktest server")
	}
	ok := fakeServer(t, checktest.OK)
	for _, args := range [][]string{{"--probe", "--tool", "lookup_ordr"}, {"--probe", "--args", `{"lookup_ordr": {"order_id": "ORD-4471"}}`}, {"--tool", "no_such_tool"}} {
		code, out, errOut := runIn(t, "", append([]string{"check", "--server", ok}, args...)...)
		if code != ExitUsage || !strings.Contains(errOut, "the server has no tool of that name (it lists 1 tool); closest: lookup_order") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	old := fakeServer(t, checktest.OldSpec)
	code, out, errOut := runIn(t, "", "check", "--server", old, "--spec", "2026-07-28", "--tool", "lookup_order", "--args", `{"order_id":"ORD-4471"}`)
	if code != ExitOK || !strings.Contains(errOut, "did not accept spec 2026-07-28") || !strings.Contains(out, "graded under spec 2025-11-25") || strings.Contains(out, "result-type") {
		t.Errorf("an older server: exit %d\n%s%s", code, out, errOut)
	}
	hang := fakeServer(t, checktest.HangCall)
	code, out, errOut = runIn(t, "", "check", "--server", hang, "--probe", "--timeout", "1s", "--args", `{"lookup_order": [{"order_id": "ORD-4471"}, {"order_id": "ORD-4472"}]}`)
	if code != ExitFailure || !strings.Contains(errOut, "stopped answering") || !strings.Contains(out, "envelope.no-answer") || !strings.Contains(out, "tools/call errorlab_probe_no_such_tool") {
		t.Errorf("a server that stops answering: exit %d\n%s%s", code, out, errOut)
	}
}

// On a terminal, the progress bar's line is ended before anything else is
// written on stderr.
func TestCheckProgressBarEndsItsLine(t *testing.T) {
	srv := server.NewStreamableHTTPServer(mockserver.New(mockserver.Options{Style: mockserver.StyleGood}).MCPServer())
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(l) }()
	defer hs.Close()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	var got bytes.Buffer
	done := make(chan struct{})
	go func() { _, _ = io.Copy(&got, ptmx); close(done) }()
	var out bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: tty, IsTerminal: func() bool { return false },
		RunTUI: func(ui.Options) error { t.Fatal("the TUI started"); return nil }}
	Run(env, []string{"--state-dir", t.TempDir(), "check", "--url", "http://" + l.Addr().String() + "/mcp", "--probe"})
	_ = tty.Close()
	<-done
	text := got.String()
	i := strings.Index(text, "errorlab check: skipped")
	if i < 0 {
		t.Fatalf("no skipped note on stderr:\n%q", text)
	}
	if !strings.Contains(text[:i], "done") || !strings.HasSuffix(text[:i], "\r\x1b[K") {
		t.Errorf("the note does not start on a line of its own:\n%q", text[max(0, i-80):i+30])
	}
}
