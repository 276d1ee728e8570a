package quiz

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/common"
)

// Menu is "Practice & exam": Practice, Mock exam, Review, Results, Past
// exams.
// It builds the pool (authored questions and the drills generated from
// the lab's scenarios) in a command when it opens.
type Menu struct {
	c    *common.Common
	keys KeyMap

	pool    *qz.Pool
	err     error
	loading bool
	pending *Start // opened by `errorlab quiz`: start once loaded
	seed    uint64 // --seed, kept for the menu's later sessions

	cursor int
	// entryAt is the menu entry each line of the last View belongs to
	// (-1 for none), for the mouse.
	entryAt []int
	setup   int // menuPractice or menuExam while setting up; -1 otherwise
	field   int
	edit    string // digits typed into the field, not yet applied

	topic int // 0 = all topics, i = qz.Topics[i-1]
	// pCount is the practice length the learner chose (default 10). A
	// smaller topic shows and starts with fewer (practiceCount) but
	// never changes the choice, so going back to a bigger topic finds it.
	pCount     int
	eCount     int
	eMinutes   int
	ePass      int
	minutesSet bool
	// capacity caches available() per topic ("exam" for the mock exam).
	capacity map[string]int
	// questions is how many of the pool's items are authored questions,
	// counted once when the pool arrives (the rest are drills).
	questions int

	// What a review brings back: missed (box 1, first) and still
	// learning (right, but not yet mastered).
	missed, learning int
	lastRun          string
	// past is how many finished exams Past exams can reopen.
	past int

	w, h int
}

const (
	menuPractice = iota
	menuExam
	menuReview
	menuResults
	menuPast
)

type menuEntry struct{ name, desc string }

var menuEntries = []menuEntry{
	{"Practice", "One question at a time, on a topic or all: the verdict and every choice explained after each."},
	{"Mock exam", "Timed, no feedback until you submit; flag questions and move freely between them."},
	{"Review", "What you missed, brought back first (Leitner boxes), until you have it right on three different days in a row."},
	{"Results", "Mastery by topic, your exam history, and your weakest topics to practise."},
	{"Past exams", fmt.Sprintf("Reopen one of your last %d mock exams, newest first: its score and every answer, each choice explained.", qz.KeptExams)},
}

type poolMsg struct {
	owner *Menu
	pool  *qz.Pool
	err   error
}

// NewMenu builds the menu on the session's Common. start, when not nil,
// is a session to open as soon as the questions are ready (`errorlab
// quiz`); the menu's set-up then keeps its mode, topic, count, time, pass
// line and seed. The pool is built when the root activates the menu.
func NewMenu(c *common.Common, start *Start) *Menu {
	m := &Menu{c: c, keys: DefaultKeyMap(), setup: -1, pCount: 10, eCount: 20, ePass: 70, pending: start}
	m.eMinutes = examMinutes(m.eCount)
	if start != nil {
		m.seed = start.Seed
		switch start.Mode {
		case qz.Exam:
			m.cursor = menuExam
			if start.Count > 0 {
				m.eCount = start.Count
			}
			m.eMinutes = examMinutes(m.eCount)
			if start.Minutes > 0 {
				m.eMinutes, m.minutesSet = start.Minutes, true
			}
			if start.PassMark > 0 {
				m.ePass = int(start.PassMark*100 + 0.5)
			}
		case qz.Review:
			m.cursor = menuReview
		default:
			if start.Count > 0 {
				m.pCount = start.Count
			}
		}
		for i, t := range qz.Topics {
			if t.ID == start.Topic {
				m.topic = i + 1
			}
		}
	}
	return m
}

// examMinutes is the default time: 1.5 minutes a question, rounded up.
func examMinutes(n int) int { return (3*n + 1) / 2 }

// Init implements tea.Model; the pool is built by Activate.
func (m *Menu) Init() tea.Cmd { return nil }

// Crumb implements common.Screen.
func (m *Menu) Crumb() string { return menuCrumb }

// menuCrumb is the menu's breadcrumb.
const menuCrumb = "Practice & exam"

