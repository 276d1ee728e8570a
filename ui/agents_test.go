package ui

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/home"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/timeline"
)

// agentsKeyIndex is how many times to press down on Home to reach Agents.
func agentsKeyIndex(t testing.TB) int {
	for i, it := range home.Items() {
		if it.Name == "Agents" {
			return i
		}
	}
	t.Fatal("no Agents item on Home")
	return 0
}

// openAgents opens the agents screen on a scenario (from its scenario
// screen, with a) or on the series (from Home), and waits for the runs.
func openAgents(t testing.TB, cat *scenarios.Catalog, id string, size tea.WindowSizeMsg, msgs ...tea.Msg) tea.Model {
	t.Helper()
	var m tea.Model
	if id == scenarios.Afternoon.ID {
		m = New(Options{Catalog: cat})
		in := []tea.Msg{size}
		for range agentsKeyIndex(t) {
			in = append(in, uitest.Press("down"))
		}
		m, _ = uitest.Drive(m, append(in, uitest.Press("enter"), uitest.Press("enter"))...)
	} else {
		m, _ = uitest.Drive(New(Options{Catalog: cat, ScenarioID: id}), size, uitest.Press("a"))
	}
	s := agentsOf(t, m)
	if !s.loaded {
		t.Fatalf("the runs did not load: %v\n%s", s.err, m.View())
	}
	m, _ = uitest.Drive(m, msgs...)
	return m
}

func agentsOf(t testing.TB, m tea.Model) *agentsScreen {
	s, ok := m.(*App).top().(*agentsScreen)
	if !ok {
		if t == nil {
			panic("not the agents screen")
		}
		t.Fatalf("top screen is %T, not the agents screen", m.(*App).top())
	}
	return s
}

// TestAgentsGolden walks Home → Agents → "Four failures, one afternoon"
// and reveals everything (G), at two sizes; the final screen is golden.
func TestAgentsGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			tm := teatest.NewTestModel(t, New(Options{Catalog: uitest.AfternoonCatalog(t)}), teatest.WithInitialTermSize(sz[0], sz[1]))
			uitest.WaitFor(t, tm, "Reference")
			for range agentsKeyIndex(t) {
				tm.Send(uitest.Press("down"))
			}
			tm.Send(uitest.Press("enter"))
			uitest.WaitFor(t, tm, "pick a run")
			tm.Send(uitest.Press("enter")) // the series is first
			uitest.WaitFor(t, tm, "0/53 steps")
			tm.Send(uitest.Press("G"))
			uitest.WaitFor(t, tm, "all shown")
			tm.Send(uitest.Press("q"))
			view := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
			for _, want := range []string{"53/53 steps", "t=98.0s", "✗ 1 resolved correctly, 3 wasted effort", "✓ 3 resolved correctly, 1 escalated properly"} {
				if !strings.Contains(view, want) {
					t.Errorf("final view lacks %q:\n%s", want, view)
				}
			}
			teatest.RequireEqualOutput(t, []byte(view))
		})
	}
}

