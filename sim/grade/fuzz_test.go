package grade

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/errorlab/errorlab/sim/rules"
)

// FuzzGrade grades any request, response and tools: it must not panic,
// every finding must come from the catalogue with its fix and path, and
// the verdict must agree with the findings. The seeds are the public
// fixtures and the check cases; the corpus is in testdata/fuzz.
func FuzzGrade(f *testing.F) {
	files, _ := filepath.Glob("testdata/public-cases/*.json")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var fx struct {
			Spec     string
			Tools    json.RawMessage
			Request  json.RawMessage
			Response json.RawMessage
		}
		if err := json.Unmarshal(b, &fx); err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(fx.Request), []byte(fx.Response), []byte(fx.Tools), uint8(1))
	}
	for _, c := range checkCases {
		tools, _ := json.Marshal(c.in.Tools)
		f.Add(c.in.Request, c.in.Response, tools, uint8(2))
	}
	f.Fuzz(func(t *testing.T, request, response, toolsJSON []byte, rev uint8) {
		var tools []Tool
		_ = json.Unmarshal(toolsJSON, &tools)
		in := Input{Request: request, Response: response, Tools: tools, Spec: rules.Revisions[int(rev)%len(rules.Revisions)]}
		// The high bits of rev give what only a lab or a live probe knows:
		// the truth, a wait with no answer, lines on stdout.
		if rev&0x10 != 0 {
			in.Truth = &rules.Situation{Layer: rules.LayerExecution, Category: rules.Transient}
		}
		if rev&0x20 != 0 {
			in.Waited = time.Second
		}
		if rev&0x40 != 0 {
			in.Stray = bytes.Split(request, []byte("\n"))
		}
		rep := Grade(in)
		want := Clean
		for _, fd := range rep.Findings {
			c, ok := LookupCheck(fd.ID)
			if !ok || c.Severity != fd.Severity || fd.Fix == "" || fd.Path == "" || fd.Message == "" {
				t.Fatalf("finding off the catalogue: %+v", fd)
			}
			switch {
			case fd.Severity == SevError:
				want = Fail
			case fd.Severity == SevWarning && want == Clean:
				want = Warn
			}
		}
		if rep.Verdict != want {
			t.Fatalf("verdict %s, findings say %s", rep.Verdict, want)
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Fatalf("the report does not marshal: %v", err)
		}
	})
}
