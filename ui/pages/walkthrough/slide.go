package walkthrough

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/components/timeline"
)

// The slide: one step drawn into a box of any size, the room's whole
// screen or the presenter's "Now" box. Everything is laid out here, in
// Update and SetSize; View only joins the lines and the components'
// views.

// layKind is how a slide's body is made.
type layKind int

const (
	layText     layKind = iota // lines of text, centred
	layPanes                   // two panes: request | response, bad | good
	laySides                   // two timelines: naive | informed
	layCoord                   // the subagent's timeline | its report over the coordinator's move
	layQuestion                // one pane: the question, then the answer
)

// slideLayout is the slide as last laid out: the lines above the body,
// the body (text, or which components in which arrangement) and the
// lines below it.
type slideLayout struct {
	kind   layKind
	w, h   int
	head   []string
	body   []string
	foot   []string
	beside bool
}

// spot is a box that scrolls, where it is on screen: the wheel over it
// scrolls it, and ↑/↓ scroll the one in focus (tab moves the focus).
type spot struct {
	x, y, w, h int
	vp         *viewport.Model
	wheel      func(tea.MouseMsg) bool
	focus      func(bool)
}

func paneSpot(p *pane.Model, x, y int) spot {
	return spot{x: x, y: y, w: p.Width(), h: p.Height(), vp: p.Viewport(), wheel: p.Wheel, focus: p.SetFocused}
}

func sideSpot(t *timeline.Model, x, y int) spot {
	p := t.Pane()
	return spot{x: x, y: y, w: p.Width(), h: p.Height(), vp: p.Viewport(), wheel: t.Wheel, focus: t.SetFocused}
}

// kindLabel names a step's kind for the room.
func kindLabel(st *wt.Step) string {
	switch st.Kind {
	case wt.KindLiveCall:
		return "live call"
	case wt.KindCompare:
		return "bad and good"
	case wt.KindAgents:
		if st.Coordinator {
			return "subagent"
		}
		return "two agents"
	case wt.KindQuestion:
		return "question to the room"
	}
	return string(st.Kind)
}

// arrangeSlide lays out the current step at its current part in a w×h
// box whose top left corner is at (x0, y0) on screen.
func (m *Model) arrangeSlide(x0, y0, w, h int) {
	m.lay = slideLayout{kind: layText, w: max(w, 0), h: max(h, 0)}
	if w <= 0 || h <= 0 {
		return
	}
	st := m.c.Styles
	v := m.views[m.step]
	step := v.st
	title := common.JoinEnds(st.Heading.Render(common.Sanitize(common.OneLineText(step.Heading(m.c.Catalog)))),
		st.Muted.Render(fmt.Sprintf("%d/%d · %s", m.step+1, len(m.views), kindLabel(step))), w)
	head := []string{title}
	if h >= 16 {
		head = append(head, "")
	}
	m.lay.head = head
	switch {
	case needsData(step) && !v.loaded:
		m.textBody([]string{st.Muted.Render("⏳ " + loadingWords(step))}, nil)
		return
	case v.err != nil:
		m.textBody(common.WrapLines(st.Bad, "✗ this step could not be shown: "+v.err.Error(), max(w-4, 1)), nil)
		return
	}
	auto := m.autoAt != [2]int{m.step, m.part}
	m.autoAt = [2]int{m.step, m.part}
	switch step.Kind {
	case wt.KindNarration, wt.KindTakeaway:
		m.textSlide(step)
	case wt.KindLiveCall:
		m.liveCall(v, x0, y0, auto)
	case wt.KindCompare:
		m.compare(v, x0, y0, auto)
	case wt.KindAgents:
		if v.data.runs.Coordinator != nil {
			m.coordinator(v, x0, y0, auto)
		} else {
			m.agents(v, x0, y0)
		}
	case wt.KindQuestion:
		m.question(v, x0, y0, auto)
	}
}

func loadingWords(st *wt.Step) string {
	switch st.Kind {
	case wt.KindLiveCall, wt.KindCompare:
		return "making the call on the mock server…"
	case wt.KindAgents:
		return "the agents are playing on the virtual clock…"
	}
	return "loading…"
}

// bodyRows is the height left for the body once head and foot are in.
func (m *Model) bodyRows() int {
	return max(m.lay.h-len(m.lay.head)-len(m.lay.foot), 0)
}

