// Package reference is the rules Reference screen: the Reference's
// Markdown sections §1 to §9 (assets/reference, or --content
// DIR/reference) drawn at the terminal's width by the markdown component,
// then every rule the lab cites, from sim/rules. It can open at a section
// (g from a verdict).
package reference

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/markdown"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/styles"
)

// Model is the lesson rules in one scrollable page.
type Model struct {
	c            *common.Common
	doc          *markdown.Renderer
	vp           viewport.Model
	w, h         int
	builtW       int
	sections     []int // line of each section heading
	sectionNames []string
	keys         KeyMap
	// want is the section to show once the page is drawn ("§4"), "" for
	// none: the page is drawn at its first size.
	want string
}

// KeyMap is the Reference's own keys; scrolling is the session's
// navigation keys.
type KeyMap struct {
	Next key.Binding
	Prev key.Binding
}

// DefaultKeyMap returns tab/] and shift+tab/[ to move between sections.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Next: key.NewBinding(key.WithKeys("tab", "]"), key.WithHelp("tab", "next section")),
		Prev: key.NewBinding(key.WithKeys("shift+tab", "["), key.WithHelp("shift+tab", "previous section")),
	}
}

// New returns the Reference of c's session (the catalogue's, else the
// embedded one), opened at section ("§4", or "" for the top; a section
// that is not there opens the top).
func New(c *common.Common, section string) *Model {
	vp := viewport.New(0, 0)
	vp.KeyMap = viewport.KeyMap{}
	return &Model{
		c: c, vp: vp, builtW: -1,
		doc:  referenceDoc(c.R, c.Styles, referenceContent(c)),
		keys: DefaultKeyMap(),
		want: section,
	}
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Crumb implements common.Screen.
func (m *Model) Crumb() string { return "Reference" }

// SetSize implements common.Screen; the page is drawn again only when
// the width changes.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.vp.Width, m.vp.Height = m.w, max(m.h-1, 0)
	if m.builtW != m.w {
		// A new width re-wraps the page: stay in the section in view, as
		// far into it as before.
		sec, into := m.sectionAt(m.vp.YOffset)
		content, sections, names := referencePage(m.doc, max(m.w, 20))
		m.vp.SetContent(content)
		m.sections, m.sectionNames = sections, names
		if m.builtW > 0 && sec >= 0 && sec < len(sections) {
			end := m.vp.TotalLineCount()
			if sec+1 < len(sections) {
				end = sections[sec+1]
			}
			m.vp.SetYOffset(sections[sec] + min(into, max(end-sections[sec]-1, 0)))
		}
		m.builtW = m.w
		if m.want != "" && m.w > 0 {
			for i, n := range names {
				if n == m.want || strings.HasPrefix(n, m.want+" ") {
					m.vp.SetYOffset(sections[i])
				}
			}
			m.want = ""
		}
	}
	m.vp.SetYOffset(m.vp.YOffset)
}

// sectionAt is the section holding line y (-1 above the first) and how
// many lines into it y is.
func (m *Model) sectionAt(y int) (int, int) {
	sec, into := -1, y
	for i, l := range m.sections {
		if l <= y {
			sec, into = i, y-l
		}
	}
	return sec, into
}

// Section is the name of the section in view ("§4 Empty or failed"), or
// "Reference" above the first.
func (m *Model) Section() string {
	sec := "Reference"
	for i, l := range m.sections {
		if l <= m.vp.YOffset && i < len(m.sectionNames) {
			sec = m.sectionNames[i]
		}
	}
	return sec
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding {
	return []key.Binding{m.c.Nav.Down, m.c.Nav.Up, m.c.Nav.PageDown, m.keys.Next}
}

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding {
	n := m.c.Nav
	return [][]key.Binding{{n.Up, n.Down, n.PageUp, n.PageDown}, {n.Top, n.Bottom, m.keys.Next, m.keys.Prev}}
}

// Update implements tea.Model: the navigation keys scroll, tab and
// shift+tab move between sections, the mouse wheel scrolls.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if e, ok := msg.(tea.MouseMsg); ok {
		pane.WheelViewport(&m.vp, e)
		return m, nil
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	if pane.ScrollViewport(&m.vp, m.c.Nav, k) {
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Next):
		for _, l := range m.sections {
			if l > m.vp.YOffset {
				m.vp.SetYOffset(l)
				break
			}
		}
	case key.Matches(k, m.keys.Prev):
		target := 0
		for _, l := range m.sections {
			if l < m.vp.YOffset {
				target = l
			}
		}
		m.vp.SetYOffset(target)
	}
	return m, nil
}

