package scenario

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/actions"
	"github.com/errorlab/errorlab/ui/components/verdict"
)

// tightRest is the height left under the header below which the screen
// switches to its compact layout: a one-line situation, the compact action
// grid, and the focused pane growing at the expense of the others.
const tightRest = 26

// layout sizes the header, the envelope panes and the lower panel (actions
// and verdict) for the current size and state. It runs in Update and
// SetSize; View only joins the cached pieces.
func (m *Model) layout() {
	m.syncLower()
	w, h := m.w, m.h
	m.stacked = w < common.SideBySideMin
	iw := max(w-3, 1)
	hdr := m.headerLines(w, false, -1)
	tight := h-len(hdr) < tightRest
	if tight {
		hdr = m.headerLines(w, true, -1)
	}
	height := func(mode actions.Mode) int { return len(m.lowerLines(iw, mode)) + 2 }
	wrapH, cutH, compactH := height(actions.Wrap), height(actions.Cut), height(actions.Compact)
	panesMin := 5
	if m.stacked {
		panesMin = 6
	}

	var mode actions.Mode
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
		mode, lowerH = actions.Compact, compactH
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
			mode, lowerH = actions.Wrap, min(wrapH, limit) // it scrolls anyway
		case wrapH <= limit:
			mode, lowerH = actions.Wrap, wrapH
		case cutH <= limit:
			mode, lowerH = actions.Cut, cutH
		default:
			mode, lowerH = actions.Compact, min(compactH, limit)
		}
	case m.focus == focusLower:
		// Focused: the full list (scrollable), the panes shrink to a line.
		mode = actions.Wrap
		lowerH = min(max(rest-panesMin, 4), wrapH)
	default:
		mode = actions.Compact
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

// lowerKey is what the lower panel's content depends on; it is rebuilt
// when the key changes.
type lowerKey struct {
	chosen rules.Action
	rev    rules.Revision
	style  mockserver.Style
	mode   actions.Mode
	gen    int
	w      int
}

// lowerTitle is the lower panel's title for an outer width w: the longest
// of its variants that fits, keeping "(graded on what really happened)"
// whenever a bad style is on screen.
func (m *Model) lowerTitle(w int, mode actions.Mode) string {
	graded := ""
	if m.badStyleMatters() {
		graded = " (graded on what really happened)"
	}
	var cands []string
	if t := m.pollTitle(); t != "" {
		cands = []string{t, fmt.Sprintf("Your choice %d is in · the teacher will reveal", common.ActionIndex(m.polled)+1), "Your choice is in"}
	} else if m.verdict != nil {
		under := "Verdict under spec " + string(m.rev) + graded
		cands = []string{under + " · 1-9 to try another", under, "Verdict" + graded, "Verdict"}
	} else {
		hint := ""
		switch {
		case m.focus == focusLower:
		case mode == actions.Compact:
			hint = " · tab here for descriptions"
		case mode == actions.Cut:
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
func (m *Model) headerLines(w int, tight bool, maxSit int) []string {
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
func (m *Model) styleChip() string {
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

// syncLower hands the verdict and the chosen action to the lower panel's
// components, which draw them.
func (m *Model) syncLower() {
	if m.verdict == nil {
		m.verdictP.Clear()
		m.actions.ClearMark()
		return
	}
	c := verdict.Of(*m.verdict)
	c.Caveat, c.Customer, c.Takeaway = m.caveat, m.customer(), m.sc.Takeaway
	m.verdictP.SetContent(c)
	m.actions.Mark(m.chosen, m.verdict.Grade.Correct())
}

// lowerLines is the lower panel's content at width w: the verdict, if
// any, then the action chooser in mode.
func (m *Model) lowerLines(w int, mode actions.Mode) []string {
	var out []string
	if m.verdict != nil {
		out = append(out, m.verdictP.Lines(max(w-1, 1))...)
		out = append(out, "")
	}
	return append(out, m.actions.Lines(w, mode)...)
}

// View joins the cached header, panes and lower panel.
func (m *Model) View() string {
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