// bigText wraps text for the room: at most 66 cells a line, in st's bold
// title style, double-spaced when there is room for that in h rows.
func (m *Model) bigText(text string, w, h int) []string {
	tw := max(min(w-4, 66), 10)
	lines := common.WrapWords(common.Sanitize(common.OneLineText(text)), tw)
	bw := 0
	for _, l := range lines {
		bw = max(bw, ansi.StringWidth(l))
	}
	out := make([]string, 0, 2*len(lines))
	double := 2*len(lines)-1 <= h-4
	for i, l := range lines {
		if double && i > 0 {
			out = append(out, "")
		}
		// Padded to the block's width: the block is centred, its lines
		// read from a straight left edge.
		out = append(out, m.c.Styles.Title.Render(common.PadRight(l, bw)))
	}
	return out
}

// textBody centres lines (and, under them after a blank line, the muted
// hints) in the body.
func (m *Model) textBody(lines, hints []string) {
	h := m.bodyRows()
	block := append([]string{}, lines...)
	if len(hints) > 0 {
		block = append(block, "")
		block = append(block, hints...)
	}
	if len(block) > h {
		block = block[:h]
	}
	w := m.lay.w
	for i, l := range block {
		block[i] = ansi.Truncate(l, w, "…")
	}
	placed := m.c.R.Place(w, h, lipgloss.Center, lipgloss.Center, strings.Join(block, "\n"))
	m.lay.kind, m.lay.body = layText, strings.Split(placed, "\n")
}

// hint is a muted "▷ next click: …" line.
func (m *Model) hint(text string) string {
	if m.follow {
		return "" // the teacher clicks, not the student
	}
	return m.c.Styles.Muted.Render(ansi.Truncate("▷ next click: "+text, max(m.lay.w-2, 1), "…"))
}

// label is the reveal line under the title: "▶ revealing 3/8 · isError:
// true", with "→ next step" on the right at the last part.
func (m *Model) label(lead, text string, last bool) string {
	st := m.c.Styles
	right := ""
	if last && !m.follow {
		right = st.Muted.Render("✓ all shown · → next step")
	}
	return common.JoinEnds(st.Cursor.Render(lead)+" "+st.Bold.Render(common.Sanitize(text)), right, m.lay.w)
}

func (m *Model) textSlide(step *wt.Step) {
	h := m.bodyRows()
	var lines []string
	if step.Kind == wt.KindTakeaway {
		lines = append(lines, m.c.Styles.Accent.Render("★ the one thing to remember"), "")
	}
	lines = append(lines, m.bigText(step.Text, m.lay.w, h-len(lines))...)
	m.textBody(lines, nil)
}

// opening is part 0 of a call or agents step: its caption large, what it
// runs, and what the next click shows.
func (m *Model) opening(step *wt.Step, facts string, next string) {
	text := step.Text
	if strings.TrimSpace(text) == "" {
		text = step.Heading(m.c.Catalog)
	}
	h := m.bodyRows()
	lines := m.bigText(text, m.lay.w, h-4)
	m.textBody(lines, []string{m.c.Styles.Accent.Render(ansi.Truncate(facts, max(m.lay.w-2, 1), "…")), m.hint(next)})
}

// callFacts is "timeout-second-try · good style · spec 2025-11-25".
func callFacts(step *wt.Step, style string) string {
	return fmt.Sprintf("%s · %s style · spec %s", step.Scenario, style, step.Revision)
}

// split shares h rows between two stacked boxes: the one in focus
// (first, when firstBig) gets about two thirds, the other at least 4.
func split(h int, firstBig bool) (int, int) {
	if h < 8 {
		return h / 2, h - h/2
	}
	small := max(h/3, min(4, h/2))
	big := h - small
	if firstBig {
		return big, small
	}
	return small, big
}

// Which of two stacked boxes gets the most rows.
const (
	bigFirst = iota
	bigSecond
	bigNeither
)

// twoBoxes sizes two boxes side by side (from 100 cells) or stacked, in
// the rows the body leaves, the big one (bigFirst, bigSecond or
// bigNeither) with most of them; it returns where the second one starts,
// relative to the body's top left corner.
func (m *Model) twoBoxes(a, b interface{ SetSize(int, int) }, big int) (bx, by int) {
	w, h := m.lay.w, m.bodyRows()
	m.lay.beside = w >= common.SideBySideMin
	if m.lay.beside {
		lw := w / 2
		a.SetSize(lw, h)
		b.SetSize(w-lw, h)
		return lw, 0
	}
	ah, bh := split(h, big == bigFirst)
	if big == bigNeither {
		ah, bh = h/2, h-h/2
	}
	a.SetSize(w, ah)
	b.SetSize(w, bh)
	return 0, ah
}

