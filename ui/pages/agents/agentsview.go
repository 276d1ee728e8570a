package agents

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/components/timeline"
)

// The agents screen's layout and drawing: header, timelines, summary,
// subagent view. Everything here runs in Update or SetSize except View,
// which only joins the cached pieces.

// decisionLines renders what the coordinator did with the report.
func (m *Model) decisionLines(w int) []string {
	st := m.c.Styles
	cr := m.coord
	var out []string
	if cr.CoordinatorAction == "" {
		out = append(out, common.WrapLead(st.OK.Bold(true), "✓ Coordinator:", "no recovery needed; it answers from both records", w, st.Plain)...)
	} else {
		e := cr.Report.Error
		v := rules.Score(rules.CoordinatorSituation(e.ErrorCategory, e.ProtocolCode), cr.CoordinatorAction)
		head, hs := "✓ Coordinator:", st.OK.Bold(true)
		if !v.Grade.Correct() {
			head, hs = "✗ Coordinator:", st.Bad.Bold(true)
		}
		out = append(out, common.WrapLead(hs, head, fmt.Sprintf("%s (%s)", cr.CoordinatorAction.Title(), cr.CoordinatorAction), w, st.Plain)...)
		out = append(out, common.WrapLead(st.Bold, "Rule:", v.Rule.Ref(), w, st.Accent)...)
	}
	out = append(out, common.WrapLead(st.Bold, "Says:", "“"+cr.CoordinatorSays+"”", w, st.Plain)...)
	out = append(out, common.WrapLead(st.Bold, "Why:", common.StyleWords(cr.Why), w, st.Plain)...)
	return out
}

// refreshTitles sets the timelines' titles: the agent, the style it met
// and its running virtual clock.
func (m *Model) refreshTitles() {
	names := [2]string{"Naive agent", "Informed agent"}
	for i, t := range m.sides {
		title := names[i]
		if m.styles[i] != "" {
			var labels []string
			for _, id := range strings.Split(m.styles[i], "/") {
				labels = append(labels, common.StyleLabel(id))
			}
			title += " · meets " + strings.Join(labels, "/")
		}
		if m.runs[i] != nil {
			clock := t.Clock()
			if t.Done() {
				clock = m.runs[i].VirtualSeconds
			}
			title += " · " + timeline.TimeLabel(clock)
			if t.Done() {
				title += " · done"
			}
		}
		t.SetTitle(title)
	}
}

// refreshSummary rebuilds the summary for what is shown so far.
func (m *Model) refreshSummary() {
	m.summary.SetBuild(m.summary.Title(), "", m.summaryLines)
}

// summaryLines compares the two runs: calls, virtual seconds and
// verdicts (a verdict shows once its run is fully revealed), the per
// scenario verdicts of a series, and what each agent told the customer
// and why.
func (m *Model) summaryLines(w int) string {
	body := m.summaryBody(w)
	if m.sitCut && m.situation != "" {
		// The header has no room for the whole situation: it is here,
		// at the end, so it can always be read (tab, then scroll).
		body += "\n\n" + strings.Join(common.WrapLead(m.c.Styles.Bold, "Situation:", m.situation, w, m.c.Styles.Plain), "\n")
	}
	return body
}

