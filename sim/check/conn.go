package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/shlex"
	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/errorlab/errorlab/sim/wire"
)

// Target is the live MCP server to check: a command that speaks stdio,
// the URL of a Streamable HTTP endpoint, or (for tests and the in-process
// mock server) a pair of streams.
type Target struct {
	// Command is the server's command line, split like a shell would
	// ("npx -y @modelcontextprotocol/server-filesystem /tmp").
	Command string
	// URL is a Streamable HTTP endpoint, e.g. http://127.0.0.1:8765/mcp.
	URL string
	// In and Out, when set, are the server's stdout and stdin.
	In  io.Reader
	Out io.WriteCloser
	// Name labels the target in reports ("" : the command or URL).
	Name string
}

// Label names the target for reports.
func (t Target) Label() string {
	switch {
	case t.Name != "":
		return t.Name
	case t.Command != "":
		return t.Command
	case t.URL != "":
		return t.URL
	}
	return "in-process server"
}

// conn is an open connection: a transport whose every message is
// recorded byte for byte, and what closes it.
type conn struct {
	tr     transport.Interface
	rec    *wire.Recorder
	close  func() error
	stderr *tail // the server's stderr (stdio), for errors
	// exit says how the server's process ended, "" while it runs (or
	// when there is no process).
	exit func() string
	// exited is closed when the server's process has ended (nil when
	// there is no process).
	exited <-chan struct{}
	// stdio is true for a server on pipes, whose stdout must carry only
	// JSON-RPC messages.
	stdio bool
	// http, for a Streamable HTTP server, keeps the last HTTP error status.
	http *tapRoundTripper
	// timeout is how long each answer is waited for.
	timeout time.Duration
}

// failure says in plain words why the check could not go on during phase
// ("the MCP handshake (initialize)", "tools/list", "call 3 of 12 (…)"):
// the run was interrupted, the server's process ended (with its stderr),
// an HTTP server answered with an error status (and what it sent), no
// answer came in time (and what the server wrote instead), or the
// transport's own error.
func (c *conn) failure(ctx context.Context, phase string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted during %s; the server was stopped", phase)
	}
	if c.exit != nil {
		time.Sleep(50 * time.Millisecond) // a process that is exiting has its status a moment later
		if e := c.exit(); e != "" {
			note := "; it wrote nothing on stderr"
			if s := c.stderr.String(); s != "" {
				note = "; its stderr ended with:\n" + s
			}
			return fmt.Errorf("the server's process ended (%s) during %s%s", e, phase, note)
		}
	}
	if c.http != nil {
		if status, body := c.http.lastError(); status != "" {
			if body != "" {
				body = ": " + strconv.Quote(clipText(body, 200))
			}
			return fmt.Errorf("%s got no MCP answer: the server answered HTTP %s%s (is the URL the server's MCP endpoint?)", phase, status, body)
		}
	}
	stray := ""
	if lines := c.stray(0, nil); len(lines) > 0 {
		stray = fmt.Sprintf("; on stdout it wrote %s, which is not JSON-RPC", strconv.Quote(clipText(string(lines[len(lines)-1]), 120)))
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s got no answer within %s%s%s", phase, c.timeout, stray, stderrNote(c))
	}
	if c.http != nil && errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("%s failed: nothing listens at that address (connection refused); is the server running, and is the URL its MCP endpoint?", phase)
	}
	return fmt.Errorf("%s failed: %s%s%s", phase, withoutRepeats(err.Error()), stray, stderrNote(c))
}

// withoutRepeats drops a ": "-separated part of an error message that
// repeats the part before it ("failed to send request: failed to send
// request: …", as layers of a transport wrap the same words).
func withoutRepeats(msg string) string {
	parts := strings.Split(msg, ": ")
	out := parts[:1]
	for _, p := range parts[1:] {
		if p != out[len(out)-1] {
			out = append(out, p)
		}
	}
	return strings.Join(out, ": ")
}

// ended says how the server's process ended ("exit status 3") when a
// call failed with err because it did, "" while it runs. A call that
// timed out is checked at once; any other failure (the transport saw
// stdout close) waits up to a second for the process's status.
func (c *conn) ended(err error) string {
	if c.exited == nil {
		return ""
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		select {
		case <-c.exited:
		case <-time.After(time.Second):
		}
	}
	return c.exit()
}

