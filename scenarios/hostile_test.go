package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func validScenario(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "assets", "scenarios", "timeout-second-try.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// problemsIn validates a directory holding one file with this content.
func problemsIn(t *testing.T, name, content string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, n, err := ValidateDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 || len(ps) == 0 {
		t.Fatalf("hostile content was accepted (%d scenarios loaded)", n)
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return strings.Join(out, "\n")
}

func TestHostileContentIsRefusedWithAPosition(t *testing.T) {
	good := validScenario(t)
	laughs := "id: lol\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 8; i++ {
		laughs += "a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.Repeat("*a"+string(rune('0'+i-1))+", ", 9) + "*a" + string(rune('0'+i-1)) + "]\n"
	}
	cases := []struct {
		name, content, want string
	}{
		{"escape sequence in a title", strings.Replace(good, "title: ", "title: Evil \x1b[2J\x1b]0;PWNED\x07 ", 1), "a.yaml:2:"},
		{"bell in a raw request", strings.Replace(good, "  tool: lookup_order\n  arguments:\n    order_id: ORD-4471\n", "  raw: '{\"jsonrpc\":\"2.0\"\x07}'\n", 1), "control character U+0007"},
		{"invalid UTF-8", strings.Replace(good, "Dana", "D\xffana", 1), "invalid UTF-8 byte 0xff"},
		{"billion laughs", laughs, "anchors, aliases and merge keys are not allowed"},
		{"wrong type", strings.Replace(good, "bestAction: retry_same", "bestAction: [retry_same]", 1), "bestAction has the wrong type: expected text, found a list"},
		{"nonsense section", strings.Replace(good, `section: "§2"`, `section: "§99 nonsense"`, 1), "must name LESSON-RULES sections"},
		{"dash id", strings.Replace(good, "id: timeout-second-try", "id: \"-\"", 1), "must start with a letter"},
		{"whitespace raw", strings.Replace(good, "  tool: lookup_order\n  arguments:\n    order_id: ORD-4471\n", "  raw: \"   \"\n", 1), "call needs a tool"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := problemsIn(t, "a.yaml", c.content)
			if !strings.Contains(got, c.want) {
				t.Fatalf("want %q in:\n%s", c.want, got)
			}
			if strings.Contains(got, "interface {}") || strings.Contains(got, "Go struct") {
				t.Fatalf("the message leaks Go internals:\n%s", got)
			}
		})
	}
	t.Run("one-sentence situation", func(t *testing.T) {
		one := strings.Replace(good, "situation: >\n  Dana Whitfield asks where her noise-cancelling headphones are, order\n  ORD-4471. The agent calls lookup_order at the busiest hour of the day and\n  the order database is swamped.\n", "situation: Dana asks where her headphones are.\n", 1)
		if got := problemsIn(t, "a.yaml", one); !strings.Contains(got, "two or three sentences about the customer (found 1)") {
			t.Fatalf("a one-sentence situation: %s", got)
		}
	})
}

func TestOversizedAndSpecialFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("# padding\n", MaxContentFileBytes/10+10)
	if err := os.WriteFile(filepath.Join(dir, "big.yaml"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, n, err := ValidateDir(dir)
	if err != nil || n != 0 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	var all []string
	for _, p := range ps {
		all = append(all, p.String())
	}
	joined := strings.Join(all, "\n")
	for _, want := range []string{"big.yaml: file is", "zero.yaml: not a regular file", "fifo.yaml: not a regular file"} {
		if !strings.Contains(joined, want) {
			t.Errorf("want %q in:\n%s", want, joined)
		}
	}
}

func TestEscapedControlCodesAndDeepNestingAreRefused(t *testing.T) {
	good := validScenario(t)
	for name, c := range map[string]struct{ content, want string }{
		"\\e in a double-quoted title":  {strings.Replace(good, "title: ", `title: "\e[2J pwned" # `, 1), "title holds the character U+001B"},
		"\\x1b and \\a in a title":      {strings.Replace(good, "title: ", `title: "\x1b]0;pwned\a t" # `, 1), "U+001B"},
		"C1 control written as \\u009b": {strings.Replace(good, "title: ", `title: "\u009b31m" # `, 1), "U+009B"},
		"bidi override":                 {strings.Replace(good, "title: ", `title: "\u202e reversed" # `, 1), "U+202E"},
		"brackets nested 20000 deep":    {"id: deep\nx: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n", "nested more than 64 deep"},
		"a stray quote before a bomb":   {"id: deep\ny: a\"b\nx: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n", "nested more than 64 deep"},
	} {
		t.Run(name, func(t *testing.T) {
			got := problemsIn(t, "a.yaml", c.content)
			if !strings.Contains(got, c.want) {
				t.Fatalf("want %q in:\n%s", c.want, got)
			}
		})
	}
}
