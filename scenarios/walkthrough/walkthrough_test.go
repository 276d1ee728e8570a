package walkthrough_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/errorlab/errorlab/assets"
	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/quiz/seedcheck"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

var (
	loadOnce sync.Once
	cat      *scenarios.Catalog
	bank     *quiz.Bank
	loadErr  error
)

// content is the built-in catalogue and bank, loaded once for every test.
func content(t *testing.T) (*scenarios.Catalog, *quiz.Bank) {
	t.Helper()
	loadOnce.Do(func() {
		if cat, loadErr = scenarios.Default(); loadErr == nil {
			bank, loadErr = quiz.DefaultBank()
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return cat, bank
}

var (
	embeddedOnce sync.Once
	embeddedSet  *walkthrough.Set
	embeddedErr  error
)

// embedded loads the embedded walkthroughs, once, with every check an
// outside file gets: hostile text, names, and each expect against the
// engine.
func embedded(t *testing.T) *walkthrough.Set {
	t.Helper()
	c, b := content(t)
	embeddedOnce.Do(func() {
		sub, err := fs.Sub(assets.FS, walkthrough.Subdir)
		if err != nil {
			embeddedErr = err
			return
		}
		embeddedSet, embeddedErr = walkthrough.LoadFS(sub, "embedded:walkthroughs", c, b)
	})
	if embeddedErr != nil {
		t.Fatalf("the embedded walkthroughs do not load:\n%v", embeddedErr)
	}
	return embeddedSet
}

// The five walkthroughs of issue 8 load with every check, and Default
// (which leaves the engine to this test) gives the same set.
func TestEmbeddedWalkthroughsLoad(t *testing.T) {
	set := embedded(t)
	want := []string{"four-failures-one-afternoon", "empty-is-not-an-error", "three-false-rows", "recover-locally-report-honestly", "what-changed-between-revisions"}
	if got := set.IDs(); !slices.Equal(got, want) {
		t.Fatalf("embedded walkthroughs are %v, want %v", got, want)
	}
	c, b := content(t)
	def, err := walkthrough.Default(c, b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(def.IDs(), want) {
		t.Errorf("Default gives %v", def.IDs())
	}
	if _, err := walkthrough.Default(nil, nil); err != nil {
		t.Errorf("Default with the built-in catalogue and bank: %v", err)
	}
}

// Each walkthrough is 8 to 16 steps mixing the kinds, with presenter
// notes on most steps, questions to the room from the bank and written
// inline, and a structured claim on every step that shows the engine.
func TestEmbeddedWalkthroughsShape(t *testing.T) {
	inline := 0
	for _, w := range embedded(t).Walkthroughs {
		if n := len(w.Steps); n < 8 || n > 16 {
			t.Errorf("%s has %d steps, want 8 to 16", w.ID, n)
		}
		kinds := map[walkthrough.Kind]int{}
		notes := 0
		for i, st := range w.Steps {
			kinds[st.Kind]++
			if strings.TrimSpace(st.Notes) != "" {
				notes++
			}
			switch st.Kind {
			case walkthrough.KindLiveCall, walkthrough.KindAgents:
				if st.Expect == nil {
					t.Errorf("%s step %d (%s) claims nothing the engine can check: add expect", w.ID, i+1, st.Kind)
				}
			case walkthrough.KindCompare:
				if st.Expect == nil || st.ExpectBad == nil {
					t.Errorf("%s step %d (compare) needs expect and expectBad", w.ID, i+1)
				}
			case walkthrough.KindQuestion:
				if st.Inline != nil {
					inline++
				}
			}
		}
		if len(kinds) < 5 {
			t.Errorf("%s mixes only %d kinds of step: %v", w.ID, len(kinds), kinds)
		}
		for _, k := range []walkthrough.Kind{walkthrough.KindNarration, walkthrough.KindLiveCall, walkthrough.KindQuestion, walkthrough.KindTakeaway} {
			if kinds[k] == 0 {
				t.Errorf("%s has no %s step", w.ID, k)
			}
		}
		if w.Steps[len(w.Steps)-1].Kind != walkthrough.KindTakeaway {
			t.Errorf("%s does not end on a takeaway", w.ID)
		}
		if 2*notes < len(w.Steps) {
			t.Errorf("%s has presenter notes on %d of %d steps; most steps need them", w.ID, notes, len(w.Steps))
		}
		if w.Minutes < 10 || w.Minutes > 45 {
			t.Errorf("%s plans %d minutes", w.ID, w.Minutes)
		}
	}
	if inline < 3 {
		t.Errorf("only %d inline questions across the walkthroughs", inline)
	}
}

// Every claim a step makes about the engine is what the engine does: the
// layer, category and isRetryable of each live call and compare (from
// rules.Classify of the real exchange), the calls of each agent run, the
// coordinator's report.
func TestEmbeddedWalkthroughsAgreeWithEngine(t *testing.T) {
	c, _ := content(t)
	checked := 0
	for _, w := range embedded(t).Walkthroughs {
		for i, st := range w.Steps {
			ds, err := st.Check(context.Background(), c)
			if err != nil {
				t.Errorf("%s step %d: %v", w.ID, i+1, err)
			}
			for _, d := range ds {
				t.Errorf("%s step %d %s: %s", w.ID, i+1, d.Field, d.Msg)
			}
			if st.Expect != nil {
				checked++
			}
		}
	}
	if checked < 25 {
		t.Errorf("only %d steps carry claims", checked)
	}
}

// The five walkthroughs teach what issue 8 asks of them.
func TestEmbeddedWalkthroughsCoverTheirSubjects(t *testing.T) {
	set := embedded(t)
	get := func(id string) *walkthrough.Walkthrough {
		w, ok := set.Get(id)
		if !ok {
			t.Fatalf("no walkthrough %s", id)
		}
		return w
	}
	steps := func(w *walkthrough.Walkthrough, k walkthrough.Kind) []*walkthrough.Step {
		var out []*walkthrough.Step
		for _, st := range w.Steps {
			if st.Kind == k {
				out = append(out, st)
			}
		}
		return out
	}

	// 1: the afternoon's four scenarios live, then the series played.
	afternoon := get("four-failures-one-afternoon")
	var live []string
	for _, st := range steps(afternoon, walkthrough.KindLiveCall) {
		live = append(live, st.Scenario)
	}
	for _, id := range scenarios.Afternoon.IDs {
		if !slices.Contains(live, id) {
			t.Errorf("four failures: %s is not shown live", id)
		}
	}
	if ag := steps(afternoon, walkthrough.KindAgents); len(ag) == 0 || ag[0].Scenario != scenarios.Afternoon.ID {
		t.Errorf("four failures: the series is not played")
	}

	// 2: the mistake in both directions: an access failure shown as an
	// empty success, and an agent that treats a real empty result as a
	// failure.
	empty := get("empty-is-not-an-error")
	dressed, mistaken := false, false
	for _, st := range empty.Steps {
		if st.Kind == walkthrough.KindCompare && st.Bad == mockserver.StyleEmptySuccess && st.Expect.Layer == rules.LayerExecution && st.ExpectBad.Empty {
			dressed = true
		}
		if st.Kind == walkthrough.KindAgents && st.Expect.NaiveCalls > 1 && st.Expect.InformedCalls == 1 {
			s, _ := content(t)
			if sc, ok := s.Get(st.Scenario); ok && sc.TruthAt(st.Revision).Expected.Empty {
				mistaken = true
			}
		}
	}
	if !dressed || !mistaken {
		t.Errorf("empty: failure shown as empty %v, empty treated as failure %v", dressed, mistaken)
	}

	// 3: the three false rows, each live with isRetryable false.
	falseRows := map[rules.Category]bool{}
	for _, st := range steps(get("three-false-rows"), walkthrough.KindLiveCall) {
		if e := st.Expect; e.IsRetryable != nil && !*e.IsRetryable {
			falseRows[e.ErrorCategory] = true
		}
	}
	for _, c := range []rules.Category{rules.Validation, rules.Business, rules.Permission} {
		if !falseRows[c] {
			t.Errorf("three false rows: no live %s call with isRetryable false", c)
		}
	}

	// 4: a subagent that absorbs a blip, and one that reports partial
	// results to its coordinator.
	status := map[string]bool{}
	for _, st := range steps(get("recover-locally-report-honestly"), walkthrough.KindAgents) {
		if st.Coordinator {
			status[st.Expect.Status] = true
		}
	}
	if !status["complete"] || !status["partial"] {
		t.Errorf("propagation: coordinator runs with status %v, want complete and partial", status)
	}

	// 5: one scenario live under each revision.
	revs := map[string]map[rules.Revision]bool{}
	for _, st := range steps(get("what-changed-between-revisions"), walkthrough.KindLiveCall) {
		if revs[st.Scenario] == nil {
			revs[st.Scenario] = map[rules.Revision]bool{}
		}
		revs[st.Scenario][st.Revision] = true
	}
	if len(revs["refund-args-break-schema"]) != len(rules.Revisions) {
		t.Errorf("revisions: refund-args-break-schema is shown under %v, want all three", revs["refund-args-break-schema"])
	}
}

// No sentence of a walkthrough comes from the seed lessons: every
// handout, which holds all the room sees (narration, captions, inline and
// bank questions), and every presenter note.
func TestNoEightWordRunFromTheSeeds(t *testing.T) {
	seeds, err := seedcheck.ReadHashes(filepath.Join("..", "..", "quiz", "seedcheck", "testdata", "seed-shingles.txt"))
	if err != nil || len(seeds) == 0 {
		t.Fatalf("seed fingerprints: %v", err)
	}
	c, b := content(t)
	for _, w := range embedded(t).Walkthroughs {
		var buf bytes.Buffer
		if err := walkthrough.Handout(&buf, w, c, b); err != nil {
			t.Fatal(err)
		}
		texts := map[string]string{"handout": prose(buf.String()), "summary": w.Summary}
		for i, st := range w.Steps {
			texts[fmt.Sprintf("notes of step %d", i+1)] = st.Notes
		}
		for where, text := range texts {
			if runs := seedcheck.Copied(text, seeds); len(runs) > 0 {
				t.Errorf("%s %s shares %d eight-word run(s) with a seed lesson, e.g. %q", w.ID, where, len(runs), runs[0])
			}
		}
	}
}

// prose drops a handout's code blocks: the envelopes are the mock
// server's exact bytes, whose JSON shape (field names, codes) the seeds'
// examples share by necessity; everything else is checked.
func prose(md string) string {
	var out []string
	in := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		if !in {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

func TestGetAndClosest(t *testing.T) {
	set := embedded(t)
	if _, ok := set.Get("empty-is-not-an-error"); !ok {
		t.Error("Get misses a walkthrough")
	}
	if _, ok := set.Get("nope"); ok {
		t.Error("Get finds a walkthrough that does not exist")
	}
	if got := set.Closest("empty-not-error", 1); len(got) != 1 || got[0] != "empty-is-not-an-error" {
		t.Errorf("Closest(empty-not-error) = %v", got)
	}
	if got := set.Closest("revisions", 2); len(got) == 0 || got[0] != "what-changed-between-revisions" {
		t.Errorf("Closest(revisions) = %v", got)
	}
}

// The step API refuses the wrong kind of step with a message.
func TestStepMethodsCheckTheKind(t *testing.T) {
	c, b := content(t)
	n := &walkthrough.Step{Kind: walkthrough.KindNarration, Text: "hello"}
	ctx := context.Background()
	if _, err := n.Exchange(ctx, c); err == nil {
		t.Error("a narration step made a call")
	}
	if _, _, err := n.Pair(ctx, c); err == nil {
		t.Error("a narration step compared")
	}
	if _, err := n.Play(ctx, c); err == nil {
		t.Error("a narration step played agents")
	}
	if _, err := n.Ask(b); err == nil {
		t.Error("a narration step asked a question")
	}
	if h := n.Heading(c); h != "Narration" {
		t.Errorf("heading %q", h)
	}
	q := &walkthrough.Step{Kind: walkthrough.KindQuestion, Question: "no-such-question"}
	if _, err := q.Ask(b); err == nil {
		t.Error("a missing bank question was returned")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