// stray returns the lines the server wrote on stdout from message from
// on that are not JSON (none for an HTTP server), leaving out those in
// used (graded as a call's answer already).
func (c *conn) stray(from int, used map[string]bool) [][]byte {
	if !c.stdio {
		return nil
	}
	var out [][]byte
	for i, m := range c.rec.Transcript() {
		if i < from || m.Dir != wire.ServerToClient || json.Valid(m.Bytes) || used[string(m.Bytes)] {
			continue
		}
		out = append(out, m.Bytes)
	}
	return out
}

// strayOutput is stray for the whole run, leaving out the lines graded as
// answers in results.
func (c *conn) strayOutput(results []Result) [][]byte {
	used := map[string]bool{}
	for _, r := range results {
		if len(r.Response) > 0 {
			used[string(r.Response)] = true
		}
	}
	return c.stray(0, used)
}

// stopGrace is how long a server gets to exit after its stdin closes
// before its process group is killed.
const stopGrace = 2 * time.Second

// killGrace is how long a cancelled server's group gets after SIGTERM
// before SIGKILL.
const killGrace = 500 * time.Millisecond

// open connects to the target (it does not perform the handshake).
func open(ctx context.Context, t Target) (*conn, error) {
	rec := wire.NewRecorder()
	switch {
	case t.In != nil && t.Out != nil:
		c := ioConn(rec, t.In, t.Out, func() error { return t.Out.Close() }, nil)
		c.stdio = true
		return c, nil
	case t.Command != "":
		return commandConn(ctx, rec, t.Command)
	case t.URL != "":
		return httpConn(rec, t.URL)
	}
	return nil, errors.New("no server to check: give a command (--server) or a URL (--url)")
}

func ioConn(rec *wire.Recorder, in io.Reader, out io.WriteCloser, closeFn func() error, stderr *tail) *conn {
	fromServer := io.TeeReader(in, rec.Tap(wire.ServerToClient, nil))
	toServer := rec.Tap(wire.ClientToServer, out)
	tr := transport.NewIO(fromServer, toServer, io.NopCloser(bytes.NewReader(nil)))
	transport.WithCommandLogger(slog.New(slog.DiscardHandler))(tr)
	return &conn{tr: tr, rec: rec, close: closeFn, stderr: stderr}
}

// commandConn starts the server in a process group of its own (so that a
// launcher such as npx and the server it starts stop together).
func commandConn(ctx context.Context, rec *wire.Recorder, command string) (*conn, error) {
	argv, err := shlex.Split(command)
	if err != nil || len(argv) == 0 {
		return nil, fmt.Errorf("cannot read the server command %q: give the program and its arguments as a shell would, e.g. --server 'npx -y @modelcontextprotocol/server-everything'", command)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("cannot start the server: %q is not a program on PATH", argv[0])
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errTail := &tail{max: 4 << 10}
	cmd.Stderr = errTail
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start the server %q: %v", argv[0], err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	var once sync.Once
	group := -cmd.Process.Pid
	// kill ends the whole process group: SIGTERM, then SIGKILL if it has
	// not exited after grace.
	kill := func(grace time.Duration) {
		_ = syscall.Kill(group, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(grace):
			_ = syscall.Kill(group, syscall.SIGKILL)
			<-exited
		}
		// The server's own children (a launcher's server) may outlive it.
		_ = syscall.Kill(group, syscall.SIGKILL)
	}
	// stop ends the server: at the end of a run it closes the server's
	// stdin and gives it stopGrace to exit before its group is killed; a
	// cancelled run (the user quit or pressed ctrl-C) kills the group at
	// once. Whoever calls it first, Live returns only when the group is
	// gone.
	stop := func() error {
		once.Do(func() {
			_ = stdin.Close()
			if ctx.Err() != nil {
				kill(killGrace)
				return
			}
			select {
			case <-exited:
				_ = syscall.Kill(group, syscall.SIGKILL)
			case <-time.After(stopGrace):
				kill(stopGrace)
			}
		})
		return nil
	}
	context.AfterFunc(ctx, func() { _ = stop() })
	c := ioConn(rec, stdout, stdin, stop, errTail)
	c.stdio = true
	c.exited = exited
	c.exit = func() string {
		select {
		case <-exited:
			if waitErr != nil {
				return waitErr.Error()
			}
			return "exit status 0"
		default:
			return ""
		}
	}
	return c, nil
}

// httpConn reaches a Streamable HTTP server through mcp-go's transport,
// with a tap on every request and response body.
func httpConn(rec *wire.Recorder, url string) (*conn, error) {
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return nil, fmt.Errorf("--url %q is not an http:// or https:// URL, e.g. http://127.0.0.1:8765/mcp", url)
	}
	tap := &tapRoundTripper{rec: rec, base: http.DefaultTransport}
	hc := &http.Client{Transport: tap}
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPBasicClient(hc),
		transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		return nil, fmt.Errorf("--url %q: %v", url, err)
	}
	return &conn{tr: tr, rec: rec, close: tr.Close, http: tap}, nil
}