// View implements tea.Model.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.h == 1 {
		return m.footer()
	}
	return m.vp.View() + "\n" + m.footer()
}

// footer names the section in view and the scroll position.
func (m *Model) footer() string {
	st := m.c.Styles
	total := m.vp.TotalLineCount()
	last := min(m.vp.YOffset+m.vp.Height, total)
	pos := fmt.Sprintf("lines %d-%d of %d", min(m.vp.YOffset+1, total), last, total)
	left := st.Muted.Render("── " + m.Section())
	return common.JoinEnds(left, st.Muted.Render(pos+" ──"), m.w)
}

// referenceContent is the Reference the session shows: the one loaded
// with the catalogue (--content DIR/reference), else the embedded one.
func referenceContent(c *common.Common) *scenarios.Reference {
	if c.Catalog != nil && c.Catalog.Reference != nil {
		return c.Catalog.Reference
	}
	ref, err := scenarios.DefaultReference()
	if err != nil {
		// go test loads the embedded Reference; this cannot happen in a
		// build that passed.
		return nil
	}
	return ref
}

// referenceIntro opens the page.
const referenceIntro = "# Reference: the lesson rules\n\n" +
	"What errorlab scores against, section by section. tab jumps to the next section; " +
	"the rule names (§2 Transient errors, ...) are the ones the lab's verdicts cite.\n"

// referenceDoc is the page as a Markdown document: the opening, the
// Reference's sections and every rule the lab cites, drawn with r and the
// session's table styles. A nil ref shows only the opening and the rules.
func referenceDoc(r *lipgloss.Renderer, st *styles.Styles, ref *scenarios.Reference) *markdown.Renderer {
	secs := []markdown.Section{{Name: "Reference", Markdown: referenceIntro}}
	if ref != nil {
		for _, s := range ref.Sections {
			secs = append(secs, markdown.Section{Name: s.Name(), Markdown: s.Markdown})
		}
	}
	secs = append(secs, markdown.Section{Name: "Every rule", Markdown: everyRule()})
	return markdown.New(r, markdown.FromStyles(r, st), secs...)
}

// everyRule lists the rules from sim/rules, the one place they are
// written, as a Markdown table.
func everyRule() string {
	var b strings.Builder
	b.WriteString("# Every rule the lab cites\n\n| rule | statement |\n| --- | --- |\n")
	for _, r := range rules.AllRules() {
		fmt.Fprintf(&b, "| %s | %s |\n", markdownEscape(r.Ref()), markdownEscape(r.Statement))
	}
	return b.String()
}

// markdownEscape makes text read literally in Markdown: the characters
// that would start emphasis, code, a link, HTML or a table cell get a
// backslash.
func markdownEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Render draws the Reference page of ref at width w with renderer r (nil
// is lipgloss's default) and styles st, and returns it with the line
// where each section (§1 to §9, then "Every rule") starts and their names.
func Render(r *lipgloss.Renderer, st *styles.Styles, ref *scenarios.Reference, w int) (string, []int, []string) {
	return referencePage(referenceDoc(r, st, ref), w)
}

// referencePage renders the document at width w and returns it with the
// line where each section (§1 to §9, then "Every rule") starts and their
// names; the opening is not a section.
func referencePage(doc *markdown.Renderer, w int) (string, []int, []string) {
	d, err := doc.Render(w)
	if err != nil {
		return "The Reference could not be drawn: " + err.Error(), nil, nil
	}
	return d.Text, d.Starts[1:], d.Names[1:]
}
