// Package quiz is the practice & exam page: the menu (menu.go), a
// session in practice, review or exam mode (this file; one question at a
// time with quizitem.go), the exam's results and the learner's results
// (results.go). The screens move between each other with common.NavMsg;
// the root opens the menu with NewMenu. The domain package
// github.com/errorlab/errorlab/quiz (questions, sessions, scores) is
// imported as qz.
package quiz

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui/common"
)

// Start opens the app directly in a quiz session (`errorlab quiz`): the
// menu starts it as soon as the questions are ready.
type Start struct {
	Mode     qz.Mode
	Topic    string  // "" = every topic
	Count    int     // 0 = the mode's default
	Minutes  int     // exam time limit; 0 = 90 s per question
	Seed     uint64  // 0 = from the clock
	PassMark float64 // exam pass line as a fraction; 0 = qz.DefaultPassMark
}

// loadPool builds the pool of questions and drills for a catalogue;
// tests replace it with a smaller pool.
var loadPool = func(ctx context.Context, cat *scenarios.Catalog, bank *qz.Bank) (*qz.Pool, error) {
	if bank == nil {
		var err error
		if bank, err = qz.DefaultBank(); err != nil {
			return nil, err
		}
	}
	return qz.LoadPool(ctx, bank, cat)
}

// timeNow is the quiz screens' clock; tests replace it.
var timeNow = time.Now

// tick is the exam clock's heartbeat, a variable so tests can drive it.
var tick = func(owner *session, gen int) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{owner: owner, gen: gen} })
}

// startQuiz opens a session: a session, or the friendly "nothing to
// review" screen. parent, when set, is the results screen that asked
// (practise a weak topic); the session returns to it at the end.
func startQuiz(c *common.Common, pool *qz.Pool, o qz.Options, parent *results) (common.Screen, error) {
	var prog *qz.Progress
	if o.Mode == qz.Review {
		p, err := c.Progress.Load()
		if err != nil {
			c.SetStatus(common.StatusWarn, "your progress could not be read: %v", err)
		}
		prog = p
	}
	s, err := qz.NewSession(pool, prog, o, timeNow())
	if errors.Is(err, qz.ErrNothingToReview) {
		return newNothing(c, pool), nil
	}
	if err != nil {
		return nil, err
	}
	if len(s.Items) == 0 {
		return nil, errors.New("no questions to ask: the pool is empty")
	}
	// Never silently shorter than asked for: the session's head says
	// so (Session.Shortfall) for as long as it runs.
	return newSession(c, pool, s, parent), nil
}

// confirm dialogs of an exam.
const (
	confirmNone = iota
	confirmSubmit
	confirmLeave
)

// session runs a practice, review or exam session.
type session struct {
	c      *common.Common
	keys   KeyMap
	pool   *qz.Pool
	s      *qz.Session
	parent *results
	items  []*question // built when first shown
	cur    int
	now    func() time.Time
	w, h   int

	// Practice and review.
	checked      []bool
	right, wrong int

	// Exam.
	confirm int
	gen     int
	// quitAfter: the leave question came from q, so leaving quits.
	quitAfter bool
}

func newSession(c *common.Common, pool *qz.Pool, s *qz.Session, parent *results) *session {
	m := &session{c: c, keys: DefaultKeyMap(), pool: pool, s: s, parent: parent, now: timeNow,
		items: make([]*question, len(s.Items)), checked: make([]bool, len(s.Items))}
	m.item() // the first item, so a size can reach it
	return m
}

func (m *session) exam() bool { return m.s.Mode == qz.Exam }

// item returns the current item's view, building it on first use.
func (m *session) item() *question {
	if m.items[m.cur] == nil {
		reserved := ""
		if m.exam() {
			reserved = "fs"
		}
		q := newQuestion(m.c, m.s.Items[m.cur], reserved)
		if reserved != "" {
			q.reservedWhy = "f flags and s submits"
		}
		if a := m.s.Answers[m.cur]; a != nil {
			q.SetAnswer(a)
		}
		q.SetSize(m.itemSize())
		m.items[m.cur] = q
	}
	return m.items[m.cur]
}

