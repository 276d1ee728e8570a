package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/styles"
)

// timeEps is how close two virtual times must be to count as the same
// moment (the agents' clocks add up tenths in floating point).
const timeEps = 1e-6

// timelinePart marks where one task of a series starts in a timeline.
type timelinePart struct {
	start    int    // index of the part's first step
	scenario string // the part's scenario id
	style    string // the style the agent met in it
	label    string
}

// timeline is one agent's run as a list of steps revealed one at a time,
// drawn into a bordered, scrollable pane. The lines are built in Update
// (on reveal, cursor move, focus or width change); View only slices.
type timeline struct {
	c       *common.Common
	p       *pane.Model
	steps   []agent.Step
	parts   []timelinePart
	shown   int
	cursor  int // selected step, -1 when nothing is shown
	timeW   int // width of the t= column, shared by the two sides
	empty   string
	lineOf  []int // first line (part header included) of each shown step
	lineEnd []int // the line after each shown step
}

func newTimeline(c *common.Common) *timeline {
	return &timeline{c: c, p: pane.New(c), cursor: -1}
}

// set loads a run's steps, hiding them all.
func (t *timeline) set(steps []agent.Step, parts []timelinePart, timeW int) {
	t.steps, t.parts, t.timeW = steps, parts, timeW
	t.shown, t.cursor = 0, -1
	t.p.Viewport().GotoTop()
	t.rebuild()
}

// setTitle changes the pane's title.
func (t *timeline) setTitle(title string) { t.p.SetTitle(title) }

func (t *timeline) done() bool { return t.shown >= len(t.steps) }

// nextT is the virtual time of the next hidden step.
func (t *timeline) nextT() (float64, bool) {
	if t.done() {
		return 0, false
	}
	return t.steps[t.shown].T, true
}

// reveal shows the next step and selects it.
func (t *timeline) reveal() {
	if t.done() {
		return
	}
	t.shown++
	t.cursor = t.shown - 1
	t.rebuild()
}

func (t *timeline) revealAll() {
	t.shown = len(t.steps)
	t.cursor = t.shown - 1
	t.rebuild()
}

func (t *timeline) reset() {
	t.shown, t.cursor = 0, -1
	t.p.Viewport().GotoTop()
	t.rebuild()
}

// clock is the virtual time of the latest shown step.
func (t *timeline) clock() float64 {
	if t.shown == 0 {
		return 0
	}
	return t.steps[t.shown-1].T
}

// calls counts the calls and escalations shown so far.
func (t *timeline) calls() int {
	n := 0
	for _, s := range t.steps[:t.shown] {
		if s.Kind == agent.StepCall || s.Kind == agent.StepEscalate {
			n++
		}
	}
	return n
}

// move shifts the cursor by d over the shown steps.
func (t *timeline) move(d int) {
	if t.shown == 0 {
		return
	}
	t.cursor = min(max(t.cursor+d, 0), t.shown-1)
	t.rebuild()
}

func (t *timeline) selected() *agent.Step {
	if t.cursor < 0 || t.cursor >= t.shown {
		return nil
	}
	return &t.steps[t.cursor]
}

// partOf returns the part holding step i, if the run is a series.
func (t *timeline) partOf(i int) (timelinePart, bool) {
	var p timelinePart
	ok := false
	for _, x := range t.parts {
		if x.start <= i {
			p, ok = x, true
		}
	}
	return p, ok
}

// rebuild re-renders the lines at the pane's width and keeps the cursor
// in view.
func (t *timeline) rebuild() {
	t.p.SetBuild(t.p.Title(), "", t.build)
	t.follow()
}

// setSize sizes the pane and keeps the cursor in view.
func (t *timeline) setSize(w, h int) {
	t.p.SetSize(w, h)
	t.follow()
}

func (t *timeline) setFocused(on bool) {
	if t.p.Focused() != on {
		t.p.SetFocused(on)
		t.rebuild()
	}
}

