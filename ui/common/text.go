package common

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/errorlab/errorlab/sim/mockserver"
)

// StyleLabel is a response style's label ("error as success") for its id
// ("error_as_success"); anything else comes back as it is.
func StyleLabel(id string) string {
	if s, err := mockserver.ParseStyle(id); err == nil && s.Label() != "" {
		return s.Label()
	}
	return id
}

// styleIDs matches the style ids that are not plain words
// (error_as_success, raw_exception, ...) in prose.
var styleIDs = sync.OnceValue(func() *regexp.Regexp {
	var ids []string
	for _, s := range mockserver.Styles {
		if strings.Contains(string(s), "_") {
			ids = append(ids, regexp.QuoteMeta(string(s)))
		}
	}
	return regexp.MustCompile(`\b(` + strings.Join(ids, "|") + `)\b`)
})

// StyleWords writes style ids in prose as their labels: "In the
// error_as_success style" reads "In the error as success style".
func StyleWords(text string) string {
	return styleIDs().ReplaceAllStringFunc(text, StyleLabel)
}

// Verdict words an explanation may open with. Beside a label that
// already gives the verdict ("✓ correct:", "✗ Not the best move:") they
// only repeat it.
var (
	RightWords      = []string{"Right", "Correct", "Yes"}
	WrongWords      = []string{"Wrong twice", "Wrong", "Not quite", "Incorrect", "Not this one", "No"}
	BestWords       = append([]string{"Best"}, RightWords...)
	AcceptableWords = append([]string{"Acceptable"}, RightWords...)
)

// StripVerdict drops one of words from the start of text when it stands
// alone as a sentence or a lead-in ("Right. The…", "Acceptable: the…",
// "Not quite! …"), so "✓ correct: Right. The…" reads "✓ correct: The…".
// A word that runs on into the sentence ("Right, and…", "Wrong for this
// SDK.") stays. After a colon the next word is capitalised when it is a
// plain lower-case word (never an identifier such as isRetryable). Text
// that would be left empty comes back unchanged.
func StripVerdict(text string, words ...string) string {
	t := strings.TrimSpace(text)
	for _, w := range words {
		if len(t) <= len(w) || !strings.EqualFold(t[:len(w)], w) {
			continue
		}
		p := t[len(w)]
		if p != '.' && p != ':' && p != '!' {
			continue
		}
		rest := t[len(w)+1:]
		if rest != "" && rest[0] != ' ' && rest[0] != '\n' {
			continue // "No.5", "Right:now"
		}
		rest = strings.TrimSpace(rest)
		if rest == "" {
			return text
		}
		if p == ':' {
			word, _, _ := strings.Cut(rest, " ")
			if strings.Trim(word, "abcdefghijklmnopqrstuvwxyz,;.") == "" && word[0] >= 'a' && word[0] <= 'z' {
				rest = strings.ToUpper(rest[:1]) + rest[1:]
			}
		}
		return rest
	}
	return text
}

