// Package timeline is one simulated agent's run drawn step by step on its
// virtual clock: the steps revealed so far (calls with their outcome,
// waits, messages, escalations), a cursor on one of them, and headings
// where the tasks of a series begin, in a titled scrollable pane. The
// agents page shows two side by side (the naive and the informed agent)
// and one for a subagent; a walkthrough can reveal one event per click.
//
// The lines are built when something changes (a reveal, a cursor move,
// focus, a new width); View only slices them.
package timeline

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/keymap"
	"github.com/errorlab/errorlab/ui/styles"
)

// TimeEps is how close two virtual times (in seconds) must be to count as
// the same moment: the agents' clocks add up tenths in floating point.
const TimeEps = 1e-6

// Part marks where one task of a series starts in a timeline.
type Part struct {
	Start    int    // index of the part's first step
	Scenario string // the part's scenario id
	Style    string // the response style the agent met in it (a mockserver style id)
	Label    string // the heading drawn above the part's first step
}

// KeyMap is the timeline's keys: they move the cursor over the revealed
// steps (a page is a third of the pane's height).
type KeyMap struct {
	Up       key.Binding // previous step
	Down     key.Binding // next step
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding // first step
	Bottom   key.Binding // last revealed step
}

// DefaultKeyMap returns the navigation keys (arrows, j/k, pgup/pgdn,
// g/G) described as step moves.
func DefaultKeyMap() KeyMap { return KeyMapFrom(keymap.DefaultNav()) }

// KeyMapFrom makes the timeline's keys from a set of navigation keys,
// with the help describing step moves.
func KeyMapFrom(n keymap.Nav) KeyMap {
	return KeyMap{
		Up:       common.Brief(n.Up, "previous step"),
		Down:     common.Brief(n.Down, "next step"),
		PageUp:   n.PageUp,
		PageDown: n.PageDown,
		Top:      common.Brief(n.Top, "first step"),
		Bottom:   common.Brief(n.Bottom, "last step"),
	}
}

// Styles draw the steps; the box around them is the pane's (Pane().Styles).
type Styles struct {
	Cursor   lipgloss.Style // the ▸ before the selected step when focused
	Muted    lipgloss.Style // times, the › cursor when not focused, the empty text
	Text     lipgloss.Style // a step's text
	Selected lipgloss.Style // the selected step's text
	Symbol   lipgloss.Style // the kind's symbol (→ ⏱ ✉ ⇡)
	Heading  lipgloss.Style // a series part's heading
	OK       lipgloss.Style // ✓ success
	Warn     lipgloss.Style // ⚠ and ∅ outcomes
	Bad      lipgloss.Style // ✗ outcomes
}

// DefaultStyles takes the timeline's styles from a session's styles.
func DefaultStyles(st *styles.Styles) Styles {
	return Styles{
		Cursor: st.Cursor, Muted: st.Muted, Text: st.Plain, Selected: st.Selected,
		Symbol: st.Accent, Heading: st.Heading, OK: st.OK, Warn: st.Warn, Bad: st.Bad,
	}
}

// Model is one agent's run as a list of steps revealed one at a time,
// drawn into a bordered, scrollable pane, with a cursor on a revealed
// step. The mouse wheel scrolls it freely until the cursor next moves.
type Model struct {
	p       *pane.Model
	steps   []agent.Step
	parts   []Part
	shown   int
	cursor  int // selected step, -1 when nothing is shown
	timeW   int // width of the t= column, shared by timelines side by side
	empty   string
	lineOf  []int // first line (part header included) of each shown step
	lineEnd []int // the line after each shown step
	// free is set when the wheel scrolled the pane: the view no longer
	// follows the cursor until it moves.
	free bool

	// KeyMap moves the cursor (Update); it starts from the session's
	// navigation keys.
	KeyMap KeyMap
	// Styles draw the steps; they start from the session's.
	Styles Styles
}

// New returns an empty timeline with c's keys and styles; give it a size
// (SetSize) and steps (SetSteps).
func New(c *common.Common) *Model {
	return &Model{p: pane.New(c), cursor: -1, KeyMap: KeyMapFrom(c.Nav), Styles: DefaultStyles(c.Styles)}
}

