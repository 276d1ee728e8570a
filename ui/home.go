package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/errorlab/errorlab/ui/common"
)

// homeItem is one section of the product on the home menu.
type homeItem struct {
	name   string
	desc   string
	coming bool
	open   tea.Msg
}

func homeItems() []homeItem {
	return []homeItem{
		{name: "Lab", desc: "Trigger a failure on the mock MCP server, read the exact request and response, choose the agent's next move.", open: common.OpenLabMsg{}},
		{name: "Reference", desc: "The lesson rules as tables: two layers, four categories, metadata, empty or failed, recovery, decisions.", open: common.OpenReferenceMsg{}},
		{name: "Agents", desc: "Two simulated agents side by side on the same failures: one guesses, one reads the metadata.", open: common.OpenAgentPickerMsg{}},
		{name: "Practice & exam", desc: "Practice by topic, a timed mock exam, review of what you missed, and your results.", open: common.OpenQuizMsg{}},
		{name: "Check a server", desc: "Grade the error responses of any MCP server against the lesson rules.", coming: true},
		{name: "Serve", desc: "Run the mock server over stdio for your own MCP client or agent.", coming: true},
	}
}

// home is the first screen: the product's sections.
type home struct {
	c      *common.Common
	items  []homeItem
	cursor int
	w, h   int
	open   key.Binding
}

func newHome(c *common.Common) *home {
	return &home{
		c:     c,
		items: homeItems(),
		open:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
	}
}

func (m *home) Init() tea.Cmd { return nil }

func (m *home) Crumb() string { return "Home" }

func (m *home) SetSize(w, h int) { m.w, m.h = w, h }

func (m *home) ShortHelp() []key.Binding {
	return []key.Binding{m.c.Nav.Up, m.c.Nav.Down, m.open}
}

func (m *home) FullHelp() [][]key.Binding {
	return [][]key.Binding{{m.c.Nav.Up, m.c.Nav.Down, m.c.Nav.Top, m.c.Nav.Bottom}, {m.open}}
}

func (m *home) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	nav := m.c.Nav
	switch {
	case key.Matches(k, nav.Up):
		m.cursor = (m.cursor + len(m.items) - 1) % len(m.items)
	case key.Matches(k, nav.Down):
		m.cursor = (m.cursor + 1) % len(m.items)
	case key.Matches(k, nav.Top):
		m.cursor = 0
	case key.Matches(k, nav.Bottom):
		m.cursor = len(m.items) - 1
	case key.Matches(k, m.open):
		it := m.items[m.cursor]
		if it.coming {
			m.c.SetStatus(common.StatusWarn, "%s is coming in a later version of errorlab", it.name)
			return m, nil
		}
		return m, common.Send(it.open)
	}
	return m, nil
}

func (m *home) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.c.Styles
	w := m.w
	title := " " + st.Title.Render("Learn how MCP tools should report failure")
	var tagline []string
	for _, l := range strings.Split(ansi.Wrap("Make a tool fail on purpose, read the exact JSON-RPC it sends back, and decide what the agent should do next. Every answer is scored against the lesson rules.", max(w-2, 1), ""), "\n") {
		tagline = append(tagline, " "+st.Muted.Render(l))
	}
	progress := ""
	if n := len(m.c.Catalog.Scenarios); n > 0 {
		first, after := m.c.MarkCounts()
		progress = " " + st.Muted.Render(fmt.Sprintf("Lab progress, of %d scenarios: ✓ %d right first time · ◑ %d right after a miss.", n, first, after))
	}
	fullHead := append(append([]string{"", title}, tagline...), progress, "")
	shortHead := []string{title, progress, ""}

	// The richest layout that fits wins; the last one scrolls.
	type layout struct {
		head     []string
		descRows int
		gap      bool
	}
	layouts := []layout{
		{fullHead, 2, true}, {fullHead, 2, false}, {shortHead, 2, false},
		{shortHead, 1, false}, {nil, 1, false},
	}
	var rows []string
	var head []string
	cursorRow := 0
	for _, l := range layouts {
		rows, cursorRow = m.rows(l.descRows, l.gap)
		head = l.head
		if len(head)+len(rows) <= m.h {
			break
		}
	}
	avail := max(m.h-len(head), 1)
	start := 0
	if cursorRow+3 > avail {
		start = min(cursorRow+3-avail, max(len(rows)-avail, 0))
	}
	end := min(start+avail, len(rows))
	return strings.Join(append(head, rows[start:end]...), "\n")
}

// rows renders the menu with each description on one line or wrapped
// onto up to descRows lines, and says which row holds the cursor.
func (m *home) rows(descRows int, gap bool) ([]string, int) {
	st := m.c.Styles
	w := m.w
	nameW := 0
	for _, it := range m.items {
		nameW = max(nameW, ansi.StringWidth(it.name))
	}
	var rows []string
	cursorRow := 0
	for i, it := range m.items {
		mark, nameSt, descSt := "  ", st.Bold, st.Muted
		if it.coming {
			nameSt, descSt = st.Coming, st.Coming
		}
		if i == m.cursor {
			mark, nameSt = st.Cursor.Render("▸ "), st.Cursor
			cursorRow = len(rows)
		}
		desc := it.desc
		if it.coming {
			desc = "coming · " + desc
		}
		rows = append(rows, " "+mark+nameSt.Render(it.name))
		dw := max(w-5, 1)
		lines := strings.Split(ansi.Wrap(desc, dw, ""), "\n")
		if len(lines) > descRows {
			lines = lines[:descRows]
			lines[descRows-1] = ansi.Truncate(lines[descRows-1], max(dw-1, 0), "") + "…"
		}
		for _, l := range lines {
			rows = append(rows, "     "+descSt.Render(l))
		}
		if gap && i < len(m.items)-1 {
			rows = append(rows, "")
		}
	}
	return rows, cursorRow
}
