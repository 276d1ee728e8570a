package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
)

// tightRest is the height left under the header below which the common.Screen
// switches to its compact layout: a one-line situation, the compact action
// grid, and the focused pane growing at the expense of the others.
const tightRest = 26

// actionsMode is how the lower panel lists the recovery actions.
type actionsMode int

const (
	actionsWrap    actionsMode = iota // one per line, long descriptions wrapped onto more lines
	actionsCut                        // one per line, long descriptions cut with …
	actionsCompact                    // a grid of ids
)

// layout sizes the header, the envelope panes and the lower panel (actions
// and verdict) for the current size and state. It runs in Update and
// SetSize; View only joins the cached pieces.
func (m *scenarioScreen) layout() {
	w, h := m.w, m.h
	m.stacked = w < common.SideBySideMin
	iw := max(w-3, 1)
	hdr := m.headerLines(w, false, -1)
	tight := h-len(hdr) < tightRest
	if tight {
		hdr = m.headerLines(w, true, -1)
	}
	height := func(mode actionsMode) int { return len(m.lowerLines(iw, mode)) + 2 }
	wrapH, cutH, compactH := height(actionsWrap), height(actionsCut), height(actionsCompact)
	panesMin := 5
	if m.stacked {
		panesMin = 6
	}

	var mode actionsMode
	var lowerH int
	respH := -1 // stacked: the response pane's height; -1 = split by focus
	preCall := tight && !m.hasResponse() && m.focus != focusLower
	if preCall {
		// Before the call on a small screen, what must show is the call
		// the agent will send, every action's number and id, and the
		// controls; the situation gets the lines left over, then the
		// (empty) response pane.
		reqIW := max(w/2-3, 1)
		if m.stacked {
			reqIW = iw
		}
		reqNeed := m.callLines(reqIW) + 2
		mode, lowerH = actionsCompact, compactH
		spare := h - len(m.headerLines(w, true, 0)) - reqNeed - lowerH
		hdr = m.headerLines(w, true, min(max(spare, 0), 3))
		rest := max(h-len(hdr), 0)
		if rest-lowerH < 3 {
			lowerH = max(rest-3, 0)
		}
		if m.stacked {
			respH = 0
			if rest-lowerH-reqNeed >= 3 {
				respH = 3 // "No response yet" when there is room for it
			}
		}
	}
	if maxH := max(h/2, 1); len(hdr) > maxH && !preCall {
		hdr = hdr[:maxH]
	}
	if h <= 0 {
		hdr = nil
	}
	m.header, m.headerH = strings.Join(hdr, "\n"), len(hdr)
	rest := max(h-m.headerH, 0)

	switch {
	case preCall:
	case !tight:
		limit := rest * 2 / 5
		switch {
		case m.verdict != nil:
			limit = rest / 2
		case m.focus == focusLower:
			limit = rest * 3 / 5 // tabbing here makes room for the descriptions
		}
		switch {
		case m.verdict != nil:
			mode, lowerH = actionsWrap, min(wrapH, limit) // it scrolls anyway
		case wrapH <= limit:
			mode, lowerH = actionsWrap, wrapH
		case cutH <= limit:
			mode, lowerH = actionsCut, cutH
		default:
			mode, lowerH = actionsCompact, min(compactH, limit)
		}
	case m.focus == focusLower:
		// Focused: the full list (scrollable), the panes shrink to a line.
		mode = actionsWrap
		lowerH = min(max(rest-panesMin, 4), wrapH)
	default:
		mode = actionsCompact
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
		case respH >= 0:
			reqH = panesH - respH
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

	k := lowerKey{chosen: m.chosen, rev: m.rev, style: m.style, mode: mode, gen: m.lowerGen, w: iw}
	if k != m.lowerKey {
		m.lowerKey = k
		m.lower.SetContent("", "", func(w int) string {
			return strings.Join(m.lowerLines(w, mode), "\n")
		})
	}
	m.lower.SetTitle(m.lowerTitle(w, mode))
	m.lower.SetSize(w, lowerH)
	m.setFocus(m.focus)
}

// lowerTitle is the lower panel's title for an outer width w: the longest
// of its variants that fits, keeping "(graded on what really happened)"
// whenever a bad style is on screen.
func (m *scenarioScreen) lowerTitle(w int, mode actionsMode) string {
	graded := ""
	if m.badStyleMatters() {
		graded = " (graded on what really happened)"
	}
	var cands []string
	if m.verdict != nil {
		under := "Verdict under spec " + string(m.rev) + graded
		cands = []string{under + " · 1-9 to try another", under, "Verdict" + graded, "Verdict"}
	} else {
		hint := ""
		switch {
		case m.focus == focusLower:
		case mode == actionsCompact:
			hint = " · tab here for descriptions"
		case mode == actionsCut:
			hint = " · tab here for whole descriptions"
		}
		ask := "What should the agent do? Press 1-9"
		cands = []string{ask + graded + hint, ask + graded, "Press 1-9" + graded + hint, "Press 1-9" + graded, "Press 1-9"}
	}
	room := w - 8 // the border's corners and padding, and the focus mark
	for _, c := range cands {
		if ansi.StringWidth(c) <= room {
			return c
		}
	}
	return cands[len(cands)-1]
}

// headerLines renders the title, the situation and the controls. maxSit
// caps the situation's lines; -1 leaves it to the layout (tight or not).
func (m *scenarioScreen) headerLines(w int, tight bool, maxSit int) []string {
	if w <= 0 {
		return nil
	}
	st := m.c.Styles
	t, _ := scenarios.TopicByID(m.sc.Topic)
	right := st.Muted.Render(strings.TrimSpace(m.sc.Section + " · " + t.Title))
	if ansi.StringWidth(m.sc.Title)+ansi.StringWidth(right)+2 > w {
		right = "" // the title matters more than its topic
	}
	lines := []string{common.JoinEnds(st.Title.Render(m.sc.Title), right, w)}

	sit := strings.Join(strings.Fields(m.sc.Situation), " ")
	wrapped := strings.Split(ansi.Wrap(sit, w, ""), "\n")
	if maxSit < 0 {
		maxSit = 6
		switch {
		case tight && m.hasResponse():
			maxSit = 1
		case tight:
			maxSit = 3
		}
	}
	if len(wrapped) > maxSit {
		wrapped = wrapped[:maxSit]
		if maxSit > 0 {
			wrapped[maxSit-1] = ansi.Truncate(wrapped[maxSit-1], max(w-1, 0), "") + "…"
		}
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
		m.styleChip(),
		chip("r", specLabel, string(m.rev)),
		chip("v", "view", m.view.Label()),
	}
	switch r := m.cur(); {
	case m.busy:
		chips = append(chips, st.Info.Render("• calling…"))
	case r != nil && r.attempts > 0 && (tight || m.sc.RetriesExhausted):
		chips = append(chips, st.ChipValue.Render(m.attemptLabel(r.attempts)))
	case r != nil && r.attempts > 0:
		chips = append(chips, st.ChipValue.Render(m.attemptLabel(r.attempts))+" "+st.ChipLabel.Render("(")+st.ChipKey.Render("enter")+st.ChipLabel.Render(" sends again)"))
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
			if m.diff.sameResponse() {
				v += ": identical"
			}
		}
		chips = append(chips, chip("d", "comparing", v))
	}
	sep := "   "
	if tight {
		sep = "  "
	}
	lines = append(lines, common.PackChips(chips, w, sep)...)
	if !tight {
		lines = append(lines, st.Muted.Render(ansi.Truncate("Spec "+string(m.rev)+": "+common.RevisionBlurb(m.rev), w, "…")))
	}
	return lines
}

