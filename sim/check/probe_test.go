package check

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// mockTarget serves a fresh mock server over stdio pipes, the transport
// `errorlab serve` uses; the test stops it.
func mockTarget(t *testing.T, style mockserver.Style) Target {
	t.Helper()
	srv := mockserver.New(mockserver.Options{Style: style})
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		_ = srv.ServeStdio(ctx, c2sR, s2cW)
		_ = s2cW.Close()
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		_ = c2sW.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the mock server did not stop")
		}
	})
	return Target{In: s2cR, Out: c2sW, Name: "mock " + string(style)}
}

// mockExamples are a valid call of every mock tool, as --args gives them.
func mockExamples() json.RawMessage {
	ex := map[string]any{}
	for _, name := range mockserver.ToolNames() {
		ex[name] = mockserver.ExampleArguments(name)
	}
	b, _ := json.Marshal(ex)
	return b
}

func ids(rep grade.Report, minSev grade.Severity) []grade.CheckID {
	var out []grade.CheckID
	for _, f := range rep.Findings {
		if f.Severity == grade.SevError || minSev == grade.SevWarning && f.Severity == grade.SevWarning {
			out = append(out, f.ID)
		}
	}
	return out
}

// TestProbeMockServerGood: the mock server's good style, probed under
// every revision, draws no error and no warning, and the probe made every
// kind of call it promises.
func TestProbeMockServerGood(t *testing.T) {
	for _, rev := range rules.Revisions {
		t.Run(string(rev), func(t *testing.T) {
			out, err := Live(context.Background(), mockTarget(t, mockserver.StyleGood), Options{Spec: rev, Probe: true, Args: mockExamples()})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Tools) != len(mockserver.ToolNames()) {
				t.Fatalf("%d tools listed", len(out.Tools))
			}
			kinds := map[string]bool{}
			for _, r := range out.Results {
				what := r.Source[strings.Index(r.Source, ": ")+2:]
				switch {
				case strings.HasSuffix(what, "missing"):
					kinds["missing"] = true
				case strings.Contains(what, " for a "):
					kinds["type"] = true
				case strings.Contains(what, "imum") || strings.Contains(what, "Length"):
					kinds["range"] = true
				case strings.HasPrefix(what, "example"):
					kinds["example"] = true
				default:
					kinds[what] = true
				}
				if bad := ids(r.Report, grade.SevWarning); len(bad) > 0 {
					t.Errorf("%s (%s): %v\nrequest  %s\nresponse %s", r.Source, r.Label, r.Report.Findings, r.Request, r.Response)
				}
			}
			for _, k := range []string{"unknown tool", "unknown method", "missing", "type", "example"} {
				if !kinds[k] {
					t.Errorf("no %s probe among %v", k, kinds)
				}
			}
			if !slices.ContainsFunc(out.Skipped, func(s string) bool { return strings.HasPrefix(s, "process_refund:") }) {
				t.Errorf("the destructive process_refund was not skipped: %v", out.Skipped)
			}
			for _, r := range out.Results {
				if strings.Contains(string(r.Request), `"process_refund"`) {
					t.Errorf("process_refund was called: %s", r.Request)
				}
			}
		})
	}
}

// TestProbeMockServerBadStyles: each bad style is caught by the finding
// it stands for.
func TestProbeMockServerBadStyles(t *testing.T) {
	want := map[mockserver.Style]grade.CheckID{
		mockserver.StyleGeneric:        grade.CheckGeneric,
		mockserver.StyleRawException:   grade.CheckRawException,
		mockserver.StyleErrorAsSuccess: grade.CheckErrorAsSuccess,
		mockserver.StyleProtocolError:  grade.CheckGoError,
		mockserver.StyleStructuredOnly: grade.CheckNoTextBlock,
	}
	for style, id := range want {
		t.Run(string(style), func(t *testing.T) {
			out, err := Live(context.Background(), mockTarget(t, style), Options{Probe: true})
			if err != nil {
				t.Fatal(err)
			}
			var found []grade.CheckID
			for _, r := range out.Results {
				found = append(found, ids(r.Report, grade.SevWarning)...)
			}
			if !slices.Contains(found, id) {
				t.Errorf("the %s style: want %s among %v", style, id, found)
			}
		})
	}
}

func TestProbeDestructiveAllowed(t *testing.T) {
	out, err := Live(context.Background(), mockTarget(t, mockserver.StyleGood), Options{Probe: true, Tool: "process_refund", AllowDestructive: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Skipped) != 0 || len(out.Results) < 3 {
		t.Fatalf("skipped %v, %d results", out.Skipped, len(out.Results))
	}
}

func TestOneCall(t *testing.T) {
	out, err := Live(context.Background(), mockTarget(t, mockserver.StyleGood), Options{Tool: "lookup_order", Args: json.RawMessage(`{"order_id":"ORD-4471x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 1 {
		t.Fatalf("%d results", len(out.Results))
	}
	r := out.Results[0]
	if cl := r.Report.Classification; cl == nil || cl.ErrorCategory != rules.Validation || r.Report.Verdict != grade.Clean {
		t.Errorf("a malformed order id: %+v %+v\n%s", r.Report.Classification, r.Report.Findings, r.Response)
	}
}