// TestAgentsThreeSteps goldens the series after three presses of space.
func TestAgentsThreeSteps(t *testing.T) {
	tm := teatest.NewTestModel(t, New(Options{Catalog: uitest.AfternoonCatalog(t)}), teatest.WithInitialTermSize(120, 40))
	uitest.WaitFor(t, tm, "Reference")
	for range agentsKeyIndex(t) {
		tm.Send(uitest.Press("down"))
	}
	tm.Send(uitest.Press("enter"))
	uitest.WaitFor(t, tm, "pick a run")
	tm.Send(uitest.Press("enter"))
	uitest.WaitFor(t, tm, "0/53 steps")
	for range 3 {
		tm.Send(uitest.Press(" "))
	}
	uitest.WaitFor(t, tm, "6/53 steps")
	tm.Send(uitest.Press("q"))
	view := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	for _, want := range []string{"→ call lookup_order", "⏱ wait 1s", "✗ isError true (no category)", "✗ isError true (transient)"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	teatest.RequireEqualOutput(t, []byte(view))
}

// TestAgentsStepOrder presses space until both runs are shown: each press
// reveals the earlier of the two next steps, or both when simultaneous,
// and the clock never goes back.
func TestAgentsStepOrder(t *testing.T) {
	for _, id := range []string{scenarios.Afternoon.ID, uitest.RefundWindowID, uitest.TimeoutID} {
		t.Run(id, func(t *testing.T) {
			m := openAgents(t, uitest.Catalog(t), id, uitest.Size120)
			s := agentsOf(t, m)
			if s.sides[0].Shown()+s.sides[1].Shown() != 0 {
				t.Fatal("the timelines do not start empty")
			}
			last := -1.0
			for presses := 0; !s.done(); presses++ {
				if presses > 200 {
					t.Fatal("space never reaches the end")
				}
				tn, okN := s.sides[0].NextT()
				ti, okI := s.sides[1].NextT()
				before := [2]int{s.sides[0].Shown(), s.sides[1].Shown()}
				m, _ = uitest.Drive(m, uitest.Press(" "))
				grew := [2]bool{s.sides[0].Shown() > before[0], s.sides[1].Shown() > before[1]}
				switch {
				case okN && okI && math.Abs(tn-ti) < timeline.TimeEps:
					if !grew[0] || !grew[1] {
						t.Fatalf("press %d: both next steps are at t=%g but not both were revealed", presses, tn)
					}
				case okN && (!okI || tn < ti):
					if !grew[0] || grew[1] {
						t.Fatalf("press %d: naive's step at %g comes first (informed %g), revealed %v", presses, tn, ti, grew)
					}
				default:
					if grew[0] || !grew[1] {
						t.Fatalf("press %d: informed's step at %g comes first (naive %g), revealed %v", presses, ti, tn, grew)
					}
				}
				if s.now < last-timeline.TimeEps {
					t.Fatalf("press %d: the clock went back from %g to %g", presses, last, s.now)
				}
				last = s.now
			}
			if !strings.Contains(m.View(), "all shown") {
				t.Errorf("no end state after the last step:\n%s", m.View())
			}
		})
	}
}

// TestAgentsSummaryCalls: on the refund past its window the naive agent
// resends a business refusal, the informed one explains it once.
func TestAgentsSummaryCalls(t *testing.T) {
	m := openAgents(t, uitest.Catalog(t), uitest.RefundWindowID, uitest.Size120, uitest.Press("G"))
	s := agentsOf(t, m)
	n, i := s.runs[sideNaive], s.runs[sideInformed]
	if n.Calls <= i.Calls {
		t.Fatalf("naive %d calls, informed %d", n.Calls, i.Calls)
	}
	view := m.View()
	naive := uitest.LineWith(view, "│ Naive ")
	informed := uitest.LineWith(view, "│ Informed ")
	if !strings.Contains(naive, fmt.Sprintf(" %d calls ", n.Calls)) || !strings.Contains(naive, "✗ wasted effort") {
		t.Errorf("naive summary row: %q", naive)
	}
	if !strings.Contains(informed, fmt.Sprintf(" %s ", common.Plural(i.Calls, "call"))) || !strings.Contains(informed, "✓ resolved correctly") {
		t.Errorf("informed summary row: %q", informed)
	}
	if !strings.Contains(view, fmt.Sprintf("The naive agent made %d more calls", n.Calls-i.Calls)) {
		t.Errorf("no comparison line:\n%s", view)
	}
	// The final message and the why, from the runs.
	s.setFocus(focusSummary)
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 200, Height: 80})
	view = m.View()
	for _, want := range []string{"Naive told the customer:", "Informed told the customer:", "Why:", "45 days ago"} {
		if !strings.Contains(view, want) {
			t.Errorf("summary lacks %q:\n%s", want, view)
		}
	}
}