func (m *Model) liveCall(v *stepView, x0, y0 int, auto bool) {
	d, step, st := v.data, v.st, m.c.Styles
	n := len(d.reveals)
	if m.part == 0 || n == 0 {
		next := "the request"
		if n > 0 {
			next = d.reveals[0].Label
		}
		m.opening(step, callFacts(step, common.StyleLabel(string(step.Style))), next)
		return
	}
	k := min(m.part, n)
	r := d.reveals[k-1]
	m.lay.kind = layPanes
	m.lay.head = append(m.lay.head, m.label(fmt.Sprintf("▶ revealing %d/%d", k, n), r.Label, k == n))
	onResp := r.Side == wt.SideResponse
	req, resp := m.panes[0], m.panes[1]
	big := bigFirst
	if onResp {
		big = bigSecond
	}
	bx, by := m.twoBoxes(req, resp, big)
	// The request: marked while it is the part shown (the whole of it,
	// so no reverse video).
	var reqHL *wt.Lines
	if !onResp {
		reqHL = &r.Lines
	}
	reqFrom := m.setEnvelope(req, "Request (client → server)", d.req, reqHL, false)
	respFrom := -1
	if k >= 2 {
		// A small member in reverse video too; the result member, which
		// is most of the envelope, by the ▶ column alone.
		reverse := !(r.Part == wt.PartLayer && r.Name == "result") && !r.Absent
		var hl *wt.Lines
		if onResp && !r.Absent {
			hl = &r.Lines
		}
		respFrom = m.setEnvelope(resp, "Response (server → client)", d.resp, hl, reverse)
		if auto && onResp {
			scrollTo(resp, respFrom)
		}
	} else {
		resp.SetContent("Response (server → client)", "", func(w int) string { return st.Muted.Render(ansi.Wrap("▷ next click: the response", w, "")) })
	}
	if !m.lay.beside {
		rebalance(req, resp, m.bodyRows())
		by = req.Height()
		if auto && onResp && k >= 2 {
			scrollTo(resp, respFrom)
		}
	}
	if auto && !onResp {
		scrollTo(req, reqFrom)
	}
	if auto && onResp {
		// The request, cut, at the arguments the response is about.
		iw, _ := req.Inner()
		s, _, _ := d.req.marked(iw, st, nil, false)
		if row := rowWith(s, `      "arguments"`); row >= 0 {
			scrollTo(req, row)
		}
	}
	top := y0 + len(m.lay.head)
	m.spots = append(m.spots, paneSpot(req, x0, top), paneSpot(resp, x0+bx, top+by))
	if auto {
		m.focus = len(m.spots) - 2
		if onResp {
			m.focus++
		}
	}
}

// rebalance gives the rows one of two stacked panes leaves blank to the
// other when that one is cut: no blank rows while the other overflows.
func rebalance(a, b *pane.Model, h int) {
	na, nb := a.Viewport().TotalLineCount()+2, b.Viewport().TotalLineCount()+2
	ha, hb := a.Height(), b.Height()
	w := a.Width()
	switch {
	case na < ha && nb > hb:
		ha = max(na, 3)
	case nb < hb && na > ha:
		ha = h - max(nb, 3)
	default:
		return
	}
	a.SetSize(w, ha)
	b.SetSize(w, h-ha)
}

// setEnvelope shows e in p with the ▶ column on hl; it returns the first
// row marked (-1 for none) at the pane's width.
func (m *Model) setEnvelope(p *pane.Model, title string, e *envelope, hl *wt.Lines, reverse bool) int {
	st := m.c.Styles
	from := -1
	p.SetBuild(title, "", func(w int) string {
		s, f, _ := e.marked(w, st, hl, reverse)
		from = f
		return s
	})
	return from
}

// scrollTo scrolls p so that row (when there is one) shows near the top,
// a row of context above it.
func scrollTo(p *pane.Model, row int) {
	vp := p.Viewport()
	if row < 0 {
		vp.GotoTop()
		return
	}
	vp.SetYOffset(max(row-1, 0))
}

