package walkthrough_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/wire"
)

var update = flag.Bool("update", false, "rewrite the golden handouts in testdata")

func handout(t *testing.T, w *walkthrough.Walkthrough) string {
	t.Helper()
	c, b := content(t)
	var buf bytes.Buffer
	if err := walkthrough.Handout(&buf, w, c, b); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// The handout of "Empty is not an error" is golden
// (go test ./scenarios/walkthrough -update rewrites it).
func TestHandoutGolden(t *testing.T) {
	w, _ := embedded(t).Get("empty-is-not-an-error")
	got := handout(t, w)
	path := filepath.Join("testdata", w.ID+".md")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := readFile(t, path); got != want {
		t.Errorf("the handout differs from %s (run with -update after checking the change):\n%s", path, firstDiff(want, got))
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\nwant " + w + "\ngot  " + g
		}
	}
	return ""
}

// Every handout holds every step, the exact envelopes the lab shows as
// json code blocks, no presenter notes, and the answers only after the
// last question.
func TestHandoutsHoldTheWholeWalkthrough(t *testing.T) {
	c, _ := content(t)
	for _, w := range embedded(t).Walkthroughs {
		md := handout(t, w)
		answers := strings.Index(md, "\n## Answers\n")
		questions := 0
		for i, st := range w.Steps {
			if !strings.Contains(md, "## Step "+strconv.Itoa(i+1)+" · ") {
				t.Errorf("%s: step %d has no heading", w.ID, i+1)
			}
			if n := strings.TrimSpace(st.Notes); n != "" && strings.Contains(md, strings.Join(strings.Fields(n), " ")) {
				t.Errorf("%s: step %d's presenter notes are in the handout", w.ID, i+1)
			}
			switch st.Kind {
			case walkthrough.KindLiveCall:
				ex, err := st.Exchange(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				for _, env := range [][]byte{ex.Request, ex.Response} {
					if !strings.Contains(md, "```json\n"+wire.Pretty(env)+"\n```") {
						t.Errorf("%s: step %d's envelope is not in the handout as the lab shows it", w.ID, i+1)
					}
				}
			case walkthrough.KindCompare:
				bad, good, err := st.Pair(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				for _, env := range [][]byte{bad.Response, good.Response} {
					if !strings.Contains(md, "```json\n"+wire.Pretty(env)+"\n```") {
						t.Errorf("%s: step %d's compared envelope is missing", w.ID, i+1)
					}
				}
			case walkthrough.KindQuestion:
				questions++
				at := strings.Index(md, "**Question "+strconv.Itoa(questions)+".**")
				if at < 0 || answers < 0 || at > answers {
					t.Errorf("%s: question %d is missing or after the answers", w.ID, questions)
				}
				if !strings.Contains(md[answers:], "**Question "+strconv.Itoa(questions)+"** (step "+strconv.Itoa(i+1)+")") {
					t.Errorf("%s: question %d has no answer at the end", w.ID, questions)
				}
			}
		}
		if answers >= 0 && (strings.Contains(md[:answers], "✓") || strings.Contains(md[:answers], "Right.")) {
			t.Errorf("%s: an answer is given next to its question", w.ID)
		}
	}
}

// What the students read (the handout: steps, questions, explanations)
// uses none of the lab's own jargon: "seed" (a source lesson), "the key"
// (the answer key).
func TestHandoutsSpeakToStudents(t *testing.T) {
	for _, w := range embedded(t).Walkthroughs {
		text := strings.ToLower(strings.Join(strings.Fields(handout(t, w)), " "))
		for _, jargon := range []string{"seed", "the key", "exam's key", "source lesson", "answer key"} {
			if i := strings.Index(text, jargon); i >= 0 {
				t.Errorf("%s's handout says %q: …%s…", w.ID, jargon, text[max(i-60, 0):min(i+60, len(text))])
			}
		}
	}
}
