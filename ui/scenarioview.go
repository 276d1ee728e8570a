package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
)

// sideBySideMin is the width from which request and response sit side by
// side; below it they are stacked.
const sideBySideMin = 100

// tightRest is the height left under the header below which the screen
// switches to its compact layout: a one-line situation, the compact action
// grid, and the focused pane growing at the expense of the others.
const tightRest = 26

// layout sizes the header, the envelope panes and the lower panel (actions
// and verdict) for the current size and state. It runs in Update and
// SetSize; View only joins the cached pieces.
func (m *scenarioScreen) layout() {
	w, h := m.w, m.h
	m.stacked = w < sideBySideMin
	hdr := m.headerLines(w, false)
	tight := h-len(hdr) < tightRest
	if tight {
		hdr = m.headerLines(w, true)
	}
	if maxH := max(h/2, 1); len(hdr) > maxH {
		hdr = hdr[:maxH]
	}
	if h <= 0 {
		hdr = nil
	}
	m.header, m.headerH = strings.Join(hdr, "\n"), len(hdr)
	rest := max(h-m.headerH, 0)

	iw := max(w-3, 1)
	full := len(m.lowerLines(iw, false)) + 2
	compactH := len(m.lowerLines(iw, true)) + 2
	panesMin := 5
	if m.stacked {
		panesMin = 6
	}
	compact := false
	var lowerH int
	switch {
	case !tight:
		limit := rest * 2 / 5
		if m.verdict != nil {
			limit = rest / 2
		}
		want := full
		if want > limit && m.verdict == nil {
			compact, want = true, compactH
		}
		lowerH = min(want, limit)
	case m.focus == focusLower:
		// Focused: the full list (scrollable), the panes shrink to a line.
		lowerH = min(max(rest-panesMin, 4), full)
	default:
		compact = true
		lowerH = min(compactH, max(rest/3, 4))
		if rest-compactH >= panesMin+3 {
			lowerH = compactH
		}
	}
	lowerH = max(min(lowerH, rest), 0)
	panesH := rest - lowerH

	if m.stacked {
		var reqH int
		switch {
		case tight && m.focus == focusRequest:
			reqH = panesH - 3
		case tight && m.focus == focusResponse:
			reqH = 3
		case tight:
			reqH = panesH / 2
		case m.focus == focusRequest:
			reqH = panesH * 3 / 5
		default:
			reqH = panesH * 2 / 5
		}
		reqH = max(min(reqH, panesH), min(3, panesH))
		m.panes[0].SetSize(w, reqH)
		m.panes[1].SetSize(w, panesH-reqH)
	} else {
		m.panes[0].SetSize(w/2, panesH)
		m.panes[1].SetSize(w-w/2, panesH)
	}

	k := lowerKey{chosen: m.chosen, rev: m.rev, compact: compact, w: iw}
	if k != m.lowerKey {
		m.lowerKey = k
		title := "What should the agent do? Press 1-9"
		if compact {
			title += " · tab here for descriptions"
		}
		if m.verdict != nil {
			title = "Verdict under spec " + string(m.rev) + " · 1-9 to try another"
		}
		m.lower.SetContent(title, "", func(w int) string {
			return strings.Join(m.lowerLines(w, compact), "\n")
		})
	}
	m.lower.SetSize(w, lowerH)
	m.setFocus(m.focus)
}

