// Package jsonview highlights JSON with chroma and wraps it to a width,
// word-aware, for the panes that show JSON-RPC envelopes.
package jsonview

import (
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/styles"
)

// tokKind is a class of highlighted text; each maps to one style.
type tokKind uint8

const (
	tokPlain tokKind = iota
	tokKey
	tokString
	tokNumber
	tokConst
	tokPunct
)

// segment is a run of text of one kind, never containing a newline.
type segment struct {
	kind tokKind
	text string
}

// Doc is text split into source lines of segments: the expensive part of
// highlighting (lexing), done once per exchange and view; wrapping and
// styling for a width is done by render.
type Doc struct {
	lines [][]segment
	// json: break long lines only at spaces inside strings, so a key and
	// its value stay together; plain text breaks at any space.
	json bool
}

// jsonLexer is chroma's JSON lexer, its rules written out here the way
// chroma's own json.xml states them. Asking chroma's lexers package for
// "json" would link its registry, which parses every one of its ~250
// lexer definitions at every start of every command (about 18 ms here:
// issue 7's start-up budget); the rules are built on first use.
var jsonLexer = sync.OnceValue(func() chroma.Lexer {
	str := `"(\\\\|\\"|[^"])*"`
	l := chroma.MustNewLexer(&chroma.Config{
		Name:         "JSON",
		Aliases:      []string{"json"},
		DotAll:       true,
		NotMultiline: true,
	}, func() chroma.Rules {
		return chroma.Rules{
			"root":       {chroma.Include("value")},
			"whitespace": {{Pattern: `\s+`, Type: chroma.Text}},
			"comment":    {{Pattern: `//.*?\n`, Type: chroma.CommentSingle}},
			"simplevalue": {
				{Pattern: `(true|false|null)\b`, Type: chroma.KeywordConstant},
				{Pattern: `-?(0|[1-9]\d*)(\.\d+[eE](\+|-)?\d+|[eE](\+|-)?\d+|\.\d+)`, Type: chroma.LiteralNumberFloat},
				{Pattern: `-?(0|[1-9]\d*)`, Type: chroma.LiteralNumberInteger},
				{Pattern: str, Type: chroma.LiteralStringDouble},
			},
			"objectattribute": {
				chroma.Include("value"),
				{Pattern: `:`, Type: chroma.Punctuation},
				{Pattern: `,`, Type: chroma.Punctuation, Mutator: chroma.Pop(1)},
				{Pattern: `\}`, Type: chroma.Punctuation, Mutator: chroma.Pop(2)},
			},
			"objectvalue": {
				chroma.Include("whitespace"),
				chroma.Include("comment"),
				{Pattern: str, Type: chroma.NameTag, Mutator: chroma.Push("objectattribute")},
				{Pattern: `\}`, Type: chroma.Punctuation, Mutator: chroma.Pop(1)},
			},
			"arrayvalue": {
				chroma.Include("whitespace"),
				chroma.Include("value"),
				chroma.Include("comment"),
				{Pattern: `,`, Type: chroma.Punctuation},
				{Pattern: `\]`, Type: chroma.Punctuation, Mutator: chroma.Pop(1)},
			},
			"value": {
				chroma.Include("whitespace"),
				chroma.Include("simplevalue"),
				chroma.Include("comment"),
				{Pattern: `\{`, Type: chroma.Punctuation, Mutator: chroma.Push("objectvalue")},
				{Pattern: `\[`, Type: chroma.Punctuation, Mutator: chroma.Push("arrayvalue")},
			},
		}
	})
	return chroma.Coalesce(l)
})

// JSON lexes JSON text with chroma's "json" lexer. Text that does
// not lex comes back as plain text.
func JSON(s string) Doc {
	s = common.Sanitize(s)
	l := jsonLexer()
	if l == nil {
		return Plain(s)
	}
	it, err := l.Tokenise(nil, s)
	if err != nil {
		return Plain(s)
	}
	d := Doc{lines: [][]segment{nil}, json: true}
	for tok := it(); tok != chroma.EOF; tok = it() {
		k := kindOf(tok.Type)
		parts := strings.Split(tok.Value, "\n")
		for i, p := range parts {
			if i > 0 {
				d.lines = append(d.lines, nil)
			}
			if p != "" {
				last := len(d.lines) - 1
				d.lines[last] = append(d.lines[last], segment{k, p})
			}
		}
	}
	return d
}

