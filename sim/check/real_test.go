package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/realtools"
	"github.com/errorlab/errorlab/sim/rules"
)

// findingsOf maps each probe (by what it sent) to the check ids found.
func findingsOf(out *Outcome) map[string][]grade.CheckID {
	m := map[string][]grade.CheckID{}
	for _, r := range out.Results {
		what := r.Source[strings.Index(r.Source, ": ")+2:]
		key := r.Label + " / " + what
		for _, f := range r.Report.Findings {
			m[key] = append(m[key], f.ID)
		}
		if m[key] == nil {
			m[key] = []grade.CheckID{}
		}
	}
	return m
}

func wantFindings(t *testing.T, got map[string][]grade.CheckID, key string, want ...grade.CheckID) {
	t.Helper()
	ids, ok := got[key]
	if !ok {
		t.Errorf("no probe %q among %v", key, keys(got))
		return
	}
	for _, w := range want {
		if !slices.Contains(ids, w) {
			t.Errorf("%s: want %s among %v", key, w, ids)
		}
	}
}

func keys(m map[string][]grade.CheckID) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func logOutcome(t *testing.T, out *Outcome) {
	t.Helper()
	t.Logf("%s, protocol %s, %d tools, skipped %v", out.Server, out.Protocol, len(out.Tools), out.Skipped)
	for _, r := range out.Results {
		var ids []string
		for _, f := range r.Report.Findings {
			ids = append(ids, string(f.Severity)+" "+string(f.ID))
		}
		t.Logf("  %s %s: %s %v", r.Label, r.Source, r.Report.Verdict, ids)
	}
}

// TestProbeServerFilesystem probes npm's reference filesystem server, as
// the issue found it: a missing file comes back as the raw Node.js
// exception with the absolute path, and an unknown tool as isError.
func TestProbeServerFilesystem(t *testing.T) {
	bin := realtools.Bin(t, realtools.ServerFilesystem, "mcp-server-filesystem")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("Delivery on Tuesday.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]any{
		// The missing file is named relative to the allowed folder, as a
		// model would; the answer shows the server's absolute path. (A path
		// the caller gave itself is not a leak.)
		"read_text_file":           []any{map[string]any{"path": "nope.txt"}, map[string]any{"path": filepath.Join(dir, "notes.txt")}},
		"list_allowed_directories": map[string]any{},
	})
	out, err := Live(context.Background(), Target{Command: bin + " " + dir}, Options{Probe: true, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	logOutcome(t, out)
	got := findingsOf(out)
	wantFindings(t, got, "tools/call read_text_file / example 1 from --args",
		grade.CheckRawException, grade.CheckLeakSystemError, grade.CheckLeakPath, grade.CheckNoCategory)
	wantFindings(t, got, "tools/call errorlab_probe_no_such_tool / unknown tool", grade.CheckUnknownToolResult)
	wantFindings(t, got, "tools/call read_text_file / path missing", grade.CheckNoCategory)
	for _, skipped := range []string{"write_file", "edit_file", "move_file"} {
		if !slices.ContainsFunc(out.Skipped, func(s string) bool { return strings.HasPrefix(s, skipped+":") }) {
			t.Errorf("destructive %s not skipped: %v", skipped, out.Skipped)
		}
	}
	// Asked for 2026-07-28, it settles on an older revision: its answers
	// are graded under that one, never for 2026-07-28's resultType.
	newer, err := Live(context.Background(), Target{Command: bin + " " + dir}, Options{Spec: rules.Rev20260728, Tool: "list_allowed_directories"})
	if err != nil {
		t.Fatal(err)
	}
	if newer.Protocol != string(rules.Rev20260728) {
		if newer.Spec == rules.Rev20260728 || newer.SpecNote == "" {
			t.Errorf("settled on %s, graded under %s, note %q", newer.Protocol, newer.Spec, newer.SpecNote)
		}
		for _, r := range newer.Results {
			if hasID(r.Report, grade.CheckResultType) {
				t.Errorf("graded for resultType under %s: %s", r.Spec, r.Response)
			}
		}
	}
	// Its successes carry the structuredContent their outputSchema asks for,
	// and a path in a success is data, not a leak.
	for key, ids := range got {
		for _, id := range ids {
			if id == grade.CheckMissingStructured || id == grade.CheckSuccessSchema || (strings.HasPrefix(key, "tools/call list_allowed_directories") && id == grade.CheckLeakPath) {
				t.Errorf("%s: %s", key, id)
			}
		}
	}
}

// TestProbeServerEverything probes npm's reference server with every MCP
// feature, over stdio. (Its HTTP mode listens on every interface, so the
// HTTP path is tried on the go-sdk server instead, bound to the loopback.)
func TestProbeServerEverything(t *testing.T) {
	bin := realtools.Bin(t, realtools.ServerEverything, "mcp-server-everything")
	args := json.RawMessage(`{"echo":{"message":"hi"},"get-sum":{"a":1,"b":2},"get-structured-content":{"location":"Chicago"}}`)
	check := func(t *testing.T, out *Outcome) {
		logOutcome(t, out)
		got := findingsOf(out)
		wantFindings(t, got, "tools/call errorlab_probe_no_such_tool / unknown tool", grade.CheckUnknownToolResult)
		wantFindings(t, got, "tools/call get-sum / a, b missing", grade.CheckNoCategory)
		wantFindings(t, got, "tools/call get-resource-links / count above the maximum 10", grade.CheckNoCategory)
		for _, clean := range []string{"tools/call echo / example 1 from --args", "tools/call get-sum / example 1 from --args", "tools/call get-structured-content / example 1 from --args", "errorlab/no-such-method / unknown method"} {
			if ids, ok := got[clean]; !ok || len(ids) > 0 {
				t.Errorf("%s: want clean, got %v (present %v)", clean, ids, ok)
			}
		}
		if !slices.ContainsFunc(out.Skipped, func(s string) bool { return strings.HasPrefix(s, "simulate-research-query:") }) {
			t.Errorf("the task-only tool was not skipped: %v", out.Skipped)
		}
	}
	out, err := Live(context.Background(), Target{Command: bin + " stdio"}, Options{Probe: true, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	check(t, out)
}

// plainErrorServer is a small server on the official go-sdk whose
// handlers return plain Go errors, as most Go MCP servers do: the typed
// handlers' errors become isError results holding the error's text, and
// the raw handler's error a JSON-RPC error.
func plainErrorServer(dir string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "plain-errors", Version: "1.0.0"}, nil)
	type noteIn struct {
		Name string `json:"name" jsonschema:"the note's file name, e.g. todo.txt"`
	}
	type noteOut struct {
		Text string `json:"text"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "read_note", Description: "Read a note"}, func(_ context.Context, _ *sdk.CallToolRequest, in noteIn) (*sdk.CallToolResult, noteOut, error) {
		b, err := os.ReadFile(filepath.Join(dir, in.Name))
		if err != nil {
			return nil, noteOut{}, err // "open /tmp/…/x.txt: no such file or directory"
		}
		return nil, noteOut{Text: string(b)}, nil
	})
	type orderIn struct {
		OrderID string `json:"order_id" jsonschema:"the order id, e.g. ORD-4471"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "get_order", Description: "Look up an order"}, func(_ context.Context, _ *sdk.CallToolRequest, in orderIn) (*sdk.CallToolResult, any, error) {
		return nil, nil, fmt.Errorf("order %s not found", in.OrderID)
	})
	s.AddTool(&sdk.Tool{Name: "refund", Description: "Refund an order", InputSchema: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return nil, errors.New("payments service unavailable")
		})
	return s
}

