package scenarios

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/errorlab/errorlab/assets"
	"github.com/errorlab/errorlab/quiz/seedcheck"
)

// The embedded Reference gives §1 to §9 once each, in order, with the
// titles the screens have always shown, and every file passes the checks
// an instructor's files get.
func TestEmbeddedReferenceLoads(t *testing.T) {
	r, err := DefaultReference()
	if err != nil {
		t.Fatalf("the embedded Reference does not load:\n%v", err)
	}
	want := []string{
		"§1 Two layers of failure", "§2 Four categories", "§3 Structured metadata",
		"§4 Empty result or access failure", "§5 Recovery across agents", "§6 Safe to show the model",
		"§7 One flag, several spellings", "§8 Recovery actions", "§9 Decision table",
	}
	if len(r.Sections) != len(want) {
		t.Fatalf("%d sections, want %d", len(r.Sections), len(want))
	}
	for i, s := range r.Sections {
		if s.Number != i+1 || s.Name() != want[i] {
			t.Errorf("section %d is %q (number %d), want %q", i+1, s.Name(), s.Number, want[i])
		}
		if !strings.HasPrefix(s.File, "embedded:reference/") {
			t.Errorf("section %d comes from %q", i+1, s.File)
		}
		if body := strings.TrimSpace(s.Markdown[strings.Index(s.Markdown, "\n")+1:]); len(body) < 100 {
			t.Errorf("section %d is nearly empty: %q", i+1, body)
		}
	}
	if s, ok := r.Section(3); !ok || s.Title != "Structured metadata" {
		t.Errorf("Section(3) = %v, %v", s, ok)
	}
	if _, ok := r.Section(10); ok {
		t.Error("Section(10) exists")
	}
}