func (m *session) Init() tea.Cmd { return nil }

func (m *session) Crumb() string {
	switch m.s.Mode {
	case qz.Exam:
		return "Mock exam"
	case qz.Review:
		return "Review"
	}
	if m.s.Topic != "" {
		return "Practice: " + qz.TopicTitle(m.s.Topic)
	}
	return "Practice"
}

// headLines is the rows above the item: the question line, the verdict or
// navigator line, and a gap when there is room, or the shortfall.
func (m *session) headLines() int {
	if m.h >= 24 || m.s.Shortfall() != "" {
		return 3
	}
	return 2
}

func (m *session) itemSize() (int, int) { return m.w, max(m.h-m.headLines(), 1) }

func (m *session) SetSize(w, h int) {
	m.w, m.h = w, h
	for _, q := range m.items {
		if q != nil {
			q.SetSize(m.itemSize())
		}
	}
}

// Activate starts the exam clock.
func (m *session) Activate() tea.Cmd {
	if !m.exam() || m.s.Submitted {
		return nil
	}
	m.gen++
	return tick(m, m.gen)
}

// Close stops the exam clock.
func (m *session) Close() { m.gen++ }

// Capturing is true while a confirmation asks: every key answers it.
func (m *session) Capturing() bool { return m.confirm != confirmNone }

// Back asks before abandoning an exam.
func (m *session) Back() bool {
	if m.exam() && !m.s.Submitted {
		m.confirm, m.quitAfter = confirmLeave, false
		return true
	}
	return false
}

// GuardQuit asks before q throws a running exam away, as esc does.
func (m *session) GuardQuit() bool {
	if m.exam() && !m.s.Submitted {
		m.confirm, m.quitAfter = confirmLeave, true
		return true
	}
	return false
}

func withHelp(b key.Binding, k, desc string) key.Binding {
	b.SetHelp(k, desc)
	return b
}

func (m *session) ShortHelp() []key.Binding {
	k := m.keys
	if m.confirm != confirmNone {
		if m.confirm == confirmSubmit {
			return []key.Binding{withHelp(k.Confirm, "y/enter", "submit"), withHelp(k.Cancel, "n/esc", "keep working")}
		}
		// Only y throws the exam away: enter stays, so an enter meant
		// for the exam cannot discard it.
		if m.quitAfter {
			return []key.Binding{withHelp(k.Submit, "s", "hand in and quit"), withHelp(k.Discard, "y", "leave, discard and quit"), withHelp(k.Cancel, "n/esc/enter", "stay")}
		}
		return []key.Binding{withHelp(k.Submit, "s", "hand in and leave"), withHelp(k.Discard, "y", "leave and discard"), withHelp(k.Cancel, "n/esc/enter", "stay")}
	}
	q := m.item()
	item := q.ShortHelp()
	switch {
	case m.exam():
		// choose (and toggle) first, then moving, flag, submit, then tab.
		var head, tail []key.Binding
		for _, b := range item {
			if b.Help().Key == "tab" {
				tail = append(tail, b)
			} else {
				head = append(head, b)
			}
		}
		return append(append(head, withHelp(k.Prev, "←/→", "question"), k.Flag, k.Submit), tail...)
	case m.checked[m.cur]:
		next := k.Next
		if m.cur == len(m.s.Items)-1 {
			next = withHelp(k.Next, "n", "finish")
		}
		return append([]key.Binding{next}, item...)
	}
	return append(item, k.Check)
}

func (m *session) FullHelp() [][]key.Binding {
	k := m.keys
	answer := m.item().FullHelp()[0]
	if m.exam() {
		return [][]key.Binding{answer, {withHelp(k.Check, "enter", "next question"), k.Prev, k.Forward,
			withHelp(k.Flag, "f", "flag/unflag"), k.Submit, withHelp(m.c.Keys.Back, "esc", "leave (asks first)")}}
	}
	check := k.Check
	if m.checked[m.cur] {
		// Checked: enter does nothing more, so a second one cannot skip
		// the explanation; n moves on.
		check = withHelp(k.Check, "enter", "check (n moves on)")
	}
	return [][]key.Binding{answer, {check, withHelp(k.Next, "n", "next question, once checked"), withHelp(m.c.Keys.Back, "esc", "leave (answers are kept)")}}
}