func checkPlainErrors(t *testing.T, out *Outcome) {
	t.Helper()
	logOutcome(t, out)
	got := findingsOf(out)
	wantFindings(t, got, "tools/call read_note / example 1 from --args", grade.CheckLeakPath, grade.CheckLeakSystemError, grade.CheckNoCategory)
	wantFindings(t, got, "tools/call get_order / example 1 from --args", grade.CheckNoCategory)
	// A raw handler's error goes out as a JSON-RPC error with code 0.
	wantFindings(t, got, "tools/call refund / example 1 from --args", grade.CheckExecAsProtocol)
	wantFindings(t, got, "tools/call read_note / name missing", grade.CheckNoCategory)
}

var plainArgs = json.RawMessage(`{"read_note":{"name":"missing.txt"},"get_order":{"order_id":"ORD-4471"},"refund":{"order_id":"ORD-4471"}}`)

// TestProbeGoSDKPlainErrors probes the go-sdk server over stdio pipes and
// over Streamable HTTP on the loopback.
func TestProbeGoSDKPlainErrors(t *testing.T) {
	dir := t.TempDir()
	t.Run("stdio", func(t *testing.T) {
		srvIn, cliOut := ioPipe()
		cliIn, srvOut := ioPipe()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() {
			done <- plainErrorServer(dir).Run(ctx, &sdk.IOTransport{Reader: srvIn, Writer: srvOut})
		}()
		out, err := Live(ctx, Target{In: cliIn, Out: cliOut, Name: "go-sdk plain errors"}, Options{Probe: true, Args: plainArgs})
		if err != nil {
			t.Fatal(err)
		}
		checkPlainErrors(t, out)
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the go-sdk server did not stop")
		}
	})
	t.Run("streamable HTTP", func(t *testing.T) {
		srv := plainErrorServer(dir)
		h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		hs := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
		go func() { _ = hs.Serve(l) }()
		defer hs.Close()
		out, err := Live(context.Background(), Target{URL: "http://" + l.Addr().String() + "/mcp"}, Options{Probe: true, Args: plainArgs})
		if err != nil {
			t.Fatal(err)
		}
		checkPlainErrors(t, out)
	})
}

// ioPipe is an io.Pipe as (reader, writer).
func ioPipe() (*io.PipeReader, *io.PipeWriter) { return io.Pipe() }
