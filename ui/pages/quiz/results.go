package quiz

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/components/topicbars"
)

// ---------------------------------------------------------------------
// Exam results: the score, pass or fail, per-topic bars, time taken, and
// a walk through every answer with its explanations.

type examResults struct {
	c      *common.Common
	keys   KeyMap
	pool   *qz.Pool
	s      *qz.Session
	res    qz.Result
	timeUp bool
	page   int // -1: the overview; i: the review of item i
	items  []*question
	bars   *topicbars.Model // the score by topic
	w, h   int
	off    int      // overview scroll
	over   []string // the overview's lines, built by SetSize (the result does not change)
	// at is when the exam was handed in: which exam this is (the stack
	// holds one screen of each, StackKey).
	at time.Time
	// reopened: an exam handed in before (Past exams, or a on Results),
	// not the one just finished; its header names it by date.
	reopened bool
}

func newExamResults(c *common.Common, pool *qz.Pool, s *qz.Session, res qz.Result, timeUp bool, at time.Time, reopened bool) *examResults {
	m := &examResults{c: c, keys: DefaultKeyMap(), pool: pool, s: s, res: res, timeUp: timeUp, page: -1,
		items: make([]*question, len(s.Items)), bars: topicbars.New(c), at: at, reopened: reopened}
	m.bars.SetHeading("By topic", "")
	m.bars.SetRows(topicRows(res.ByTopic, res.PassMark))
	return m
}

func (m *examResults) Init() tea.Cmd { return nil }

// Crumb is "Exam results" for the exam just handed in; a reopened one
// says which exam it is, "Exam 2026-12-02 07:19" (UTC, as Past exams
// and Results list them), short enough for the breadcrumb at 80 columns.
func (m *examResults) Crumb() string {
	if m.reopened {
		return "Exam " + m.at.UTC().Format("2006-01-02 15:04")
	}
	return "Exam results"
}

// StackKey implements common.StackKeyed: one screen per exam.
func (m *examResults) StackKey() string {
	return "quiz exam " + m.at.UTC().Format(time.RFC3339Nano)
}

func (m *examResults) headLines() int {
	if m.h >= 24 {
		return 3
	}
	return 2
}

func (m *examResults) SetSize(w, h int) {
	m.w, m.h = w, h
	m.bars.SetSize(w, 0)
	m.over = m.overview()
	for _, q := range m.items {
		if q != nil {
			q.SetSize(w, max(h-m.headLines(), 1))
		}
	}
}

func (m *examResults) item(i int) *question {
	if m.items[i] == nil {
		q := newQuestion(m.c, m.s.Items[i], "")
		if a := m.s.Answers[i]; a != nil {
			q.SetAnswer(a)
		}
		q.SetSize(m.w, max(m.h-m.headLines(), 1))
		q.Reveal()
		q.off = 0 // the stem first: the review is read from the top
		m.items[i] = q
	}
	return m.items[i]
}

func (m *examResults) ShortHelp() []key.Binding {
	k := m.keys
	bs := []key.Binding{withHelp(k.Forward, "←/→", "walk the answers")}
	if m.page >= 0 {
		bs = append(bs, m.item(m.page).ShortHelp()...)
	} else if len(m.over) > m.h {
		bs = append(bs, withHelp(m.c.Nav.Up, "↑/↓", "scroll"))
	}
	if len(m.res.Missed) > 0 {
		bs = append(bs, withHelp(k.Practise, "p", "practise these"))
	}
	return append(bs, withHelp(k.Results, "r", "all results"))
}

// FullHelp is two columns of short lines, as on every screen, so they sit
// side by side with the global keys and line up (a description a
// sentence long pushed each column onto rows of its own, each with its
// key column in another place, and cut two rows with a stray "…").
// An exam's questions have no parts or exhibit: tab does nothing here.
func (m *examResults) FullHelp() [][]key.Binding {
	k := m.keys
	practise := withHelp(k.Practise, "p", "answer the missed again")
	if m.page < 0 {
		practise = withHelp(k.Practise, "p/enter", "answer the missed again")
	}
	return [][]key.Binding{
		{withHelp(k.Prev, "←/[", "previous answer or the overview"), withHelp(k.Forward, "→/]", "next answer"),
			withHelp(m.c.Nav.Up, "↑/↓", "scroll"), withHelp(m.c.Nav.PageDown, "pgup/pgdn", "page"),
			withHelp(m.c.Nav.Bottom, "g/G", "top, bottom")},
		{practise, withHelp(k.Results, "r", "all your results"), withHelp(m.c.Keys.Back, "esc", backTo(m.c))},
	}
}

