package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/errorlab/errorlab/ui/common"
)

// maxShortHelpLines is how many lines the short help bar may wrap onto
// before it truncates with an ellipsis.
const maxShortHelpLines = 2

// renderHelp renders the help bar for the active screen at width w: the
// short help (wrapped onto at most two lines) or, after `?`, the full help
// in columns. The global keys come last.
func (a *App) renderHelp(w int) string {
	if w <= 0 {
		return ""
	}
	top := a.top()
	g := a.c.Keys
	capturing := false
	if ic, ok := top.(common.InputCapturer); ok && ic.Capturing() {
		capturing = true
	}
	a.help.Width = w
	if a.help.ShowAll && !capturing {
		groups := top.FullHelp()
		// While the full help is open, esc closes it (it does not go back).
		closeHelp := key.NewBinding(key.WithKeys("?", "esc"), key.WithHelp("?/esc", "close help"))
		// The mouse, said once for every screen (no key matches "mouse").
		mouse := key.NewBinding(key.WithKeys("mouse"), key.WithHelp("mouse", "wheel scrolls, click focuses"))
		general := []key.Binding{closeHelp, g.Quit, g.Force, mouse}
		if a.noticeShown() {
			general = append([]key.Binding{common.Brief(g.Dismiss, "dismiss the notice about your progress")}, general...)
		}
		groups = append(groups, general)
		full := a.fullHelpRows(groups, w)
		// Keep at least a few body lines visible under a tall help.
		maxH := max(a.c.Height-2-6, 1)
		lines := strings.Split(full, "\n")
		if len(lines) > maxH {
			lines = lines[:maxH]
		}
		return strings.Join(lines, "\n")
	}
	bs := top.ShortHelp()
	var tail []key.Binding
	if capturing {
		tail = []key.Binding{g.Force}
	} else {
		tail = []key.Binding{common.Brief(g.Help, "more")}
		if a.noticeShown() {
			tail = append([]key.Binding{g.Dismiss}, tail...)
		}
		if len(a.stack) > 1 && !namesKey(bs, g.Back) {
			tail = append(tail, g.Back)
		}
		tail = append(tail, g.Quit)
	}
	return strings.Join(a.shortHelpLines(bs, tail, w), "\n")
}

// namesKey reports whether a screen's own bindings already say what b's
// key does there (the Check screen's "esc stop" while it probes): the
// global meaning is then not shown beside it.
func namesKey(bs []key.Binding, b key.Binding) bool {
	for _, x := range bs {
		if x.Enabled() && x.Help().Key == b.Help().Key {
			return true
		}
	}
	return false
}

// fullHelpRows renders the full help's columns at width w, moving the
// columns that do not fit onto further rows instead of cutting them (the
// global keys, last, would be the first to go). Wrapped rows line up
// with the rows above when that still fits: the k-th column of every
// row gets one key column and one width (alignHelp).
func (a *App) fullHelpRows(groups [][]key.Binding, w int) string {
	m := a.help
	m.Width = 0
	sepW := lipgloss.Width(m.FullSeparator)
	var rows [][][]key.Binding
	var cur [][]key.Binding
	curW := 0
	for _, g := range groups {
		gw := lipgloss.Width(m.FullHelpView([][]key.Binding{g}))
		if gw == 0 {
			continue // no enabled binding in the group
		}
		if len(cur) > 0 && curW+sepW+gw > w {
			rows = append(rows, cur)
			cur, curW = nil, 0
		}
		if len(cur) > 0 {
			curW += sepW
		}
		cur, curW = append(cur, g), curW+gw
	}
	if len(cur) > 0 {
		rows = append(rows, cur)
	}
	if aligned, ok := alignHelp(rows, sepW, w); ok {
		rows = aligned
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		lines := strings.Split(m.FullHelpView(r), "\n")
		for j, l := range lines {
			// A short line is padded to its column's width: only text
			// wider than w is cut with "…", never the padding alone.
			if lipgloss.Width(l) > w {
				tail := "…"
				if lipgloss.Width(strings.TrimRight(ansi.Strip(l), " ")) <= w {
					tail = ""
				}
				l = ansi.Truncate(l, w, tail)
			}
			lines[j] = l
		}
		out[i] = strings.Join(lines, "\n")
	}
	return strings.Join(out, "\n")
}