func (m *session) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tickMsg:
		if msg.owner != m || msg.gen != m.gen || m.s.Submitted {
			return m, nil
		}
		if m.s.Remaining(m.now()) <= 0 {
			return m, m.submit(true)
		}
		return m, tick(m, m.gen)
	case tea.KeyMsg:
		return m, m.key(msg)
	case tea.MouseMsg:
		m.mouse(msg)
	}
	return m, nil
}

func (m *session) key(k tea.KeyMsg) tea.Cmd {
	keys := m.keys
	if m.confirm != confirmNone {
		switch {
		case m.confirm == confirmLeave && !key.Matches(k, keys.Discard) && !key.Matches(k, keys.Submit):
			// Enter (or n, esc) stays: only y discards an exam.
			if key.Matches(k, keys.Cancel) || key.Matches(k, keys.Check) {
				m.confirm, m.quitAfter = confirmNone, false
			}
			return nil
		case key.Matches(k, keys.Confirm):
			what := m.confirm
			m.confirm = confirmNone
			if what == confirmSubmit {
				return m.submit(false)
			}
			m.gen++
			if m.quitAfter {
				return tea.Quit
			}
			m.c.SetStatus(common.StatusWarn, "exam abandoned: nothing was recorded")
			return common.Send(common.NavMsg{Pop: true})
		case m.confirm == confirmLeave && key.Matches(k, keys.Submit):
			// Hand in what is answered (scored and saved), then leave.
			m.confirm = confirmNone
			cmd := m.submit(false)
			if m.quitAfter {
				return tea.Sequence(cmd, tea.Quit)
			}
			return cmd
		case key.Matches(k, keys.Cancel):
			m.confirm, m.quitAfter = confirmNone, false
		}
		return nil
	}
	q := m.item()
	if m.exam() {
		switch {
		case key.Matches(k, keys.Prev):
			m.goTo(m.cur - 1)
			return nil
		case key.Matches(k, keys.Forward):
			if m.cur == len(m.s.Items)-1 {
				// → stops at the last question: a few presses of → and
				// then enter (to choose) must not hand the exam in.
				m.c.SetStatus(common.StatusInfo, "this is the last question: s hands the exam in")
				return nil
			}
			m.goTo(m.cur + 1)
			return nil
		case key.Matches(k, keys.Flag):
			m.s.ToggleFlag(m.cur)
			if m.s.Flags[m.cur] {
				msg := "⚑ question %d flagged for a second look"
				if q.choices() > 5 {
					msg += " (choice F is key 6)"
				}
				m.c.SetStatus(common.StatusInfo, msg, m.cur+1)
			} else {
				m.c.SetStatus(common.StatusInfo, "question %d unflagged", m.cur+1)
			}
			return nil
		case key.Matches(k, keys.Submit):
			m.confirm = confirmSubmit
			return nil
		case key.Matches(k, keys.Next):
			// n is practice's "next" after a verdict: say what moves here.
			m.c.SetStatus(common.StatusInfo, "no verdicts until you hand it in: → or enter goes to the next question, s hands the exam in")
			return nil
		case key.Matches(k, keys.Check):
			if m.cur == len(m.s.Items)-1 {
				m.confirm = confirmSubmit
			} else {
				m.goTo(m.cur + 1)
			}
			return nil
		}
		q.Update(k)
		if q.changed {
			if _, err := m.s.Answer(m.cur, q.Answer()); err != nil {
				m.c.SetStatus(common.StatusError, "%v", err)
			}
		}
		return nil
	}
	// Practice and review.
	if m.checked[m.cur] {
		switch {
		case key.Matches(k, keys.Next):
			return m.next()
		case key.Matches(k, keys.Check):
			// Only n moves on: a second enter, one press too many after
			// the check, must not skip the explanation just given.
			m.c.SetStatus(common.StatusInfo, "checked: n for %s (enter does not move on)", m.nextWhat())
			return nil
		}
		q.Update(k)
		return nil
	}
	switch {
	case key.Matches(k, keys.Check):
		m.check()
		return nil
	case key.Matches(k, keys.Next):
		// n moves on only after the verdict: say so, not nothing.
		m.c.SetStatus(common.StatusInfo, "answer this one first: pick, then enter checks it; n moves on after the verdict")
		return nil
	}
	q.Update(k)
	return nil
}

