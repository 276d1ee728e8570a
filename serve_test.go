package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/serve"
	"github.com/errorlab/errorlab/sim/serve/servetest"
)

// These tests run the built errorlab binary, as a client launches it:
// `errorlab serve` over stdio (through the go-sdk's CommandTransport) and
// `errorlab serve --http` over Streamable HTTP.

var binDir string

// errorlabBinary builds errorlab once per test binary.
var errorlabBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "errorlab-serve-test-")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "errorlab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func binary(t testing.TB) string {
	t.Helper()
	bin, err := errorlabBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// syncBuffer is a bytes.Buffer the process's output goroutines may write
// while the test reads it.
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

var servingAt = regexp.MustCompile(`serving MCP \(Streamable HTTP\) at (http://\S+/mcp)`)

// httpBinary starts `errorlab serve --http 127.0.0.1:0 args...` and
// returns its URL, the process and its stderr. The process is killed when
// the test ends if it is still running.
func httpBinary(t testing.TB, args ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"--state-dir", t.TempDir(), "serve", "--http", "127.0.0.1:0"}, args...)...)
	stderr := &syncBuffer{}
	pr, pw := io.Pipe()
	cmd.Stderr = io.MultiWriter(stderr, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		pw.Close()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := servingAt.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	select {
	case url := <-found:
		return url, cmd, stderr
	case <-time.After(20 * time.Second):
		t.Fatalf("errorlab serve --http did not say where it serves:\n%s", stderr.String())
	}
	return "", nil, nil
}

// stopWithin sends sig to the process and fails the test unless it exits
// with status 0 within limit.
func stopWithin(t testing.TB, cmd *exec.Cmd, sig os.Signal, limit time.Duration) time.Duration {
	t.Helper()
	done := make(chan error, 1)
	start := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		took := time.Since(start)
		t.Logf("stopped %v after %v", took.Round(time.Millisecond), sig)
		if err != nil {
			t.Errorf("after %v errorlab serve exited with %v", sig, err)
		}
		if took > limit {
			t.Errorf("errorlab serve took %v to stop after %v (limit %v)", took, sig, limit)
		}
		return took
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("errorlab serve did not stop within 10 s of %v", sig)
	}
	return 0
}

// TestServeBinaryGoSDK: the go-sdk client, through the built binary over
// stdio (mcp.CommandTransport) and over HTTP, pinned to each revision,
// makes every tool call with every failure mode; the log the binary
// wrote equals, response by response, what the lab's engine answers.
func TestServeBinaryGoSDK(t *testing.T) {
	bin := binary(t)
	for _, rev := range rules.Revisions {
		t.Run("stdio/"+string(rev), func(t *testing.T) {
			logFile := filepath.Join(t.TempDir(), "log.jsonl")
			cmd := exec.Command(bin, "--state-dir", t.TempDir(), "serve", "--log", logFile)
			var stderr syncBuffer
			cmd.Stderr = &stderr
			cs := connectSDK(t, &sdk.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, rev)
			results := servetest.CallAll(t, cs)
			if err := cs.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			checkLogAgainstLab(t, logFile, results)
			if !strings.Contains(stderr.String(), "go-sdk-binary 1.8.0") {
				t.Errorf("stderr does not report the client's card:\n%s", stderr.String())
			}
		})
		t.Run("http/"+string(rev), func(t *testing.T) {
			logFile := filepath.Join(t.TempDir(), "log.jsonl")
			url, cmd, _ := httpBinary(t, "--log", logFile)
			cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: url}, rev)
			results := servetest.CallAll(t, cs)
			_ = cs.Close()
			stopWithin(t, cmd, os.Interrupt, time.Second)
			checkLogAgainstLab(t, logFile, results)
		})
	}
}