// Brief returns a copy of b with a shorter description for the help bar.
func Brief(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// JoinEnds puts left and right on one line of width w, truncating left
// first and dropping right if there is no room for both.
func JoinEnds(left, right string, w int) string {
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	if rw > 0 && lw+rw+1 > w {
		if w-rw-1 >= 12 {
			left = ansi.Truncate(left, w-rw-1, "…")
			lw = ansi.StringWidth(left)
		} else {
			right, rw = "", 0
		}
	}
	if rw == 0 {
		return ansi.Truncate(left, w, "…")
	}
	return left + strings.Repeat(" ", max(w-lw-rw, 1)) + right
}

// WrapWords wraps plain text at spaces only (a date such as 2025-11-25
// stays whole), cutting a word only when it is wider than the line.
func WrapWords(para string, w int) []string {
	var out []string
	line, lw := "", 0
	for _, word := range strings.Fields(para) {
		ww := ansi.StringWidth(word)
		for ww > w {
			if lw > 0 {
				out = append(out, line)
				line, lw = "", 0
			}
			cut := ansi.Truncate(word, w, "")
			if cut == "" {
				_, size := utf8.DecodeRuneInString(word)
				cut = word[:size]
			}
			out = append(out, cut)
			word = word[len(cut):]
			ww = ansi.StringWidth(word)
		}
		switch {
		case ww == 0:
		case lw == 0:
			line, lw = word, ww
		case lw+1+ww <= w:
			line += " " + word
			lw += 1 + ww
		default:
			out = append(out, line)
			line, lw = word, ww
		}
	}
	if lw > 0 || len(out) == 0 {
		out = append(out, line)
	}
	return out
}

// SideBySideMin is the width from which request and response sit side by
// side; below it they are stacked.
const SideBySideMin = 100

// PackChips joins items with sep, wrapping onto more lines as needed.
func PackChips(items []string, w int, sep string) []string {
	var lines []string
	cur := ""
	for _, it := range items {
		if cur == "" {
			cur = it
			continue
		}
		if ansi.StringWidth(cur)+ansi.StringWidth(sep)+ansi.StringWidth(it) > w {
			lines = append(lines, cur)
			cur = it
			continue
		}
		cur += sep + it
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	return lines
}

// WrapLead wraps "lead text" to w, styling the lead and the text apart.
func WrapLead(leadSt lipgloss.Style, lead, text string, w int, textSt lipgloss.Style) []string {
	lines := strings.Split(ansi.Wrap(lead+" "+text, max(w, 1), ""), "\n")
	for i, l := range lines {
		if i == 0 && strings.HasPrefix(l, lead) {
			lines[i] = leadSt.Render(lead) + textSt.Render(l[len(lead):])
			continue
		}
		lines[i] = textSt.Render(l)
	}
	return lines
}

// JoinColumns puts two blocks of equal height side by side.
func JoinColumns(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var sb strings.Builder
	for i := range max(len(al), len(bl)) {
		if i > 0 {
			sb.WriteByte('\n')
		}
		if i < len(al) {
			sb.WriteString(al[i])
		}
		if i < len(bl) {
			sb.WriteString(bl[i])
		}
	}
	return sb.String()
}

// OneLineText folds line breaks and runs of spaces.
func OneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// Plural is "1 call" or "6 calls".
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// PadRight pads s with spaces to w cells, truncating it if longer.
func PadRight(s string, w int) string {
	if sw := ansi.StringWidth(s); sw > w {
		return ansi.Truncate(s, w, "…")
	} else if sw < w {
		return s + strings.Repeat(" ", w-sw)
	}
	return s
}

// PadLeft right-aligns s in w cells.
func PadLeft(s string, w int) string {
	if sw := ansi.StringWidth(s); sw < w {
		return strings.Repeat(" ", w-sw) + s
	}
	return s
}

// BesideLines puts two columns of lines side by side, the left one
// padded to lw cells, with gap between them.
func BesideLines(left, right []string, lw int, gap string) []string {
	n := max(len(left), len(right))
	out := make([]string, n)
	for i := range n {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = PadRight(l, lw) + gap + r
	}
	return out
}

// WrapLines wraps text to w cells, each line styled with s.
func WrapLines(s lipgloss.Style, text string, w int) []string {
	lines := strings.Split(ansi.Wrap(Sanitize(text), max(w, 1), ""), "\n")
	for i, l := range lines {
		lines[i] = s.Render(l)
	}
	return lines
}

// HangLead wraps "lead text" to w cells like WrapLead, with the
// continuation lines indented by indent cells.
func HangLead(leadSt lipgloss.Style, lead, text string, w int, textSt lipgloss.Style, indent int) []string {
	w = max(w, 1)
	indent = min(indent, w/3)
	pad := strings.Repeat(" ", indent)
	var lines []string
	cur, curW := "", ansi.StringWidth(lead)
	first := true
	flush := func() {
		if first {
			lines = append(lines, ansi.Truncate(leadSt.Render(lead)+textSt.Render(cur), w, "…"))
			first = false
		} else {
			lines = append(lines, ansi.Truncate(pad+textSt.Render(strings.TrimPrefix(cur, " ")), w, "…"))
		}
	}
	for _, word := range strings.Fields(Sanitize(text)) {
		ww := ansi.StringWidth(word)
		if curW+1+ww > w && (cur != "" || !first) {
			flush()
			cur, curW = "", indent-1
		}
		cur += " " + word
		curW += 1 + ww
	}
	flush()
	return lines
}

// Clock is 125 → "2:05".
func Clock(secs int) string {
	secs = max(secs, 0)
	return fmt.Sprintf("%d:%02d", secs/60, secs%60)
}

// Sanitize makes text safe to place in a pane: CRLF becomes LF, tabs
// become four spaces, and other control characters (an escape sequence a
// server smuggled into a message) become U+FFFD, so they cannot move the
// cursor or change colours.
func Sanitize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\t", "    ")
	if !strings.ContainsFunc(s, isBadControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isBadControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

func isBadControl(r rune) bool {
	return r != '\n' && (unicode.IsControl(r) || r == 0x7f)
}

// FitLines cuts or pads lines to exactly h (none when h <= 0), each at
// most w cells.
func FitLines(lines []string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

// ScrollRows fits a list into h lines: head on top, then the window of
// rows that keeps cursorRow in view with margin rows after it. owner
// says, for each row, which item it belongs to; it comes back for each
// line shown (-1 for the head's).
func ScrollRows(head, rows []string, owner []int, cursorRow, h, margin int) ([]string, []int) {
	avail := max(h-len(head), 1)
	start := 0
	if cursorRow+margin > avail {
		start = min(cursorRow+margin-avail, max(len(rows)-avail, 0))
	}
	end := min(start+avail, len(rows))
	at := make([]int, len(head), len(head)+end-start)
	for i := range at {
		at[i] = -1
	}
	return append(head, rows[start:end]...), append(at, owner[start:end]...)
}
