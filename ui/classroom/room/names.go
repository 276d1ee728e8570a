package room

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxNameBytes is the longest SSH user name kept as it is; a longer one
// is mapped to a safe name (SafeName).
const MaxNameBytes = 64

// SafeName turns an SSH user name, which is untrusted input, into the
// student's name in the room: the name of their folder under the state
// directory and the text the teacher's screen shows. A name of 1 to
// MaxNameBytes bytes made of ASCII letters, digits, '.', '_' and '-',
// not starting with '.' or '-' and holding no "..", is kept as it is
// (mapped false). Anything else (control characters, escape sequences,
// '/', "..", spaces, other scripts, invalid UTF-8, over 64 bytes, empty)
// is mapped: the usable characters kept (other runs become one '-', at
// most 20 bytes), then '+' and six hex digits of the name's SHA-256
// ("../../x" → "x+9cdf6a"). Two different names never share a folder,
// and since a kept name holds no '+', a mapped name is never one a
// student could type to take another's place. The result is always a
// single path element, never "." or "..", at most 27 bytes.
func SafeName(raw string) (name string, mapped bool) {
	if validName(raw) {
		return raw, false
	}
	var b strings.Builder
	dash := false
	for i := 0; i < len(raw) && b.Len() < 20; i++ {
		c := raw[i]
		if nameByte(c) && c != '.' {
			b.WriteByte(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	base := strings.Trim(b.String(), "-_")
	if base == "" {
		base = "student"
	}
	sum := sha256.Sum256([]byte(raw))
	return base + "+" + hex.EncodeToString(sum[:3]), true
}

// StoredName is a student's name read back from a file the room wrote
// (a session record): a name SafeName keeps, or one it made by mapping
// ("x+9cdf6a": 1 to 20 bytes of ASCII letters, digits, '_' and '-', not
// starting or ending with '-' or '_', then '+' and six lowercase hex
// digits), is returned as it is, so a name is the same in the record,
// the report, the exports and the students/ folders; anything else is
// mapped as SafeName maps an SSH user name. Unlike SafeName it is
// idempotent on SafeName's output: StoredName(SafeName(x)) ==
// SafeName(x). It must never be used for a name a student typed: that
// would let a student log in as another's mapped name.
func StoredName(s string) string {
	if validName(s) || mappedName(s) {
		return s
	}
	name, _ := SafeName(s)
	return name
}

// mappedName reports whether s has the shape of a name SafeName mapped:
// base "+" six lowercase hex digits.
func mappedName(s string) bool {
	base, sum, ok := strings.Cut(s, "+")
	if !ok || len(base) == 0 || len(base) > 20 || len(sum) != 6 || strings.Trim(base, "-_") != base {
		return false
	}
	for i := 0; i < len(base); i++ {
		if c := base[i]; !nameByte(c) || c == '.' {
			return false
		}
	}
	for i := 0; i < len(sum); i++ {
		if c := sum[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func validName(s string) bool {
	if s == "" || len(s) > MaxNameBytes || s[0] == '.' || s[0] == '-' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !nameByte(s[i]) {
			return false
		}
	}
	return true
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

// Quote shows untrusted text (an SSH user name) in a message without
// letting it act on a terminal: Go-quoted (strconv.Quote), so printable
// Unicode stays as it is ("Zoë") while a control character, a format
// character such as a bidi override, or invalid UTF-8 becomes an escape
// (\x1b, \u202e); the first limit bytes only, cut between runes, with
// "…" after the closing quote when cut.
func Quote(s string, limit int) string {
	if len(s) <= limit {
		return strconv.Quote(s)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}