func connectSDK(t testing.TB, tr sdk.Transport, rev rules.Revision) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-binary", Version: "1.8.0"}, nil)
	cs, err := c.Connect(context.Background(), tr, &sdk.ClientSessionOptions{ProtocolVersion: string(rev)})
	if err != nil {
		t.Fatalf("connect %s: %v", rev, err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != string(rev) {
		t.Fatalf("negotiated %s, want %s", got, rev)
	}
	return cs
}

func checkLogAgainstLab(t *testing.T, logFile string, results []*sdk.CallToolResult) {
	t.Helper()
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := servetest.ReadLog(t, b)
	sessions := servetest.Sessions(lines)
	if len(sessions) != 1 {
		t.Fatalf("sessions in the log: %v", sessions)
	}
	n := servetest.CheckAgainstLab(t, lines, sessions[0], mockserver.Options{FailureModes: true, Revision: rules.DefaultRevision})
	if n < len(servetest.Calls()) {
		t.Errorf("%d responses compared for %d calls", n, len(servetest.Calls()))
	}
	servetest.CheckResults(t, lines, sessions[0], results)
}

// stdioClient runs `errorlab serve args...` with pipes: the go-sdk talks
// over them, and every byte on stdout is kept to check.
func stdioClient(t *testing.T, args ...string) (*sdk.ClientSession, *exec.Cmd, *syncBuffer, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"--state-dir", t.TempDir(), "serve"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out, stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	tr := &sdk.IOTransport{Reader: io.NopCloser(io.TeeReader(stdout, &out)), Writer: stdin}
	cs := connectSDK(t, tr, rules.Rev20251125)
	return cs, cmd, &out, &stderr
}

// TestServeBinaryStopsCleanlyOnSignals: SIGINT and SIGTERM stop errorlab
// serve (stdio and HTTP) within a second, with exit status 0, and the
// --log and --report files are complete: one log line per exchange, the
// report card (Markdown or JSON) with the failure served and the move.
// Over stdio, stdout carried nothing but JSON-RPC.
func TestServeBinaryStopsCleanlyOnSignals(t *testing.T) {
	for _, c := range []struct {
		transport string
		sig       syscall.Signal
		report    string
	}{
		{"stdio", syscall.SIGINT, "report.md"},
		{"stdio", syscall.SIGTERM, "report.json"},
		{"http", syscall.SIGINT, "report.json"},
		{"http", syscall.SIGTERM, "report.md"},
	} {
		t.Run(c.transport+"/"+c.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			logFile, reportFile := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, c.report)
			args := []string{"--log", logFile, "--report", reportFile}
			var cs *sdk.ClientSession
			var cmd *exec.Cmd
			var stdout *syncBuffer
			if c.transport == "stdio" {
				cs, cmd, stdout, _ = stdioClient(t, args...)
			} else {
				var url string
				url, cmd, _ = httpBinary(t, args...)
				cs = connectSDK(t, &sdk.StreamableClientTransport{Endpoint: url}, rules.Rev20251125)
			}
			ctx := context.Background()
			refund := &sdk.CallToolParams{Name: "process_refund", Arguments: map[string]any{"order_id": "ORD-4471", "amount": 189, "confirmedByUser": true}}
			for range 2 { // a business refusal, resent once: a wasted call
				if res, err := cs.CallTool(ctx, refund); err != nil || !res.IsError {
					t.Fatalf("refund: %v %+v", err, res)
				}
			}
			stopWithin(t, cmd, c.sig, time.Second)

			b, err := os.ReadFile(logFile)
			if err != nil {
				t.Fatal(err)
			}
			lines := servetest.ReadLog(t, b)
			calls := 0
			for _, l := range lines {
				if bytes.Contains(l.Request, []byte(`"tools/call"`)) {
					calls++
					if len(l.Response) < 10 {
						t.Errorf("a tools/call logged without its response: %+v", l)
					}
				}
			}
			if calls != 2 || !bytes.HasSuffix(b, []byte("}\n")) {
				t.Errorf("the log holds %d tools/call lines (want 2), or ends mid-line:\n%s", calls, b)
			}
			rep, err := os.ReadFile(reportFile)
			if err != nil {
				t.Fatalf("no report: %v", err)
			}
			if strings.HasSuffix(reportFile, ".json") {
				var r serve.Report
				if err := json.Unmarshal(rep, &r); err != nil || len(r.Sessions) != 1 || len(r.Sessions[0].Entries) != 2 || r.Sessions[0].Wasted != 1 {
					t.Errorf("JSON report (%v):\n%s", err, rep)
				}
			} else if !strings.Contains(string(rep), "## go-sdk-binary 1.8.0") || !strings.Contains(string(rep), "resent the same call after") || !strings.Contains(string(rep), "1 wasted call") {
				t.Errorf("Markdown report:\n%s", rep)
			}
			if stdout != nil {
				for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
					var m struct{ JSONRPC string }
					if json.Unmarshal([]byte(l), &m) != nil || m.JSONRPC != "2.0" {
						t.Errorf("stdout carried a line that is not JSON-RPC: %q", l)
					}
				}
			}
		})
	}
}

