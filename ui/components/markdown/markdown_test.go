package markdown

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/errorlab/errorlab/scenarios"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// renderer is a session's renderer with a fixed profile and background.
func renderer(p termenv.Profile, dark bool) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	r.SetHasDarkBackground(dark)
	return r
}

// profile is a named session renderer.
type profile struct {
	name string
	r    *lipgloss.Renderer
}

// profiles are NO_COLOR's and a dark true-colour terminal's renderers.
func profiles() []profile {
	return []profile{{"ascii", renderer(termenv.Ascii, true)}, {"truecolor", renderer(termenv.TrueColor, true)}}
}

// reference is the embedded Reference as sections.
func reference(t testing.TB) []Section {
	t.Helper()
	ref, err := scenarios.DefaultReference()
	if err != nil {
		t.Fatal(err)
	}
	var out []Section
	for _, s := range ref.Sections {
		out = append(out, Section{Name: s.Name(), Markdown: s.Markdown})
	}
	return out
}

// No line of the Reference is wider than the width, at widths from 60 to 300
// columns, under the Ascii profile and in colour; every table is drawn
// with a right border at exactly the width; each section starts where
// Starts says.
func TestEveryWidthFits(t *testing.T) {
	t.Parallel()
	secs := reference(t)
	for _, p := range profiles() {
		m := New(p.r, DefaultStyles(p.r), secs...)
		// Every width is the ui package's TestReferenceTablesFitEveryWidth;
		// here a spread of them, in both profiles.
		step := 3
		if p.name == "truecolor" {
			step = 11
		}
		for w := 60; w <= 300; w += step {
			d, err := m.Render(w)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(d.Text, "\n")
			tables := 0
			for i, l := range lines {
				plain := ansi.Strip(l)
				if lw := ansi.StringWidth(l); lw > w {
					t.Fatalf("%s, width %d: line %d is %d wide: %q", p.name, w, i, lw, plain)
				}
				if strings.HasPrefix(plain, "╭") {
					tables++
				}
				if strings.HasPrefix(plain, "│") && (ansi.StringWidth(plain) != w || !strings.HasSuffix(plain, "│")) {
					t.Fatalf("%s, width %d: table line %d is not %d wide with its border: %q", p.name, w, i, w, plain)
				}
			}
			if tables != 9 {
				t.Fatalf("%s, width %d: %d tables, want 9", p.name, w, tables)
			}
			if len(d.Starts) != len(secs) || len(d.Names) != len(secs) {
				t.Fatalf("starts %v, names %v", d.Starts, d.Names)
			}
			for i, at := range d.Starts {
				title := strings.TrimPrefix(secs[i].Name, "§"+secs[i].Name[len("§"):len("§")+1]+" ")
				if !strings.Contains(ansi.Strip(lines[at]), title) {
					t.Fatalf("%s, width %d: section %d starts at line %d, which is %q", p.name, w, i+1, at, ansi.Strip(lines[at]))
				}
			}
		}
	}
}

// Under the Ascii profile (NO_COLOR) nothing is styled and the Markdown
// marks stay visible; in colour the same document is styled, and the
// light and dark backgrounds differ. Only the renderer handed in counts:
// lipgloss's own default renderer says otherwise each time.
func TestProfileComesFromTheRenderer(t *testing.T) {
	md := "# §1 Title\n\nSome **bold** words and a list:\n\n- one\n- two\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n"
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	ascii := renderer(termenv.Ascii, true)
	plain, err := Render(ascii, DefaultStyles(ascii), md, 60)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain, "\x1b") {
		t.Errorf("an Ascii renderer's output holds escape codes:\n%q", plain)
	}
	for _, want := range []string{"# §1 Title", "**bold**", "• one", "│ a"} {
		if !strings.Contains(plain, want) {
			t.Errorf("ascii output lacks %q:\n%s", want, plain)
		}
	}

	lipgloss.SetColorProfile(termenv.Ascii)
	dark, light := renderer(termenv.TrueColor, true), renderer(termenv.TrueColor, false)
	d, _ := Render(dark, DefaultStyles(dark), md, 60)
	l, _ := Render(light, DefaultStyles(light), md, 60)
	if !strings.Contains(d, "\x1b[") || !strings.Contains(l, "\x1b[") {
		t.Fatal("a TrueColor renderer's output is plain")
	}
	if d == l {
		t.Error("dark and light backgrounds render alike")
	}
	if ansi.Strip(d) == plain {
		t.Error("colour output is laid out as the ascii style")
	}
}

