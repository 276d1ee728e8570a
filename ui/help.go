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
// global keys, last, would be the first to go).
func (a *App) fullHelpRows(groups [][]key.Binding, w int) string {
	m := a.help
	m.Width = 0
	sepW := lipgloss.Width(m.FullSeparator)
	var rows []string
	var cur [][]key.Binding
	curW := 0
	for _, g := range groups {
		gw := lipgloss.Width(m.FullHelpView([][]key.Binding{g}))
		if gw == 0 {
			continue // no enabled binding in the group
		}
		if len(cur) > 0 && curW+sepW+gw > w {
			rows = append(rows, m.FullHelpView(cur))
			cur, curW = nil, 0
		}
		if len(cur) > 0 {
			curW += sepW
		}
		cur, curW = append(cur, g), curW+gw
	}
	if len(cur) > 0 {
		rows = append(rows, m.FullHelpView(cur))
	}
	for i, r := range rows {
		lines := strings.Split(r, "\n")
		for j, l := range lines {
			if lipgloss.Width(l) > w {
				lines[j] = ansi.Truncate(l, w, "…")
			}
		}
		rows[i] = strings.Join(lines, "\n")
	}
	return strings.Join(rows, "\n")
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
