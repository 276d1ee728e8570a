package agents_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/ui/internal/uitest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/timeline"
	"github.com/errorlab/errorlab/ui/pages/agents"
)

// agentsKeyIndex is how many times to press down on Home to reach Agents.
func agentsKeyIndex(t testing.TB) int { return uitest.AgentsKeyIndex(t, ui.New(ui.Options{})) }

// toAgents is the keys from Home to the agents picker.
func toAgents(t testing.TB) []tea.Msg { return uitest.ToAgents(t, ui.New(ui.Options{})) }

// openAgents opens the agents screen on a scenario (from its scenario
// screen, with a) or on the series (from Home), and waits for the runs.
func openAgents(t testing.TB, cat *scenarios.Catalog, id string, size tea.WindowSizeMsg, msgs ...tea.Msg) tea.Model {
	t.Helper()
	var m tea.Model
	if id == scenarios.Afternoon.ID {
		m = ui.New(ui.Options{Catalog: cat})
		in := []tea.Msg{size}
		for range agentsKeyIndex(t) {
			in = append(in, uitest.Press("down"))
		}
		m, _ = uitest.Drive(m, append(in, uitest.Press("enter"), uitest.Press("enter"))...)
	} else {
		m, _ = uitest.Drive(ui.New(ui.Options{Catalog: cat, ScenarioID: id}), size, uitest.Press("a"))
	}
	s := agentsOf(t, m)
	if !s.Loaded() {
		t.Fatalf("the runs did not load: %v\n%s", s.Err(), m.View())
	}
	m, _ = uitest.Drive(m, msgs...)
	return m
}

func agentsOf(t testing.TB, m tea.Model) *agents.Model {
	s, ok := m.(*ui.App).Top().(*agents.Model)
	if !ok {
		if t == nil {
			panic("not the agents screen")
		}
		t.Fatalf("top screen is %T, not the agents screen", m.(*ui.App).Top())
	}
	return s
}

// status is the status line's text.
func status(m tea.Model) string { return m.(*ui.App).Status().Text }

// TestAgentsGolden walks Home → Agents → "Four failures, one afternoon"
// and reveals everything (G), at two sizes; the final screen is golden.
func TestAgentsGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			tm := teatest.NewTestModel(t, ui.New(ui.Options{Catalog: uitest.AfternoonCatalog(t)}), teatest.WithInitialTermSize(sz[0], sz[1]))
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
	tm := teatest.NewTestModel(t, ui.New(ui.Options{Catalog: uitest.AfternoonCatalog(t)}), teatest.WithInitialTermSize(120, 40))
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
			if s.Side(0).Shown()+s.Side(1).Shown() != 0 {
				t.Fatal("the timelines do not start empty")
			}
			last := -1.0
			for presses := 0; !s.Done(); presses++ {
				if presses > 200 {
					t.Fatal("space never reaches the end")
				}
				tn, okN := s.Side(0).NextT()
				ti, okI := s.Side(1).NextT()
				before := [2]int{s.Side(0).Shown(), s.Side(1).Shown()}
				m, _ = uitest.Drive(m, uitest.Press(" "))
				grew := [2]bool{s.Side(0).Shown() > before[0], s.Side(1).Shown() > before[1]}
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
				if s.Now() < last-timeline.TimeEps {
					t.Fatalf("press %d: the clock went back from %g to %g", presses, last, s.Now())
				}
				last = s.Now()
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
	n, i := s.Run(agents.SideNaive), s.Run(agents.SideInformed)
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
	s.SetFocus(agents.FocusSummary)
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
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: cat, ScenarioID: uitest.RefundWindowID, Clipboard: clip}), uitest.Size120, uitest.Press("a"))
	m, _ = uitest.Drive(m, uitest.Press("G"), uitest.Press("g"), uitest.Press("enter"))
	s := agentsOf(t, m)
	if s.Mode() != agents.ModeExpanded {
		t.Fatalf("enter on the first step (a call) did not expand it; status %q", status(m))
	}
	ex := s.Run(agents.SideNaive).Steps[0].Exchange
	if s.Expanded(0).Raw() != string(ex.Request) || s.Expanded(1).Raw() != string(ex.Response) {
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
	if agentsOf(t, m).Mode() != agents.ModeTimelines {
		t.Error("esc did not close the expanded step")
	}
	// A wait has no exchange: enter warns.
	m, _ = uitest.Drive(m, uitest.Press("j"), uitest.Press("enter"))
	if agentsOf(t, m).Mode() != agents.ModeTimelines || !strings.Contains(m.View(), "⚠ a wait has no exchange") {
		t.Errorf("enter on a wait:\n%s", m.View())
	}
}