func kindOf(t chroma.TokenType) tokKind {
	switch {
	case t == chroma.NameTag:
		return tokKey
	case t == chroma.KeywordConstant:
		return tokConst
	case t.InSubCategory(chroma.LiteralString):
		return tokString
	case t.InSubCategory(chroma.LiteralNumber):
		return tokNumber
	case t == chroma.Punctuation:
		return tokPunct
	}
	return tokPlain
}

// Plain splits text into lines of one plain segment each.
func Plain(s string) Doc {
	s = common.Sanitize(s)
	lines := strings.Split(s, "\n")
	d := Doc{lines: make([][]segment, len(lines))}
	for i, l := range lines {
		if l != "" {
			d.lines[i] = []segment{{tokPlain, l}}
		}
	}
	return d
}

// cell is one rune placed on screen with its width and kind.
type cell struct {
	r    rune
	w    int
	kind tokKind
}

// Render wraps the document to width columns (word-aware; continuation
// rows keep the source line's indentation, two columns deeper for JSON)
// and styles each run with st. width < 1 renders nothing.
func (d Doc) Render(width int, st *styles.Styles) string {
	var out []string
	for _, rows := range d.RenderLines(width, st) {
		out = append(out, rows...)
	}
	return strings.Join(out, "\n")
}

// RenderLines is Render kept per source line: the rows each line of the
// text wraps to, so a screen can mark or highlight whole source lines
// (a walkthrough's revealed member). width < 1 renders nothing.
func (d Doc) RenderLines(width int, st *styles.Styles) [][]string {
	if width < 1 {
		return nil
	}
	styles := [...]lipgloss.Style{
		tokPlain:  st.Plain,
		tokKey:    st.JSONKey,
		tokString: st.JSONString,
		tokNumber: st.JSONNumber,
		tokConst:  st.JSONConst,
		tokPunct:  st.JSONPunct,
	}
	out := make([][]string, 0, len(d.lines))
	var cells []cell
	// A row breaks at a space (dropped at the break; breakable): in
	// JSON, a space inside a string or between two tokens (a key and its
	// value, which part only when the pair does not fit on one row).
	// In JSON a row may also break after a comma inside a string, or
	// after the colon that ends a key of JSON held in a string
	// (`\"isRetryable\":false,\"description\"`), so text a model
	// reads as JSON wraps between its members, not inside a word.
	var breakAfter func(prev, c, next cell) bool
	if d.json {
		breakAfter = func(prev, c, _ cell) bool {
			return c.kind == tokString && (c.r == ',' || (c.r == ':' && prev.r == '"'))
		}
	}
	for _, line := range d.lines {
		cells = cells[:0]
		for _, seg := range line {
			for _, r := range seg.text {
				w := runeWidth(r)
				cells = append(cells, cell{r, w, seg.kind})
			}
		}
		hang := 0
		if d.json {
			hang = 2
		}
		var rows []string
		for _, row := range wrapCells(cells, width, hang, breakAfter) {
			rows = append(rows, styleCells(row, styles[:]))
		}
		out = append(out, rows)
	}
	return out
}

// breakable reports whether a row may break at c, dropping it: a space.
func breakable(c cell) bool { return c.r == ' ' }

// runeWidth is the cell width of r (0 for combining marks).
func runeWidth(r rune) int {
	if r < 0x80 {
		return 1
	}
	return ansi.StringWidth(string(r))
}

