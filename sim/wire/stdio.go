package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// rawReplyTimeout bounds the wait for the answer to hand-written bytes on
// stdio; the mock server answers in microseconds.
const rawReplyTimeout = 5 * time.Second

// OpenStdio starts a session over the stdio transport: the mock server's
// ServeStdio on one end of two io.Pipes, mcp-go's client stdio transport
// on the other, and a tap recording every newline-delimited message in
// both directions. Close it to stop the server.
func OpenStdio(ctx context.Context, srv *mockserver.Server, rev rules.Revision) (*Session, error) {
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	rec := &recorder{}
	rec.cond = sync.NewCond(&rec.mu)

	ctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() {
		served <- srv.ServeStdio(ctx, c2sR, &tap{rec: rec, dir: ServerToClient, w: s2cW})
		_ = s2cW.Close()
	}()

	toServer := &tap{rec: rec, dir: ClientToServer, w: c2sW}
	tr := transport.NewIO(s2cR, toServer, io.NopCloser(bytes.NewReader(nil)))
	// The client transport logs a closed pipe at the end of every session;
	// that is the session ending, not news.
	transport.WithCommandLogger(slog.New(slog.DiscardHandler))(tr)
	s := &Session{Revision: rev, Server: srv, rec: rec}
	var once sync.Once
	var closeErr error
	s.close = func() error {
		once.Do(func() {
			_ = c2sW.Close()
			cancel()
			select {
			case closeErr = <-served:
			case <-time.After(rawReplyTimeout):
				closeErr = errors.New("stdio server did not stop")
			}
			_ = s2cR.Close()
		})
		return closeErr
	}
	s.raw = func(ctx context.Context, raw []byte) ([]byte, error) {
		return rec.await(ctx, toServer, raw)
	}
	if err := s.start(ctx, tr); err != nil {
		_ = s.close()
		return nil, err
	}
	return s, nil
}

// tap records each complete line written through it, then forwards it.
type tap struct {
	mu  sync.Mutex
	rec *recorder
	dir Direction
	w   io.WriteCloser
	buf []byte
}

func (t *tap) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			break
		}
		if line := bytes.TrimSpace(t.buf[:i]); len(line) > 0 {
			t.rec.add(t.dir, line)
		}
		t.buf = t.buf[i+1:]
	}
	return t.w.Write(p)
}

func (t *tap) Close() error { return t.w.Close() }

// await writes hand-written bytes to the server and waits for the server
// line that answers them: the same id, or a null id for a parse error.
func (r *recorder) await(ctx context.Context, w io.Writer, raw []byte) ([]byte, error) {
	want := "null"
	var h msgHead
	if json.Unmarshal(raw, &h) == nil && len(h.ID) > 0 {
		want = string(h.ID)
	}
	mark := r.len()
	if _, err := w.Write(append(append([]byte(nil), raw...), '\n')); err != nil {
		return nil, fmt.Errorf("write to server: %w", err)
	}
	deadline := time.Now().Add(rawReplyTimeout)
	stop := context.AfterFunc(ctx, func() { r.mu.Lock(); r.cond.Broadcast(); r.mu.Unlock() })
	defer stop()
	timer := time.AfterFunc(rawReplyTimeout, func() { r.mu.Lock(); r.cond.Broadcast(); r.mu.Unlock() })
	defer timer.Stop()

	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		for i := mark; i < len(r.msgs); i++ {
			m := r.msgs[i]
			if m.Dir == ServerToClient && m.ID() == want {
				return m.Bytes, nil
			}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if time.Now().After(deadline) {
			return nil, errors.New("the server did not answer the hand-written request")
		}
		r.cond.Wait()
	}
}
