package walkthrough

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
)

// stepData is what a step shows, computed once in a command when the
// step first opens (the call made on the mock server, the agents
// played, the question looked up) and kept for the whole presentation.
type stepData struct {
	// live_call
	ex      wire.Exchange
	reveals []wt.Reveal
	req     *envelope
	resp    *envelope
	// compare
	bad, good *envelope
	badStyle  string
	call      string // "tools/call lookup_order", the call both responses answer
	// agents
	runs    *wt.AgentRuns
	moments [][2]int  // after each click, how many steps each side shows
	report  *envelope // the subagent's one report to its coordinator
	// question
	q *quiz.Question
}

// stepView is one step of the walkthrough and its data, when loaded.
type stepView struct {
	st      *wt.Step
	loading bool
	loaded  bool
	err     error
	data    *stepData
}

// parts is how many clicks the step takes, the opening view counted
// (part 0: nothing revealed yet); 1 for text, and for a step not loaded.
func (v *stepView) parts() int {
	if !v.loaded || v.err != nil {
		return 1
	}
	d := v.data
	switch v.st.Kind {
	case wt.KindLiveCall:
		return 1 + len(d.reveals)
	case wt.KindCompare:
		return 3 // the caption, the bad response, the good one
	case wt.KindAgents:
		if d.runs.Coordinator != nil {
			// Each of the subagent's steps, its report, the
			// coordinator's move.
			return 1 + len(d.runs.Coordinator.Subagent.Steps) + 2
		}
		return 1 + len(d.moments)
	case wt.KindQuestion:
		return 2 // the question, then the answer
	}
	return 1
}

// needsData reports whether the step has anything to compute.
func needsData(st *wt.Step) bool {
	switch st.Kind {
	case wt.KindLiveCall, wt.KindCompare, wt.KindAgents, wt.KindQuestion:
		return true
	}
	return false
}

type stepLoadedMsg struct {
	owner *Model
	index int
	data  *stepData
	err   error
}

// load is the command computing step i's data: the live call made on a
// fresh mock server, the pair of a comparison, the agents' runs on the
// virtual clock, the question from the bank. Nil when there is nothing to
// do (text, or already loaded or loading).
func (m *Model) load(i int) tea.Cmd {
	if i < 0 || i >= len(m.views) {
		return nil
	}
	v := m.views[i]
	if v.loaded || v.loading {
		return nil
	}
	if !needsData(v.st) {
		v.loaded, v.data = true, &stepData{}
		return nil
	}
	v.loading = true
	owner, st, cat, bank := m, v.st, m.c.Catalog, m.bank
	return common.Safe(fmt.Sprintf("step %d", i+1), func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), common.AgentsTimeout)
		defer cancel()
		d, err := compute(ctx, st, cat, bank)
		return stepLoadedMsg{owner: owner, index: i, data: d, err: err}
	})
}

// compute makes a step's data (in a command, never in View).
func compute(ctx context.Context, st *wt.Step, cat *scenarios.Catalog, bank *quiz.Bank) (*stepData, error) {
	d := &stepData{}
	switch st.Kind {
	case wt.KindLiveCall:
		ex, err := st.Exchange(ctx, cat)
		if err != nil {
			return nil, err
		}
		d.ex, d.reveals = ex, wt.Reveals(ex)
		d.req, d.resp = newEnvelope(ex.Request, false), newEnvelope(ex.Response, true)
	case wt.KindCompare:
		bad, good, err := st.Pair(ctx, cat)
		if err != nil {
			return nil, err
		}
		d.bad, d.good = newEnvelope(bad.Response, true), newEnvelope(good.Response, true)
		d.badStyle = common.StyleLabel(string(st.Bad))
		if rs := wt.Reveals(good); len(rs) > 0 {
			d.call = strings.TrimPrefix(rs[0].Label, "request: ")
		}
	case wt.KindAgents:
		runs, err := st.Play(ctx, cat)
		if err != nil {
			return nil, err
		}
		d.runs = runs
		if runs.Coordinator == nil {
			d.moments = moments(runs.Naive, runs.Informed)
		} else {
			d.report = newEnvelope([]byte(runs.Coordinator.Subagent.FinalMessage), false)
		}
	case wt.KindQuestion:
		q, err := st.Ask(bank)
		if err != nil {
			return nil, err
		}
		d.q = q
	}
	return d, nil
}

// moments orders the two runs' steps on the virtual clock: one entry
// per click, how many steps each side shows after it (steps at the same
// moment on both sides come in one click).
func moments(a, b *agent.Run) [][2]int {
	var out [][2]int
	i, j := 0, 0
	const eps = 1e-6
	for i < len(a.Steps) || j < len(b.Steps) {
		switch {
		case j >= len(b.Steps) || (i < len(a.Steps) && a.Steps[i].T < b.Steps[j].T-eps):
			i++
		case i >= len(a.Steps) || b.Steps[j].T < a.Steps[i].T-eps:
			j++
		default:
			i, j = i+1, j+1
		}
		out = append(out, [2]int{i, j})
	}
	return out
}

// onLoaded keeps a step's data; when it is the step on screen, the
// pending part is clamped to what the step has and the screen is laid
// out again.
func (m *Model) onLoaded(msg stepLoadedMsg) tea.Cmd {
	if msg.index < 0 || msg.index >= len(m.views) {
		return nil
	}
	v := m.views[msg.index]
	v.loading, v.loaded = false, true
	v.data, v.err = msg.data, msg.err
	if msg.err != nil {
		v.data = &stepData{}
		if msg.index == m.step {
			m.c.SetStatus(common.StatusError, "step %d could not be shown: %v", msg.index+1, msg.err)
		}
	}
	if msg.index != m.step {
		if m.presenter && msg.index == m.step+1 {
			m.setNext() // the preview shows the question's stem
		}
		return nil
	}
	moved := false
	if m.wantLast {
		m.part, m.wantLast, moved = v.parts()-1, false, true
	}
	if last := v.parts() - 1; m.part > last {
		m.part, moved = last, true
	}
	m.arrange()
	if moved {
		return tea.Batch(m.send(), m.prefetch())
	}
	return m.prefetch()
}

// prefetch loads the steps either side of the current one, so a click
// forward or back finds them ready (and the presenter sees the next one).
func (m *Model) prefetch() tea.Cmd {
	return tea.Batch(m.load(m.step+1), m.load(m.step-1))
}
