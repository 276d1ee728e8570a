package quiz

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui/common"
)

// What the external tests (package quiz_test, which drive the root App)
// need of the page's internals.

// The page's screens, for type assertions on App.Top().
type (
	Session     = session
	ExamResults = examResults
	Results     = results
	Question    = question
)

// UseHooks makes the quiz screens load pool (nil: the real loader) and
// read now; noTick drops the exam clock's ticks (the test sends them
// with Session.Tick). The test's cleanup restores them.
func UseHooks(tb testing.TB, pool *qz.Pool, now func() time.Time, noTick bool) {
	tb.Helper()
	oldLoad, oldNow, oldTick := loadPool, timeNow, tick
	if pool != nil {
		loadPool = func(context.Context, *scenarios.Catalog, *qz.Bank) (*qz.Pool, error) { return pool, nil }
	}
	timeNow = now
	if noTick {
		tick = func(*session, int) tea.Cmd { return nil }
	}
	tb.Cleanup(func() { loadPool, timeNow, tick = oldLoad, oldNow, oldTick })
}

// LoadPool is the real pool loader (the built-in bank when bank is nil).
func LoadPool(ctx context.Context, cat *scenarios.Catalog, bank *qz.Bank) (*qz.Pool, error) {
	return loadPool(ctx, cat, bank)
}

// NewSession is a session screen on s, as a menu would open it.
func NewSession(c *common.Common, pool *qz.Pool, s *qz.Session) common.Screen {
	return newSession(c, pool, s, nil)
}

// NewQuestion is one question's view; reserved are the letters the
// screen keeps ("fs" in an exam).
func NewQuestion(c *common.Common, it *qz.Item, reserved string) *Question {
	return newQuestion(c, it, reserved)
}

// CommonOf is the Common a quiz screen was built on (the App's); nil for
// another screen.
func CommonOf(s common.Screen) *common.Common {
	switch s := s.(type) {
	case *Menu:
		return s.c
	case *session:
		return s.c
	case *examResults:
		return s.c
	case *results:
		return s.c
	case *nothing:
		return s.c
	}
	return nil
}

// AreaOf is the area a quiz screen was last given by SetSize.
func AreaOf(s common.Screen) (w, h int) {
	switch s := s.(type) {
	case *Menu:
		return s.w, s.h
	case *session:
		return s.w, s.h
	case *examResults:
		return s.w, s.h
	case *results:
		return s.w, s.h
	case *nothing:
		return s.w, s.h
	}
	return -1, -1
}

// Session is the session the screen runs.
func (m *session) Session() *qz.Session { return m.s }

// Cur is the index of the question shown.
func (m *session) Cur() int { return m.cur }

// Checked reports whether question i has been checked (practice).
func (m *session) Checked(i int) bool { return m.checked[i] }

// HasParent reports whether the session returns to a results screen.
func (m *session) HasParent() bool { return m.parent != nil }

// Confirming reports whether a submit or leave question is asked.
func (m *session) Confirming() bool { return m.confirm != confirmNone }

// HasExhibit reports whether the question shown has an exhibit pane.
func (m *session) HasExhibit() bool { return m.item().ex != nil }

// Tick is the exam clock's tick for the session's current generation.
func (m *session) Tick() tea.Msg { return tickMsg{owner: m, gen: m.gen} }

// Session is the submitted exam.
func (m *examResults) Session() *qz.Session { return m.s }

// TimeUp reports whether the clock handed the exam in.
func (m *examResults) TimeUp() bool { return m.timeUp }

// AnswerRow is the row of answers at width w.
func (m *examResults) AnswerRow(w int) string { return m.answerRow(w) }

// PracticeCount is the practice length the set-up shows and starts.
func (m *Menu) PracticeCount() int { return m.practiceCount() }

// ChooseKeys is the choice keys the short help names.
func (q *question) ChooseKeys() string { return q.chooseKeys() }

// ExhibitRows is the rows of the exhibit box in a narrow column.
func (q *question) ExhibitRows() int { return q.exH }

// Lines is the column's text rows (stem, prompts, choices and, revealed,
// explanations), without the exhibit.
func (q *question) Lines() []string { return q.lines }