// nextWhat is where n goes after the verdict: "the next question", or
// "your results" on the last.
func (m *session) nextWhat() string {
	if m.cur == len(m.s.Items)-1 {
		return "your results"
	}
	return "the next question"
}

// goTo shows item i (exam: free movement).
func (m *session) goTo(i int) {
	if i < 0 || i >= len(m.s.Items) {
		return
	}
	m.cur = i
	m.item()
}

// check gives the verdict on the current item and records it.
func (m *session) check() {
	q := m.item()
	if p := q.firstEmpty(); p >= 0 {
		what := "Pick an answer first"
		if len(q.it.Parts) > 1 {
			what = fmt.Sprintf("Part %d has no answer yet", p+1)
		}
		m.c.SetStatus(common.StatusWarn, "%s: a letter or a digit picks, then enter checks", what)
		q.FocusPart(p)
		return
	}
	ok, err := m.s.Answer(m.cur, q.Answer())
	if err != nil {
		m.c.SetStatus(common.StatusError, "%v", err)
		return
	}
	m.checked[m.cur] = true
	if ok {
		m.right++
	} else {
		m.wrong++
	}
	q.Reveal()
	it := m.s.Items[m.cur]
	if err := m.c.Progress.RecordItem(it.ID, it.Topic, ok, m.now()); err != nil {
		m.c.SetStatus(common.StatusWarn, "your answer was not saved: %v", err)
	}
	m.c.AfterWrite()
}

// next moves on, or ends the session with the results.
func (m *session) next() tea.Cmd {
	if m.cur < len(m.s.Items)-1 {
		m.cur++
		m.item()
		return nil
	}
	res := m.s.Score(m.now())
	word := "Practice"
	if m.s.Mode == qz.Review {
		word = "Review"
	}
	banner := fmt.Sprintf("%s done: %d of %d right (%d%%).", word, res.Correct, res.Total, pct(res.Correct, res.Total))
	ok := res.Correct == res.Total
	if m.parent != nil {
		m.parent.banner, m.parent.bannerOK = banner, ok
		return common.Send(common.NavMsg{Pop: true})
	}
	r := newResults(m.c, m.pool)
	r.banner, r.bannerOK = banner, ok
	return common.Send(common.NavMsg{Push: r, Replace: true})
}

// submit hands the exam in: every item and the exam are recorded, then
// the exam's results replace the session.
func (m *session) submit(timeUp bool) tea.Cmd {
	if m.s.Submitted {
		return nil
	}
	now := m.now()
	unanswered, partly := m.incomplete()
	m.s.Submitted = true
	m.gen++
	res := m.s.Score(now)
	var errs []string
	for i, it := range m.s.Items {
		if err := m.c.Progress.RecordItem(it.ID, it.Topic, it.Check(m.s.Answers[i]), now); err != nil {
			errs = append(errs, err.Error())
			break
		}
	}
	if err := m.c.Progress.RecordExam(m.s.ExamRecord(res, now)); err != nil {
		errs = append(errs, err.Error())
	}
	var notes []string
	kind := common.StatusInfo
	if timeUp {
		kind = common.StatusWarn
		n := "Time is up: the exam was handed in"
		switch {
		case len(unanswered) > 0 && len(partly) > 0:
			n += fmt.Sprintf(" with %d unanswered and %d partly answered (they count as wrong)", len(unanswered), len(partly))
		case len(unanswered) > 0:
			n += fmt.Sprintf(" with %d unanswered (they count as wrong)", len(unanswered))
		case len(partly) > 0:
			n += fmt.Sprintf(" with %d partly answered (they count as wrong)", len(partly))
		}
		notes = append(notes, n)
	}
	if len(errs) > 0 {
		kind = common.StatusWarn
		notes = append(notes, "the exam was not saved: "+strings.Join(errs, "; "))
	}
	if len(notes) > 0 {
		m.c.SetStatus(kind, "%s", strings.Join(notes, " · "))
	}
	m.c.AfterWrite()
	return common.Send(common.NavMsg{Push: newExamResults(m.c, m.pool, m.s, res, timeUp, now, false), Replace: true})
}

