package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui"
)

const replayLog = "../pages/serve/testdata/afternoon.jsonl"

// TestLabReplay: `errorlab lab --replay FILE` reads the log before taking
// the terminal and opens the watch screen on it; a bad log is refused
// (exit 2) with FILE:LINE and what is wrong, and the TUI never starts.
func TestLabReplay(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	good, err := os.ReadFile(replayLog)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(good), "\n")
	if err := os.WriteFile(bad, []byte(first+"\n"+`{"time":"2026-11-02T09:00:00Z","session":"s","request":{}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(terminal bool, args ...string) (int, string, *ui.Options) {
		var out, errOut bytes.Buffer
		var got *ui.Options
		env := Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(""), IsTerminal: func() bool { return terminal },
			RunTUI: func(o ui.Options) error { got = &o; return nil }}
		code := Run(env, append([]string{"--state-dir", t.TempDir()}, args...))
		return code, errOut.String(), got
	}

	code, _, opts := run(true, "lab", "--replay", replayLog)
	if code != ExitOK || opts == nil || opts.Serve == nil {
		t.Fatalf("exit %d, options %+v", code, opts)
	}
	if srv := opts.Serve.Server; srv.Replayed() != replayLog || len(srv.Report().Sessions) != 2 {
		t.Errorf("the TUI was not given the replay of %s: %q, %d sessions", replayLog, srv.Replayed(), len(srv.Report().Sessions))
	}

	for _, tc := range []struct {
		name     string
		terminal bool
		args     []string
		want     string
	}{
		{"a malformed line", true, []string{"lab", "--replay", bad}, bad + `:2: no "response" (null for a notification)`},
		{"a missing file", true, []string{"lab", "--replay", "no-such.jsonl"}, "--replay: cannot read no-such.jsonl: no such file or directory"},
		{"with --scenario", true, []string{"lab", "--replay", replayLog, "--scenario", "timeout-second-try"}, "--replay and --scenario both say where the lab opens"},
		{"not a terminal", false, []string{"lab", "--replay", replayLog}, "`errorlab check FILE` reads the same log in scripts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr, opts := run(tc.terminal, tc.args...)
			if code != ExitUsage || opts != nil || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d (want %d), TUI started %v, stderr lacks %q:\n%s", code, ExitUsage, opts != nil, tc.want, stderr)
			}
		})
	}
}
