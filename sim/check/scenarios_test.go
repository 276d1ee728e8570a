package check_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/check"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// TestScenariosThroughCheck writes every scenario's exchange, in every
// style and revision, as `errorlab scenarios show --json` prints it, adds
// the mock server's tools, and reads the lot as one JSON-lines file the
// way `errorlab check` does. The good style draws no error or warning;
// each bad style draws the finding it stands for. (An access failure
// passed off as an empty success that claims the query ran reads like a
// real empty result in its bytes; the record's "expected", the truth
// `scenarios show --json` writes, is what shows it.)
func TestScenariosThroughCheck(t *testing.T) {
	c, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	var tools []grade.Tool
	for _, tl := range mockserver.New(mockserver.Options{}).Tools() {
		tools = append(tools, grade.Tool{Name: tl.Name, InputSchema: tl.RawInputSchema, OutputSchema: tl.RawOutputSchema})
	}
	want := map[mockserver.Style]grade.CheckID{
		mockserver.StyleGeneric:        grade.CheckGeneric,
		mockserver.StyleRawException:   grade.CheckRawException,
		mockserver.StyleErrorAsSuccess: grade.CheckErrorAsSuccess,
		mockserver.StyleProtocolError:  grade.CheckGoError,
		mockserver.StyleStructuredOnly: grade.CheckNoTextBlock,
		mockserver.StyleEmptySuccess:   grade.CheckHiddenFailure,
	}
	type key struct {
		id    string
		rev   rules.Revision
		style mockserver.Style
	}
	var file bytes.Buffer
	var keys []key
	for _, s := range c.Scenarios {
		for _, rev := range rules.Revisions {
			if s.SituationAt(rev).Layer == rules.LayerProtocol {
				continue // no tool runs, so no style changes the answer
			}
			for _, style := range s.Styles {
				ex, err := s.Exchange(context.Background(), style, rev)
				if err != nil {
					t.Fatal(err)
				}
				line := struct {
					scenarios.ExchangeRecord
					Tools []grade.Tool `json:"tools"`
				}{s.Record(ex, style, 1), tools}
				b, err := json.Marshal(line)
				if err != nil {
					t.Fatal(err)
				}
				file.Write(append(b, '\n'))
				keys = append(keys, key{s.ID, rev, style})
			}
		}
	}
	items, err := check.Parse(file.Bytes(), "scenarios.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(keys) || len(items) < 50 {
		t.Fatalf("%d items for %d exchanges", len(items), len(keys))
	}
	for i, r := range check.GradeAll(items) {
		k := keys[i]
		if r.Spec != k.rev {
			t.Fatalf("%v read under %s", k, r.Spec)
		}
		var ids []grade.CheckID
		for _, f := range r.Report.Findings {
			if f.Severity != grade.SevNote {
				ids = append(ids, f.ID)
			}
		}
		switch {
		case k.style == mockserver.StyleGood && len(ids) > 0:
			t.Errorf("%s/%s/good: %v", k.id, k.rev, r.Report.Findings)
		case k.style != mockserver.StyleGood && !slices.Contains(ids, want[k.style]):
			t.Errorf("%s/%s/%s: want %s among %v", k.id, k.rev, k.style, want[k.style], ids)
		}
	}
}
