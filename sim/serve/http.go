package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/errorlab/errorlab/sim/mockserver"
)

// Path is where the Streamable HTTP transport serves MCP.
const Path = "/mcp"

// What mcp-go's StreamableHTTPServer does here, and what this file adds
// around it (the closing note of issue 10 repeats it):
//
// mcp-go does: the session id (Mcp-Session-Id) minted on initialize and
// checked on every request, with 404 once a session is deleted; the GET
// stream (SSE) of a session and DELETE; under 2026-07-28 the stateless
// rules (no session id minted or honoured, GET and DELETE answered 405,
// MCP-Protocol-Version required and checked against _meta, Mcp-Method and
// Mcp-Name checked against the body, JSON-RPC errors mapped to HTTP
// statuses); server/discover's version list. (Its Host check against DNS
// rebinding for loopback connections is off: HostPolicy replaces it.)
//
// This file adds: one mock server (and one StreamableHTTPServer) per
// client session, since a StreamableHTTPServer serves one MCPServer and
// the engine's state (attempts, the negotiated revision) is per client;
// 400 for a request without a session id and 404 for an unknown one (mcp-go
// accepts any id by default, and opens a GET stream without one); the
// engine's Preflight in front (mcp-go would call the MCPServer directly
// and skip it); the Host check against DNS rebinding (HostPolicy: loopback
// Hosts, and under --allow-remote the listen address) and the Origin check
// (mcp-go checks only Host); a 1 MiB body
// limit (mcp-go reads any size); grouping 2026-07-28 requests into one
// client session by the clientInfo of their _meta; and the exchange log.

// Listen opens a TCP listener on addr ("127.0.0.1:8765", ":0"). Unless
// allowRemote, the host must be a loopback address or localhost, so the
// server is never reachable from another machine by accident.
func Listen(addr string, allowRemote bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--http %q: want HOST:PORT, e.g. 127.0.0.1:8765 (%v)", addr, err)
	}
	if !allowRemote && !IsLoopback(host) {
		if host == "" {
			host = "every interface"
		}
		return nil, fmt.Errorf("--http %q listens on %s, which other machines can reach: use 127.0.0.1 or localhost, or add --allow-remote if you mean it", addr, host)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s: %v", addr, err)
	}
	return ln, nil
}

// ServeHTTP serves MCP over Streamable HTTP at Path on ln until ctx is
// cancelled, then stops within a second: open GET streams are closed and
// requests in flight get half a second to finish. allowRemote also
// accepts Hosts naming ln's address when it is not loopback (see
// Handler).
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, allowRemote bool) error {
	h := s.Handler(NewHostPolicy(ln.Addr().String(), allowRemote, nil))
	s.setListening("http://" + ln.Addr().String() + Path)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: s.diag}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	h.closeStreams()
	stop, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := srv.Shutdown(stop); err != nil {
		_ = srv.Close()
	}
	<-served
	h.endAll()
	return nil
}

// Handler is the Streamable HTTP transport as an http.Handler (MCP at
// Path). Requests whose Host hosts does not allow get 403, against DNS
// rebinding (see HostPolicy); so do requests whose Origin is neither a
// loopback page nor a page of the (allowed, non-loopback) Host itself.
func (s *Server) Handler(hosts HostPolicy) *HTTPHandler {
	h := &HTTPHandler{s: s, hosts: hosts, legacy: map[string]*httpSession{}, stateless: map[string]*httpSession{}}
	h.fallback = s.streamable(mockserver.New(s.mockOptions(mockserver.StyleGood)), server.WithStateLess(true))
	return h
}

// HTTPHandler is the Streamable HTTP transport; see Server.Handler.
type HTTPHandler struct {
	s     *Server
	hosts HostPolicy
	// fallback answers GET and DELETE from 2026-07-28 clients (405).
	fallback *server.StreamableHTTPServer

	mu        sync.Mutex
	legacy    map[string]*httpSession // by Mcp-Session-Id
	stateless map[string]*httpSession // 2026-07-28 clients, by clientInfo
}

// httpSession is one client session over HTTP.
type httpSession struct {
	ss *session
	h  *server.StreamableHTTPServer
}

