package jsonview

import (
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/errorlab/errorlab/ui/styles"
	"github.com/muesli/termenv"
)

func TestTokenKinds(t *testing.T) {
	d := JSON("{\n  \"id\": 3,\n  \"ok\": true,\n  \"s\": \"x y\"\n}")
	got := map[string]tokKind{}
	for _, line := range d.lines {
		for _, s := range line {
			if strings.TrimSpace(s.text) != "" {
				got[s.text] = s.kind
			}
		}
	}
	want := map[string]tokKind{`"id"`: tokKey, "3": tokNumber, "true": tokConst, `"x y"`: tokString, "{": tokPunct}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: kind %d, want %d", k, got[k], v)
		}
	}
}

// TestHighlightColourAndPlain checks that a colour renderer styles tokens
// and the Ascii one (NO_COLOR) leaves plain text.
func TestHighlightColourAndPlain(t *testing.T) {
	src := `{"isError": true, "n": 1}`
	d := JSON(src)
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	colour := d.Render(80, styles.DefaultStyles(r))
	if !strings.Contains(colour, "\x1b[") {
		t.Errorf("no colour with a 256-colour renderer: %q", colour)
	}
	r.SetColorProfile(termenv.Ascii)
	plain := d.Render(80, styles.DefaultStyles(r))
	if plain != src {
		t.Errorf("Ascii render is %q, want %q", plain, src)
	}
}

func TestWrapKeepsWidthAndText(t *testing.T) {
	long := `{"description": "The order database did not answer within 3 seconds, so lookup_order did not complete.", "code": "UPSTREAM_TIMEOUT_WITH_A_VERY_LONG_NAME_THAT_HAS_NO_SPACES_AT_ALL"}`
	st := styles.DefaultStyles(lipgloss.DefaultRenderer())
	for _, w := range []int{1, 2, 5, 13, 30, 57, 200} {
		out := JSON(long).Render(w, st)
		for _, l := range strings.Split(out, "\n") {
			if ansi.StringWidth(l) > w {
				t.Fatalf("width %d: line %q is wider", w, l)
			}
		}
		if w >= 13 {
			squash := strings.Join(strings.Fields(out), "")
			if squash != strings.Join(strings.Fields(long), "") {
				t.Errorf("width %d: text changed:\n%s", w, out)
			}
		}
	}
}

func TestSanitizeControls(t *testing.T) {
	d := Plain("ok\x1b[31mred\r\nnext\tx")
	out := d.Render(80, styles.DefaultStyles(lipgloss.DefaultRenderer()))
	if strings.Contains(out, "\x1b") || strings.Contains(out, "\r") {
		t.Errorf("control characters leaked: %q", out)
	}
}

// RenderLines keeps the rows of each source line together: one entry per
// line of the text, and joined they are Render's output.
func TestRenderLinesPerSourceLine(t *testing.T) {
	src := "{\n  \"description\": \"a long sentence that has to wrap onto more rows\",\n  \"n\": 1\n}"
	d := JSON(src)
	st := styles.DefaultStyles(lipgloss.NewRenderer(nil))
	lines := d.RenderLines(20, st)
	if len(lines) != 4 {
		t.Fatalf("%d source lines, want 4", len(lines))
	}
	if len(lines[1]) < 2 || len(lines[2]) != 1 {
		t.Errorf("rows per line: %d, %d", len(lines[1]), len(lines[2]))
	}
	var all []string
	for _, rows := range lines {
		all = append(all, rows...)
	}
	if strings.Join(all, "\n") != d.Render(20, st) {
		t.Error("RenderLines joined differs from Render")
	}
	if d.RenderLines(0, st) != nil {
		t.Error("width 0 renders rows")
	}
}