// tapRoundTripper records each request body and each JSON-RPC message of
// the response body: a JSON body whole, an event stream event by event.
type tapRoundTripper struct {
	rec  *wire.Recorder
	base http.RoundTripper

	mu         sync.Mutex
	lastStatus string // the last HTTP error status ("404 Not Found"), "" after a success
	lastBody   *bodyTap
}

// lastError is the last HTTP error status and the body that came with it
// (the last message the server sent, once the body has been read).
func (t *tapRoundTripper) lastError() (status, body string) {
	t.mu.Lock()
	status, hadBody := t.lastStatus, t.lastBody != nil
	t.mu.Unlock()
	if status == "" || !hadBody {
		return status, ""
	}
	msgs := t.rec.Transcript()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Dir == wire.ServerToClient {
			return status, strings.TrimSpace(string(msgs[i].Bytes))
		}
	}
	return status, ""
}

func (t *tapRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(b)) > 0 {
			t.rec.Add(wire.ClientToServer, bytes.TrimSpace(b))
		}
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	var bt *bodyTap
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = &sseTap{ReadCloser: resp.Body, rec: t.rec}
	} else {
		// A JSON body, or what a server sent instead of one (an HTTP error
		// with a text body is graded as the unreadable answer it is).
		bt = &bodyTap{ReadCloser: resp.Body, rec: t.rec}
		resp.Body = bt
	}
	t.mu.Lock()
	t.lastStatus, t.lastBody = "", nil
	if resp.StatusCode >= 400 {
		t.lastStatus, t.lastBody = resp.Status, bt
	}
	t.mu.Unlock()
	return resp, nil
}

// bodyTap records a whole JSON body once it has been read to the end.
type bodyTap struct {
	io.ReadCloser
	rec  *wire.Recorder
	buf  bytes.Buffer
	done bool
}

func (b *bodyTap) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	if err == io.EOF {
		b.record()
	}
	return n, err
}

// Close records the body even when the reader stopped before its end (a
// JSON decoder stops after the value), reading what is left of it first.
func (b *bodyTap) Close() error {
	if !b.done {
		_, _ = io.Copy(&b.buf, io.LimitReader(b.ReadCloser, maxBodyTail))
		b.record()
	}
	return b.ReadCloser.Close()
}

// maxBodyTail bounds what Close reads of a body its reader left.
const maxBodyTail = 1 << 20

func (b *bodyTap) record() {
	if b.done {
		return
	}
	b.done = true
	if msg := bytes.TrimSpace(b.buf.Bytes()); len(msg) > 0 {
		b.rec.Add(wire.ServerToClient, msg)
	}
}

// sseTap records the data of each server-sent event as it passes.
type sseTap struct {
	io.ReadCloser
	rec  *wire.Recorder
	line []byte
	data [][]byte
}

func (s *sseTap) Read(p []byte) (int, error) {
	n, err := s.ReadCloser.Read(p)
	for _, c := range p[:n] {
		if c != '\n' {
			s.line = append(s.line, c)
			continue
		}
		line := bytes.TrimSuffix(s.line, []byte("\r"))
		s.line = s.line[:0]
		switch {
		case len(line) == 0:
			if len(s.data) > 0 {
				if msg := bytes.TrimSpace(bytes.Join(s.data, []byte("\n"))); len(msg) > 0 {
					s.rec.Add(wire.ServerToClient, msg)
				}
				s.data = nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			s.data = append(s.data, bytes.Clone(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))))
		}
	}
	return n, err
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
