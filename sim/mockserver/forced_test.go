package mockserver_test

import (
	"encoding/json"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// forcedPayload is the part of a forced failure's structuredContent the
// texts are judged on.
type forcedPayload struct {
	ErrorCategory    string         `json:"errorCategory"`
	Description      string         `json:"description"`
	CustomerMessage  string         `json:"customerMessage"`
	ExampleArguments map[string]any `json:"exampleArguments"`
}

func forced(t *testing.T, call wire.Call) (forcedPayload, []byte) {
	t.Helper()
	ex := exchange(t, mockserver.Options{FailureModes: true}, rules.Rev20251125, call)
	var p forcedPayload
	if err := json.Unmarshal(resultMembers(ex.Response)["structuredContent"], &p); err != nil {
		t.Fatalf("%s %v: no structuredContent: %v\n%s", call.Tool, call.Arguments, err, ex.Response)
	}
	return p, ex.Response
}

// TestForcedValidationSaysSo: a validation failure forced by failure_mode
// on well-formed arguments says it is forced for practice (else "Received
// 'C-1001'" contradicts "must be a customer id"), and its exampleArguments
// are not the very arguments it refused.
func TestForcedValidationSaysSo(t *testing.T) {
	calls := []wire.Call{{Tool: "customer_lookup", Arguments: map[string]any{"identifier": "C-1001", "failure_mode": "validation"}}}
	for _, tool := range mockserver.ToolNames() {
		calls = append(calls, modeCall(tool, "validation"))
	}
	schemas := inputSchemas(t)
	for _, call := range calls {
		p, resp := forced(t, call)
		if p.ErrorCategory != string(rules.Validation) {
			t.Errorf("%s: category %q\n%s", call.Tool, p.ErrorCategory, resp)
			continue
		}
		if !strings.Contains(p.Description, "failure_mode validation") || !strings.Contains(p.Description, "for practice") {
			t.Errorf("%s %v: the text does not say the failure is forced for practice: %s", call.Tool, call.Arguments, p.Description)
		}
		input := maps.Clone(call.Arguments)
		delete(input, "failure_mode")
		got, _ := json.Marshal(p.ExampleArguments)
		var want map[string]any
		raw, _ := json.Marshal(input)
		_ = json.Unmarshal(raw, &want)
		var ex map[string]any
		_ = json.Unmarshal(got, &ex)
		if len(ex) == 0 || reflect.DeepEqual(ex, want) {
			t.Errorf("%s %v: exampleArguments %s are the refused input itself", call.Tool, call.Arguments, got)
		}
		if err := validate(schemas[call.Tool], got); err != nil {
			t.Errorf("%s: exampleArguments %s break the inputSchema: %v", call.Tool, got, err)
		}
	}
}

// TestForcedBusinessOnReadOnlyTools: a business refusal forced on a tool
// that only reads never speaks of changing or acting on anything: the
// call changed nothing and asked to change nothing.
func TestForcedBusinessOnReadOnlyTools(t *testing.T) {
	checked := 0
	for _, tool := range mockserver.ToolNames() {
		if !mockserver.ReadOnly(tool) {
			continue
		}
		checked++
		p, resp := forced(t, modeCall(tool, "business"))
		if p.ErrorCategory != string(rules.Business) || p.CustomerMessage == "" {
			t.Errorf("%s: not a business refusal with a customerMessage:\n%s", tool, resp)
		}
		text := strings.ToLower(p.Description + " " + p.CustomerMessage)
		for _, word := range []string{"change", "act on", "modif", "update", "amend"} {
			if strings.Contains(text, word) {
				t.Errorf("%s (read-only) speaks of %q: %s", tool, word, p.Description+" / "+p.CustomerMessage)
			}
		}
	}
	if checked < 3 {
		t.Errorf("only %d read-only tools", checked)
	}
}

// TestForcedFailuresDoNotLeak: every failure_mode of every tool, served
// in the good style under every revision, gives a result sim/grade finds
// no leak or raw exception in: no stack trace, Go error string or path.
func TestForcedFailuresDoNotLeak(t *testing.T) {
	var tools []grade.Tool
	for _, tl := range mockserver.New(mockserver.Options{FailureModes: true}).Tools() {
		tools = append(tools, grade.Tool{Name: tl.Name, InputSchema: tl.RawInputSchema, OutputSchema: tl.RawOutputSchema})
	}
	n := 0
	for _, rev := range rules.Revisions {
		for _, tool := range mockserver.ToolNames() {
			for _, mode := range mockserver.FailureModeNames(tool) {
				ex := exchange(t, mockserver.Options{FailureModes: true}, rev, modeCall(tool, mode))
				n++
				if _, has := resultMembers(ex.Response)["content"]; !has {
					t.Errorf("%s %s %s: no result\n%s", rev, tool, mode, ex.Response)
					continue
				}
				rep := grade.Grade(grade.Input{Request: ex.Request, Response: ex.Response, Tools: tools, Spec: rev})
				for _, d := range []grade.Defect{grade.DefectLeak, grade.DefectRawException} {
					if rep.Has(d) {
						t.Errorf("%s %s %s: %s\n%s", rev, tool, mode, d, ex.Response)
					}
				}
				for _, s := range []string{"Traceback", "goroutine ", "panic:", ".go:", "runtime error", "/srv/", "/home/", ".internal", "Go struct", "json: "} {
					if strings.Contains(string(ex.Response), s) {
						t.Errorf("%s %s %s: the result shows %q\n%s", rev, tool, mode, s, ex.Response)
					}
				}
			}
		}
	}
	if n < 3*6*8 {
		t.Errorf("only %d calls checked", n)
	}
}
