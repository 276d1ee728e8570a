package markdown

import (
	"regexp"
	"strings"
	"unicode"
)

// NonBreakingHyphen (U+2011) looks like "-" but no wrapping breaks at it.
const NonBreakingHyphen = '\u2011'

// rpcCode matches a JSON-RPC error code such as -32602.
var rpcCode = regexp.MustCompile(`-(32[0-9]{3})\b`)

// keepWords stops lipgloss/table from breaking a cell's words at a
// hyphen, as it otherwise would: the minus of a JSON-RPC code (-32602) and a
// hyphen between two letters or digits (JSON-RPC, ORD-4471x, 2025-06-18)
// become non-breaking hyphens. Addresses (http://, https://, and a link's
// target in "](...)") are left as written. The text is read on screen,
// never copied from it, so the look-alike character is safe.
func keepWords(md string) string {
	if !strings.Contains(md, "-") {
		return md
	}
	rs := []rune(md)
	out := make([]rune, 0, len(rs))
	skip := false // inside an address
	for i, r := range rs {
		switch {
		case unicode.IsSpace(r) || r == '<' || r == '>':
			skip = false
		case r == '(' && i > 0 && rs[i-1] == ']':
			skip = true
		case r == ')':
			skip = false
		case !skip && (r == 'h' || r == 'w') && startsAddress(rs[i:]):
			skip = true
		}
		if r == '-' && !skip && i > 0 && i+1 < len(rs) && wordRune(rs[i-1]) && wordRune(rs[i+1]) {
			r = NonBreakingHyphen
		}
		out = append(out, r)
	}
	return rpcCode.ReplaceAllString(string(out), string(NonBreakingHyphen)+"$1")
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func startsAddress(rs []rune) bool {
	s := string(rs[:min(len(rs), 8)])
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "www.")
}
