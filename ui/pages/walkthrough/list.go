package walkthrough

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/ui/common"
)

// List is the walkthroughs a teacher can present (a common.Screen): each
// with its length in minutes, its steps and its topics; enter presents
// one on this terminal (the room's screen), p opens the presenter view.
type List struct {
	// KeyMap is the list's own keys.
	KeyMap ListKeyMap

	c      *common.Common
	items  []*wt.Walkthrough
	err    error
	cursor int
	w, h   int
}

// NewList returns the list of the session's walkthroughs (the built-in
// ones, or those --content gave); when they do not load, the list says
// why.
func NewList(c *common.Common) *List {
	l := &List{c: c, KeyMap: DefaultListKeyMap()}
	set, err := c.WalkthroughSet()
	if err != nil {
		l.err = err
		c.SetStatus(common.StatusError, "the walkthroughs did not load: %v", err)
		return l
	}
	l.items = set.Walkthroughs
	return l
}

// Init implements tea.Model.
func (l *List) Init() tea.Cmd { return nil }

// Crumb implements common.Screen.
func (l *List) Crumb() string { return "Present" }

// SetSize implements common.Screen.
func (l *List) SetSize(w, h int) { l.w, l.h = w, h }

// ShortHelp implements help.KeyMap.
func (l *List) ShortHelp() []key.Binding {
	return []key.Binding{l.c.Nav.Up, l.c.Nav.Down, l.KeyMap.Present, l.KeyMap.Presenter}
}

// FullHelp implements help.KeyMap.
func (l *List) FullHelp() [][]key.Binding {
	n := l.c.Nav
	return [][]key.Binding{{n.Up, n.Down, n.Top, n.Bottom}, {l.KeyMap.Present, l.KeyMap.Presenter}}
}

// Update implements tea.Model.
func (l *List) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return l, l.key(msg)
	case tea.MouseMsg:
		return l, l.mouse(msg)
	}
	return l, nil
}

func (l *List) key(k tea.KeyMsg) tea.Cmd {
	if len(l.items) == 0 {
		return nil
	}
	n := l.c.Nav
	switch {
	case key.Matches(k, n.Up):
		l.cursor = max(l.cursor-1, 0)
	case key.Matches(k, n.Down):
		l.cursor = min(l.cursor+1, len(l.items)-1)
	case key.Matches(k, n.Top):
		l.cursor = 0
	case key.Matches(k, n.Bottom):
		l.cursor = len(l.items) - 1
	case key.Matches(k, l.KeyMap.Present):
		return common.Send(common.OpenWalkthroughMsg{ID: l.items[l.cursor].ID})
	case key.Matches(k, l.KeyMap.Presenter):
		return common.Send(common.OpenWalkthroughMsg{ID: l.items[l.cursor].ID, Presenter: true})
	}
	return nil
}

// mouse: the wheel moves the cursor; a click selects the walkthrough
// under the pointer and presents it when it was already selected.
func (l *List) mouse(e tea.MouseMsg) tea.Cmd {
	_, owner := l.frame()
	var open bool
	if l.cursor, open = common.PickRow(e, l.cursor, len(l.items), owner); open {
		return common.Send(common.OpenWalkthroughMsg{ID: l.items[l.cursor].ID})
	}
	return nil
}

// View implements tea.Model.
func (l *List) View() string {
	lines, _ := l.frame()
	return strings.Join(lines, "\n")
}

// frame lays the list out: its lines and, for each, the walkthrough it
// belongs to (-1 for none). The rows scroll to keep the cursor in view.
func (l *List) frame() ([]string, []int) {
	if l.w <= 0 || l.h <= 0 {
		return nil, nil
	}
	st := l.c.Styles
	w := l.w
	head := []string{" " + st.Title.Render("Classroom walkthroughs"),
		" " + st.Muted.Render(ansi.Truncate("enter presents here, on the room's screen · p opens the presenter view (run it in a second terminal)", max(w-2, 1), "…")), ""}
	if l.err != nil {
		return append(head, common.WrapLines(st.Bad, "✗ "+l.err.Error(), w)...), nil
	}
	if len(l.items) == 0 {
		return append(head, " "+st.Muted.Render("No walkthroughs.")), nil
	}
	var rows []string
	var owner []int
	cursorRow := 0
	for i, it := range l.items {
		mark, nameSt := "  ", st.Bold
		if i == l.cursor {
			mark, nameSt = st.Cursor.Render("▸ "), st.Cursor
			cursorRow = len(rows)
		}
		rows = append(rows, " "+mark+nameSt.Render(ansi.Truncate(common.OneLineText(it.Title), max(w-4, 1), "…")))
		facts := fmt.Sprintf("%d min · %s · %s", it.Minutes, common.Plural(len(it.Steps), "step"), strings.Join(it.Topics, " "))
		rows = append(rows, "     "+st.Accent.Render(ansi.Truncate(facts, max(w-5, 1), "…")))
		owner = append(owner, i, i)
		sum := common.WrapWords(common.OneLineText(it.Summary), max(w-5, 1))
		if len(sum) > 2 {
			sum = sum[:2]
			sum[1] = ansi.Truncate(sum[1], max(w-6, 1), "") + "…"
		}
		for _, s := range sum {
			rows = append(rows, "     "+st.Muted.Render(s))
			owner = append(owner, i)
		}
		if i < len(l.items)-1 {
			rows = append(rows, "")
			owner = append(owner, -1)
		}
	}
	if len(head)+len(rows) > l.h {
		head = head[:1]
	}
	return common.ScrollRows(head, rows, owner, cursorRow, l.h, 4)
}

// Selected is the walkthrough under the cursor, nil when there is none.
func (l *List) Selected() *wt.Walkthrough {
	if l.cursor < len(l.items) {
		return l.items[l.cursor]
	}
	return nil
}
