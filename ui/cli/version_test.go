package cli

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/errorlab/errorlab/ui"
)

// run executes the command line in process with the TUI replaced, and
// returns the exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errOut, IsTerminal: func() bool { return false },
		RunTUI: func(ui.Options) error { t.Fatal("the TUI started"); return nil }}
	code := Run(env, append([]string{"--state-dir", t.TempDir()}, args...))
	return code, out.String(), errOut.String()
}

func TestVersion(t *testing.T) {
	want := regexp.MustCompile(`^errorlab version (devel|v\d+\.\d+\.\d+\S*) \(go\d+\.\d+\S*\)\n$`)
	for _, flag := range []string{"--version", "-v"} {
		code, out, errOut := run(t, flag)
		if code != ExitOK || errOut != "" || !want.MatchString(out) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", flag, code, out, errOut)
		}
	}
	// --version belongs to the root command alone.
	if code, _, errOut := run(t, "scenarios", "--version"); code != ExitUsage {
		t.Errorf("scenarios --version: exit %d, %s", code, errOut)
	}
	code, out, _ := run(t, "--help")
	if code != ExitOK || !regexp.MustCompile(`(?m)^  -v, --version +version for errorlab$`).MatchString(out) {
		t.Errorf("--help does not list --version:\n%s", out)
	}
}
