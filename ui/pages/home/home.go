// Package home is the first screen: the product's sections (Lab,
// Reference, Agents, Practice & exam, Present, and those still to come).
package home

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/errorlab/errorlab/ui/common"
)

// Item is one section of the product on the home menu. Open is the
// message sent to the root when it is chosen; Coming marks a section
// that is announced but not there yet. Needs are the host actions the
// section takes (common.HostAction): in a session that may not take them
// (a class over SSH), the section is shown as not available and enter
// says why instead of opening it.
type Item struct {
	Name   string
	Desc   string
	Coming bool
	Open   tea.Msg
	Needs  []common.HostAction
}

// Items are the home menu's sections, in order.
func Items() []Item {
	return []Item{
		{Name: "Lab", Desc: "Trigger a failure on the mock MCP server, read the exact request and response, choose the agent's next move.", Open: common.OpenLabMsg{}},
		{Name: "Reference", Desc: "The lesson rules as tables: two layers, four categories, metadata, empty or failed, recovery, decisions.", Open: common.OpenReferenceMsg{}},
		{Name: "Agents", Desc: "Two simulated agents side by side on the same failures: one guesses, one reads the metadata.", Open: common.OpenAgentPickerMsg{}},
		{Name: "Practice & exam", Desc: "Practice by topic, a timed mock exam, review of what you missed, and your results.", Open: common.OpenQuizMsg{}},
		{Name: "Present", Desc: "Classroom walkthroughs: present a failure to the room step by step, every call live, with presenter notes and a timer.", Open: common.OpenWalkthroughsMsg{}},
		{Name: "Check a server", Desc: "Grade the error responses of any MCP server against the lesson rules.", Open: common.OpenCheckMsg{},
			Needs: []common.HostAction{common.RunProgram, common.OpenURL}},
		{Name: "Serve", Desc: "Serve the mock server to your own MCP client over HTTP, watch every exchange and get a report card of how it recovered.", Open: common.OpenServeMsg{},
			Needs: []common.HostAction{common.OpenPort}},
	}
}

// KeyMap is the home menu's own key; the cursor moves with the session's
// navigation keys.
type KeyMap struct {
	Open key.Binding
}

// DefaultKeyMap returns enter to open a section.
func DefaultKeyMap() KeyMap {
	return KeyMap{Open: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open"))}
}

// Model is the first screen: the product's sections. A click selects a
// section; a click on the selected one opens it.
type Model struct {
	c      *common.Common
	items  []Item
	cursor int
	w, h   int
	keys   KeyMap
}

// New returns the home menu with the cursor on the first section.
func New(c *common.Common) *Model {
	return &Model{c: c, items: Items(), keys: DefaultKeyMap()}
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Crumb implements common.Screen.
func (m *Model) Crumb() string { return "Home" }

// SetSize implements common.Screen.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// HostsNotice implements common.NoticeHost: Home keeps a notice about
// the learner's progress file on screen until it is dismissed.
func (m *Model) HostsNotice() bool { return true }

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding {
	return []key.Binding{m.c.Nav.Up, m.c.Nav.Down, m.keys.Open}
}

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding {
	return [][]key.Binding{{m.c.Nav.Up, m.c.Nav.Down, m.c.Nav.Top, m.c.Nav.Bottom}, {m.keys.Open}}
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.MouseMsg:
		return m, m.mouse(msg)
	case tea.KeyMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) key(k tea.KeyMsg) tea.Cmd {
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
	case key.Matches(k, m.keys.Open):
		return m.open()
	}
	return nil
}

func (m *Model) open() tea.Cmd {
	it := m.items[m.cursor]
	if it.Coming {
		m.c.SetStatus(common.StatusWarn, "%s is coming in a later version of errorlab", it.Name)
		return nil
	}
	if err := m.refused(it); err != nil {
		m.c.SetStatus(common.StatusWarn, "%v", err)
		return nil
	}
	return common.Send(it.Open)
}

// refused is why the session may not open it (nil: it may).
func (m *Model) refused(it Item) error {
	for _, a := range it.Needs {
		if err := m.c.Allowed(a); err != nil {
			return err
		}
	}
	return nil
}

// mouse: the wheel moves the cursor; a left click selects the section
// under the pointer, and opens it when it was already selected.
func (m *Model) mouse(e tea.MouseMsg) tea.Cmd {
	_, at := m.frame()
	var open bool
	if m.cursor, open = common.PickRow(e, m.cursor, len(m.items), at); open {
		return m.open()
	}
	return nil
}

// View implements tea.Model.
func (m *Model) View() string {
	lines, _ := m.frame()
	return strings.Join(lines, "\n")
}

// frame lays the screen out: its lines, and for each line the section it
// belongs to (-1 for none).
func (m *Model) frame() ([]string, []int) {
	if m.w <= 0 || m.h <= 0 {
		return nil, nil
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
	var owner []int
	var head []string
	cursorRow := 0
	for _, l := range layouts {
		rows, owner, cursorRow = m.rows(l.descRows, l.gap)
		head = l.head
		if len(head)+len(rows) <= m.h {
			break
		}
	}
	return common.ScrollRows(head, rows, owner, cursorRow, m.h, 3)
}

// rows renders the menu with each description on one line or wrapped
// onto up to descRows lines; it says which section each row belongs to
// (-1 for a gap) and which row holds the cursor.
func (m *Model) rows(descRows int, gap bool) ([]string, []int, int) {
	st := m.c.Styles
	w := m.w
	nameW := 0
	for _, it := range m.items {
		nameW = max(nameW, ansi.StringWidth(it.Name))
	}
	var rows []string
	var owner []int
	cursorRow := 0
	for i, it := range m.items {
		mark, nameSt, descSt := "  ", st.Bold, st.Muted
		if it.Coming {
			nameSt, descSt = st.Coming, st.Coming
		}
		if i == m.cursor {
			mark, nameSt = st.Cursor.Render("▸ "), st.Cursor
			cursorRow = len(rows)
		}
		desc := it.Desc
		if it.Coming {
			desc = "coming · " + desc
		}
		if m.refused(it) != nil {
			nameSt, descSt = st.Coming, st.Coming
			if i == m.cursor {
				nameSt = st.Cursor
			}
			desc = "not available in a class (it would act on the class's server) · " + desc
		}
		rows = append(rows, " "+mark+nameSt.Render(it.Name))
		owner = append(owner, i)
		dw := max(w-5, 1)
		lines := strings.Split(ansi.Wrap(desc, dw, ""), "\n")
		if len(lines) > descRows {
			lines = lines[:descRows]
			lines[descRows-1] = ansi.Truncate(lines[descRows-1], max(dw-1, 0), "") + "…"
		}
		for _, l := range lines {
			rows = append(rows, "     "+descSt.Render(l))
			owner = append(owner, i)
		}
		if gap && i < len(m.items)-1 {
			rows = append(rows, "")
			owner = append(owner, -1)
		}
	}
	return rows, owner, cursorRow
}