// SetSteps loads a run's steps, all hidden, with the parts of a series
// (nil for one task) and the width of the time column in cells
// (TimeColumn of the longest run shown beside it).
func (t *Model) SetSteps(steps []agent.Step, parts []Part, timeW int) {
	t.steps, t.parts, t.timeW = steps, parts, timeW
	t.shown, t.cursor = 0, -1
	t.free = false
	t.p.Viewport().GotoTop()
	t.Refresh()
}

// SetEmpty sets the text shown while no step is revealed ("Loading…"). It
// shows from the next rebuild (Refresh, or anything that changes the
// steps shown).
func (t *Model) SetEmpty(text string) { t.empty = text }

// SetTitle changes the pane's title.
func (t *Model) SetTitle(title string) { t.p.SetTitle(title) }

// Steps is the whole run, hidden steps included.
func (t *Model) Steps() []agent.Step { return t.steps }

// Shown is how many steps are revealed.
func (t *Model) Shown() int { return t.shown }

// Done reports whether every step is revealed.
func (t *Model) Done() bool { return t.shown >= len(t.steps) }

// NextT is the virtual time (seconds) of the next hidden step; ok is
// false when every step is shown.
func (t *Model) NextT() (float64, bool) {
	if t.Done() {
		return 0, false
	}
	return t.steps[t.shown].T, true
}

// Reveal shows the next step and selects it.
func (t *Model) Reveal() {
	if t.Done() {
		return
	}
	t.shown++
	t.cursor = t.shown - 1
	t.free = false
	t.Refresh()
}

// RevealAll shows every step and selects the last.
func (t *Model) RevealAll() {
	t.shown = len(t.steps)
	t.cursor = t.shown - 1
	t.free = false
	t.Refresh()
}

// SetShown reveals exactly the first n steps (clamped to the run) and
// selects the last of them, in one rebuild: a walkthrough going back a
// click, or catching up with another view, jumps straight there.
func (t *Model) SetShown(n int) {
	t.shown = min(max(n, 0), len(t.steps))
	t.cursor = t.shown - 1
	t.free = false
	if t.shown == 0 {
		t.p.Viewport().GotoTop()
	}
	t.Refresh()
}

// Reset hides every step again.
func (t *Model) Reset() {
	t.shown, t.cursor = 0, -1
	t.free = false
	t.p.Viewport().GotoTop()
	t.Refresh()
}

// Clock is the virtual time (seconds) of the latest shown step, 0 before
// the first.
func (t *Model) Clock() float64 {
	if t.shown == 0 {
		return 0
	}
	return t.steps[t.shown-1].T
}

// Calls counts the calls and escalations shown so far.
func (t *Model) Calls() int {
	n := 0
	for _, s := range t.steps[:t.shown] {
		if s.Kind == agent.StepCall || s.Kind == agent.StepEscalate {
			n++
		}
	}
	return n
}

// Move shifts the cursor by d steps over the shown ones.
func (t *Model) Move(d int) {
	if t.shown == 0 {
		return
	}
	t.cursor = min(max(t.cursor+d, 0), t.shown-1)
	t.free = false
	t.Refresh()
}

// Select puts the cursor on step i (0 = the first).
func (t *Model) Select(i int) {
	t.cursor = i
	t.free = false
	t.Refresh()
}

// Cursor is the index of the selected step, -1 when nothing is shown.
func (t *Model) Cursor() int { return t.cursor }

// Selected is the step under the cursor, nil when nothing is shown.
func (t *Model) Selected() *agent.Step {
	if t.cursor < 0 || t.cursor >= t.shown {
		return nil
	}
	return &t.steps[t.cursor]
}

// PartOf returns the part holding step i, if the run is a series.
func (t *Model) PartOf(i int) (Part, bool) {
	var p Part
	ok := false
	for _, x := range t.parts {
		if x.Start <= i {
			p, ok = x, true
		}
	}
	return p, ok
}

// Refresh re-renders the lines at the pane's width and keeps the cursor
// in view.
func (t *Model) Refresh() {
	t.p.SetBuild(t.p.Title(), "", t.build)
	t.Follow()
}

// SetSize sets the outer size in cells and keeps the cursor in view.
func (t *Model) SetSize(w, h int) {
	t.p.SetSize(w, h)
	t.Follow()
}