// styleChip is "s style generic (bad) · also: good, raw exception (bad)":
// the style on screen, whether it is good or bad, whether it changes
// anything under this revision, and the other styles on offer.
func (m *scenarioScreen) styleChip() string {
	st := m.c.Styles
	s := st.ChipKey.Render("s") + " " + st.ChipLabel.Render("style") + " " + st.ChipValue.Render(m.style.Label()+badMark(m.style))
	if m.styleNoEffect() && len(m.sc.Styles) > 1 {
		s += st.ChipLabel.Render(" · no effect under " + string(m.rev))
	}
	var others []string
	for _, o := range m.sc.Styles {
		if o != m.style {
			others = append(others, o.Label()+badMark(o))
		}
	}
	if len(others) == 0 {
		return s + st.ChipLabel.Render(" (the only style)")
	}
	return s + st.ChipLabel.Render(" · also: "+strings.Join(others, ", "))
}

// lowerLines is the lower panel's content at width w: the verdict, if
// any, then the recovery actions (one per line with a description, or a
// compact grid of ids).
func (m *scenarioScreen) lowerLines(w int, mode actionsMode) []string {
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
	if mode == actionsCompact {
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
	// otherwise under each title, wrapped. Beside, a long description
	// wraps onto more lines (actionsWrap) or is cut (actionsCut).
	descX := titleW + 6
	beside := w-descX >= 60
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
		if mode == actionsCut {
			line += st.Muted.Render(ansi.Truncate(a.Description(), max(w-descX, 1), "…"))
			out = append(out, ansi.Truncate(line, w, "…"))
			continue
		}
		for j, l := range strings.Split(ansi.Wrap(a.Description(), max(w-descX, 1), ""), "\n") {
			if j == 0 {
				out = append(out, line+st.Muted.Render(l))
				continue
			}
			out = append(out, strings.Repeat(" ", descX)+st.Muted.Render(l))
		}
	}
	return out
}

