package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/errorlab/errorlab/assets"
)

// The rules Reference is Markdown: one file per LESSON-RULES section, §1
// to §9, each opening with a level-1 heading that says which ("# §3
// Structured metadata"). The files are embedded from assets/reference; a
// --content DIR with a reference/ folder replaces them all. Either way
// they are checked the way scenario files are: hostile text is refused at
// file:line:col, and if anything is wrong nothing is loaded.

// ReferenceDir is the folder of a content directory that holds the
// Reference's Markdown files.
const ReferenceDir = "reference"

// MaxReferenceFileBytes caps one Reference file. A section is a few
// kilobytes of prose and tables.
const MaxReferenceFileBytes = 64 << 10

// ReferenceSections is the number of sections, §1 to §9.
const ReferenceSections = 9

// maxTableColumns bounds a table: the Reference is read at 60 columns.
const maxTableColumns = 6

// maxReferenceNesting bounds how deeply lists and quotes nest.
const maxReferenceNesting = 8

// Reference is a checked set of Reference sections, §1 to §9 in order.
type Reference struct {
	Sections []ReferenceSection
}

// ReferenceSection is one section: its number, the title its heading
// gives, the file it came from and its Markdown (line ends as "\n").
type ReferenceSection struct {
	Number   int
	Title    string
	File     string
	Markdown string

	line, col int // where the heading's text starts
}

// Name is how screens name the section: "§3 Structured metadata".
func (s ReferenceSection) Name() string { return fmt.Sprintf("§%d %s", s.Number, s.Title) }

// Section returns section n (1 to 9).
func (r *Reference) Section(n int) (ReferenceSection, bool) {
	if r == nil || n < 1 || n > len(r.Sections) {
		return ReferenceSection{}, false
	}
	return r.Sections[n-1], true
}

// DefaultReference loads the Reference embedded in the binary.
func DefaultReference() (*Reference, error) {
	sub, err := fs.Sub(assets.FS, ReferenceDir)
	if err != nil {
		return nil, err
	}
	return LoadReferenceFS(sub, "embedded:"+ReferenceDir)
}

// HasReference reports whether the content directory dir has a
// reference/ folder (or anything by that name, which loading then
// refuses).
func HasReference(dir string) bool {
	if dir == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(dir, ReferenceDir))
	return err == nil
}

// LoadReferenceDir loads dir/reference, the Reference a content directory
// gives. Every problem is listed in a *LoadError.
func LoadReferenceDir(dir string) (*Reference, error) {
	ref := filepath.Join(dir, ReferenceDir)
	info, err := os.Stat(ref)
	if err != nil {
		return nil, &LoadError{[]Problem{{File: ref, Msg: friendlyFSError(err).Error()}}}
	}
	if !info.IsDir() {
		return nil, &LoadError{[]Problem{{File: ref, Msg: "not a directory: the Reference is a folder of *.md files, one per section §1 to §9"}}}
	}
	return LoadReferenceFS(os.DirFS(ref), ref)
}

// LoadReferenceFS reads every *.md file at the top of fsys and checks it:
// a regular file of at most MaxReferenceFileBytes, no control codes, bidi
// overrides or invalid UTF-8, Markdown the terminal can show (no raw HTML
// or images, tables at the top level with at most six columns, lists and
// quotes at most eight deep), a first heading "# §N Title" and something
// under it. Together the files must give each section §1 to §9 exactly
// once. label prefixes file names in problems.
func LoadReferenceFS(fsys fs.FS, label string) (*Reference, error) {
	files, err := filesWithExt(fsys, ".md")
	if err != nil {
		return nil, fmt.Errorf("cannot read the directory %s: %w", label, err)
	}
	if len(files) == 0 {
		return nil, &LoadError{[]Problem{{File: label, Msg: "no *.md Reference files here: write one per section, §1 to §9"}}}
	}
	var problems []Problem
	bySection := map[int]ReferenceSection{}
	for _, name := range files {
		file := path.Join(label, name)
		data, err := readContentFile(fsys, name, MaxReferenceFileBytes, "*.md")
		if err != nil {
			problems = append(problems, Problem{File: file, Msg: err.Error()})
			continue
		}
		sec, ps := parseReferenceFile(file, data)
		if len(ps) > 0 {
			problems = append(problems, ps...)
			continue
		}
		if prev, dup := bySection[sec.Number]; dup {
			problems = append(problems, Problem{File: file, Line: sec.line, Column: sec.col,
				Msg: fmt.Sprintf("§%d is already given by %s: each section has one file", sec.Number, prev.File)})
			continue
		}
		bySection[sec.Number] = sec
	}
	if len(problems) == 0 {
		for n := 1; n <= ReferenceSections; n++ {
			if _, ok := bySection[n]; !ok {
				problems = append(problems, Problem{File: label, Msg: fmt.Sprintf("no file gives §%d: the Reference needs one file per section, §1 to §9, each opening with a heading such as \"# §%d Title\"", n, n)})
			}
		}
	}
	if len(problems) > 0 {
		return nil, &LoadError{problems}
	}
	r := &Reference{}
	for n := 1; n <= ReferenceSections; n++ {
		r.Sections = append(r.Sections, bySection[n])
	}
	return r, nil
}

