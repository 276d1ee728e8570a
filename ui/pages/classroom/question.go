// Package classroom is the class run over SSH (`errorlab classroom`), as
// its two kinds of member see it: Question, a student's screen for a
// question the teacher sent the room (answer with a letter, change it
// until the reveal, then the answer with every option explained); and
// Dashboard, the teacher's: who is connected and where, the room's item
// with its live tally, and the keys that move the room, reveal and
// export. The room's state is ui/classroom/room; the SSH server that
// runs one app per student is ui/classroom.
package classroom

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
)

// QuestionKeyMap is the student's question screen's keys; the pane
// scrolls with the session's navigation keys.
type QuestionKeyMap struct {
	// Answer takes an option's letter or digit (as many as the question
	// has options); another one replaces the answer.
	Answer key.Binding
}

// DefaultQuestionKeyMap returns a–d and 1–4.
func DefaultQuestionKeyMap() QuestionKeyMap {
	return QuestionKeyMap{Answer: key.NewBinding(key.WithKeys("a", "b", "c", "d", "1", "2", "3", "4"),
		key.WithHelp("a–d", "answer (again: change it)"))}
}

// Question is a student's screen for a question of the bank the teacher
// sent the room to (common.RoomQuestion).
type Question struct {
	// KeyMap is the screen's own keys.
	KeyMap QuestionKeyMap

	c    *common.Common
	item common.RoomItem
	q    *quiz.Question
	pane *pane.Model
	w, h int
	// answerRows are the pane's rows of the first right option and the
	// end of its explanation, once revealed (-1: not laid out).
	answerRows [2]int
}

// NewQuestion returns the screen for room item it, question q.
func NewQuestion(c *common.Common, it common.RoomItem, q *quiz.Question) *Question {
	m := &Question{KeyMap: DefaultQuestionKeyMap(), c: c, item: it, q: q, pane: pane.New(c)}
	m.pane.SetFocused(true)
	m.build()
	return m
}

// Init implements tea.Model.
func (m *Question) Init() tea.Cmd { return nil }

// Crumb implements common.Screen.
func (m *Question) Crumb() string { return "Question from the teacher" }

// Follows implements common.RoomFollower: the screen takes the reveal of
// its own question.
func (m *Question) Follows(it common.RoomItem) bool {
	return it.Kind == common.RoomQuestion && it.Key == m.item.Key
}

// Item is the room item shown.
func (m *Question) Item() common.RoomItem { return m.item }

// SetSize implements common.Screen.
func (m *Question) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.pane.SetSize(m.w, max(m.h-2, 0))
	if m.item.Revealed && m.pane.Viewport().YOffset == 0 {
		m.showAnswer()
	}
}

// Activate implements common.Activator: back on top, the answer as the
// room has it now.
func (m *Question) Activate() tea.Cmd {
	if it, ok := m.room().Current(); ok && m.Follows(it) && it.Seq >= m.item.Seq {
		m.item = it
	}
	m.build()
	return nil
}

// ShortHelp implements help.KeyMap.
func (m *Question) ShortHelp() []key.Binding {
	if m.item.Revealed {
		return []key.Binding{m.c.Nav.Up, m.c.Nav.Down}
	}
	return []key.Binding{m.answerHelp(), m.c.Nav.Up, m.c.Nav.Down}
}

// FullHelp implements help.KeyMap.
func (m *Question) FullHelp() [][]key.Binding {
	return [][]key.Binding{{m.answerHelp()}, {m.c.Nav.Up, m.c.Nav.Down, m.c.Nav.PageUp, m.c.Nav.PageDown, m.c.Nav.Top, m.c.Nav.Bottom}}
}

func (m *Question) answerHelp() key.Binding {
	b := m.KeyMap.Answer
	b.SetHelp(strings.ToLower(common.OptionRange(len(m.q.Options))), "answer (again: change it)")
	return b
}

// Update implements tea.Model.
func (m *Question) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RoomMsg:
		if m.Follows(msg.Item) && msg.Item.Seq >= m.item.Seq {
			again := msg.Item.Round != m.item.Round
			revealed := msg.Item.Revealed && (!m.item.Revealed || again)
			m.item = msg.Item
			m.build()
			switch {
			case revealed:
				m.c.SetStatus(common.StatusInfo, "the teacher revealed the answer")
				m.showAnswer()
			case again:
				// Each send is a poll of its own: answer afresh.
				m.c.SetStatus(common.StatusInfo, "the teacher asks this question again: a new poll, answer afresh")
				m.pane.Viewport().GotoTop()
			}
		}
	case tea.KeyMsg:
		if i, ok := common.OptionKey(msg, len(m.q.Options)); ok {
			m.answer(i)
			return m, nil
		}
		m.pane.Scroll(m.c.Nav, msg)
	case tea.MouseMsg:
		m.pane.Wheel(msg)
	}
	return m, nil
}