func (m *session) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.c.Styles
	q := m.item()
	it := m.s.Items[m.cur]
	left := " " + st.Title.Render(fmt.Sprintf("Question %d of %d", m.cur+1, len(m.s.Items)))
	if m.exam() && m.s.Flags[m.cur] {
		left += " " + st.Warn.Render("⚑ flagged")
	}
	left += st.Muted.Render(m.topicLabel(it))
	right := ""
	if m.exam() {
		right = m.timer()
	} else if m.right+m.wrong > 0 {
		right = st.OK.Render(fmt.Sprintf("✓ %d", m.right)) + " " + st.Bad.Render(fmt.Sprintf("✗ %d", m.wrong)) + " "
	}
	lines := []string{common.JoinEnds(left, right, m.w)}
	if m.exam() {
		lines = append(lines, m.navigator())
	} else {
		lines = append(lines, m.verdictLine())
	}
	if short := m.s.Shortfall(); short != "" {
		// Fewer than asked for: said for the whole session, as the
		// Markdown of `questions exam` says it (the status line is gone
		// at the next key).
		lines = append(lines, fit(" "+m.c.Styles.Muted.Render(short+"."), m.w))
	} else if m.headLines() == 3 {
		lines = append(lines, "")
	}
	if m.confirm != confirmNone {
		lines = append(lines, m.confirmView()...)
	} else {
		lines = append(lines, q.View())
	}
	return strings.Join(lines, "\n")
}

// topicLabel is " · topic · drill: kind" for the question line. A
// spot-the-defects drill takes its topic from the defects it holds (a
// leak makes it "What is safe to show the model"), so until it is
// answered and checked the line names the kind alone: the topic would
// hand over the answer.
func (m *session) topicLabel(it *qz.Item) string {
	if it.Kind == qz.KindSpotDefects && !m.revealed() {
		return kindLabel(it.Kind)
	}
	return " · " + qz.TopicTitle(it.Topic) + kindLabel(it.Kind)
}

// revealed reports whether the current item's answer has been shown
// (checked in practice, or a submitted exam).
func (m *session) revealed() bool { return m.checked[m.cur] || m.s.Submitted }

func kindLabel(k qz.Kind) string {
	switch k {
	case qz.KindClassify:
		return " · drill: classify"
	case qz.KindNextAction:
		return " · drill: next action"
	case qz.KindSpotDefects:
		return " · drill: spot the defects"
	}
	return ""
}

// timer is the exam's countdown; it turns to a warning in the last minute.
func (m *session) timer() string {
	st := m.c.Styles
	left := m.s.Remaining(m.now())
	secs := int((left + time.Second - 1) / time.Second)
	text := fmt.Sprintf("time left %d:%02d ", secs/60, secs%60)
	switch {
	case secs <= 0:
		return st.Bad.Render("✗ " + text)
	case secs <= 60:
		return st.Warn.Render("⚠ " + text)
	}
	return st.Bold.Render(text)
}