// PlaceName is how a help or a status line names the screen whose
// breadcrumb is crumb: "the menu" for this menu, the crumb itself
// ("Home", "Past exams") for any other.
func PlaceName(crumb string) string {
	if crumb == menuCrumb {
		return "the menu"
	}
	return crumb
}

// SetSize implements common.Screen: the menu's area in cells.
func (m *Menu) SetSize(w, h int) {
	m.w, m.h = w, h
}

// Activate builds the pool the first time; afterwards it refreshes the
// review count and the last exam.
func (m *Menu) Activate() tea.Cmd {
	if m.pool == nil {
		if m.loading || m.err != nil {
			return nil
		}
		m.loading = true
		cat, bank := m.c.Catalog, m.c.Bank
		return common.Safe("preparing the questions", func() tea.Msg {
			p, err := loadPool(context.Background(), cat, bank)
			return poolMsg{owner: m, pool: p, err: err}
		})
	}
	m.refresh()
	return nil
}

// refresh counts what waits for review and reads the last exam.
func (m *Menu) refresh() {
	m.missed, m.learning, m.lastRun, m.past = 0, 0, "", 0
	p, err := m.c.Progress.Load()
	if err != nil || p == nil || m.pool == nil {
		return
	}
	m.past = len(qz.RecentExams(p))
	for _, it := range m.pool.Items {
		r, ok := p.Items[it.ID]
		switch {
		case !ok:
		case r.Box == qz.BoxMissed:
			m.missed++
		case r.Box > qz.BoxMissed && r.Box < qz.Mastered:
			m.learning++
		}
	}
	if n := len(p.Exams); n > 0 {
		e := p.Exams[n-1]
		mark := "✗"
		if e.Passed {
			mark = "✓"
		}
		m.lastRun = fmt.Sprintf("last exam %d/%d %s", e.Correct, e.Questions, mark)
	}
}

// reviewCounts is what a review brings back, "2 missed · 7 still
// learning", or "" when nothing waits.
func (m *Menu) reviewCounts() string {
	var parts []string
	if m.missed > 0 {
		parts = append(parts, fmt.Sprintf("%d missed", m.missed))
	}
	if m.learning > 0 {
		parts = append(parts, fmt.Sprintf("%d still learning", m.learning))
	}
	return strings.Join(parts, " · ")
}

// HostsNotice implements common.NoticeHost: the menu keeps a notice
// about the learner's progress file on screen until it is dismissed, but
// not over a set-up, which needs the room.
func (m *Menu) HostsNotice() bool { return m.setup < 0 }

// Capturing is true while digits are being typed: q does not quit then.
func (m *Menu) Capturing() bool { return m.edit != "" }

// Back closes the set-up before the root leaves the menu.
func (m *Menu) Back() bool {
	if m.setup >= 0 {
		m.setup, m.edit = -1, ""
		return true
	}
	return false
}

func (m *Menu) fields() int {
	if m.setup == menuExam {
		return 4 // questions, minutes, pass line, start
	}
	return 3 // topic, questions, start
}

// numField reports whether the focused field takes a number.
func (m *Menu) numField() bool {
	if m.setup == menuExam {
		return m.field < 3
	}
	return m.field == 1
}

// ShortHelp implements help.KeyMap: the keys that act now.
func (m *Menu) ShortHelp() []key.Binding {
	k := m.keys
	if m.edit != "" {
		return []key.Binding{withHelp(k.Type, "0-9", "type"), withHelp(k.Open, "enter", "start"),
			key.NewBinding(key.WithKeys("backspace"), key.WithHelp("⌫", "delete")), withHelp(k.Cancel, "esc", "undo")}
	}
	if m.setup >= 0 {
		bs := []key.Binding{withHelp(m.c.Nav.Up, "↑/↓", "field"), k.Change}
		if m.numField() {
			bs = append(bs, k.Type)
		}
		return append(bs, withHelp(k.Open, "enter", "start"))
	}
	return []key.Binding{m.c.Nav.Up, m.c.Nav.Down, k.Open}
}