// embeddedReference is the built-in files, to break one at a time.
func embeddedReference(t *testing.T) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	err := fs.WalkDir(assets.FS, ReferenceDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(assets.FS, p)
		out[filepath.Base(p)] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Each broken file is refused with a message at file:line:col (or at the
// folder, for a missing section), and nothing is loaded.
func TestReferenceProblems(t *testing.T) {
	big := "# §4 Empty result or access failure\n\n" + strings.Repeat("All work and no play. ", 3100) + "\n"
	deep := "# §5 Recovery across agents\n\n" + strings.Repeat("> ", 9) + "too deep\n"
	cases := []struct {
		name  string
		edit  func(fstest.MapFS)
		wants []string
	}{
		{"escape code", func(m fstest.MapFS) {
			m["3-metadata.md"] = file("# §3 Structured metadata\n\nFine.\nThen \x1b]52;c;aGk=\x07 a clipboard grab.\n")
		}, []string{"x/3-metadata.md:4:6: control character U+001B"}},
		{"bidi override", func(m fstest.MapFS) {
			m["6-safe-to-show.md"] = file("# §6 Safe to show the model\n\nreads \u202Ebackwards\n")
		}, []string{"x/6-safe-to-show.md:3:7: control character U+202E"}},
		{"invalid UTF-8", func(m fstest.MapFS) {
			m["7-spellings.md"] = file("# §7 One flag\n\nbad \xff byte\n")
		}, []string{"x/7-spellings.md:3:5: invalid UTF-8 byte 0xff"}},
		{"missing section", func(m fstest.MapFS) { delete(m, "5-across-agents.md") },
			[]string{"x: no file gives §5"}},
		{"duplicate section", func(m fstest.MapFS) {
			m["3b-more.md"] = file("# §3 More metadata\n\nSomething else.\n")
		}, []string{"x/3b-more.md:1:3: §3 is already given by x/3-metadata.md"}},
		{"no heading", func(m fstest.MapFS) {
			m["2-categories.md"] = file("Four categories, and no heading.\n")
		}, []string{"x/2-categories.md:1:1: a section opens with its heading"}},
		{"heading level 2", func(m fstest.MapFS) {
			m["2-categories.md"] = file("## §2 Four categories\n\ntext\n")
		}, []string{"x/2-categories.md:1:4: the section heading must be level 1"}},
		{"heading without a section", func(m fstest.MapFS) {
			m["2-categories.md"] = file("# Four categories\n\ntext\n")
		}, []string{`x/2-categories.md:1:3: the heading "Four categories" does not say which section`}},
		{"section out of range", func(m fstest.MapFS) {
			m["9-decision-table.md"] = file("# §10 Decision table\n\ntext\n")
		}, []string{"x/9-decision-table.md:1:3: §10 is not a section"}},
		{"empty file", func(m fstest.MapFS) { m["8-actions.md"] = file("\n\n") },
			[]string{"x/8-actions.md: the file is empty"}},
		{"heading alone", func(m fstest.MapFS) { m["8-actions.md"] = file("# §8 Recovery actions\n") },
			[]string{"x/8-actions.md:1:3: the section has a heading and nothing under it"}},
		{"raw HTML", func(m fstest.MapFS) {
			m["1-layers.md"] = file("# §1 Two layers\n\nsome <b>bold</b> text\n")
		}, []string{"x/1-layers.md:3:6: raw HTML is not shown in the terminal"}},
		{"HTML block", func(m fstest.MapFS) {
			m["1-layers.md"] = file("# §1 Two layers\n\n<div>\nhi\n</div>\n")
		}, []string{"x/1-layers.md:3:1: raw HTML is not shown in the terminal"}},
		{"image", func(m fstest.MapFS) {
			m["1-layers.md"] = file("# §1 Two layers\n\nsee ![the diagram](layers.png)\n")
		}, []string{"x/1-layers.md:3:5: images cannot be shown"}},
		{"second level-1 heading", func(m fstest.MapFS) {
			m["4-empty-or-failure.md"] = file("# §4 Empty\n\ntext\n\n# Another\n\nmore\n")
		}, []string{"x/4-empty-or-failure.md:5:3: only the section heading is level 1"}},
		{"table in a list", func(m fstest.MapFS) {
			m["4-empty-or-failure.md"] = file("# §4 Empty\n\n- item\n\n  | a | b |\n  | - | - |\n  | 1 | 2 |\n")
		}, []string{"x/4-empty-or-failure.md:5:5: a table inside a list or quote cannot be drawn"}},
		{"table too wide", func(m fstest.MapFS) {
			m["4-empty-or-failure.md"] = file("# §4 Empty\n\n| a | b | c | d | e | f | g |\n|-|-|-|-|-|-|-|\n| 1 | 2 | 3 | 4 | 5 | 6 | 7 |\n")
		}, []string{"x/4-empty-or-failure.md:3:3: the table has 7 columns: at most 6"}},
		{"nesting", func(m fstest.MapFS) { m["5-across-agents.md"] = file(deep) },
			[]string{"x/5-across-agents.md:3:", "lists and quotes nest 9 deep here: at most 8"}},
		{"too big", func(m fstest.MapFS) { m["4-empty-or-failure.md"] = file(big) },
			[]string{"x/4-empty-or-failure.md: file is", "limited to 65536"}},
		{"lone carriage return", func(m fstest.MapFS) {
			m["4-empty-or-failure.md"] = file("# §4 Empty\r\n\r\nold\rmac\r\n")
		}, []string{"x/4-empty-or-failure.md:3:4: a carriage return without a newline"}},
		{"not a regular file", func(m fstest.MapFS) {
			m["4-empty-or-failure.md"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
		}, []string{"x/4-empty-or-failure.md: not a regular file", "plain *.md files"}},
		{"no files", func(m fstest.MapFS) {
			for k := range m {
				delete(m, k)
			}
			m["notes.txt"] = file("not Markdown")
		}, []string{"x: no *.md Reference files here"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := embeddedReference(t)
			c.edit(m)
			r, err := LoadReferenceFS(m, "x")
			var le *LoadError
			if !errors.As(err, &le) || r != nil {
				t.Fatalf("want a LoadError and nothing loaded, got %v, %v", r, err)
			}
			for _, want := range c.wants {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("problems lack %q:\n%v", want, err)
				}
			}
		})
	}
}

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

// CRLF files, other files beside the Markdown and any file names load: the
// heading, not the name, says which section a file is.
func TestReferenceFileNamesAndLineEnds(t *testing.T) {
	m := embeddedReference(t)
	data := m["3-metadata.md"].Data
	delete(m, "3-metadata.md")
	m["zz-third.md"] = &fstest.MapFile{Data: []byte(strings.ReplaceAll(string(data), "\n", "\r\n"))}
	m["README.txt"] = file("notes for the teacher")
	r, err := LoadReferenceFS(m, "x")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := r.Section(3)
	if s.File != "x/zz-third.md" || strings.Contains(s.Markdown, "\r") || s.Title != "Structured metadata" {
		t.Errorf("section 3: file %q, title %q, CR kept %v", s.File, s.Title, strings.Contains(s.Markdown, "\r"))
	}
}

// A content directory's reference/ folder loads and validates from disk.
func TestLoadReferenceDir(t *testing.T) {
	dir := t.TempDir()
	if HasReference(dir) {
		t.Fatal("an empty dir has a Reference")
	}
	ref := filepath.Join(dir, ReferenceDir)
	if err := os.Mkdir(ref, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, f := range embeddedReference(t) {
		if err := os.WriteFile(filepath.Join(ref, name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !HasReference(dir) {
		t.Fatal("HasReference is false")
	}
	if _, err := LoadReferenceDir(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ref, "2-categories.md"), []byte("# §2 Four categories\n\nbell \a here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := ValidateReferenceDir(dir)
	if err != nil || len(ps) != 1 || ps[0].String() != filepath.Join(ref, "2-categories.md")+":3:6: control character U+0007: content text may not contain terminal control codes" {
		t.Fatalf("problems %v, err %v", ps, err)
	}
	file := filepath.Join(t.TempDir(), ReferenceDir)
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadReferenceDir(filepath.Dir(file)); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("a reference file: %v", err)
	}
}

// writeReference writes the embedded Reference into dir/reference, with
// edits (a file name to new text; "" deletes it).
func writeReference(t *testing.T, dir string, edits map[string]string) {
	t.Helper()
	ref := filepath.Join(dir, ReferenceDir)
	if err := os.MkdirAll(ref, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, f := range embeddedReference(t) {
		data := f.Data
		if e, ok := edits[name]; ok {
			if e == "" {
				continue
			}
			data = []byte(e)
		}
		if err := os.WriteFile(filepath.Join(ref, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// --content DIR with a reference/ folder replaces the Reference, with or
// without scenarios beside it; it is checked like the rest of DIR, its
// problems are listed with theirs, and any problem loads nothing.
func TestContentDirReference(t *testing.T) {
	base, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if base.Reference != nil {
		t.Fatal("the built-in catalogue carries a Reference: nil means the embedded one")
	}

	only := t.TempDir()
	writeReference(t, only, map[string]string{"8-actions.md": "# §8 What to do next\n\nA teacher's own words.\n"})
	c, err := Load(only)
	if err != nil {
		t.Fatalf("a reference-only content dir: %v", err)
	}
	if len(c.Scenarios) != len(base.Scenarios) || c.Reference == nil {
		t.Fatalf("%d scenarios (want the %d built in), reference %v", len(c.Scenarios), len(base.Scenarios), c.Reference)
	}
	if s, _ := c.Reference.Section(8); s.Title != "What to do next" || !strings.HasPrefix(s.File, filepath.Join(only, ReferenceDir)) {
		t.Errorf("§8 is %q from %s", s.Title, s.File)
	}
	if ps, n, err := ValidateDir(only); err != nil || len(ps) != 0 || n != 0 {
		t.Errorf("ValidateDir: %v, %d, %v", ps, n, err)
	}

	scen, err := fs.ReadFile(assets.FS, "scenarios/timeout-second-try.yaml")
	if err != nil {
		t.Fatal(err)
	}
	both := t.TempDir()
	if err := os.WriteFile(filepath.Join(both, "mine.yaml"), scen, 0o644); err != nil {
		t.Fatal(err)
	}
	writeReference(t, both, map[string]string{"5-across-agents.md": "", "2-categories.md": "# §2 Four\n\n<em>no</em>\n"})
	c, err = Load(both)
	var le *LoadError
	if !errors.As(err, &le) || c != nil {
		t.Fatalf("a broken reference must load nothing: %v, %v", c, err)
	}
	for _, want := range []string{
		filepath.Join(both, ReferenceDir, "2-categories.md") + ":3:1: raw HTML",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("problems lack %q:\n%v", want, err)
		}
	}
	ps, _, err := ValidateDir(both)
	if err != nil || len(ps) != 1 {
		t.Errorf("ValidateDir lists %v, %v", ps, err)
	}

	// A bad scenario and a missing section are both reported.
	if err := os.WriteFile(filepath.Join(both, "bad.yaml"), []byte("id: Bad Id\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeReference(t, both, map[string]string{"2-categories.md": "", "5-across-agents.md": ""})
	if err := os.Remove(filepath.Join(both, ReferenceDir, "2-categories.md")); err != nil {
		t.Fatal(err)
	}
	ps, _, err = ValidateDir(both)
	text := LoadError{ps}
	if err != nil || !strings.Contains(text.Error(), filepath.Join(both, "bad.yaml")+":") || !strings.Contains(text.Error(), "no file gives §2") {
		t.Errorf("ValidateDir: %v, %v", text.Error(), err)
	}

	none := t.TempDir()
	if _, err := Load(none); err == nil || !strings.Contains(err.Error(), "no *.yaml scenario files here") {
		t.Errorf("an empty content dir: %v", err)
	}
}

// The Reference is written anew: no run of eight words in a paragraph,
// a list item or a table cell is shared with the seed lessons
// (LESSON-RULES: quote no seed sentence in the product).
func TestReferenceQuotesNoSeed(t *testing.T) {
	seeds, err := seedcheck.ReadHashes(filepath.Join("..", "quiz", "seedcheck", "testdata", "seed-shingles.txt"))
	if err != nil || len(seeds) == 0 {
		t.Fatalf("seed fingerprints: %v", err)
	}
	r, err := DefaultReference()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Sections {
		// Each block of text on its own: a table's cells, and the
		// paragraphs and items between blank lines.
		var chunks []string
		for _, block := range strings.Split(s.Markdown, "\n\n") {
			if strings.HasPrefix(block, "|") {
				chunks = append(chunks, strings.Split(block, "|")...)
				continue
			}
			chunks = append(chunks, strings.Split(block, "\n- ")...)
		}
		for _, c := range chunks {
			if runs := seedcheck.Copied(c, seeds); len(runs) > 0 {
				t.Errorf("%s shares %d eight-word run(s) with a seed lesson, e.g. %q", s.File, len(runs), runs[0])
			}
		}
	}
}