// TestAgentsExpandShowsRequest: enter on a call shows its exact request,
// pretty-printed, and y copies the exact bytes.
func TestAgentsExpandShowsRequest(t *testing.T) {
	clip := &uitest.SyncBuffer{}
	cat := uitest.Catalog(t)
	m, _ := uitest.Drive(New(Options{Catalog: cat, ScenarioID: uitest.RefundWindowID, Clipboard: clip}), uitest.Size120, uitest.Press("a"))
	m, _ = uitest.Drive(m, uitest.Press("G"), uitest.Press("g"), uitest.Press("enter"))
	s := agentsOf(t, m)
	if s.mode != modeExpanded {
		t.Fatalf("enter on the first step (a call) did not expand it; status %q", m.(*App).c.Status().Text)
	}
	ex := s.runs[sideNaive].Steps[0].Exchange
	if s.exp[0].Raw() != string(ex.Request) || s.exp[1].Raw() != string(ex.Response) {
		t.Fatal("the expanded panes do not hold the exact exchange")
	}
	view := m.View()
	for _, want := range []string{`"method": "tools/call"`, `"name": "process_refund"`, `"isError": true`, "Request · naive agent · t=0.0s"} {
		if !strings.Contains(view, want) {
			t.Errorf("expanded view lacks %q:\n%s", want, view)
		}
	}
	m, _ = uitest.Drive(m, uitest.Press("tab"), uitest.Press("y"))
	if !strings.Contains(m.View(), "copied the naive agent's request envelope") {
		t.Errorf("no copy status:\n%s", m.View())
	}
	// esc closes the exchange, not the screen.
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if agentsOf(t, m).mode != modeTimelines {
		t.Error("esc did not close the expanded step")
	}
	// A wait has no exchange: enter warns.
	m, _ = uitest.Drive(m, uitest.Press("j"), uitest.Press("enter"))
	if agentsOf(t, m).mode != modeTimelines || !strings.Contains(m.View(), "⚠ a wait has no exchange") {
		t.Errorf("enter on a wait:\n%s", m.View())
	}
}

// TestAgentsSubagentView: c shows the subagent's report and the
// coordinator's decision; on a scenario it cannot play, a ⚠ status.
func TestAgentsSubagentView(t *testing.T) {
	cat := uitest.Catalog(t)
	m := openAgents(t, cat, uitest.StaffID, uitest.Size120, uitest.Press("c"))
	s := agentsOf(t, m)
	if s.mode != modeSubagent {
		t.Fatalf("c did not open the subagent view; status %q", m.(*App).c.Status().Text)
	}
	view := m.View()
	for _, want := range []string{`"partialResults"`, "escalate_human", "Escalate to a human", "✓ Coordinator:", "get_customer", "✗ isError true (permission)"} {
		if !strings.Contains(view, want) {
			t.Errorf("subagent view lacks %q:\n%s", want, view)
		}
	}
	if s.coord.CoordinatorAction != rules.EscalateHuman {
		t.Errorf("coordinator action %q", s.coord.CoordinatorAction)
	}
	m, _ = uitest.Drive(m, uitest.Press("c"))
	if agentsOf(t, m).mode != modeTimelines {
		t.Error("c did not close the subagent view")
	}

	m = openAgents(t, cat, uitest.RefundWindowID, uitest.Size120, uitest.Press("c"))
	if agentsOf(t, m).mode != modeTimelines {
		t.Fatal("the subagent view opened on a process_refund scenario")
	}
	if line := uitest.LineWith(m.View(), "no subagent view"); !strings.Contains(line, "⚠") || !strings.Contains(line, "process_refund") {
		t.Errorf("no ⚠ status saying why:\n%s", m.View())
	}
}