// backTo is the help's "back to Past exams": where esc goes from here,
// the screen below on the stack ("the menu" for Practice & exam).
func backTo(c *common.Common) string {
	if c.Below == "" {
		return "back"
	}
	return "back to " + PlaceName(c.Below)
}

// reviewMissed starts a review of exactly the questions this exam
// missed, in exam order, each checked and explained as it is answered.
func (m *examResults) reviewMissed() tea.Cmd {
	missed := map[string]bool{}
	for _, id := range m.res.Missed {
		missed[id] = true
	}
	var items []*qz.Item
	for _, it := range m.s.Items {
		if missed[it.ID] {
			items = append(items, it)
			delete(missed, it.ID) // an item drawn twice comes back once
		}
	}
	if len(items) == 0 {
		m.c.SetStatus(common.StatusInfo, "nothing to revisit: every answer was right · r shows your results")
		return nil
	}
	s := &qz.Session{Mode: qz.Review, Items: items, Answers: make([]qz.Answer, len(items)),
		Flags: make([]bool, len(items)), Started: timeNow(), PassMark: m.s.PassMark, Seed: m.s.Seed}
	m.c.SetStatus(common.StatusInfo, "reviewing the %s you missed, in exam order", common.Plural(len(items), "question"))
	return common.Send(common.NavMsg{Push: newSession(m.c, m.pool, s, nil)})
}

func (m *examResults) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.MouseMsg:
		m.mouse(msg)
	case tea.KeyMsg:
		return m, m.key(msg)
	}
	return m, nil
}

// key walks the answers (←/→), opens the results (r) or the review of
// the missed (p); other keys go to the answer shown, or scroll the
// overview.
func (m *examResults) key(k tea.KeyMsg) tea.Cmd {
	keys := m.keys
	switch {
	case key.Matches(k, keys.Prev):
		m.page = max(m.page-1, -1)
		return nil
	case key.Matches(k, keys.Forward):
		m.page = min(m.page+1, len(m.s.Items)-1)
		return nil
	case key.Matches(k, keys.Results):
		// Results already open below: the stack goes back to it
		// (common.StackKeyed), it does not stack another.
		return common.Send(common.NavMsg{Push: newResults(m.c, m.pool)})
	case key.Matches(k, keys.Practise), m.page < 0 && key.Matches(k, keys.Open):
		return m.reviewMissed()
	}
	if m.page >= 0 {
		m.item(m.page).Update(k)
		return nil
	}
	m.off, _ = pane.ScrollOffset(m.c.Nav, k, m.off, m.h, len(m.over)-m.h)
	m.off = m.within(m.off)
	return nil
}

// within keeps an overview offset inside the page at its current size.
func (m *examResults) within(off int) int { return max(min(off, len(m.over)-m.h), 0) }

// answerRow is the exam's items as cells, the shown one bracketed: ✓
// right, ✗ wrong (or partly answered), ○ not answered. Widths are
// measured in cells.
func (m *examResults) answerRow(w int) string {
	st := m.c.Styles
	sym := func(i int) (string, lipgloss.Style) {
		it, a := m.s.Items[i], m.s.Answers[i]
		switch {
		case it.Check(a):
			return "✓", st.OK
		case !it.Complete(a) && !partlyAnswered(it, a):
			return "○", st.Bad
		}
		return "✗", st.Bad
	}
	cell := func(i int, withNum bool) string {
		s, ss := sym(i)
		if withNum {
			s = fmt.Sprint(i+1) + s
		}
		c := ss.Render(s)
		if i == m.page {
			c = st.Cursor.Render("[") + c + st.Cursor.Render("]")
		}
		return c
	}
	// Every answer numbered, else numbered every 5 or 10 (and the one
	// shown), else just the symbols.
	var r string
	for _, step := range stripSteps {
		if r = " " + stripRow(len(m.s.Items), m.page, step, cell); ansi.StringWidth(r) <= w {
			return r
		}
	}
	return fit(r, w)
}

