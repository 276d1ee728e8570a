package agents

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/jsonview"
	"github.com/errorlab/errorlab/ui/components/timeline"
)

// The expanded step (one exchange's raw request and response) and the
// subagent view (its run, its report, the coordinator's decision).

// expandFrom opens the selected step's raw exchange.
func (m *Model) expandFrom(from agentsMode) {
	var t *timeline.Model
	who := ""
	switch from {
	case modeSubagent:
		t, who = m.sub, "subagent"
	default:
		if m.focus == focusSummary {
			m.c.SetStatus(common.StatusWarn, "select a call on one side first (tab to a timeline, j/k)")
			return
		}
		t = m.sides[m.focus]
		who = string(m.runs[m.focus].Agent)
	}
	s := t.Selected()
	if s == nil {
		m.c.SetStatus(common.StatusWarn, "nothing shown yet: space reveals the next step")
		return
	}
	if s.Exchange == nil {
		m.c.SetStatus(common.StatusWarn, "a %s has no exchange: select a call (→) or an escalation (⇡)", s.Kind)
		return
	}
	m.pause()
	m.expStep, m.expWho = *s, who
	m.expPart = timeline.Part{Scenario: m.id, Style: string(mockserver.StyleGood)}
	if from != modeSubagent {
		m.expPart.Style = m.styles[m.focus]
	}
	if p, ok := t.PartOf(t.Cursor()); ok {
		m.expPart = p
	}
	m.expBack, m.mode = from, modeExpanded
	st := m.c.Styles
	ex := *s.Exchange
	reqDoc, respDoc := jsonview.JSON(wire.Pretty(ex.Request)), jsonview.JSON(wire.Pretty(ex.Response))
	head := fmt.Sprintf("%s · %s · %s", m.whoLabel(), timeline.TimeLabel(s.T), s.Tool)
	m.exp[0].SetContent("Request · "+head, string(ex.Request), func(w int) string { return reqDoc.Render(w, st) })
	m.exp[1].SetContent("Response · "+outcomePlain(*s), string(ex.Response), func(w int) string { return respDoc.Render(w, st) })
	m.setExpFocus(1)
	m.c.SetStatus(common.StatusInfo, "the %s's %s at %s, exact bytes pretty-printed · esc closes", m.whoLabel(), s.Kind, timeline.TimeLabel(s.T))
}

// whoLabel names the agent of the expanded step: "naive agent",
// "informed agent" or "subagent".
func (m *Model) whoLabel() string {
	if m.expWho == "subagent" {
		return m.expWho
	}
	return m.expWho + " agent"
}

func (m *Model) setExpFocus(f int) {
	m.expFocus = f
	m.exp[0].SetFocused(f == 0)
	m.exp[1].SetFocused(f == 1)
}

func (m *Model) expandedKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.KeyMap.Focus, m.KeyMap.FocusRev):
		m.setExpFocus(1 - m.expFocus)
	case key.Matches(k, m.KeyMap.Expand):
		m.Back()
	default:
		m.exp[m.expFocus].Scroll(m.c.Nav, k)
	}
	return nil
}

// openSubagent shows the subagent view, or says why there is none.
func (m *Model) openSubagent() {
	switch {
	case m.delegErr != nil:
		m.c.SetStatus(common.StatusWarn, "no subagent view: %v", m.delegErr)
		return
	case m.coordErr != nil:
		m.c.SetStatus(common.StatusError, "the subagent could not play %s: %v", m.id, m.coordErr)
		return
	case m.coord == nil:
		m.c.SetStatus(common.StatusWarn, "no subagent view: the subagent's run is missing")
		return
	}
	m.pause()
	m.mode = modeSubagent
	m.setSubFocus(subFocusTimeline)
	st := m.c.Styles
	cr := m.coord
	m.sub.SetTitle(fmt.Sprintf("Subagent · %s · %s", common.Plural(cr.Subagent.Calls, "call"), timeline.TimeLabel(cr.Subagent.VirtualSeconds)))
	reportRaw := cr.Subagent.FinalMessage
	doc := jsonview.JSON(wire.Pretty([]byte(reportRaw)))
	title := "The one report it sent (" + cr.Report.Status + ")"
	m.report.SetContent(title, reportRaw, func(w int) string { return doc.Render(w, st) })
	m.decision.SetContent("The coordinator's decision", "", func(w int) string { return strings.Join(m.decisionLines(w), "\n") })
	m.c.SetStatus(common.StatusInfo, "the same failure inside a subagent: local recovery, then one report (§5)")
}

func (m *Model) setSubFocus(f int) {
	m.subFocus = f
	m.sub.SetFocused(f == subFocusTimeline)
	m.report.SetFocused(f == subFocusReport)
	m.decision.SetFocused(f == subFocusDecision)
}

func (m *Model) subagentKey(k tea.KeyMsg) tea.Cmd {
	ks := m.KeyMap
	switch {
	case key.Matches(k, ks.Subagent):
		m.mode = modeTimelines
	case key.Matches(k, ks.Focus):
		m.setSubFocus((m.subFocus + 1) % subFocusCount)
	case key.Matches(k, ks.FocusRev):
		m.setSubFocus((m.subFocus + subFocusCount - 1) % subFocusCount)
	case key.Matches(k, ks.Expand) && m.subFocus == subFocusTimeline:
		m.expandFrom(modeSubagent)
	case m.subFocus == subFocusTimeline:
		m.sub.Update(k)
	case m.subFocus == subFocusReport:
		m.report.Scroll(m.c.Nav, k)
	default:
		m.decision.Scroll(m.c.Nav, k)
	}
	return nil
}

// ClipText implements common.ClipSource: the expanded step's request or
// response, or the subagent's report.
func (m *Model) ClipText() (string, string, bool, string) {
	switch m.mode {
	case modeExpanded:
		if m.expFocus == 0 {
			return m.exp[0].Raw(), m.whoLabel() + "'s request envelope", true, ""
		}
		return m.exp[1].Raw(), m.whoLabel() + "'s response envelope", true, ""
	case modeSubagent:
		return m.report.Raw(), "subagent's report", true, ""
	}
	if m.delegErr != nil {
		return "", "", false, "nothing to copy here: select a call and press enter to open its exchange"
	}
	return "", "", false, "nothing to copy here: select a call and press enter to open its exchange, or c for the subagent's report"
}

// ExportRecord implements common.ExportSource: the expanded step's exchange.
func (m *Model) ExportRecord() (common.ExportRecord, string, bool, string) {
	if m.mode != modeExpanded || m.expStep.Exchange == nil {
		return common.ExportRecord{}, "", false, "nothing to write here: select a call and press enter to open its exchange first"
	}
	ex := *m.expStep.Exchange
	p := m.expPart
	sc, ok := m.c.Catalog.Get(p.Scenario)
	if !ok {
		return common.ExportRecord{}, "", false, "this run's scenario is not in the catalogue"
	}
	rec := sc.Record(ex, mockserver.Style(p.Style), 0)
	name := fmt.Sprintf("errorlab-%s-%s-agent-t%.1f-%s.json", p.Scenario, m.expWho, m.expStep.T, ex.Revision)
	return rec, name, true, ""
}
