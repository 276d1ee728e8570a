package walkthrough

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/components/jsonview"
	"github.com/errorlab/errorlab/ui/styles"
)

// envelope is one JSON-RPC envelope as the lab shows it (wire.Pretty of
// the exact bytes), lexed once; its rows are wrapped once per width.
type envelope struct {
	pretty string
	doc    jsonview.Doc
	class  rules.Classification
	known  bool // class was read from the envelope

	rowsW int
	rows  [][]string // the styled rows of each source line
	plain [][]string // the same rows without styles, for a highlight
}

func newEnvelope(b []byte, response bool) *envelope {
	p := wire.Pretty(b)
	e := &envelope{pretty: p, rowsW: -1}
	if json.Valid(b) {
		e.doc = jsonview.JSON(p)
	} else {
		e.doc = jsonview.Plain(p)
	}
	if response {
		if c, err := rules.Classify(b); err == nil {
			e.class, e.known = c, true
		}
	}
	return e
}

// at wraps the envelope to w cells, once per width.
func (e *envelope) at(w int, st *styles.Styles) {
	if e.rowsW == w {
		return
	}
	e.rowsW = w
	e.rows = e.doc.RenderLines(w, st)
	e.plain = make([][]string, len(e.rows))
	for i, rr := range e.rows {
		e.plain[i] = make([]string, len(rr))
		for j, r := range rr {
			e.plain[i][j] = ansi.Strip(r)
		}
	}
}

// marked is the envelope at inner width w with a two-cell column in
// front: "▶ " on the source lines of hl (nil: none), in reverse video as
// well when reverse is set. It returns the text and the rows [from, to)
// the mark covers, so the pane can scroll to them.
func (e *envelope) marked(w int, st *styles.Styles, hl *wt.Lines, reverse bool) (string, int, int) {
	e.at(max(w-2, 1), st)
	var b strings.Builder
	row, from, to := 0, -1, -1
	mark := st.Cursor.Render("▶") + " "
	for i, rr := range e.rows {
		on := hl != nil && i >= hl.From && i < hl.To
		if on && from < 0 {
			from = row
		}
		for j, r := range rr {
			if row > 0 {
				b.WriteByte('\n')
			}
			switch {
			case on && reverse:
				b.WriteString(mark + st.Highlight.Render(e.plain[i][j]))
			case on:
				b.WriteString(mark + r)
			default:
				b.WriteString("  " + r)
			}
			row++
		}
		if on {
			to = row
		}
	}
	return b.String(), from, to
}

// plainText is the envelope at width w with no marks.
func (e *envelope) plainText(w int, st *styles.Styles) string {
	e.at(w, st)
	var out []string
	for _, rr := range e.rows {
		out = append(out, rr...)
	}
	return strings.Join(out, "\n")
}

// classWords says what a response tells the agent, in words: "protocol
// error -32602", "isError true · transient · isRetryable true",
// "isError true · no errorCategory", "success · empty".
func classWords(e *envelope) string {
	if !e.known {
		return "not a JSON-RPC response"
	}
	c := e.class
	switch c.Layer {
	case rules.LayerProtocol:
		return fmt.Sprintf("protocol error %d", c.ProtocolCode)
	case rules.LayerExecution:
		s := "isError true · "
		if c.ErrorCategory == "" {
			s += "no errorCategory"
		} else {
			s += string(c.ErrorCategory)
		}
		if c.IsRetryable != nil {
			s += fmt.Sprintf(" · isRetryable %v", *c.IsRetryable)
		}
		return s
	}
	if c.Empty {
		return "success · empty"
	}
	return "success"
}