func (m *examResults) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.c.Styles
	if m.page >= 0 {
		it := m.s.Items[m.page]
		a := m.s.Answers[m.page]
		verdict := st.OK.Render("✓ right")
		switch {
		case partlyAnswered(it, a):
			verdict = st.Bad.Render("✗ partly answered")
		case !it.Complete(a):
			verdict = st.Bad.Render("✗ not answered")
		case !it.Check(a):
			verdict = st.Bad.Render("✗ wrong")
		}
		head := " " + st.Title.Render(fmt.Sprintf("Answer %d of %d", m.page+1, len(m.s.Items))) + " " + verdict
		if m.s.Flags[m.page] {
			head += " " + st.Warn.Render("⚑")
		}
		head += st.Muted.Render(" · " + qz.TopicTitle(it.Topic) + kindLabel(it.Kind))
		lines := []string{fit(head, m.w), m.answerRow(m.w)}
		if m.headLines() == 3 {
			lines = append(lines, "")
		}
		lines = append(lines, m.item(m.page).View())
		return strings.Join(lines, "\n")
	}
	off := m.within(m.off) // a resize may have shortened it
	return strings.Join(m.over[off:min(off+m.h, len(m.over))], "\n")
}

// overview is the score page.
func (m *examResults) overview() []string {
	st := m.c.Styles
	w := m.w
	r := m.res
	var lines []string
	add := func(s string) { lines = append(lines, fit(s, w)) }
	add("")
	score := fmt.Sprintf("%d of %d right (%d%%) · pass line %d%%", r.Correct, r.Total, pct(r.Correct, r.Total), int(r.PassMark*100+0.5))
	if r.Passed {
		add(" " + st.OK.Render("✓ Passed") + "  " + st.Bold.Render(score))
	} else {
		add(" " + st.Bad.Render("✗ Not passed") + "  " + st.Bold.Render(score))
	}
	taken := fmt.Sprintf("Time taken %s of %s", common.Clock(r.Seconds), common.Clock(int(m.s.Duration.Seconds())))
	if m.reopened {
		// Which exam this is, in full (the breadcrumb has no room for
		// the zone).
		taken = fmt.Sprintf("Handed in %s UTC · time taken %s of %s", m.at.UTC().Format("2006-01-02 15:04"),
			common.Clock(r.Seconds), common.Clock(int(m.s.Duration.Seconds())))
	}
	if m.timeUp {
		taken += " · time ran out"
	}
	add(" " + st.Muted.Render(taken))
	add("")
	lines = append(lines, m.bars.Lines()...)
	add("")
	add(" " + st.Heading.Render("Your answers") + st.Muted.Render(" · → walks through each with every explanation"))
	add(m.answerRow(w))
	if n := len(r.Missed); n > 0 {
		add("")
		them := "them"
		if n == 1 {
			them = "it"
		}
		// One line at 80 columns, so the page fits 80x24 whole.
		// p starts a practice of the missed, not a walk of the answers
		// given (→ does that): the words say so.
		text := fmt.Sprintf("%d missed · p or enter: answer %s again in exam order, each explained.", n, them)
		for _, l := range wrap(text, max(w-2, 10)) {
			add(" " + l)
		}
	}
	return lines
}

// topicRows are the per-topic bars of a result: title, right/total and
// percent, with ✓ when at or above the pass line.
func topicRows(by []qz.TopicScore, passMark float64) []topicbars.Row {
	rows := make([]topicbars.Row, 0, len(by))
	for _, t := range by {
		f := t.Fraction()
		mark := topicbars.Pass
		if f < passMark {
			mark = topicbars.Fail
		}
		nums := fmt.Sprintf("%5s %4s", fmt.Sprintf("%d/%d", t.Correct, t.Total), fmt.Sprintf("%d%%", pct(t.Correct, t.Total)))
		rows = append(rows, topicbars.Row{Title: qz.TopicTitle(t.Topic), Fraction: f, Numbers: nums, Mark: mark})
	}
	return rows
}

// ---------------------------------------------------------------------
// Results: mastery per topic, exam history, weakest topics (enter
// practises one).

type results struct {
	c    *common.Common
	keys KeyMap
	pool *qz.Pool
	sum  qz.Summary
	err  error
	bars *topicbars.Model // mastery by topic

	banner   string // what the session that just ended scored
	bannerOK bool

	cursor int // in sum.Weakest
	off    int
	w, h   int
	lines  []string
	curAt  int // line of the cursor's weak topic, -1 without one
}

func newResults(c *common.Common, pool *qz.Pool) *results {
	m := &results{c: c, keys: DefaultKeyMap(), pool: pool, bars: topicbars.New(c), curAt: -1}
	m.bars.MaxBar = 24
	m.bars.SetHeading("Mastery by topic", fmt.Sprintf("%8s %8s %4s %5s", "mastered", "answered", "of", "right"))
	m.reload()
	return m
}

// reload reads progress again (after a practice session on top).
func (m *results) reload() {
	p, err := m.c.Progress.Load()
	m.err = err
	if err != nil || p == nil {
		p = &qz.Progress{Items: map[string]qz.ItemRecord{}, Scenarios: map[string]qz.ScenarioRecord{}}
	}
	m.sum = qz.Summarize(m.pool, p)
	m.cursor = min(m.cursor, max(len(m.sum.Weakest)-1, 0))
	m.rebuild()
}

