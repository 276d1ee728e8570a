package serve_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/serve"
)

// rawHTTP sends one request and returns status, headers and body.
func rawHTTP(t *testing.T, method, url string, headers map[string]string, body string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

const (
	initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	toolsList  = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

// open initializes a session over raw HTTP and returns its id.
func open(t *testing.T, url, rev string) string {
	t.Helper()
	code, h, body := rawHTTP(t, http.MethodPost, url, nil, strings.Replace(initialize, "%s", rev, 1))
	sid := h.Get("Mcp-Session-Id")
	if code != http.StatusOK || sid == "" || !bytes.Contains(body, []byte(`"protocolVersion":"`+rev+`"`)) {
		t.Fatalf("initialize %s: %d, session %q, %s", rev, code, sid, body)
	}
	return sid
}

// TestHTTPSessionsUnderTheHandshakeRevisions: under 2025-06-18 and
// 2025-11-25 initialize mints an Mcp-Session-Id that every later request
// must carry (none: 400; unknown: 404), GET opens the session's SSE
// stream, and DELETE ends the session (then 404).
func TestHTTPSessionsUnderTheHandshakeRevisions(t *testing.T) {
	url, _ := httpServer(t, serve.Config{FailureModes: true})
	for _, rev := range []string{"2025-06-18", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			sid := open(t, url, rev)
			with := map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": rev}
			if code, _, body := rawHTTP(t, http.MethodPost, url, with, toolsList); code != 200 || !bytes.Contains(body, []byte(`"lookup_order"`)) {
				t.Errorf("tools/list in the session: %d %s", code, body)
			}
			if code, _, body := rawHTTP(t, http.MethodPost, url, nil, toolsList); code != 400 || !bytes.Contains(body, []byte("Mcp-Session-Id")) {
				t.Errorf("tools/list with no session id: %d %s", code, body)
			}
			if code, _, _ := rawHTTP(t, http.MethodPost, url, map[string]string{"Mcp-Session-Id": "not-a-session"}, toolsList); code != 404 {
				t.Errorf("tools/list with an unknown session id: %d, want 404", code)
			}
			if code, _, _ := rawHTTP(t, http.MethodGet, url, nil, ""); code != 400 {
				t.Errorf("GET with no session id: %d, want 400", code)
			}
			// The GET stream: headers arrive, then it stays open.
			ctx, cancel := context.WithCancel(context.Background())
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("Mcp-Session-Id", sid)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				t.Errorf("GET stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			cancel()
			resp.Body.Close()
			if code, _, _ := rawHTTP(t, http.MethodDelete, url, with, ""); code != 200 {
				t.Errorf("DELETE: %d", code)
			}
			if code, _, _ := rawHTTP(t, http.MethodPost, url, with, toolsList); code != 404 {
				t.Errorf("tools/list after DELETE: %d, want 404", code)
			}
		})
	}
}

// modern is a 2026-07-28 request's _meta.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw-modern","version":"1"}}`

// TestHTTPStatelessUnder20260728: no session id is minted or needed;
// GET and DELETE are 405; MCP-Protocol-Version, Mcp-Method and Mcp-Name
// are checked against the body (400 when missing or different).
func TestHTTPStatelessUnder20260728(t *testing.T) {
	url, _ := httpServer(t, serve.Config{FailureModes: true})
	discover := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modernMeta + `}}`
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"ORD-4471"},` + modernMeta + `}}`
	hdr := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	code, h, body := rawHTTP(t, http.MethodPost, url, hdr("Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "server/discover"), discover)
	if code != 200 || h.Get("Mcp-Session-Id") != "" || !bytes.Contains(body, []byte(`"supportedVersions"`)) {
		t.Fatalf("server/discover: %d, session %q, %s", code, h.Get("Mcp-Session-Id"), body)
	}
	code, h, body = rawHTTP(t, http.MethodPost, url, hdr("Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "lookup_order"), call)
	if code != 200 || h.Get("Mcp-Session-Id") != "" || !bytes.Contains(body, []byte(`"resultType":"complete"`)) {
		t.Fatalf("tools/call: %d, session %q, %s", code, h.Get("Mcp-Session-Id"), body)
	}
	for _, c := range []struct {
		name    string
		headers map[string]string
		want    string
	}{
		{"Mcp-Name names another tool", hdr("Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "process_refund"), "Mcp-Name"},
		{"no Mcp-Name", hdr("Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call"), "Mcp-Name"},
		{"Mcp-Method differs", hdr("Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list", "Mcp-Name", "lookup_order"), "Mcp-Method"},
		{"no MCP-Protocol-Version", hdr("Mcp-Method", "tools/call", "Mcp-Name", "lookup_order"), "Mcp-Protocol-Version"},
		{"MCP-Protocol-Version differs from _meta", hdr("Mcp-Protocol-Version", "2025-11-25", "Mcp-Method", "tools/call", "Mcp-Name", "lookup_order"), ""},
	} {
		code, _, body := rawHTTP(t, http.MethodPost, url, c.headers, call)
		if code != 400 || !bytes.Contains(body, []byte(`"error"`)) || !bytes.Contains(body, []byte(c.want)) {
			t.Errorf("%s: %d %s", c.name, code, body)
		}
	}
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		code, h, _ := rawHTTP(t, m, url, hdr("Mcp-Protocol-Version", "2026-07-28"), "")
		if code != http.StatusMethodNotAllowed || h.Get("Allow") != "POST" {
			t.Errorf("%s under 2026-07-28: %d, Allow %q", m, code, h.Get("Allow"))
		}
	}
}

// TestDNSRebindingProtection: a Host or Origin that is not this machine
// gets 403; localhost, 127.0.0.0/8 and [::1] are served (as the README
// says).
func TestDNSRebindingProtection(t *testing.T) {
	url, _ := httpServer(t, serve.Config{})
	port := url[strings.LastIndex(url, ":")+1 : strings.Index(url, serve.Path)]
	body := strings.Replace(initialize, "%s", "2025-11-25", 1)
	for _, c := range []struct {
		name    string
		headers map[string]string
		want    int
	}{
		{"evil Host", map[string]string{"Host": "evil.example.com"}, 403},
		{"evil Host and Origin", map[string]string{"Host": "evil.example.com:" + port, "Origin": "http://evil.example.com"}, 403},
		{"evil Origin", map[string]string{"Origin": "http://evil.example.com"}, 403},
		{"Origin null", map[string]string{"Origin": "null"}, 403},
		{"localhost Host and Origin", map[string]string{"Host": "localhost:" + port, "Origin": "http://localhost:" + port}, 200},
		{"[::1] Origin", map[string]string{"Origin": "http://[::1]:" + port}, 200},
		{"127.0.0.1", nil, 200},
		{"127.0.0.2 Host", map[string]string{"Host": "127.0.0.2:" + port}, 200},
		{"a LAN Host", map[string]string{"Host": "192.168.1.5:" + port}, 403},
	} {
		if code, _, b := rawHTTP(t, http.MethodPost, url, c.headers, body); code != c.want {
			t.Errorf("%s: %d, want %d: %s", c.name, code, c.want, b)
		}
	}
}

// TestListenIsLoopbackUnlessAllowed: an address other machines can reach
// is refused unless allowRemote, with a message naming --allow-remote.
func TestListenIsLoopbackUnlessAllowed(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0"} {
		if ln, err := serve.Listen(addr, false); err == nil || !strings.Contains(err.Error(), "--allow-remote") {
			t.Errorf("Listen(%q) = %v", addr, err)
			if ln != nil {
				ln.Close()
			}
		}
	}
	for _, c := range []struct {
		addr   string
		remote bool
	}{{"127.0.0.1:0", false}, {"localhost:0", false}, {"0.0.0.0:0", true}} {
		ln, err := serve.Listen(c.addr, c.remote)
		if err != nil {
			t.Errorf("Listen(%q, %v): %v", c.addr, c.remote, err)
			continue
		}
		ln.Close()
	}
	if _, err := serve.Listen("8765", false); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Errorf("a bare port: %v", err)
	}
}

// malformed are the frames no well-behaved client sends, with the
// JSON-RPC error each must get.
var malformed = []struct {
	name, frame string
	code        int
}{
	{"bad JSON", `{"jsonrpc":"2.0","id":7,"method":"tools/list"`, -32700},
	{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":8,"method":"tools/list"}`, -32600},
	{"unknown method", `{"jsonrpc":"2.0","id":9,"method":"tools/execute"}`, -32601},
	{"a batch", `[{"jsonrpc":"2.0","id":10,"method":"tools/list"},{"jsonrpc":"2.0","id":11,"method":"ping"}]`, -32600},
	{"over 1 MiB", `{"jsonrpc":"2.0","id":12,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", mockserver.MaxMessageBytes) + `"}}`, -32600},
}

