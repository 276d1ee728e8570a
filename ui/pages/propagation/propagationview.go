package propagation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/jsonview"
	"github.com/errorlab/errorlab/ui/styles"
)

// The exercise's layout and drawing. Everything here runs in Update or
// SetSize except View, which only joins the cached pieces.

func (m *Model) layout() {
	w, h := m.w, m.h
	st := m.c.Styles
	var hdr []string
	if w > 0 && h > 0 {
		t, _ := scenarios.TopicByID(m.sc.Topic)
		right := st.Muted.Render(strings.TrimSpace(m.sc.Section + " · " + t.Title))
		title := "Propagation exercise · " + m.sc.Title
		if ansi.StringWidth(title)+ansi.StringWidth(right)+2 > w {
			right = ""
		}
		hdr = append(hdr, common.JoinEnds(st.Title.Render(title), right, w))
		sit := strings.Split(ansi.Wrap(common.OneLineText(m.sc.Situation), w, ""), "\n")
		maxSit := 3
		if h < 24 {
			maxSit = 1
		}
		if len(sit) > maxSit {
			sit = sit[:maxSit]
			sit[maxSit-1] = ansi.Truncate(sit[maxSit-1], max(w-1, 0), "") + "…"
		}
		for _, l := range sit {
			hdr = append(hdr, st.Muted.Render(l))
		}
		if maxH := max(h/3, 1); len(hdr) > maxH {
			hdr = hdr[:maxH]
		}
	}
	m.header, m.headerH = strings.Join(hdr, "\n"), len(hdr)
	m.pane.SetSize(w, max(h-m.headerH, 0))
	m.follow()
}

// build renders both steps at width w and records where the verdicts are.
func (m *Model) build(w int) string {
	st := m.c.Styles
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	m.anchors = [2][2]int{}

	premise := fmt.Sprintf("The subagent's %s call failed with a %s error and its local retries (3 resends, after 1 s, 2 s and 4 s) are spent.", m.sc.Call.Tool, m.cat)
	if !m.sc.RetriesExhausted {
		premise = fmt.Sprintf("Here a retry would have worked, and then nothing goes upward: the coordinator never hears of a blip the subagent absorbed. Suppose instead the %s failure (%s) outlasted all 3 resends (after 1 s, 2 s and 4 s).", m.sc.Call.Tool, m.cat)
	}
	add(common.WrapLines(st.Plain, premise, w)...)
	add("")

	head := func(step int, text string) {
		m.heads[step] = len(out)
		mark, hs := "  ", st.Bold
		if m.focus == step {
			mark, hs = st.Cursor.Render("▸ "), st.Cursor
		}
		for i, l := range strings.Split(ansi.Wrap(text, max(w-2, 1), ""), "\n") {
			if i == 0 {
				add(mark + hs.Render(l))
				continue
			}
			add("  " + hs.Render(l))
		}
	}
	mark := func(chosen bool, v *rules.Verdict) string {
		if !chosen || v == nil {
			return "  "
		}
		if v.Grade.Correct() {
			return st.OK.Render("✓ ")
		}
		return st.Bad.Render("✗ ")
	}

	head(exReport, fmt.Sprintf("Step 1 of 2 · Which report should the subagent send its coordinator? (1-%d)", len(rules.ReportKinds)))
	for i, k := range rules.ReportKinds {
		add("  " + mark(m.reportV != nil && k == m.report, m.reportV) + st.ChipKey.Render(fmt.Sprint(i+1)) + " " + st.Bold.Render(k.Title()))
		for _, l := range strings.Split(jsonview.JSON(k.Example(m.sc.Call.Tool, m.cat)).Render(max(w-6, 1), st), "\n") {
			add("      " + l)
		}
	}
	if v := m.reportV; v != nil {
		add("")
		m.anchors[exReport][0] = len(out)
		n := slices.Index(rules.ReportKinds, m.report) + 1
		add(verdictHead(st, v.Grade, fmt.Sprintf("%d %s", n, m.report.Title()), w)...)
		add(common.WrapLead(st.Bold, "Rule:", v.Rule.Ref(), w, st.Accent)...)
		add(common.WrapLead(st.Bold, "Why:", v.Why, w, st.Plain)...)
		m.anchors[exReport][1] = len(out)
		add("")
		add(m.modelLines(w)...)
		add("")
		head(exCoordinator, "Step 2 of 2 · The coordinator receives the structured report. What should it do next? (1-9)")
		for i, a := range rules.Actions {
			add(ansi.Truncate("  "+mark(m.actionV != nil && a == m.action, m.actionV)+st.ChipKey.Render(fmt.Sprint(i+1))+" "+st.Bold.Render(a.Title())+st.Muted.Render(" · "+string(a)), w, "…"))
		}
		if v := m.actionV; v != nil {
			add("")
			m.anchors[exCoordinator][0] = len(out)
			n := slices.Index(rules.Actions, m.action) + 1
			add(verdictHead(st, v.Grade, fmt.Sprintf("%d %s (%s)", n, m.action.Title(), m.action), w)...)
			add(common.WrapLead(st.Bold, "Rule:", v.Rule.Ref(), w, st.Accent)...)
			add(common.WrapLead(st.Bold, "Why:", v.Why, w, st.Plain)...)
			m.anchors[exCoordinator][1] = len(out)
		}
	}
	return strings.Join(out, "\n")
}

// modelLines is the report the engine's subagent sent on this scenario,
// the model answer.
func (m *Model) modelLines(w int) []string {
	st := m.c.Styles
	switch {
	case m.delegErr != nil:
		out := common.WrapLead(st.Bold, "Model answer:", fmt.Sprintf("the simulated subagent cannot play this scenario (%v). A structured partial report has this shape:", m.delegErr), w, st.Plain)
		for _, l := range strings.Split(jsonview.JSON(rules.ReportStructured.Example(m.sc.Call.Tool, m.cat)).Render(max(w-2, 1), st), "\n") {
			out = append(out, "  "+l)
		}
		return out
	case m.modelErr != nil:
		return common.WrapLines(st.Bad, "✗ the subagent's run failed: "+m.modelErr.Error(), w)
	case m.model == nil:
		return common.WrapLines(st.Muted, "playing the scenario as a subagent job…", w)
	}
	out := common.WrapLead(st.Bold, "Model answer:", "the one report errorlab's simulated subagent sent its coordinator on this scenario.", w, st.Plain)
	doc := jsonview.JSON(wire.Pretty([]byte(m.model.Subagent.FinalMessage)))
	for _, l := range strings.Split(doc.Render(max(w-2, 1), st), "\n") {
		out = append(out, "  "+l)
	}
	return out
}

// verdictHead is "✓ Correct: …", "✓ Acceptable: …" or "✗ Not the best
// move: …", wrapped to w.
func verdictHead(st *styles.Styles, g rules.Grade, what string, w int) []string {
	head, gs := "✗ Not the best move:", st.Bad
	switch g {
	case rules.GradeBest:
		head, gs = "✓ Correct:", st.OK
	case rules.GradeAcceptable:
		head, gs = "✓ Acceptable:", st.Warn
	}
	return common.WrapLead(gs.Bold(true), head, what, w, st.Plain)
}

// View implements tea.Model: the header and the pane, as laid out.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	var blocks []string
	if m.headerH > 0 {
		blocks = append(blocks, m.header)
	}
	if m.pane.Height() > 0 {
		blocks = append(blocks, m.pane.View())
	}
	return strings.Join(blocks, "\n")
}