// Activate refreshes the numbers when a session returns here.
func (m *results) Activate() tea.Cmd {
	m.reload()
	return nil
}

func (m *results) Init() tea.Cmd { return nil }
func (m *results) Crumb() string { return "Results" }

// StackKey implements common.StackKeyed: Results is on the stack once.
func (m *results) StackKey() string { return "quiz results" }

func (m *results) SetSize(w, h int) {
	m.w, m.h = w, h
	m.rebuild()
}

func (m *results) ShortHelp() []key.Binding {
	k := m.keys
	var bs []key.Binding
	if len(m.sum.Weakest) > 0 {
		bs = append(bs, withHelp(m.c.Nav.Up, "↑/↓", "weak topic"), withHelp(k.Open, "enter", "practise it"))
	} else {
		bs = append(bs, withHelp(m.c.Nav.Up, "↑/↓", "scroll"))
	}
	bs = append(bs, withHelp(k.Practise, "p", "practise all topics"))
	if len(m.sum.Exams) > 0 {
		bs = append(bs, k.LastExam)
	}
	if len(m.lines) > m.h {
		bs = append(bs, withHelp(m.c.Nav.PageDown, "pgdn", "more"))
	}
	return bs
}

func (m *results) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{withHelp(m.c.Nav.Up, "↑/↓", "choose a weak topic (or scroll)"), withHelp(k.Open, "enter", "practise the chosen weak topic"),
			withHelp(k.Practise, "p", "practise all topics"), withHelp(k.LastExam, "a", "walk the latest exam's answers again")},
		{withHelp(m.c.Nav.PageUp, "pgup", "scroll up"), withHelp(m.c.Nav.PageDown, "pgdn", "scroll down"), withHelp(m.c.Nav.Top, "g/home", "top")},
	}
}

func (m *results) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if mm, ok := msg.(tea.MouseMsg); ok {
		m.mouse(mm)
		return m, nil
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	nav := m.c.Nav
	n := len(m.sum.Weakest)
	switch {
	case key.Matches(k, m.keys.Open) && n > 0:
		return m, m.practise(m.sum.Weakest[m.cursor])
	case key.Matches(k, m.keys.Practise):
		return m, m.practise("")
	case key.Matches(k, m.keys.LastExam) && len(m.sum.Exams) > 0:
		return m, m.lastExam()
	case key.Matches(k, nav.Up) && n > 0:
		m.cursor = max(m.cursor-1, 0)
		m.rebuild()
		m.follow()
	case key.Matches(k, nav.Down) && n > 0:
		m.cursor = min(m.cursor+1, n-1)
		m.rebuild()
		m.follow()
	default:
		m.off, _ = pane.ScrollOffset(nav, k, m.off, m.h, len(m.lines))
	}
	m.off = max(min(m.off, len(m.lines)-m.h), 0)
	return m, nil
}

func (m *results) follow() {
	if m.curAt < 0 {
		return
	}
	vh := m.h
	if len(m.lines) > m.h {
		vh = max(m.h-1, 1) // the last row is the "more below" hint
	}
	if m.curAt < m.off {
		m.off = max(m.curAt-1, 0)
	} else if m.curAt >= m.off+vh {
		m.off = m.curAt - vh + 1
	}
}

// lastExam opens the latest mock exam's results again, its answers and
// explanations included, as they were when it was handed in.
func (m *results) lastExam() tea.Cmd {
	// That exam's results already open below (r from there): the stack
	// goes back to them.
	return reopenExam(m.c, m.pool, m.sum.Exams[len(m.sum.Exams)-1])
}

// practise opens a practice session on a topic ("" = all), coming back
// here at its end.
func (m *results) practise(topic string) tea.Cmd {
	s, err := startQuiz(m.c, m.pool, qz.Options{Mode: qz.Practice, Topic: topic, Count: 10}, m)
	if err != nil {
		m.c.SetStatus(common.StatusError, "%v", err)
		return nil
	}
	return common.Send(common.NavMsg{Push: s})
}