// verdictLines renders the verdict: grade with symbol and colour, the
// rule, what the bad style on screen hides, the scenario's feedback, the
// rules' reason, the revision note, the customer-facing message (on the
// best answer only) and the takeaway.
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
	out = append(out, common.WrapLead(gs.Bold(true), head+":", fmt.Sprintf("%d %s (%s)", n, v.Action.Title(), v.Action), w, st.Plain)...)
	out = append(out, common.WrapLead(st.Bold, "Rule:", v.Rule.Ref(), w, st.Accent)...)
	if cv := m.caveat; cv != nil {
		out = append(out, m.caveatLines(*cv, w)...)
	}
	if fb := strings.TrimSpace(common.StripVerdict(strings.Join(strings.Fields(v.Feedback), " "), gradeWords(v.Grade)...)); fb != "" {
		// The feedback is written against the good response; under a
		// style that hides the failure, say so rather than seem to quote
		// the response on screen.
		lead := "Here:"
		if m.caveat != nil && m.caveat.gap != "" {
			lead = "Here (as the good response tells it):"
		}
		out = append(out, common.WrapLead(st.Bold, lead, common.StyleWords(strings.Join(strings.Fields(fb), " ")), w, st.Plain)...)
	}
	if v.Why != "" {
		out = append(out, common.WrapLead(st.Bold, "Why:", common.StyleWords(v.Why), w, st.Plain)...)
	}
	if v.Note != "" {
		out = append(out, common.WrapLead(st.Bold, "Revision note:", common.StyleWords(strings.Join(strings.Fields(v.Note), " ")), w, st.Plain)...)
	}
	// The customer message is what the best move says to the customer:
	// shown with that answer only, so it never follows a wrong one or
	// gives the best answer away.
	// The words come from the good response's customerMessage, what the
	// tool actually supplied, when it carries one.
	cm := m.toolCustomer
	if cm == "" {
		cm = strings.TrimSpace(m.sc.CustomerMessage)
	}
	if cm != "" && v.Grade == rules.GradeBest && v.Action == m.sc.BestAction {
		out = append(out, common.WrapLead(st.Bold, "Tell the customer:", "“"+strings.Join(strings.Fields(cm), " ")+"”", w, st.Plain)...)
	}
	if tk := strings.TrimSpace(m.sc.Takeaway); tk != "" {
		out = append(out, common.WrapLead(st.Bold, "Takeaway:", common.StyleWords(strings.Join(strings.Fields(tk), " ")), w, st.Plain)...)
	}
	return out
}

// gradeWords are the verdict words the verdict line already says for a
// grade, which the scenario's feedback need not repeat.
func gradeWords(g rules.Grade) []string {
	switch g {
	case rules.GradeBest:
		return common.BestWords
	case rules.GradeAcceptable:
		return common.AcceptableWords
	}
	return common.WrongWords
}

// caveatLines says, under a bad style, that the verdict is graded on what
// really happened, what the response on screen fails to tell, and the
// grader's findings on it.
func (m *scenarioScreen) caveatLines(cv styleCaveat, w int) []string {
	st := m.c.Styles
	label := cv.style.Label()
	var text string
	switch {
	case cv.gap != "":
		text = fmt.Sprintf("%s. The %s response on screen does not tell the agent this: %s. A real agent reading only it could not have known. That is this style's defect.", cv.truth, label, cv.gap)
	case cv.textless:
		text = fmt.Sprintf("%s. The %s response on screen says this only in structuredContent, with no text block: an agent whose client reads only the text content could not have known. That is this style's defect.", cv.truth, label)
	default:
		text = fmt.Sprintf("%s. The %s response on screen says this, but with defects the good style avoids:", cv.truth, label)
	}
	text = strings.ToUpper(text[:1]) + text[1:]
	out := common.WrapLead(st.Warn.Bold(true), "⚠ Graded on what really happened.", text, w, st.Plain)
	for _, f := range cv.findings {
		sym, ss := "⚠", st.Warn
		if f.Severity == grade.SevError {
			sym, ss = "✗", st.Bad
		}
		what := grade.DefectText[f.Defect]
		if what == "" {
			what = f.Message
		}
		body := what + " · " + rules.Lookup(f.Rule).Ref()
		for i, l := range strings.Split(ansi.Wrap(body, max(w-4, 1), ""), "\n") {
			if i == 0 {
				out = append(out, "  "+ss.Render(sym)+" "+st.Plain.Render(l))
				continue
			}
			out = append(out, "    "+st.Plain.Render(l))
		}
	}
	return out
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
			if p.Height() > 0 {
				blocks = append(blocks, p.View())
			}
		}
	} else if m.panes[0].Height() > 0 {
		blocks = append(blocks, common.JoinColumns(m.panes[0].View(), m.panes[1].View()))
	}
	if m.lower.Height() > 0 {
		blocks = append(blocks, m.lower.View())
	}
	return strings.Join(blocks, "\n")
}