// The JSON lexer written out here tokenises exactly as chroma's registered
// "json" lexer does, on envelopes of every shape the panes show.
func TestLexerMatchesChromas(t *testing.T) {
	want := chroma.Coalesce(lexers.Get("json"))
	samples := []string{
		`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"errorCategory\":\"business\",\"isRetryable\":false}"}],"isError":true,"structuredContent":{"resultCount":0,"ratio":-1.5e-3,"ok":null,"list":[1,2.5,true,false,{"a":[]}]}}}`,
		"{\n  \"jsonrpc\": \"2.0\",\n  \"error\": {\n    \"code\": -32602,\n    \"message\": \"Unknown tool: \\\"x\\\\\"\"\n  }\n}",
		"[1, // a comment\n 2]",
		`{"unterminated": "str`,
		`not json at all {`,
		``,
	}
	for _, s := range samples {
		a, err := want.Tokenise(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		b, err := jsonLexer().Tokenise(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; ; i++ {
			x, y := a(), b()
			if x != y {
				t.Fatalf("%q: token %d is %v here, %v in chroma's", s, i, y, x)
			}
			if x == chroma.EOF {
				break
			}
		}
	}
}

// wordRune is a rune of a word or a key: cutting between two of them
// cuts the word.
func wordRune(r rune) bool {
	return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
}

// TestWrapBreaksBetweenWords: a drill's exhibit (a tool result whose text
// block holds the structured error as JSON, escaped) wraps at spaces and
// between the escaped members at every pane width, never inside a key, a
// value or a word, and never wider than the pane. It used to cut
// "desc|ription" and "Befo|re".
func TestWrapBreaksBetweenWords(t *testing.T) {
	src := `{
  "jsonrpc": "2.0",
  "id": 3,
  "result": {
    "content": [
      {
        "type": "text",
        "text": "{\"errorCategory\":\"business\",\"isRetryable\":false,\"description\":\"Refunds move money, so they need the customer's explicit yes. Ask the customer to confirm the refund of £24.99 on ORD-4519, then call again with confirmedByUser: true.\",\"code\":\"CONFIRMATION_REQUIRED\",\"customerMessage\":\"Before I refund £24.99 for your USB-C cable three-pack, can you confirm you'd like me to go ahead?\",\"requiresUserAction\":true}"
      }
    ],
    "isError": true,
    "structuredContent": {
      "errorCategory": "business",
      "isRetryable": false,
      "correlationIdOfTheIncident": "c0ffee00-1234"
    }
  }
}`
	st := styles.DefaultStyles(lipgloss.NewRenderer(nil))
	d := JSON(src)
	srcLines := strings.Split(src, "\n")
	for w := 40; w <= 100; w++ {
		for n, rows := range d.RenderLines(w, st) {
			line := []rune(srcLines[n])
			p := 0 // where the next row starts in the source line
			for i, r := range rows {
				plain := ansi.Strip(r)
				if ansi.StringWidth(plain) > w {
					t.Fatalf("width %d: row %q is wider", w, plain)
				}
				text := []rune(plain)
				if i > 0 {
					text = []rune(strings.TrimLeft(plain, " "))
					dropped := false
					for p < len(line) && line[p] == ' ' {
						p, dropped = p+1, true
					}
					if !dropped && p > 0 && p < len(line) && wordRune(line[p-1]) && wordRune(line[p]) {
						t.Errorf("width %d: a word is cut between rows:\n%s\n%s", w, ansi.Strip(rows[i-1]), plain)
					}
				}
				if p+len(text) > len(line) || string(line[p:p+len(text)]) != string(text) {
					t.Fatalf("width %d: row %q is not the source's next text (%q)", w, plain, string(line[p:]))
				}
				p += len(text)
			}
			if p != len(line) {
				t.Fatalf("width %d: line %d lost %q", w, n, string(line[p:]))
			}
		}
	}
}

// TestWrapTextBreaksBetweenInlineTokens: prose that quotes JSON inline
// wraps between the JSON's tokens (after a comma, or after a key's colon)
// rather than inside a key or value, keeps prose commas and colons
// (£1,250.00, "yes": fine) whole, and never exceeds the width.
func TestWrapTextBreaksBetweenInlineTokens(t *testing.T) {
	text := `The agent sent {"customer_id":"C-1001","order_id":"ORD-4502","reason":"business_rule","summary":"Refund of £1,250.00 needs approval."} and she said "yes": fine.`
	keep := []string{`"customer_id"`, `"C-1001"`, `"order_id"`, `"ORD-4502"`, `"reason"`, `"business_rule"`, `"summary"`, `£1,250.00`, `"yes":`}
	for w := 16; w <= 90; w++ { // from the widest token, "business_rule",
		rows := WrapText(text, w)
		joined := strings.Join(rows, "\n")
		for _, r := range rows {
			if ansi.StringWidth(r) > w {
				t.Fatalf("width %d: row %q is wider", w, r)
			}
		}
		for _, k := range keep {
			if !strings.Contains(joined, k) {
				t.Errorf("width %d: %s is cut across rows:\n%s", w, k, joined)
			}
		}
		if got := strings.Join(strings.Fields(strings.Join(rows, "")), ""); got != strings.Join(strings.Fields(text), "") {
			t.Errorf("width %d: text lost or changed:\n%s", w, joined)
		}
	}
	if got := WrapText("a  b\tc", 80); len(got) != 1 || got[0] != "a b c" {
		t.Errorf("spaces fold: %q", got)
	}
	if got := WrapText("", 5); len(got) != 1 || got[0] != "" {
		t.Errorf("empty: %q", got)
	}
}