func (m *Model) compare(v *stepView, x0, y0 int, auto bool) {
	d, step, st := v.data, v.st, m.c.Styles
	if m.part == 0 {
		m.opening(step, callFacts(step, d.badStyle+" and good"), "the "+d.badStyle+" response")
		return
	}
	m.lay.kind = layPanes
	lead, text := "▶ 1/2", fmt.Sprintf("✗ the %s response to %s", d.badStyle, d.call)
	if m.part >= 2 {
		lead, text = "▶ 2/2", "✓ the good response to the same call"
	}
	m.lay.head = append(m.lay.head, m.label(lead, text, m.part >= 2))
	bad, good := m.panes[0], m.panes[1]
	big := bigFirst
	if m.part >= 2 {
		big = bigSecond
	}
	bx, by := m.twoBoxes(bad, good, big)
	bad.SetBuild(fmt.Sprintf("✗ %s (bad) · %s", d.badStyle, classWords(d.bad)), "", func(w int) string { return d.bad.plainText(w, st) })
	if m.part >= 2 {
		good.SetBuild("✓ good · "+classWords(d.good), "", func(w int) string { return d.good.plainText(w, st) })
	} else {
		good.SetContent("✓ good", "", func(w int) string { return st.Muted.Render(ansi.Wrap("▷ next click: the good response", w, "")) })
	}
	if !m.lay.beside {
		rebalance(bad, good, m.bodyRows())
		by = bad.Height()
	}
	top := y0 + len(m.lay.head)
	m.spots = append(m.spots, paneSpot(bad, x0, top), paneSpot(good, x0+bx, top+by))
	if auto {
		// The response revealed takes the focus; the good one opens at
		// what the bad one lacks, its structuredContent.
		m.focus = len(m.spots) - 2
		if m.part >= 2 {
			m.focus++
			iw, _ := good.Inner()
			if row := rowWith(d.good.plainText(max(iw, 1), st), `    "structuredContent"`); row >= 0 {
				scrollTo(good, row)
			}
		}
	}
}

// loadSides gives the timelines the runs of step i (once per step shown).
func (m *Model) loadSides(v *stepView) {
	if m.sidesFor == v {
		return
	}
	m.sidesFor = v
	runs := v.data.runs
	if runs.Coordinator != nil {
		sub := runs.Coordinator.Subagent
		m.sides[0].SetEmpty("Nothing yet: each click shows the subagent's next step.")
		m.sides[0].SetSteps(sub.Steps, nil, timeline.TimeColumn(sub.VirtualSeconds))
		return
	}
	tw := timeline.TimeColumn(max(runs.Naive.VirtualSeconds, runs.Informed.VirtualSeconds))
	for i, r := range []*agent.Run{runs.Naive, runs.Informed} {
		var parts []timeline.Part
		n := 0
		for j, p := range r.Parts {
			parts = append(parts, timeline.Part{Start: n, Scenario: p.Scenario, Style: p.Style,
				Label: fmt.Sprintf("%d/%d %s · %s style", j+1, len(r.Parts), p.Scenario, common.StyleLabel(p.Style))})
			n += len(p.Steps)
		}
		m.sides[i].SetEmpty("Nothing yet: each click shows the next event, in virtual-time order.")
		m.sides[i].SetSteps(r.Steps, parts, tw)
	}
}

// sideTitle is "Naive · meets generic · 5 calls · t=12.0s", led by the
// verdict's ✓ or ✗ once the whole run shows (its words are under the
// timelines).
func sideTitle(name string, r *agent.Run, t *timeline.Model) string {
	s := name
	if t.Done() {
		s = verdictWords(r)[:len("✓")] + " " + s
	}
	if style := runStyles(r); style != "" {
		s += " · meets " + style
	}
	return s + " · " + common.Plural(t.Calls(), "call") + " · " + timeline.TimeLabel(t.Clock())
}

// runStyles is the response styles a run met ("generic", "good").
func runStyles(r *agent.Run) string {
	if len(r.Parts) == 0 {
		return common.StyleLabel(r.Style)
	}
	var seen []string
	for _, p := range r.Parts {
		l := common.StyleLabel(p.Style)
		if !strings.Contains(strings.Join(seen, "/"), l) {
			seen = append(seen, l)
		}
	}
	return strings.Join(seen, "/")
}

