package agents

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/components/timeline"
)

// spot is a pane as View draws it: its top-left cell in the page's area,
// the timeline it belongs to (nil for a plain pane) and the focus target a
// click on it selects in the current mode.
type spot struct {
	x, y   int
	p      *pane.Model
	tl     *timeline.Model
	target int
}

// spots lists the panes of the current mode where View puts them: below
// the header, a pair side by side (or stacked), then the summary or the
// coordinator's decision. Panes of no height are not drawn.
func (m *Model) spots() []spot {
	var out []spot
	y := m.headerH
	pair := func(a, b spot) {
		if m.stacked {
			for _, s := range []spot{a, b} {
				if h := s.p.Height(); h > 0 {
					s.y = y
					out = append(out, s)
					y += h
				}
			}
			return
		}
		if a.p.Height() > 0 {
			a.y, b.x, b.y = y, a.p.Width(), y
			out = append(out, a, b)
			y += max(a.p.Height(), b.p.Height())
		}
	}
	below := func(s spot) {
		if s.p.Height() > 0 {
			s.y = y
			out = append(out, s)
		}
	}
	switch m.mode {
	case modeExpanded:
		pair(spot{p: m.exp[0], target: 0}, spot{p: m.exp[1], target: 1})
	case modeSubagent:
		pair(spot{p: m.sub.Pane(), tl: m.sub, target: subFocusTimeline}, spot{p: m.report, target: subFocusReport})
		below(spot{p: m.decision, target: subFocusDecision})
	default:
		n, i := m.sides[sideNaive], m.sides[sideInformed]
		pair(spot{p: n.Pane(), tl: n, target: sideNaive}, spot{p: i.Pane(), tl: i, target: sideInformed})
		below(spot{p: m.summary, target: focusSummary})
	}
	return out
}

// mouse handles a press of the mouse, at cells relative to the page's
// top-left corner: the wheel scrolls the pane under the pointer (a
// timeline scrolls without moving its cursor) and a left click focuses
// it. It reports whether anything changed.
func (m *Model) mouse(msg tea.MouseMsg) bool {
	if msg.Action != tea.MouseActionPress {
		return false
	}
	for _, s := range m.spots() {
		if !s.p.Contains(msg.X-s.x, msg.Y-s.y) {
			continue
		}
		switch {
		case msg.Button == tea.MouseButtonLeft:
			m.focusOn(s.target)
			return true
		case s.tl != nil:
			return s.tl.Wheel(msg)
		default:
			return s.p.Wheel(msg)
		}
	}
	return false
}

// focusOn focuses target in the current mode, as tab would.
func (m *Model) focusOn(target int) {
	switch m.mode {
	case modeExpanded:
		m.setExpFocus(target)
	case modeSubagent:
		m.setSubFocus(target)
	default:
		m.setFocus(target)
	}
}
