package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui/internal/uitest"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
)

// TestNoticeAfterLabAnswer: the progress file spoiled between two lab
// answers is kept aside by the store on the second; the status line says
// so (⚠) once, not again on the third answer.
func TestNoticeAfterLabAnswer(t *testing.T) {
	dir := t.TempDir()
	store, err := quiz.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := openTimeout(t, Options{Progress: store}, uitest.Press("enter"), uitest.Press("2"))
	if line := uitest.LineWith(m.View(), "progress file"); line != "" {
		t.Fatalf("a notice before anything was spoiled: %q", line)
	}
	uitest.SpoilProgress(t, dir)
	m, _ = uitest.Drive(m, uitest.Press(uitest.RetryKey()))
	if st := m.(*App).c.Status().Text; !strings.Contains(st, filepath.Join(dir, quiz.FileName)+".corrupt-") {
		t.Errorf("the notice does not say where the old file is: %q", st)
	}
	line := uitest.LineWith(m.View(), "progress file ")
	if !strings.HasPrefix(line, "⚠ ") {
		t.Fatalf("no ⚠ notice after the spoiled write:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("2"))
	if line := uitest.LineWith(m.View(), "progress file "); line != "" {
		t.Errorf("the same notice shows again: %q", line)
	}
	// The file kept aside is there.
	aside, _ := filepath.Glob(filepath.Join(dir, quiz.FileName+".corrupt-*"))
	if len(aside) != 1 {
		t.Errorf("kept aside: %v", aside)
	}
}

// TestAgentsFollowTheScenarioRevision: a on a scenario screen under
// 2025-06-18 plays the agents under 2025-06-18 (the schema break is a
// -32602 there), says so in the header and names exports with it; from
// the picker the scenario's own revision plays; r on the agents common.Screen
// plays again under the next revision.
func TestAgentsFollowTheScenarioRevision(t *testing.T) {
	cat := uitest.Catalog(t)
	dir := t.TempDir()
	keys := append(revKeys(t, uitest.ArgsSchemaID, rules.Rev20250618), uitest.Press("a"))
	m, _ := uitest.Drive(New(Options{Catalog: cat, ScenarioID: uitest.ArgsSchemaID, ExportDir: dir}), append([]tea.Msg{uitest.Size120}, keys...)...)
	s := agentsOf(t, m)
	if s.rev != rules.Rev20250618 || !s.loaded {
		t.Fatalf("agents rev %q loaded %v", s.rev, s.loaded)
	}
	if line := uitest.LineWith(m.View(), "r spec"); !strings.Contains(line, "r spec 2025-06-18") {
		t.Errorf("the header does not say spec 2025-06-18: %q", line)
	}
	first := s.runs[sideInformed].Steps[0]
	if first.Exchange == nil || first.Exchange.Revision != rules.Rev20250618 || first.Protocol != -32602 {
		t.Fatalf("the informed agent's call was not made under 2025-06-18: %+v", first)
	}
	m, _ = uitest.Drive(m, uitest.Press("G"), uitest.Press("tab"), uitest.Press("g"), uitest.Press("enter"), uitest.Press("w"))
	files, _ := filepath.Glob(filepath.Join(dir, "*-2025-06-18.json"))
	if len(files) != 1 {
		t.Errorf("export not named with the revision: %v; status %q", files, m.(*App).c.Status().Text)
	}

	// r plays again under the next revision, from t=0.
	m, _ = uitest.Drive(m, uitest.Press("esc"), uitest.Press("r"))
	s = agentsOf(t, m)
	if s.rev != rules.Rev20251125 || !s.loaded || s.sides[0].Shown() != 0 {
		t.Fatalf("r: rev %q loaded %v shown %d", s.rev, s.loaded, s.sides[0].Shown())
	}
	if ex := s.runs[sideInformed].Steps[0]; ex.Exchange.Revision != rules.Rev20251125 || ex.Protocol != 0 {
		t.Errorf("after r the call is not under 2025-11-25: protocol %d", ex.Protocol)
	}
	if line := uitest.LineWith(m.View(), "r spec"); !strings.Contains(line, "r spec 2025-11-25") {
		t.Errorf("header after r: %q", line)
	}

	// From the picker: the scenario's own revision.
	sc, _ := cat.Get(uitest.ArgsSchemaID)
	p := openAgents(t, cat, scenarios.Afternoon.ID, uitest.Size120)
	if got := agentsOf(t, p).rev; got != sc.Revision() {
		t.Errorf("the series plays under %q", got)
	}
	m2, _ := uitest.Drive(New(Options{Catalog: cat}), append(append([]tea.Msg{uitest.Size120}, toAgents(t)...), uitest.Press("/"), uitest.Press("s"), uitest.Press("c"), uitest.Press("h"), uitest.Press("e"), uitest.Press("m"), uitest.Press("a"), uitest.Press("enter"), uitest.Press("enter"))...)
	if s := agentsOf(t, m2); s.id != uitest.ArgsSchemaID || s.rev != sc.Revision() {
		t.Errorf("from the picker: %s under %q, want %s under %s", s.id, s.rev, uitest.ArgsSchemaID, sc.Revision())
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
				for i, tl := range s.sides {
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
				if _, ih := s.summary.Inner(); ih < 2 {
					t.Errorf("%s %dx%d step %d: the summary has %d rows", id, sz.Width, sz.Height, step, ih)
				}
				if s.done() {
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

// TestStyleIDsReadAsLabels: feedback written with a style id reads with
// its label, on the scenario screen and in the agents' titles.
func TestStyleIDsReadAsLabels(t *testing.T) {
	if got := common.StyleWords("In the error_as_success style the flag is missing; raw_exception too. empty_successes stay."); got != "In the error as success style the flag is missing; raw exception too. empty_successes stay." {
		t.Errorf("styleWords: %q", got)
	}
	m := openAt(t, uitest.PermAsSuccessID, uitest.Size120, uitest.Press("enter"), uitest.Press(uitest.KeyOf(rules.RetrySame)))
	v := lowerView(t, m)
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "In the error as success style") {
		t.Errorf("the feedback does not use the label:\n%s", v)
	}
	for _, id := range []string{"error_as_success", "raw_exception", "structured_only", "empty_success", "protocol_error"} {
		if strings.Contains(v, id) {
			t.Errorf("the verdict shows the raw id %s:\n%s", id, v)
		}
	}
	m = openAgents(t, uitest.Catalog(t), uitest.PermAsSuccessID, uitest.Size120, uitest.Press("G"))
	view := m.View()
	if strings.Contains(view, "error_as_success") || !strings.Contains(view, "meets error as success") {
		t.Errorf("the agents screen shows a raw style id:\n%s", view)
	}
}
