package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/errorlab/errorlab/sim/mockserver"
)

// ServeStdio serves one client on newline-delimited JSON-RPC: requests on
// r, responses on w (nothing else is ever written to w), with the mock
// server's own stdio transport (mockserver.ServeStdio, mcp-go's stdio
// server behind the engine's Preflight). It returns when r ends or ctx is
// cancelled; the client's session is then ended (see Finish).
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	ss := s.newSession("stdio-"+newID()[:8], TransportStdio)
	s.setListening("stdio")
	p := &stdioPairs{s: s, ss: ss, pending: map[string][]stdioRequest{}}
	in := &lineTap{r: r, line: p.request}
	out := &writeTap{w: w, line: p.response}
	err := ss.srv.ServeStdio(ctx, in, out)
	s.endSession(ss, ctx.Err() != nil) // the input's end is the client's; a cancelled ctx the server's
	return err
}

// stdioRequest is a request line waiting for its response.
type stdioRequest struct {
	raw      []byte
	received time.Time
}

// stdioPairs matches responses to requests. mcp-go's stdio server answers
// tool calls on workers, so replies may come out of order: they are
// matched by id, and replies with a null id (to bytes that were not a
// valid request) in the order those arrived.
type stdioPairs struct {
	s  *Server
	ss *session

	mu      sync.Mutex
	pending map[string][]stdioRequest
	nullQ   []stdioRequest
}

// lineKind is what reply a client line expects: the engine's own rule
// (mockserver.ReplyKey), so pairing and answering never disagree.
func lineKind(raw []byte) (key string, replies bool) { return mockserver.ReplyKey(raw) }

func (p *stdioPairs) request(raw []byte, oversize bool) {
	now := p.s.cfg.Now()
	if oversize {
		p.mu.Lock()
		p.nullQ = append(p.nullQ, stdioRequest{raw, now})
		p.mu.Unlock()
		return
	}
	if bytes.Contains(raw, []byte(`"initialize"`)) {
		p.ss.srv.ObserveInitialize(raw) // before the next line is logged: its revision is this one
	}
	key, replies := lineKind(raw)
	if !replies {
		p.s.record(p.ss, raw, nil, now, now, 0)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if key == "null" {
		p.nullQ = append(p.nullQ, stdioRequest{raw, now})
		return
	}
	p.pending[key] = append(p.pending[key], stdioRequest{raw, now})
}

func (p *stdioPairs) response(raw []byte) {
	now := p.s.cfg.Now()
	var h struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(raw, &h)
	key := string(bytes.TrimSpace(h.ID))
	if key == "" {
		key = "null"
	}
	p.mu.Lock()
	var req stdioRequest
	found := false
	if key == "null" && len(p.nullQ) > 0 {
		req, p.nullQ, found = p.nullQ[0], p.nullQ[1:], true
	} else if q := p.pending[key]; len(q) > 0 {
		req, found = q[0], true
		if len(q) == 1 {
			delete(p.pending, key)
		} else {
			p.pending[key] = q[1:]
		}
	}
	p.mu.Unlock()
	if !found {
		// A message the server sent on its own (none today), or the reply
		// to bytes the pairing could not foresee: keep it, with no request.
		req = stdioRequest{raw: []byte("null"), received: now}
	}
	p.s.record(p.ss, req.raw, raw, req.received, now, 0)
}

// lineTap reads from r and hands each complete line to line as it passes
// (trimmed, without its newline; empty lines skipped). A line over
// mockserver.MaxMessageBytes is kept only in part and flagged oversize.
type lineTap struct {
	r        io.Reader
	line     func(raw []byte, oversize bool)
	buf      []byte
	oversize bool
	size     int64 // the line's length so far
}

func (t *lineTap) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.scan(p[:n])
	if err == io.EOF && (len(t.buf) > 0 || t.oversize) {
		t.emit()
	}
	return n, err
}

func (t *lineTap) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		chunk := b
		if i >= 0 {
			chunk = b[:i]
		}
		t.size += int64(len(chunk))
		if !t.oversize {
			if len(t.buf)+len(chunk) > mockserver.MaxMessageBytes {
				t.oversize = true
				keep := min(len(chunk), max(logPreview-len(t.buf), 0))
				t.buf = append(t.buf, chunk[:keep]...)
			} else {
				t.buf = append(t.buf, chunk...)
			}
		}
		if i < 0 {
			return
		}
		t.emit()
		b = b[i+1:]
	}
}

func (t *lineTap) emit() {
	line := bytes.TrimSpace(t.buf)
	if t.oversize {
		line = cutFrame(line, t.size)
	}
	if len(line) > 0 {
		t.line(append([]byte(nil), line...), t.oversize)
	}
	t.buf, t.oversize, t.size = t.buf[:0], false, 0
}

// writeTap hands each complete line written through it to line, then
// writes it to w (so the log keeps the order the lines were sent in).
type writeTap struct {
	w    io.Writer
	line func(raw []byte)
	buf  []byte
}

func (t *writeTap) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			break
		}
		if line := bytes.TrimSpace(t.buf[:i]); len(line) > 0 {
			t.line(append([]byte(nil), line...))
		}
		t.buf = t.buf[i+1:]
	}
	return t.w.Write(p)
}
