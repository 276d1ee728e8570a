package classroom_test

import (
	"bytes"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/errorlab/errorlab/ui/classroom"
)

// syncLog is the server's log, read while it writes.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitLog waits until the log holds s.
func (l *syncLog) waitLog(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(l.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("the log has no %q:\n%s", s, l.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func writeKeys(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "students")
	must(t, os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	return p
}

func keyLine(line []byte, name string) string { return strings.TrimSpace(string(line)) + " " + name }

// With --student-keys a key logs in as the name it binds and no other;
// a bound name cannot be taken with the password; the comment's user
// part (ana@laptop) or a name="…" option names the key.
func TestKeysBindNames(t *testing.T) {
	ana, anaLine := keyPair(t)
	bob, bobLine := keyPair(t)
	cy, cyLine := keyPair(t)
	log := &syncLog{}
	f := start(t, func(c *classroom.Config) {
		c.StudentKeys = writeKeys(t, keyLine(anaLine, "ana@laptop"), keyLine(bobLine, "bob"), `name="cy" `+keyLine(cyLine, "whatever"))
		c.Password = "s3cret"
		c.Log = log
	})
	f.connect(t, "ana", withKey(ana)).must(home)
	f.connect(t, "cy", withKey(cy)).must(home)
	as := f.connect(t, "ana", withKey(bob))
	must(t, as.waitFor("this key is bob's: log in as bob", 0, 10*time.Second))
	must(t, as.ended(5*time.Second))
	pw := f.connect(t, "bob", []gossh.AuthMethod{gossh.Password("s3cret")})
	must(t, pw.waitFor("the name bob belongs to a student's key", 0, 10*time.Second))
	f.connect(t, "dee", []gossh.AuthMethod{gossh.Password("s3cret")}).must(home)
	log.waitLog(t, "bob was turned away")
	for _, m := range f.srv.Hub().Snapshot().Members {
		if m.Name == "ana" && m.ID > 3 {
			t.Errorf("bob's key got in as ana: %+v", m)
		}
	}
	// A key file whose line names no student is refused at start.
	_, bare := keyPair(t)
	dir := t.TempDir()
	_, err := classroom.New(classroom.Config{Listen: "127.0.0.1:0", Dir: dir, StudentKeys: writeKeys(t, strings.TrimSpace(string(bare)))})
	var ce *classroom.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "names no student") {
		t.Errorf("a key without a name: %v", err)
	}
}

// One live session a name: a second `ssh ana@…` while ana's session
// answers is refused, and ana's own answers stay hers.
func TestOneSessionAName(t *testing.T) {
	f := start(t, nil)
	ana := f.connect(t, "ana", anyone())
	ana.must(home)
	again := f.connect(t, "ana", anyone())
	must(t, again.waitFor("ana is already connected", 0, 10*time.Second))
	must(t, again.ended(5*time.Second))
	n := 0
	for _, m := range f.srv.Hub().Snapshot().Members {
		if m.Name == "ana" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d sessions as ana in the room", n)
	}
	// ana's own session works on; once it is gone, the name is free.
	mark := ana.size()
	ana.press("j")
	must(t, ana.waitFor("Reference", mark, 5*time.Second))
	ana.close()
	must(t, ana.ended(5*time.Second))
	deadline := time.Now().Add(5 * time.Second)
	for {
		tm, err := f.dial(t, "ana", anyone())
		must(t, err)
		if tm.waitFor(home, 0, 5*time.Second) == nil && !strings.Contains(tm.text(), "already connected") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the name stayed taken after ana left")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Only the configured login methods are offered: no password prompt
// without --password (an empty one is never taken), and none but keys
// with only --student-keys.
func TestOnlyConfiguredMethods(t *testing.T) {
	asked := func(f *fixture, user string) (bool, error) {
		was := false
		pw := gossh.PasswordCallback(func() (string, error) { was = true; return "", nil })
		hostPub, _, _ := f.srv.HostKey()
		c, err := gossh.Dial("tcp", f.addr, &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{pw}, HostKeyCallback: gossh.FixedHostKey(hostPub), Timeout: 5 * time.Second})
		if err == nil {
			c.Close()
		}
		return was, err
	}
	open := start(t, nil)
	if was, err := asked(open, "ana"); was || err == nil {
		t.Errorf("an open room asked for a password (%v) or took an empty one (%v)", was, err)
	}
	open.connect(t, "ana", anyone()).must(home) // the open login asks nothing
	_, line := keyPair(t)
	keys := start(t, func(c *classroom.Config) { c.StudentKeys = writeKeys(t, keyLine(line, "ana")) })
	if was, err := asked(keys, "ana"); was || err == nil {
		t.Errorf("a room of keys asked for a password (%v) or let one in (%v)", was, err)
	}
	if _, err := keys.dial(t, "ana", anyone()); err == nil {
		t.Error("a room of keys let in a keyboard-interactive login")
	}
	pass := start(t, func(c *classroom.Config) { c.Password = "s3cret" })
	if was, _ := asked(pass, "ana"); !was {
		t.Error("a room with a password did not ask for it")
	}
}

// A wrong password costs time and a log line (the headless log and the
// dashboard's); after a few from one address even the right one is
// refused for a while.
func TestPasswordGuessing(t *testing.T) {
	log := &syncLog{}
	f := start(t, func(c *classroom.Config) {
		c.Password = "s3cret"
		c.FailDelay = 150 * time.Millisecond
		c.Log = log
	})
	began := time.Now()
	for range 3 {
		if _, err := f.dial(t, "ana", []gossh.AuthMethod{gossh.Password("guess")}); err == nil {
			t.Fatal("a wrong password got in")
		}
	}
	if took := time.Since(began); took < 3*150*time.Millisecond {
		t.Errorf("three wrong passwords took %v, less than their delay", took)
	}
	log.waitLog(t, "a wrong password for ana from 127.0.0.1")
	for range classroom.MaxFailures {
		_, _ = f.dial(t, "ana", []gossh.AuthMethod{gossh.Password("guess")})
	}
	if _, err := f.dial(t, "ana", []gossh.AuthMethod{gossh.Password("s3cret")}); err == nil {
		t.Error("the right password got in right after a run of wrong ones from the same address")
	}
	log.waitLog(t, "may not log in by password for a while")
	found := false
	for _, e := range f.srv.Hub().Snapshot().Events {
		found = found || (e.Kind == "refused" && strings.Contains(e.Text, "wrong password"))
	}
	if !found {
		t.Error("the dashboard's log does not show the wrong passwords")
	}
}

// A terminal that never answers the background and device queries
// gets its first frame at once (dark colours assumed), its first keys
// work, and a late answer to the queries never reaches the app.
func TestSilentTerminalIsNotKeptWaiting(t *testing.T) {
	f := start(t, nil)
	tm, err := f.dialWith(t, "quiet", anyone(), nil, true)
	must(t, err)
	must(t, tm.waitFor(home, 0, 5*time.Second))
	mark := tm.size()
	tm.press("j")
	must(t, tm.waitFor("▸ Reference", mark, 5*time.Second))
	// The answers come late: they are not keys (no "11;rgb" typed, the
	// cursor stays).
	mark = tm.size()
	tm.press("\x1b]11;rgb:ffff/ffff/ffff\x07\x1b[?62;22c")
	time.Sleep(300 * time.Millisecond)
	tm.press("j")
	must(t, tm.waitFor("▸ Agents", mark, 5*time.Second))
}

// An abrupt disconnect is "disconnected" in the log, without wish's
// error line; a refused login (the room full) is in the headless log;
// the address printed is the one asked for; the log says where the
// class listens and its host key.
func TestServerLogLines(t *testing.T) {
	log := &syncLog{}
	f := start(t, func(c *classroom.Config) { c.Log = log; c.MaxSessions = 1 })
	pub, _, _ := f.srv.HostKey()
	log.waitLog(t, "listening on "+f.addr+" · host key "+gossh.FingerprintSHA256(pub))
	yan := f.connect(t, "yan", anyone())
	yan.must(home)
	full := f.connect(t, "zed", anyone())
	full.must("the room is full")
	log.waitLog(t, "zed was turned away: the room is full")
	yan.client.Conn.Close() // the client goes without a word
	log.waitLog(t, "yan left (disconnected)")
	if strings.Contains(log.String(), "app exit with error") || strings.Contains(log.String(), "ERRO") {
		t.Errorf("wish's error line is in the log:\n%s", log.String())
	}
	found := false
	for _, e := range f.srv.Hub().Snapshot().Events {
		found = found || (e.Name == "yan" && strings.Contains(e.Text, "disconnected"))
	}
	if !found {
		t.Error("the dashboard's log does not say yan disconnected")
	}

	opts, _ := content()
	srv, err := classroom.New(classroom.Config{Listen: "0.0.0.0:0", AllowRemote: true, Dir: t.TempDir(), App: opts})
	must(t, err)
	defer srv.Close(time.Second)
	if host, _, _ := net.SplitHostPort(srv.Addr().String()); host != "0.0.0.0" {
		t.Errorf("--listen 0.0.0.0:0 listens on %s", srv.Addr())
	}
}

// A user name in another script is shown as typed in the notice
// ("Zoë", not "Zo\u00eb").
func TestUnicodeNameShownAsTyped(t *testing.T) {
	f := start(t, nil)
	tm := f.connect(t, "Zoë", anyone())
	tm.must("cannot be used as it is")
	if !strings.Contains(tm.text(), `"Zoë"`) {
		t.Errorf("the notice does not show the name as typed:\n%s", tail(tm.text(), 600))
	}
}

// Keys that arrive in one packet (tmux send-keys -l jjj, fast typing)
// each count, over SSH as on a local terminal.
func TestKeysInOnePacket(t *testing.T) {
	f := start(t, nil)
	tm := f.connect(t, "ana", anyone())
	tm.must(home)
	mark := tm.size()
	tm.press("jjj")
	must(t, tm.waitFor("▸ Practice & exam", mark, 5*time.Second))
	mark = tm.size()
	tm.press("kk\r")
	must(t, tm.waitFor("errorlab › Reference", mark, 5*time.Second))
}
