// Package pane is the titled, bordered, scrollable box every screen shows
// envelopes, timelines and explanations in: a bubbles viewport with its own
// KeyMap (the navigation keys), Styles from the session, mouse-wheel
// scrolling and a summary line when only one row is left.
package pane

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/keymap"
	"github.com/errorlab/errorlab/ui/styles"
)

// Model is a bordered, titled, scrollable box (a bubbles viewport inside).
// Its content is produced by a builder for a given inner width and cached
// until the width or the content changes, so View only slices lines.
type Model struct {
	c       *common.Common
	title   string
	raw     string           // what y copies
	build   func(int) string // content for an inner width
	vp      viewport.Model
	builtW  int // inner width of the cached content; -1 = stale
	w, h    int // outer size in cells
	focused bool
	summary string              // one line standing in for the content when only one row shows, sanitized
	frame   map[frameKey]string // cached top/bottom borders

	// KeyMap scrolls the pane (Update, Scroll); it starts as the session's
	// navigation keys.
	KeyMap KeyMap
	// Styles draw the border and title; they start from the session's.
	Styles Styles
}

// KeyMap is the pane's keys: line, page, top and bottom.
type KeyMap = keymap.Nav

// DefaultKeyMap returns arrows, j/k, pgup/pgdn and g/G (home/end).
func DefaultKeyMap() KeyMap { return keymap.DefaultNav() }

// Styles are the pane's border and title styles.
type Styles struct {
	Border, BorderFocused lipgloss.Style
	Title, TitleFocused   lipgloss.Style
	// Muted draws the scroll position and the one-line summary.
	Muted lipgloss.Style
}

// DefaultStyles takes the pane's styles from a session's styles.
func DefaultStyles(st *styles.Styles) Styles {
	return Styles{
		Border: st.Border, BorderFocused: st.BorderFocused,
		Title: st.PaneTitle, TitleFocused: st.PaneTitleOn,
		Muted: st.Muted,
	}
}

type frameKey struct {
	top      bool
	focused  bool
	w        int
	title    string
	position string
}

// New returns an empty pane with c's navigation keys and styles; give it
// a size (SetSize) and content (SetContent) before drawing it.
func New(c *common.Common) *Model {
	p := &Model{c: c, builtW: -1, frame: map[frameKey]string{}, KeyMap: c.Nav, Styles: DefaultStyles(c.Styles)}
	p.vp = viewport.New(0, 0)
	p.vp.KeyMap = viewport.KeyMap{} // keys are routed by the screen
	return p
}

// SetContent replaces the pane's title, copy text and content builder.
// The scroll position returns to the top.
func (p *Model) SetContent(title, raw string, build func(width int) string) {
	p.vp.GotoTop()
	p.SetBuild(title, raw, build)
}

// SetBuild replaces the title, copy text and content builder like
// SetContent, but keeps the scroll position where possible (a list that
// grows or whose selection moves).
func (p *Model) SetBuild(title, raw string, build func(width int) string) {
	p.title, p.raw, p.build = title, raw, build
	p.summary = common.Sanitize(OneLine(raw))
	p.builtW = -1
	p.refresh()
}

// SetTitle changes the title only.
func (p *Model) SetTitle(title string) { p.title = title }

// Invalidate rebuilds the content at the current width, keeping the
// scroll position where possible.
func (p *Model) Invalidate() {
	p.builtW = -1
	p.refresh()
}

// SetSize sets the outer size; content is rebuilt only if the inner width
// changed.
func (p *Model) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	p.refresh()
}

// inner is the content area: inside the border, after a one-cell left
// margin.
func (p *Model) Inner() (int, int) { return max(p.w-3, 0), max(p.h-2, 0) }

func (p *Model) refresh() {
	iw, ih := p.Inner()
	p.vp.Width, p.vp.Height = iw, ih
	if p.builtW != iw {
		content := ""
		if p.build != nil && iw > 0 {
			content = p.build(iw)
		}
		p.vp.SetContent(content)
		p.builtW = iw
	}
	p.vp.SetYOffset(p.vp.YOffset) // clamp to the new height
}

