package quiz

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/common"
)

// pastExams lists the learner's last qz.KeptExams finished mock exams,
// newest first (date, score, number of questions, result); enter
// reopens the chosen one's results and answers, as they were handed in.
type pastExams struct {
	c      *common.Common
	keys   KeyMap
	pool   *qz.Pool
	exams  []qz.ExamRecord // newest first
	err    error
	cursor int
	w, h   int
	// rowAt is the exam each line of the last View shows (-1 for none),
	// for the mouse.
	rowAt []int
}

func newPastExams(c *common.Common, pool *qz.Pool) *pastExams {
	m := &pastExams{c: c, keys: DefaultKeyMap(), pool: pool}
	m.reload()
	return m
}

// reload reads the exams again (another exam may have been taken since).
func (m *pastExams) reload() {
	p, err := m.c.Progress.Load()
	m.exams, m.err = qz.RecentExams(p), err
	m.cursor = max(min(m.cursor, len(m.exams)-1), 0)
}

// Activate refreshes the list when the learner comes back to it.
func (m *pastExams) Activate() tea.Cmd {
	m.reload()
	return nil
}

func (m *pastExams) Init() tea.Cmd    { return nil }
func (m *pastExams) Crumb() string    { return "Past exams" }
func (m *pastExams) SetSize(w, h int) { m.w, m.h = w, h }

func (m *pastExams) ShortHelp() []key.Binding {
	if len(m.exams) == 0 {
		return nil
	}
	return []key.Binding{withHelp(m.c.Nav.Up, "↑/↓", "choose"), withHelp(m.keys.Open, "enter", "reopen")}
}

func (m *pastExams) FullHelp() [][]key.Binding {
	return [][]key.Binding{{withHelp(m.c.Nav.Up, "↑/↓", "choose an exam"), withHelp(m.c.Nav.Top, "g/G", "newest, oldest"),
		withHelp(m.keys.Open, "enter", fmt.Sprintf("reopen it, every answer explained (your last %d exams are kept)", qz.KeptExams)),
		withHelp(m.c.Keys.Back, "esc", "back to the menu")}}
}

func (m *pastExams) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	n := len(m.exams)
	switch msg := msg.(type) {
	case tea.MouseMsg:
		switch d := wheel(msg); {
		case d < 0:
			m.cursor = max(m.cursor-1, 0)
		case d > 0:
			m.cursor = max(min(m.cursor+1, n-1), 0)
		case leftClick(msg) && msg.Y >= 0 && msg.Y < len(m.rowAt) && m.rowAt[msg.Y] >= 0:
			if i := m.rowAt[msg.Y]; i != m.cursor {
				m.cursor = i
				return m, nil
			}
			return m, m.open()
		}
	case tea.KeyMsg:
		nav := m.c.Nav
		switch {
		case n == 0:
		case key.Matches(msg, nav.Up):
			m.cursor = max(m.cursor-1, 0)
		case key.Matches(msg, nav.Down):
			m.cursor = min(m.cursor+1, n-1)
		case key.Matches(msg, nav.Top):
			m.cursor = 0
		case key.Matches(msg, nav.Bottom):
			m.cursor = n - 1
		case key.Matches(msg, m.keys.Open):
			return m, m.open()
		}
	}
	return m, nil
}

// open reopens the chosen exam's results, its answers and explanations
// included, as they were when it was handed in.
func (m *pastExams) open() tea.Cmd {
	if m.cursor >= len(m.exams) {
		return nil
	}
	return reopenExam(m.c, m.pool, m.exams[m.cursor])
}

// reopenExam opens exam e's results again, its answers and explanations
// included, as they were when it was handed in; the status line says why
// when it cannot be replayed. An exam's results already open below go
// back there (common.StackKeyed).
func reopenExam(c *common.Common, pool *qz.Pool, e qz.ExamRecord) tea.Cmd {
	s, res, err := pool.ReplayExam(e)
	if err != nil {
		c.SetStatus(common.StatusWarn, "%v", err)
		return nil
	}
	return common.Send(common.NavMsg{Push: newExamResults(c, pool, s, res, e.TimedOut, e.At, true)})
}

// View implements tea.Model: a heading, then one line per exam.
func (m *pastExams) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.c.Styles
	var lines []string
	add := func(s string) { lines = append(lines, fit(s, m.w)) }
	add("")
	add(" " + st.Title.Render("Past exams") + st.Muted.Render(fmt.Sprintf(" · your last %d mock exams, newest first", qz.KeptExams)))
	for _, l := range wrap("enter reopens the one under ▸: its score by topic and every answer, each choice explained.", max(m.w-2, 10)) {
		add(" " + st.Muted.Render(l))
	}
	add("")
	if m.err != nil {
		for _, l := range wrap("✗ Your progress could not be read: "+m.err.Error(), max(m.w-2, 10)) {
			add(" " + st.Bad.Render(l))
		}
	}
	if len(m.exams) == 0 {
		for _, l := range wrap("No mock exam finished yet. Take one (Mock exam on the menu) and it is kept here.", max(m.w-4, 10)) {
			add("   " + st.Muted.Render(l))
		}
	}
	cursorRow := 0
	var rows []string
	var owner []int
	for i, e := range m.exams {
		lead, ds := "   ", st.Muted
		if i == m.cursor {
			lead, ds = " "+st.Cursor.Render("▸")+" ", st.Cursor
			cursorRow = len(rows)
		}
		res := st.Bad.Render("✗ not passed")
		if e.Passed {
			res = st.OK.Render("✓ passed")
		}
		score := fmt.Sprintf("%d/%d right (%d%%)", e.Correct, e.Questions, pct(e.Correct, e.Questions))
		line := lead + ds.Render(e.At.UTC().Format("2006-01-02 15:04")+" UTC") + "  " + st.Bold.Render(pad(score, 17)) + "  " + pad(res, 12) +
			"  " + st.Muted.Render(common.Plural(e.Questions, "question")+" · "+common.Clock(e.Seconds))
		if e.TimedOut {
			line += st.Muted.Render(" · time ran out")
		}
		if len(e.Items) == 0 {
			line += st.Muted.Render(" · answers not kept")
		}
		rows = append(rows, fit(line, m.w))
		owner = append(owner, i)
	}
	shown, at := common.ScrollRows(lines, rows, owner, cursorRow, m.h, 1)
	m.rowAt = at
	return strings.Join(shown, "\n")
}