// verdictLine is, in practice, the instruction before the check and the
// verdict after it.
func (m *session) verdictLine() string {
	st := m.c.Styles
	q := m.item()
	if !m.checked[m.cur] {
		text := "Pick your answer, then enter to check it."
		if len(q.it.Parts) > 1 {
			text = fmt.Sprintf("Answer all %d parts (tab moves between them), then enter to check.", len(q.it.Parts))
		} else if q.multi() {
			text = "Pick every answer that applies, then enter to check."
		}
		return fit(" "+st.Muted.Render(text), m.w)
	}
	it := m.s.Items[m.cur]
	a := m.s.Answers[m.cur]
	next := "n: next question"
	if m.cur == len(m.s.Items)-1 {
		next = "n: see your results"
	}
	if it.Check(a) {
		return fit(" "+st.OK.Render("✓ Right.")+" "+st.Muted.Render("Every choice is explained below · "+next), m.w)
	}
	return fit(" "+st.Bad.Render("✗ Not right.")+" "+st.Plain.Render(rightAnswer(it))+st.Muted.Render(" · "+next), m.w)
}

// rightAnswer names the right letters: "The answer is B.", "The answers
// are A, C.", or per part for a drill with several.
func rightAnswer(it *qz.Item) string {
	letters := func(p qz.Part) string {
		var ls []string
		for _, i := range p.CorrectSet() {
			ls = append(ls, qz.Letter(i))
		}
		sep := ", "
		if p.AnyOf {
			sep = " or "
		}
		return strings.Join(ls, sep)
	}
	if len(it.Parts) == 1 {
		p := it.Parts[0]
		if p.Multi {
			return "The answers are " + letters(p) + "."
		}
		return "The answer is " + letters(p) + "."
	}
	var per []string
	for i, p := range it.Parts {
		per = append(per, fmt.Sprintf("%d: %s", i+1, letters(p)))
	}
	return "Right answers: " + strings.Join(per, " · ") + "."
}

// partlyAnswered reports whether a has picks in some of the item's
// parts but not in all of them (a drill with several parts).
func partlyAnswered(it *qz.Item, a qz.Answer) bool {
	if it.Complete(a) {
		return false
	}
	for _, c := range a {
		if len(c) > 0 {
			return true
		}
	}
	return false
}

// incomplete splits the items not fully answered: nothing picked, and
// partly answered (0-based).
func (m *session) incomplete() (unanswered, partly []int) {
	for _, i := range m.s.Unanswered() {
		if partlyAnswered(m.s.Items[i], m.s.Answers[i]) {
			partly = append(partly, i)
		} else {
			unanswered = append(unanswered, i)
		}
	}
	return unanswered, partly
}

// navigator is the exam's row of questions: answered ●, partly ◐, not
// yet ○, flagged ⚑, the current one in brackets; then Submit.
func (m *session) navigator() string {
	st := m.c.Styles
	n := len(m.s.Items)
	anyPartly := false
	cell := func(i int, withNum bool) string {
		sym := "○"
		symSt := st.Muted
		switch {
		case m.s.Items[i].Complete(m.s.Answers[i]):
			sym, symSt = "●", st.Accent
		case partlyAnswered(m.s.Items[i], m.s.Answers[i]):
			sym, symSt = "◐", st.Accent
			anyPartly = true
		}
		text := sym
		if withNum {
			text = fmt.Sprint(i+1) + sym
		}
		styled := symSt.Render(text)
		if m.s.Flags[i] {
			styled += st.Warn.Render("⚑")
		}
		if i == m.cur {
			return st.Cursor.Render("[") + styled + st.Cursor.Render("]")
		}
		return styled
	}
	submit := st.ChipKey.Render("s") + st.Muted.Render(" submit")
	submitW := 8
	for i := range n {
		cell(i, false) // sets anyPartly
	}
	legend := st.Muted.Render("   ● answered  ○ not yet  ⚑ flagged")
	if anyPartly {
		legend = st.Muted.Render("   ● answered  ◐ partly  ○ not yet  ⚑ flagged")
	}
	// Every question numbered; else numbered every 5 or 10 (and the
	// current one), so the row still says where the learner is, with
	// "s submit" beside it. Never bare symbols: they hide which question
	// is the current one; a numbered window below does not.
	for _, step := range stripSteps {
		if step == 0 {
			break
		}
		row := " " + stripRow(n, m.cur, step, cell)
		rw := ansi.StringWidth(row)
		switch {
		case rw+2+submitW+ansi.StringWidth(legend) <= m.w:
			return row + "  " + submit + legend
		case rw+2+submitW <= m.w:
			return row + "  " + submit
		}
	}
	// Too many for one row: a window around the current question, as
	// wide as the row allows beside "s submit". Numbers inside it (its
	// first cell, every 10th and the current one) say where it is; "1 …"
	// before it and "… n" after it say questions lie off the strip, so
	// the last number shown is always the exam's last question.
	// The legend too when it leaves the window 40 cells or more.
	room := m.w - 3 - submitW
	if room-ansi.StringWidth(legend) < 40 {
		legend = ""
	} else {
		room -= ansi.StringWidth(legend)
	}
	from, to := m.stripWindow(n, room)
	var b strings.Builder
	b.WriteString(" ")
	if from > 0 {
		b.WriteString(st.Muted.Render("1 … "))
	}
	for i := from; i < to; i++ {
		b.WriteString(cell(i, windowNumbered(i, from, to, n, m.cur)))
	}
	if to < n {
		b.WriteString(st.Muted.Render(fmt.Sprintf(" … %d", n)))
	}
	return fit(b.String()+"  "+submit+legend, m.w)
}

