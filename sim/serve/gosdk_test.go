package serve_test

import (
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