// FullHelp implements help.KeyMap.
func (m *Menu) FullHelp() [][]key.Binding {
	k := m.keys
	if m.setup < 0 { // the menu alone: the set-up's keys do nothing yet
		return [][]key.Binding{{m.c.Nav.Up, m.c.Nav.Down, withHelp(k.Open, "enter", "open")}}
	}
	return [][]key.Binding{
		{withHelp(m.c.Nav.Up, "↑/↓", "field"), withHelp(k.Open, "enter", "start")},
		{withHelp(k.Change, "←/→", "change the field's value"), withHelp(k.Type, "0-9", "type a number (q does not quit then)"),
			key.NewBinding(key.WithKeys("backspace"), key.WithHelp("⌫", "delete a digit")), withHelp(m.c.Keys.Back, "esc", "close the set-up")},
	}
}

// Update implements tea.Model: the pool when it is ready, then keys.
func (m *Menu) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case poolMsg:
		if msg.owner != m {
			return m, nil
		}
		m.loading = false
		m.pool, m.err = msg.pool, msg.err
		if m.err != nil {
			m.c.SetStatus(common.StatusError, "the questions could not be prepared: %v", m.err)
			return m, nil
		}
		m.questions = len(m.pool.Filter("", qz.KindQuestion))
		m.refresh()
		if m.eCount > m.examAvailable() {
			// `quiz --count 500`: the exam says how many it drew; the
			// set-up, once back, offers what it can hold.
			m.setExamCount(max(m.examAvailable(), 1))
		}
		if st := m.pending; st != nil {
			m.pending = nil
			return m, m.start(qz.Options{Mode: st.Mode, Topic: st.Topic, Count: st.Count,
				Duration: time.Duration(st.Minutes) * time.Minute, Seed: st.Seed, PassMark: st.PassMark})
		}
		return m, nil
	case common.PanicMsg:
		if m.loading {
			m.loading = false
			m.err = fmt.Errorf("%s", msg.What)
		}
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
	case tea.MouseMsg:
		return m, m.mouse(msg)
	}
	return m, nil
}

// mouse, on the menu (not the set-up): the wheel moves the cursor; a left
// click selects the entry under the pointer and opens it when it was
// already selected, as on Home.
func (m *Menu) mouse(msg tea.MouseMsg) tea.Cmd {
	if m.setup >= 0 || m.edit != "" {
		return nil
	}
	switch d := wheel(msg); {
	case d < 0:
		m.cursor = max(m.cursor-1, 0)
	case d > 0:
		m.cursor = min(m.cursor+1, len(menuEntries)-1)
	case leftClick(msg) && msg.Y >= 0 && msg.Y < len(m.entryAt) && m.entryAt[msg.Y] >= 0:
		if i := m.entryAt[msg.Y]; i != m.cursor {
			m.cursor = i
			return nil
		}
		return m.open()
	}
	return nil
}

func (m *Menu) key(k tea.KeyMsg) tea.Cmd {
	nav := m.c.Nav
	if m.setup < 0 {
		switch {
		case key.Matches(k, nav.Up):
			m.cursor = (m.cursor + len(menuEntries) - 1) % len(menuEntries)
		case key.Matches(k, nav.Down):
			m.cursor = (m.cursor + 1) % len(menuEntries)
		case key.Matches(k, nav.Top):
			m.cursor = 0
		case key.Matches(k, nav.Bottom):
			m.cursor = len(menuEntries) - 1
		case key.Matches(k, m.keys.Open):
			return m.open()
		}
		return nil
	}
	s := k.String()
	if m.numField() && len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		if len(m.edit) < 3 {
			m.edit += s
		}
		// A number past the field's range shows its most at once, not
		// digits the field will not keep.
		if _, hi := m.bounds(); hi > 0 {
			if n, err := strconv.Atoi(m.edit); err == nil && n > hi {
				m.edit = strconv.Itoa(hi)
			}
		}
		return nil
	}
	if m.edit == "" && s == "backspace" && m.numField() {
		// ⌫ on a value shown, not typed: it loses its last digit, as
		// in any text field (it did nothing, which the help belied).
		if v := strconv.Itoa(m.value()); len(v) > 1 {
			m.edit = v[:len(v)-1]
		}
		return nil
	}
	if m.edit != "" {
		switch s {
		case "backspace":
			m.edit = m.edit[:len(m.edit)-1]
			return nil
		case "esc":
			m.edit = ""
			return nil
		}
		m.commit()
	}
	switch {
	case key.Matches(k, m.keys.Open):
		return m.startSetup()
	case key.Matches(k, nav.Up), s == "shift+tab":
		m.field = (m.field + m.fields() - 1) % m.fields()
	case key.Matches(k, nav.Down), s == "tab":
		m.field = (m.field + 1) % m.fields()
	case s == "left" || s == "h":
		m.change(-1)
	case s == "right" || s == "l":
		m.change(1)
	}
	return nil
}