// wrapCells breaks one source line into rows no wider than width, at
// the last place in a row where a break keeps words whole: a breakable
// cell (a space, dropped at the break) or, when breakAfter is set, just
// after a cell it accepts (given the cell before it). Only a word wider
// than a whole row is cut inside.
func wrapCells(cells []cell, width, hang int, breakAfter func(prev, c, next cell) bool) [][]cell {
	total := 0
	for _, c := range cells {
		total += c.w
	}
	if total <= width {
		return [][]cell{cells}
	}
	indent := 0
	for indent < len(cells) && cells[indent].r == ' ' {
		indent++
	}
	cont := min(indent+hang, width/2)
	var rows [][]cell
	pad := func(n int) []cell {
		p := make([]cell, n)
		for i := range p {
			p[i] = cell{' ', 1, tokPlain}
		}
		return p
	}
	// after reports whether the row may break just after row[j]; next is
	// the cell that would follow it (row[j+1], or the cell that did not
	// fit).
	after := func(row []cell, j int, next cell) bool {
		if breakAfter == nil {
			return false
		}
		prev := cell{}
		if j > 0 {
			prev = row[j-1]
		}
		if j+1 < len(row) {
			next = row[j+1]
		}
		return breakAfter(prev, row[j], next)
	}
	row := []cell{}
	rowW := 0
	minBreak := indent // a break must leave something after the indent
	for i := 0; i < len(cells); i++ {
		c := cells[i]
		if rowW+c.w <= width {
			row = append(row, c)
			rowW += c.w
			continue
		}
		var carry []cell
		if !breakable(c) {
			// The last place in this row after minBreak to break at:
			// at a space (dropped), or after a cell breakAfter accepts;
			// what moves down must fit beside c on the next row.
			tailW := 0
			for j := len(row) - 1; j > minBreak && cont+tailW+c.w <= width; j-- {
				if after(row, j, c) {
					carry = append(carry, row[j+1:]...)
					row = row[:j+1]
					break
				}
				if breakable(row[j]) {
					carry = append(carry, row[j+1:]...)
					row = row[:j]
					break
				}
				tailW += row[j].w
			}
		}
		rows = append(rows, row)
		row = pad(cont)
		minBreak = cont
		rowW = cont
		for _, cc := range carry {
			row = append(row, cc)
			rowW += cc.w
		}
		if breakable(c) && len(carry) == 0 {
			continue // drop the space at a break
		}
		if c.w > width-rowW {
			// A wide rune that cannot fit even on a fresh row: drop the
			// indent so it fits, or skip it if the pane is narrower.
			row, rowW = row[:0], 0
			if c.w > width {
				continue
			}
		}
		row = append(row, c)
		rowW += c.w
	}
	return append(rows, row)
}

// WrapText wraps one paragraph of prose to w cells for a screen of plain
// text. It breaks at spaces, like common.WrapWords, and also inside
// inline JSON the prose quotes ({"order_id":"ORD-4471","reason":"x"}),
// between its tokens the way the JSON panes do: after a comma or after
// the colon that ends a key, when the next token follows with no space.
// So a call's arguments in a question wrap between members, not inside
// a key or a value. Only a token wider than a whole line is cut. Runs of
// spaces fold to one; w < 1 is taken as 1.
func WrapText(para string, w int) []string {
	w = max(w, 1)
	para = strings.Join(strings.Fields(para), " ")
	if para == "" {
		return []string{""}
	}
	cells := make([]cell, 0, len(para))
	for _, r := range para {
		cells = append(cells, cell{r, runeWidth(r), tokPlain})
	}
	opens := func(r rune) bool { return r == '"' || r == '{' || r == '[' }
	breakAfter := func(prev, c, next cell) bool {
		switch c.r {
		case ',':
			return opens(next.r)
		case ':':
			return prev.r == '"' && next.r != ' '
		}
		return false
	}
	rows := wrapCells(cells, w, 0, breakAfter)
	out := make([]string, len(rows))
	for i, row := range rows {
		var b strings.Builder
		for _, c := range row {
			b.WriteRune(c.r)
		}
		out[i] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// styleCells renders a row, one lipgloss Render per run of the same kind.
func styleCells(row []cell, styles []lipgloss.Style) string {
	var b strings.Builder
	var run strings.Builder
	kind := tokPlain
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if kind == tokPlain {
			b.WriteString(run.String())
		} else {
			b.WriteString(styles[kind].Render(run.String()))
		}
		run.Reset()
	}
	for i, c := range row {
		if i == 0 || c.kind != kind {
			flush()
			kind = c.kind
		}
		run.WriteRune(c.r)
	}
	flush()
	return b.String()
}