// verdictWords sums a run up with a symbol: "✓ resolved correctly", or
// for a series "✓ 4 of 4 ended well" / "✗ 1 of 4 ended well".
func verdictWords(r *agent.Run) string {
	good := func(v agent.Verdict) bool { return v == agent.Resolved || v == agent.Escalated }
	if len(r.Parts) == 0 {
		if good(r.Verdict) {
			return "✓ " + string(r.Verdict)
		}
		return "✗ " + string(r.Verdict)
	}
	n := 0
	for _, p := range r.Parts {
		if good(p.Verdict) {
			n++
		}
	}
	sym := "✓"
	if n < len(r.Parts) {
		sym = "✗"
	}
	return fmt.Sprintf("%s %d of %d ended well", sym, n, len(r.Parts))
}

func (m *Model) agents(v *stepView, x0, y0 int) {
	d, step := v.data, v.st
	n := len(d.moments)
	m.loadSides(v)
	if m.part == 0 || n == 0 {
		m.opening(step, fmt.Sprintf("%s · naive and informed agents · virtual clock", step.Scenario), "the first event")
		return
	}
	k := min(m.part, n)
	at := d.moments[k-1]
	naive, informed := m.sides[0], m.sides[1]
	if naive.Shown() != at[0] {
		naive.SetShown(at[0])
	}
	if informed.Shown() != at[1] {
		informed.SetShown(at[1])
	}
	naive.SetTitle(sideTitle("Naive", d.runs.Naive, naive))
	informed.SetTitle(sideTitle("Informed", d.runs.Informed, informed))
	now := max(naive.Clock(), informed.Clock())
	m.lay.kind = laySides
	m.lay.head = append(m.lay.head, m.label(fmt.Sprintf("▶ event %d/%d", k, n), timeline.TimeLabel(now), k == n))
	if k == n && m.bodyRows() >= 10 {
		st := m.c.Styles
		m.lay.foot = []string{
			ansi.Truncate(st.Bold.Render("Naive:    ")+fmt.Sprintf("%s in %.1fs · %s", common.Plural(d.runs.Naive.Calls, "call"), d.runs.Naive.VirtualSeconds, verdictWords(d.runs.Naive)), m.lay.w, "…"),
			ansi.Truncate(st.Bold.Render("Informed: ")+fmt.Sprintf("%s in %.1fs · %s", common.Plural(d.runs.Informed.Calls, "call"), d.runs.Informed.VirtualSeconds, verdictWords(d.runs.Informed)), m.lay.w, "…"),
		}
	}
	bx, by := m.twoBoxes(naive, informed, bigNeither)
	top := y0 + len(m.lay.head)
	m.spots = append(m.spots, sideSpot(naive, x0, top), sideSpot(informed, x0+bx, top+by))
}

