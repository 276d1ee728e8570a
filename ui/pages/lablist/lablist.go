// Package lablist is the lab's scenario list, grouped by lesson topic with
// a live filter and each scenario's mark, and its variant the agents
// picker (the series first, ⇄ for a subagent view).
package lablist

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui/common"
)

// Model lists the scenarios grouped by lesson topic (scenarios.Topics
// order), with a `/` filter and each scenario's mark: ✓ right first time,
// ◑ right only after a miss (Progress.ScenarioMark, read live). The
// agents picker is the same list with the afternoon series first; it
// marks the scenarios that have a subagent view instead of progress.
type Model struct {
	c      *common.Common
	keys   KeyMap
	filter textinput.Model
	all    []*scenarios.Scenario
	shown  []*scenarios.Scenario // filtered, in topic order
	cursor int                   // index into shown
	top    int                   // first list row on screen; moves only to keep the cursor in view
	w, h   int

	agents    bool            // the agents picker
	delegable map[string]bool // agents picker: scenarios with a subagent view
}

// seriesTopic groups the built-in series at the top of the agents picker.
const seriesTopic = "series"

// NewAgentPicker lists "Four failures, one afternoon" first, then every
// scenario grouped as the lab list is; enter opens the agents screen.
func NewAgentPicker(c *common.Common) *Model {
	m := New(c)
	m.agents = true
	m.delegable = map[string]bool{}
	for _, s := range m.all {
		if _, err := s.Delegation(); err == nil {
			m.delegable[s.ID] = true
		}
	}
	if _, _, err := c.Catalog.SeriesTasks(scenarios.Afternoon.ID); err == nil {
		var titles []string
		for _, id := range scenarios.Afternoon.IDs {
			if s, ok := c.Catalog.Get(id); ok {
				titles = append(titles, s.Title)
			}
		}
		series := &scenarios.Scenario{
			ID: scenarios.Afternoon.ID, Title: scenarios.Afternoon.Title, Topic: seriesTopic,
			Situation: "The lessons' four failures in a row, on one clock, for each agent: " + strings.Join(titles, "; ") + ".",
		}
		m.all = append([]*scenarios.Scenario{series}, m.all...)
	}
	m.applyFilter()
	m.cursor = 0 // the series first
	return m
}

// New lists the catalogue's scenarios grouped by topic, the cursor on
// the first; enter opens the scenario screen.
func New(c *common.Common) *Model {
	ti := textinput.New()
	ti.Prompt = "/ "
	ti.Placeholder = "type to filter by title, id or topic"
	ti.CharLimit = 80
	ti.Cursor.SetMode(cursor.CursorStatic)
	ti.PromptStyle = c.Styles.Accent
	ti.PlaceholderStyle = c.Styles.Muted
	ti.Cursor.Style = c.Styles.Accent
	m := &Model{c: c, keys: DefaultKeyMap(), filter: ti}
	// Group by topic order whatever order the catalogue has.
	for _, t := range scenarios.Topics {
		for _, s := range c.Catalog.Scenarios {
			if s.Topic == t.ID {
				m.all = append(m.all, s)
			}
		}
	}
	for _, s := range c.Catalog.Scenarios {
		if _, ok := scenarios.TopicByID(s.Topic); !ok {
			m.all = append(m.all, s)
		}
	}
	m.applyFilter()
	return m
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Crumb implements common.Screen: "Lab", or "Agents" for the picker.
func (m *Model) Crumb() string {
	if m.agents {
		return "Agents"
	}
	return "Lab"
}

// SetSize implements common.Screen.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.filter.Width = max(w-6, 1)
}

// Capturing is true while the filter input has focus: q then types a q.
func (m *Model) Capturing() bool { return m.filter.Focused() }

// Back clears the filter (esc) before the root leaves the screen.
func (m *Model) Back() bool {
	if m.filter.Value() != "" || m.filter.Focused() {
		m.filter.SetValue("")
		m.filter.Blur()
		m.applyFilter()
		return true
	}
	return false
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding {
	if m.filter.Focused() {
		return []key.Binding{m.keys.Accept, m.keys.Clear}
	}
	bs := []key.Binding{m.c.Nav.Up, m.c.Nav.Down, m.keys.Open, m.keys.Filter}
	if m.filter.Value() != "" {
		bs = append(bs, m.keys.Clear)
	}
	return bs
}

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{m.c.Nav.Up, m.c.Nav.Down, m.c.Nav.PageUp, m.c.Nav.PageDown, m.c.Nav.Top, m.c.Nav.Bottom},
		{m.keys.Open, m.keys.Filter, m.keys.Accept, m.keys.Clear},
	}
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if e, ok := msg.(tea.MouseMsg); ok {
		return m, m.mouse(e)
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		var cmd tea.Cmd
		if m.filter.Focused() {
			m.filter, cmd = m.filter.Update(msg)
		}
		return m, cmd
	}
	if m.filter.Focused() {
		switch k.String() {
		case "enter":
			m.filter.Blur()
			return m, nil
		case "esc":
			m.Back()
			return m, nil
		case "up", "down":
			m.move(k)
			return m, nil
		}
		var cmd tea.Cmd
		before := m.filter.Value()
		m.filter, cmd = m.filter.Update(k)
		if m.filter.Value() != before {
			m.applyFilter()
		}
		return m, cmd
	}
	switch {
	case key.Matches(k, m.keys.Filter):
		return m, m.filter.Focus()
	case key.Matches(k, m.keys.Open):
		return m, m.open()
	}
	m.move(k)
	return m, nil
}

