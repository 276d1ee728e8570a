package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/serve"
)

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]byte(nil), l.b.Bytes()...)
}

// httpServer serves cfg over HTTP on a free loopback port until the test
// ends; it returns the endpoint URL and the server.
func httpServer(t testing.TB, cfg serve.Config) (string, *serve.Server) {
	t.Helper()
	s := serve.New(cfg)
	ln, err := serve.Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, ln, false) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeHTTP: %v", err)
			}
		case <-time.After(3 * time.Second):
			t.Error("ServeHTTP did not stop within 3 s")
		}
	})
	return "http://" + ln.Addr().(*net.TCPAddr).String() + serve.Path, s
}

// stdioServer serves cfg on io.Pipes until the test ends; it returns the
// client's end as a go-sdk transport.
func stdioServer(t testing.TB, cfg serve.Config) (sdk.Transport, *serve.Server) {
	t.Helper()
	s := serve.New(cfg)
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- s.ServeStdio(ctx, c2sR, s2cW)
		_ = s2cW.Close()
	}()
	t.Cleanup(func() {
		_ = c2sW.Close()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeStdio: %v", err)
			}
		case <-time.After(3 * time.Second):
			t.Error("ServeStdio did not stop within 3 s")
		}
		_ = s2cR.Close()
	})
	return &sdk.IOTransport{Reader: s2cR, Writer: c2sW}, s
}

// connect opens a go-sdk client session; rev "" lets the SDK choose.
func connect(t testing.TB, tr sdk.Transport, name, rev string) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1.0"}, nil)
	cs, err := c.Connect(context.Background(), tr, &sdk.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		t.Fatalf("go-sdk connect (%q): %v", rev, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// logLines parses the exchange log.
type logLine struct {
	Time       string          `json:"time"`
	Session    string          `json:"session"`
	Spec       string          `json:"spec"`
	Transport  string          `json:"transport"`
	HTTPStatus int             `json:"httpStatus"`
	HTTPMethod string          `json:"httpMethod"`
	HTTPBody   string          `json:"httpBody"`
	Request    json.RawMessage `json:"request"`
	Response   json.RawMessage `json:"response"`
}

func logLines(t testing.TB, b []byte) []logLine {
	t.Helper()
	var out []logLine
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var ll logLine
		if err := json.Unmarshal(l, &ll); err != nil {
			t.Fatalf("log line is not JSON: %v\n%s", err, l)
		}
		out = append(out, ll)
	}
	return out
}
