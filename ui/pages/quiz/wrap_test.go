package quiz_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/quiz"
)

// escapedToken is a key or a value of the JSON a text block holds,
// escaped in the exhibit: \"errorCategory\", \"UPSTREAM_TIMEOUT\".
var escapedToken = regexp.MustCompile(`\\"[^\\" ]+\\"`)

// TestExhibitWrapsBetweenTokens: a drill's response wraps inside its box
// at word and token boundaries at every width, beside the question or
// inside its column: each key and value of the JSON in its text block
// shows whole on one row (at 80 columns one was cut, \"desc|ription\"),
// and no row is wider than the screen.
func TestExhibitWrapsBetweenTokens(t *testing.T) {
	m := openQuiz(t, testPool(t), &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: 1, Seed: 7})
	c := quiz.CommonOf(m.(*ui.App).Top())
	drills, err := testDrills()
	uitest.Must(t, err)
	for _, it := range drills {
		tokens := escapedToken.FindAllString(it.Exhibit, -1)
		if len(tokens) == 0 {
			continue
		}
		for w := 60; w <= 130; w += 2 {
			q := quiz.NewQuestion(c, it, "")
			q.SetSize(w, 90) // tall enough for the whole exhibit
			v := ansi.Strip(q.View())
			for _, l := range strings.Split(v, "\n") {
				if ansi.StringWidth(l) > w {
					t.Fatalf("%s at %d columns: a row is %d wide: %q", it.ID, w, ansi.StringWidth(l), l)
				}
			}
			for _, tok := range tokens {
				if !strings.Contains(v, tok) {
					t.Errorf("%s at %d columns: %s is cut across rows:\n%s", it.ID, w, tok, v)
					break
				}
			}
		}
	}
}