// TestAgentsSubagentView: c shows the subagent's report and the
// coordinator's decision; on a scenario it cannot play, a ⚠ status.
func TestAgentsSubagentView(t *testing.T) {
	cat := uitest.Catalog(t)
	m := openAgents(t, cat, uitest.StaffID, uitest.Size120, uitest.Press("c"))
	s := agentsOf(t, m)
	if s.Mode() != agents.ModeSubagent {
		t.Fatalf("c did not open the subagent view; status %q", status(m))
	}
	view := m.View()
	for _, want := range []string{`"partialResults"`, "escalate_human", "Escalate to a human", "✓ Coordinator:", "get_customer", "✗ isError true (permission)"} {
		if !strings.Contains(view, want) {
			t.Errorf("subagent view lacks %q:\n%s", want, view)
		}
	}
	if s.Coord().CoordinatorAction != rules.EscalateHuman {
		t.Errorf("coordinator action %q", s.Coord().CoordinatorAction)
	}
	m, _ = uitest.Drive(m, uitest.Press("c"))
	if agentsOf(t, m).Mode() != agents.ModeTimelines {
		t.Error("c did not close the subagent view")
	}

	m = openAgents(t, cat, uitest.RefundWindowID, uitest.Size120, uitest.Press("c"))
	if agentsOf(t, m).Mode() != agents.ModeTimelines {
		t.Fatal("the subagent view opened on a process_refund scenario")
	}
	if line := uitest.LineWith(m.View(), "no subagent view"); !strings.Contains(line, "⚠") || !strings.Contains(line, "process_refund") {
		t.Errorf("no ⚠ status saying why:\n%s", m.View())
	}
}

