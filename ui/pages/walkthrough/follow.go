package walkthrough

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/ui/common"
)

// Class mode (`errorlab classroom`): a student's screen follows the
// walkthrough the teacher runs from the dashboard. The teacher moves the
// steps (common.RoomMsg); each step shows whole on the student's screen,
// to read at their own pace, but a question step, whose answer shows
// only when the teacher reveals it. On a question the student answers
// with the option's letter (or digit); another letter replaces the
// answer until the reveal. No link is opened, and the presenter's notes
// and timer are not the student's.

// answerBinding is the keys' help for answering in class mode (the
// letters are read by optionKey, as many as the question has options).
var answerBinding = key.NewBinding(key.WithKeys("a", "b", "c", "d"), key.WithHelp("a–d or 1–4", "answer a question (again: change it)"))

// NewFollow returns the presenting screen of walkthrough w for a
// student in class mode, at its first step: the room (c.Room) moves it.
func NewFollow(c *common.Common, w *wt.Walkthrough) *Model {
	m := New(c, w, false)
	m.follow = true
	return m
}

// Follows implements common.RoomFollower: the screen takes the room's
// moves within its walkthrough.
func (m *Model) Follows(it common.RoomItem) bool {
	return m.follow && it.Kind == common.RoomStep && it.Walkthrough == m.w.ID
}

// Following reports whether the screen follows the room (class mode).
func (m *Model) Following() bool { return m.follow }

// ReleaseRoom implements common.RoomReleaser: the teacher freed the
// room, so the walkthrough is the student's to move (space, ←) from the
// step it is on; it links to nothing.
func (m *Model) ReleaseRoom() bool {
	if !m.follow {
		return false
	}
	m.follow = false
	m.linkTried = true // a class session links to no other view
	m.arrange()
	return true
}

// onRoom moves the screen to the room's step: whole, or for a question
// the question until it is revealed and then its answer.
func (m *Model) onRoom(it common.RoomItem) tea.Cmd {
	if !m.Follows(it) || it.Seq < m.room.Seq {
		return nil
	}
	m.room = it
	if m.c.Status().Kind != common.StatusWarn {
		m.c.ClearStatus() // "your answer is in" is old news once the teacher moves
	}
	i := min(max(it.Step, 0), len(m.views)-1)
	part := -1
	if m.views[i].st.Kind == wt.KindQuestion {
		part = 0
		if it.Revealed {
			part = 1
		}
	}
	if m.started.IsZero() {
		m.started = timeNow()
	}
	return m.goTo(i, part)
}

// followKey is a key in class mode: scrolling, the keys, leaving and
// quitting work; an option's letter answers a question step; the moves
// are the teacher's.
func (m *Model) followKey(k tea.KeyMsg) tea.Cmd {
	km := m.KeyMap
	if i, ok := m.optionKey(k); ok {
		return m.answer(i)
	}
	switch {
	case key.Matches(k, km.Up):
		m.scroll(-1)
	case key.Matches(k, km.Down):
		m.scroll(1)
	case key.Matches(k, km.Focus):
		m.cycleFocus()
	case key.Matches(k, km.Help):
		m.showHelp = true
		m.arrange()
	case key.Matches(k, km.Leave):
		m.asking = askLeave
	case key.Matches(k, km.Quit):
		m.GuardQuit()
	default:
		m.c.SetStatus(common.StatusInfo, "the teacher moves this walkthrough: ↑/↓ scroll · tab pane · esc leaves")
	}
	return nil
}

// question is the current step's question when it is one that is shown
// and not yet answered by the reveal (nil otherwise).
func (m *Model) openQuestion() *stepView {
	v := m.views[m.step]
	if v.st.Kind != wt.KindQuestion || !v.loaded || v.err != nil || v.data.q == nil {
		return nil
	}
	return v
}

// optionKey maps a letter (or digit) to an option of the question on
// screen.
func (m *Model) optionKey(k tea.KeyMsg) (int, bool) {
	v := m.openQuestion()
	if v == nil {
		return 0, false
	}
	return common.OptionKey(k, len(v.data.q.Options))
}

// answer sends the student's choice to the room (a multi-select
// question toggles the option in the answer sent).
func (m *Model) answer(i int) tea.Cmd {
	v := m.openQuestion()
	if v == nil || m.c.Room == nil {
		return nil
	}
	key := common.StepKey(m.w.ID, m.step)
	choice := []int{i}
	if v.data.q.Multi {
		choice = common.ToggleChoice(m.c.Room.Answered(key), i)
		if len(choice) == 0 {
			m.c.SetStatus(common.StatusWarn, "a multi-choice answer needs at least one option: choose another before taking this one out")
			return nil
		}
	}
	if err := m.c.Room.Answer(key, choice); err != nil {
		m.c.SetStatus(common.StatusWarn, "your answer was not taken: %v", err)
		return nil
	}
	m.c.SetStatus(common.StatusOK, "your answer %s is in: another letter replaces it until the teacher reveals the answer", common.ChoiceLetters(choice))
	m.arrange()
	return nil
}

// myAnswer is the student's answer to the question step on screen, as
// a set of option indexes (empty outside class mode).
func (m *Model) myAnswer() map[int]bool {
	out := map[int]bool{}
	if !m.follow || m.c.Room == nil {
		return out
	}
	for _, i := range m.c.Room.Answered(common.StepKey(m.w.ID, m.step)) {
		out[i] = true
	}
	return out
}

// followFooter is the class-mode footer's left side.
func (m *Model) followFooter() string {
	st := m.c.Styles
	if v := m.openQuestion(); v != nil {
		mine := m.c.Room.Answered(common.StepKey(m.w.ID, m.step))
		switch {
		case m.part >= 1 && len(mine) > 0:
			if v.data.q.IsCorrect(mine) {
				return st.OK.Render("✓ you answered " + common.ChoiceLetters(mine) + ": right")
			}
			return st.Bad.Render("✗ you answered " + common.ChoiceLetters(mine) + "; the answer is " + common.ChoiceLetters(v.data.q.Correct()))
		case m.part >= 1:
			return st.Muted.Render("the answer is revealed · you did not answer")
		case len(mine) > 0:
			return st.Accent.Render("▷ your answer: " + common.ChoiceLetters(mine) + " · another letter replaces it until the reveal")
		}
		return st.Accent.Render("? answer with " + common.OptionRange(len(v.data.q.Options)) + " · you can change it until the teacher reveals")
	}
	return st.Muted.Render(fmt.Sprintf("step %d of %d · the teacher moves the steps", m.step+1, len(m.views)))
}
