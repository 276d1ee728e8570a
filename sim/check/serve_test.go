package check

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
)

// serveTarget is the mock server as a real client meets it: `errorlab
// serve --style STYLE` over stdio when the built binary has the serve
// command (issue 10), else the same engine, sim/mockserver, over its own
// stdio loop in process, which is what `errorlab serve` wraps.
func serveTarget(t *testing.T, bin string, style mockserver.Style) Target {
	t.Helper()
	if bin != "" {
		return Target{Command: bin + " serve --style " + string(style), Name: "errorlab serve --style " + string(style)}
	}
	return mockTarget(t, style)
}

// errorlabBinary builds errorlab and returns its path, or "" (with the
// reason logged) when it has no serve command yet.
func errorlabBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "errorlab")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/errorlab/errorlab").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	help, _ := exec.Command(bin, "serve", "--help").Output()
	if !strings.Contains(string(help), "errorlab serve") {
		t.Log("this errorlab has no serve command yet: probing the mock server in process")
		return ""
	}
	return bin
}

// TestProbeErrorlabServe probes errorlab's own server in both styles: the
// good style draws no error or warning; a bad style draws the finding it
// stands for.
func TestProbeErrorlabServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds errorlab")
	}
	bin := errorlabBinary(t)
	for style, want := range map[mockserver.Style]grade.CheckID{mockserver.StyleGood: "", mockserver.StyleGeneric: grade.CheckGeneric} {
		t.Run(string(style), func(t *testing.T) {
			out, err := Live(context.Background(), serveTarget(t, bin, style), Options{Probe: true, Args: mockExamples()})
			if err != nil {
				t.Fatal(err)
			}
			var found []grade.CheckID
			for _, r := range out.Results {
				found = append(found, ids(r.Report, grade.SevWarning)...)
			}
			switch {
			case want == "" && len(found) > 0:
				t.Errorf("the good style draws %v", found)
			case want != "" && !slices.Contains(found, want):
				t.Errorf("the %s style: want %s among %v", style, want, found)
			}
		})
	}
}
