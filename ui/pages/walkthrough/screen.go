package walkthrough

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/ui/common"
)

// The whole screen: the audience view (the slide and a footer, the notes
// and the keys over it when asked for, or nothing but black or white)
// and the presenter view (the slide small, the notes, the next step, two
// footer lines).

// presenterLayout is where the presenter view's boxes are.
type presenterLayout struct {
	beside bool // the notes and the next step to the right of the slide
	leftW  int  // the slide's column (beside)
	nowH   int  // the rule and the slide (stacked)
	notesH int
	nextH  int
}

// arrange lays the screen out for the current state and size; it runs
// after every change (a click, a link message, a load, a resize).
func (m *Model) arrange() {
	m.spots = m.spots[:0]
	m.blankLines = nil
	if m.width <= 0 || m.height <= 0 {
		return
	}
	if m.presenter {
		m.arrangePresenter()
	} else {
		m.arrangeAudience()
	}
	if m.showHelp {
		m.arrangeHelp()
	}
	m.applyFocus()
}

func (m *Model) arrangeAudience() {
	h := max(m.height-1, 0)
	nh := 0
	if m.notes {
		// The notes take the bottom rows (a third at most); the step
		// is laid out in the rest.
		need := len(common.WrapWords(m.notesText(), max(m.width-3, 1))) + 2
		nh = min(max(need, 4), max(h/3, 4))
		m.notesPane.SetSize(m.width, nh)
		m.setNotes("✎ Presenter notes · n hides")
	}
	m.arrangeSlide(0, 0, m.width, h-nh)
	if nh > 0 {
		m.spots = append(m.spots, paneSpot(m.notesPane, 0, h-nh))
	}
	if m.blank != "" {
		bs := m.c.Styles.BlankBlack
		if m.blank == blankWhite {
			bs = m.c.Styles.BlankWhite
		}
		row := bs.Render(strings.Repeat(" ", m.width))
		m.blankLines = make([]string, m.height)
		for i := range m.blankLines {
			m.blankLines[i] = row
		}
	}
}

func (m *Model) arrangePresenter() {
	w, h0 := m.width, max(m.height-2, 0)
	p := presenterLayout{beside: w >= common.SideBySideMin}
	if p.beside {
		p.leftW = w * 3 / 5
		rw := w - p.leftW
		m.arrangeSlide(0, 1, p.leftW, h0-1)
		p.nextH = h0
		if m.notes {
			p.nextH = min(max(h0/3, 6), 12)
			p.notesH = h0 - p.nextH
			m.notesPane.SetSize(rw, p.notesH)
			m.setNotes("✎ Notes · n hides")
			m.spots = append(m.spots, paneSpot(m.notesPane, p.leftW, 0))
		}
		m.nextPane.SetSize(rw, p.nextH)
	} else {
		p.nextH = min(5, h0/4)
		rest := h0 - p.nextH
		p.nowH = rest
		if m.notes {
			p.notesH = max(min(rest/3, 8), 4)
			p.nowH = rest - p.notesH
		}
		m.arrangeSlide(0, 1, w, p.nowH-1)
		m.notesPane.SetSize(w, p.notesH)
		if m.notes {
			m.setNotes("✎ Notes · n hides")
			m.spots = append(m.spots, paneSpot(m.notesPane, 0, p.nowH))
		}
		m.nextPane.SetSize(w, p.nextH)
	}
	m.pres = p
	m.setNext()
}

// notesText is the current step's presenter notes, or a line that says
// there are none.
func (m *Model) notesText() string {
	if n := common.OneLineText(m.views[m.step].st.Notes); n != "" {
		return n
	}
	return "No notes for this step."
}

func (m *Model) setNotes(title string) {
	st := m.c.Styles
	text := m.notesText()
	m.notesPane.SetContent(title, "", func(w int) string {
		return strings.Join(common.WrapLines(st.Plain, text, w), "\n")
	})
}

// nextClick says what the next click shows: a part of this step, or the
// next step.
func (m *Model) nextClick() string {
	v := m.views[m.step]
	if v.loaded && v.err == nil && m.part < v.parts()-1 {
		d, k := v.data, m.part+1
		switch v.st.Kind {
		case wt.KindLiveCall:
			return d.reveals[k-1].Label
		case wt.KindCompare:
			if k == 1 {
				return "the " + d.badStyle + " response"
			}
			return "the good response"
		case wt.KindAgents:
			if c := d.runs.Coordinator; c != nil {
				switch n := len(c.Subagent.Steps); {
				case k <= n:
					return fmt.Sprintf("the subagent's step %d of %d", k, n)
				case k == n+1:
					return "the subagent's report"
				}
				return "the coordinator's move"
			}
			return fmt.Sprintf("event %d of %d", k, len(d.moments))
		case wt.KindQuestion:
			return "the answer, with every option explained"
		}
	}
	if m.step+1 >= len(m.views) {
		return "nothing: this is the last step"
	}
	return fmt.Sprintf("step %d", m.step+2)
}