// Scroll handles the navigation keys; it returns true if msg was one.
func (p *Model) Scroll(nav keymap.Nav, km tea.KeyMsg) bool {
	return ScrollViewport(&p.vp, nav, km)
}

// ScrollViewport moves a viewport for the navigation keys (line, page,
// top, bottom) and reports whether km was one of them.
func ScrollViewport(vp *viewport.Model, nav keymap.Nav, km tea.KeyMsg) bool {
	switch {
	case key.Matches(km, nav.Up):
		vp.ScrollUp(1)
	case key.Matches(km, nav.Down):
		vp.ScrollDown(1)
	case key.Matches(km, nav.PageUp):
		vp.PageUp()
	case key.Matches(km, nav.PageDown):
		vp.PageDown()
	case key.Matches(km, nav.Top):
		vp.GotoTop()
	case key.Matches(km, nav.Bottom):
		vp.GotoBottom()
	default:
		return false
	}
	return true
}

// ScrollOffset moves a line offset for the navigation keys (line, page
// of height-2, top, bottom at end) and reports whether k was one of them.
// The caller clamps the result to its content.
func ScrollOffset(nav keymap.Nav, k tea.KeyMsg, off, height, end int) (int, bool) {
	switch {
	case key.Matches(k, nav.Up):
		return off - 1, true
	case key.Matches(k, nav.Down):
		return off + 1, true
	case key.Matches(k, nav.PageUp):
		return off - max(height-2, 1), true
	case key.Matches(k, nav.PageDown):
		return off + max(height-2, 1), true
	case key.Matches(k, nav.Top):
		return 0, true
	case key.Matches(k, nav.Bottom):
		return end, true
	}
	return off, false
}

// View draws the box: the title in the top border, the scroll position in
// the bottom one, a heavy border when focused (visible without colour).
func (p *Model) View() string {
	if p.w < 3 || p.h < 2 {
		return strings.TrimSuffix(strings.Repeat(strings.Repeat(" ", p.w)+"\n", p.h), "\n")
	}
	iw, ih := p.Inner()
	bs := p.Styles.Border
	vert := "│"
	if p.focused {
		bs = p.Styles.BorderFocused
		vert = "┃"
	}
	side := bs.Render(vert)
	var b strings.Builder
	b.WriteString(p.border(true, ""))
	if ih == 1 && p.summary != "" {
		line := p.Styles.Muted.Render(ansi.Truncate(p.summary, iw, "…"))
		if lw := ansi.StringWidth(line); lw < iw {
			line += strings.Repeat(" ", iw-lw)
		}
		b.WriteString("\n" + side + " " + line + side + "\n")
		b.WriteString(p.border(false, "tab to expand"))
		return b.String()
	}
	if ih > 0 {
		body := p.vp.View()
		lines := strings.Split(body, "\n")
		for i := 0; i < ih; i++ {
			line := ""
			if i < len(lines) {
				line = lines[i]
			}
			if lw := ansi.StringWidth(line); lw < iw {
				line += strings.Repeat(" ", iw-lw)
			} else if lw > iw {
				line = ansi.Truncate(line, iw, "")
			}
			b.WriteString("\n")
			b.WriteString(side)
			b.WriteByte(' ')
			b.WriteString(line)
			b.WriteString(side)
		}
	}
	b.WriteString("\n")
	b.WriteString(p.border(false, p.position()))
	return b.String()
}

// OneLine is raw as one line: compact JSON, or the text with its line
// breaks folded.
func OneLine(raw string) string {
	if raw == "" {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(raw)) == nil {
		return buf.String()
	}
	return common.OneLineText(raw)
}