func (m *Model) coordinator(v *stepView, x0, y0 int, auto bool) {
	d, step, st := v.data, v.st, m.c.Styles
	cr := d.runs.Coordinator
	n := len(cr.Subagent.Steps)
	m.loadSides(v)
	if m.part == 0 {
		m.opening(step, fmt.Sprintf("%s · a subagent reports to its coordinator · virtual clock", step.Scenario), "the subagent's first step")
		return
	}
	sub, report, move := m.sides[0], m.panes[0], m.panes[1]
	shown := min(m.part, n)
	if sub.Shown() != shown {
		sub.SetShown(shown)
	}
	sub.SetTitle(fmt.Sprintf("Subagent · %s · %s", common.Plural(sub.Calls(), "call"), timeline.TimeLabel(sub.Clock())))
	last := n + 2
	switch {
	case m.part <= n:
		m.lay.head = append(m.lay.head, m.label(fmt.Sprintf("▶ subagent %d/%d", shown, n), timeline.TimeLabel(sub.Clock()), false))
	case m.part == n+1:
		m.lay.head = append(m.lay.head, m.label("▶ the report", "one message to the coordinator ("+cr.Report.Status+")", false))
	default:
		m.lay.head = append(m.lay.head, m.label("▶ the coordinator's move", moveWords(cr), true))
	}
	if m.part > n {
		report.SetBuild("The one report it sent ("+cr.Report.Status+")", "", func(w int) string { return d.report.plainText(w, st) })
	} else {
		report.SetContent("The one report it sends", "", func(w int) string {
			return st.Muted.Render(ansi.Wrap("▷ after the subagent's last step: its one report", w, ""))
		})
	}
	if m.part >= last {
		move.SetBuild("The coordinator's move", "", func(w int) string { return strings.Join(m.moveLines(cr, w), "\n") })
	} else {
		move.SetContent("The coordinator's move", "", func(w int) string {
			return st.Muted.Render(ansi.Wrap("▷ after the report: what the coordinator does with it", w, ""))
		})
	}
	m.lay.kind = layCoord
	w, h := m.lay.w, m.bodyRows()
	top := y0 + len(m.lay.head)
	m.lay.beside = w >= common.SideBySideMin
	// The box of the part shown gets the rows it needs first; a box not
	// yet shown gets its one line; the report, once sent, keeps a few
	// rows beside the move it leads to.
	cur := 0
	if m.part > n {
		cur = 1 + min(m.part-n-1, 1)
	}
	reportMin := 3
	if m.part >= last {
		reportMin = 8
	}
	if m.lay.beside {
		lw := w / 2
		sub.SetSize(lw, h)
		rw := w - lw
		hs := fitRows(h, []int{paneNeed(report, rw), paneNeed(move, rw)}, []int{reportMin, 3}, max(cur-1, 0))
		report.SetSize(rw, hs[0])
		move.SetSize(rw, hs[1])
		m.spots = append(m.spots, sideSpot(sub, x0, top), paneSpot(report, x0+lw, top), paneSpot(move, x0+lw, top+hs[0]))
	} else {
		subNeed := sub.ContentHeight(max(w-3, 1)) + 2
		hs := fitRows(h, []int{subNeed, paneNeed(report, w), paneNeed(move, w)}, []int{3, reportMin, 3}, cur)
		sub.SetSize(w, hs[0])
		report.SetSize(w, hs[1])
		move.SetSize(w, hs[2])
		m.spots = append(m.spots, sideSpot(sub, x0, top), paneSpot(report, x0, top+hs[0]), paneSpot(move, x0, top+hs[0]+hs[1]))
	}
	// The report, when it is the part shown (and beside the move), from
	// its open error: what the coordinator acts on.
	if auto && m.part > n {
		iw, _ := report.Inner()
		scrollTo(report, rowWith(d.report.plainText(max(iw, 1), st), `  "error"`))
		m.focus = len(m.spots) - 2
		if m.part >= last {
			m.focus++
		}
	}
}

// paneNeed is the rows p needs at outer width w to show all its content.
func paneNeed(p *pane.Model, w int) int {
	p.SetSize(w, max(p.Height(), 3))
	return p.Viewport().TotalLineCount() + 2
}

// rowWith is the first row of text that starts with prefix, or -1.
func rowWith(text, prefix string) int {
	for i, l := range strings.Split(ansi.Strip(text), "\n") {
		if strings.HasPrefix(l, prefix) {
			return i
		}
	}
	return -1
}

// fitRows shares h rows among stacked boxes that need need[i] rows each
// (at least least[i]): every box first gets its least, then the box cur
// what it needs, then the others theirs in order; rows still left go to
// cur.
func fitRows(h int, need, least []int, cur int) []int {
	out := make([]int, len(need))
	left := h
	for i := range need {
		out[i] = min(least[i], need[i])
		left -= out[i]
	}
	if left < 0 {
		// Too small for every box's least: share alike.
		for i := range out {
			out[i] = h / len(out)
		}
		out[cur] += h - h/len(out)*len(out)
		return out
	}
	grow := func(i int) {
		add := min(max(need[i]-out[i], 0), left)
		out[i] += add
		left -= add
	}
	grow(cur)
	for i := range need {
		grow(i)
	}
	out[cur] += left
	return out
}

// moveWords is the coordinator's move in a few words.
func moveWords(cr *agent.CoordinatorRun) string {
	if cr.CoordinatorAction == "" {
		return "✓ nothing to recover: it answers from the results"
	}
	return moveMark(cr) + " " + cr.CoordinatorAction.Title()
}