// JSON-RPC codes and hyphenated words never break at their hyphen, at any
// width: prose wraps only at spaces, and table cells (which lipgloss wraps
// at hyphens) get non-breaking ones; addresses keep their hyphens.
func TestCodesAndHyphensStayWhole(t *testing.T) {
	t.Parallel()
	m := New(renderer(termenv.Ascii, true), DefaultStyles(nil), reference(t)...)
	for w := 20; w <= 160; w += 3 {
		d, err := m.Render(w)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(d.Text, "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " │"), "‑") || strings.HasSuffix(strings.TrimRight(l, " │"), "-") {
				t.Fatalf("width %d, line %d ends at a hyphen: %q", w, i, l)
			}
		}
	}
	d, _ := m.Render(80)
	for _, code := range []string{"32700", "32600", "32601", "32602", "32603"} {
		if !strings.Contains(d.Text, "‑"+code) {
			t.Errorf("the Reference's §1 table lacks ‑%s", code)
		}
		if !strings.Contains(d.Text, " -"+code) && code == "32603" {
			t.Errorf("the Reference's prose lacks -%s with its own minus", code)
		}
	}
	for _, in := range []string{
		"see https://modelcontextprotocol.io/spec-2025 now",
		"a [link](https://example.com/a-b) here",
		"<https://x-y.example>",
	} {
		if got := keepWords(in); !strings.Contains(got, "-") || strings.Count(got, "-") != strings.Count(in, "-") {
			t.Errorf("keepWords(%q) = %q: an address lost its hyphen", in, got)
		}
	}
	if got := keepWords("JSON-RPC and -32602, not - alone"); got != "JSON‑RPC and ‑32602, not - alone" {
		t.Errorf("keepWords = %q", got)
	}
}

// A header wraps instead of being cut with an ellipsis, a column of single
// words keeps its longest word, and a table whose words cannot sit side by
// side becomes one column of "header: text" lines, so no word is cut.
func TestTablesKeepWordsWhole(t *testing.T) {
	r := renderer(termenv.Ascii, true)
	md := "| errorCategory | a rather long header that must wrap | isRetryable |\n| --- | --- | --- |\n| transient | " +
		strings.Repeat("words of prose ", 12) + "| true |\n"
	out, err := Render(r, DefaultStyles(r), md, 60)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "…") || !strings.Contains(out, "isRetryable") || !strings.Contains(out, "errorCategory") {
		t.Errorf("a header was cut:\n%s", out)
	}
	if strings.Count(out, "\n") > 20 || !strings.HasPrefix(out, "╭───") || strings.Count(strings.SplitN(out, "\n", 2)[0], "┬") != 2 {
		t.Errorf("not drawn as three columns:\n%s", out)
	}

	wide := "| structuredContentIsLong | requiresUserActionToo | exampleArgumentsAsWell |\n| --- | --- | --- |\n| retryAfterSecondsLonger | correlationIdentifier | partialResultsAttempted |\n"
	out, err = Render(r, DefaultStyles(r), wide, 60)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"structuredContentIsLong: retryAfterSecondsLonger", "requiresUserActionToo: correlationIdentifier", "exampleArgumentsAsWell: partialResultsAttempted"} {
		if !strings.Contains(out, w) {
			t.Errorf("stacked table lacks %q:\n%s", w, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) != 60 {
			t.Errorf("line %q is not 60 wide", l)
		}
	}
}

// A document renders once per width; asking again is served from the
// cache.
func TestRenderIsCachedByWidth(t *testing.T) {
	r := renderer(termenv.Ascii, true)
	m := New(r, DefaultStyles(r), reference(t)...)
	a, _ := m.Render(100)
	b, _ := m.Render(100)
	c, _ := m.Render(90)
	if m.renders != 2 || a.Text != b.Text || a.Text == c.Text || a.Width != 100 || c.Width != 90 {
		t.Errorf("%d renders for two widths", m.renders)
	}
	if small, _ := m.Render(5); small.Width != MinWidth {
		t.Errorf("width 5 rendered at %d", small.Width)
	}
}

// BenchmarkRenderReference renders all nine sections at 120 columns, as
// the Reference screen does when it opens or the terminal is resized.
func BenchmarkRenderReference(b *testing.B) {
	secs := reference(b)
	for _, p := range profiles() {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := New(p.r, DefaultStyles(p.r), secs...).Render(120); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Backslash escapes read as the character, in prose and in tables.
func TestEscapes(t *testing.T) {
	r := renderer(termenv.Ascii, true)
	out, err := Render(r, DefaultStyles(r), "tool\\_result and \\*stars\\*\n\n| a | b |\n| --- | --- |\n| tool\\_result | a \\| b |\n", 60)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, `\`) || strings.Count(out, "tool_result") != 2 || !strings.Contains(out, "*stars*") || !strings.Contains(out, "a | b") {
		t.Errorf("escapes shown:\n%s", out)
	}
}

// Ragged rows (fewer or more cells than the header) draw as GitHub does:
// missing cells empty, extra cells dropped.
func TestRaggedTable(t *testing.T) {
	r := renderer(termenv.Ascii, true)
	out, err := Render(r, DefaultStyles(r), "| a | b | c |\n| - | - | - |\n| 1 |\n| 1 | 2 | 3 | 4 |\n", 40)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "4") || strings.Count(strings.SplitN(out, "\n", 2)[0], "┬") != 2 {
		t.Errorf("ragged table:\n%s", out)
	}
}

// A list item written over several lines wraps at the width, not where
// the file breaks it; a hard break stays, the next line hung under the
// item's text.
func TestListItemsRewrap(t *testing.T) {
	r := renderer(termenv.Ascii, true)
	md := "- one two\n  three four five six\n- seven  \n  eight\n"
	out, err := Render(r, DefaultStyles(r), md, 60)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "• one two three four five six") || !strings.Contains(out, "• seven\n  eight") {
		t.Errorf("list items:\n%q", out)
	}
}