// streamable wraps a client's mock server in mcp-go's transport.
func (s *Server) streamable(srv *mockserver.Server, opts ...server.StreamableHTTPOption) *server.StreamableHTTPServer {
	opts = append([]server.StreamableHTTPOption{
		server.WithStreamableHTTPProtocolVersions(srv.OfferedVersions()...),
		server.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(s.cfg.Diagnostics, nil))),
		// HTTPHandler.rebinding checks every request's Host first (see
		// HostPolicy), stricter than mcp-go's check, which also refuses the
		// listen address named by a client of this machine under
		// --allow-remote.
		server.WithDisableLocalhostProtection(true),
	}, opts...)
	return server.NewStreamableHTTPServer(srv.MCPServer(), opts...)
}

// oneSession is the session id manager of one client session: the id
// decided before initialize reaches mcp-go, valid until DELETE.
type oneSession struct {
	id         string
	terminated atomic.Bool
}

var errUnknownSession = errors.New("unknown session id")

func (m *oneSession) Generate() string { return m.id }

func (m *oneSession) Validate(id string) (bool, error) {
	if id != m.id {
		return false, errUnknownSession
	}
	return m.terminated.Load(), nil
}

func (m *oneSession) Terminate(id string) (bool, error) {
	if id != m.id {
		return false, errUnknownSession
	}
	m.terminated.Store(true)
	return false, nil
}

// ServeHTTP implements http.Handler.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != Path {
		h.refuse(w, r, h.s.cfg.Now(), http.StatusNotFound, "Not Found: MCP is served at "+Path)
		return
	}
	if why := h.rebinding(r); why != "" {
		h.s.diag.Printf("refused a request: %s", why)
		h.refuse(w, r, h.s.cfg.Now(), http.StatusForbidden, "Forbidden: "+why)
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet, http.MethodDelete:
		h.sessionVerb(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		h.refuse(w, r, h.s.cfg.Now(), http.StatusMethodNotAllowed, "Method Not Allowed: MCP's Streamable HTTP transport uses POST, and GET and DELETE on a session")
	}
}

// refuse answers a request the transport refuses before any session
// takes it with text (http.Error's plain text), and logs it as received
// (its body, up to a message's size: see recordRefusal).
func (h *HTTPHandler) refuse(w http.ResponseWriter, r *http.Request, received time.Time, status int, text string) {
	h.refuseBody(w, r, readBody(r), received, status, text)
}

// refuseBody is refuse for a request whose body is already read.
func (h *HTTPHandler) refuseBody(w http.ResponseWriter, r *http.Request, body []byte, received time.Time, status int, text string) {
	http.Error(w, text, status)
	h.s.recordRefusal(r.Method, body, nil, text, received, status)
}

// readBody reads a refused request's body for the log: at most a
// message's size (mockserver.MaxMessageBytes) plus one byte, so an
// oversize body is logged as cut (see Exchange.LogJSON).
func readBody(r *http.Request) []byte {
	if r.Body == nil {
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(r.Body, mockserver.MaxMessageBytes+1))
	return b
}

// rebinding says why a request must be refused against DNS rebinding:
// its Host or Origin names a machine other than this one ("" if none).
func (h *HTTPHandler) rebinding(r *http.Request) string {
	if !h.hosts.Allows(r.Host) {
		return fmt.Sprintf("the Host header %q is not %s", r.Host, h.hosts.Describe())
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return ""
	}
	u, err := url.Parse(origin)
	if err == nil && u.Host != "" && (IsLoopback(u.Hostname()) || (!IsLoopback(r.Host) && strings.EqualFold(u.Host, r.Host))) {
		return ""
	}
	return fmt.Sprintf("the Origin header %q is not a page of localhost, 127.0.0.0/8 or [::1], nor of the Host itself", origin)
}