// summaryBody is the summary without the situation.
func (m *Model) summaryBody(w int) string {
	st := m.c.Styles
	if m.runs[0] == nil || m.runs[1] == nil {
		return st.Muted.Render("The comparison appears here as the runs play.")
	}
	names := [2]string{"Naive", "Informed"}
	var verdicts [2]string
	var calls [2]int
	var secs [2]float64
	for i, r := range m.runs {
		t := m.sides[i]
		verdicts[i] = st.Muted.Render("… not started")
		calls[i], secs[i] = t.Calls(), t.Clock()
		switch {
		case t.Done():
			verdicts[i] = verdictText(st, r)
			calls[i], secs[i] = r.Calls, r.VirtualSeconds
		case t.Shown() > 0:
			verdicts[i] = st.Muted.Render("… not finished yet")
		}
	}
	row := func(i int, long bool) string {
		r := st.Bold.Render(common.PadRight(names[i], 9)) + fmt.Sprintf("%3d %-5s", calls[i], pluralWord(calls[i], "call")) + common.PadLeft(fmt.Sprintf("%.1fs", secs[i]), 8)
		if long {
			return r + st.Muted.Render(" virtual") + "   " + verdicts[i]
		}
		return r + "  " + verdicts[i]
	}
	long := ansi.StringWidth(row(0, true)) <= w && ansi.StringWidth(row(1, true)) <= w
	var out []string
	for i := range m.runs {
		r := row(i, long)
		if ansi.StringWidth(r) > w && m.sides[i].Done() {
			verdicts[i] = compactVerdict(st, m.runs[i])
			r = row(i, long)
		}
		out = append(out, ansi.Truncate(r, w, "…"))
	}
	if m.sides[0].Done() && m.sides[1].Done() {
		out = append(out, m.compareLine(w)...)
	}
	if m.series {
		out = append(out, "")
		out = append(out, m.partRows(w)...)
	}
	blocks := [2][]string{}
	wide := w >= common.SideBySideMin-4
	bw := w
	if wide {
		bw = (w - 3) / 2
	}
	for i := range m.runs {
		blocks[i] = m.toldLines(i, bw)
	}
	for i := range blocks {
		if len(blocks[i]) == 0 && len(blocks[1-i]) > 0 {
			blocks[i] = []string{st.Muted.Render([2]string{"Naive", "Informed"}[i] + ": not finished yet…")}
		}
	}
	if len(blocks[0])+len(blocks[1]) > 0 {
		out = append(out, "")
		if wide {
			out = append(out, common.BesideLines(blocks[0], blocks[1], bw, " │ ")...)
		} else {
			out = append(out, blocks[0]...)
			if len(blocks[0]) > 0 && len(blocks[1]) > 0 {
				out = append(out, "")
			}
			out = append(out, blocks[1]...)
		}
	}
	return strings.Join(out, "\n")
}