// alignHelp lines up rows of help columns: the k-th column of every row
// gets the same key width (keys padded) and, but for a row's last
// column, the same width (its widest description padded), so keys and
// descriptions start at the same place on every row. ok is false when
// there is one row, or when a row aligned would be wider than w.
func alignHelp(rows [][][]key.Binding, sepW, w int) ([][][]key.Binding, bool) {
	if len(rows) < 2 {
		return nil, false
	}
	var keyW, descW []int
	for _, row := range rows {
		for j, g := range row {
			if j == len(keyW) {
				keyW, descW = append(keyW, 0), append(descW, 0)
			}
			for _, b := range g {
				if b.Enabled() {
					keyW[j] = max(keyW[j], lipgloss.Width(b.Help().Key))
					descW[j] = max(descW[j], lipgloss.Width(b.Help().Desc))
				}
			}
		}
	}
	for _, row := range rows {
		rw := sepW * (len(row) - 1)
		for j := range row {
			rw += keyW[j] + 1 + descW[j]
		}
		if rw > w {
			return nil, false
		}
	}
	padTo := func(s string, n int) string { return s + strings.Repeat(" ", max(n-lipgloss.Width(s), 0)) }
	out := make([][][]key.Binding, len(rows))
	for i, row := range rows {
		for j, g := range row {
			ng := make([]key.Binding, 0, len(g))
			widest := false // one description padded sets the column's width
			for _, b := range g {
				if !b.Enabled() {
					continue
				}
				h := b.Help()
				desc := h.Desc
				if j < len(row)-1 && !widest {
					desc, widest = padTo(desc, descW[j]), true
				}
				b.SetHelp(padTo(h.Key, keyW[j]), desc)
				ng = append(ng, b)
			}
			out[i] = append(out[i], ng)
		}
	}
	return out, true
}

// shortHelpLines packs the screen's bindings greedily into lines of at
// most w cells and ends the last line with the global tail (? more, esc
// back, q quit), which is never cut; screen bindings that do not fit on
// the last allowed line are dropped with an ellipsis.
func (a *App) shortHelpLines(bs, tail []key.Binding, w int) []string {
	var enabled []key.Binding
	for _, b := range bs {
		if b.Enabled() && b.Help().Key != "" {
			enabled = append(enabled, b)
		}
	}
	m := a.help
	m.Width = 0
	view := func(bs []key.Binding) string {
		if len(bs) == 0 {
			return ""
		}
		return m.ShortHelpView(bs)
	}
	tailView := view(tail)
	sep := m.Styles.ShortSeparator.Render(m.ShortSeparator)
	sepW, tailW := lipgloss.Width(sep), lipgloss.Width(tailView)
	if tailW > w {
		tailView, tailW = "", 0
	}
	ellipsis := m.Styles.Ellipsis.Render(" " + m.Ellipsis)
	var lines []string
	var cur []key.Binding
	cut := false
	for _, b := range enabled {
		try := append(append([]key.Binding(nil), cur...), b)
		room := w
		if len(lines) == maxShortHelpLines-1 {
			room = w - tailW - sepW - lipgloss.Width(ellipsis)
		}
		if lipgloss.Width(view(try)) <= room {
			cur = try
			continue
		}
		if len(lines) == maxShortHelpLines-1 || len(cur) == 0 {
			cut = true
			break
		}
		lines = append(lines, view(cur))
		cur = []key.Binding{b}
	}
	last := view(cur)
	if cut {
		last += ellipsis
	}
	switch {
	case last == "":
		last = tailView
	case tailView == "":
	case lipgloss.Width(last)+sepW+tailW <= w:
		last += sep + tailView
	default:
		lines = append(lines, last)
		last = tailView
	}
	lines = append(lines, last)
	for i, l := range lines {
		if lipgloss.Width(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	return lines
}
