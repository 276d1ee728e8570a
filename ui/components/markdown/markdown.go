// Package markdown renders Markdown for a terminal at a given width:
// goldmark parses it (GitHub-flavoured, with definition lists), the prose
// is laid out here with the session's lipgloss styles and wrapped at
// spaces only, and the tables are drawn with lipgloss/table. A Renderer
// holds a document made of sections (the Reference's §1–§9), renders it
// once per width and caches the result, so a screen's View only slices
// lines.
//
// glamour drew the prose until the start-up work of issue 7: linking it
// runs chroma's lexer and style registries and bluemonday's tables at
// every start of every command (20–30 ms here) for one screen, and its
// wrapping had to be worked around (lines ending in punctuation ran past
// the width; words broke at hyphens).
//
// Nothing here reads package-level lipgloss or termenv state: the styles
// come from the *lipgloss.Renderer handed in, so two SSH sessions get
// their own colours. Under the Ascii profile (NO_COLOR, a dumb terminal,
// the tests) nothing is styled and the Markdown marks (# for headings, **
// and * for emphasis, ` for code) stay visible, as they carry the meaning.
package markdown

import (
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/errorlab/errorlab/ui/styles"
)

// MinWidth is the narrowest width rendered; a smaller one renders at it.
const MinWidth = 20

// Styles draw the document.
type Styles struct {
	// Heading draws headings; Body the prose; Strong, Emph and Code the
	// inline marks; Link a link's address; Rule a thematic break and a
	// quote's bar.
	Heading, Body, Strong, Emph, Code, Link, Rule lipgloss.Style
	// TableHeader draws the first row of a table, TableCell the others;
	// TableBorder the lines between cells.
	TableHeader, TableCell, TableBorder lipgloss.Style
	// Marks keeps the Markdown marks visible (# **, *, `), for a
	// renderer that cannot style (the Ascii profile).
	Marks bool
}

// FromStyles takes the document's styles from a session's styles st,
// drawn by r (nil: lipgloss's default renderer).
func FromStyles(r *lipgloss.Renderer, st *styles.Styles) Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	heading := st.Heading
	if st.Theme != styles.ThemeMono {
		heading = heading.Underline(false)
	}
	return Styles{
		Heading:     heading,
		Body:        st.Body,
		Strong:      st.Bold,
		Emph:        r.NewStyle().Italic(true),
		Code:        st.Code,
		Link:        st.Accent.Underline(true),
		Rule:        st.Muted,
		TableHeader: st.TableHeader.UnsetPadding(),
		TableCell:   st.TableCell.UnsetPadding(),
		TableBorder: st.TableBorder,
		Marks:       r.ColorProfile() == termenv.Ascii,
	}
}

// DefaultStyles builds the styles of the auto theme from r.
func DefaultStyles(r *lipgloss.Renderer) Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	return FromStyles(r, styles.DefaultStyles(r))
}

// Section is one part of a document: its name (what a footer shows, e.g.
// "§1 Two layers of failure") and its Markdown.
type Section struct {
	Name     string
	Markdown string
}

// Document is a document rendered at one width.
type Document struct {
	// Text is the rendered document, lines joined with "\n"; no line is
	// wider than Width cells.
	Text  string
	Width int
	// Starts holds the line (0-based) where each section starts, in
	// section order; Names the sections' names.
	Starts []int
	Names  []string
}

// Lines is the number of lines in the document.
func (d Document) Lines() int {
	if d.Text == "" {
		return 0
	}
	return strings.Count(d.Text, "\n") + 1
}

// Renderer renders a document of sections at any width, caching each
// width it has rendered. It is safe for concurrent use.
type Renderer struct {
	r        *lipgloss.Renderer
	st       Styles
	sections []Section

	mu      sync.Mutex
	cache   map[int]Document
	renders int // how many times the document was rendered, for tests
}

// cacheWidths bounds the cache: a resized terminal asks for a few widths.
const cacheWidths = 8

// New returns a Renderer for the sections, drawing with r (nil: lipgloss's
// default renderer) and st.
func New(r *lipgloss.Renderer, st Styles, sections ...Section) *Renderer {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	return &Renderer{r: r, st: st, sections: sections, cache: map[int]Document{}}
}

// Render returns the document at width w (at least MinWidth), from the
// cache when it has been rendered at w before.
func (m *Renderer) Render(w int) (Document, error) {
	w = max(w, MinWidth)
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, ok := m.cache[w]; ok {
		return d, nil
	}
	d := Document{Width: w}
	var lines []string
	for _, s := range m.sections {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		d.Starts = append(d.Starts, len(lines))
		d.Names = append(d.Names, s.Name)
		lines = append(lines, render(m.r, m.st, s.Markdown, w)...)
	}
	d.Text = strings.Join(lines, "\n")
	m.renders++
	if len(m.cache) >= cacheWidths {
		clear(m.cache)
	}
	m.cache[w] = d
	return d, nil
}

