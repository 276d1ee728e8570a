package quiz

import tea "github.com/charmbracelet/bubbletea"

// The mouse on the quiz screens (cell motion; X and Y relative to the
// screen's area, 0,0 its top-left cell). The wheel scrolls what is under
// the pointer: the exhibit pane, or the question's column; on the
// results, the page. A left click on the exhibit focuses it, as tab
// does; a click on the question's column gives the focus back to the
// question.

// wheelLines is how far one wheel notch scrolls a column or a page.
const wheelLines = 3

// wheel is -1 for a wheel-up press, 1 for wheel down, 0 for anything else.
func wheel(msg tea.MouseMsg) int {
	if msg.Action != tea.MouseActionPress {
		return 0
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		return -1
	case tea.MouseButtonWheelDown:
		return 1
	}
	return 0
}

// leftClick reports whether msg is a press of the left button.
func leftClick(msg tea.MouseMsg) bool {
	return msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft
}

// onExhibit reports whether the exhibit pane is drawn at the cell (x, y)
// of the question's area: beside the column when wide, a box among the
// column's rows when narrow.
func (q *question) onExhibit(x, y int) bool {
	if q.ex == nil || x < 0 || y < 0 || y >= q.h {
		return false
	}
	if q.wide {
		x -= q.colW + 1
	} else {
		if q.exAt < 0 || y >= q.viewH() {
			return false // the hint row
		}
		y += q.off - q.exAt
	}
	return q.ex.Contains(x, y)
}

// mouse handles a mouse event at the question's area; it reports whether
// the event did anything.
func (q *question) mouse(msg tea.MouseMsg) bool {
	onEx := q.onExhibit(msg.X, msg.Y)
	if d := wheel(msg); d != 0 {
		if onEx {
			return q.ex.Wheel(msg)
		}
		if msg.X < 0 || msg.Y < 0 || msg.Y >= q.h || (q.wide && msg.X >= q.colW) {
			return false
		}
		q.off += d * wheelLines
		q.clampOff()
		return true
	}
	if !leftClick(msg) || msg.Y < 0 || msg.Y >= q.h {
		return false
	}
	switch {
	case onEx && (!q.onEx || !q.exBig):
		q.onEx, q.exBig = true, true
	case !onEx && q.onEx && (!q.wide || msg.X < q.colW):
		q.onEx, q.exBig = false, false
	default:
		return false
	}
	q.setFocus()
	q.layout() // the exhibit box grows when focused (narrow)
	q.follow()
	return true
}

// mouse hands an event to the question below the head lines, unless a
// confirmation is asked.
func (m *session) mouse(msg tea.MouseMsg) {
	if m.confirm != confirmNone {
		return
	}
	msg.Y -= m.headLines()
	m.item().mouse(msg)
}

// mouse scrolls the overview, or hands the event to the answer shown.
func (m *examResults) mouse(msg tea.MouseMsg) {
	if m.page >= 0 {
		msg.Y -= m.headLines()
		m.item(m.page).mouse(msg)
		return
	}
	if d := wheel(msg); d != 0 {
		m.off = m.within(m.off + d*wheelLines)
	}
}

// mouse scrolls the results.
func (m *results) mouse(msg tea.MouseMsg) {
	if d := wheel(msg); d != 0 {
		m.off = max(min(m.off+d*wheelLines, len(m.lines)-m.h), 0)
	}
}