// setNext fills the presenter's preview of what comes next.
func (m *Model) setNext() {
	st := m.c.Styles
	click := "▷ next click: " + m.nextClick()
	i := m.step + 1
	if i >= len(m.views) {
		m.nextPane.SetContent("Next", "", func(w int) string {
			return strings.Join(append(common.WrapLines(st.Accent, click, w), "", st.Muted.Render("■ the end of the walkthrough")), "\n")
		})
		return
	}
	nv := m.views[i]
	heading := common.OneLineText(nv.st.Heading(m.c.Catalog))
	text := common.OneLineText(nv.st.Text)
	if nv.st.Kind == wt.KindQuestion {
		// Never the question's id, which can give its answer away.
		text = "a question for the room"
		if nv.loaded && nv.err == nil && nv.data.q != nil {
			text = common.OneLineText(nv.data.q.Stem)
		} else if nv.st.Inline != nil {
			text = common.OneLineText(nv.st.Inline.Stem)
		}
	}
	title := fmt.Sprintf("Next · %d/%d · %s", i+1, len(m.views), kindLabel(nv.st))
	m.nextPane.SetContent(title, "", func(w int) string {
		out := common.WrapLines(st.Accent, click, w)
		out = append(out, common.WrapLines(st.Bold, heading, w)...)
		if text != "" {
			out = append(out, common.WrapLines(st.Muted, text, w)...)
		}
		return strings.Join(out, "\n")
	})
}

// arrangeHelp fills the keys box shown over the screen: the groups of
// FullHelp in two columns when they fit side by side, else in one.
func (m *Model) arrangeHelp() {
	st := m.c.Styles
	groups := m.FullHelp()
	kw, dw := 0, 0
	for _, group := range groups {
		for _, b := range group {
			kw = max(kw, ansi.StringWidth(b.Help().Key))
			dw = max(dw, ansi.StringWidth(b.Help().Desc))
		}
	}
	column := func(gs [][]key.Binding) []string {
		var rows []string
		for gi, group := range gs {
			if gi > 0 {
				rows = append(rows, "")
			}
			for _, b := range group {
				rows = append(rows, st.Help.FullKey.Render(common.PadRight(b.Help().Key, kw))+"  "+st.Help.FullDesc.Render(b.Help().Desc))
			}
		}
		return rows
	}
	colW := kw + 2 + dw
	w := colW + 3
	var rows []string
	if half := (len(groups) + 1) / 2; 2*colW+2+3 <= m.width-2 {
		rows = common.BesideLines(column(groups[:half]), column(groups[half:]), colW, "  ")
		w = 2*colW + 2 + 3
	} else {
		rows = column(groups)
	}
	rows = append(rows, "", st.Muted.Render("any key closes this · ctrl+c quits at once"))
	w = min(max(w, 46), m.width-2)
	h := min(len(rows)+2, max(m.height-2, 3))
	m.helpPane.SetSize(w, h)
	m.helpPane.SetContent("Keys", "", func(int) string { return strings.Join(rows, "\n") })
}

// View implements tea.Model. It joins lines laid out by arrange and the
// components' views; nothing is computed here.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.blankLines != nil {
		return strings.Join(m.blankLines, "\n")
	}
	var lines []string
	if m.presenter {
		lines = m.presenterLines()
	} else {
		lines = m.slideLines()
		if m.notes {
			lines = append(lines, strings.Split(m.notesPane.View(), "\n")...)
		}
		lines = append(lines, m.footer())
	}
	if m.showHelp {
		hv := strings.Split(m.helpPane.View(), "\n")
		x := max((m.width-m.helpPane.Width())/2, 0)
		y := max((m.height-len(hv))/2, 0)
		pad := strings.Repeat(" ", x)
		for i, l := range hv {
			if y+i < len(lines) {
				lines[y+i] = pad + l
			}
		}
	}
	return strings.Join(common.FitLines(lines, m.width, m.height), "\n")
}

func (m *Model) presenterLines() []string {
	st := m.c.Styles
	p := m.pres
	h0 := max(m.height-2, 0)
	nowW := m.width
	if p.beside {
		nowW = p.leftW
	}
	tag := fmt.Sprintf(" Now · step %d of %d · %s ", m.step+1, len(m.views), m.partWords())
	rule := st.Heading.Render(ansi.Truncate(tag, max(nowW-2, 0), "…"))
	rule = st.Border.Render("──") + rule + st.Border.Render(strings.Repeat("─", max(nowW-2-ansi.StringWidth(rule), 0)))
	now := append([]string{rule}, m.slideLines()...)
	var lines []string
	if p.beside {
		right := []string{}
		if p.notesH > 0 {
			right = append(right, strings.Split(m.notesPane.View(), "\n")...)
		}
		right = append(right, strings.Split(m.nextPane.View(), "\n")...)
		lines = common.BesideLines(common.FitLines(now, p.leftW, h0), right, p.leftW, "")
	} else {
		lines = common.FitLines(now, m.width, p.nowH)
		if p.notesH > 0 {
			lines = append(lines, strings.Split(m.notesPane.View(), "\n")...)
		}
		lines = append(lines, strings.Split(m.nextPane.View(), "\n")...)
	}
	lines = common.FitLines(lines, m.width, h0)
	return append(lines, m.presenterStatus(), m.footer())
}

