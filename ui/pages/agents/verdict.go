package agents

import (
	"fmt"
	"strings"

	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/ui/components/timeline"
	"github.com/errorlab/errorlab/ui/styles"
)

// outcomePlain is a call's outcome in words, for a title.
func outcomePlain(s agent.Step) string {
	sym, text := timeline.Outcome(s)
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
