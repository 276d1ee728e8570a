// Package topicbars draws one static progress bar a row: a title column,
// a bar of █ (filled) and ░ (empty) cells drawn with bubbles/progress
// (ViewAs, no animation), the row's numbers after the bar and an optional
// ✓/✗ mark. The quiz results use it for mastery by topic and an exam's
// score by topic; a teacher's dashboard can feed it a live tally per
// answer option with SetRows. The fill characters read without colour.
//
// It has no keys of its own: a page that shows the bars among other
// content scrolls them with that content (Lines), so KeyMap is empty.
package topicbars

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/styles"
)

// Mark is the sign drawn after a row's numbers.
type Mark int

const (
	// NoMark draws nothing after the numbers.
	NoMark Mark = iota
	// Pass is ✓ in the Pass style (at or above a pass line, the right
	// option).
	Pass
	// Fail is ✗ in the Fail style.
	Fail
	// Partial is ◑ in the Partial style (an acceptable answer: right, not
	// the best).
	Partial
)

// Row is one bar.
type Row struct {
	// Title is plain text, cut with … when the title column is narrower.
	Title string
	// Fraction is the filled share of the bar, 0 to 1 (clamped).
	Fraction float64
	// Numbers is plain text drawn after the bar ("3/4  75%"); give every
	// row the same width so they line up under the labels.
	Numbers string
	// Mark follows the numbers, after a space, unless NoMark.
	Mark Mark
}

// KeyMap is the bars' keys: none (the page scrolls them). It satisfies
// help.KeyMap with empty help.
type KeyMap struct{}

// DefaultKeyMap returns the empty KeyMap.
func DefaultKeyMap() KeyMap { return KeyMap{} }

// ShortHelp implements help.KeyMap: nothing.
func (KeyMap) ShortHelp() []key.Binding { return nil }

// FullHelp implements help.KeyMap: nothing.
func (KeyMap) FullHelp() [][]key.Binding { return nil }

// Styles draw the heading, the labels and the bars.
type Styles struct {
	// Heading draws the heading line's text.
	Heading lipgloss.Style
	// Labels draws the column labels over the numbers.
	Labels lipgloss.Style
	// Full and Empty colour the filled and the empty cells with their
	// foreground colour (a lipgloss.Color or AdaptiveColor; other kinds
	// leave the cells uncoloured).
	Full, Empty lipgloss.Style
	// Pass, Fail and Partial draw the ✓, ✗ and ◑ marks.
	Pass, Fail, Partial lipgloss.Style
}

// DefaultStyles takes the bars' styles from a session's styles: green
// filled cells, faint empty ones, ✓ green and ✗ red.
func DefaultStyles(st *styles.Styles) Styles {
	return Styles{
		Heading: st.Heading, Labels: st.Muted,
		Full: st.OK, Empty: st.Border,
		Pass: st.OK, Fail: st.Bad, Partial: st.Warn,
	}
}

// Model is a block of rows of bars with an optional heading line. Its
// width is set with SetSize; every line is at most that wide.
type Model struct {
	r       *lipgloss.Renderer
	bar     progress.Model
	rows    []Row
	heading string
	labels  string
	w, h    int

	// MaxBar is the widest a bar grows, in cells (30 to start with); it
	// is never narrower than 8.
	MaxBar int
	// KeyMap is empty: the bars take no keys.
	KeyMap KeyMap
	// Styles start from the session's.
	Styles Styles
}

// New returns empty bars drawn with c's renderer (its colour profile and
// background) and styles. Give them rows (SetRows) and a width (SetSize).
func New(c *common.Common) *Model {
	r := c.R
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	bar := progress.New(progress.WithoutPercentage(), progress.WithSolidFill(""),
		progress.WithColorProfile(r.ColorProfile()), progress.WithFillCharacters('█', '░'))
	return &Model{r: r, bar: bar, MaxBar: 30, KeyMap: DefaultKeyMap(), Styles: DefaultStyles(c.Styles)}
}