// compareLine says in words how the two runs differ.
func (m *Model) compareLine(w int) []string {
	st := m.c.Styles
	n, i := m.runs[sideNaive], m.runs[sideInformed]
	var text string
	switch {
	case n.Calls > i.Calls:
		text = fmt.Sprintf("The naive agent made %d more %s and spent %.1fs more virtual time.", n.Calls-i.Calls, pluralWord(n.Calls-i.Calls, "call"), n.VirtualSeconds-i.VirtualSeconds)
	case n.Calls == i.Calls:
		text = fmt.Sprintf("Both agents made %s.", common.Plural(n.Calls, "call"))
	default:
		text = fmt.Sprintf("The informed agent made %d more %s (it corrected, confirmed or escalated).", i.Calls-n.Calls, pluralWord(i.Calls-n.Calls, "call"))
	}
	return common.WrapLines(st.Muted, text, w)
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// partRows is the per-scenario table of a series: each agent's verdict
// and calls on each task, shown as each part is revealed.
func (m *Model) partRows(w int) []string {
	st := m.c.Styles
	nParts := min(len(m.runs[0].Parts), len(m.runs[1].Parts))
	idW := len("Per scenario")
	for _, p := range m.runs[0].Parts {
		idW = max(idW, ansi.StringWidth(p.Scenario))
	}
	idW = min(idW, max(w/3, 8))
	colW := max((w-idW-2)/2-1, 4)
	out := []string{st.Muted.Render(common.PadRight("Per scenario", idW) + "  " + common.PadRight("naive", colW) + " " + "informed")}
	for j := range nParts {
		row := common.PadRight(m.runs[0].Parts[j].Scenario, idW) + "  "
		for i := range m.runs {
			p := m.runs[i].Parts[j]
			cell := st.Muted.Render("…")
			if m.partDone(i, j) {
				cell = verdictText(st, p) + st.Muted.Render(" · "+common.Plural(p.Calls, "call"))
				if ansi.StringWidth(cell) > colW {
					cell = shortVerdict(st, p) + st.Muted.Render(" · "+common.Plural(p.Calls, "call"))
				}
			}
			row += common.PadRight(cell, colW)
			if i == 0 {
				row += " "
			}
		}
		out = append(out, ansi.Truncate(row, w, "…"))
	}
	return out
}

// partDone reports whether part j of side i is fully revealed.
func (m *Model) partDone(i, j int) bool {
	end := 0
	for k := 0; k <= j && k < len(m.runs[i].Parts); k++ {
		end += len(m.runs[i].Parts[k].Steps)
	}
	return m.sides[i].Shown() >= end
}

// toldLines is what agent i told the customer and why, once its run (or
// a series part) is fully revealed.
func (m *Model) toldLines(i, w int) []string {
	st := m.c.Styles
	r := m.runs[i]
	names := [2]string{"Naive", "Informed"}
	var out []string
	if len(r.Parts) > 0 {
		for j, p := range r.Parts {
			if !m.partDone(i, j) {
				break
			}
			if len(out) == 0 {
				out = append(out, st.Bold.Render(names[i]+" told the customer:"))
			}
			out = append(out, common.HangLead(st.Accent, p.Scenario+":", "“"+common.OneLineText(p.FinalMessage)+"”", w, st.Plain, 2)...)
			out = append(out, common.HangLead(st.Muted, "  why:", common.StyleWords(common.OneLineText(p.Why)), w, st.Muted, 7)...)
		}
		if m.sides[i].Done() {
			out = append(out, common.WrapLead(st.Bold, "In all:", fmt.Sprintf("%d tasks, %s, %.1fs of virtual time.", len(r.Parts), common.Plural(r.Calls, "call"), r.VirtualSeconds), w, st.Plain)...)
		}
		return out
	}
	if !m.sides[i].Done() {
		return nil
	}
	out = append(out, common.WrapLead(st.Bold, names[i]+" told the customer:", "“"+common.OneLineText(r.FinalMessage)+"”", w, st.Plain)...)
	out = append(out, common.WrapLead(st.Bold, "Why:", common.StyleWords(common.OneLineText(r.Why)), w, st.Plain)...)
	return out
}

// layout sizes the header and the panes of the current mode. It runs in
// Update and SetSize; View only joins the cached pieces.
func (m *Model) layout() {
	w, h := m.w, m.h
	m.stacked = w < common.SideBySideMin
	cut := m.sitCut
	hdr := m.headerLines(w, h)
	if m.sitCut != cut {
		m.summary.Invalidate() // the situation joins or leaves its end
	}
	if maxH := max(h/3, 1); len(hdr) > maxH {
		hdr = hdr[:maxH]
	}
	if h <= 0 || w <= 0 {
		hdr = nil
	}
	m.header, m.headerH = strings.Join(hdr, "\n"), len(hdr)
	rest := max(h-m.headerH, 0)
	switch m.mode {
	case modeExpanded:
		m.layoutPair(m.exp[0], m.exp[1], m.expFocus, w, rest)
	case modeSubagent:
		iw := max(w-3, 1)
		want := len(m.decisionLines(iw)) + 2
		decH := min(want, max(rest/3, 4))
		decH = max(min(decH, rest), 0)
		pairH := rest - decH
		m.layoutPair(m.sub.Pane(), m.report, m.subFocus, w, pairH)
		if m.stacked {
			// The subagent's timeline is short: the report gets the rest.
			want := m.sub.ContentHeight(iw) + 2
			top := max(min(want, pairH*3/5), min(3, pairH))
			m.sub.SetSize(w, top)
			m.report.SetSize(w, pairH-top)
		}
		m.sub.Follow()
		m.decision.SetSize(w, decH)
	default:
		m.layoutTimelines(w, rest)
	}
}

// layoutTimelines shares rest rows between the two timelines and the
// summary: each pane gets at least a line, then rows go one at a time to
// whichever pane is smallest among those that still have lines to show
// (the focused pane first on a tie), so no pane is cut to a line while
// another shows blank rows. The summary always keeps its two verdict
// rows (half the rows when focused); rows nobody needs go to the
// timelines.
func (m *Model) layoutTimelines(w, rest int) {
	iw := max(w-3, 1)
	sumFull := m.summaryWant(iw)
	sumWant, sumMin := sumFull, min(4, sumFull)
	if m.focus == focusSummary {
		sumWant, sumMin = sumFull, min(sumFull, max(rest/2, 4))
	}
	widths := [2]int{w, w}
	if !m.stacked {
		widths = [2]int{w / 2, w - w/2}
	}
	var want [2]int
	for i, t := range m.sides {
		t.SetSize(widths[i], max(t.Pane().Height(), 3)) // builds at the width
		want[i] = t.Pane().Viewport().TotalLineCount() + 2
	}
	order := []int{m.focus}
	for i := range agentsFocusCount {
		if i != m.focus {
			order = append(order, i)
		}
	}
	var tl [2]int
	sumH := 0
	if m.stacked {
		got, left := shareRows(rest, []int{3, 3, sumMin}, []int{want[0], want[1], sumWant}, order)
		first := sideNaive
		if m.focus == sideInformed {
			first = sideInformed
		}
		got[first] += left - left/2
		got[1-first] += left / 2
		tl, sumH = [2]int{got[0], got[1]}, got[2]
	} else {
		pairOrder := []int{0, 1}
		if m.focus == focusSummary {
			pairOrder = []int{1, 0}
		}
		got, left := shareRows(rest, []int{3, sumMin}, []int{max(want[0], want[1]), sumWant}, pairOrder)
		got[0] += left
		tl, sumH = [2]int{got[0], got[0]}, got[1]
	}
	for i, t := range m.sides {
		t.SetSize(widths[i], tl[i])
	}
	m.summary.SetSize(w, sumH)
	title := "Summary"
	if _, ih := m.summary.Inner(); m.focus != focusSummary && m.summary.Viewport().TotalLineCount() > ih {
		title += " · tab here to scroll"
	}
	m.summary.SetTitle(title)
}

// shareRows splits total rows among panes. Each gets its minimum first
// (in order, while rows last); then one row at a time goes to the pane
// with the fewest rows among those short of their want, the earlier in
// order on a tie. It returns the rows and what is left when every want
// is met.
func shareRows(total int, mins, wants, order []int) ([]int, int) {
	got := make([]int, len(mins))
	for _, i := range order {
		got[i] = min(mins[i], max(total, 0))
		total -= got[i]
	}
	for total > 0 {
		best := -1
		for _, i := range order {
			if got[i] < wants[i] && (best < 0 || got[i] < got[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		got[best]++
		total--
	}
	return got, max(total, 0)
}

// summaryWant is the summary pane's height with all of its content.
func (m *Model) summaryWant(iw int) int {
	// The situation at its end is there to scroll to, not to size by.
	return strings.Count(m.summaryBody(iw), "\n") + 1 + 2
}

// layoutPair sizes two panes side by side, or stacked with the focused
// one (index f) taller.
func (m *Model) layoutPair(a, b *pane.Model, f, w, h int) {
	h = max(h, 0)
	if !m.stacked {
		a.SetSize(w/2, h)
		b.SetSize(w-w/2, h)
		return
	}
	top := h / 2
	switch f {
	case 0:
		top = (h*3 + 4) / 5
	case 1:
		top = h * 2 / 5
	}
	top = max(min(top, h), min(3, h))
	a.SetSize(w, top)
	b.SetSize(w, h-top)
}

// headerLines is the title, the situation (when there is room) and the
// playback controls.
func (m *Model) headerLines(w, h int) []string {
	if w <= 0 {
		return nil
	}
	st := m.c.Styles
	chip := func(k, label, value string) string {
		s := st.ChipKey.Render(k) + " " + st.ChipLabel.Render(label)
		if value != "" {
			s += " " + st.ChipValue.Render(value)
		}
		return s
	}
	switch m.mode {
	case modeExpanded:
		right := st.Muted.Render(m.expPart.Scenario + " · " + common.StyleLabel(m.expPart.Style) + " style")
		title := fmt.Sprintf("%s · %s %s at %s", m.whoLabel(), m.expStep.Kind, m.expStep.Tool, timeline.TimeLabel(m.expStep.T))
		return []string{common.JoinEnds(st.Title.Render(title), right, w)}
	case modeSubagent:
		lines := []string{common.JoinEnds(st.Title.Render("Subagent view · "+m.title), st.Muted.Render("§5 recover locally, report once"), w)}
		if h >= 24 {
			lines = append(lines, common.WrapLines(st.Muted, "The coordinator asked a subagent to gather a customer and an order; the scenario's failure hits one of the two calls. It retries transient failures itself (3 resends after 1 s, 2 s, 4 s) and sends ONE report upward.", w)...)
		}
		return lines
	}
	right := ""
	if m.sc != nil {
		t, _ := scenarios.TopicByID(m.sc.Topic)
		right = st.Muted.Render(strings.TrimSpace(m.sc.Section + " · " + t.Title))
	} else if m.series {
		right = st.Muted.Render("naive vs informed")
	}
	if ansi.StringWidth(m.title)+ansi.StringWidth(right)+2 > w {
		right = ""
	}
	lines := []string{common.JoinEnds(st.Title.Render(m.title), right, w)}
	state := "⏸ paused"
	switch {
	case m.playing:
		state = "▶ playing"
	case m.loaded && m.done():
		state = "■ all shown"
	}
	build := func(compact bool) []string {
		var chips []string
		if !compact {
			chips = append(chips, chip("space", "step", ""))
		}
		speed := speedLabel(agentSpeeds[m.speed])
		if !compact {
			speed = m.speedText()
		}
		chips = append(chips, chip("p", state, ""), chip("+/-", "speed", speed))
		if compact {
			chips = append(chips, st.ChipValue.Render(timeline.TimeLabel(m.now)))
		} else {
			chips = append(chips, st.ChipLabel.Render("virtual")+" "+st.ChipValue.Render(timeline.TimeLabel(m.now)))
		}
		switch {
		case m.loading:
			chips = append(chips, st.Info.Render("• running the agents…"))
		case m.loaded:
			shown := m.sides[0].Shown() + m.sides[1].Shown()
			total := len(m.sides[0].Steps()) + len(m.sides[1].Steps())
			chips = append(chips, st.ChipLabel.Render(fmt.Sprintf("%d/%d steps", shown, total)))
		}
		chips = append(chips, chip("r", "spec", m.revLabel()))
		if m.loaded && m.delegErr == nil {
			chips = append(chips, chip("c", "subagent", ""))
		}
		return chips
	}
	chips := build(false)
	if len(common.PackChips(chips, w, "   ")) > 1 {
		chips = build(true)
	}
	chipLines := common.PackChips(chips, w, "   ")
	// The situation, wrapped whole, when the header has room for it
	// (the layout keeps the header to a third of the screen); otherwise
	// as much as fits, and all of it at the end of the summary.
	m.sitCut = m.situation != ""
	if h >= 28 && m.situation != "" {
		sit := common.WrapWords(m.situation, max(w, 1))
		room := max(h/3-len(lines)-len(chipLines), 0)
		if len(sit) <= room {
			m.sitCut = false
		} else if room > 0 {
			sit = sit[:room]
			sit[room-1] = ansi.Truncate(sit[room-1], max(w-25, 1), "") + "… (all of it: end of the summary)"
		} else {
			sit = nil
		}
		for _, l := range sit {
			lines = append(lines, st.Muted.Render(ansi.Truncate(l, w, "…")))
		}
	}
	return append(lines, chipLines...)
}

// View joins the cached header and panes.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	var blocks []string
	if m.headerH > 0 {
		blocks = append(blocks, m.header)
	}
	pair := func(a, b *pane.Model) {
		if m.stacked {
			for _, p := range []*pane.Model{a, b} {
				if p.Height() > 0 {
					blocks = append(blocks, p.View())
				}
			}
		} else if a.Height() > 0 {
			blocks = append(blocks, common.JoinColumns(a.View(), b.View()))
		}
	}
	switch m.mode {
	case modeExpanded:
		pair(m.exp[0], m.exp[1])
	case modeSubagent:
		pair(m.sub.Pane(), m.report)
		if m.decision.Height() > 0 {
			blocks = append(blocks, m.decision.View())
		}
	default:
		pair(m.sides[0].Pane(), m.sides[1].Pane())
		if m.summary.Height() > 0 {
			blocks = append(blocks, m.summary.View())
		}
	}
	return strings.Join(blocks, "\n")
}
