package markdown

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// Tables are drawn with lipgloss/table: given the session's styles and
// the width, it sizes the columns; the first row is the header, drawn in
// TableHeader and wrapped like any row. lipgloss wraps cells at hyphens
// too, so a cell's hyphens between letters or digits (JSON-RPC, -32602,
// 2025-06-18) become non-breaking ones (keepWords).

// mdTable is a table of the Markdown: its rows, header first, as plain
// text.
type mdTable struct{ rows [][]string }

// tableRows is a parsed table's rows, header first: each cell's text
// without Markdown marks, its hyphens kept whole.
func tableRows(t *extast.Table, src []byte) [][]string {
	var rows [][]string
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, keepWords(strings.TrimSpace(cellText(c, src))))
		}
		rows = append(rows, cells)
	}
	return rows
}

// cellText is a cell's text without Markdown marks: emphasis, code spans
// and links give their words.
func cellText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := c.(type) {
		case *ast.Text:
			v := x.Segment.Value(src)
			if !x.IsRaw() {
				v = util.UnescapePunctuations(v)
			}
			b.Write(v)
			if x.SoftLineBreak() || x.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(x.Value)
		case *ast.AutoLink:
			b.Write(x.URL(src))
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// drawTable draws t exactly w cells wide. lipgloss/table sizes the columns
// and wraps the cells; if that cuts a word in two (the columns' longest
// words do not fit side by side), the table is drawn as one column
// instead, each row's cells as "header: text" lines.
func drawTable(r *lipgloss.Renderer, st Styles, t mdTable, w int) string {
	if len(t.rows) == 0 || len(t.rows[0]) < 2 {
		return tableString(r, st, t.rows, w)
	}
	if wordsFit(t.rows, w) {
		if out := tableString(r, st, t.rows, w); fills(out, w) && wordsWhole(out, t.rows) {
			return out
		}
	}
	return tableString(r, st, stacked(t.rows), w)
}

// wordsFit reports whether the columns' longest words can sit side by
// side at width w, borders and padding counted; when they cannot, no
// sizing keeps every word whole.
func wordsFit(rows [][]string, w int) bool {
	need := make([]int, len(rows[0]))
	for _, row := range rows {
		for j, c := range row[:min(len(row), len(need))] {
			for _, word := range strings.Fields(c) {
				need[j] = max(need[j], ansi.StringWidth(word))
			}
		}
	}
	total := len(need) + 1
	for _, n := range need {
		total += n + 2*cellPadding
	}
	return total <= w
}

// cellPadding is the space each side of a cell's text.
const cellPadding = 1

func tableString(r *lipgloss.Renderer, st Styles, rows [][]string, w int) string {
	n := 0
	for _, row := range rows {
		n = max(n, len(row))
	}
	full := make([][]string, len(rows))
	for i, row := range rows {
		full[i] = make([]string, n)
		copy(full[i], row)
	}
	narrowForBorders(full, w)
	atomic := atomicColumns(full)
	head := st.TableHeader.Padding(0, cellPadding)
	cell := st.TableCell.Padding(0, cellPadding)
	return table.New().
		Border(lipgloss.RoundedBorder()).
		BorderStyle(st.TableBorder).
		BorderRow(true).
		Width(w).
		Wrap(true).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := cell
			if row == 0 {
				s = head
			}
			if col < len(atomic) && atomic[col] > 0 {
				s = s.Width(atomic[col])
			}
			return s
		}).
		Rows(full...).
		String()
}

// atomicColumns gives the width of each column whose cells are single
// words (identifiers, keys, true/false): lipgloss/table shrinks a column
// by how far its widest cell is from its median one, which cuts such a
// column's header or longest identifier in two; a fixed width keeps it
// whole while lipgloss shares the rest among the columns of prose. Other
// columns get 0.
func atomicColumns(rows [][]string) []int {
	if len(rows) == 0 {
		return nil
	}
	out := make([]int, len(rows[0]))
	for j := range out {
		for _, row := range rows {
			if strings.ContainsAny(strings.TrimSpace(row[j]), " \n\t") {
				out[j] = 0
				break
			}
			out[j] = max(out[j], lipgloss.Width(row[j])+2*cellPadding)
		}
	}
	return out
}

// narrowForBorders works around lipgloss/table's sizing: it compares the
// columns' widest cells with the width without counting the borders, so a
// table that would fit only without its borders is drawn too wide and cut
// at the right edge. Such a table's widest column is wrapped first by the
// cells the borders need, as lipgloss itself would shrink it.
func narrowForBorders(rows [][]string, w int) {
	if len(rows) == 0 {
		return
	}
	n := len(rows[0])
	widths := make([]int, n)
	for _, row := range rows {
		for j, c := range row {
			widths[j] = max(widths[j], lipgloss.Width(c))
		}
	}
	content := 0
	widest := 0
	for j, cw := range widths {
		content += cw + 2*cellPadding
		if cw > widths[widest] {
			widest = j
		}
	}
	over := content + n + 1 - w
	if content > w || over <= 0 {
		return
	}
	limit := max(widths[widest]-over, 1)
	for _, row := range rows {
		row[widest] = ansi.Wordwrap(row[widest], limit, "")
	}
}

// fills reports whether every line of a drawn table is exactly w wide and
// ends in its right border.
func fills(drawn string, w int) bool {
	for _, l := range strings.Split(ansi.Strip(drawn), "\n") {
		if ansi.StringWidth(l) != w || !strings.HasSuffix(l, "│") && !strings.HasSuffix(l, "╮") && !strings.HasSuffix(l, "┤") && !strings.HasSuffix(l, "╯") {
			return false
		}
	}
	return true
}

// wordsWhole reports whether the drawn table shows every cell's words
// whole: each row's lines, column by column, hold the same words as the
// cell.
func wordsWhole(drawn string, rows [][]string) bool {
	var got [][]string // per row, per column: the text drawn
	var cur []string
	for _, l := range strings.Split(ansi.Strip(drawn), "\n") {
		switch {
		case strings.HasPrefix(l, "│"):
			parts := strings.Split(l, "│")
			cols := parts[1 : len(parts)-1]
			if cur == nil {
				cur = make([]string, len(cols))
			}
			if len(cols) != len(cur) {
				return false
			}
			for j, c := range cols {
				cur[j] += " " + c
			}
		case cur != nil:
			got = append(got, cur)
			cur = nil
		}
	}
	if len(got) != len(rows) {
		return false
	}
	for i, row := range rows {
		for j, c := range row {
			if j >= len(got[i]) || strings.Join(strings.Fields(got[i][j]), " ") != strings.Join(strings.Fields(c), " ") {
				return false
			}
		}
	}
	return true
}

// stacked turns a table into one column: the header row names the columns
// ("layer · on the wire · ..."), and each row's cells become lines
// "header: text".
func stacked(rows [][]string) [][]string {
	headers := rows[0]
	var names []string
	for _, h := range headers {
		if h != "" {
			names = append(names, h)
		}
	}
	out := [][]string{{strings.Join(names, " · ")}}
	for _, row := range rows[1:] {
		var parts []string
		for j, c := range row {
			if j < len(headers) && headers[j] != "" {
				c = fmt.Sprintf("%s: %s", headers[j], c)
			}
			parts = append(parts, c)
		}
		out = append(out, []string{strings.Join(parts, "\n")})
	}
	return out
}