// headerLines renders the title, the situation and the controls.
func (m *scenarioScreen) headerLines(w int, tight bool) []string {
	if w <= 0 {
		return nil
	}
	st := m.c.Styles
	t, _ := scenarios.TopicByID(m.sc.Topic)
	right := st.Muted.Render(strings.TrimSpace(m.sc.Section + " · " + t.Title))
	if ansi.StringWidth(m.sc.Title)+ansi.StringWidth(right)+2 > w {
		right = "" // the title matters more than its topic
	}
	lines := []string{joinEnds(st.Title.Render(m.sc.Title), right, w)}

	sit := strings.Join(strings.Fields(m.sc.Situation), " ")
	wrapped := strings.Split(ansi.Wrap(sit, w, ""), "\n")
	maxSit := 6
	switch {
	case tight && m.hasResponse():
		maxSit = 1
	case tight:
		maxSit = 3
	}
	if len(wrapped) > maxSit {
		wrapped = wrapped[:maxSit]
		wrapped[maxSit-1] = ansi.Truncate(wrapped[maxSit-1], max(w-1, 0), "") + "…"
	}
	lines = append(lines, wrapped...)

	chip := func(k, label, value string) string {
		return st.ChipKey.Render(k) + " " + st.ChipLabel.Render(label) + " " + st.ChipValue.Render(value)
	}
	specLabel := "follows spec"
	if tight {
		specLabel = "spec"
	}
	chips := []string{
		chip("s", "style", m.style.Label()),
		chip("r", specLabel, string(m.rev)),
		chip("v", "view", m.view.Label()),
	}
	switch r := m.cur(); {
	case m.busy:
		chips = append(chips, st.Info.Render("• calling…"))
	case r != nil && r.attempts > 0 && tight:
		chips = append(chips, st.ChipValue.Render(fmt.Sprintf("attempt %d", r.attempts)))
	case r != nil && r.attempts > 0:
		chips = append(chips, st.ChipValue.Render(fmt.Sprintf("attempt %d", r.attempts))+" "+st.ChipLabel.Render("(")+st.ChipKey.Render("enter")+st.ChipLabel.Render(" sends again)"))
	default:
		chips = append(chips, st.ChipKey.Render("enter")+" "+st.ChipLabel.Render("make the call"))
	}
	if m.sc.InSubagent && m.hasResponse() {
		chips = append(chips, st.ChipKey.Render("e")+" "+st.ChipLabel.Render("propagation exercise"))
	}
	if m.diffOn {
		v := "loading…"
		if m.diff != nil && !m.diffBusy {
			v = m.diff.bad.Label() + " vs good"
		}
		chips = append(chips, chip("d", "comparing", v))
	}
	lines = append(lines, packChips(chips, w, "   ")...)
	if !tight {
		lines = append(lines, st.Muted.Render(ansi.Truncate("Spec "+string(m.rev)+": "+revisionBlurb(m.rev), w, "…")))
	}
	return lines
}

