package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"encoding/json"

	"github.com/errorlab/errorlab/sim/realtools"
)

func TestZZDebugFS(t *testing.T) {
	bin := realtools.Bin(t, realtools.ServerFilesystem, "mcp-server-filesystem")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello\n"), 0o644)
	args, _ := json.Marshal(map[string]any{"read_text_file": []any{map[string]any{"path": filepath.Join(dir, "nope.txt")}, map[string]any{"path": filepath.Join(dir, "notes.txt")}}, "list_allowed_directories": map[string]any{}, "search_files": map[string]any{"path": dir, "pattern": "zzz"}})
	out, err := Live(context.Background(), Target{Command: bin + " " + dir}, Options{Probe: true, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	dump(out)
}

func TestZZDebugEverything(t *testing.T) {
	bin := realtools.Bin(t, realtools.ServerEverything, "mcp-server-everything")
	out, err := Live(context.Background(), Target{Command: bin + " stdio"}, Options{Probe: true, Args: json.RawMessage(`{"echo":{"message":"hi"},"get-structured-content":{"location":"Chicago"},"get-sum":{"a":1,"b":2}}`)})
	if err != nil {
		t.Fatal(err)
	}
	dump(out)
}

func dump(out *Outcome) {
	fmt.Println(out.Protocol, out.Server, out.Skipped)
	for _, r := range out.Results {
		fmt.Printf("%s | %s | %s\n  > %.200s\n  < %.300s\n", r.Source, r.Label, r.Report.Verdict, r.Request, r.Response)
		for _, f := range r.Report.Findings {
			fmt.Printf("    %s %s %s: %s\n", f.Severity, f.ID, f.Path, f.Message)
		}
	}
}
