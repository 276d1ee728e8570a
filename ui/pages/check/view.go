package check

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/check"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/findings"
	"github.com/errorlab/errorlab/ui/components/jsonview"
	"github.com/errorlab/errorlab/ui/components/pane"
)

// wide is the width from which the list sits beside the findings and the
// response; below it the three panes are stacked.
const wide = 100

// headLines are the lines above the panes in the results view: the
// summary, what was probed, and the warnings that must not be missed (the
// server did not accept the revision asked for; it stopped answering),
// each wrapped to the width.
func (m *Model) headLines() []string {
	st := m.c.Styles
	head := " " + findings.Summary(st, check.Summarize(m.results))
	sub := " " + st.Muted.Render(common.Sanitize(common.OneLineText(m.target)))
	if m.server != "" {
		sub += st.Muted.Render(" · " + common.Sanitize(m.server))
	}
	sub += st.Muted.Render(" · graded under " + string(m.spec))
	if len(m.skipped) > 0 {
		sub += st.Warn.Render(fmt.Sprintf(" · ⚠ %d not called", len(m.skipped)))
	}
	lines := []string{ansi.Truncate(head, m.w, "…"), ansi.Truncate(sub, m.w, "…")}
	var warn []string
	if m.asked != "" && m.spec != m.asked && !m.fixed {
		warn = append(warn, fmt.Sprintf("⚠ the server did not accept spec %s: graded under %s, the revision it settled on", m.asked, m.spec))
	}
	if m.stopped != "" {
		warn = append(warn, "⚠ "+common.OneLineText(m.stopped))
	}
	for _, w := range warn {
		for _, l := range common.WrapWords(common.Sanitize(w), max(m.w-2, 10)) {
			lines = append(lines, " "+st.Warn.Render(l))
		}
	}
	return lines
}

// layout sizes the three panes for the results view.
func (m *Model) layout() {
	h := max(m.h-len(m.headLines()), 3)
	if m.w >= wide {
		lw := max(34, m.w/2) // its rows name the call and what it tried
		fh := max(h*3/5, 3)
		m.list.SetSize(lw, h)
		m.found.SetSize(m.w-lw, fh)
		m.resp.SetSize(m.w-lw, h-fh)
	} else {
		lh := max(h/3, 5) // the list of responses is what one moves through
		fh := max((h-lh)/2, 3)
		m.list.SetSize(m.w, lh)
		m.found.SetSize(m.w, fh)
		m.resp.SetSize(m.w, h-lh-fh)
	}
	keepInView(m.list, m.cursor)
	if m.mode == modeResults && len(m.results) > 0 {
		m.refreshFindings() // the selected finding in view at the new size
	}
}

// refresh rebuilds the three panes for the response at the cursor.
func (m *Model) refresh() {
	st := m.c.Styles
	results, cursor, skipped, notes := m.results, m.cursor, m.skipped, m.notes
	m.list.SetBuild(fmt.Sprintf("Responses · %d", len(results)), "", func(w int) string {
		lines := make([]string, len(results), len(results)+len(skipped)+len(notes)+1)
		for i, r := range results {
			sym, ss := findings.VerdictSymbol(st, r.Report.Verdict)
			mark := "  "
			if i == cursor {
				mark = "▸ "
			}
			line := mark + ss.Render(sym) + " " + common.Sanitize(r.Label) + st.Muted.Render(" · "+common.Sanitize(what(r)))
			if i == cursor {
				line = st.Selected.Render(ansi.Strip(line))
			}
			lines[i] = ansi.Truncate(line, w, "…")
		}
		if len(skipped)+len(notes) > 0 {
			lines = append(lines, "")
			for _, sk := range skipped {
				lines = append(lines, ansi.Truncate(st.Warn.Render("⚠ ")+st.Muted.Render("not called: "+common.Sanitize(sk)), w, "…"))
			}
			for _, n := range notes {
				lines = append(lines, ansi.Truncate(st.Info.Render("• ")+st.Muted.Render(common.Sanitize(n)), w, "…"))
			}
		}
		return strings.Join(lines, "\n")
	})
	keepInView(m.list, cursor)
	r := m.current()
	m.resp.SetContent("Response (server → client)", string(r.Response), func(w int) string {
		var b strings.Builder
		b.WriteString(envelope(r.Response).Render(w, st))
		if len(r.Request) > 0 {
			b.WriteString("\n\n" + st.Muted.Render("the request (client → server):") + "\n")
			b.WriteString(envelope(r.Request).Render(w, st))
		}
		return b.String()
	})
	m.refreshFindings()
}

