package classroom_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/classroom"
)

// content is the built-in catalogue, bank and walkthroughs, loaded once.
var content = sync.OnceValues(func() (ui.Options, error) {
	cat, err := scenarios.Default()
	if err != nil {
		return ui.Options{}, err
	}
	bank, err := quiz.DefaultBank()
	if err != nil {
		return ui.Options{}, err
	}
	set, err := wt.Default(cat, bank)
	if err != nil {
		return ui.Options{}, err
	}
	return ui.Options{Catalog: cat, Bank: bank, Walkthroughs: set}, nil
})

// keyPair is a fresh Ed25519 key: its signer, and its authorized_keys
// line.
func keyPair(tb testing.TB) (gossh.Signer, []byte) {
	tb.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	must(tb, err)
	s, err := gossh.NewSignerFromKey(priv)
	must(tb, err)
	return s, gossh.MarshalAuthorizedKey(s.PublicKey())
}

// fixture is a running class on 127.0.0.1:0 with a teacher's key.
type fixture struct {
	srv     *classroom.Server
	dir     string
	teacher gossh.Signer
	addr    string
	served  chan error
}

// start runs a class; edit changes its config first (nil: none). The
// class is closed when the test ends.
func start(tb testing.TB, edit func(*classroom.Config)) *fixture {
	tb.Helper()
	opts, err := content()
	must(tb, err)
	parent := tb.TempDir()
	dir := filepath.Join(parent, "classroom")
	teacher, line := keyPair(tb)
	tk := filepath.Join(parent, "teacher_keys")
	must(tb, os.WriteFile(tk, line, 0o600))
	cfg := classroom.Config{Listen: "127.0.0.1:0", Dir: dir, TeacherKeys: tk, App: opts, Log: io.Discard}
	if edit != nil {
		edit(&cfg)
	}
	srv, err := classroom.New(cfg)
	must(tb, err)
	f := &fixture{srv: srv, dir: dir, teacher: teacher, addr: srv.Addr().String(), served: make(chan error, 1)}
	go func() { f.served <- srv.Serve() }()
	tb.Cleanup(func() {
		_ = srv.Close(2 * time.Second)
		select {
		case err := <-f.served:
			if err != nil {
				tb.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			tb.Error("Serve did not return after Close")
		}
	})
	return f
}

// term is one ssh client session with a terminal: what the server sent
// (all of it, raw), and its keyboard.
type term struct {
	tb     testing.TB
	client *gossh.Client
	sess   *gossh.Session
	in     io.WriteCloser

	mu      sync.Mutex
	out     bytes.Buffer
	changed chan struct{}
	done    chan struct{}
	// quiet: the terminal never answers the background and device
	// queries (some terminals, a pipe).
	quiet bool
}

// Auth methods of the test clients.
func anyone() []gossh.AuthMethod {
	return []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}
}

func withKey(s gossh.Signer) []gossh.AuthMethod {
	return []gossh.AuthMethod{gossh.PublicKeys(s)}
}

// dial logs in as user and opens a 100x30 terminal session; the error is
// the login's.
func (f *fixture) dial(tb testing.TB, user string, auth []gossh.AuthMethod) (*term, error) {
	tb.Helper()
	return f.dialEnv(tb, user, auth, nil)
}

// dialEnv is dial sending environment variables first (ssh -o SetEnv).
func (f *fixture) dialEnv(tb testing.TB, user string, auth []gossh.AuthMethod, env map[string]string) (*term, error) {
	tb.Helper()
	return f.dialWith(tb, user, auth, env, false)
}

// dialWith is dialEnv with a terminal that answers no query when quiet.
func (f *fixture) dialWith(tb testing.TB, user string, auth []gossh.AuthMethod, env map[string]string, quiet bool) (*term, error) {
	tb.Helper()
	hostPub, _, _ := f.srv.HostKey()
	c, err := gossh.Dial("tcp", f.addr, &gossh.ClientConfig{User: user, Auth: auth, HostKeyCallback: gossh.FixedHostKey(hostPub), Timeout: 10 * time.Second})
	if err != nil {
		return nil, err
	}
	sess, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, err
	}
	for k, v := range env {
		if err := sess.Setenv(k, v); err != nil {
			c.Close()
			return nil, err
		}
	}
	if err := sess.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
		c.Close()
		return nil, err
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	errOut, _ := sess.StderrPipe()
	t := &term{tb: tb, client: c, sess: sess, in: in, changed: make(chan struct{}, 1), done: make(chan struct{}), quiet: quiet}
	go t.read(out)
	go t.keep(errOut)
	if err := sess.Shell(); err != nil {
		c.Close()
		return nil, err
	}
	tb.Cleanup(t.close)
	return t, nil
}

// connect is dial that fails the test on an error.
func (f *fixture) connect(tb testing.TB, user string, auth []gossh.AuthMethod) *term {
	tb.Helper()
	t, err := f.dial(tb, user, auth)
	must(tb, err)
	return t
}

// read keeps what the server sends, answering the terminal queries a
// real terminal answers (the background colour, the device attributes).
func (t *term) read(r io.Reader) {
	defer close(t.done)
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			if bytes.Contains(chunk, []byte("\x1b]11;?")) && !t.quiet {
				_, _ = t.in.Write([]byte("\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\"))
			}
			if bytes.Contains(chunk, []byte("\x1b[c")) && !t.quiet {
				_, _ = t.in.Write([]byte("\x1b[?62;22c"))
			}
			t.mu.Lock()
			t.out.Write(chunk)
			t.mu.Unlock()
			select {
			case t.changed <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// keep adds what the server writes to the session's stderr (as a
// terminal shows it).
func (t *term) keep(r io.Reader) {
	buf := make([]byte, 4<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			t.mu.Lock()
			t.out.Write(buf[:n])
			t.mu.Unlock()
			select {
			case t.changed <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// raw is everything received so far; text is it without escape codes.
func (t *term) raw() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.String()
}

func (t *term) text() string { return ansi.Strip(t.raw()) }

// size is how many bytes have come so far (a mark for since).
func (t *term) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.Len()
}

// waitFor waits until the text received after mark holds s; the error
// shows the last of what came.
func (t *term) waitFor(s string, mark int, within time.Duration) error {
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		t.mu.Lock()
		got := ansi.Strip(string(t.out.Bytes()[min(mark, t.out.Len()):]))
		t.mu.Unlock()
		if strings.Contains(got, s) {
			return nil
		}
		select {
		case <-t.changed:
		case <-t.done:
			if strings.Contains(ansi.Strip(t.raw()[min(mark, t.size()):]), s) {
				return nil
			}
			return fmt.Errorf("the session ended without %q; the end of it:\n%s", s, tail(ansi.Strip(t.raw()), 1500))
		case <-deadline.C:
			return fmt.Errorf("no %q within %v; the end of what came:\n%s", s, within, tail(got, 1500))
		}
	}
}

func (t *term) must(s string) {
	t.tb.Helper()
	if err := t.waitFor(s, 0, 20*time.Second); err != nil {
		t.tb.Fatal(err)
	}
}

// press types keys.
func (t *term) press(keys string) {
	_, _ = t.in.Write([]byte(keys))
}

// ended waits for the server to end the session.
func (t *term) ended(within time.Duration) error {
	select {
	case <-t.done:
		return nil
	case <-time.After(within):
		return errors.New("the session is still open")
	}
}

func (t *term) close() {
	_ = t.sess.Close()
	_ = t.client.Close()
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