func (m *results) rebuild() {
	st := m.c.Styles
	w := max(m.w, 1)
	var lines []string
	add := func(s string) { lines = append(lines, fit(s, w)) }
	add("")
	if m.banner != "" {
		mark, bs := "✓ ", st.OK
		if !m.bannerOK {
			mark, bs = "• ", st.Info
		}
		add(" " + bs.Render(mark+m.banner))
		add("")
	}
	if m.err != nil {
		for _, l := range wrap("✗ Your progress could not be read: "+m.err.Error(), w-2) {
			add(" " + st.Bad.Render(l))
		}
		add("")
	}
	// Weakest first: it is what to do next.
	add(" " + st.Heading.Render("Weakest topics") + st.Muted.Render(" · enter practises the topic under ▸"))
	m.curAt = -1
	if len(m.sum.Weakest) == 0 {
		for _, l := range wrap("None yet: answer some questions (Practice or a Mock exam) and the topics you miss most show here.", w-4) {
			add("   " + st.Muted.Render(l))
		}
	}
	weakW := 0
	for _, t := range m.sum.Weakest {
		weakW = max(weakW, ansi.StringWidth(m.topic(t).Title))
	}
	for i, t := range m.sum.Weakest {
		tm := m.topic(t)
		lead := "   "
		ts := st.Bold
		if i == m.cursor {
			lead = " " + st.Cursor.Render("▸") + " "
			ts = st.Cursor
			m.curAt = len(lines)
		}
		detail := fmt.Sprintf("%d%% right · %d missed now", int(tm.Accuracy*100+0.5), tm.Missed)
		room := min(max(w-4-ansi.StringWidth(detail)-2, 8), weakW)
		add(lead + ts.Render(pad(ansi.Truncate(tm.Title, room, "…"), room)) + "  " + st.Muted.Render(detail))
	}
	add("")

	rows := make([]topicbars.Row, 0, len(m.sum.Topics))
	for _, t := range m.sum.Topics {
		frac := 0.0
		if t.Items > 0 {
			frac = float64(t.Mastered) / float64(t.Items)
		}
		acc := "–"
		if t.Right+t.Wrong > 0 {
			acc = fmt.Sprintf("%d%%", int(t.Accuracy*100+0.5))
		}
		nums := fmt.Sprintf("%8d %8d %4d %5s", t.Mastered, t.Answered, t.Items, acc)
		rows = append(rows, topicbars.Row{Title: t.Title, Fraction: frac, Numbers: nums})
	}
	m.bars.SetRows(rows)
	m.bars.SetSize(w, 0)
	lines = append(lines, m.bars.Lines()...)
	add("")

	hint := " · latest first"
	if len(m.sum.Exams) > 0 {
		hint += " · a walks the latest one's answers again"
	}
	add(" " + st.Heading.Render("Mock exams") + st.Muted.Render(hint))
	if len(m.sum.Exams) == 0 {
		add("   " + st.Muted.Render("No exam taken yet."))
	}
	exams := slices.Clone(m.sum.Exams)
	slices.Reverse(exams)
	const shown = 5
	earlier := max(len(exams)-shown, 0)
	exams = exams[:len(exams)-earlier]
	for _, e := range exams {
		res := st.Bad.Render("✗ not passed")
		if e.Passed {
			res = st.OK.Render("✓ passed")
		}
		add(fmt.Sprintf("   %s  %s  %s  %s", st.Muted.Render(e.At.UTC().Format("2006-01-02 15:04")+" UTC"),
			st.Bold.Render(fmt.Sprintf("%d/%d (%d%%)", e.Correct, e.Questions, pct(e.Correct, e.Questions))),
			res, st.Muted.Render(fmt.Sprintf("pass line %d%% · %s", int(e.PassMark*100+0.5), common.Clock(e.Seconds)))))
	}
	if earlier > 0 {
		add("   " + st.Muted.Render(fmt.Sprintf("… and %s before these", common.Plural(earlier, "earlier exam"))))
	}
	if len(lines) > m.h && len(lines) > 0 && lines[0] == "" {
		lines = lines[1:] // tight: the top margin goes first
		m.curAt--
	}
	m.lines = lines
	m.off = max(min(m.off, len(m.lines)-m.h), 0)
}

func (m *results) topic(id string) qz.TopicMastery {
	for _, t := range m.sum.Topics {
		if t.Topic == id {
			return t
		}
	}
	return qz.TopicMastery{Topic: id, Title: qz.TopicTitle(id)}
}

func (m *results) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	end := min(m.off+m.h, len(m.lines))
	lines := slices.Clone(m.lines[m.off:end])
	if end < len(m.lines) && len(lines) > 0 {
		lines[len(lines)-1] = m.c.Styles.Muted.Render(fmt.Sprintf(" ↓ %s below · pgdn", common.Plural(len(m.lines)-end+1, "more line")))
	}
	return strings.Join(lines, "\n")
}
