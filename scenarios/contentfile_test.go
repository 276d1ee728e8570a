package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestClosestIDs(t *testing.T) {
	ids := []string{"empty-is-not-an-error", "three-false-rows", "what-changed-between-revisions"}
	if got := ClosestIDs("empty-not-error", ids, 2); len(got) != 2 || got[0] != "empty-is-not-an-error" {
		t.Errorf("ClosestIDs = %v", got)
	}
	if got := ClosestIDs("x", nil, 3); len(got) != 0 {
		t.Errorf("ClosestIDs of nothing = %v", got)
	}
}

// DecodeContentFile reads like the scenario loader: strict fields,
// hostile text refused when asked, problems at file:line:col.
func TestDecodeContentFile(t *testing.T) {
	fsys := fstest.MapFS{
		"ok.yaml":      {Data: []byte("name: a\n")},
		"extra.yaml":   {Data: []byte("name: a\ncolour: red\n")},
		"hostile.yaml": {Data: []byte("name: \"\\e[2J\"\n")},
		"notes.txt":    {Data: []byte("x")},
	}
	var v struct {
		Name string `yaml:"name"`
	}
	if _, ps := DecodeContentFile(fsys, "ok.yaml", "d/ok.yaml", true, &v); len(ps) != 0 || v.Name != "a" {
		t.Errorf("ok: %v %+v", ps, v)
	}
	if _, ps := DecodeContentFile(fsys, "extra.yaml", "d/extra.yaml", true, &v); len(ps) != 1 || !strings.HasPrefix(ps[0].String(), `d/extra.yaml:2:1: unknown field "colour"`) {
		t.Errorf("extra: %v", ps)
	}
	if _, ps := DecodeContentFile(fsys, "hostile.yaml", "d/hostile.yaml", true, &v); len(ps) != 1 || !strings.Contains(ps[0].Msg, "U+001B") {
		t.Errorf("hostile: %v", ps)
	}
	if _, ps := DecodeContentFile(fsys, "missing.yaml", "d/missing.yaml", true, &v); len(ps) != 1 || ps[0].Line != 0 {
		t.Errorf("missing: %v", ps)
	}
	files, err := ContentFiles(fsys)
	if err != nil || strings.Join(files, " ") != "extra.yaml hostile.yaml ok.yaml" {
		t.Errorf("ContentFiles = %v, %v", files, err)
	}
	p := ProblemAt("d/ok.yaml", []byte("a:\n  b: 1\n"), "$.a.b", "b is %d", 1)
	if p.String() != "d/ok.yaml:2:6: b is 1" {
		t.Errorf("ProblemAt = %s", p)
	}
}

// A content directory may hold only walkthroughs: the scenarios it adds
// are none, and nothing fails.
func TestContentDirWithOnlyWalkthroughs(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, WalkthroughsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := Default()
	if len(c.Scenarios) != len(base.Scenarios) {
		t.Errorf("%d scenarios, want the %d built-in ones", len(c.Scenarios), len(base.Scenarios))
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no *.yaml scenario files here") {
		t.Errorf("an empty content dir: %v", err)
	}
}

func TestOverlay(t *testing.T) {
	id := func(s string) string { return s[:1] }
	got := Overlay([]string{"a1", "b1", "c1"}, []string{"d2", "b2"}, id)
	if strings.Join(got, " ") != "a1 b2 c1 d2" {
		t.Errorf("Overlay = %v", got)
	}
}