// TestAgentsAutoPlay plays with p through a fake clock: every step is
// revealed in order, no real pause exceeds agents.MaxPause (6 s), and p pauses.
func TestAgentsAutoPlay(t *testing.T) {
	var pauses []time.Duration
	defer agents.SetTick(func(owner *agents.Model, gen int, d time.Duration) tea.Cmd {
		pauses = append(pauses, d)
		return func() tea.Msg { return agents.TickMsg(owner, gen) }
	})()

	m := openAgents(t, uitest.Catalog(t), uitest.RefundWindowID, uitest.Size120, uitest.Press("+"), uitest.Press("+")) // 1× → 4×
	s := agentsOf(t, m)
	if got := s.Speed(); got != 4 {
		t.Fatalf("speed %g after two +", got)
	}
	if !strings.Contains(m.View(), "speed 4×") {
		t.Errorf("the speed is not shown:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("-"), uitest.Press("-"), uitest.Press("p")) // back to 1×
	if !s.Done() || s.Playing() {
		t.Fatalf("auto-play stopped early: %d+%d shown, playing %v", s.Side(0).Shown(), s.Side(1).Shown(), s.Playing())
	}
	if len(pauses) == 0 {
		t.Fatal("no ticks")
	}
	sawCap, saw4 := false, false
	for _, d := range pauses {
		if d > agents.MaxPause || d < agents.MinPause {
			t.Errorf("pause %v outside [%v, %v]", d, agents.MinPause, agents.MaxPause)
		}
		sawCap = sawCap || d == agents.MaxPause
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
	if s.Side(0).Shown() != 0 || s.Side(1).Shown() != 0 {
		t.Fatal("0 did not restart")
	}
	agents.SetTick(func(owner *agents.Model, gen int, d time.Duration) tea.Cmd { return nil })
	m, _ = uitest.Drive(m, uitest.Press("p"), uitest.Press("p"))
	if s.Playing() {
		t.Error("p did not pause")
	}
	m, _ = uitest.Drive(m, agents.TickMsg(s, s.Gen()-1))
	if s.Side(0).Shown()+s.Side(1).Shown() != 0 {
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
	defer agents.SetTick(func(owner *agents.Model, gen int, d time.Duration) tea.Cmd {
		ticks = append(ticks, tick{gen, d})
		return nil // the test delivers ticks itself
	})()

	m := openAgents(t, uitest.Catalog(t), uitest.RefundWindowID, uitest.Size120)
	s := agentsOf(t, m)
	if line := uitest.LineWith(m.View(), "+/- speed"); !strings.Contains(line, "1× · waits over 6s shortened") {
		t.Errorf("the speed chip does not say long waits are shortened: %q", line)
	}
	// Play until the pending tick is the 16 s wait's (capped at 6 s).
	m, _ = uitest.Drive(m, uitest.Press("p"))
	for len(ticks) > 0 && ticks[len(ticks)-1].d != agents.MaxPause {
		last := ticks[len(ticks)-1]
		m, _ = uitest.Drive(m, agents.TickMsg(s, last.gen))
		if len(ticks) > 40 {
			t.Fatal("no capped wait")
		}
	}
	pending := ticks[len(ticks)-1]
	shown := s.Side(0).Shown() + s.Side(1).Shown()
	m, _ = uitest.Drive(m, uitest.Press("+"), uitest.Press("+"), uitest.Press("+")) // 10×
	got := ticks[len(ticks)-1]
	if got.gen == pending.gen || got.d >= pending.d {
		t.Fatalf("+ did not reschedule the pending tick: %v then %v", pending, got)
	}
	m, _ = uitest.Drive(m, agents.TickMsg(s, pending.gen))
	if s.Side(0).Shown()+s.Side(1).Shown() != shown {
		t.Error("the stale tick revealed a step")
	}
	m, _ = uitest.Drive(m, agents.TickMsg(s, s.Gen()))
	if s.Side(0).Shown()+s.Side(1).Shown() != shown+1 {
		t.Error("the rescheduled tick did not reveal the next step")
	}
	if st := status(m); !strings.HasPrefix(st, "speed 10× of virtual time") || strings.Contains(st, "shortened") {
		t.Errorf("at 10× no wait here is shortened; status %q", st)
	}
	// Paused half-way: no "playing" anywhere in the summary.
	m, _ = uitest.Drive(m, uitest.Press("p"))
	sum := agentsOf(t, m).SummaryLines(100)
	if strings.Contains(sum, "playing") {
		t.Errorf("the summary says playing while paused:\n%s", sum)
	}
	if !strings.Contains(sum, "not finished yet") {
		t.Errorf("the summary does not say the naive run is unfinished:\n%s", sum)
	}
}

// TestHomeOpensAgentsPicker: Agents is no longer "coming"; its picker
// lists the series first and filters like the lab list.
func TestHomeOpensAgentsPicker(t *testing.T) {
	m := ui.New(ui.Options{Catalog: uitest.Catalog(t)})
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
	if s.ID() != uitest.StaffID {
		t.Errorf("the filter opened %s", s.ID())
	}
	if !strings.Contains(m.View(), "Agents › "+uitest.StaffID) {
		t.Errorf("crumb:\n%s", m.View())
	}
}

// TestAgentsFromScenario: a on a scenario plays that scenario; esc goes
// back to it.
func TestAgentsFromScenario(t *testing.T) {
	m := openAgents(t, uitest.Catalog(t), uitest.TimeoutID, uitest.Size120)
	if s := agentsOf(t, m); s.ID() != uitest.TimeoutID || !s.FromScenario() {
		t.Fatalf("opened %s", s.ID())
	}
	if !strings.Contains(m.View(), uitest.TimeoutID+" › Agents") {
		t.Errorf("crumb:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if top := m.(*ui.App).Top(); top.Crumb() != uitest.TimeoutID {
		t.Errorf("esc did not go back to the scenario: the top screen is %T %q", top, top.Crumb())
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
	got := s.Run(agents.SideNaive)
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
				if st := m.(*ui.App).Status(); st.Kind == common.StatusError {
					t.Fatalf("%s: error status: %s", what, st.Text)
				}
			}
			m, _ = uitest.Drive(m, uitest.Press(" "), uitest.Press(" "))
			check("steps")
			m, _ = uitest.Drive(m, uitest.Press("G"), uitest.Press("g"), uitest.Press("enter"))
			check("expanded")
			if agentsOf(t, m).Mode() != agents.ModeExpanded {
				t.Fatalf("the first step is not an expandable call: %s", status(m))
			}
			m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("tab"), uitest.Press("tab"), uitest.Press("pgdown"))
			check("summary")
			s := agentsOf(t, m)
			for i := range 2 {
				r := s.Run(i)
				if r.Verdict == "" || r.FinalMessage == "" {
					t.Errorf("side %d: no verdict or final message", i)
				}
			}
			m, _ = uitest.Drive(m, uitest.Press("c"))
			_, derr := sc.Delegation()
			if got := agentsOf(t, m).Mode() == agents.ModeSubagent; got != (derr == nil) {
				t.Fatalf("subagent view open %v, delegation error %v", got, derr)
			}
			check("subagent")
		})
	}
}

// TestAgentsPickerEmptyCatalog: the picker of an empty lab warns.
func TestAgentsPickerEmptyCatalog(t *testing.T) {
	m, _ := uitest.Drive(ui.New(ui.Options{}), append(append([]tea.Msg{uitest.Size120}, toAgents(t)...), uitest.Press("enter"))...)
	if v := m.View(); !strings.Contains(v, "no scenarios are loaded") {
		t.Errorf("no warning in an empty picker:\n%s", v)
	}
}

// TestAgentsFollowTheScenarioRevision: a on a scenario screen under
// 2025-06-18 plays the agents under 2025-06-18 (the schema break is a
// -32602 there), says so in the header and names exports with it; from
// the picker the scenario's own revision plays; r on the agents screen
// plays again under the next revision.
func TestAgentsFollowTheScenarioRevision(t *testing.T) {
	cat := uitest.Catalog(t)
	dir := t.TempDir()
	keys := append(uitest.RevKeys(t, uitest.ArgsSchemaID, rules.Rev20250618), uitest.Press("a"))
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: cat, ScenarioID: uitest.ArgsSchemaID, ExportDir: dir}), append([]tea.Msg{uitest.Size120}, keys...)...)
	s := agentsOf(t, m)
	if s.Rev() != rules.Rev20250618 || !s.Loaded() {
		t.Fatalf("agents rev %q loaded %v", s.Rev(), s.Loaded())
	}
	if line := uitest.LineWith(m.View(), "r spec"); !strings.Contains(line, "r spec 2025-06-18") {
		t.Errorf("the header does not say spec 2025-06-18: %q", line)
	}
	first := s.Run(agents.SideInformed).Steps[0]
	if first.Exchange == nil || first.Exchange.Revision != rules.Rev20250618 || first.Protocol != -32602 {
		t.Fatalf("the informed agent's call was not made under 2025-06-18: %+v", first)
	}
	m, _ = uitest.Drive(m, uitest.Press("G"), uitest.Press("tab"), uitest.Press("g"), uitest.Press("enter"), uitest.Press("w"))
	files, _ := filepath.Glob(filepath.Join(dir, "*-2025-06-18.json"))
	if len(files) != 1 {
		t.Errorf("export not named with the revision: %v; status %q", files, status(m))
	}

	// r plays again under the next revision, from t=0.
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("r"))
	s = agentsOf(t, m)
	if s.Rev() != rules.Rev20251125 || !s.Loaded() || s.Side(0).Shown() != 0 {
		t.Fatalf("r: rev %q loaded %v shown %d", s.Rev(), s.Loaded(), s.Side(0).Shown())
	}
	if ex := s.Run(agents.SideInformed).Steps[0]; ex.Exchange.Revision != rules.Rev20251125 || ex.Protocol != 0 {
		t.Errorf("after r the call is not under 2025-11-25: protocol %d", ex.Protocol)
	}
	if line := uitest.LineWith(m.View(), "r spec"); !strings.Contains(line, "r spec 2025-11-25") {
		t.Errorf("header after r: %q", line)
	}

	// From the picker: the scenario's own revision.
	sc, _ := cat.Get(uitest.ArgsSchemaID)
	p := openAgents(t, cat, scenarios.Afternoon.ID, uitest.Size120)
	if got := agentsOf(t, p).Rev(); got != sc.Revision() {
		t.Errorf("the series plays under %q", got)
	}
	m2, _ := uitest.Drive(ui.New(ui.Options{Catalog: cat}), append(append([]tea.Msg{uitest.Size120}, toAgents(t)...), uitest.Press("/"), uitest.Press("s"), uitest.Press("c"), uitest.Press("h"), uitest.Press("e"), uitest.Press("m"), uitest.Press("a"), uitest.Press("enter"), uitest.Press("enter"))...)
	if s := agentsOf(t, m2); s.ID() != uitest.ArgsSchemaID || s.Rev() != sc.Revision() {
		t.Errorf("from the picker: %s under %q, want %s under %s", s.ID(), s.Rev(), uitest.ArgsSchemaID, sc.Revision())
	}
}