// follow scrolls so that the selected step is visible.
func (t *timeline) follow() {
	if t.cursor < 0 || t.cursor >= len(t.lineOf) {
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

func (t *timeline) build(w int) string {
	st := t.c.Styles
	t.lineOf, t.lineEnd = t.lineOf[:0], t.lineEnd[:0]
	if t.shown == 0 {
		t.lineOf, t.lineEnd = nil, nil
		return ansi.Wrap(st.Muted.Render(t.empty), w, "")
	}
	var out []string
	pi := 0
	for i, s := range t.steps[:t.shown] {
		start := len(out)
		for pi < len(t.parts) && t.parts[pi].start == i {
			if len(out) > 0 {
				out = append(out, "")
			}
			out = append(out, st.Heading.Render(ansi.Truncate("── "+t.parts[pi].label+" ", w, "…")))
			pi++
		}
		out = append(out, stepLines(st, s, w, t.timeW, i == t.cursor, t.p.Focused())...)
		t.lineOf = append(t.lineOf, start)
		t.lineEnd = append(t.lineEnd, len(out))
	}
	return strings.Join(out, "\n")
}

// timeLabel is "t=12.4s".
func timeLabel(sec float64) string { return fmt.Sprintf("t=%.1fs", sec) }

// timeColumn is the width of the t= column for runs lasting up to max
// virtual seconds.
func timeColumn(max float64) int { return len(timeLabel(max)) }

// stepSymbol is the monochrome marker of a step's kind.
func stepSymbol(k agent.StepKind) string {
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
func stepLines(st *styles.Styles, s agent.Step, w, timeW int, selected, focused bool) []string {
	mark := "  "
	switch {
	case selected && focused:
		mark = st.Cursor.Render("▸ ")
	case selected:
		mark = st.Muted.Render("› ")
	}
	tl := timeLabel(s.T)
	lead := mark + st.Muted.Render(tl+strings.Repeat(" ", max(timeW-len(tl), 0))) + " "
	indent := 2 + timeW + 1 + 2 // under the text after the symbol
	room := max(w-indent, 1)
	bodySt := st.Plain
	if selected {
		bodySt = st.Selected
	}
	sym := st.Accent.Render(stepSymbol(s.Kind)) + " "
	pad := strings.Repeat(" ", indent)
	var out []string
	switch s.Kind {
	case agent.StepCall, agent.StepEscalate:
		what := string(s.Kind) + " " + s.Tool
		if len(s.Arguments) > 0 {
			what += " " + common.ArgsJSON(s.Arguments)
		}
		out = append(out, lead+sym+bodySt.Render(ansi.Truncate(common.Sanitize(common.OneLineText(what)), room, "…")))
		osym, otext, ost := stepOutcome(st, s)
		out = append(out, pad+ost.Render(ansi.Truncate(osym+" "+otext, room, "…")))
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

// stepOutcome says what a call's response was: isError true (category),
// protocol error -32602, success, or success, empty, with a symbol.
func stepOutcome(st *styles.Styles, s agent.Step) (string, string, lipgloss.Style) {
	switch {
	case s.Protocol != 0:
		return "✗", fmt.Sprintf("protocol error %d (no tool result)", s.Protocol), st.Bad
	case s.Outcome == nil:
		return "⚠", "no readable response", st.Warn
	case s.Outcome.Layer == rules.LayerExecution:
		cat := string(s.Outcome.ErrorCategory)
		if cat == "" {
			cat = "no category"
		}
		return "✗", "isError true (" + cat + ")", st.Bad
	case s.Outcome.Empty:
		return "∅", "success, empty", st.Warn
	case s.Exchange != nil && common.LooksLikeErrorText(*s.Exchange):
		return "⚠", "success, but its text reads as an error", st.Warn
	}
	return "✓", "success", st.OK
}

// outcomePlain is stepOutcome without styles, for titles.
func outcomePlain(st *styles.Styles, s agent.Step) string {
	sym, text, _ := stepOutcome(st, s)
	return sym + " " + text
}

// runGood reports whether a run ended well: resolved correctly or
// escalated properly (every part of a series).
func runGood(r *agent.Run) bool {
	if len(r.Parts) > 0 {
		for _, p := range r.Parts {
			if !runGood(p) {
				return false
			}
		}
		return true
	}
	return r.Verdict == agent.Resolved || r.Verdict == agent.Escalated
}

// verdictText renders a verdict with ✓ (resolved correctly, escalated
// properly) or ✗ (wasted effort, a wrong answer given with confidence).
func verdictText(st *styles.Styles, r *agent.Run) string {
	if runGood(r) {
		return st.OK.Render("✓ " + string(r.Verdict))
	}
	return st.Bad.Render("✗ " + string(r.Verdict))
}

// shortVerdict is verdictText in one word, for the per-scenario table.
func shortVerdict(st *styles.Styles, r *agent.Run) string {
	word := map[agent.Verdict]string{agent.Resolved: "resolved", agent.Escalated: "escalated", agent.Wasted: "wasted", agent.Wrong: "wrong answer"}[r.Verdict]
	if word == "" {
		word = string(r.Verdict)
	}
	if runGood(r) {
		return st.OK.Render("✓ " + word)
	}
	return st.Bad.Render("✗ " + word)
}

// compactVerdict is verdictText in as few words as possible: one word
// for a run, counts of one-word verdicts for a series.
func compactVerdict(st *styles.Styles, r *agent.Run) string {
	if len(r.Parts) == 0 {
		return shortVerdict(st, r)
	}
	words := map[agent.Verdict]string{agent.Resolved: "resolved", agent.Escalated: "escalated", agent.Wasted: "wasted", agent.Wrong: "wrong"}
	counts := map[agent.Verdict]int{}
	for _, p := range r.Parts {
		counts[p.Verdict]++
	}
	var parts []string
	for _, v := range []agent.Verdict{agent.Resolved, agent.Escalated, agent.Wasted, agent.Wrong} {
		if counts[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[v], words[v]))
		}
	}
	text := strings.Join(parts, ", ")
	if runGood(r) {
		return st.OK.Render("✓ " + text)
	}
	return st.Bad.Render("✗ " + text)
}
