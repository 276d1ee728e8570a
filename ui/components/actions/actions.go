// Package actions is the action chooser: the nine recovery actions of
// LESSON-RULES §8, numbered 1-9, that a learner picks from (the scenario
// screen's lower panel; any page that asks "what should the agent do?").
// It draws the list in one of three modes for the room it has, marks the
// chosen action ✓ or ✗ once it is graded, and turns a digit into a
// ChosenMsg for its page.
package actions

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/styles"
)

// Mode is how the list is laid out.
type Mode int

const (
	// Wrap is one action per line with its description, long descriptions
	// wrapped onto more lines.
	Wrap Mode = iota
	// Cut is one action per line, long descriptions cut with "…".
	Cut
	// Compact is a grid of numbers and ids, without descriptions.
	Compact
)

// KeyMap is the chooser's keys.
type KeyMap struct {
	// Choose picks an action: its n-th key picks the n-th action of
	// rules.Actions.
	Choose key.Binding
}

// DefaultKeyMap returns the digits 1-9.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Choose: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "choose action")),
	}
}

// Styles draw the list.
type Styles struct {
	Number      lipgloss.Style // the action's digit
	Title       lipgloss.Style
	Description lipgloss.Style
	Right       lipgloss.Style // ✓ before a chosen action graded right
	Wrong       lipgloss.Style // ✗ before a chosen action graded wrong
}

// DefaultStyles takes the chooser's styles from a session's styles.
func DefaultStyles(st *styles.Styles) Styles {
	return Styles{Number: st.ChipKey, Title: st.Bold, Description: st.Muted, Right: st.OK, Wrong: st.Bad}
}

// ChosenMsg is sent when the learner picks an action with its key.
type ChosenMsg struct {
	Action rules.Action
	from   *Model
}

// From reports whether msg came from the chooser m (a page with two
// choosers, or a message arriving after the page changed, tells them
// apart with it).
func (msg ChosenMsg) From(m *Model) bool { return msg.from == m }

// Model is the list of the nine recovery actions. It keeps no scroll
// position: a page that shows it in a pane scrolls the pane, and View
// shows the first lines that fit.
type Model struct {
	// KeyMap picks the actions; it starts as DefaultKeyMap.
	KeyMap KeyMap
	// Styles draw the list; they start from the session's.
	Styles Styles

	mode   Mode
	marked rules.Action // "" = no mark
	right  bool
	w, h   int
}

// New returns the chooser with c's styles, in Wrap mode, nothing marked.
func New(c *common.Common) *Model {
	return &Model{KeyMap: DefaultKeyMap(), Styles: DefaultStyles(c.Styles)}
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// SetSize sets the area View draws in.
func (m *Model) SetSize(w, h int) { m.w, m.h = max(w, 0), max(h, 0) }

// SetMode chooses the layout View draws.
func (m *Model) SetMode(mode Mode) { m.mode = mode }

// Mode is the layout View draws.
func (m *Model) Mode() Mode { return m.mode }

// Mark puts ✓ (right) or ✗ before action a, the one graded.
func (m *Model) Mark(a rules.Action, right bool) { m.marked, m.right = a, right }

// ClearMark removes the mark.
func (m *Model) ClearMark() { m.marked, m.right = "", false }

// Action is the action key k picks, if it is one of the Choose keys.
func (m *Model) Action(k tea.KeyMsg) (rules.Action, bool) {
	if !key.Matches(k, m.KeyMap.Choose) {
		return "", false
	}
	i := slices.Index(m.KeyMap.Choose.Keys(), k.String())
	if i < 0 || i >= len(rules.Actions) {
		return "", false
	}
	return rules.Actions[i], true
}

// Update turns a Choose key into a ChosenMsg; anything else is ignored.
func (m *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if a, ok := m.Action(k); ok {
			return m, common.Send(ChosenMsg{Action: a, from: m})
		}
	}
	return m, nil
}

// View draws the list at its size and mode, cut to its height.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	lines := m.Lines(m.w, m.mode)
	if len(lines) > m.h {
		lines = lines[:m.h]
	}
	return strings.Join(lines, "\n")
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding { return []key.Binding{m.KeyMap.Choose} }

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding { return [][]key.Binding{{m.KeyMap.Choose}} }

// Height is how many lines the list takes at width w in mode.
func (m *Model) Height(w int, mode Mode) int { return len(m.Lines(w, mode)) }

func (m *Model) mark(a rules.Action) string {
	switch {
	case m.marked == "" || a != m.marked:
		return "  "
	case m.right:
		return m.Styles.Right.Render("✓ ")
	}
	return m.Styles.Wrong.Render("✗ ")
}

// Lines is the list at width w in mode: one action per line with its
// description (beside the titles when most of them fit, otherwise under
// each), or a compact grid of numbers and ids.
func (m *Model) Lines(w int, mode Mode) []string {
	st := m.Styles
	var out []string
	if mode == Compact {
		cells := make([]string, len(rules.Actions))
		cellW := 0
		for i, a := range rules.Actions {
			cells[i] = m.mark(a) + st.Number.Render(fmt.Sprint(i+1)) + " " + string(a)
			cellW = max(cellW, ansi.StringWidth(cells[i]))
		}
		cols := max(1, (w+2)/(cellW+2))
		rows := (len(cells) + cols - 1) / cols
		for r := 0; r < rows; r++ {
			var b strings.Builder
			for c := 0; c < cols; c++ {
				i := c*rows + r
				if i >= len(cells) {
					break
				}
				if c > 0 {
					b.WriteString("  ")
				}
				b.WriteString(cells[i])
				if c < cols-1 {
					b.WriteString(strings.Repeat(" ", cellW-ansi.StringWidth(cells[i])))
				}
			}
			out = append(out, ansi.Truncate(b.String(), w, "…"))
		}
		return out
	}
	titleW := 0
	for _, a := range rules.Actions {
		titleW = max(titleW, ansi.StringWidth(a.Title()))
	}
	// Descriptions sit beside the titles when at least most of them fit,
	// otherwise under each title, wrapped. Beside, a long description
	// wraps onto more lines (Wrap) or is cut (Cut).
	descX := titleW + 6
	beside := w-descX >= 60
	for i, a := range rules.Actions {
		title := a.Title()
		line := m.mark(a) + st.Number.Render(fmt.Sprint(i+1)) + " " + st.Title.Render(title)
		if !beside {
			out = append(out, ansi.Truncate(line, w, "…"))
			for _, l := range strings.Split(ansi.Wrap(a.Description(), max(w-4, 1), ""), "\n") {
				out = append(out, "    "+st.Description.Render(l))
			}
			continue
		}
		line += strings.Repeat(" ", titleW-ansi.StringWidth(title)+2)
		if mode == Cut {
			line += st.Description.Render(ansi.Truncate(a.Description(), max(w-descX, 1), "…"))
			out = append(out, ansi.Truncate(line, w, "…"))
			continue
		}
		for j, l := range strings.Split(ansi.Wrap(a.Description(), max(w-descX, 1), ""), "\n") {
			if j == 0 {
				out = append(out, line+st.Description.Render(l))
				continue
			}
			out = append(out, strings.Repeat(" ", descX)+st.Description.Render(l))
		}
	}
	return out
}
