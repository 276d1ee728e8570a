package ui

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/assets"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/reference"
	"github.com/errorlab/errorlab/ui/styles"
)

// buildReference renders the embedded Reference page at width w with
// lipgloss's default renderer (the tests' Ascii profile) and returns it
// with the line and name of each section.
func buildReference(st *styles.Styles, w int) (string, []int, []string) {
	ref, err := scenarios.DefaultReference()
	if err != nil {
		panic(err)
	}
	return reference.Render(nil, st, ref, w)
}

// A catalogue loaded from --content DIR with a reference/ folder carries
// that Reference, and the Reference screen shows it.
func TestReferenceFromContentDir(t *testing.T) {
	m := fstest.MapFS{}
	entries, err := fs.ReadDir(assets.FS, scenarios.ReferenceDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := fs.ReadFile(assets.FS, scenarios.ReferenceDir+"/"+e.Name())
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = &fstest.MapFile{Data: data}
	}
	m["1-layers.md"] = &fstest.MapFile{Data: []byte("# §1 Where failures live\n\nA teacher's own first section.\n")}
	ref, err := scenarios.LoadReferenceFS(m, "mine/reference")
	if err != nil {
		t.Fatal(err)
	}
	cat := uitest.SubsetCatalog(t, uitest.TimeoutID)
	cat.Reference = ref
	v, _ := uitest.Drive(New(Options{Catalog: cat}),
		tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.Press("down"), uitest.Press("enter"))
	view := v.View()
	for _, want := range []string{"§1 Where failures live", "A teacher's own first section."} {
		if !strings.Contains(view, want) {
			t.Errorf("the Reference lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "who deals with it") {
		t.Errorf("the embedded §1 shows:\n%s", view)
	}
	v, _ = uitest.Drive(v, uitest.Press("tab"))
	if footer := uitest.LineWith(v.View(), "── "); !strings.Contains(footer, "── §1 Where failures live") {
		t.Errorf("after tab the footer is %q", footer)
	}
}