// windowNumbered reports whether question i carries its number in a
// strip window from..to of n: the window's first cell, every 10th, the
// current one, and the exam's last when the window reaches it.
func windowNumbered(i, from, to, n, cur int) bool {
	return i == from || i == cur || (i+1)%10 == 0 || (to == n && i == n-1)
}

// stripWindow is the widest run of questions from..to around the current
// one whose strip (with "1 … " and " … n" where questions lie beyond it)
// fits in room cells; at least the current question.
func (m *session) stripWindow(n, room int) (from, to int) {
	digits := func(k int) int { return len(fmt.Sprint(k)) }
	cellW := func(i int, numbered bool) int {
		w := 1
		if numbered {
			w += digits(i + 1)
		}
		if m.s.Flags[i] {
			w++
		}
		if i == m.cur {
			w += 2
		}
		return w
	}
	width := func(from, to int) int {
		w := 0
		if from > 0 {
			w += 4 // "1 … "
		}
		if to < n {
			w += 3 + digits(n) // " … n"
		}
		for i := from; i < to; i++ {
			w += cellW(i, windowNumbered(i, from, to, n, m.cur))
		}
		return w
	}
	from, to = m.cur, m.cur+1
	for grew := true; grew; {
		grew = false
		// One to the right, then one to the left, so the current
		// question stays near the middle until one end is reached.
		if to < n && width(from, to+1) <= room {
			to++
			grew = true
		}
		if from > 0 && width(from-1, to) <= room {
			from--
			grew = true
		}
	}
	return from, to
}

// stripSteps are the numberings a row of questions tries, widest first:
// every question, every 5th, every 10th, none.
var stripSteps = []int{1, 5, 10, 0}

// stripRow is a row of n questions' cells: with step 1 each numbered
// and a space apart ("1● 2○ [3○]"); with a larger step close together,
// numbered at the first, every step-th, the current one and the last,
// so the row ends on the number of questions ("1●●●●5●○[8○]○10○○12○");
// with step 0 bare symbols. cell(i, numbered)
// is question i's cell, styled.
func stripRow(n, cur, step int, cell func(i int, numbered bool) string) string {
	var b strings.Builder
	for i := range n {
		num := step == 1 || (step > 1 && (i == 0 || (i+1)%step == 0 || i == cur || i == n-1))
		if step == 1 && i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(cell(i, num))
	}
	return b.String()
}

