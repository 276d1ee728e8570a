package serve_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/serve"
)

// cardsJSON is every card of a report as JSON, without the times the log
// does not hold (a session's start and end): what a replay must give back.
func cardsJSON(t *testing.T, r serve.Report) string {
	t.Helper()
	var out []string
	for _, c := range r.Sessions {
		c.Started, c.Ended = time.Time{}, time.Time{}
		b, err := json.MarshalIndent(c, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return strings.Join(out, "\n")
}

// TestReplayGivesTheLiveCards: two go-sdk clients (naive, informed) play
// the afternoon over HTTP; the exchange log, read back, gives every card
// the live server gave: each failure, the move, the verdict, the waits,
// the wasted calls. Under a bad style (the truth is in the log) and under
// a scenario (its feedback is quoted) too.
func TestReplayGivesTheLiveCards(t *testing.T) {
	sc := &serve.Scenario{ID: "refund-past-window", Title: "A refund past the window", Tool: "process_refund",
		Feedback: map[rules.Action]string{rules.RetrySame: "Resending a refusal changes nothing.", rules.ExplainAlternative: "Right: explain and offer the goodwill path."}}
	for _, tc := range []struct {
		name string
		cfg  serve.Config
	}{
		{"failure modes", serve.Config{FailureModes: true}},
		{"a bad style", serve.Config{FailureModes: true, Style: mockserver.StyleGeneric}},
		{"a scenario", serve.Config{FailureModes: true, Scenario: sc}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeClock()
			var log lockedBuffer
			cfg := tc.cfg
			cfg.Now, cfg.ExchangeLog = clock.Now, &log
			url, srv := httpServer(t, cfg)
			for _, p := range []struct {
				name  string
				agent func(*testing.T, *sdk.ClientSession, *fakeClock)
			}{{"naive-agent", naive}, {"informed-agent", informed}} {
				cs := connect(t, &sdk.StreamableClientTransport{Endpoint: url}, p.name, "2025-11-25")
				p.agent(t, cs, clock)
				if err := cs.Close(); err != nil {
					t.Fatal(err)
				}
			}
			live := srv.Finish()
			rp, err := serve.ReadLog(bytes.NewReader(log.Bytes()), "afternoon.jsonl", serve.ReplayOptions{
				Scenario: func(id string) *serve.Scenario {
					if id == sc.ID {
						return sc
					}
					return nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			replayed := rp.Report()
			if len(live.Sessions) != 2 || live.Sessions[0].Wasted == 0 {
				t.Fatalf("the live report is not the afternoon: %+v", live.Sessions)
			}
			if got, want := cardsJSON(t, replayed), cardsJSON(t, live); got != want {
				t.Errorf("the replayed cards differ from the live ones:\n--- replay\n%s\n--- live\n%s", got, want)
			}
			if rp.Replayed() != "afternoon.jsonl" || !strings.Contains(replayed.Serving, "a replay of afternoon.jsonl") || replayed.Style != live.Style {
				t.Errorf("the replay says it serves %q in style %s", replayed.Serving, replayed.Style)
			}
			if tc.cfg.Scenario != nil && !strings.Contains(cardsJSON(t, replayed), "Resending a refusal changes nothing.") {
				t.Error("the replayed card does not quote the scenario's feedback")
			}
		})
	}
}

// TestReplayShowsTheExchanges: a replay keeps the sessions in the log's
// order, each with its exchanges (seq, request, response, what they were
// read as), and reads a log written before seq and sent were logged.
func TestReplayShowsTheExchanges(t *testing.T) {
	lines := []string{
		`{"time":"2026-11-02T09:00:00Z","session":"a","spec":"2025-11-25","transport":"stdio","request":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"old-client","version":"3"}}},"response":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}}`,
		`{"time":"2026-11-02T09:00:01Z","session":"b","spec":"2025-06-18","transport":"http","request":"not json at all","response":{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}}`,
		`{"time":"2026-11-02T09:00:02Z","session":"a","spec":"2025-11-25","transport":"stdio","request":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-4471x"}}},"response":{"jsonrpc":"2.0","id":2,"result":{"isError":true,"content":[{"type":"text","text":"bad id"}],"structuredContent":{"errorCategory":"validation","isRetryable":false}}}}`,
		``,
		`{"time":"2026-11-02T09:00:03Z","session":"a","spec":"2025-11-25","transport":"stdio","request":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-4471"}}},"response":{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{}"}],"structuredContent":{"order_id":"ORD-4471"}}}}`,
	}
	rp, err := serve.ReadLog(strings.NewReader(strings.Join(lines, "\n")), "old.jsonl", serve.ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	snap := rp.Snapshot()
	if len(snap.Sessions) != 2 || snap.Sessions[0].Card.Session != "a" || snap.Sessions[1].Card.Session != "b" {
		t.Fatalf("sessions: %+v", snap.Sessions)
	}
	a := snap.Sessions[0]
	if len(a.Exchanges) != 3 || a.Exchanges[1].Seq != 3 || a.Exchanges[1].Tool != "lookup_order" || a.Exchanges[1].Class == nil || a.Exchanges[1].Class.ErrorCategory != rules.Validation {
		t.Errorf("session a's exchanges: %+v", a.Exchanges)
	}
	if a.Card.Client != "old-client 3" || len(a.Card.Entries) != 1 || a.Card.Entries[0].Move != rules.MoveChangeArgs || a.Card.Entries[0].Grade != rules.GradeBest {
		t.Errorf("session a's card: %+v", a.Card)
	}
	if w := a.Card.Entries[0].WaitSeconds; w == nil || *w != 1 {
		t.Errorf("the wait before the corrected call: %v, want 1 s (sent is time when the log has no sent)", w)
	}
	if got := string(snap.Sessions[1].Exchanges[0].Request); got != "not json at all" {
		t.Errorf("a frame that was not JSON comes back as %q", got)
	}
}

// TestReplayRefusesABadLog: each malformed line is named with its file
// and line and what is wrong, every problem is listed (up to 20), and
// nothing of the log is returned.
func TestReplayRefusesABadLog(t *testing.T) {
	good := `{"time":"2026-11-02T09:00:00Z","session":"s","spec":"2025-11-25","transport":"http","request":{"jsonrpc":"2.0","id":1,"method":"ping"},"response":{"jsonrpc":"2.0","id":1,"result":{}}}`
	cases := []struct {
		name, log, want string
	}{
		{"empty", "\n\n", "log.jsonl: it holds no exchange"},
		{"not JSON", good + "\n{\"time\": oops}\n", "log.jsonl:2: not JSON (invalid character 'o'"},
		{"an array", "[" + good + "]", "log.jsonl:1: not a JSON object"},
		{"the check's fixture format", "{\n  \"response\": {}\n}", "log.jsonl:1: not JSON"},
		{"no time", `{"session":"s","request":{},"response":null}`, `log.jsonl:1: no "time"`},
		{"a bad time", `{"time":"yesterday","session":"s","request":{},"response":null}`, `log.jsonl:1: "time" "yesterday" is not an RFC 3339 time`},
		{"no session", `{"time":"2026-11-02T09:00:00Z","request":{},"response":null}`, `log.jsonl:1: no "session"`},
		{"no request", `{"time":"2026-11-02T09:00:00Z","session":"s","response":null}`, `log.jsonl:1: no "request"`},
		{"no response", `{"time":"2026-11-02T09:00:00Z","session":"s","request":{}}`, `log.jsonl:1: no "response" (null for a notification)`},
		{"a session that is a number", `{"time":"2026-11-02T09:00:00Z","session":7,"request":{},"response":null}`, `log.jsonl:1: "session" is number, not a string`},
		{"an unknown spec", `{"time":"2026-11-02T09:00:00Z","session":"s","spec":"2024-01-01","request":{},"response":null}`, `log.jsonl:1: "spec": `},
		{"an unknown style", `{"time":"2026-11-02T09:00:00Z","session":"s","style":"rude","request":{},"response":null}`, `log.jsonl:1: "style": unknown response style "rude"`},
		{"an unknown transport", `{"time":"2026-11-02T09:00:00Z","session":"s","transport":"pigeon","request":{},"response":null}`, `log.jsonl:1: "transport" "pigeon": want http or stdio`},
		{"a line too long", good + "\n" + `{"time":"` + strings.Repeat("x", serve.MaxLogLine) + `"}` + "\n" + good, "log.jsonl:2: the line is longer than 8 MiB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := serve.ReadLog(strings.NewReader(tc.log), "log.jsonl", serve.ReplayOptions{})
			var le *serve.LogError
			if srv != nil || !errors.As(err, &le) {
				t.Fatalf("ReadLog returned %v, %v", srv, err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "errorlab serve --log") {
				t.Errorf("the error lacks %q or what to do:\n%v", tc.want, err)
			}
		})
	}
	t.Run("every problem, then a stop", func(t *testing.T) {
		var b strings.Builder
		for i := range 30 {
			if i == 3 {
				b.WriteString(good + "\n")
				continue
			}
			b.WriteString("{\"session\":\"s\"}\n")
		}
		_, err := serve.ReadLog(strings.NewReader(b.String()), "many.jsonl", serve.ReplayOptions{})
		var le *serve.LogError
		if !errors.As(err, &le) || len(le.Problems) != 20 || !le.Stopped || !strings.HasPrefix(le.Problems[3], "many.jsonl:5:") {
			t.Fatalf("%v", err)
		}
		if !strings.Contains(err.Error(), "reading stopped after 20 problems") {
			t.Errorf("%v", err)
		}
	})
}

// TestReplayOfALongSessionKeepsItsMemory: a session of 3×MaxKept calls
// keeps its last MaxKept exchanges (as a live server does), while its card
// keeps every failure.
func TestReplayOfALongSessionKeepsItsMemory(t *testing.T) {
	var b bytes.Buffer
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	n := 3 * serve.MaxKept
	for i := 1; i <= n; i++ {
		mode := ""
		if i%100 == 0 {
			mode = `,"failure_mode":"business"`
		}
		fmt.Fprintf(&b, `{"time":%q,"session":"long","spec":"2025-11-25","transport":"http","seq":%d,"request":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-%d"%s}}},"response":%s}`+"\n",
			at.Add(time.Duration(i)*time.Second).Format(time.RFC3339Nano), i, i, i, mode, lookupResponse(i, mode != ""))
	}
	rp, err := serve.ReadLog(&b, "long.jsonl", serve.ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := rp.Snapshot().Sessions[0]
	if len(s.Exchanges) != serve.MaxKept || s.Exchanges[len(s.Exchanges)-1].Seq != n {
		t.Errorf("kept %d exchanges, the last #%d", len(s.Exchanges), s.Exchanges[len(s.Exchanges)-1].Seq)
	}
	if s.Card.Calls != n || len(s.Card.Entries) != n/100 || s.Card.Exchanges != n {
		t.Errorf("card: %d calls, %d failures, %d exchanges", s.Card.Calls, len(s.Card.Entries), s.Card.Exchanges)
	}
}

func lookupResponse(id int, refused bool) string {
	if refused {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"isError":true,"content":[{"type":"text","text":"refused"}],"structuredContent":{"errorCategory":"business","isRetryable":false}}}`, id)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"ok"}],"structuredContent":{"status":"shipped"}}}`, id)
}

// BenchmarkReadLog reads a log of 64 sessions × 1,000 tools/call (one in
// ten refused): exchanges/s, and the heap the replay keeps.
//
//	go test -run '^$' -bench ReadLog -benchmem ./sim/serve
func BenchmarkReadLog(b *testing.B) {
	var log bytes.Buffer
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	seq := 0
	for call := range 1000 {
		for s := range 64 {
			seq++
			mode := ""
			if call%10 == 9 {
				mode = `,"failure_mode":"business"`
			}
			fmt.Fprintf(&log, `{"time":%q,"session":"s%02d","spec":"2025-11-25","transport":"http","seq":%d,"request":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-%d"%s}}},"response":%s}`+"\n",
				at.Add(time.Duration(seq)*time.Millisecond).Format(time.RFC3339Nano), s, seq, call, call, mode, lookupResponse(call, mode != ""))
		}
	}
	data := log.Bytes()
	b.SetBytes(int64(len(data)))
	var rp *serve.Server
	for b.Loop() {
		var err error
		if rp, err = serve.ReadLog(bytes.NewReader(data), "bench.jsonl", serve.ReplayOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(seq*b.N)/b.Elapsed().Seconds(), "exchanges/s")
	if n := len(rp.Report().Sessions); n != 64 {
		b.Fatalf("%d sessions", n)
	}
}
