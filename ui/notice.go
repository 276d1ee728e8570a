package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/ui/common"
)

// noticeShown reports whether the pinned notice (common.Common.
// PinNotice) shows now: below a common.NoticeHost (Home, the quiz menu),
// where a learner lands and has time to read, until x dismisses it.
func (a *App) noticeShown() bool {
	if a.c.PinnedNotice() == "" || a.fullScreen() {
		return false
	}
	h, ok := a.top().(common.NoticeHost)
	return ok && h.HostsNotice()
}

// noticeBox renders the pinned notice in a box w cells wide and at most
// maxH lines high: its lines wrapped (a "- " line with a hanging indent),
// then the key that dismisses it. A notice too long for maxH keeps its
// first lines and says how many more there are and where they are.
func (a *App) noticeBox(w, maxH int) string {
	st := a.c.Styles
	inner := max(w-4, 10) // border and one space of padding each side
	var lines []string
	for i, l := range strings.Split(a.c.PinnedNotice(), "\n") {
		body := strings.TrimLeft(l, " ")
		indent := len(l) - len(body)
		hang := indent
		if strings.HasPrefix(body, "- ") {
			hang += 2
		}
		lead := ""
		if i == 0 {
			lead, hang = "⚠ ", hang+2
		}
		// Every line of it fits beside the hanging indent.
		wrapped := strings.Split(ansi.Wrap(lead+body, max(inner-hang, 10), ""), "\n")
		for j, wl := range wrapped {
			pad := strings.Repeat(" ", indent)
			if j > 0 {
				pad = strings.Repeat(" ", hang)
				wl = strings.TrimLeft(wl, " ")
			}
			lines = append(lines, pad+wl)
		}
	}
	room := max(maxH-3, 1) // the border's two lines and the key's line
	if len(lines) > room {
		more := len(lines) - room + 1
		lines = append(lines[:room-1:room-1], st.Muted.Render(fmt.Sprintf("… %d more lines: the whole notice is printed when errorlab quits", more)))
	}
	for i, l := range lines {
		if i == 0 {
			lines[i] = st.Warn.Render(l)
		}
	}
	lines = append(lines, st.ChipKey.Render("x")+st.Muted.Render(" dismisses this notice"))
	box := lipgloss.NewStyle().Renderer(a.c.R).Border(lipgloss.RoundedBorder()).
		BorderForeground(st.Warn.GetForeground()).Padding(0, 1).Width(max(w-2, 12))
	return box.Render(strings.Join(lines, "\n"))
}