// SetRows replaces the rows, drawn in the order given.
func (m *Model) SetRows(rows []Row) { m.rows = rows }

// SetHeading sets the line above the rows: heading (plain text, in the
// Heading style, one cell in from the left) and, when labels is not "",
// the column labels (plain text) placed right above the numbers. Both ""
// draw no heading line.
func (m *Model) SetHeading(heading, labels string) { m.heading, m.labels = heading, labels }

// SetSize sets the width the lines fit and the rows View shows at most
// (0: every line).
func (m *Model) SetSize(w, h int) { m.w, m.h = max(w, 0), max(h, 0) }

// Init implements tea.Model; the bars start nothing.
func (m *Model) Init() tea.Cmd { return nil }

// Update implements tea.Model: the bars take no messages.
func (m *Model) Update(tea.Msg) (*Model, tea.Cmd) { return m, nil }

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding { return m.KeyMap.ShortHelp() }

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding { return m.KeyMap.FullHelp() }

// View is Lines joined, cut to the height when one is set.
func (m *Model) View() string {
	lines := m.Lines()
	if m.h > 0 && len(lines) > m.h {
		lines = lines[:m.h]
	}
	return strings.Join(lines, "\n")
}

// Lines are the heading line (if any) and one line a row, each at most
// the width (at least 1 cell). A row is "  title  bar numbers mark": the
// title column takes the longest title, the bar what is left (8 to
// MaxBar cells), and the title is cut before the bar gets narrower
// than 8.
func (m *Model) Lines() []string {
	w := max(m.w, 1)
	titleW, tail := 0, ansi.StringWidth(m.labels)
	for _, r := range m.rows {
		titleW = max(titleW, ansi.StringWidth(r.Title))
		n := ansi.StringWidth(r.Numbers)
		if r.Mark != NoMark {
			n += 2
		}
		tail = max(tail, n)
	}
	tail++ // the space after the bar
	avail := max(w-tail-5, 16)
	barW := min(max(avail-titleW, 8), max(m.MaxBar, 8))
	titleW = min(titleW, max(avail-barW, 8))

	var out []string
	if m.heading != "" || m.labels != "" {
		head := " " + m.Styles.Heading.Render(m.heading)
		if m.labels != "" {
			head = padCut(head, 2+titleW+2+barW+1) + m.Styles.Labels.Render(m.labels)
		}
		out = append(out, ansi.Truncate(head, w, ""))
	}
	m.bar.FullColor = colorOf(m.r, m.Styles.Full)
	m.bar.EmptyColor = colorOf(m.r, m.Styles.Empty)
	m.bar.Width = barW
	for _, r := range m.rows {
		line := "  " + padCut(ansi.Truncate(r.Title, titleW, "…"), titleW) + "  " +
			m.bar.ViewAs(max(min(r.Fraction, 1), 0)) + " " + r.Numbers
		switch r.Mark {
		case Pass:
			line += " " + m.Styles.Pass.Render("✓")
		case Fail:
			line += " " + m.Styles.Fail.Render("✗")
		case Partial:
			line += " " + m.Styles.Partial.Render("◑")
		}
		out = append(out, ansi.Truncate(line, w, ""))
	}
	return out
}

// padCut pads or cuts a styled line to exactly w cells.
func padCut(s string, w int) string {
	s = ansi.Truncate(s, w, "")
	return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
}

// colorOf is a style's foreground as the hex (or ANSI number) progress
// wants, chosen for r's background; "" leaves the cells uncoloured.
func colorOf(r *lipgloss.Renderer, s lipgloss.Style) string {
	switch c := s.GetForeground().(type) {
	case lipgloss.Color:
		return string(c)
	case lipgloss.AdaptiveColor:
		if r.HasDarkBackground() {
			return c.Dark
		}
		return c.Light
	}
	return ""
}