// post serves one JSON-RPC message.
func (h *HTTPHandler) post(w http.ResponseWriter, r *http.Request) {
	received := h.s.cfg.Now()
	buf := buffers.Get().(*bytes.Buffer)
	defer putBuffer(buf)
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, mockserver.MaxMessageBytes))
	body := bytes.Clone(buf.Bytes()) // kept with the exchange: exactly its size
	sid := r.Header.Get(server.HeaderKeySessionID)
	if err != nil {
		var tooBig *http.MaxBytesError
		if !errors.As(err, &tooBig) {
			h.refuseBody(w, r, body, received, http.StatusBadRequest, "Bad Request: the body could not be read")
			return
		}
		h.reply(w, r, h.known(sid), cutFrame(body, r.ContentLength), mockserver.OversizeReply(), http.StatusRequestEntityTooLarge, received)
		return
	}
	head, headOK := readHead(body)
	var hs *httpSession
	fresh := false
	switch {
	case mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) || mcp.IsModernProtocol(head.Params.Meta.ProtocolVersion):
		hs = h.statelessFor(head.client(), r.RemoteAddr)
	case head.Method == string(mcp.MethodInitialize):
		hs, fresh = h.newLegacy(), true
	case sid == "":
		h.reply(w, r, nil, body, sessionError(head.ID, "Bad Request: no Mcp-Session-Id header. Send initialize first, then send the Mcp-Session-Id it returns with every request"), http.StatusBadRequest, received)
		return
	default:
		if hs = h.known(sid); hs == nil {
			h.reply(w, r, nil, body, sessionError(head.ID, "Session not found: this server does not know that Mcp-Session-Id (it ended or the server restarted). Send initialize again"), http.StatusNotFound, received)
			return
		}
	}
	// The engine's own front, as on every transport.
	if reply := hs.ss.srv.Preflight(body); reply != nil {
		status := http.StatusOK
		if code := errorCode(reply); code == mcp.PARSE_ERROR || code == mcp.INVALID_REQUEST || mcp.IsModernProtocol(head.Params.Meta.ProtocolVersion) {
			status = statusFor(code)
		}
		h.reply(w, r, hs, body, reply, status, received)
		return
	}
	cw := &captureWriter{ResponseWriter: w, holdJSON: true, body: buffers.Get().(*bytes.Buffer)}
	defer putBuffer(cw.body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	hs.h.ServeHTTP(cw, r)
	sent := h.s.cfg.Now()
	resp := cw.message(head.ID)
	if fresh {
		if cw.status() != http.StatusOK || cw.Header().Get(server.HeaderKeySessionID) != hs.ss.id {
			h.s.recordRefusal(r.Method, body, resp, cw.text(resp), received, cw.status()) // no session began
			cw.Flush()
			h.s.dropSession(hs.ss)
			return
		}
		h.mu.Lock()
		h.legacy[hs.ss.id] = hs // known before the client can use the id
		h.mu.Unlock()
	}
	// Recorded before the answer goes out (in one write, at Flush): what a
	// client has seen is always in the log and on the card already.
	h.s.recordHead(hs.ss, body, resp, cw.text(resp), head, headOK, received, sent, cw.status())
	cw.Flush()
	if cw.status() != http.StatusOK && cw.status() != http.StatusAccepted {
		h.s.diag.Printf("session %s: HTTP %d for %s", hs.ss.id, cw.status(), head.Method)
	}
}

// statusFor is the HTTP status of a JSON-RPC error written by the engine's
// front: 400 for a message that is not a valid request (mcp-go's transport
// does the same), and 2026-07-28's mapping for the rest.
func statusFor(code int) int {
	switch code {
	case mcp.PARSE_ERROR, mcp.INVALID_REQUEST, mcp.INVALID_PARAMS:
		return http.StatusBadRequest
	case mcp.METHOD_NOT_FOUND:
		return http.StatusNotFound
	}
	return http.StatusOK
}

func errorCode(reply []byte) int {
	var m struct {
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(reply, &m) != nil || m.Error == nil {
		return 0
	}
	return m.Error.Code
}

// sessionError is a JSON-RPC error for a request the transport refuses.
func sessionError(rawID json.RawMessage, msg string) []byte {
	var id any
	_ = json.Unmarshal(rawID, &id)
	b, _ := json.Marshal(mcp.JSONRPCError{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(id),
		Error:   mcp.NewJSONRPCErrorDetails(mcp.INVALID_REQUEST, msg, nil),
	})
	return b
}

// reply writes a JSON-RPC message the transport answers itself, and
// records it when the request belongs to a session.
func (h *HTTPHandler) reply(w http.ResponseWriter, r *http.Request, hs *httpSession, req, resp []byte, status int, received time.Time) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(append([]byte(nil), resp...), '\n'))
	if hs == nil {
		h.s.diag.Printf("HTTP %d without a session: %s", status, firstLine(resp))
		h.s.recordRefusal(r.Method, req, resp, "", received, status)
		return
	}
	h.s.record(hs.ss, req, resp, received, h.s.cfg.Now(), status)
}