// TestAgentsRowsAreShared: stacked at 80x24 and 60x20, neither timeline
// is cut to one line while the other shows blank rows, and the summary
// keeps its two verdict rows, at every step of a run.
func TestAgentsRowsAreShared(t *testing.T) {
	for _, id := range []string{uitest.RefundWindowID, uitest.TimeoutID, uitest.StaffID} {
		for _, sz := range []tea.WindowSizeMsg{{Width: 80, Height: 24}, {Width: 60, Height: 20}} {
			m := openAgents(t, uitest.Catalog(t), id, sz)
			s := agentsOf(t, m)
			for step := 0; ; step++ {
				var inner, content [2]int
				for i := range 2 {
					tl := s.Side(i)
					_, inner[i] = tl.Pane().Inner()
					content[i] = tl.Pane().Viewport().TotalLineCount()
				}
				for i := range 2 {
					j := 1 - i
					if inner[i] < content[i] && inner[i] <= 1 && inner[j] > content[j] {
						t.Fatalf("%s %dx%d step %d: side %d shows %d of %d lines while side %d has %d rows for %d lines\n%s",
							id, sz.Width, sz.Height, step, i, inner[i], content[i], j, inner[j], content[j], m.View())
					}
					if inner[i] < content[i] && inner[j] > content[j]+1 {
						t.Errorf("%s %dx%d step %d: side %d cut (%d of %d) while side %d has %d blank rows",
							id, sz.Width, sz.Height, step, i, inner[i], content[i], j, inner[j]-content[j])
					}
				}
				if _, ih := s.Summary().Inner(); ih < 2 {
					t.Errorf("%s %dx%d step %d: the summary has %d rows", id, sz.Width, sz.Height, step, ih)
				}
				if s.Done() {
					break
				}
				m, _ = uitest.Drive(m, uitest.Press(" "))
			}
			if n := len(strings.Split(m.View(), "\n")); n > sz.Height {
				t.Errorf("%dx%d: %d lines", sz.Width, sz.Height, n)
			}
		}
	}
}

