package grade

import (
	"encoding/json"
	"strings"
	"testing"
)

// The head of a large response is valid JSON, keeps every member of the
// envelope and the result, and cuts long strings at a safe place (never
// inside an escape or a UTF-8 sequence), whatever sits at the cut.
func TestHeadIsValidJSON(t *testing.T) {
	var cases []string
	for _, unit := range []string{`\u00e9`, `\\`, `\"`, `\n`, "é", "€", "x", `\ud83d\ude00`} {
		for pad := 0; pad < 7; pad++ {
			text := strings.Repeat("a", pad) + strings.Repeat(unit, (headString+64)/len(unit)+1)
			cases = append(cases, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`+text+`"}],"isError":true}}`)
		}
	}
	many := `{"jsonrpc":"2.0","id":1,"result":{"content":[` + strings.Repeat(`{"type":"text","text":"x"},`, headElements*2) + `{"type":"text","text":"y"}],"structuredContent":{"items":[` +
		strings.Repeat(`[1,2,{"a":"b"}],`, headBudget/10) + `[]]},"isError":true}}`
	cases = append(cases, many)
	for i, c := range cases {
		if !json.Valid([]byte(c)) {
			t.Fatalf("case %d is not JSON", i)
		}
		h, cut := head([]byte(c))
		if !cut || !json.Valid(h) {
			t.Fatalf("case %d: cut %v, head not JSON: …%s", i, cut, h[max(0, len(h)-80):])
		}
		var env struct {
			Result struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal(h, &env); err != nil || !env.Result.IsError {
			t.Fatalf("case %d: isError lost in the head: %v", i, err)
		}
		if len(h) > 2*MaxResponseBytes {
			t.Fatalf("case %d: a head of %d bytes", i, len(h))
		}
	}
	if h, cut := head([]byte(`{"a":[1,2,3],"b":"short"}`)); cut || string(h) != `{"a":[1,2,3],"b":"short"}` {
		t.Errorf("a small document changed: %s %v", h, cut)
	}
}
