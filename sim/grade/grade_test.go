package grade

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/sim/rules"
)

// fixture is the shape of ../shared/fixtures/public-cases (copied into
// testdata): responses rebuilt from public bug reports with the verdict a
// correct grader gives.
type fixture struct {
	Case     string          `json:"case"`
	Summary  string          `json:"summary"`
	Spec     string          `json:"spec"`
	Tools    []Tool          `json:"tools"`
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`
	Expect   string          `json:"expect"`
}

func TestPublicCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/public-cases/*.json")
	if len(files) < 10 {
		t.Fatalf("found %d fixtures", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fx fixture
		if err := json.Unmarshal(b, &fx); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		t.Run(fx.Case, func(t *testing.T) {
			rep := Grade(Input{Request: fx.Request, Response: fx.Response, Tools: fx.Tools, Spec: rules.Revision(fx.Spec)})
			ok := false
			switch fx.Expect {
			case "clean":
				ok = rep.Verdict == Clean
			case "warn":
				ok = rep.Verdict == Warn
			case "fail":
				ok = rep.Verdict == Fail
			case "finding":
				ok = rep.Verdict != Clean
			}
			if !ok {
				var lines []string
				for _, f := range rep.Findings {
					lines = append(lines, string(f.Severity)+" "+string(f.Defect)+": "+f.Message)
				}
				t.Errorf("%s\nwant %s, got %s:\n  %s", fx.Summary, fx.Expect, rep.Verdict, strings.Join(lines, "\n  "))
			}
		})
	}
}
