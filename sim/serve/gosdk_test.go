package serve_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/serve"
	"github.com/errorlab/errorlab/sim/serve/servetest"
)

// TestGoSDKGetsWhatTheLabShows: the official go-sdk client, over HTTP and
// over stdio, pinned to each revision, makes every tool call with every
// failure mode; the exchange log's responses equal, byte for byte, what
// the lab's engine answers to the same requests, and the client read the
// same results.
func TestGoSDKGetsWhatTheLabShows(t *testing.T) {
	for _, transport := range []string{serve.TransportHTTP, serve.TransportStdio} {
		for _, rev := range rules.Revisions {
			t.Run(transport+"/"+string(rev), func(t *testing.T) {
				var log lockedBuffer
				cfg := serve.Config{FailureModes: true, ExchangeLog: &log}
				var tr sdk.Transport
				if transport == serve.TransportHTTP {
					url, _ := httpServer(t, cfg)
					tr = &sdk.StreamableClientTransport{Endpoint: url}
				} else {
					tr, _ = stdioServer(t, cfg)
				}
				cs := connect(t, tr, "go-sdk-every-call", string(rev))
				if got := cs.InitializeResult().ProtocolVersion; got != string(rev) {
					t.Fatalf("negotiated %s", got)
				}
				results := servetest.CallAll(t, cs)
				_ = cs.Close()
				lines := servetest.ReadLog(t, log.Bytes())
				sessions := servetest.Sessions(lines)
				if len(sessions) != 1 {
					t.Fatalf("want one session in the log, got %v", sessions)
				}
				n := servetest.CheckAgainstLab(t, lines, sessions[0], mockserver.Options{FailureModes: true, Revision: rules.DefaultRevision})
				if n < len(servetest.Calls()) {
					t.Errorf("only %d responses compared for %d calls", n, len(servetest.Calls()))
				}
				servetest.CheckResults(t, lines, sessions[0], results)
				for _, l := range lines {
					if l.Spec != string(rev) {
						t.Errorf("an exchange logged under %s: %s", l.Spec, l.Request)
						break
					}
				}
			})
		}
	}
}

// TestOlderRevisionsAreAnsweredWithOneServed (finding 7): an initialize
// asking for 2024-11-05 or 2025-03-26, or for nothing, is answered with
// the newest revision the server serves (2025-11-25; 2025-06-18 under
// --spec 2025-06-18), never echoed, and the log records that revision for
// the handshake and the calls after it; server/discover lists only the
// revisions served. Checked with raw frames over stdio and with the
// go-sdk client over HTTP and stdio.
func TestOlderRevisionsAreAnsweredWithOneServed(t *testing.T) {
	for _, c := range []struct {
		asked  string // "" sends initialize without params
		newest rules.Revision
		want   string
	}{
		{"2024-11-05", "", "2025-11-25"},
		{"2025-03-26", "", "2025-11-25"},
		{"", "", "2025-11-25"},
		{"2026-07-28", "", "2025-11-25"},
		{"2024-11-05", rules.Rev20250618, "2025-06-18"},
		{"2025-06-18", "", "2025-06-18"},
	} {
		t.Run("raw/"+c.asked+"/"+string(c.newest), func(t *testing.T) {
			var log lockedBuffer
			srv := serve.New(serve.Config{FailureModes: true, Spec: c.newest, ExchangeLog: &log})
			init := `{"jsonrpc":"2.0","id":1,"method":"initialize"}`
			if c.asked != "" {
				init = strings.Replace(initialize, "%s", c.asked, 1)
			}
			in := init + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-4471"}}}` + "\n" +
				`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{` + modernMeta + `}}` + "\n"
			var out bytes.Buffer
			if err := srv.ServeStdio(context.Background(), strings.NewReader(in), &out); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), `"protocolVersion":"`+c.want+`"`) {
				t.Errorf("initialize asking %q answered:\n%s", c.asked, out.String())
			}
			for _, old := range []string{"2024-11-05", "2025-03-26"} {
				if strings.Contains(out.String(), old) {
					t.Errorf("%s offered or answered:\n%s", old, out.String())
				}
			}
			for _, l := range logLines(t, log.Bytes()) {
				if strings.Contains(string(l.Request), "server/discover") {
					continue // names its own revision in _meta
				}
				if l.Spec != c.want {
					t.Errorf("logged under %s, want %s: %s", l.Spec, c.want, l.Request)
				}
			}
		})
	}
	for _, transport := range []string{serve.TransportHTTP, serve.TransportStdio} {
		for _, asked := range []string{"2024-11-05", "2025-03-26"} {
			t.Run("go-sdk/"+transport+"/"+asked, func(t *testing.T) {
				var log lockedBuffer
				cfg := serve.Config{FailureModes: true, ExchangeLog: &log}
				var tr sdk.Transport
				if transport == serve.TransportHTTP {
					url, _ := httpServer(t, cfg)
					tr = &sdk.StreamableClientTransport{Endpoint: url}
				} else {
					tr, _ = stdioServer(t, cfg)
				}
				cs := connect(t, tr, "go-sdk-old", asked)
				if got := cs.InitializeResult().ProtocolVersion; got != "2025-11-25" {
					t.Errorf("asking %s negotiated %s, want 2025-11-25", asked, got)
				}
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "lookup_order", Arguments: map[string]any{"order_id": "ORD-4471x"}})
				if err != nil || !res.IsError {
					t.Fatalf("a validation failure under 2025-11-25 is an isError result: %v %+v", err, res)
				}
				_ = cs.Close()
				for _, l := range logLines(t, log.Bytes()) {
					if l.Spec != "2025-11-25" {
						t.Errorf("logged under %s: %s", l.Spec, l.Request)
					}
				}
			})
		}
	}
}