// Render renders one piece of Markdown at width w (at least MinWidth).
// The error is always nil; it stays for callers written against a
// renderer that could fail.
func Render(r *lipgloss.Renderer, st Styles, md string, w int) (string, error) {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	return strings.Join(render(r, st, md, max(w, MinWidth)), "\n"), nil
}

// parser reads GitHub-flavoured Markdown with definition lists, as the
// Reference's validator does (scenarios/reference.go).
var parser = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList))
})

// render lays md out in lines at most w wide, without blank lines at
// either end.
func render(r *lipgloss.Renderer, st Styles, md string, w int) []string {
	src := []byte(md)
	doc := parser().Parser().Parse(text.NewReader(src))
	l := layout{r: r, st: st, src: src}
	return l.blocks(doc, w)
}

// layout lays out one parsed document.
type layout struct {
	r   *lipgloss.Renderer
	st  Styles
	src []byte
}

// blocks lays out the block children of n at width w, a blank line
// between them (none between the items of a tight list).
func (l layout) blocks(n ast.Node, w int) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		b := l.block(c, w)
		if len(b) == 0 {
			continue
		}
		if len(out) > 0 && !tightItem(c) {
			out = append(out, "")
		}
		out = append(out, b...)
	}
	return out
}

// tightItem: a tight list's item or a definition list's parts follow the
// one before without a blank line.
func tightItem(n ast.Node) bool {
	switch n.(type) {
	case *ast.ListItem:
		list, ok := n.Parent().(*ast.List)
		return ok && list.IsTight
	case *extast.DefinitionDescription:
		return true
	}
	// A tight list item's text and its nested list.
	if _, ok := n.Parent().(*ast.ListItem); ok {
		if list, ok := n.Parent().Parent().(*ast.List); ok && list.IsTight {
			return true
		}
	}
	return false
}

// block lays out one block node at width w.
func (l layout) block(n ast.Node, w int) []string {
	switch n := n.(type) {
	case *ast.Heading:
		mark := ""
		if l.st.Marks {
			mark = strings.Repeat("#", n.Level) + " "
		}
		runs := l.inline(n, l.st.Heading)
		return wrap(runs, w, mark, strings.Repeat(" ", ansi.StringWidth(mark)))
	case *ast.Paragraph, *ast.TextBlock:
		return wrap(l.inline(n, l.st.Body), w, "", "")
	case *ast.List:
		return l.list(n, w)
	case *extast.Table:
		return strings.Split(drawTable(l.r, l.st, mdTable{rows: tableRows(n, l.src)}, w), "\n")
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return l.code(n, w)
	case *ast.Blockquote:
		bar := l.st.Rule.Render("│") + " "
		var out []string
		for _, s := range l.blocks(n, w-2) {
			out = append(out, bar+s)
		}
		return out
	case *ast.ThematicBreak:
		return []string{l.st.Rule.Render(strings.Repeat("─", w))}
	case *extast.DefinitionList:
		return l.blocks(n, w)
	case *extast.DefinitionTerm:
		return wrap(l.inline(n, l.st.Strong), w, "", "")
	case *extast.DefinitionDescription:
		return indent(l.blocks(n, w-2), "  ")
	case *ast.HTMLBlock:
		return l.code(n, w)
	}
	return l.blocks(n, w)
}

// list lays out a list's items, each with its bullet ("• ") or number
// ("1. ") and its lines hung under the first.
func (l layout) list(n *ast.List, w int) []string {
	var out []string
	num := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		mark := "• "
		if n.IsOrdered() {
			mark = strconv.Itoa(num) + string(n.Marker) + " "
			num++
		}
		hang := strings.Repeat(" ", ansi.StringWidth(mark))
		body := l.blocks(item, w-len(hang))
		if len(body) == 0 {
			body = []string{""}
		}
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		out = append(out, mark+body[0])
		out = append(out, indent(body[1:], hang)...)
	}
	return out
}

// code lays out a code block's lines as written, in the code style, cut
// into pieces at the width.
func (l layout) code(n ast.Node, w int) []string {
	var out []string
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		line := strings.TrimRight(string(seg.Value(l.src)), "\n")
		for _, piece := range strings.Split(ansi.Hardwrap(line, max(w-2, 1), true), "\n") {
			out = append(out, "  "+l.st.Code.Render(piece))
		}
	}
	return out
}

func indent(lines []string, by string) []string {
	out := make([]string, len(lines))
	for i, s := range lines {
		if s != "" {
			s = by + s
		}
		out[i] = s
	}
	return out
}

