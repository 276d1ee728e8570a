package walkthrough

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

type tickMsg struct {
	owner *Model
	gen   int
}

// armTick schedules the timer's next second while the timer shows and
// runs; nil when one is already pending or nothing shows.
func (m *Model) armTick() tea.Cmd {
	if !m.timer || m.started.IsZero() || tickEvery <= 0 || m.ticking {
		return nil
	}
	m.ticking = true
	m.tickGen++
	owner, gen := m, m.tickGen
	return tea.Tick(tickEvery, func(time.Time) tea.Msg { return tickMsg{owner: owner, gen: gen} })
}

// clock is "12:30" for a duration (hours roll into minutes: "75:00").
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s < 0 {
		s = 0
	}
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}

// timerText is "⏱ 12:30 / 25:00": the time since the first click
// against the planned length, "⚠ 03:10 over" past it, and before the
// first click "⏱ 00:00 / 25:00 · starts at the first click".
func (m *Model) timerText() string {
	plan := time.Duration(m.w.Minutes) * time.Minute
	if m.started.IsZero() {
		return "⏱ 00:00 / " + clock(plan) + " · starts at the first click"
	}
	el := timeNow().Sub(m.started)
	s := "⏱ " + clock(el) + " / " + clock(plan)
	if over := el - plan; over >= time.Second {
		s += " ⚠ " + clock(over) + " over"
	}
	return s
}