// TestPropagationExercise scores the report (structured ✓, empty ✗ with
// the no-suppression rule) and the coordinator's move.
func TestPropagationExercise(t *testing.T) {
	cat := uitest.Catalog(t)
	m, _ := uitest.Drive(New(Options{Catalog: cat, ScenarioID: uitest.StoreDownID}), uitest.Size120, uitest.Press("e"))
	if _, ok := m.(*App).top().(*scenarioScreen); !ok || !strings.Contains(m.View(), "make the call first") {
		t.Fatalf("e before the call:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("enter"), uitest.Press("e"))
	ex, ok := m.(*App).top().(*propagationScreen)
	if !ok {
		t.Fatalf("e did not open the exercise:\n%s", m.View())
	}
	key := func(k rules.ReportKind) string { return fmt.Sprint(slices.Index(rules.ReportKinds, k) + 1) }

	m, _ = uitest.Drive(m, uitest.Press(key(rules.ReportEmpty)))
	noSup := rules.Lookup(rules.RuleNoSuppression).Ref()
	if ex.reportV == nil || ex.reportV.Grade.Correct() || ex.reportV.Rule.ID != rules.RuleNoSuppression {
		t.Fatalf("empty success scored %+v", ex.reportV)
	}
	view := m.View()
	if !strings.Contains(view, "✗ Not the best move: "+key(rules.ReportEmpty)) || !strings.Contains(view, noSup) {
		t.Errorf("empty success: no ✗ verdict naming %q:\n%s", noSup, view)
	}

	m, _ = uitest.Drive(m, uitest.Press(key(rules.ReportStructured)))
	if ex.reportV.Grade != rules.GradeBest || ex.focus != exCoordinator {
		t.Fatalf("structured report scored %+v, focus %d", ex.reportV, ex.focus)
	}
	// The model answer is the engine's report; its verdict is above.
	if ex.model == nil || !strings.Contains(ex.model.Subagent.FinalMessage, `"partialResults"`) {
		t.Fatal("no model answer from agent.Delegate")
	}
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 140, Height: 200})
	view = m.View()
	for _, want := range []string{"✓ Correct: " + key(rules.ReportStructured), rules.Lookup(rules.RuleReportUpward).Ref(), "Model answer:", `"attempted"`, "Step 2 of 2"} {
		if !strings.Contains(view, want) {
			t.Errorf("after step 1 the view lacks %q:\n%s", want, view)
		}
	}

	want := rules.Score(rules.CoordinatorSituation(rules.Transient, 0), rules.EscalateHuman)
	m, _ = uitest.Drive(m, uitest.Press(uitest.RetryKey()))
	if ex.actionV == nil || ex.actionV.Grade.Correct() {
		t.Fatalf("retry_same after the cap scored %+v", ex.actionV)
	}
	m, _ = uitest.Drive(m, uitest.Press(fmt.Sprint(slices.Index(rules.Actions, rules.EscalateHuman)+1)))
	if ex.actionV.Grade != want.Grade || want.Grade != rules.GradeBest {
		t.Fatalf("escalate_human scored %+v, want %+v", ex.actionV, want)
	}
	if !strings.Contains(m.View(), "✓ Correct: 4 Escalate to a human") {
		t.Errorf("no ✓ for the coordinator's move:\n%s", m.View())
	}
}

// TestExerciseOnlyOnSubagentScenarios: e does nothing on other scenarios
// and is not in their help.
func TestExerciseOnlyOnSubagentScenarios(t *testing.T) {
	m := openTimeout(t, Options{}, uitest.Press("enter"), uitest.Press("e"))
	if _, ok := m.(*App).top().(*scenarioScreen); !ok {
		t.Fatal("e left a scenario that is not a subagent's")
	}
	if strings.Contains(m.View(), "e exercise") {
		t.Error("e is offered on a scenario without a propagation exercise")
	}
}

