package check

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRead reads any input the way `errorlab check FILE` does: it must
// not panic, bad input must be an InputError naming each problem, and
// what it reads must grade and write in every format as valid UTF-8. The
// seeds are the public fixtures and the shapes of TestReadForms; the
// corpus is in testdata/fuzz.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "*.json"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}` + "\n" + `{"time":"t","session":"s","spec":"2025-06-18","request":{"jsonrpc":"2.0","id":1,"method":"tools/list"},"response":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"x","outputSchema":null}]}}}`))
	f.Add([]byte(`[{"request":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}","response":"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"boom\"}}"}]`))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"\xff\"}]}}"))
	f.Add([]byte(strings.Repeat("[", 200) + strings.Repeat("]", 200)))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := Parse(data, "fuzz", "")
		if err != nil {
			if _, ok := err.(*InputError); !ok {
				t.Fatalf("not an InputError: %v", err)
			}
			if !utf8.ValidString(err.Error()) && utf8.Valid(data) {
				t.Fatalf("the error is not UTF-8: %q", err)
			}
			return
		}
		results := GradeAll(items)
		for name, write := range writers {
			var b bytes.Buffer
			if err := write(&b, results, Run{Version: "fuzz"}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !utf8.Valid(b.Bytes()) {
				t.Fatalf("%s output is not UTF-8", name)
			}
		}
	})
}