// cutFrame is what the log keeps of a frame over the 1 MiB limit
// (mockserver.MaxMessageBytes): its first logPreview bytes, "…", and a
// note that it was cut and how large it was; size < 0 when the transport
// stopped reading at the limit without learning the whole size.
func cutFrame(body []byte, size int64) []byte {
	head := append([]byte(nil), body[:min(len(body), logPreview)]...)
	if size < 0 {
		return fmt.Appendf(head, "… [cut: the frame was over the %d-byte (1 MiB) limit; its first %d bytes are kept]", mockserver.MaxMessageBytes, len(head))
	}
	return fmt.Appendf(head, "… [cut: the frame was %d bytes, over the %d-byte (1 MiB) limit; its first %d bytes are kept]", size, mockserver.MaxMessageBytes, len(head))
}

func firstLine(b []byte) string {
	s := string(b)
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// sessionVerb serves GET (the session's stream) and DELETE (its end).
func (h *HTTPHandler) sessionVerb(w http.ResponseWriter, r *http.Request) {
	if mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) {
		received := h.s.cfg.Now()
		cw := &captureWriter{ResponseWriter: w, body: new(bytes.Buffer)}
		h.fallback.ServeHTTP(cw, r) // 405: 2026-07-28 has no session to stream or end
		h.s.recordRefusal(r.Method, nil, cw.message(nil), cw.text(cw.message(nil)), received, cw.status())
		return
	}
	sid := r.Header.Get(server.HeaderKeySessionID)
	if sid == "" {
		h.refuse(w, r, h.s.cfg.Now(), http.StatusBadRequest, "Bad Request: no Mcp-Session-Id header; GET and DELETE act on the session initialize returned")
		return
	}
	hs := h.known(sid)
	if hs == nil {
		h.refuse(w, r, h.s.cfg.Now(), http.StatusNotFound, "Session not found: send initialize again")
		return
	}
	if r.Method == http.MethodGet {
		h.s.diag.Printf("session %s opened its GET stream", sid)
		hs.h.ServeHTTP(w, r)
		return
	}
	cw := &captureWriter{ResponseWriter: w, body: new(bytes.Buffer)}
	hs.h.ServeHTTP(cw, r)
	if cw.status() == http.StatusOK {
		h.mu.Lock()
		delete(h.legacy, sid)
		h.mu.Unlock()
		h.s.endSession(hs.ss, false) // the client's DELETE
	}
}