// packChips joins items with sep, wrapping onto more lines as needed.
func packChips(items []string, w int, sep string) []string {
	var lines []string
	cur := ""
	for _, it := range items {
		if cur == "" {
			cur = it
			continue
		}
		if ansi.StringWidth(cur)+ansi.StringWidth(sep)+ansi.StringWidth(it) > w {
			lines = append(lines, cur)
			cur = it
			continue
		}
		cur += sep + it
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	return lines
}

// lowerLines is the lower panel's content at width w: the verdict, if
// any, then the recovery actions (one per line with a description, or a
// compact grid of ids).
func (m *scenarioScreen) lowerLines(w int, compact bool) []string {
	st := m.c.Styles
	var out []string
	if v := m.verdict; v != nil {
		out = append(out, m.verdictLines(*v, max(w-1, 1))...)
		out = append(out, "")
	}
	marks := func(a rules.Action) string {
		if a != m.chosen || m.verdict == nil {
			return "  "
		}
		if m.verdict.Grade.Correct() {
			return st.OK.Render("✓ ")
		}
		return st.Bad.Render("✗ ")
	}
	if compact {
		cells := make([]string, len(rules.Actions))
		cellW := 0
		for i, a := range rules.Actions {
			cells[i] = marks(a) + st.ChipKey.Render(fmt.Sprint(i+1)) + " " + string(a)
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
	// otherwise under each title, wrapped.
	beside := w-(titleW+6) >= 60
	for i, a := range rules.Actions {
		title := a.Title()
		line := marks(a) + st.ChipKey.Render(fmt.Sprint(i+1)) + " " + st.Bold.Render(title)
		if !beside {
			out = append(out, ansi.Truncate(line, w, "…"))
			for _, l := range strings.Split(ansi.Wrap(a.Description(), max(w-4, 1), ""), "\n") {
				out = append(out, "    "+st.Muted.Render(l))
			}
			continue
		}
		line += strings.Repeat(" ", titleW-ansi.StringWidth(title)+2)
		line += st.Muted.Render(ansi.Truncate(a.Description(), max(w-ansi.StringWidth(line), 1), "…"))
		out = append(out, ansi.Truncate(line, w, "…"))
	}
	return out
}

// verdictLines renders the verdict: grade with symbol and colour, the
// rule, the scenario's feedback, the rules' reason, the revision note,
// the customer-facing message and the takeaway.
func (m *scenarioScreen) verdictLines(v scenarios.Verdict, w int) []string {
	st := m.c.Styles
	var head string
	gs := st.Bad
	switch v.Grade {
	case rules.GradeBest:
		head, gs = "✓ Correct", st.OK
	case rules.GradeAcceptable:
		head, gs = "✓ Acceptable", st.Warn
	default:
		head = "✗ Not the best move"
	}
	n := 0
	for i, a := range rules.Actions {
		if a == v.Action {
			n = i + 1
		}
	}
	var out []string
	out = append(out, wrapLead(gs.Bold(true), head+":", fmt.Sprintf("%d %s (%s)", n, v.Action.Title(), v.Action), w, st.Plain)...)
	out = append(out, wrapLead(st.Bold, "Rule:", v.Rule.Ref(), w, st.Accent)...)
	if fb := strings.TrimSpace(v.Feedback); fb != "" {
		out = append(out, wrapLead(st.Bold, "Here:", strings.Join(strings.Fields(fb), " "), w, st.Plain)...)
	}
	if v.Why != "" {
		out = append(out, wrapLead(st.Bold, "Why:", v.Why, w, st.Plain)...)
	}
	if v.Note != "" {
		out = append(out, wrapLead(st.Bold, "Revision note:", strings.Join(strings.Fields(v.Note), " "), w, st.Plain)...)
	}
	if cm := strings.TrimSpace(m.sc.CustomerMessage); cm != "" {
		out = append(out, wrapLead(st.Bold, "Tell the customer:", "“"+strings.Join(strings.Fields(cm), " ")+"”", w, st.Plain)...)
	}
	if tk := strings.TrimSpace(m.sc.Takeaway); tk != "" {
		out = append(out, wrapLead(st.Bold, "Takeaway:", strings.Join(strings.Fields(tk), " "), w, st.Plain)...)
	}
	return out
}

// wrapLead wraps "lead text" to w, styling the lead and the text apart.
func wrapLead(leadSt lipgloss.Style, lead, text string, w int, textSt lipgloss.Style) []string {
	lines := strings.Split(ansi.Wrap(lead+" "+text, max(w, 1), ""), "\n")
	for i, l := range lines {
		if i == 0 && strings.HasPrefix(l, lead) {
			lines[i] = leadSt.Render(lead) + textSt.Render(l[len(lead):])
			continue
		}
		lines[i] = textSt.Render(l)
	}
	return lines
}

// View joins the cached header, panes and lower panel.
func (m *scenarioScreen) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	var blocks []string
	if m.headerH > 0 {
		blocks = append(blocks, m.header)
	}
	if m.stacked {
		for _, p := range m.panes {
			if p.h > 0 {
				blocks = append(blocks, p.View())
			}
		}
	} else if m.panes[0].h > 0 {
		blocks = append(blocks, joinColumns(m.panes[0].View(), m.panes[1].View()))
	}
	if m.lower.h > 0 {
		blocks = append(blocks, m.lower.View())
	}
	return strings.Join(blocks, "\n")
}

// joinColumns puts two blocks of equal height side by side.
func joinColumns(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var sb strings.Builder
	for i := range max(len(al), len(bl)) {
		if i > 0 {
			sb.WriteByte('\n')
		}
		if i < len(al) {
			sb.WriteString(al[i])
		}
		if i < len(bl) {
			sb.WriteString(bl[i])
		}
	}
	return sb.String()
}
