package quiz_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
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

// allDrills is every drill the built-in scenarios make.
var allDrills = sync.OnceValues(func() ([]*qz.Item, error) {
	cat, err := scenarios.Default()
	if err != nil {
		return nil, err
	}
	return qz.Drills(context.Background(), cat)
})

// inlineTokens is the keys and values, with no space in them, of every
// JSON object s quotes inline: what must never be cut across rows.
func inlineTokens(s string) []string {
	var out []string
	for i := strings.Index(s, `{"`); i >= 0; {
		dec := json.NewDecoder(strings.NewReader(s[i:]))
		depth := 0
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch v := tok.(type) {
			case json.Delim:
				if v == '{' || v == '[' {
					depth++
				} else {
					depth--
				}
			case string:
				if !strings.ContainsAny(v, " \"\\") {
					out = append(out, `"`+v+`"`)
				}
			case float64:
				out = append(out, strconv.FormatFloat(v, 'f', -1, 64))
			}
			if depth == 0 {
				break
			}
		}
		next := strings.Index(s[i+1:], `{"`)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return out
}

// TestInlineJSONWrapsBetweenTokens: the JSON a drill's stem quotes (the
// call's arguments, {"customer_id":"C-1001","order_id":"ORD-4502",...},
// or a whole request) wraps between its tokens at every width, as the
// response box does: at 80 columns the escalation drill showed
// `"summary` on one row and `":"Refund…` on the next, and at 120 the
// JSON-RPC 1.0 drill split `"lookup_order"`. The same holds for choices
// and their explanations once revealed.
func TestInlineJSONWrapsBetweenTokens(t *testing.T) {
	m := openQuiz(t, testPool(t), &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: 1, Seed: 7})
	c := quiz.CommonOf(m.(*ui.App).Top())
	drills, err := allDrills()
	uitest.Must(t, err)
	checked := 0
	for _, it := range drills {
		texts := []string{it.Stem}
		for _, p := range it.Parts {
			for _, ch := range p.Choices {
				texts = append(texts, ch.Text, ch.Explanation)
			}
		}
		var tokens []string
		for _, s := range texts {
			tokens = append(tokens, inlineTokens(s)...)
		}
		if len(tokens) == 0 {
			continue
		}
		checked++
		for _, w := range []int{40, 60, 80, 100, 120, 130} {
			q := quiz.NewQuestion(c, it, "")
			q.Reveal()
			q.SetSize(w, 200)
			var rows []string
			for _, l := range q.Lines() {
				l = ansi.Strip(l)
				if ansi.StringWidth(l) > w {
					t.Fatalf("%s at %d columns: a row is %d wide: %q", it.ID, w, ansi.StringWidth(l), l)
				}
				rows = append(rows, l)
			}
			text := strings.Join(rows, "\n")
			for _, tok := range tokens {
				if !strings.Contains(text, tok) {
					t.Errorf("%s at %d columns: %s is cut across rows:\n%s", it.ID, w, tok, text)
					break
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no drill quotes inline JSON: the test checks nothing")
	}
}