// partWords is "part 2 of 8", or "all shown" for a step of one part.
func (m *Model) partWords() string {
	v := m.views[m.step]
	n := v.parts()
	switch {
	case !v.loaded && needsData(v.st):
		return "loading"
	case n <= 1:
		return kindLabel(v.st)
	}
	return fmt.Sprintf("part %d of %d", m.part, n-1)
}

// presenterStatus is the presenter's first footer line: a question being
// asked, the room's screen blanked, the status, or the link.
func (m *Model) presenterStatus() string {
	st := m.c.Styles
	w := m.width
	if s := m.prompt(); s != "" {
		return ansi.Truncate(s, w, "…")
	}
	if m.blank != "" {
		return ansi.Truncate(st.Warn.Render("◼ the room's screen is blank ("+m.blank+"): any key shows the step again"), w, "…")
	}
	if s := m.c.StatusLine(); s != "" {
		return ansi.Truncate(s, w, "…")
	}
	switch m.linkState {
	case linkUp:
		return ansi.Truncate(st.OK.Render("⇄ "+m.linkText), w, "…")
	case linkWaiting:
		return ansi.Truncate(st.Warn.Render("… "+m.linkText), w, "…")
	case linkLost, linkFailed:
		return ansi.Truncate(st.Warn.Render("⚠ "+m.linkText), w, "…")
	}
	return ansi.Truncate(st.Muted.Render("not linked: this presenter view works alone"), w, "…")
}

// prompt is the question the screen is asking, or the step number being
// typed; "" for none.
func (m *Model) prompt() string {
	st := m.c.Styles
	switch {
	case m.asking == askQuit:
		what := "quit errorlab?"
		if m.presenter {
			return st.Warn.Render("⚠ quit? q again (or y) quits this view, not the room's · any other key stays")
		}
		return st.Warn.Render("⚠ " + what + " q again (or y) quits · any other key stays")
	case m.asking == askLeave:
		return st.Warn.Render("⚠ leave for the list? esc again (or y) leaves · any other key stays")
	case m.jumping:
		return st.Accent.Render(fmt.Sprintf("go to step: %s▏ · enter, or wait · 1 to %d · esc cancels", m.jump, len(m.views)))
	}
	return ""
}

// footer is the audience view's one line (and the presenter's second):
// where the walkthrough is, the status, and the timer when shown.
func (m *Model) footer() string {
	st := m.c.Styles
	left := ""
	if !m.presenter {
		left = m.prompt()
		if left == "" {
			left = m.c.StatusLine()
		}
		if left == "" && m.follow {
			left = m.followFooter()
		}
	}
	if left == "" {
		left = st.Muted.Render(fmt.Sprintf("step %d of %d", m.step+1, len(m.views)))
		if m.presenter {
			left = st.Muted.Render(fmt.Sprintf("%s · step %d of %d · %s", m.w.Title, m.step+1, len(m.views), m.partWords()))
		}
	}
	right := st.Muted.Render("? keys")
	if m.timer {
		t := m.timerText()
		ts := st.Accent
		if strings.Contains(t, "over") {
			ts = st.Warn
		}
		right = ts.Render(t) + "  " + right
	}
	return common.JoinEnds(left, right, m.width)
}

// mouse: the wheel scrolls the box under the pointer; a click focuses
// it (↑/↓ then scroll it).
func (m *Model) mouse(e tea.MouseMsg) {
	if m.blankLines != nil {
		return
	}
	for i, s := range m.spots {
		if e.X >= s.x && e.X < s.x+s.w && e.Y >= s.y && e.Y < s.y+s.h {
			if e.Action == tea.MouseActionPress && e.Button == tea.MouseButtonLeft {
				m.focus = i
				m.applyFocus()
				return
			}
			s.wheel(e)
			return
		}
	}
}

// scroll moves the box in focus by d lines.
func (m *Model) scroll(d int) {
	if m.focus < 0 || m.focus >= len(m.spots) {
		return
	}
	vp := m.spots[m.focus].vp
	if d < 0 {
		vp.ScrollUp(-d)
	} else {
		vp.ScrollDown(d)
	}
}

// cycleFocus gives ↑/↓ to the next box that scrolls.
func (m *Model) cycleFocus() {
	if len(m.spots) == 0 {
		return
	}
	m.focus = (m.focus + 1) % len(m.spots)
	m.applyFocus()
}

func (m *Model) applyFocus() {
	if m.focus >= len(m.spots) {
		m.focus = 0
	}
	for i, s := range m.spots {
		s.focus(i == m.focus)
	}
}