// open acts on a menu entry.
func (m *Menu) open() tea.Cmd {
	if m.pool == nil {
		if m.err != nil {
			m.c.SetStatus(common.StatusError, "the questions could not be prepared: %v", m.err)
		} else {
			m.c.SetStatus(common.StatusInfo, "still preparing the questions: a moment")
		}
		return nil
	}
	switch m.cursor {
	case menuPractice, menuExam:
		m.setup, m.field = m.cursor, 0
	case menuReview:
		return m.start(qz.Options{Mode: qz.Review, Seed: m.seed})
	case menuResults:
		return common.Send(common.NavMsg{Push: newResults(m.c, m.pool)})
	case menuPast:
		if m.past == 0 {
			m.c.SetStatus(common.StatusInfo, "no mock exam finished yet: take one (Mock exam) and it is kept here")
			return nil
		}
		return common.Send(common.NavMsg{Push: newPastExams(m.c, m.pool)})
	}
	return nil
}

func (m *Menu) startSetup() tea.Cmd {
	if m.setup == menuExam {
		return m.start(qz.Options{Mode: qz.Exam, Count: m.eCount, Duration: time.Duration(m.eMinutes) * time.Minute,
			PassMark: float64(m.ePass) / 100, Seed: m.seed})
	}
	return m.start(qz.Options{Mode: qz.Practice, Topic: m.topicID(), Count: m.practiceCount(), Seed: m.seed})
}

// practiceCount is the chosen practice length, clamped to what the topic
// offers: what the set-up shows and what a start asks for.
func (m *Menu) practiceCount() int {
	return max(min(m.pCount, m.available()), 1)
}

func (m *Menu) start(o qz.Options) tea.Cmd {
	s, err := startQuiz(m.c, m.pool, o, nil)
	if err != nil {
		m.c.SetStatus(common.StatusError, "%v", err)
		return nil
	}
	m.setup = -1
	return common.Send(common.NavMsg{Push: s})
}

func (m *Menu) topicID() string {
	if m.topic == 0 {
		return ""
	}
	return qz.Topics[m.topic-1].ID
}

// available is how many items one practice session on the topic can
// hold: at most two per story and one per rule (qz.Pool.Capacity), which
// on a small topic is fewer than it has.
func (m *Menu) available() int {
	if m.pool == nil {
		return 0
	}
	if m.capacity == nil {
		m.capacity = map[string]int{}
	}
	t := m.topicID()
	n, ok := m.capacity[t]
	if !ok {
		n = m.pool.Capacity(t)
		m.capacity[t] = n
	}
	return n
}

// examAvailable is how many questions one mock exam can hold inside the
// same caps: qz.Pool.ExamCapacity, the most any exam draws.
func (m *Menu) examAvailable() int {
	if m.pool == nil {
		return 0
	}
	if m.capacity == nil {
		m.capacity = map[string]int{}
	}
	n, ok := m.capacity["exam"]
	if !ok {
		n = m.pool.ExamCapacity("") // what an exam of more draws
		m.capacity["exam"] = n
	}
	return n
}