// confirmView is the submit or leave question, with the unanswered and
// flagged questions listed.
func (m *session) confirmView() []string {
	st := m.c.Styles
	tw := max(min(m.w-2, 90), 10)
	var out []string
	add := func(lines ...string) {
		for _, l := range lines {
			out = append(out, fit(l, m.w))
		}
	}
	if m.confirm == confirmLeave {
		title, leave := "⚠ Leave the exam?", " leave and discard"
		if m.quitAfter {
			title, leave = "⚠ Leave the exam and quit errorlab?", " leave, discard and quit"
		}
		add(" "+st.Warn.Render(title), "")
		un, partly := m.incomplete()
		answered := len(m.s.Items) - len(un) - len(partly)
		for _, l := range wrap(fmt.Sprintf("You have answered %d of %d. Hand the exam in to keep them (scored and saved; the rest count as wrong), or leave and discard them: no score, no history row.", answered, len(m.s.Items)), tw) {
			add(" " + l)
		}
		add("")
		hand := " hand in now and leave"
		if m.quitAfter {
			hand = " hand in now and quit"
		}
		// y alone discards; enter stays, as n and esc do.
		ck, or := st.ChipKey.Render, st.Muted.Render(" or ")
		lines := common.PackChips([]string{ck("s") + hand, ck("y") + leave,
			ck("n") + st.Muted.Render(", ") + ck("esc") + or + ck("enter") + " stay in the exam"}, max(m.w-1, 1), "    ")
		for _, l := range lines {
			add(" " + l)
		}
		return out
	}
	un, partly := m.incomplete()
	var flagged []int
	for i, f := range m.s.Flags {
		if f {
			flagged = append(flagged, i)
		}
	}
	add(" "+st.Title.Render("Submit the exam?"), "")
	answered := len(m.s.Items) - len(un) - len(partly)
	add(" " + st.OK.Render("●") + fmt.Sprintf(" %d of %d answered", answered, len(m.s.Items)))
	list := func(sym, text string) {
		for i, l := range wrap(text, tw-2) {
			lead := "   "
			if i == 0 {
				lead = " " + st.Warn.Render(sym) + " "
			}
			add(lead + l)
		}
	}
	if len(partly) > 0 {
		list("◐", fmt.Sprintf("%d partly answered: %s. Answer every part, or it counts as wrong.", len(partly), numberList(partly)))
	}
	if len(un) > 0 {
		list("○", fmt.Sprintf("%d unanswered: %s. They count as wrong.", len(un), numberList(un)))
	} else if len(partly) == 0 {
		add(" " + st.OK.Render("✓") + " none unanswered")
	}
	if len(flagged) > 0 {
		for i, l := range wrap(fmt.Sprintf("%d flagged: %s.", len(flagged), numberList(flagged)), tw-2) {
			lead := "   "
			if i == 0 {
				lead = " " + st.Warn.Render("⚑") + " "
			}
			add(lead + l)
		}
	} else {
		add(" " + st.Muted.Render("⚑ none flagged"))
	}
	add(" " + st.Muted.Render(strings.TrimSpace(strings.TrimLeft(ansi.Strip(m.timer()), "✗⚠ "))))
	add("")
	add(m.choiceLines(" submit now", " keep working")...)
	return out
}

// choiceLines is "y or enter <yes>    n or esc <no>", the two halves on
// lines of their own when the screen is too narrow for both.
func (m *session) choiceLines(yes, no string) []string {
	st := m.c.Styles
	or := st.Muted.Render(" or ")
	items := append([]string(nil),
		st.ChipKey.Render("y")+or+st.ChipKey.Render("enter")+yes,
		st.ChipKey.Render("n")+or+st.ChipKey.Render("esc")+no,
	)
	lines := common.PackChips(items, max(m.w-1, 1), "    ")
	for i, l := range lines {
		lines[i] = " " + l
	}
	return lines
}

// numberList is "2, 5, 9" (1-based).
func numberList(idx []int) string {
	s := make([]string, len(idx))
	for i, v := range idx {
		s[i] = fmt.Sprint(v + 1)
	}
	return strings.Join(s, ", ")
}

func pct(a, b int) int {
	if b == 0 {
		return 0
	}
	return (100*a + b/2) / b
}

// ClipText copies the exhibit (y).
func (m *session) ClipText() (string, string, bool, string) {
	it := m.s.Items[m.cur]
	if it.Exhibit == "" {
		return "", "", false, "this question has no exhibit to copy"
	}
	return it.Exhibit, "exhibit", true, ""
}

type tickMsg struct {
	owner *session
	gen   int
}