// open asks the root for the scenario (or agents run) under the cursor;
// a filter being typed is kept, as enter would keep it.
func (m *Model) open() tea.Cmd {
	m.filter.Blur()
	if len(m.shown) == 0 {
		m.c.SetStatus(common.StatusWarn, "no scenario matches the filter: esc clears it")
		return nil
	}
	if m.agents {
		return common.Send(common.OpenAgentsMsg{ID: m.shown[m.cursor].ID})
	}
	return common.Send(common.OpenScenarioMsg{ID: m.shown[m.cursor].ID})
}

// mouse: the wheel moves the cursor; a left click selects the scenario
// under the pointer and opens it when it was already selected.
func (m *Model) mouse(e tea.MouseMsg) tea.Cmd {
	if e.Action != tea.MouseActionPress || len(m.shown) == 0 {
		return nil
	}
	switch e.Button {
	case tea.MouseButtonWheelUp:
		m.cursor = max(m.cursor-1, 0)
	case tea.MouseButtonWheelDown:
		m.cursor = min(m.cursor+1, len(m.shown)-1)
	case tea.MouseButtonLeft:
		rows, start, end := m.window()
		i := start + e.Y - m.headH()
		if e.Y < m.headH() || i >= end || rows[i].scen < 0 {
			return nil
		}
		if rows[i].scen == m.cursor {
			return m.open()
		}
		m.cursor = rows[i].scen
	}
	return nil
}

// Shown is how many scenarios the filter lets through.
func (m *Model) Shown() int { return len(m.shown) }

func (m *Model) move(k tea.KeyMsg) {
	n := len(m.shown)
	if n == 0 {
		return
	}
	nav := m.c.Nav
	page := max(m.listHeight()/2, 1)
	switch {
	case key.Matches(k, nav.Up):
		m.cursor = (m.cursor + n - 1) % n
	case key.Matches(k, nav.Down):
		m.cursor = (m.cursor + 1) % n
	case key.Matches(k, nav.PageUp):
		m.cursor = max(m.cursor-page, 0)
	case key.Matches(k, nav.PageDown):
		m.cursor = min(m.cursor+page, n-1)
	case key.Matches(k, nav.Top):
		m.cursor = 0
	case key.Matches(k, nav.Bottom):
		m.cursor = n - 1
	}
}

// applyFilter keeps the scenarios whose title, id, topic or section holds
// every word of the filter (case-insensitive), and keeps the cursor on
// the same scenario when it is still shown.
func (m *Model) applyFilter() {
	var cur string
	if m.cursor < len(m.shown) {
		cur = m.shown[m.cursor].ID
	}
	words := strings.Fields(strings.ToLower(m.filter.Value()))
	m.shown = m.shown[:0]
	for _, s := range m.all {
		if matches(s, words) {
			m.shown = append(m.shown, s)
		}
	}
	m.cursor = 0
	for i, s := range m.shown {
		if s.ID == cur {
			m.cursor = i
		}
	}
}