// moveMark is ✓ when the coordinator's move is the one the rules accept
// for the error the report leaves unresolved, ✗ otherwise.
func moveMark(cr *agent.CoordinatorRun) string {
	if cr.CoordinatorAction == "" || cr.Report.Error == nil {
		return "✓"
	}
	e := cr.Report.Error
	if rules.Score(rules.CoordinatorSituation(e.ErrorCategory, e.ProtocolCode), cr.CoordinatorAction).Grade.Correct() {
		return "✓"
	}
	return "✗"
}

// moveLines are the coordinator's move, what it says and why.
func (m *Model) moveLines(cr *agent.CoordinatorRun, w int) []string {
	st := m.c.Styles
	out := common.WrapLead(st.Bold, "Move:", moveWords(cr), w, st.Plain)
	if cr.CoordinatorAction != "" && cr.Report.Error != nil {
		e := cr.Report.Error
		v := rules.Score(rules.CoordinatorSituation(e.ErrorCategory, e.ProtocolCode), cr.CoordinatorAction)
		out = append(out, common.WrapLead(st.Bold, "Rule:", v.Rule.Ref(), w, st.Accent)...)
	}
	if cr.CoordinatorSays != "" {
		out = append(out, common.WrapLead(st.Bold, "Says:", "“"+cr.CoordinatorSays+"”", w, st.Plain)...)
	}
	return append(out, common.WrapLead(st.Bold, "Why:", common.StyleWords(cr.Why), w, st.Plain)...)
}

func (m *Model) question(v *stepView, x0, y0 int, auto bool) {
	q, st := v.data.q, m.c.Styles
	answer := m.part >= 1
	correct := map[int]bool{}
	var letters []string
	for _, i := range q.Correct() {
		correct[i] = true
		letters = append(letters, string(rune('A'+i)))
	}
	title := "? A question for the room"
	if answer {
		title = "✓ Answer: " + strings.Join(letters, ", ")
		m.lay.head = append(m.lay.head, m.label("✓ answer", strings.Join(letters, ", ")+" · every option explained", true))
	} else {
		m.lay.head = append(m.lay.head, common.JoinEnds(st.Cursor.Render("?")+" "+st.Bold.Render("to the room"), m.hint("the answer"), m.lay.w))
	}
	m.lay.kind = layQuestion
	m.qpane.SetSize(m.lay.w, m.bodyRows())
	ans := [2]int{-1, -1} // the rows of the first right option and its explanation
	mine := m.myAnswer()  // class mode: the student's own answer
	m.qpane.SetBuild(title, "", func(w int) string {
		// A cell short of the border on the right; option text and its
		// explanation on one left edge, the letter's column before it.
		w = max(w-1, 1)
		out := common.WrapLines(st.Title, common.OneLineText(q.Stem), w)
		out, ans = common.OptionRows(out, st, q.Options, mine, correct, answer, w)
		return strings.Join(out, "\n")
	})
	if auto {
		// The answer in view: from the top if it fits, else scrolled
		// just enough to show the right option and its explanation whole.
		common.ShowRows(m.qpane.Viewport(), ans)
	}
	m.spots = append(m.spots, paneSpot(m.qpane, x0, y0+len(m.lay.head)))
}

// slideLines joins the slide as laid out: exactly lay.h lines, none wider
// than lay.w.
func (m *Model) slideLines() []string {
	l := &m.lay
	if l.h <= 0 {
		return nil
	}
	out := make([]string, 0, l.h)
	out = append(out, l.head...)
	switch l.kind {
	case layText:
		out = append(out, l.body...)
	case layPanes:
		out = appendPair(out, m.panes[0].View(), m.panes[1].View(), l.beside)
	case laySides:
		out = appendPair(out, m.sides[0].View(), m.sides[1].View(), l.beside)
	case layCoord:
		right := m.panes[0].View() + "\n" + m.panes[1].View()
		out = appendPair(out, m.sides[0].View(), right, l.beside)
	case layQuestion:
		out = append(out, strings.Split(m.qpane.View(), "\n")...)
	}
	for len(out) < l.h-len(l.foot) {
		out = append(out, "")
	}
	out = append(out[:min(len(out), l.h-len(l.foot))], l.foot...)
	return common.FitLines(out, l.w, l.h)
}

func appendPair(out []string, a, b string, beside bool) []string {
	if beside {
		return append(out, strings.Split(common.JoinColumns(a, b), "\n")...)
	}
	out = append(out, strings.Split(a, "\n")...)
	return append(out, strings.Split(b, "\n")...)
}
