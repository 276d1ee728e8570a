package grade

import (
	"unicode/utf8"
)

// The head of a large response: what Grade reads of a response over
// MaxResponseBytes. Every member stays where it was (so isError after a
// long text is still read, and JSON paths still point at the same
// places), but a long string keeps only its first headString bytes, and
// once the head has grown to headBudget, strings keep headStringLate
// bytes and containers take no further elements.
const (
	headString     = scanHead
	headStringLate = 256
	headBudget     = MaxResponseBytes / 2
	// headElements bounds the elements an array (or the members an object)
	// keeps.
	headElements = 2000
)

// head returns the head of a JSON document (see headString) and whether
// anything was cut. It reads raw once, byte by byte, and never decodes a
// string, so its time is linear in len(raw); what it returns is valid
// JSON whenever raw is. The members of the envelope and of the result
// (the first two levels) are always kept, so isError and
// structuredContent are read however long the content before them.
func head(raw []byte) (out []byte, cut bool) {
	type frame struct {
		n int // elements (or members) after the first
	}
	var stack []frame
	out = make([]byte, 0, min(len(raw), headBudget+headString+1024))
	skipping := 0 // depth within dropped elements; 0 when copying
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if skipping > 0 {
			switch c {
			case '"':
				i = stringEnd(raw, i)
			case '{', '[':
				skipping++
			case '}', ']':
				if skipping--; skipping == 0 {
					i-- // the container that held the dropped elements closes here
				}
			}
			continue
		}
		switch c {
		case '"':
			end := stringEnd(raw, i)
			limit := headString
			if len(out) > headBudget {
				limit = headStringLate
			}
			if end-i-1 > limit {
				out = append(out, raw[i:i+1+safeCut(raw[i+1:end], limit)]...)
				out = append(out, "…\""...)
				cut = true
			} else {
				out = append(out, raw[i:min(end+1, len(raw))]...)
			}
			i = end
		case '{', '[':
			stack = append(stack, frame{})
			out = append(out, c)
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			out = append(out, c)
		case ',':
			if len(stack) > 0 {
				f := &stack[len(stack)-1]
				f.n++
				if f.n >= headElements || (len(stack) > 2 && len(out) > headBudget) {
					cut = true
					skipping = 1 // drop the rest of this container's elements
					continue
				}
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out, cut
}

// stringEnd returns the index of the quote closing the JSON string that
// opens at raw[i], or len(raw)-1 when it does not close.
func stringEnd(raw []byte, i int) int {
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			j++ // an escape: skip the byte it escapes
		case '"':
			return j
		}
	}
	return len(raw) - 1
}

// safeCut is the length of the longest prefix of a string's raw bytes
// (its inside, escapes undecoded) of at most n bytes that ends neither
// inside an escape nor inside a UTF-8 sequence.
func safeCut(s []byte, n int) int {
	if n >= len(s) {
		return len(s)
	}
	// Find the escapes that straddle n: walk back over the backslashes and
	// \uXXXX digits that could belong to one.
	cut := n
	for i := max(0, n-6); i < n; i++ {
		if s[i] != '\\' {
			continue
		}
		// Count the backslashes before i: an odd run means s[i] is escaped.
		run := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			run++
		}
		if run%2 == 1 {
			continue
		}
		width := 2
		if i+1 < len(s) && s[i+1] == 'u' {
			width = 6
		}
		if i+width > n {
			cut = i
			break
		}
		i += width - 1
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return cut
}