func errorCodeOf(t *testing.T, b []byte) int {
	t.Helper()
	var m struct {
		Error *struct{ Code int } `json:"error"`
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Error == nil {
		t.Fatalf("not a JSON-RPC error: %s", b)
	}
	return m.Error.Code
}

// TestMalformedFramesOverHTTP: each malformed frame gets its JSON-RPC
// error, the session goes on serving, and the log keeps each exchange.
func TestMalformedFramesOverHTTP(t *testing.T) {
	var log lockedBuffer
	url, _ := httpServer(t, serve.Config{ExchangeLog: &log})
	sid := open(t, url, "2025-11-25")
	with := map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"}
	for _, m := range malformed {
		code, _, body := rawHTTP(t, http.MethodPost, url, with, m.frame)
		// The engine's front answers bad JSON, a batch and an oversize body
		// with HTTP 4xx; mcp-go answers the rest inside a 200.
		fromFront := m.name == "bad JSON" || m.name == "a batch" || m.name == "over 1 MiB"
		if got := errorCodeOf(t, body); got != m.code || (fromFront && code < 400) || (!fromFront && code != 200) {
			t.Errorf("%s: HTTP %d, JSON-RPC %d, want %d: %s", m.name, code, got, m.code, body)
		}
		if code, _, body := rawHTTP(t, http.MethodPost, url, with, toolsList); code != 200 || !bytes.Contains(body, []byte("lookup_order")) {
			t.Fatalf("after %s the session stopped serving: %d %s", m.name, code, body)
		}
	}
	lines := logLines(t, log.Bytes())
	if len(lines) != 1+2*len(malformed) {
		t.Errorf("%d log lines, want %d", len(lines), 1+2*len(malformed))
	}
	for _, l := range lines {
		if l.Session != sid || len(l.Response) == 0 {
			t.Errorf("log line of another session or without a response: %+v", l)
		}
	}
}

// TestMalformedFramesOverStdio: the same frames over stdio, each answered
// in turn (the oversize one never read into memory), and serving goes on.
func TestMalformedFramesOverStdio(t *testing.T) {
	var log lockedBuffer
	s := serve.New(serve.Config{ExchangeLog: &log})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	replies := bufio.NewReader(outR)
	next := func() []byte {
		t.Helper()
		line, err := replies.ReadBytes('\n')
		if err != nil {
			t.Fatalf("no reply: %v", err)
		}
		return line
	}
	io.WriteString(inW, strings.Replace(initialize, "%s", "2025-11-25", 1)+"\n")
	next()
	for _, m := range malformed {
		io.WriteString(inW, m.frame+"\n")
		if got := errorCodeOf(t, next()); got != m.code {
			t.Errorf("%s: %d, want %d", m.name, got, m.code)
		}
		io.WriteString(inW, toolsList+"\n")
		if r := next(); !bytes.Contains(r, []byte("lookup_order")) {
			t.Fatalf("after %s: %s", m.name, r)
		}
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("ServeStdio did not return at the end of its input")
	}
	lines := logLines(t, log.Bytes())
	if len(lines) != 1+2*len(malformed) {
		t.Fatalf("%d log lines, want %d", len(lines), 1+2*len(malformed))
	}
	for i, m := range malformed {
		l := lines[1+2*i]
		req := string(l.Request)
		if m.name == "over 1 MiB" {
			note := fmt.Sprintf(`… [cut: the frame was %d bytes, over the 1048576-byte (1 MiB) limit; its first 256 bytes are kept]"`, len(m.frame))
			if len(req) > 500 || !strings.HasSuffix(req, note) {
				t.Errorf("the oversize frame is logged as %d bytes, want its first 256 and %s: %s", len(req), note, req)
			}
		} else if !strings.Contains(req, m.frame[:20]) && !strings.Contains(req, `\"jsonrpc\"`) {
			t.Errorf("%s logged with request %s", m.name, req)
		}
		if errorCodeOf(t, l.Response) != m.code {
			t.Errorf("%s logged with response %s", m.name, l.Response)
		}
	}
}

// TestHTTPRefusalsAreLogged: every request the HTTP transport refuses
// before a session takes it (no or unknown Mcp-Session-Id, Host or
// Origin of another machine, a method or path MCP does not serve, a body
// mcp-go will not read, a body over 1 MiB) is in the exchange log as it
// came, with session "", its status and the body answered; a replay of
// the log skips them and `errorlab check` reads it.
func TestHTTPRefusalsAreLogged(t *testing.T) {
	log := &lockedBuffer{}
	url, _ := httpServer(t, serve.Config{FailureModes: true, ExchangeLog: log})
	sid := open(t, url, "2025-11-25")
	big := `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}`
	cases := []struct {
		name, method string
		headers      map[string]string
		body         string
		status       int
		answered     string // in response (JSON-RPC) or httpBody (text)
	}{
		{"no session id", http.MethodPost, nil, toolsList, 400, "no Mcp-Session-Id header"},
		{"unknown session", http.MethodPost, map[string]string{"Mcp-Session-Id": "not-a-session"}, toolsList, 404, "Session not found"},
		{"another Host", http.MethodPost, map[string]string{"Host": "attacker.example:80"}, toolsList, 403, `the Host header "attacker.example:80"`},
		{"another Origin", http.MethodPost, map[string]string{"Origin": "http://attacker.example"}, toolsList, 403, "the Origin header"},
		{"PUT", http.MethodPut, nil, toolsList, 405, "Method Not Allowed"},
		{"GET without a session", http.MethodGet, nil, "", 400, "GET and DELETE act on the session"},
		{"GET under 2026-07-28", http.MethodGet, map[string]string{"MCP-Protocol-Version": "2026-07-28"}, "", 405, ""},
		{"another path", http.MethodPost, nil, toolsList, 404, "MCP is served at /mcp"},
		{"text/plain initialize", http.MethodPost, map[string]string{"Content-Type": "text/plain"}, strings.Replace(initialize, "%s", "2025-11-25", 1), 400, "Invalid content type"},
		{"over 1 MiB", http.MethodPost, map[string]string{"Mcp-Session-Id": "nobody"}, big, 413, ""},
	}
	for _, c := range cases {
		u := url
		if c.name == "another path" {
			u = strings.TrimSuffix(url, serve.Path) + "/favicon.ico"
		}
		code, _, body := rawHTTP(t, c.method, u, c.headers, c.body)
		if code != c.status {
			t.Errorf("%s: HTTP %d, want %d: %s", c.name, code, c.status, body)
		}
	}
	lines := logLines(t, log.Bytes())
	var refused []logLine
	for _, l := range lines {
		if l.Session == "" {
			refused = append(refused, l)
		}
	}
	if len(refused) != len(cases) {
		t.Fatalf("%d refusals in the log, want %d:\n%s", len(refused), len(cases), log.Bytes())
	}
	for i, c := range cases {
		l := refused[i]
		if l.HTTPStatus != c.status || l.Transport != "http" {
			t.Errorf("%s: logged with status %d over %q, want %d over http", c.name, l.HTTPStatus, l.Transport, c.status)
		}
		if want := map[bool]string{true: c.method, false: ""}[c.method != http.MethodPost]; l.HTTPMethod != want {
			t.Errorf("%s: logged with httpMethod %q, want %q", c.name, l.HTTPMethod, want)
		}
		answered := string(l.Response) + l.HTTPBody
		if !strings.Contains(answered, c.answered) || answered == "null" {
			t.Errorf("%s: logged answer %s / %q, want it to say %q", c.name, l.Response, l.HTTPBody, c.answered)
		}
		switch {
		case c.body == "":
			if string(l.Request) != "null" {
				t.Errorf("%s: a request without a body logged as %s", c.name, l.Request)
			}
		case c.name == "over 1 MiB":
			if !strings.Contains(string(l.Request), "[cut: the frame was") || len(l.Request) > 600 {
				t.Errorf("%s: logged as %.300s", c.name, l.Request)
			}
		case !bytes.Contains(l.Request, []byte(`"jsonrpc"`)):
			t.Errorf("%s: the request is not logged as received: %s", c.name, l.Request)
		}
	}
	replayed, err := serve.ReadLog(bytes.NewReader(log.Bytes()), "refusals.jsonl", serve.ReplayOptions{})
	if err != nil {
		t.Fatalf("the log does not replay: %v", err)
	}
	if n := len(replayed.Report().Sessions); n != 1 {
		t.Errorf("the replay has %d sessions, want the one that initialized", n)
	}
	if sessions := replayed.Snapshot().Sessions; len(sessions) == 0 || sessions[0].Card.Session != sid {
		t.Errorf("the replay's session is not %s", sid)
	}
}