// position is "12-30/44" when the content overflows, "" otherwise.
func (p *Model) position() string {
	total := p.vp.TotalLineCount()
	_, ih := p.Inner()
	if total <= ih || ih <= 0 {
		return ""
	}
	first := p.vp.YOffset + 1
	last := min(p.vp.YOffset+ih, total)
	arrow := "↓"
	switch {
	case p.vp.AtBottom():
		arrow = "↑"
	case p.vp.YOffset > 0:
		arrow = "↕"
	}
	return fmt.Sprintf("%s %d-%d/%d", arrow, first, last, total)
}

// border renders the top (with title) or bottom (with position) edge.
func (p *Model) border(top bool, position string) string {
	k := frameKey{top: top, focused: p.focused, w: p.w, title: p.title, position: position}
	if s, ok := p.frame[k]; ok {
		return s
	}
	bs, ts := p.Styles.Border, p.Styles.Title
	l, r, h := "╭", "╮", "─"
	if !top {
		l, r = "╰", "╯"
	}
	if p.focused {
		bs, ts = p.Styles.BorderFocused, p.Styles.TitleFocused
		l, r, h = "┏", "┓", "━"
		if !top {
			l, r = "┗", "┛"
		}
	}
	iw := p.w - 2
	label := position
	if top {
		label = p.title
		if p.focused && label != "" {
			label = "▸ " + label
		}
	}
	var s string
	if label == "" || iw < 5 {
		s = bs.Render(l + strings.Repeat(h, iw) + r)
	} else {
		label = ansi.Truncate(label, iw-4, "…")
		fill := iw - 2 - ansi.StringWidth(label)
		if top {
			s = bs.Render(l+h) + ts.Render(" "+label+" ") + bs.Render(strings.Repeat(h, max(fill-1, 0))+r)
		} else {
			s = bs.Render(l+strings.Repeat(h, max(fill-1, 0))) + p.Styles.Muted.Render(" "+label+" ") + bs.Render(h+r)
		}
	}
	if len(p.frame) > 64 {
		clear(p.frame)
	}
	p.frame[k] = s
	return s
}

// SetFocused draws the pane with a heavy border and a ▸ before its title
// (visible without colour) when on.
func (p *Model) SetFocused(on bool) { p.focused = on }

// Focused reports whether the pane is drawn focused.
func (p *Model) Focused() bool { return p.focused }

// Raw is the text y copies (the envelope as it came).
func (p *Model) Raw() string { return p.raw }

// Title is the pane's title.
func (p *Model) Title() string { return p.title }

// Height is the pane's outer height in rows, border included.
func (p *Model) Height() int { return p.h }

// Width is the pane's outer width in cells, border included.
func (p *Model) Width() int { return p.w }

// Viewport is the scrolled content, for screens that move the offset
// themselves (jump to a step, keep a cursor in view).
func (p *Model) Viewport() *viewport.Model { return &p.vp }

// ShortHelp implements help.KeyMap.
func (p *Model) ShortHelp() []key.Binding { return []key.Binding{p.KeyMap.Up, p.KeyMap.Down} }

// FullHelp implements help.KeyMap.
func (p *Model) FullHelp() [][]key.Binding {
	k := p.KeyMap
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}

// Update scrolls the pane for its keys and for the mouse wheel (three
// lines a notch); anything else is ignored.
func (p *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		p.Scroll(p.KeyMap, msg)
	case tea.MouseMsg:
		p.Wheel(msg)
	}
	return p, nil
}

// Wheel scrolls for a mouse wheel event and reports whether it was one.
func (p *Model) Wheel(msg tea.MouseMsg) bool {
	return WheelViewport(&p.vp, msg)
}

// WheelViewport scrolls vp three lines a wheel notch and reports whether
// msg was a wheel event.
func WheelViewport(vp *viewport.Model, msg tea.MouseMsg) bool {
	if msg.Action != tea.MouseActionPress {
		return false
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		vp.ScrollUp(3)
	case tea.MouseButtonWheelDown:
		vp.ScrollDown(3)
	default:
		return false
	}
	return true
}

// Contains reports whether the cell (x, y), relative to the pane's top
// left corner, lies on the pane.
func (p *Model) Contains(x, y int) bool { return x >= 0 && y >= 0 && x < p.w && y < p.h }