func matches(s *scenarios.Scenario, words []string) bool {
	if len(words) == 0 {
		return true
	}
	t, _ := scenarios.TopicByID(s.Topic)
	hay := strings.ToLower(strings.Join([]string{s.Title, s.ID, s.Topic, t.Title, s.Section}, " "))
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// Row kinds of the rendered list.
type listRow struct {
	text   string
	scen   int // index into shown, -1 for a header or blank
	header bool
}

func (m *Model) rows() []listRow {
	st := m.c.Styles
	var rows []listRow
	last := "\x00"
	idW := 0
	for _, s := range m.shown {
		idW = max(idW, ansi.StringWidth(s.ID))
	}
	showID := m.w >= 70
	for i, s := range m.shown {
		if s.Topic != last {
			last = s.Topic
			t, ok := scenarios.TopicByID(s.Topic)
			title := t.Title + "  " + st.Muted.Render(t.Section)
			switch {
			case s.Topic == seriesTopic && m.agents:
				title = "A series on one clock"
			case !ok:
				title = s.Topic
			}
			if len(rows) > 0 {
				rows = append(rows, listRow{scen: -1})
			}
			rows = append(rows, listRow{text: " " + st.TopicHeader.Render(title), scen: -1, header: true})
		}
		mark := "  "
		if i == m.cursor {
			mark = st.Cursor.Render("▸ ")
		}
		check := "  "
		switch {
		case m.agents && m.delegable[s.ID]:
			check = st.Accent.Render("⇄ ")
		case !m.agents:
			switch mk := m.c.Mark(s.ID); mk {
			case quiz.MarkFirstTime:
				check = st.OK.Render(mk.Symbol() + " ")
			case quiz.MarkAfterMiss:
				check = st.Warn.Render(mk.Symbol() + " ")
			}
		}
		titleSt := st.Plain
		if i == m.cursor {
			titleSt = st.Selected
		}
		room := m.w - 6
		id := ""
		if showID {
			room -= idW + 2
			id = strings.Repeat(" ", 2) + st.Muted.Render(s.ID)
		}
		title := ansi.Truncate(s.Title, max(room, 1), "…")
		pad := strings.Repeat(" ", max(room-ansi.StringWidth(title), 0))
		rows = append(rows, listRow{text: " " + mark + check + titleSt.Render(title) + pad + id, scen: i})
	}
	return rows
}

// window is the list's rows and the slice of them on screen, [start,
// end): the cursor stays visible, with its topic header when possible.
// It remembers where the list stands (top).
func (m *Model) window() (rows []listRow, start, end int) {
	st := m.c.Styles
	rows = m.rows()
	lh := m.listHeight()
	if len(m.all) == 0 {
		rows = []listRow{{text: " " + st.Warn.Render("⚠ no scenarios are loaded"), scen: -1}}
	} else if len(m.shown) == 0 {
		rows = []listRow{{text: " " + st.Warn.Render("⚠ nothing matches; esc clears the filter"), scen: -1}}
	}
	cur := 0
	for i, r := range rows {
		if r.scen == m.cursor {
			cur = i
		}
	}
	// The list stays where it is while the cursor is in view (a click
	// lands on the row under the pointer); it scrolls just enough to
	// bring the cursor back, with its topic header when possible.
	start = min(m.top, max(len(rows)-lh, 0))
	switch {
	case cur < start:
		start = cur
		if cur > 0 && rows[cur-1].header {
			start = cur - 1
		}
		if start == 1 && rows[0].header {
			start = 0
		}
	case cur >= start+lh:
		start = cur - lh + 1
	}
	start = max(start, 0)
	m.top = start
	return rows, start, min(start+lh, len(rows))
}

func (m *Model) listHeight() int {
	return max(m.h-m.headH()-m.previewH(), 1)
}

func (m *Model) headH() int { return 3 }

func (m *Model) previewH() int {
	if m.h >= 18 {
		return 5
	}
	return 0
}

// View implements tea.Model.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.c.Styles
	var out []string
	title, noun, tail := "Simulated agents: pick a run", "runs", ""
	legend := "/ to filter · ⇄ also has a subagent view (c)"
	if !m.agents {
		// The lab list holds the catalogue's scenarios, each once.
		first, after := m.c.MarkCounts()
		title, noun, tail = "Lab scenarios", "scenarios", fmt.Sprintf(" · ✓ %d · ◑ %d", first, after)
		legend = "/ to filter · ✓ right first time · ◑ right after a miss"
	}
	summary := fmt.Sprintf("%d %s%s", len(m.all), noun, tail)
	switch {
	case m.filter.Value() != "" && m.filter.Focused():
		// Live while typing; the query is in the input line below.
		summary = fmt.Sprintf("%d of %d match%s", len(m.shown), len(m.all), tail)
	case m.filter.Value() != "":
		summary = fmt.Sprintf("%d of %d match %q%s", len(m.shown), len(m.all), m.filter.Value(), tail)
	}
	out = append(out, common.JoinEnds(" "+st.Title.Render(title), st.Muted.Render(summary)+" ", m.w))
	if m.filter.Focused() || m.filter.Value() != "" {
		out = append(out, " "+m.filter.View())
	} else {
		out = append(out, " "+st.Muted.Render(ansi.Truncate(legend, max(m.w-2, 1), "…")))
	}
	out = append(out, "")

	rows, start, end := m.window()
	lh := m.listHeight()
	for _, r := range rows[start:end] {
		out = append(out, r.text)
	}
	for len(out) < m.headH()+lh {
		out = append(out, "")
	}
	if m.previewH() > 0 && len(m.shown) > 0 {
		s := m.shown[m.cursor]
		out = append(out, " "+st.Muted.Render(strings.Repeat("─", max(m.w-2, 1))))
		lines := strings.Split(ansi.Wrap(strings.TrimSpace(s.Situation), max(m.w-3, 1), ""), "\n")
		for i := 0; i < m.previewH()-1; i++ {
			l := ""
			if i < len(lines) {
				l = lines[i]
				if i == m.previewH()-2 && len(lines) > m.previewH()-1 {
					l = ansi.Truncate(l, max(m.w-4, 1), "") + "…"
				}
			}
			out = append(out, " "+st.Muted.Render(l))
		}
	}
	return strings.Join(out, "\n")
}