// TestServeCommandLineMistakes: bad flag combinations are usage errors
// that say what to do, before anything is served.
func TestServeCommandLineMistakes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("steps:\n  - tool: lookup_ordr\n    failure: timeout\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--scenario", "timeout-second-try", "--script", bad}, "give one"},
		{[]string{"serve", "--watch"}, "--watch needs --http"},
		{[]string{"serve", "--allow-remote"}, "--allow-remote goes with --http"},
		{[]string{"serve", "--http", "0.0.0.0:0"}, "--allow-remote"},
		{[]string{"serve", "--scenario", "timeout-secnd-try"}, "timeout-second-try"},
		{[]string{"serve", "--script", bad}, "bad.yaml:2:11: unknown tool \"lookup_ordr\""},
		{[]string{"serve", "--spec", "2024-01-01"}, "unknown spec revision"},
		{[]string{"serve", "--style", "shouty"}, "unknown response style"},
		{[]string{"serve", "--scenario", "timeout-second-try", "--style", "structured_only"}, "does not offer style"},
		{[]string{"serve", "--report", filepath.Join(dir, "r.txt"), "--report-format", "pdf"}, "use md or json"},
	} {
		code, out, errOut, _ := cli(t, false, c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("errorlab %s: exit %d, stdout %q, stderr %q (want %q)", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
	}
}

// TestServeWatchStopsOnSignals: `errorlab serve --http --watch` in a
// pseudo-terminal draws the watch screen, shows a client's failure as it
// happens, and stops within a second of SIGTERM or SIGINT with its report
// written.
func TestServeWatchStopsOnSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "card.md")
			cmd := exec.Command(binary(t), "--state-dir", t.TempDir(), "serve", "--http", "127.0.0.1:0", "--watch", "--report", report)
			cmd.Env = append(os.Environ(), "TERM=xterm-256color")
			tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
			if err != nil {
				t.Skip("cannot start errorlab in a pseudo-terminal:", err)
			}
			defer tty.Close()
			var screen syncBuffer
			go func() {
				answered := make([]int, len(answers))
				buf := make([]byte, 32<<10)
				for {
					n, err := tty.Read(buf)
					_, _ = screen.Write(buf[:n])
					raw := []byte(screen.String())
					for i, a := range answers {
						for c := bytes.Count(raw, []byte(a.query)); answered[i] < c; answered[i]++ {
							_, _ = tty.WriteString(a.reply)
						}
					}
					if err != nil {
						return
					}
				}
			}()
			url := ""
			waitScreen := func(what string, ok func(string) bool) {
				t.Helper()
				deadline := time.Now().Add(20 * time.Second)
				for time.Now().Before(deadline) {
					if ok(ansi.Strip(screen.String())) {
						return
					}
					time.Sleep(50 * time.Millisecond)
				}
				_ = cmd.Process.Kill()
				t.Fatalf("no %s on the terminal:\n%s", what, ansi.Strip(screen.String()))
			}
			waitScreen("serving line", func(s string) bool {
				m := regexp.MustCompile(`serving (http://127\.0\.0\.1:\d+/mcp)`).FindStringSubmatch(s)
				if m != nil {
					url = m[1]
				}
				return m != nil
			})
			cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: url}, rules.Rev20251125)
			if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "get_customer", Arguments: map[string]any{"customer_id": "C-1002"}}); err != nil {
				t.Fatal(err)
			}
			waitScreen("report card entry", func(s string) bool {
				return strings.Contains(s, "STAFF_RECORD_RESTRICTED") && strings.Contains(s, "no call yet")
			})
			_ = cs.Close()
			stopWithin(t, cmd, sig, time.Second)
			b, _ := os.ReadFile(report)
			if !strings.Contains(string(b), "## go-sdk-binary 1.8.0") || !strings.Contains(string(b), "STAFF_RECORD_RESTRICTED") {
				t.Errorf("report:\n%s", b)
			}
		})
	}
}