// SetFocused draws the timeline focused (a heavy border, ▸ on the
// selected step) when on.
func (t *Model) SetFocused(on bool) {
	if t.p.Focused() != on {
		t.p.SetFocused(on)
		t.Refresh()
	}
}

// Focused reports whether the timeline is drawn focused.
func (t *Model) Focused() bool { return t.p.Focused() }

// Pane is the pane the timeline draws in, for a layout that measures it
// or sizes it with others.
func (t *Model) Pane() *pane.Model { return t.p }

// ContentHeight is the number of lines the revealed steps take at inner
// width w.
func (t *Model) ContentHeight(w int) int { return strings.Count(t.build(w), "\n") + 1 }

// Follow scrolls so that the selected step is visible, unless the wheel
// has scrolled the pane since the cursor last moved.
func (t *Model) Follow() {
	if t.free || t.cursor < 0 || t.cursor >= len(t.lineOf) {
		return
	}
	_, ih := t.p.Inner()
	if ih <= 0 {
		return
	}
	start, end := t.lineOf[t.cursor], t.lineEnd[t.cursor]
	y := t.p.Viewport().YOffset
	if end > y+ih {
		y = end - ih
	}
	if start < y {
		y = start
	}
	t.p.Viewport().SetYOffset(y)
}

// Update moves the cursor for the KeyMap's keys and scrolls for the mouse
// wheel; anything else is ignored.
func (t *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		t.key(msg)
	case tea.MouseMsg:
		t.Wheel(msg)
	}
	return t, nil
}

func (t *Model) key(k tea.KeyMsg) {
	km := t.KeyMap
	page := max(t.p.Height()/3, 1)
	switch {
	case key.Matches(k, km.Up):
		t.Move(-1)
	case key.Matches(k, km.Down):
		t.Move(1)
	case key.Matches(k, km.PageUp):
		t.Move(-page)
	case key.Matches(k, km.PageDown):
		t.Move(page)
	case key.Matches(k, km.Top):
		t.Move(-len(t.steps))
	case key.Matches(k, km.Bottom):
		t.Move(len(t.steps))
	}
}

// Wheel scrolls the pane for a mouse wheel event (the cursor stays where
// it is) and reports whether it was one.
func (t *Model) Wheel(msg tea.MouseMsg) bool {
	if !t.p.Wheel(msg) {
		return false
	}
	t.free = true
	return true
}

// View draws the pane.
func (t *Model) View() string { return t.p.View() }

// ShortHelp implements help.KeyMap.
func (t *Model) ShortHelp() []key.Binding { return []key.Binding{t.KeyMap.Up, t.KeyMap.Down} }

// FullHelp implements help.KeyMap.
func (t *Model) FullHelp() [][]key.Binding {
	k := t.KeyMap
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}

func (t *Model) build(w int) string {
	st := t.Styles
	t.lineOf, t.lineEnd = t.lineOf[:0], t.lineEnd[:0]
	if t.shown == 0 {
		t.lineOf, t.lineEnd = nil, nil
		return ansi.Wrap(st.Muted.Render(t.empty), w, "")
	}
	var out []string
	pi := 0
	for i, s := range t.steps[:t.shown] {
		start := len(out)
		for pi < len(t.parts) && t.parts[pi].Start == i {
			if len(out) > 0 {
				out = append(out, "")
			}
			out = append(out, st.Heading.Render(ansi.Truncate("── "+t.parts[pi].Label+" ", w, "…")))
			pi++
		}
		out = append(out, st.stepLines(s, w, t.timeW, i == t.cursor, t.p.Focused())...)
		t.lineOf = append(t.lineOf, start)
		t.lineEnd = append(t.lineEnd, len(out))
	}
	return strings.Join(out, "\n")
}

// TimeLabel is "t=12.4s" for a virtual time in seconds.
func TimeLabel(sec float64) string { return fmt.Sprintf("t=%.1fs", sec) }

// TimeColumn is the width in cells of the t= column for runs lasting up
// to longest virtual seconds.
func TimeColumn(longest float64) int { return len(TimeLabel(longest)) }