// TestAgentsAutoPlay plays with p through a fake clock: every step is
// revealed in order, no real pause exceeds maxPause (6 s), and p pauses.
func TestAgentsAutoPlay(t *testing.T) {
	var pauses []time.Duration
	orig := agentsTick
	agentsTick = func(owner *agentsScreen, gen int, d time.Duration) tea.Cmd {
		pauses = append(pauses, d)
		return func() tea.Msg { return agentsTickMsg{owner: owner, gen: gen} }
	}
	defer func() { agentsTick = orig }()

	m := openAgents(t, uitest.Catalog(t), uitest.RefundWindowID, uitest.Size120, uitest.Press("+"), uitest.Press("+")) // 1× → 4×
	s := agentsOf(t, m)
	if got := agentSpeeds[s.speed]; got != 4 {
		t.Fatalf("speed %g after two +", got)
	}
	if !strings.Contains(m.View(), "speed 4×") {
		t.Errorf("the speed is not shown:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("-"), uitest.Press("-"), uitest.Press("p")) // back to 1×
	if !s.done() || s.playing {
		t.Fatalf("auto-play stopped early: %d+%d shown, playing %v", s.sides[0].Shown(), s.sides[1].Shown(), s.playing)
	}
	if len(pauses) == 0 {
		t.Fatal("no ticks")
	}
	sawCap, saw4 := false, false
	for _, d := range pauses {
		if d > maxPause || d < minPause {
			t.Errorf("pause %v outside [%v, %v]", d, minPause, maxPause)
		}
		sawCap = sawCap || d == maxPause
		saw4 = saw4 || (d > 3990*time.Millisecond && d <= 4*time.Second)
	}
	if !sawCap || !saw4 {
		t.Errorf("at 1× the 4 s wait should take 4 s and the 8 s and 16 s ones 6 s: %v", pauses)
	}
	if !strings.Contains(m.View(), "✓ both runs played out") {
		t.Errorf("no end status:\n%s", m.View())
	}
	// 0 restarts; p then p pauses (a stale tick is ignored).
	m, _ = uitest.Drive(m, uitest.Press("0"))
	if s.sides[0].Shown() != 0 || s.sides[1].Shown() != 0 {
		t.Fatal("0 did not restart")
	}
	agentsTick = func(owner *agentsScreen, gen int, d time.Duration) tea.Cmd { return nil }
	m, _ = uitest.Drive(m, uitest.Press("p"), uitest.Press("p"))
	if s.playing {
		t.Error("p did not pause")
	}
	m, _ = uitest.Drive(m, agentsTickMsg{owner: s, gen: s.gen - 1})
	if s.sides[0].Shown()+s.sides[1].Shown() != 0 {
		t.Error("a stale tick revealed a step")
	}
	_ = m
}

// TestSpeedChangeReschedules: + while a tick is pending schedules a new,
// shorter one and makes the pending one stale; the label says when long
// waits are shortened; the summary never says "playing" while paused.
func TestSpeedChangeReschedules(t *testing.T) {
	type tick struct {
		gen int
		d   time.Duration
	}
	var ticks []tick
	orig := agentsTick
	agentsTick = func(owner *agentsScreen, gen int, d time.Duration) tea.Cmd {
		ticks = append(ticks, tick{gen, d})
		return nil // the test delivers ticks itself
	}
	defer func() { agentsTick = orig }()

	m := openAgents(t, uitest.Catalog(t), uitest.RefundWindowID, uitest.Size120)
	s := agentsOf(t, m)
	if line := uitest.LineWith(m.View(), "+/- speed"); !strings.Contains(line, "1× · waits over 6s shortened") {
		t.Errorf("the speed chip does not say long waits are shortened: %q", line)
	}
	// Play until the pending tick is the 16 s wait's (capped at 6 s).
	m, _ = uitest.Drive(m, uitest.Press("p"))
	for len(ticks) > 0 && ticks[len(ticks)-1].d != maxPause {
		last := ticks[len(ticks)-1]
		m, _ = uitest.Drive(m, agentsTickMsg{owner: s, gen: last.gen})
		if len(ticks) > 40 {
			t.Fatal("no capped wait")
		}
	}
	pending := ticks[len(ticks)-1]
	shown := s.sides[0].Shown() + s.sides[1].Shown()
	m, _ = uitest.Drive(m, uitest.Press("+"), uitest.Press("+"), uitest.Press("+")) // 10×
	got := ticks[len(ticks)-1]
	if got.gen == pending.gen || got.d >= pending.d {
		t.Fatalf("+ did not reschedule the pending tick: %v then %v", pending, got)
	}
	m, _ = uitest.Drive(m, agentsTickMsg{owner: s, gen: pending.gen})
	if s.sides[0].Shown()+s.sides[1].Shown() != shown {
		t.Error("the stale tick revealed a step")
	}
	m, _ = uitest.Drive(m, agentsTickMsg{owner: s, gen: s.gen})
	if s.sides[0].Shown()+s.sides[1].Shown() != shown+1 {
		t.Error("the rescheduled tick did not reveal the next step")
	}
	if st := m.(*App).c.Status().Text; !strings.HasPrefix(st, "speed 10× of virtual time") || strings.Contains(st, "shortened") {
		t.Errorf("at 10× no wait here is shortened; status %q", st)
	}
	// Paused half-way: no "playing" anywhere in the summary.
	m, _ = uitest.Drive(m, uitest.Press("p"))
	sum := agentsOf(t, m).summaryLines(100)
	if strings.Contains(sum, "playing") {
		t.Errorf("the summary says playing while paused:\n%s", sum)
	}
	if !strings.Contains(sum, "not finished yet") {
		t.Errorf("the summary does not say the naive run is unfinished:\n%s", sum)
	}
}

func TestPauseFor(t *testing.T) {
	for _, c := range []struct {
		gap, speed float64
		want       time.Duration
	}{
		{16, 4, 4 * time.Second}, {16, 1, maxPause}, {4, 1, 4 * time.Second}, {4, 0.5, maxPause}, {2, 4, 500 * time.Millisecond},
		{1, 1, time.Second}, {0, 1, minPause}, {0.2, 10, minPause}, {1, 0.5, 2 * time.Second},
	} {
		if got := pauseFor(c.gap, c.speed); got != c.want {
			t.Errorf("pauseFor(%g, %g) = %v, want %v", c.gap, c.speed, got, c.want)
		}
	}
	// 0.5× and 1× differ on the lessons' 1 s, 2 s, 4 s backoff.
	for _, gap := range []float64{1, 2} {
		if pauseFor(gap, 0.5) == pauseFor(gap, 1) {
			t.Errorf("a %gs wait looks the same at 0.5× and 1×", gap)
		}
	}
}

// TestHomeOpensAgentsPicker: Agents is no longer "coming"; its picker
// lists the series first and filters like the lab list.
func TestHomeOpensAgentsPicker(t *testing.T) {
	m := New(Options{Catalog: uitest.Catalog(t)})
	in := []tea.Msg{uitest.Size120}
	for range agentsKeyIndex(t) {
		in = append(in, uitest.Press("down"))
	}
	m, _ = uitest.Drive(m, append(in, uitest.Press("enter"))...)
	view := m.View()
	if !strings.Contains(view, "pick a run") || !strings.Contains(uitest.LineWith(view, "▸"), "Four failures, one afternoon") {
		t.Fatalf("the picker does not start on the series:\n%s", view)
	}
	m, _ = uitest.Drive(m, uitest.Press("/"), uitest.Press("s"), uitest.Press("t"), uitest.Press("a"), uitest.Press("f"), uitest.Press("f"), uitest.Press("enter"), uitest.Press("enter"))
	s := agentsOf(t, m)
	if s.id != uitest.StaffID {
		t.Errorf("the filter opened %s", s.id)
	}
	if !strings.Contains(m.View(), "Agents › "+uitest.StaffID) {
		t.Errorf("crumb:\n%s", m.View())
	}
}

// TestAgentsFromScenario: a on a scenario plays that scenario; esc goes
// back to it.
func TestAgentsFromScenario(t *testing.T) {
	m := openAgents(t, uitest.Catalog(t), uitest.TimeoutID, uitest.Size120)
	if s := agentsOf(t, m); s.id != uitest.TimeoutID || !s.fromScenario {
		t.Fatalf("opened %s", s.id)
	}
	if !strings.Contains(m.View(), uitest.TimeoutID+" › Agents") {
		t.Errorf("crumb:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if _, ok := m.(*App).top().(*scenarioScreen); !ok {
		t.Error("esc did not go back to the scenario")
	}
}

// TestAgentsRunsMatchEngine: the screen shows the runs agent.Play makes.
func TestAgentsRunsMatchEngine(t *testing.T) {
	cat := uitest.Catalog(t)
	sc, _ := cat.Get(uitest.RefundWindowID)
	want, err := agent.Play(t.Context(), sc.Task(), agent.Naive)
	if err != nil {
		t.Fatal(err)
	}
	s := agentsOf(t, openAgents(t, cat, uitest.RefundWindowID, uitest.Size120))
	got := s.runs[sideNaive]
	if got.Calls != want.Calls || got.Verdict != want.Verdict || len(got.Steps) != len(want.Steps) {
		t.Errorf("screen run %d calls %q, engine %d calls %q", got.Calls, got.Verdict, want.Calls, want.Verdict)
	}
}

// TestEveryScenarioAgents opens the agents screen on every built-in
// scenario, steps, reveals everything, expands the first call and opens
// the subagent view where there is one, at three sizes: no panic, no
// error status, nothing wider than the terminal.
func TestEveryScenarioAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	cat := uitest.Catalog(t)
	for _, sc := range cat.Scenarios {
		t.Run(sc.ID, func(t *testing.T) {
			m := openAgents(t, cat, sc.ID, uitest.Size120)
			check := func(what string) {
				t.Helper()
				for _, sz := range [][2]int{{60, 20}, {80, 24}, {120, 40}} {
					m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
					for i, l := range strings.Split(m.View(), "\n") {
						if w := ansi.StringWidth(l); w > sz[0] {
							t.Fatalf("%s at %dx%d: line %d is %d wide: %q", what, sz[0], sz[1], i, w, l)
						}
					}
				}
				if st := m.(*App).c.Status(); st.Kind == common.StatusError {
					t.Fatalf("%s: error status: %s", what, st.Text)
				}
			}
			m, _ = uitest.Drive(m, uitest.Press(" "), uitest.Press(" "))
			check("steps")
			m, _ = uitest.Drive(m, uitest.Press("G"), uitest.Press("g"), uitest.Press("enter"))
			check("expanded")
			if agentsOf(t, m).mode != modeExpanded {
				t.Fatalf("the first step is not an expandable call: %s", m.(*App).c.Status().Text)
			}
			m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("tab"), uitest.Press("tab"), uitest.Press("pgdown"))
			check("summary")
			s := agentsOf(t, m)
			for i, r := range s.runs {
				if r.Verdict == "" || r.FinalMessage == "" {
					t.Errorf("side %d: no verdict or final message", i)
				}
			}
			m, _ = uitest.Drive(m, uitest.Press("c"))
			_, derr := sc.Delegation()
			if got := agentsOf(t, m).mode == modeSubagent; got != (derr == nil) {
				t.Fatalf("subagent view open %v, delegation error %v", got, derr)
			}
			check("subagent")
		})
	}
}

// TestAgentsPickerEmptyCatalog: the picker of an empty lab warns.
func TestAgentsPickerEmptyCatalog(t *testing.T) {
	m, _ := uitest.Drive(New(Options{}), append(append([]tea.Msg{uitest.Size120}, toAgents(t)...), uitest.Press("enter"))...)
	if v := m.View(); !strings.Contains(v, "no scenarios are loaded") {
		t.Errorf("no warning in an empty picker:\n%s", v)
	}
}