// previewMinutes is the time the Minutes row shows: while a question
// count is being typed and no time was chosen, the time that count gets
// (examMinutes), so the row never shows a stale default.
func (m *Menu) previewMinutes() int {
	if m.field != 0 || m.edit == "" || m.minutesSet {
		return m.eMinutes
	}
	n, err := strconv.Atoi(m.edit) // typing keeps it within bounds
	if err != nil || n < 1 {
		return m.eMinutes
	}
	return examMinutes(n)
}

// bounds is the range of the focused number field (0, 0 for the topic):
// set clamps to it, and typing never shows more than its top.
func (m *Menu) bounds() (lo, hi int) {
	if m.setup == menuExam {
		switch m.field {
		case 0:
			return 1, max(m.examAvailable(), 1)
		case 1:
			return 1, 600
		case 2:
			return 1, 100
		}
		return 0, 0
	}
	if m.field == 1 {
		// A typed count larger than the topic is kept for larger topics.
		return 1, max(len(m.pool.Items), 1)
	}
	return 0, 0
}

// commit applies the typed digits to the focused field.
func (m *Menu) commit() {
	n, err := strconv.Atoi(m.edit)
	m.edit = ""
	if err != nil {
		return
	}
	m.set(n)
}

func (m *Menu) value() int {
	if m.setup == menuExam {
		switch m.field {
		case 0:
			return m.eCount
		case 1:
			return m.eMinutes
		case 2:
			return m.ePass
		}
		return 0
	}
	if m.field == 1 {
		return m.practiceCount()
	}
	return m.topic
}

// setExamCount sets the exam's number of questions; its time follows
// unless the learner set one.
func (m *Menu) setExamCount(n int) {
	m.eCount = n
	if !m.minutesSet {
		m.eMinutes = examMinutes(n)
	}
}

// set puts n, clamped to the field's range, into the focused field.
func (m *Menu) set(n int) {
	lo, hi := m.bounds()
	v := max(min(n, hi), lo)
	if m.setup == menuExam {
		switch m.field {
		case 0:
			m.setExamCount(v)
		case 1:
			m.eMinutes, m.minutesSet = v, true
		case 2:
			m.ePass = v
		}
		return
	}
	switch m.field {
	case 0:
		// The chosen count stays; the topic only limits what is shown.
		m.topic = (n + len(qz.Topics) + 1) % (len(qz.Topics) + 1)
	case 1:
		m.pCount = v
	}
}

func (m *Menu) change(d int) {
	if m.setup == menuExam && m.field == 2 {
		d *= 5
	}
	if m.setup == menuPractice && m.field == 1 && m.value()+d > m.available() {
		return // already all the topic has: keep the chosen count
	}
	m.set(m.value() + d)
}