// known is the session with this id, or nil.
func (h *HTTPHandler) known(sid string) *httpSession {
	if sid == "" {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.legacy[sid]
}

// newLegacy starts a session for an initialize; it is registered once
// mcp-go has accepted the handshake.
func (h *HTTPHandler) newLegacy() *httpSession {
	ss := h.s.newSession(newID(), TransportHTTP)
	return &httpSession{ss: ss, h: h.s.streamable(ss.srv, server.WithSessionIdManager(&oneSession{id: ss.id}))}
}

// statelessFor is the session of a 2026-07-28 client: there is no
// session id, so a client is the clientInfo it sends (name and version)
// from one host (the remote IP address, without the port). Not the TCP
// connection: the official go-sdk client opens a new connection for many
// of its requests, which would give every call a card of its own. Two
// copies of one client on one host share a card; give each its own
// clientInfo version to tell them apart (README, "The exchange log").
func (h *HTTPHandler) statelessFor(client, remote string) *httpSession {
	key := client
	if key == "" {
		key = "(no clientInfo)"
	}
	if host, _, err := net.SplitHostPort(remote); err == nil {
		remote = host
	}
	key += " @ " + remote
	h.mu.Lock()
	defer h.mu.Unlock()
	if hs, ok := h.stateless[key]; ok {
		return hs
	}
	ss := h.s.newSession("stateless-"+newID()[:8], TransportHTTP)
	hs := &httpSession{ss: ss, h: h.s.streamable(ss.srv, server.WithStateLess(true))}
	h.stateless[key] = hs
	return hs
}

// closeStreams ends every open GET stream, so shutdown need not wait for
// clients to hang up.
func (h *HTTPHandler) closeStreams() {
	h.mu.Lock()
	all := make([]*httpSession, 0, len(h.legacy))
	for _, hs := range h.legacy {
		all = append(all, hs)
	}
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	for _, hs := range all {
		hs.h.CloseSessions(ctx)
	}
}

// endAll ends every session's card.
func (h *HTTPHandler) endAll() {
	h.mu.Lock()
	var all []*httpSession
	for _, hs := range h.legacy {
		all = append(all, hs)
	}
	for _, hs := range h.stateless {
		all = append(all, hs)
	}
	h.mu.Unlock()
	for _, hs := range all {
		h.s.endSession(hs.ss, true)
	}
}

// buffers hold request bodies as they are read and responses as they are
// captured; what an exchange keeps is copied out at its exact size.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putBuffer returns b to buffers, unless it grew past a message (a rare
// large frame is not kept around).
func putBuffer(b *bytes.Buffer) {
	if b.Cap() > 64<<10 {
		return
	}
	b.Reset()
	buffers.Put(b)
}

// captureWriter passes a response through and keeps a copy of its body
// (up to the size of a message), so the exchange can be recorded exactly
// as sent. It can stream (http.Flusher), so mcp-go may answer with SSE.
//
// With holdJSON, an application/json answer (one JSON-RPC message) is
// held until Flush and then written whole, with its Content-Length: one
// write to the connection instead of a chunk and the chunked ending.
type captureWriter struct {
	http.ResponseWriter
	code     int
	body     *bytes.Buffer
	holdJSON bool
	held     bool
}

func (c *captureWriter) WriteHeader(code int) {
	if c.code != 0 {
		c.ResponseWriter.WriteHeader(code) // superfluous: net/http says so
		return
	}
	c.code = code
	if c.holdJSON && strings.HasPrefix(c.Header().Get("Content-Type"), "application/json") {
		c.held = true
		return
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *captureWriter) Write(p []byte) (int, error) {
	if c.code == 0 {
		c.WriteHeader(http.StatusOK)
	}
	if c.held {
		if c.body.Len()+len(p) <= 4*mockserver.MaxMessageBytes {
			return c.body.Write(p)
		}
		c.release() // too large to hold: stream the rest
	}
	if c.body.Len() < 4*mockserver.MaxMessageBytes {
		c.body.Write(p)
	}
	return c.ResponseWriter.Write(p)
}

// release writes a held answer whole.
func (c *captureWriter) release() {
	c.held = false
	c.Header().Set("Content-Length", strconv.Itoa(c.body.Len()))
	c.ResponseWriter.WriteHeader(c.code)
	_, _ = c.ResponseWriter.Write(c.body.Bytes())
}

// Flush implements http.Flusher.
func (c *captureWriter) Flush() {
	if c.held {
		c.release()
	}
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (c *captureWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// text is the body answered when it was not the JSON-RPC message resp
// (a refusal's plain text, trimmed), "" otherwise.
func (c *captureWriter) text(resp []byte) string {
	if resp != nil {
		return ""
	}
	return firstLine(bytes.TrimSpace(c.body.Bytes()))
}

func (c *captureWriter) status() int {
	if c.code == 0 {
		return http.StatusOK
	}
	return c.code
}

// message is the JSON-RPC response in the body: the JSON itself, or the
// SSE event whose id is the request's. nil when there is none (202 for a
// notification, or a plain-text HTTP error).
func (c *captureWriter) message(id json.RawMessage) []byte {
	body := bytes.TrimSpace(c.body.Bytes())
	if strings.HasPrefix(c.Header().Get("Content-Type"), "text/event-stream") {
		var last []byte
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, 4*mockserver.MaxMessageBytes)
		for sc.Scan() {
			data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:"))
			if !ok {
				continue
			}
			data = bytes.TrimSpace(data)
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(data, &m) == nil && bytes.Equal(bytes.TrimSpace(m.ID), bytes.TrimSpace(id)) {
				last = append([]byte(nil), data...)
			}
		}
		return last
	}
	if len(body) == 0 || !json.Valid(body) {
		return nil
	}
	return append([]byte(nil), body...)
}