// ValidateReferenceDir checks dir/reference on its own and returns the
// problems, empty when all is well.
func ValidateReferenceDir(dir string) ([]Problem, error) {
	_, err := LoadReferenceDir(dir)
	var le *LoadError
	if errors.As(err, &le) {
		return le.Problems, nil
	}
	return nil, err
}

// referenceMarkdown parses Markdown the way ui/components/markdown, which
// draws the Reference, does: GitHub-flavoured, with definition lists.
var referenceMarkdown = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList))

// sectionHeading is a section's first heading: "§3 Structured metadata".
var sectionHeading = regexp.MustCompile(`^§\s*([0-9]+)\s+(\S.*)$`)

// parseReferenceFile checks one file and returns its section.
func parseReferenceFile(file string, data []byte) (ReferenceSection, []Problem) {
	var ps []Problem
	for _, cp := range checkRawText(data) {
		ps = append(ps, Problem{File: file, Line: cp.Line, Column: cp.Column, Msg: cp.Msg})
	}
	if len(ps) > 0 {
		return ReferenceSection{}, ps
	}
	src := bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	at := positions(src)
	// bad records a problem once a line: "<b>" and "</b>" are one.
	bad := func(offset int, msg string, a ...any) {
		line, col := at(offset)
		p := Problem{File: file, Line: line, Column: col, Msg: fmt.Sprintf(msg, a...)}
		for _, q := range ps {
			if q.Line == p.Line && q.Msg == p.Msg {
				return
			}
		}
		ps = append(ps, p)
	}
	if i := bytes.IndexByte(src, '\r'); i >= 0 {
		bad(i, "a carriage return without a newline: end lines with LF (or CRLF)")
		return ReferenceSection{}, ps
	}
	doc := referenceMarkdown.Parser().Parse(text.NewReader(src))

	sec := ReferenceSection{File: file, Markdown: string(src)}
	first := doc.FirstChild()
	h, ok := first.(*ast.Heading)
	switch {
	case first == nil:
		return sec, []Problem{{File: file, Msg: "the file is empty: a section opens with a heading such as \"# §3 Structured metadata\" and text under it"}}
	case !ok:
		bad(offsetOf(first), "a section opens with its heading, such as \"# §3 Structured metadata\": this file starts with something else")
	case h.Level != 1:
		bad(offsetOf(h), "the section heading must be level 1 (\"# §N Title\"), not level %d", h.Level)
	default:
		title := strings.TrimSpace(string(inlineText(h, src)))
		m := sectionHeading.FindStringSubmatch(title)
		n := 0
		if m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		switch {
		case m == nil:
			bad(offsetOf(h), "the heading %q does not say which section: write \"# §N Title\" with N from 1 to 9", title)
		case n < 1 || n > ReferenceSections:
			bad(offsetOf(h), "§%d is not a section: the Reference has §1 to §9", n)
		default:
			sec.Number, sec.Title = n, strings.TrimSpace(m[2])
			sec.line, sec.col = at(offsetOf(h))
		}
		if h.NextSibling() == nil {
			bad(offsetOf(h), "the section has a heading and nothing under it")
		}
	}

	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *ast.HTMLBlock, *ast.RawHTML:
			bad(offsetOf(n), "raw HTML is not shown in the terminal: write Markdown")
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			o := offsetOf(n)
			if o >= 2 && bytes.HasPrefix(src[o-2:], []byte("![")) {
				o -= 2
			}
			bad(o, "images cannot be shown in the terminal: describe the picture in words")
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			if x.Level == 1 && n != first {
				bad(offsetOf(n), "only the section heading is level 1: use ## for a heading inside the section")
			}
		case *extast.Table:
			if n.Parent() != doc {
				bad(offsetOf(n), "a table inside a list or quote cannot be drawn: put it on its own, at the left margin")
			}
			if cols := len(x.Alignments); cols > maxTableColumns {
				bad(offsetOf(n), "the table has %d columns: at most %d fit a 60-column screen", cols, maxTableColumns)
			}
			return ast.WalkSkipChildren, nil
		case *ast.List, *ast.Blockquote:
			if depth := nesting(n); depth > maxReferenceNesting {
				bad(offsetOf(n), "lists and quotes nest %d deep here: at most %d", depth, maxReferenceNesting)
				return ast.WalkSkipChildren, nil
			}
		}
		return ast.WalkContinue, nil
	})
	if len(ps) > 0 {
		return ReferenceSection{}, ps
	}
	return sec, nil
}