// View implements tea.Model: the entries, or the set-up of a practice
// or an exam.
func (m *Menu) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.c.Styles
	w := m.w
	var lines []string
	add := func(s string) { lines = append(lines, fit(s, w)) }
	add("")
	add(" " + st.Title.Render("Practice & exam"))
	switch {
	case m.loading:
		add(" " + st.Info.Render("⋯ Preparing the questions: generating drills from the lab's scenarios…"))
	case m.err != nil:
		for _, l := range wrap("✗ The questions could not be prepared: "+m.err.Error(), w-2) {
			add(" " + st.Bad.Render(l))
		}
	case m.pool != nil:
		info := fmt.Sprintf("%s and %s on %d topics", common.Plural(m.questions, "exam-style question"),
			common.Plural(len(m.pool.Items)-m.questions, "drill"), len(qz.Topics))
		if r := m.reviewCounts(); r != "" {
			info += " · for review: " + r
		}
		if m.lastRun != "" {
			info += " · " + m.lastRun
		}
		for _, l := range wrap(info, w-2) {
			add(" " + st.Muted.Render(l))
		}
	}
	add("")
	if m.setup >= 0 {
		lines = append(lines, m.setupView()...)
		return strings.Join(lines, "\n")
	}
	descRows := 2
	if len(lines)+len(menuEntries)*3 > m.h {
		descRows = 1
	}
	gap := len(lines)+len(menuEntries)*4 <= m.h
	m.entryAt = m.entryAt[:0]
	for range lines {
		m.entryAt = append(m.entryAt, -1)
	}
	cursorRow := 0
	for i, e := range menuEntries {
		if gap && i > 0 {
			add("")
			m.entryAt = append(m.entryAt, -1)
		}
		first := len(lines)
		if i == m.cursor {
			cursorRow = first
		}
		lead, ns := "   ", st.Bold
		if m.pool == nil {
			ns = st.Coming
		}
		if i == m.cursor {
			lead, ns = " "+st.Cursor.Render("▸")+" ", st.Cursor
		}
		name := e.name
		if i == menuReview && m.pool != nil {
			r := m.reviewCounts()
			if r == "" {
				r = "nothing waiting"
			}
			name += st.Muted.Render(" (" + r + ")")
		}
		if i == menuPast && m.pool != nil {
			r := "none yet"
			if m.past > 0 {
				r = fmt.Sprintf("%d kept", m.past)
			}
			name += st.Muted.Render(" (" + r + ")")
		}
		add(lead + ns.Render(e.name) + strings.TrimPrefix(name, e.name))
		d := wrap(e.desc, max(w-6, 10))
		if len(d) > descRows {
			d = d[:descRows]
			d[descRows-1] = strings.TrimRight(d[descRows-1], ".") + "…"
		}
		for _, l := range d {
			add("     " + st.Muted.Render(l))
		}
		for range lines[first:] {
			m.entryAt = append(m.entryAt, i)
		}
	}
	if len(lines) > m.h {
		// Too short for every entry (a notice below takes room): the
		// window that keeps the chosen one in view.
		lines, m.entryAt = common.ScrollRows(nil, lines, m.entryAt, cursorRow, m.h, descRows+1)
	}
	return strings.Join(lines, "\n")
}

func (m *Menu) setupView() []string {
	st := m.c.Styles
	var out []string
	add := func(s string) { out = append(out, fit(s, m.w)) }
	title := "Practice · set up"
	if m.setup == menuExam {
		title = "Mock exam · set up"
	}
	add(" " + st.Heading.Render(title))
	add("")
	type row struct{ label, value, note string }
	num := func(field, v int) string {
		if m.field == field && m.edit != "" {
			return m.edit + "▏"
		}
		return strconv.Itoa(v)
	}
	var rows []row
	if m.setup == menuExam {
		rows = []row{
			{"Questions", num(0, m.eCount), fmt.Sprintf("of at most %d: no two give each other away", m.examAvailable())},
			{"Minutes", num(1, m.previewMinutes()), "time up hands it in"},
			{"Pass line", num(2, m.ePass) + "%", "right to pass"},
		}
	} else {
		topic := "All topics"
		if m.topic > 0 {
			topic = qz.Topics[m.topic-1].Title
		}
		rows = []row{
			{"Topic", topic, qz.Plural(len(m.pool.Filter(m.topicID())), "question") + " and drills"},
			{"Questions", num(1, m.practiceCount()), m.countNote()},
		}
	}
	for i, r := range rows {
		lead, ls := "   ", st.Muted
		val := st.ChipValue.Render(r.value)
		if i == m.field {
			lead, ls = " "+st.Cursor.Render("▸")+" ", st.Cursor
			val = st.Muted.Render("‹ ") + val + st.Muted.Render(" ›")
		} else {
			val = "  " + val + "  "
		}
		add(lead + ls.Render(pad(r.label, 10)) + " " + val + "  " + st.Muted.Render(r.note))
	}
	lead, ls := "   ", st.Bold
	if m.field == len(rows) {
		lead, ls = " "+st.Cursor.Render("▸")+" ", st.Cursor
	}
	add(lead + ls.Render("Start") + st.Muted.Render("  (enter starts from any field)"))
	add("")
	help := "↑/↓ field · ←/→ change · type digits for a number · enter start · esc back"
	for _, l := range wrap(help, max(m.w-2, 10)) {
		add(" " + st.Muted.Render(l))
	}
	return out
}

