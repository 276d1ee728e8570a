package ui

import (
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/ui/common"
	quizpage "github.com/errorlab/errorlab/ui/pages/quiz"
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

// hint is the status line's word on the pinned notice where it does not
// show: what it is about and where it is read, "progress file partly
// unreadable · esc: the menu shows what was kept" ("" when none waits,
// or it shows here).
func (a *App) hint() string {
	n := a.c.PinnedNotice()
	if n == "" || a.noticeShown() {
		return ""
	}
	head, shows := common.NoticeHead(n)
	head = strings.ToUpper(head[:1]) + head[1:]
	for i := len(a.stack) - 1; i >= 0; i-- {
		if _, ok := a.stack[i].(common.NoticeHost); !ok {
			continue
		}
		where := quizpage.PlaceName(a.stack[i].Crumb())
		// The screens above it, each one esc; on the host itself (the
		// menu's set-up) esc closes what covers the notice.
		keys := strings.TrimSpace(strings.Repeat("esc ", max(len(a.stack)-1-i, 1)))
		if n := len(a.stack) - 1 - i; n > 3 {
			keys = fmt.Sprintf("esc ×%d", n)
		}
		return fmt.Sprintf("%s · %s: %s shows %s", head, keys, where, shows)
	}
	return head + " · the whole notice is printed when errorlab quits"
}

// noticeBox renders the pinned notice in a box w cells wide and at most
// maxH lines high: its lines wrapped (a "- " line with a hanging indent),
// then the key that dismisses it. A line of one word (the kept file's
// path) is not broken, so it can be copied whole: too wide for the box,
// its home directory is written ~, and if it still is it runs over the
// box's right edge; only a path wider than the terminal is broken, after
// a "/". A notice too long for maxH keeps its first lines and says how
// many more there are and where they are.
func (a *App) noticeBox(w, maxH int) string {
	st := a.c.Styles
	inner := max(w-4, 10) // border and one space of padding each side
	var lines, long []string
	for i, l := range strings.Split(a.c.PinnedNotice(), "\n") {
		body := strings.TrimLeft(l, " ")
		indent := len(l) - len(body)
		if i > 0 && body != "" && !strings.ContainsAny(body, " \t") {
			if indent+ansi.StringWidth(body) > inner {
				body = tildePath(body)
			}
			if indent+ansi.StringWidth(body) > inner && 2+indent+ansi.StringWidth(body) > w {
				// Wider than the terminal itself: broken after the
				// last "/" that fits, in the box like any line.
				pad := strings.Repeat(" ", indent)
				for indent+ansi.StringWidth(body) > inner {
					cut := strings.LastIndexAny(ansi.Truncate(body, inner-indent, ""), "/"+string(os.PathSeparator)) + 1
					if cut <= 0 {
						break
					}
					lines, body = append(lines, pad+body[:cut]), body[cut:]
				}
				for _, wl := range strings.Split(ansi.Hardwrap(body, inner-indent, false), "\n") {
					lines = append(lines, pad+wl)
				}
				continue
			}
			if indent+ansi.StringWidth(body) > inner {
				// A placeholder the box pads like any line, replaced
				// once it is drawn.
				lines = append(lines, fmt.Sprintf(longMark, len(long)))
				long = append(long, strings.Repeat(" ", indent)+body)
				continue
			}
		}
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
	if len(lines) > 0 {
		lines[0] = st.Warn.Render(lines[0])
	}
	lines = append(lines, st.ChipKey.Render("x")+st.Muted.Render(" dismisses this notice"))
	box := lipgloss.NewStyle().Renderer(a.c.R).Border(lipgloss.RoundedBorder()).
		BorderForeground(st.Warn.GetForeground()).Padding(0, 1).Width(max(w-2, 12))
	out := strings.Split(box.Render(strings.Join(lines, "\n")), "\n")
	for i, l := range out {
		for k, text := range long {
			at := strings.Index(l, fmt.Sprintf(longMark, k))
			if at < 0 {
				continue
			}
			out[i] = l[:at] + text // the left border and its padding, then the whole line
		}
	}
	return strings.Join(out, "\n")
}

// longMark stands in a notice box for a line too wide for it (%d: which).
const longMark = "§%d§"

// tildePath writes a path under the home directory with ~, as a shell
// reads it.
func tildePath(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return p
	}
	if rest, ok := strings.CutPrefix(p, strings.TrimSuffix(home, string(os.PathSeparator))+string(os.PathSeparator)); ok {
		return "~" + string(os.PathSeparator) + rest
	}
	return p
}
