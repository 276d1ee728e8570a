package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// pane is a bordered, titled, scrollable box (a bubbles viewport inside).
// Its content is produced by a builder for a given inner width and cached
// until the width or the content changes, so View only slices lines.
type pane struct {
	c       *Common
	title   string
	raw     string           // what y copies
	build   func(int) string // content for an inner width
	vp      viewport.Model
	builtW  int // inner width of the cached content; -1 = stale
	w, h    int // outer size in cells
	focused bool
	summary string              // one line standing in for the content when only one row shows
	frame   map[frameKey]string // cached top/bottom borders
}

type frameKey struct {
	top      bool
	focused  bool
	w        int
	title    string
	position string
}

func newPane(c *Common) *pane {
	p := &pane{c: c, builtW: -1, frame: map[frameKey]string{}}
	p.vp = viewport.New(0, 0)
	p.vp.KeyMap = viewport.KeyMap{} // keys are routed by the screen
	return p
}

// SetContent replaces the pane's title, copy text and content builder.
// The scroll position returns to the top.
func (p *pane) SetContent(title, raw string, build func(width int) string) {
	p.title, p.raw, p.build = title, raw, build
	p.summary = oneLine(raw)
	p.builtW = -1
	p.vp.GotoTop()
	p.refresh()
}

// SetBuild replaces the title, copy text and content builder like
// SetContent, but keeps the scroll position where possible (a list that
// grows or whose selection moves).
func (p *pane) SetBuild(title, raw string, build func(width int) string) {
	p.title, p.raw, p.build = title, raw, build
	p.summary = oneLine(raw)
	p.builtW = -1
	p.refresh()
}

// SetTitle changes the title only.
func (p *pane) SetTitle(title string) { p.title = title }

// Invalidate rebuilds the content at the current width, keeping the
// scroll position where possible.
func (p *pane) Invalidate() {
	p.builtW = -1
	p.refresh()
}

// SetSize sets the outer size; content is rebuilt only if the inner width
// changed.
func (p *pane) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	p.refresh()
}

// inner is the content area: inside the border, after a one-cell left
// margin.
func (p *pane) inner() (int, int) { return max(p.w-3, 0), max(p.h-2, 0) }

func (p *pane) refresh() {
	iw, ih := p.inner()
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
func (p *pane) Scroll(nav NavKeys, km tea.KeyMsg) bool {
	return scrollViewport(&p.vp, nav, km)
}

// scrollViewport moves a viewport for the navigation keys (line, page,
// top, bottom) and reports whether km was one of them.
func scrollViewport(vp *viewport.Model, nav NavKeys, km tea.KeyMsg) bool {
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

// scrollOffset moves a line offset for the navigation keys (line, page
// of height-2, top, bottom at end) and reports whether k was one of them.
// The caller clamps the result to its content.
func scrollOffset(nav NavKeys, k tea.KeyMsg, off, height, end int) (int, bool) {
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
func (p *pane) View() string {
	if p.w < 3 || p.h < 2 {
		return strings.TrimSuffix(strings.Repeat(strings.Repeat(" ", p.w)+"\n", p.h), "\n")
	}
	iw, ih := p.inner()
	bs := p.c.Styles.Border
	vert := "│"
	if p.focused {
		bs = p.c.Styles.BorderFocused
		vert = "┃"
	}
	side := bs.Render(vert)
	var b strings.Builder
	b.WriteString(p.border(true, ""))
	if ih == 1 && p.summary != "" {
		line := p.c.Styles.Muted.Render(ansi.Truncate(sanitize(p.summary), iw, "…"))
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

// oneLine is raw as one line: compact JSON, or the text with its line
// breaks folded.
func oneLine(raw string) string {
	if raw == "" {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(raw)) == nil {
		return buf.String()
	}
	return strings.Join(strings.Fields(raw), " ")
}

// position is "12-30/44" when the content overflows, "" otherwise.
func (p *pane) position() string {
	total := p.vp.TotalLineCount()
	_, ih := p.inner()
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
func (p *pane) border(top bool, position string) string {
	k := frameKey{top: top, focused: p.focused, w: p.w, title: p.title, position: position}
	if s, ok := p.frame[k]; ok {
		return s
	}
	bs, ts := p.c.Styles.Border, p.c.Styles.PaneTitle
	l, r, h := "╭", "╮", "─"
	if !top {
		l, r = "╰", "╯"
	}
	if p.focused {
		bs, ts = p.c.Styles.BorderFocused, p.c.Styles.PaneTitleOn
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
			s = bs.Render(l+strings.Repeat(h, max(fill-1, 0))) + p.c.Styles.Muted.Render(" "+label+" ") + bs.Render(h+r)
		}
	}
	if len(p.frame) > 64 {
		clear(p.frame)
	}
	p.frame[k] = s
	return s
}