// symbol is the monochrome marker of a step's kind.
func symbol(k agent.StepKind) string {
	switch k {
	case agent.StepCall:
		return "→"
	case agent.StepWait:
		return "⏱"
	case agent.StepMessage:
		return "✉"
	case agent.StepEscalate:
		return "⇡"
	}
	return "•"
}

// stepLines renders one step at width w: the cursor mark, the virtual
// time, the kind with its symbol and the step's detail; calls and
// escalations get their outcome on a second line.
func (st Styles) stepLines(s agent.Step, w, timeW int, selected, focused bool) []string {
	mark := "  "
	switch {
	case selected && focused:
		mark = st.Cursor.Render("▸ ")
	case selected:
		mark = st.Muted.Render("› ")
	}
	tl := TimeLabel(s.T)
	lead := mark + st.Muted.Render(tl+strings.Repeat(" ", max(timeW-len(tl), 0))) + " "
	indent := 2 + timeW + 1 + 2 // under the text after the symbol
	room := max(w-indent, 1)
	bodySt := st.Text
	if selected {
		bodySt = st.Selected
	}
	sym := st.Symbol.Render(symbol(s.Kind)) + " "
	pad := strings.Repeat(" ", indent)
	var out []string
	switch s.Kind {
	case agent.StepCall, agent.StepEscalate:
		what := string(s.Kind) + " " + s.Tool
		if len(s.Arguments) > 0 {
			what += " " + common.ArgsJSON(s.Arguments)
		}
		out = append(out, lead+sym+bodySt.Render(ansi.Truncate(common.Sanitize(common.OneLineText(what)), room, "…")))
		osym, otext := Outcome(s)
		out = append(out, pad+st.outcomeStyle(osym).Render(ansi.Truncate(osym+" "+otext, room, "…")))
	case agent.StepWait:
		text := fmt.Sprintf("wait %gs", s.Seconds)
		if s.Text != "" {
			text += " · " + s.Text
		}
		out = append(out, hanging(lead+sym, bodySt, text, room, pad)...)
	case agent.StepMessage:
		text := s.Text
		if json.Valid([]byte(strings.TrimSpace(text))) {
			// A report to the coordinator: one line here, in full in
			// the report pane.
			text = pane.OneLine(text)
			out = append(out, lead+sym+bodySt.Render(ansi.Truncate(common.Sanitize("to "+s.To+": "+text), room, "…")))
			break
		}
		out = append(out, hanging(lead+sym, bodySt, "to "+s.To+": "+text, room, pad)...)
	default:
		out = append(out, lead+sym+bodySt.Render(ansi.Truncate(string(s.Kind), room, "…")))
	}
	return out
}

// hanging wraps text to room cells after lead; continuation lines start
// with pad.
func hanging(lead string, st lipgloss.Style, text string, room int, pad string) []string {
	lines := strings.Split(ansi.Wrap(common.Sanitize(common.OneLineText(text)), room, ""), "\n")
	out := make([]string, len(lines))
	for i, l := range lines {
		if i == 0 {
			out[i] = lead + st.Render(l)
			continue
		}
		out[i] = pad + st.Render(l)
	}
	return out
}

// Outcome says what a call's response was, as a symbol and a few words:
// isError true (category), protocol error -32602, success, or success,
// empty. Plain text, for a title or a status line.
func Outcome(s agent.Step) (sym, text string) {
	switch {
	case s.Protocol != 0:
		return "✗", fmt.Sprintf("protocol error %d (no tool result)", s.Protocol)
	case s.Outcome == nil:
		return "⚠", "no readable response"
	case s.Outcome.Layer == rules.LayerExecution:
		cat := string(s.Outcome.ErrorCategory)
		if cat == "" {
			cat = "no category"
		}
		return "✗", "isError true (" + cat + ")"
	case s.Outcome.Empty:
		return "∅", "success, empty"
	case s.Exchange != nil && common.LooksLikeErrorText(*s.Exchange):
		return "⚠", "success, but its text reads as an error"
	}
	return "✓", "success"
}

// outcomeStyle is the colour of an outcome's symbol.
func (st Styles) outcomeStyle(sym string) lipgloss.Style {
	switch sym {
	case "✗":
		return st.Bad
	case "⚠", "∅":
		return st.Warn
	}
	return st.OK
}