// what says what the probe sent for a result ("probe 7: path missing" →
// "path missing"), or where the response came from.
func what(r check.Result) string {
	if _, rest, ok := strings.Cut(r.Source, ": "); ok && strings.HasPrefix(r.Source, "probe ") {
		return rest
	}
	return r.Source
}

func envelope(b []byte) jsonview.Doc {
	if json.Valid(b) {
		return jsonview.JSON(wire.Pretty(b))
	}
	return jsonview.Plain(common.Sanitize(string(b)))
}

// refreshFindings rebuilds the findings pane with the selection marked.
func (m *Model) refreshFindings() {
	st := m.c.Styles
	r := m.current()
	fs := findings.Sorted(r.Report.Findings)
	sel := m.fcursor
	sym, ss := findings.VerdictSymbol(st, r.Report.Verdict)
	title := fmt.Sprintf("Findings · %s %s · %s", sym, r.Report.Verdict, common.Sanitize(r.Label))
	var starts []int
	var content []string
	build := func(w int) string {
		content, starts = content[:0], starts[:0]
		if len(fs) == 0 {
			content = append(content, ss.Render("✓ no finding: this response follows the lesson rules"))
		}
		for i, f := range fs {
			starts = append(starts, len(content))
			block := findings.Lines(st, []grade.Finding{f}, w-2, 0)
			for j, l := range block {
				lead := "  "
				if j == 0 && i == sel {
					lead = st.Accent.Render("▸ ")
				}
				content = append(content, lead+l)
			}
			if i < len(fs)-1 {
				content = append(content, "")
			}
		}
		return strings.Join(content, "\n")
	}
	m.found.SetBuild(title, "", build)
	_, ih := m.found.Inner()
	if sel < len(starts) {
		vp := m.found.Viewport()
		end := len(content)
		if sel+1 < len(starts) {
			end = starts[sel+1]
		}
		switch {
		case starts[sel] < vp.YOffset:
			vp.SetYOffset(starts[sel])
		case end > vp.YOffset+ih:
			// Its end into view, but never its first line (the check id,
			// the section, the path) out of it.
			vp.SetYOffset(min(starts[sel], end-ih))
		}
	}
}

// keepInView scrolls a pane so that row is visible.
func keepInView(p *pane.Model, row int) {
	vp := p.Viewport()
	_, ih := p.Inner()
	switch {
	case row < vp.YOffset:
		vp.SetYOffset(row)
	case ih > 0 && row >= vp.YOffset+ih:
		vp.SetYOffset(row - ih + 1)
	}
}

// mouse: a click focuses the pane under the pointer; on the list it also
// selects the response.
func (m *Model) mouse(e tea.MouseMsg) {
	x, y := e.X, e.Y-len(m.headLines())
	if y < 0 {
		return
	}
	hit := func(px, py, pw, ph int) bool { return x >= px && x < px+pw && y >= py && y < py+ph }
	var lx, ly, fx, fy, rx, ry int
	if m.w >= wide {
		fx, rx, ry = m.list.Width(), m.list.Width(), m.found.Height()
	} else {
		fy, ry = m.list.Height(), m.list.Height()+m.found.Height()
	}
	switch {
	case hit(lx, ly, m.list.Width(), m.list.Height()):
		m.setFocus(focusList)
		row := y - ly - 1 + m.list.Viewport().YOffset
		if row >= 0 && row < len(m.results) && e.Button == tea.MouseButtonLeft {
			m.cursor, m.fcursor = row, 0
			m.refresh()
		}
	case hit(fx, fy, m.found.Width(), m.found.Height()):
		m.setFocus(focusFindings)
	case hit(rx, ry, m.resp.Width(), m.resp.Height()):
		m.setFocus(focusResponse)
	}
}

