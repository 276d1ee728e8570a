package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/errorlab/errorlab/sim/realtools"
	"github.com/errorlab/errorlab/sim/serve"
)

// Real outside clients, installed by the tests themselves (sim/realtools):
// MCP Inspector's CLI and the official conformance suite, with the
// reference server-everything beside errorlab for comparison.

// inspectorToolIsError is the Inspector CLI's exit status for a tool
// that answered isError: true (it still prints the result).
const inspectorToolIsError = 5

// inspector runs `mcp-inspector --cli target... args...` and returns its
// stdout parsed as JSON. Its catalog goes to a temporary file, not home.
func inspector(t *testing.T, target []string, args ...string) map[string]any {
	t.Helper()
	bin := realtools.Bin(t, realtools.Inspector, "mcp-inspector")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(append([]string{"--cli"}, target...), args...)...)
	cmd.Env = append(os.Environ(), "MCP_CATALOG_PATH="+filepath.Join(t.TempDir(), "catalog.json"))
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == inspectorToolIsError) {
		t.Fatalf("mcp-inspector --cli %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, stderr.String())
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("mcp-inspector printed no JSON object: %v\n%s", err, out)
	}
	return v
}

// TestInspectorCLI: MCP Inspector's CLI lists the six tools (each with
// failure_mode) and makes a failing tools/call, over stdio (it launches
// errorlab serve) and over HTTP; the failure arrives as an isError result
// with its category, and the server's report card names the Inspector.
func TestInspectorCLI(t *testing.T) {
	bin := binary(t)
	check := func(t *testing.T, target []string) {
		list := inspector(t, target, "--method", "tools/list")
		tools, _ := list["tools"].([]any)
		if len(tools) != 6 {
			t.Fatalf("tools/list: %d tools: %v", len(tools), list)
		}
		for _, tl := range tools {
			schema, _ := tl.(map[string]any)["inputSchema"].(map[string]any)
			props, _ := schema["properties"].(map[string]any)
			if _, ok := props["failure_mode"]; !ok {
				t.Errorf("%v declares no failure_mode", tl.(map[string]any)["name"])
			}
		}
		res := inspector(t, target, "--method", "tools/call", "--tool-name", "process_refund",
			"--tool-arg", "order_id=ORD-4471", "amount=189", "confirmedByUser=true")
		sc, _ := res["structuredContent"].(map[string]any)
		if res["isError"] != true || sc["errorCategory"] != "business" || sc["code"] != "REFUND_WINDOW_EXCEEDED" {
			t.Errorf("the failing tools/call came back as %v", res)
		}
	}
	t.Run("stdio", func(t *testing.T) {
		report := filepath.Join(t.TempDir(), "card.json")
		check(t, []string{bin, "--state-dir", t.TempDir(), "serve", "--report", report})
		b, err := os.ReadFile(report)
		if err != nil {
			t.Fatal(err)
		}
		var r serve.Report
		if err := json.Unmarshal(b, &r); err != nil || len(r.Sessions) != 1 || !strings.HasPrefix(r.Sessions[0].Client, "inspector") || len(r.Sessions[0].Entries) != 1 {
			t.Errorf("the report card of the Inspector's tools/call session (%v):\n%s", err, b)
		}
	})
	t.Run("http", func(t *testing.T) {
		report := filepath.Join(t.TempDir(), "card.md")
		url, cmd, _ := httpBinary(t, "--report", report)
		check(t, []string{url})
		stopWithin(t, cmd, syscall.SIGTERM, time.Second)
		b, _ := os.ReadFile(report)
		if !strings.Contains(string(b), "## inspector") || !strings.Contains(string(b), "REFUND_WINDOW_EXCEEDED") {
			t.Errorf("the Markdown report does not show the Inspector's failure:\n%s", b)
		}
	})
}