// countNote is "of 60", or on a topic that holds fewer than the chosen
// count "at most 4: no two on one rule (10 on a larger topic)": the caps
// that keep one item from handing another its answer are never relaxed,
// so a small topic draws fewer, and says so.
func (m *Menu) countNote() string {
	avail := m.available()
	if m.pCount > avail && avail > 0 {
		if avail == len(m.pool.Filter(m.topicID())) {
			return fmt.Sprintf("of %d (all of them; %d on a larger topic)", avail, m.pCount)
		}
		return fmt.Sprintf("of %d: more would give answers away (%d elsewhere)", avail, m.pCount)
	}
	// As on the exam's row: the topic line counts everything, this the
	// most one session holds (a new user read 253 and 69 as a mismatch).
	return fmt.Sprintf("of at most %d: no two give each other away", avail)
}

// ---------------------------------------------------------------------

// nothing is the friendly screen for a review with nothing missed.
type nothing struct {
	c    *common.Common
	keys KeyMap
	pool *qz.Pool
	msg  string // why nothing waits, read once
	w, h int
}

func newNothing(c *common.Common, pool *qz.Pool) *nothing {
	m := &nothing{c: c, keys: DefaultKeyMap(), pool: pool}
	m.msg = m.why()
	return m
}

func (m *nothing) Init() tea.Cmd    { return nil }
func (m *nothing) Crumb() string    { return "Review" }
func (m *nothing) SetSize(w, h int) { m.w, m.h = w, h }

func (m *nothing) ShortHelp() []key.Binding {
	return []key.Binding{withHelp(m.keys.Practise, "p/enter", "practise instead")}
}

func (m *nothing) FullHelp() [][]key.Binding {
	return [][]key.Binding{{withHelp(m.keys.Practise, "p/enter", "practise 10 questions on every topic")}}
}

func (m *nothing) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	if key.Matches(k, m.keys.Practise) || key.Matches(k, m.keys.Open) {
		s, err := startQuiz(m.c, m.pool, qz.Options{Mode: qz.Practice, Count: 10}, nil)
		if err != nil {
			m.c.SetStatus(common.StatusError, "%v", err)
			return m, nil
		}
		return m, common.Send(common.NavMsg{Push: s, Replace: true})
	}
	return m, nil
}

// why says what is true when nothing waits: no question answered yet, or
// every question answered is mastered (right three times in a row on three different days).
func (m *nothing) why() string {
	answered := 0
	if p, err := m.c.Progress.Load(); err == nil && p != nil && m.pool != nil {
		for _, it := range m.pool.Items {
			if _, ok := p.Items[it.ID]; ok {
				answered++
			}
		}
	}
	if answered == 0 {
		return "You have not answered any question yet, so nothing you missed is waiting. Practise first, then come back."
	}
	if answered == 1 {
		return "Nothing you missed is waiting: the one question you have answered is mastered (right three times in a row on three different days). Practise more to find new ones."
	}
	return fmt.Sprintf("Nothing you missed is waiting: all %d questions you have answered are mastered (right three times in a row on three different days). Practise more to find new ones.", answered)
}

func (m *nothing) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.c.Styles
	var lines []string
	add := func(s string) { lines = append(lines, fit(s, m.w)) }
	add("")
	add(" " + st.OK.Render("✓ Nothing to review yet"))
	add("")
	for _, l := range wrap(m.msg, max(min(m.w-2, 90), 10)) {
		add(" " + l)
	}
	add("")
	for _, l := range wrap("Review brings back what you missed first, then anything not yet mastered: each question comes back until you answer it right three times in a row on three different days. A right answer moves a question up a box "+qz.Spaced+" at most; answering it again that day counts, but moves nothing.", max(min(m.w-2, 90), 10)) {
		add(" " + st.Muted.Render(l))
	}
	add("")
	add(" " + st.Cursor.Render("▸ ") + st.ChipKey.Render("p") + st.Muted.Render(" or ") + st.ChipKey.Render("enter") + "  practise 10 questions on every topic")
	return strings.Join(lines, "\n")
}