// View implements tea.Model.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	switch m.mode {
	case modeInput:
		return m.inputView()
	case modeRunning:
		return m.runningView()
	}
	return m.resultsView()
}

func (m *Model) inputView() string {
	st := m.c.Styles
	w := m.w
	var out []string
	out = append(out, " "+st.Title.Render("Check a server: grade its error responses against the lesson rules"), "")
	if err := m.refused(); err != nil {
		for _, l := range common.WrapWords("⚠ "+err.Error(), w-2) {
			out = append(out, " "+st.Warn.Render(l))
		}
		out = append(out, "", " "+st.Muted.Render("esc goes back"))
		return strings.Join(common.FitLines(out, w, m.h), "\n")
	}
	for _, l := range common.WrapWords("Give the command that starts a stdio MCP server, or the URL of a Streamable HTTP one. errorlab lists its tools and calls each one the ways that show how it fails: an unknown tool, required arguments missing, wrong types, values out of range. Tools whose annotations say destructiveHint: true are not called.", w-2) {
		out = append(out, " "+st.Muted.Render(l))
	}
	out = append(out, "", " "+m.input.View(), "")
	out = append(out, " "+st.Muted.Render("graded under spec ")+st.Bold.Render(string(m.spec))+st.Muted.Render(" (tab changes it)"))
	out = append(out, " "+st.Muted.Render("each call may take up to ")+st.Bold.Render(seconds(m.timeout))+st.Muted.Render(" (ctrl+t changes it)"))
	if m.err != "" {
		out = append(out, "")
		for _, l := range common.WrapWords("✗ "+common.Sanitize(m.err), w-2) {
			out = append(out, " "+st.Bad.Render(l))
		}
	}
	return strings.Join(common.FitLines(out, w, m.h), "\n")
}

// elapsed is the running probe's time so far; while the server starts,
// with how long it may take (check.HandshakeWait: the chosen call
// timeout bounds the calls, not a slow start).
func (m *Model) elapsed() string {
	e := time.Since(m.started).Round(time.Second).String()
	if m.doing == startingDoing {
		return fmt.Sprintf("%s of at most %s", e, check.HandshakeWait(m.timeout))
	}
	return e
}

func (m *Model) runningView() string {
	st := m.c.Styles
	pct := 0.0
	if m.total > 0 {
		pct = float64(m.done) / float64(m.total)
	}
	count := ""
	if m.total > 0 {
		count = fmt.Sprintf(" %d/%d", m.done, m.total)
	}
	out := []string{
		" " + st.Title.Render("Probing "+common.Sanitize(common.OneLineText(m.target))), "",
		" " + m.bar.ViewAs(pct) + st.Bold.Render(count),
		" " + st.Muted.Render(common.Sanitize(m.doing)+" · "+m.elapsed()), "",
		" " + st.Muted.Render("esc stops the probe (and the server)"),
	}
	return strings.Join(common.FitLines(out, m.w, m.h), "\n")
}

func (m *Model) resultsView() string {
	lines := m.headLines()
	var body string
	if m.w >= wide {
		right := m.found.View() + "\n" + m.resp.View()
		body = common.JoinColumns(m.list.View(), right)
	} else {
		body = m.list.View() + "\n" + m.found.View() + "\n" + m.resp.View()
	}
	return strings.Join(lines, "\n") + "\n" + body
}