// conformanceScenarios are the server scenarios of the conformance suite
// errorlab serve must pass. logging-set-level is not among them: the mock
// server declares no logging capability (it answers logging/setLevel with
// -32601).
var conformanceScenarios = []string{"server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "dns-rebinding-protection"}

// check is one conformance check result (checks.json).
type check struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

// runConformance runs one scenario of the suite against url with Node 22
// and returns the checks it reported.
func runConformance(t *testing.T, node, suite, url, scenario string) ([]check, string) {
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", url, "--scenario", scenario, "-o", out)
	var text syncBuffer
	cmd.Stderr = &text
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err.Error()
	}
	if err := cmd.Start(); err != nil {
		return nil, err.Error()
	}
	// The suite prints its summary ("Passed: 1/1, ...") once checks.json
	// is written, then keeps its connections open for several seconds
	// before it exits: stop it at the summary. (A failed check exits 1;
	// checks.json says which.)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		fmt.Fprintln(&text, sc.Text())
		if strings.HasPrefix(strings.TrimSpace(sc.Text()), "Passed:") {
			_ = cmd.Process.Kill()
			break
		}
	}
	_ = cmd.Wait()
	files, _ := filepath.Glob(filepath.Join(out, "*", "checks.json"))
	if len(files) != 1 {
		return nil, fmt.Sprintf("no checks.json (%d found); output:\n%s", len(files), text.String())
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		return nil, err.Error()
	}
	var cs []check
	if err := json.Unmarshal(b, &cs); err != nil {
		return nil, err.Error()
	}
	return cs, ""
}

// verdict sums up a scenario's checks for the table: "✓ 2/2",
// "✗ 1/2: id (message)".
func verdict(cs []check, problem string) (string, bool) {
	if problem != "" {
		return "✗ " + strings.SplitN(problem, "\n", 2)[0], false
	}
	pass, total, info := 0, 0, 0
	var failed []string
	for _, c := range cs {
		switch c.Status {
		case "SUCCESS":
			pass++
			total++
		case "INFO":
			info++
		default:
			total++
			failed = append(failed, fmt.Sprintf("%s %s (%s)", c.ID, strings.ToLower(c.Status), c.ErrorMessage))
		}
	}
	s := fmt.Sprintf("%d/%d", pass, total)
	if info > 0 {
		s += fmt.Sprintf(" (+%d info)", info)
	}
	if len(failed) > 0 {
		return "✗ " + s + ": " + strings.Join(failed, "; "), false
	}
	return "✓ " + s, total > 0
}

// TestConformance runs the official MCP conformance suite's server
// scenarios against `errorlab serve --http`, and the same scenarios
// against server-everything (streamableHttp) for comparison. errorlab must
// pass every check; the table shows both (`go test -v -run
// TestConformance .`, or .ci/conformance).
func TestConformance(t *testing.T) {
	node := realtools.Node22(t)
	suite := realtools.Script(t, realtools.Conformance, "conformance")
	errorlabURL, _, _ := httpBinary(t)
	everythingURL, _ := realtools.ServerEverythingHTTP(t, node)
	servers := []struct{ name, url string }{{"errorlab serve", errorlabURL}, {"server-everything", everythingURL}}

	type cell struct {
		text string
		ok   bool
	}
	results := make([][2]cell, len(conformanceScenarios))
	var wg sync.WaitGroup
	limit := make(chan struct{}, 4)
	for i, sc := range conformanceScenarios {
		for j, srv := range servers {
			wg.Go(func() {
				limit <- struct{}{}
				defer func() { <-limit }()
				cs, problem := runConformance(t, node, suite, srv.url, sc)
				text, ok := verdict(cs, problem)
				results[i][j] = cell{text, ok}
			})
		}
	}
	wg.Wait()

	var b strings.Builder
	fmt.Fprintf(&b, "conformance suite %s, Node 22 (%s), server scenarios:\n", realtools.Conformance, realtools.NodeRuntime22)
	fmt.Fprintf(&b, "%-29s %-22s %s\n", "scenario", "errorlab serve --http", "server-everything "+realtools.ServerEverything.Version+" (streamableHttp)")
	for i, sc := range conformanceScenarios {
		fmt.Fprintf(&b, "%-29s %-22s %s\n", sc, results[i][0].text, results[i][1].text)
		if !results[i][0].ok {
			t.Errorf("errorlab serve fails %s: %s", sc, results[i][0].text)
		}
	}
	t.Logf("\n%s", b.String())
	// .ci/run prints the table after `go test ./...` (.ci/conformance).
	if path := os.Getenv("ERRORLAB_CONFORMANCE_TABLE"); path != "" {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Errorf("writing the table for .ci/run: %v", err)
		}
	}
}