// run is a piece of inline text in one style; brk marks a hard line
// break (it has no text).
type run struct {
	text  string
	style lipgloss.Style
	brk   bool
}

// inline flattens n's inline children into runs, base being the style of
// plain text. Emphasis, code and links take their styles (or, with
// Marks, show their marks); soft line breaks become spaces.
func (l layout) inline(n ast.Node, base lipgloss.Style) []run {
	var runs []run
	add := func(s string, st lipgloss.Style) {
		if s != "" {
			runs = append(runs, run{text: s, style: st})
		}
	}
	var walk func(n ast.Node, st lipgloss.Style)
	walk = func(n ast.Node, st lipgloss.Style) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				v := c.Segment.Value(l.src)
				if !c.IsRaw() {
					v = util.UnescapePunctuations(v)
				}
				add(string(v), st)
				switch {
				case c.HardLineBreak():
					runs = append(runs, run{brk: true})
				case c.SoftLineBreak():
					add(" ", st)
				}
			case *ast.String:
				add(string(c.Value), st)
			case *ast.CodeSpan:
				mark := ""
				if l.st.Marks {
					mark = "`"
				}
				add(mark+string(codeText(c, l.src))+mark, l.st.Code)
			case *ast.Emphasis:
				es, mark := l.st.Emph, "*"
				if c.Level >= 2 {
					es, mark = l.st.Strong, "**"
				}
				es = es.Inherit(st)
				if l.st.Marks {
					add(mark, st)
					walk(c, es)
					add(mark, st)
				} else {
					walk(c, es)
				}
			case *ast.Link:
				walk(c, st)
				if dest := string(c.Destination); dest != "" && dest != plainText(c, l.src) {
					add(" ("+dest+")", l.st.Link)
				}
			case *ast.AutoLink:
				add(string(c.URL(l.src)), l.st.Link)
			case *ast.Image:
				walk(c, st)
			case *extast.TaskCheckBox:
				box := "[ ] "
				if c.IsChecked {
					box = "[x] "
				}
				add(box, st)
			case *ast.RawHTML:
				segs := c.Segments
				for i := range segs.Len() {
					seg := segs.At(i)
					add(string(seg.Value(l.src)), st)
				}
			default:
				walk(c, st)
			}
		}
	}
	walk(n, base)
	return runs
}

// codeText is a code span's text as written.
func codeText(n ast.Node, src []byte) []byte {
	var b []byte
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b = append(b, t.Segment.Value(src)...)
		}
	}
	return b
}

// plainText is n's text without marks.
func plainText(n ast.Node, src []byte) string { return cellText(n, src) }

// word is a run of text between spaces: its pieces (each in one style)
// and its width in cells.
type word struct {
	pieces []run
	width  int
}

func (wd word) render() string {
	var b strings.Builder
	for _, p := range wd.pieces {
		b.WriteString(p.style.Render(p.text))
	}
	return b.String()
}

// wrap fills lines at most w cells wide with the runs' words, breaking
// only at spaces and hard breaks; a word wider than a line is cut into
// pieces. The first line starts with first and the others with rest (the
// same width).
func wrap(runs []run, w int, first, rest string) []string {
	avail := max(w-ansi.StringWidth(first), 1)
	var (
		out  []string
		line []string
		used int
		cur  word
	)
	prefix := func() string {
		if len(out) == 0 {
			return first
		}
		return rest
	}
	flush := func() {
		out = append(out, prefix()+strings.Join(line, " "))
		line, used = nil, 0
	}
	place := func(wd word) {
		if wd.width == 0 {
			return
		}
		gap := 0
		if len(line) > 0 {
			gap = 1
		}
		if used+gap+wd.width <= avail {
			line = append(line, wd.render())
			used += gap + wd.width
			return
		}
		if len(line) > 0 {
			flush()
		}
		if wd.width <= avail {
			line, used = []string{wd.render()}, wd.width
			return
		}
		pieces := strings.Split(ansi.Hardwrap(wd.render(), avail, false), "\n")
		for _, p := range pieces[:len(pieces)-1] {
			out = append(out, prefix()+p)
		}
		last := pieces[len(pieces)-1]
		line, used = []string{last}, ansi.StringWidth(last)
	}
	endWord := func() {
		place(cur)
		cur = word{}
	}
	for _, r := range runs {
		if r.brk {
			endWord()
			flush()
			continue
		}
		for i, part := range strings.Split(r.text, " ") {
			if i > 0 {
				endWord()
			}
			if part != "" {
				cur.pieces = append(cur.pieces, run{text: part, style: r.style})
				cur.width += ansi.StringWidth(part)
			}
		}
	}
	endWord()
	if len(line) > 0 || len(out) == 0 {
		flush()
	}
	return out
}
