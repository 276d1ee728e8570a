package grade

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// worstCases are inputs built to be slow to grade: responses of about
// size bytes made of what its patterns look for, nested as deep as the
// reader allows, with a schema to check against. `go test -bench
// GradeWorstCase` reports the time of each at the largest size graded
// whole (MaxResponseBytes) and at the largest graded by its head
// (MaxGradedBytes); the target is under 100 ms.
func worstCases(size int) map[string]Input {
	text := func(unit string) []byte {
		escaped, _ := json.Marshal(unit)
		s := strings.Repeat(unit, (size-100)/(len(escaped)-2))
		b, _ := json.Marshal(s)
		return result(`{"content":[{"type":"text","text":` + string(b) + `}],"isError":true}`)
	}
	many := make([]string, 0, size/90)
	for i := 0; len(many) < cap(many); i++ {
		many = append(many, fmt.Sprintf(`{"type":"text","text":"at x.y(Z.java:%d) SELECT a, b FROM t /home/u Bearer"}`, i))
	}
	deep := strings.Repeat(`{"a":`, 127) + `"/srv/x"` + strings.Repeat(`}`, 127)
	wide := `{"items":[` + strings.Repeat(`{"id":"ORD-4471","total":189,"note":"eyJhbGciOiJIUzI1NiJ9"},`, size/72) + `{"id":"x"}]}`
	schema := json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","required":["id","total"],"properties":{"id":{"type":"string","pattern":"^ORD-[0-9]{4}$"},"total":{"type":"number"}}}}}}`)
	tool := Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: schema}
	numbers := `{"items":[` + strings.Repeat(`1,`, size/2-100) + `1]}`
	keys := make([]string, 0, size/32)
	for i := 0; len(keys) < cap(keys); i++ {
		keys = append(keys, fmt.Sprintf(`"k%d":[]`, i))
	}
	manyKeys := "{" + strings.Join(keys, ",") + "}"
	return map[string]Input{
		"a number array against schema": {Request: call("t", `{}`), Tools: []Tool{tool}, Response: result(`{"content":[{"type":"text","text":"x"}],"structuredContent":` + numbers + `}`)},
		"keys by thousands":             {Response: result(`{"content":[{"type":"text","text":` + quoteJSON(manyKeys) + `}],"structuredContent":` + manyKeys + `}`)},
		"stack frames":                  {Response: text("    at com.shop.OrderService.find(OrderService.java:88)\n")},
		"node frames":                   {Response: text("    at lookupOrder (/srv/app/handlers.js:41:13)\n")},
		"near-miss SQL":                 {Response: text("select a, b, c, d, e, f, g from ")},
		"near-miss paths":               {Response: text(" /home/ /srv/ /tmp/ C:\\ ")},
		"near-miss secrets":             {Response: text("Bearer sk- eyJ AKIA ghp_ password ")},
		"near-miss hosts":               {Response: text("10.0.0. 192.168. host.local: db.example.com:")},
		"one letter":                    {Response: text("a")},
		"newlines":                      {Response: text("\n")},
		"blocks by thousands":           {Response: result(`{"content":[` + strings.Join(many, ",") + `],"isError":true}`)},
		"deep structured":               {Response: result(`{"content":[{"type":"text","text":"x"}],"structuredContent":` + deep + `,"isError":true}`)},
		"wide against schema":           {Request: call("t", `{}`), Tools: []Tool{tool}, Response: result(`{"content":[{"type":"text","text":"x"}],"structuredContent":` + wide + `}`)},
	}
}

func BenchmarkGradeWorstCase(b *testing.B) {
	for _, limit := range []int{MaxResponseBytes, MaxGradedBytes} {
		for name, in := range worstCases(limit - 1024) {
			if len(in.Response) > limit || len(in.Response) < limit/2 && name != "deep structured" {
				b.Fatalf("%s: %d bytes, not near the limit of %d", name, len(in.Response), limit)
			}
			b.Run(fmt.Sprintf("%dKiB/%s", limit>>10, name), func(b *testing.B) {
				b.SetBytes(int64(len(in.Response)))
				for b.Loop() {
					Grade(in)
				}
			})
		}
	}
}

func quoteJSON(s string) string { b, _ := json.Marshal(s); return string(b) }