// room is the session's room, or one that has nothing (a screen shown
// outside a class, in tests).
func (m *Question) room() common.Room {
	if m.c.Room != nil {
		return m.c.Room
	}
	return noRoom{}
}

// answer sends option i to the room: the answer, or for a multi-choice
// question the answer with i added or taken out.
func (m *Question) answer(i int) {
	if m.item.Revealed {
		m.c.SetStatus(common.StatusInfo, "the answer is revealed: answers are closed")
		return
	}
	choice := []int{i}
	if m.q.Multi {
		choice = common.ToggleChoice(m.room().Answered(m.item.Key), i)
		if len(choice) == 0 {
			m.c.SetStatus(common.StatusWarn, "an answer needs at least one option: choose another before taking this one out")
			return
		}
	}
	if err := m.room().Answer(m.item.Key, choice); err != nil {
		m.c.SetStatus(common.StatusWarn, "your answer was not taken: %v", err)
		return
	}
	m.c.SetStatus(common.StatusOK, "your answer %s is in · another letter replaces it until the teacher reveals the answer", common.ChoiceLetters(choice))
	m.build()
}

// build lays the question out in the pane.
func (m *Question) build() {
	st := m.c.Styles
	q := m.q
	revealed := m.item.Revealed
	mine := map[int]bool{}
	for _, i := range m.room().Answered(m.item.Key) {
		mine[i] = true
	}
	right := map[int]bool{}
	for _, i := range q.Correct() {
		right[i] = true
	}
	title := "? A question from the teacher"
	if revealed {
		title = "✓ The answer: " + common.ChoiceLetters(q.Correct())
	}
	m.answerRows = [2]int{-1, -1}
	m.pane.SetBuild(title, "", func(w int) string {
		w = max(w-1, 1)
		out := common.WrapLines(st.Title, common.OneLineText(q.Stem), w)
		if q.Multi {
			out = append(out, st.Muted.Render("Choose every option that applies: a letter adds or takes out an option."))
		}
		out, m.answerRows = common.OptionRows(out, st, q.Options, mine, right, revealed, w)
		return strings.Join(out, "\n")
	})
}

// showAnswer scrolls the pane so the (first) right option and its
// explanation are in view, from the top when everything fits.
func (m *Question) showAnswer() {
	common.ShowRows(m.pane.Viewport(), m.answerRows)
}

// View implements tea.Model: a line saying where the answer stands, the
// pane, and a line on how answers count.
func (m *Question) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.c.Styles
	mine := m.room().Answered(m.item.Key)
	var head string
	switch {
	case m.item.Revealed && len(mine) == 0:
		head = st.Muted.Render("The answer is revealed · you did not answer this one")
	case m.item.Revealed && m.q.IsCorrect(mine):
		head = st.OK.Render("✓ You answered " + common.ChoiceLetters(mine) + ": right")
	case m.item.Revealed:
		head = st.Bad.Render("✗ You answered " + common.ChoiceLetters(mine) + " · the answer is " + common.ChoiceLetters(m.q.Correct()))
	case len(mine) > 0:
		head = st.Accent.Render("▷ Your answer: " + common.ChoiceLetters(mine) + " · the teacher sees it in the room's tally")
	default:
		head = st.Accent.Render(fmt.Sprintf("? Answer with a letter, %s", common.OptionRange(len(m.q.Options))))
	}
	foot := st.Muted.Render("Another letter replaces your answer until the teacher reveals it.")
	if m.item.Revealed {
		foot = st.Muted.Render("Revealed by the teacher: every option is explained above.")
	}
	lines := []string{head}
	lines = append(lines, strings.Split(m.pane.View(), "\n")...)
	lines = append(lines, foot)
	return strings.Join(common.FitLines(lines, m.w, m.h), "\n")
}

// noRoom is the room of a screen shown outside a class: it takes no
// answer.
type noRoom struct{}

func (noRoom) Student() string                  { return "" }
func (noRoom) Current() (common.RoomItem, bool) { return common.RoomItem{}, false }
func (noRoom) Answer(string, []int) error       { return fmt.Errorf("this session is not in a class") }
func (noRoom) Answered(string) []int            { return nil }
func (noRoom) Poll(string) common.Poll          { return common.Poll{} }
func (noRoom) Where(string)                     {}
