package room

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSafeName(t *testing.T) {
	keep := []string{"ann", "Bo_2", "x.y-z", strings.Repeat("a", 64)}
	for _, n := range keep {
		if got, mapped := SafeName(n); got != n || mapped {
			t.Errorf("SafeName(%q) = %q, %v; want it kept", n, got, mapped)
		}
	}
	hostile := []string{
		"../../x", "..", ".", "", "/etc/passwd", `a\b`, "a..b", ".hidden", "-rf",
		"\x1b[2J\x1b[31mteacher", "ann\r\nFAKE", "\x00", "tab\there", "名前", "\xff\xfe",
		strings.Repeat("a", 65), strings.Repeat("\x1b]52;c;QUFB\x07", 800), strings.Repeat("x", 10<<10),
	}
	seen := map[string]string{}
	for _, n := range hostile {
		got, mapped := SafeName(n)
		if !mapped {
			t.Errorf("SafeName(%q) kept it", Quote(n, 40))
		}
		if !validName(strings.Replace(got, "+", "-", 1)) || strings.Count(got, "+") != 1 || len(got) > 27 {
			t.Errorf("SafeName(%s) = %q: not a safe name", Quote(n, 40), got)
		}
		if !filepath.IsLocal(got) || filepath.Base(got) != got {
			t.Errorf("SafeName(%s) = %q is not one local path element", Quote(n, 40), got)
		}
		if other, dup := seen[got]; dup {
			t.Errorf("%s and %s both map to %q", Quote(n, 20), Quote(other, 20), got)
		}
		seen[got] = n
	}
	if got, _ := SafeName("../../x"); !strings.HasPrefix(got, "x+") {
		t.Errorf("SafeName(../../x) = %q, want x+<hash>", got)
	}
	// A mapped name is never kept as typed: a student cannot take over
	// another's folder by typing its mapped name.
	m, _ := SafeName("ann!")
	if got, mapped := SafeName(m); !mapped || got == m {
		t.Fatalf("the mapped name %q, typed, was kept as %q", m, got)
	}
}

func TestQuote(t *testing.T) {
	q := Quote("\x1b[31mred\x07", 100)
	if strings.ContainsAny(q, "\x1b\x07") || q != `"\x1b[31mred\a"` {
		t.Errorf("Quote = %s", q)
	}
	// Printable Unicode is shown as it is ("Zoë", not "Zo\u00eb"); a cut
	// falls between runes; a bidi override is escaped.
	if q := Quote(strings.Repeat("é", 100), 11); !strings.HasSuffix(q, "…") || q != `"ééééé"…` {
		t.Errorf("Quote cut = %s", q)
	}
	if q := Quote("Zoë", 40); q != `"Zoë"` {
		t.Errorf("Quote(Zoë) = %s", q)
	}
	if q := Quote("a\u202eb", 40); strings.ContainsRune(q, 0x202e) {
		t.Errorf("Quote kept a bidi override: %s", q)
	}
}

// The README's account of user names is what SafeName does: its
// examples map as it says, and the names it says are kept are kept.
func TestReadmeNamesAgree(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Skip("no README beside the module")
	}
	readme := strings.Join(strings.Fields(string(data)), " ")
	for _, raw := range []string{"../../x", ".hidden", "Zoë"} {
		got, mapped := SafeName(raw)
		if !mapped || !strings.Contains(readme, "`"+raw+"` → `"+got+"`") {
			t.Errorf("the README does not say `%s` → `%s`", raw, got)
		}
	}
	if !strings.Contains(readme, "not starting with `.` or `-`") {
		t.Error("the README does not say a leading dot or dash is mapped")
	}
	for _, kept := range []string{"ana", "a.b_c-d", "Bob99"} {
		if got, mapped := SafeName(kept); mapped || got != kept {
			t.Errorf("%q is mapped to %q", kept, got)
		}
	}
	for _, m := range []string{".hidden", "-rf"} {
		if _, mapped := SafeName(m); !mapped {
			t.Errorf("%q is kept", m)
		}
	}
}

// A name the room mapped, read back from its record, stays the name the
// teacher saw: StoredName does not map it a second time, while a name
// no SafeName could have made is still mapped.
func TestStoredNameKeepsMappedNames(t *testing.T) {
	names := []string{
		"ann", "../../x", strings.Repeat("z", 3000), "Zoë\u202eevil", "\x1b[2J\x1b[31mteacher",
		"ann\r\nFAKE", "", "名前", "\xff\xfe", strings.Repeat("\x1b]52;c;QUFB\x07", 800), "-rf", "__x__",
	}
	for _, n := range names {
		safe, _ := SafeName(n)
		if got := StoredName(safe); got != safe {
			t.Errorf("StoredName(SafeName(%s)) = %q, want %q", Quote(n, 30), got, safe)
		}
		if got := StoredName(StoredName(n)); got != safe {
			t.Errorf("StoredName twice on %s = %q, want %q", Quote(n, 30), got, safe)
		}
	}
	for _, bad := range []string{"x+9cdf6", "x+9CDF6A", "+9cdf6a", "-x+9cdf6a", "x.y+9cdf6a", "x+9cdf6a+9cdf6a", strings.Repeat("a", 21) + "+9cdf6a", "x+9cdf6a\x1b"} {
		if got := StoredName(bad); got == bad {
			t.Errorf("StoredName(%s) kept a name SafeName never makes", Quote(bad, 40))
		}
	}
}