// Item 6: the series has no subagent view, so its help does not offer c;
// a long situation is shown whole when the header has room, and at the
// end of the summary when it has not.
func TestAgentsHelpAndSituation(t *testing.T) {
	cat := uitest.Catalog(t)
	m := openAgents(t, cat, scenarios.Afternoon.ID, uitest.Size120)
	if strings.Contains(m.View(), "c subagent") {
		t.Errorf("the series advertises c:\n%s", m.View())
	}
	for _, b := range agentsOf(t, m).ShortHelp() {
		if b.Enabled() && b.Help().Key == "c" {
			t.Error("c is in the short help")
		}
	}
	const id = "subagent-order-store-down"
	sc, ok := cat.Get(id)
	if !ok {
		t.Skip("no " + id)
	}
	sit := strings.Join(strings.Fields(sc.Situation), " ")
	m = openAgents(t, cat, id, uitest.Size120)
	if !strings.Contains(uitest.Flat(m.View()), uitest.Flat(sit)) {
		t.Errorf("the situation is not whole at 120x40:\n%s", m.View())
	}
	if !strings.Contains(m.View(), "c subagent") {
		t.Errorf("a subagent scenario lost c:\n%s", m.View())
	}
	m = openAgents(t, cat, id, tea.WindowSizeMsg{Width: 80, Height: 24})
	a := agentsOf(t, m)
	if !a.SitCut() || !strings.Contains(uitest.Flat(a.SummaryLines(77)), uitest.Flat("Situation: "+sit)) {
		t.Errorf("at 80x24 the situation is not in the summary:\n%s", a.SummaryLines(77))
	}
}