// nesting counts the lists and quotes n is in, itself included.
func nesting(n ast.Node) int {
	d := 0
	for ; n != nil; n = n.Parent() {
		switch n.(type) {
		case *ast.List, *ast.Blockquote:
			d++
		}
	}
	return d
}

// offsetOf is the byte offset where a node's text starts: a block's first
// line, an inline's first segment, else its first child's or its parent's.
func offsetOf(n ast.Node) int {
	for c := n; c != nil; c = c.FirstChild() {
		if o, ok := ownOffset(c); ok {
			return o
		}
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if o, ok := ownOffset(p); ok {
			return o
		}
	}
	return 0
}

func ownOffset(n ast.Node) (int, bool) {
	switch x := n.(type) {
	case *ast.Text:
		return x.Segment.Start, true
	case *ast.RawHTML:
		if x.Segments.Len() > 0 {
			return x.Segments.At(0).Start, true
		}
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start, true
	}
	return 0, false
}

// inlineText is the text of a node's inline children.
func inlineText(n ast.Node, src []byte) []byte {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch x := c.(type) {
			case *ast.Text:
				b.Write(x.Segment.Value(src))
			case *ast.String:
				b.Write(x.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.Bytes()
}

// positions maps a byte offset in src to a 1-based line and column (in
// characters).
func positions(src []byte) func(int) (int, int) {
	return func(off int) (int, int) {
		off = min(max(off, 0), len(src))
		line := 1 + bytes.Count(src[:off], []byte("\n"))
		start := bytes.LastIndexByte(src[:off], '\n') + 1
		return line, utf8.RuneCount(src[start:off]) + 1
	}
}

// loadContentDir loads what a content directory gives: its scenarios and,
// in Reference, its reference/ folder. A directory with a reference/
// folder may have no scenarios. The problems of both are listed together.
func loadContentDir(dir string) (*Catalog, error) {
	var problems []Problem
	var ref *Reference
	hasRef := HasReference(dir)
	if hasRef {
		r, err := LoadReferenceDir(dir)
		var le *LoadError
		switch {
		case errors.As(err, &le):
			problems = append(problems, le.Problems...)
		case err != nil:
			return nil, err
		}
		ref = r
	}
	c, err := LoadFS(os.DirFS(dir), dir)
	var le *LoadError
	switch {
	case errors.As(err, &le) && (hasRef || hasWalkthroughs(dir)) && len(le.Problems) == 1 && le.Problems[0].Msg == noScenarioFiles:
		c = &Catalog{byID: map[string]*Scenario{}}
	case errors.As(err, &le):
		problems = append(le.Problems, problems...)
	case err != nil:
		return nil, err
	}
	if len(problems) > 0 {
		return nil, &LoadError{problems}
	}
	c.Reference = ref
	return c, nil
}
