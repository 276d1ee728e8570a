package serve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/serve"
	"github.com/errorlab/errorlab/sim/serve/servetest"
)

// machinePaths are paths of this machine that must never reach a client.
func machinePaths(t *testing.T) []string {
	var out []string
	if wd, err := os.Getwd(); err == nil {
		out = append(out, wd, filepath.Dir(filepath.Dir(wd)))
	}
	if home, err := os.UserHomeDir(); err == nil && len(home) > 1 {
		out = append(out, home)
	}
	out = append(out, os.TempDir())
	for _, v := range []string{"GOROOT", "GOMODCACHE"} {
		if b, err := exec.Command("go", "env", v).Output(); err == nil {
			out = append(out, strings.TrimSpace(string(b)))
		}
	}
	var keep []string
	for _, p := range out {
		if len(p) > 4 { // "/tmp" is too common a word to search for
			keep = append(keep, p)
		}
	}
	return keep
}

// goErrorText is what a Go library's error or a crash looks like.
var goErrorText = []string{"json: ", "runtime error", "goroutine ", "panic:", ".go:", "Go struct", "invalid character", "unexpected EOF"}

// TestNoResultLeaks: every scenario of the catalogue and every practice
// failure mode, served in the good style under every revision, is graded
// by sim/grade: no result carries a stack trace, internals, a Go error
// string or a path of this machine.
func TestNoResultLeaks(t *testing.T) {
	cat, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	var tools []grade.Tool
	for _, tl := range mockserver.New(mockserver.Options{FailureModes: true}).Tools() {
		tools = append(tools, grade.Tool{Name: tl.Name, InputSchema: tl.RawInputSchema, OutputSchema: tl.RawOutputSchema})
	}
	paths := machinePaths(t)
	type job struct {
		name  string
		cfg   serve.Config
		calls []string // request lines after the handshake
	}
	var jobs []job
	for _, s := range cat.Scenarios {
		cfg := serve.Config{}
		if s.Failure.Kind != "" && s.Failure.Kind != mockserver.FaultNone && s.Call.Tool != "" {
			cfg.Faults = map[string]mockserver.Fault{s.Call.Tool: s.Failure}
		}
		calls := []string{strings.TrimSpace(s.Call.Raw)}
		if s.Call.Raw == "" {
			calls = []string{toolCall(s.Call.Tool, s.Call.Arguments), toolCall(s.Call.Tool, s.Call.Arguments)}
		}
		jobs = append(jobs, job{"scenario " + s.ID, cfg, calls})
	}
	var modes []string
	for _, c := range servetest.Calls() {
		modes = append(modes, toolCall(c.Tool, c.Args))
	}
	jobs = append(jobs, job{"every failure mode", serve.Config{FailureModes: true}, modes})

	checked, want := 0, 0
	for _, j := range jobs {
		want += len(j.calls) * len(rules.Revisions)
	}
	for _, rev := range rules.Revisions {
		for _, j := range jobs {
			var log lockedBuffer
			j.cfg.ExchangeLog = &log
			s := serve.New(j.cfg)
			lines := handshake(rev)
			for _, c := range j.calls {
				lines = append(lines, withMeta(c, rev))
			}
			serveLines(t, s, lines)
			for _, l := range servetest.ReadLog(t, log.Bytes()) {
				var req struct{ Method string }
				_ = json.Unmarshal(l.Request, &req)
				if req.Method == "initialize" || req.Method == "server/discover" || len(l.Response) == 0 || string(l.Response) == "null" {
					continue
				}
				name := fmt.Sprintf("%s/%s: %s", rev, j.name, l.Request)
				rep := grade.Grade(grade.Input{Request: l.Request, Response: l.Response, Tools: tools, Spec: rev})
				for _, d := range []grade.Defect{grade.DefectLeak, grade.DefectRawException} {
					if rep.Has(d) {
						t.Errorf("%s: %s\n%s", name, d, l.Response)
					}
				}
				text := string(l.Response)
				for _, p := range paths {
					if strings.Contains(text, p) {
						t.Errorf("%s: the response names %s", name, p)
					}
				}
				for _, g := range goErrorText {
					if strings.Contains(text, g) {
						t.Errorf("%s: the response carries %q", name, g)
					}
				}
				checked++
			}
		}
	}
	if checked != want {
		t.Errorf("%d responses checked, want one for each of the %d calls", checked, want)
	}
}

// nextID numbers the requests of a test so replies pair with them.
var nextID = 100

func toolCall(tool string, args map[string]any) string {
	nextID++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nextID, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	return string(b)
}

// handshake opens a session of rev over stdio: initialize and its
// notification, or nothing under 2026-07-28.
func handshake(rev rules.Revision) []string {
	if rev.Stateless() {
		return nil
	}
	return []string{
		fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"leak-check","version":"1"}}}`, rev),
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
}

// withMeta adds 2026-07-28's _meta to a tools/call line.
func withMeta(line string, rev rules.Revision) string {
	if !rev.Stateless() {
		return line
	}
	var m map[string]any
	if json.Unmarshal([]byte(line), &m) != nil {
		return line
	}
	p, ok := m["params"].(map[string]any)
	if !ok {
		return line
	}
	p["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    string(rev),
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "leak-check", "version": "1"},
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// serveLines writes lines to a stdio session one at a time, each after
// the previous one's reply, and ends the session.
func serveLines(t *testing.T, s *serve.Server, lines []string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	br := bufio.NewWriter(inW)
	for _, l := range lines {
		_, _ = br.WriteString(l + "\n")
	}
	_ = br.Flush()
	_ = inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	s.Finish()
}
