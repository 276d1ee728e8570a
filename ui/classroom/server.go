// Package classroom runs a class over SSH (`errorlab classroom`): every
// student who connects with `ssh -p PORT NAME@HOST` gets the whole app in
// a session of their own (a renderer of their own, so colours fit their
// terminal, and progress of their own under the state directory), and the
// teacher, who holds a key listed in --teacher-keys, gets the dashboard:
// who is connected and where, the room's question with a live tally, the
// keys that send the room somewhere, reveal the answer and export the
// session.
//
// It is built on charmbracelet/wish (v1.4.7): its bubbletea middleware
// runs one Bubble Tea program per session, its activeterm middleware
// refuses sessions without a terminal, and its recover middleware keeps a
// panic in one session from taking the others down. The room's state is
// package room.
//
// Who gets in: a teacher only by key; students by anyone on the loopback
// address, or with --student-keys or --password only those. Listening on
// another address needs AllowRemote. A user name is untrusted: it is
// mapped to a safe name (room.SafeName) before it names a folder or
// reaches the teacher's screen.
package classroom

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	charmlog "github.com/charmbracelet/log"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/charmbracelet/wish/activeterm"
	bm "github.com/charmbracelet/wish/bubbletea"
	wishrecover "github.com/charmbracelet/wish/recover"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	gossh "golang.org/x/crypto/ssh"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/classroom/room"
	"github.com/errorlab/errorlab/ui/common"
	classpage "github.com/errorlab/errorlab/ui/pages/classroom"
	"github.com/errorlab/errorlab/ui/styles"
)

// Defaults of Config.
const (
	DefaultListen      = "127.0.0.1:2222"
	DefaultMaxSessions = 60
	DefaultIdleTimeout = 30 * time.Minute
	DefaultFailDelay   = time.Second
)

// Password guessing: after MaxFailures wrong passwords from one address
// within FailWindow, that address may not log in by password until the
// window has passed.
const (
	MaxFailures = 5
	FailWindow  = time.Minute
)

// Config configures a Server.
type Config struct {
	// Listen is host:port (DefaultListen when ""); port 0 picks a free one.
	Listen string
	// AllowRemote must be set to listen on anything but a loopback
	// address: then anyone who can reach the port can try to log in.
	AllowRemote bool
	// Dir is the class's folder in the state directory: the host key
	// (host_ed25519), students/NAME/progress.json, sessions/ID.json and
	// exports/. Created 0700.
	Dir string
	// HostKey is the host key's file ("" is Dir/host_ed25519), created on
	// the first start (mode 0600) and reused after.
	HostKey string
	// TeacherKeys is an authorized_keys file: whoever logs in with one of
	// its keys is the teacher, whatever their user name. "" names no
	// teacher over SSH (the host's console is the dashboard).
	TeacherKeys string
	// StudentKeys, when set, lets in as students only the keys of this
	// authorized_keys file, each under the name it binds (the comment at
	// the end of its line, or a name="…" option): a key logs in as its
	// own name only, and a bound name only with its key. Password, when
	// set, lets in students who give it (with StudentKeys too: either,
	// but never under a name a key binds). Neither: anyone who reaches
	// the port is a student. The server offers only the methods these
	// make: public keys when there are keys, a password when there is
	// one, and for a room open to anyone a keyboard-interactive login
	// that asks nothing.
	StudentKeys string
	Password    string
	// FailDelay is how long a wrong password holds its login up
	// (DefaultFailDelay when 0; negative: none). After MaxFailures
	// wrong passwords from one address within FailWindow, that address
	// is refused until the window has passed.
	FailDelay time.Duration
	// MaxSessions caps the students' sessions at once (DefaultMaxSessions
	// when 0); the teacher's do not count, and get in when the room is full.
	MaxSessions int
	// IdleTimeout closes a student's session after that long without a
	// key or a click (DefaultIdleTimeout when 0; negative: never).
	IdleTimeout time.Duration
	// App is the app every session runs: the catalogue, the bank, the
	// walkthroughs and the theme (the renderer, progress, clipboard and
	// room are set per session).
	App ui.Options
	// Log receives one line per event (a join, a crash and its stack);
	// nil discards them.
	Log io.Writer
}

// Server is a class over SSH.
type Server struct {
	cfg      Config
	hub      *room.Hub
	srv      *ssh.Server
	ln       net.Listener
	teachers keySet
	students keySet
	hostPub  gossh.PublicKey
	created  bool
	warnings []string

	logMu sync.Mutex

	mu       sync.Mutex
	sessions map[*session]bool
	// byName holds each student's live session: one at a time a name.
	byName  map[string]*session
	conns   int
	closing bool
	wg      sync.WaitGroup

	// failMu serialises password checks from one address (failures),
	// so parallel connections cannot guess faster than one at a time.
	failMu   sync.Mutex
	failures map[string]*failures

	// Hooks the tests set (export_test.go).
	beforeProgram func(name string) // runs before a session's app is built
	wrapModel     func(name string, m tea.Model) tea.Model
}

// session is one SSH session's state, shared by the middleware layers.
type session struct {
	member  *room.Member
	sess    ssh.Session
	name    string
	teacher bool
	notice  string // the mapped name, said in the status line
	since   time.Time

	mu      sync.Mutex
	program *tea.Program
	input   *sessionInput
	reason  string // why it ended: "", idle, closed, crashed
	detail  string
	ran     bool // the program ran to its end (no panic through it)
}

func (s *session) end(reason, detail string) {
	s.mu.Lock()
	if s.reason == "" {
		s.reason, s.detail = reason, detail
	}
	p := s.program
	s.mu.Unlock()
	if p != nil {
		p.Quit()
	}
}

func (s *session) state() (reason, detail string, ran bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reason, s.detail, s.ran
}

type ctxKey struct{}

// ConfigError is a problem with the Config as given (an address, a key
// file, a number): the person starting the class can fix it.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *ConfigError) Unwrap() error { return e.Err }

func configErr(err error) error {
	if err == nil {
		return nil
	}
	return &ConfigError{err}
}

// New prepares a class: it checks the addresses and keys, loads or
// creates the host key, opens the room and starts listening. Warnings
// (listening beyond loopback) are in Warnings. The error says what is
// wrong and what to do.
func New(cfg Config) (*Server, error) {
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxSessions < 0 {
		return nil, configErr(fmt.Errorf("--max-sessions must be at least 1, not %d", cfg.MaxSessions))
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.Dir == "" {
		return nil, errors.New("the classroom needs a state directory")
	}
	if cfg.FailDelay == 0 {
		cfg.FailDelay = DefaultFailDelay
	}
	s := &Server{cfg: cfg, sessions: map[*session]bool{}, byName: map[string]*session{}, failures: map[string]*failures{}}
	// wish's middlewares report through charmbracelet/log's default
	// logger; its lines go to the class's log, never to a terminal the
	// teacher's console may be drawing on.
	charmlog.SetOutput(logWriter{s})
	loopback, err := isLoopback(cfg.Listen)
	if err != nil {
		return nil, configErr(err)
	}
	if !loopback {
		if !cfg.AllowRemote {
			return nil, configErr(fmt.Errorf("--listen %s is not a loopback address: anyone who can reach it could log in. Add --allow-remote to mean it (and --student-keys or --password to say who)", cfg.Listen))
		}
		w := fmt.Sprintf("listening on %s, beyond this machine: anyone who can reach the port can try to log in", cfg.Listen)
		if cfg.StudentKeys == "" && cfg.Password == "" {
			w += ", and every one of them gets in as a student (--student-keys or --password restricts that)"
		}
		s.warnings = append(s.warnings, w)
	}
	if cfg.TeacherKeys != "" {
		if s.teachers, err = loadKeys(cfg.TeacherKeys, "--teacher-keys", false); err != nil {
			return nil, configErr(err)
		}
	}
	if cfg.StudentKeys != "" {
		if s.students, err = loadKeys(cfg.StudentKeys, "--student-keys", true); err != nil {
			return nil, configErr(err)
		}
	}
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("the class's folder %s: %w", cfg.Dir, err)
	}
	if s.cfg.HostKey == "" {
		s.cfg.HostKey = filepath.Join(cfg.Dir, "host_ed25519")
	}
	signer, created, err := hostKey(s.cfg.HostKey)
	if err != nil {
		return nil, configErr(err)
	}
	s.hostPub, s.created = signer.PublicKey(), created

	// Only the login methods the configuration makes are offered: no
	// password prompt where no password is set.
	var auth []ssh.Option
	if len(s.teachers) > 0 || len(s.students) > 0 {
		auth = append(auth, wish.WithPublicKeyAuth(s.publicKey))
	}
	if cfg.Password != "" {
		auth = append(auth, wish.WithPasswordAuth(s.password))
	}
	if cfg.Password != "" || s.openToAll() {
		// With a password: the same password, asked. Open to all: a
		// login that asks nothing (any name gets in).
		auth = append(auth, wish.WithKeyboardInteractiveAuth(s.keyboard))
	}
	s.srv, err = wish.NewServer(append(append([]ssh.Option{
		func(srv *ssh.Server) error { srv.AddHostKey(signer); return nil },
		wish.WithVersion("errorlab-classroom")}, auth...),
		func(srv *ssh.Server) error {
			srv.ConnCallback = s.admitConn
			if cfg.IdleTimeout > 0 {
				// A connection that says nothing at all (one that never
				// logs in, say) is closed too; a session's own idle
				// check is the one that counts keys.
				srv.IdleTimeout = cfg.IdleTimeout + time.Minute
			}
			srv.ServerConfigCallback = func(ssh.Context) *gossh.ServerConfig {
				// A student's agent may offer many keys before the
				// keyboard-interactive login that lets them in.
				return &gossh.ServerConfig{MaxAuthTries: 30}
			}
			return nil
		},
		// The last middleware runs first: a terminal is required, then
		// the room admits the session, then the app runs under wish's
		// recover middleware.
		wish.WithMiddleware(
			wishrecover.MiddlewareWithLogger(s, markRan, s.noteCrash(bm.MiddlewareWithProgramHandler(s.program, termenv.Ascii))),
			s.admit,
			activeterm.Middleware(),
		),
	)...)
	if err != nil {
		return nil, err
	}
	s.ln, err = net.Listen(network(cfg.Listen), cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s: %w (is another class running? pick another port with --listen)", cfg.Listen, err)
	}
	fp := gossh.FingerprintSHA256(s.hostPub)
	s.hub, err = room.New(room.Config{Dir: cfg.Dir, Listen: s.ln.Addr().String(), HostKey: fp})
	if err != nil {
		s.ln.Close()
		return nil, err
	}
	return s, nil
}

// network is "tcp4" for an IPv4 address and "tcp6" for an IPv6 one, so
// the server listens where it was asked (and says so): Go's "tcp" on
// 0.0.0.0 would listen on every IPv6 address as well.
func network(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err == nil && ip != nil {
		if ip.To4() != nil {
			return "tcp4"
		}
		return "tcp6"
	}
	return "tcp"
}

// isLoopback reports whether host:port names a loopback address (an
// IP in 127.0.0.0/8 or ::1, or "localhost").
func isLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("--listen %q is not host:port (for example 127.0.0.1:2222): %v", addr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// Hub is the class's room.
func (s *Server) Hub() *room.Hub { return s.hub }

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// HostKey is the host key's public half, its file, and whether this
// start created it.
func (s *Server) HostKey() (gossh.PublicKey, string, bool) {
	return s.hostPub, s.cfg.HostKey, s.created
}

// Warnings are what the person starting the class must hear (listening
// beyond loopback).
func (s *Server) Warnings() []string { return s.warnings }

// Teachers reports whether any key makes a teacher over SSH.
func (s *Server) Teachers() bool { return len(s.teachers) > 0 }

// Serve answers connections until Close; its error is the listener's
// (nil after Close).
func (s *Server) Serve() error {
	if s.isClosing() {
		return nil
	}
	// The log's first line (server.log under --teacher-console): where
	// the class listens and the key students should see.
	s.logf("class %s listening on %s · host key %s (%s)", s.hub.ID(), s.ln.Addr(), gossh.FingerprintSHA256(s.hostPub), s.cfg.HostKey)
	err := s.srv.Serve(s.ln)
	if errors.Is(err, ssh.ErrServerClosed) || s.isClosing() {
		return nil
	}
	return err
}

func (s *Server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// Close ends the class: every session is told and closed (waiting at
// most grace for them to go), the listener closes, and the room writes
// its record one last time.
func (s *Server) Close(grace time.Duration) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil
	}
	s.closing = true
	live := make([]*session, 0, len(s.sessions))
	for ss := range s.sessions {
		live = append(live, ss)
	}
	s.mu.Unlock()
	for _, ss := range live {
		ss.end("closed", "")
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
	}
	// The listener is closed here too: the ssh server only knows of it
	// once Serve has started, and Close may come first.
	_ = s.ln.Close()
	_ = s.srv.Close() // closes every connection; its error would be the listener's, closed above
	s.hub.Log("left", "", "the class ended")
	return s.hub.Close()
}

// Printf implements wish's recover.Logger: a panic that reached wish's
// recover middleware, with its stack, goes to the log.
func (s *Server) Printf(format string, v ...any) { s.logf(format, v...) }

// logWriter sends another logger's lines to the class's log.
type logWriter struct{ s *Server }

func (w logWriter) Write(p []byte) (int, error) {
	// wish's bubbletea middleware reports a program ended by its
	// session's context as an error; that is a client going away, which
	// the session's own line says ("ana left (disconnected)").
	if bytes.Contains(p, []byte("app exit with error")) && bytes.Contains(p, []byte("context canceled")) {
		return len(p), nil
	}
	w.s.logf("%s", p)
	return len(p), nil
}

func (s *Server) logf(format string, v ...any) {
	if s.cfg.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	msg := strings.TrimRight(fmt.Sprintf(format, v...), "\n")
	fmt.Fprintf(s.cfg.Log, "%s %s\n", time.Now().Format("15:04:05"), msg)
}

// Authentication. Which role a session has is decided after login from
// the key it logged in with (ssh.Session.PublicKey), never from a key it
// only offered and never from its user name.

func (s *Server) publicKey(_ ssh.Context, k ssh.PublicKey) bool {
	return s.teachers.has(k) || s.students.has(k)
}

// openToAll: no key list and no password restrict the students.
func (s *Server) openToAll() bool { return s.students == nil && s.cfg.Password == "" }

func (s *Server) password(ctx ssh.Context, pw string) bool {
	return s.checkPassword(ctx, pw)
}

func (s *Server) keyboard(ctx ssh.Context, ask gossh.KeyboardInteractiveChallenge) bool {
	if s.openToAll() {
		return true // no question: anyone is a student
	}
	if s.cfg.Password == "" {
		return false
	}
	ans, err := ask("", "errorlab classroom: the class password", []string{"Password: "}, []bool{false})
	if err != nil || len(ans) != 1 {
		return false
	}
	return s.checkPassword(ctx, ans[0])
}

// failures are one address's wrong passwords.
type failures struct {
	mu     sync.Mutex // held while a password from the address is checked
	times  []time.Time
	warned bool // the lock-out is logged once
}

// checkPassword compares pw with the class password. One address's
// checks run one at a time; a wrong password costs FailDelay and is
// logged; after MaxFailures in FailWindow the address is refused (even
// the right password) until the window has passed, and that is logged
// once.
func (s *Server) checkPassword(ctx ssh.Context, pw string) bool {
	if s.cfg.Password == "" {
		return false
	}
	ip := hostOf(ctx.RemoteAddr())
	s.failMu.Lock()
	f := s.failures[ip]
	if f == nil {
		f = &failures{}
		s.failures[ip] = f
	}
	s.failMu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	f.times = slices.DeleteFunc(f.times, func(t time.Time) bool { return now.Sub(t) > FailWindow })
	name, _ := room.SafeName(ctx.User())
	if len(f.times) >= MaxFailures {
		if !f.warned {
			f.warned = true
			s.event("refused", name, "%d wrong passwords from %s within %v: that address may not log in by password for a while", len(f.times), ip, FailWindow)
		}
		return false
	}
	if subtle.ConstantTimeCompare([]byte(pw), []byte(s.cfg.Password)) == 1 {
		return true
	}
	f.times = append(f.times, now)
	f.warned = false
	s.event("refused", name, "a wrong password for %s from %s (%d in the last %v)", name, ip, len(f.times), FailWindow)
	if s.cfg.FailDelay > 0 {
		time.Sleep(s.cfg.FailDelay)
	}
	return false
}

// hostOf is an address's host (its IP), without the port.
func hostOf(a net.Addr) string {
	if a == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// event is a line for both logs: the room's (the dashboard) and the
// server's (the terminal, or server.log).
func (s *Server) event(kind, name, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.hub.Log(kind, name, "%s", msg)
	s.logf("%s", msg)
}

// admitConn bounds the connections at once (logged in or not).
func (s *Server) admitConn(_ ssh.Context, c net.Conn) net.Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing || s.conns >= 2*s.cfg.MaxSessions+10 {
		return nil
	}
	s.conns++
	return &countedConn{Conn: c, s: s}
}

type countedConn struct {
	net.Conn
	s    *Server
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.s.mu.Lock()
		c.s.conns--
		c.s.mu.Unlock()
	})
	return c.Conn.Close()
}

// admit is the middleware that lets a session into the room: its role
// from its key, its safe name (bound to its key with --student-keys),
// one live session a name, the session cap; after the app it takes the
// session out of the room and says why it ended.
func (s *Server) admit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		raw := sess.User()
		name, mapped := room.SafeName(raw)
		key := sess.PublicKey()
		ss := &session{sess: sess, name: name, teacher: s.teachers.has(key), since: time.Now()}
		if mapped {
			ss.notice = fmt.Sprintf("your user name %s cannot be used as it is: in this class you are %s", room.Quote(raw, 32), name)
		}
		role := room.Student
		if ss.teacher {
			role = room.Teacher
		}
		if !ss.teacher {
			if msg := s.nameRefusal(raw, name, key); msg != "" {
				s.event("refused", name, "%s was turned away: %s", name, msg)
				refuse(sess, "errorlab classroom: "+msg)
				return
			}
			if msg := s.takeOver(ss); msg != "" {
				s.event("refused", name, "a second session as %s was turned away: %s is connected already", name, name)
				refuse(sess, "errorlab classroom: "+msg)
				return
			}
		}
		s.mu.Lock()
		full := !ss.teacher && s.studentsLocked() >= s.cfg.MaxSessions
		closing := s.closing
		taken := !ss.teacher && s.byName[name] != nil
		if !full && !closing && !taken {
			s.sessions[ss] = true
			if !ss.teacher {
				s.byName[name] = ss
			}
			s.wg.Add(1)
		}
		s.mu.Unlock()
		switch {
		case closing:
			refuse(sess, "errorlab classroom: the class has ended.")
			return
		case full:
			s.event("refused", name, "%s was turned away: the room is full (%s)", name, common.Plural(s.cfg.MaxSessions, "session"))
			refuse(sess, fmt.Sprintf("errorlab classroom: the room is full (%s at once). Try again in a minute, or ask the teacher.", common.Plural(s.cfg.MaxSessions, "session")))
			return
		case taken:
			s.event("refused", name, "a second session as %s was turned away: %s is connected already", name, name)
			refuse(sess, fmt.Sprintf("errorlab classroom: %s is already connected. One session a name: close the other one first, or log in under another name.", name))
			return
		}
		defer s.wg.Done()
		left := func() {
			s.mu.Lock()
			delete(s.sessions, ss)
			if s.byName[name] == ss {
				delete(s.byName, name)
			}
			s.mu.Unlock()
		}
		m, err := s.hub.Join(name, role, sess.RemoteAddr().String())
		if err != nil {
			left()
			refuse(sess, "errorlab classroom: the class has ended.")
			return
		}
		ss.member = m
		if mapped {
			s.hub.Log("joined", name, "%s logged in as %s, a user name that cannot be used as it is", name, room.Quote(raw, 24))
		}
		s.logf("%s joined as %s from %s", name, role, sess.RemoteAddr())
		sess.Context().SetValue(ctxKey{}, ss)

		stopIdle := s.watchIdle(ss)
		next(sess)
		stopIdle()
		ss.mu.Lock()
		if ss.input != nil {
			_ = ss.input.Close()
		}
		ss.mu.Unlock()
		left() // its place is free before the room hears it left

		reason, detail, ran := ss.state()
		switch {
		case !ran && reason == "":
			reason, detail = "crashed", "the session stopped before its app ended"
		case reason == "" && sess.Context().Err() != nil:
			// The client went (its connection closed, ssh killed): the
			// app did not quit, it was cut off.
			reason = "disconnected"
		}
		// Leave the alternate screen and show the cursor: after a crash
		// the app could not.
		restore := ansi.ResetModeAltScreenSaveCursor + ansi.ShowCursor + ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseExtSgr
		switch reason {
		case "crashed":
			m.Leave("crashed", detail)
			s.logf("%s: the session crashed: %s", name, detail)
			fmt.Fprint(sess, restore+"\r\nerrorlab stopped on an internal error and closed this session; the teacher can see that it did.\r\nYour progress is saved: connect again to carry on.\r\n")
			_ = sess.Exit(1)
		case "idle":
			m.Leave("idle", detail)
			fmt.Fprintf(sess, "%s\r\nerrorlab classroom: closed after %s without a key. Your progress is saved: connect again to carry on.\r\n", restore, detail)
			_ = sess.Exit(0)
		case "closed":
			m.Leave("left", "")
			fmt.Fprint(sess, restore+"\r\nerrorlab classroom: the class has ended. Your progress is saved.\r\n")
			_ = sess.Exit(0)
		case "replaced":
			m.Leave("disconnected", "")
			_ = sess.Exit(0)
		case "disconnected":
			m.Leave("disconnected", "")
		default:
			m.Leave("left", "")
			_ = sess.Exit(0)
		}
		s.logf("%s left (%s)", name, orWord(reason, "quit"))
	}
}

// nameRefusal is why a student may not log in under this name with
// this key ("": they may). With --student-keys, a key logs in as the
// name it binds only, and a name a key binds only with that key (not by
// the password).
func (s *Server) nameRefusal(raw, name string, key ssh.PublicKey) string {
	if s.students == nil {
		return ""
	}
	if bound, ok := s.students.nameOf(key); ok {
		if raw != bound {
			return fmt.Sprintf("this key is %s's: log in as %s (ssh -p PORT %s@HOST), not as %s.", bound, bound, bound, room.Quote(raw, 32))
		}
		return ""
	}
	if s.students.binds(name) {
		return fmt.Sprintf("the name %s belongs to a student's key: log in with that key, or under your own name.", name)
	}
	return ""
}

// takeOver lets ss have its name: "" when no other session holds it, or
// the one that does no longer answers (a dropped connection the server
// has not noticed yet: it is closed); otherwise why not.
func (s *Server) takeOver(ss *session) string {
	s.mu.Lock()
	other := s.byName[ss.name]
	s.mu.Unlock()
	if other == nil {
		return ""
	}
	if other.alive(aliveWait) {
		return fmt.Sprintf("%s is already connected (since %s, from %s). One session a name: close the other one first, or log in under another name.",
			ss.name, other.since.Format("15:04"), hostOf(other.sess.RemoteAddr()))
	}
	s.logf("%s: the earlier session does not answer; the new one takes its place", ss.name)
	other.end("replaced", "")
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		gone := s.byName[ss.name] != other
		s.mu.Unlock()
		if gone {
			return ""
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Sprintf("%s is already connected, and that session is still closing: try again in a moment.", ss.name)
}

// aliveWait is how long a session has to answer a keep-alive before a
// new session under its name takes its place.
var aliveWait = 2 * time.Second

// alive asks the session's client for a keep-alive answer (any answer:
// an ssh client refuses the request, and that is an answer) within d.
func (ss *session) alive(d time.Duration) bool {
	done := make(chan bool, 1)
	go func() {
		_, err := ss.sess.SendRequest("keepalive@openssh.com", true, nil)
		done <- err == nil
	}()
	select {
	case ok := <-done:
		return ok
	case <-time.After(d):
		return false
	}
}

// studentsLocked counts the students' sessions (the teacher's do not
// count against MaxSessions). s.mu is held.
func (s *Server) studentsLocked() int {
	n := 0
	for ss := range s.sessions {
		if !ss.teacher {
			n++
		}
	}
	return n
}

// refuse says why a session is not let in, on the terminal, and ends it.
func refuse(sess ssh.Session, msg string) {
	fmt.Fprint(sess, msg+"\r\n")
	_ = sess.Exit(1)
}

func orWord(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// watchIdle ends a student's session after IdleTimeout without input;
// the returned function stops watching.
func (s *Server) watchIdle(ss *session) func() {
	limit := s.cfg.IdleTimeout
	if limit <= 0 || ss.teacher {
		return func() {}
	}
	stop := make(chan struct{})
	every := min(max(limit/4, 10*time.Millisecond), 30*time.Second)
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if ss.member.Idle() >= limit {
					ss.end("idle", limit.String())
					return
				}
			}
		}
	}()
	return func() { close(stop) }
}

// markRan runs after the app's program has ended without a panic going
// through (the bubbletea middleware's next).
func markRan(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if ss, ok := sess.Context().Value(ctxKey{}).(*session); ok {
			ss.mu.Lock()
			ss.ran = true
			ss.mu.Unlock()
		}
		next(sess)
	}
}

// noteCrash sits inside wish's recover middleware: a panic on its way
// through marks the session as crashed (with the panic's words), then
// goes on to be recovered and logged with its stack.
func (s *Server) noteCrash(next wish.Middleware) wish.Middleware {
	return func(h ssh.Handler) ssh.Handler {
		inner := next(h)
		return func(sess ssh.Session) {
			defer func() {
				if r := recover(); r != nil {
					if ss, ok := sess.Context().Value(ctxKey{}).(*session); ok {
						ss.mu.Lock()
						ss.reason, ss.detail = "crashed", fmt.Sprint(r)
						ss.mu.Unlock()
					}
					panic(r)
				}
			}()
			inner(sess)
		}
	}
}

// program builds the session's app: a student's whole errorlab (their
// progress, their room), or the teacher's dashboard.
func (s *Server) program(sess ssh.Session) *tea.Program {
	ss, ok := sess.Context().Value(ctxKey{}).(*session)
	if !ok {
		return nil
	}
	if s.beforeProgram != nil {
		s.beforeProgram(ss.name)
	}
	opts := s.cfg.App
	// The session's keyboard and renderer: the background asked for
	// without holding up the first frame (term.go).
	in := newSessionInput(sess)
	ss.mu.Lock()
	ss.input = in
	ss.mu.Unlock()
	opts.Renderer = sessionRenderer(sess, in)
	if t, ok := sessionTheme(sess); ok {
		opts.Theme = t
	}
	opts.Clipboard = sess
	opts.ScenarioID, opts.Quiz, opts.WalkthroughID = "", nil, ""
	// Every session of the class runs on this machine as the user who
	// started it, for someone at another keyboard: it may touch nothing
	// on the host but its own folder (no Check a server, no Serve, no
	// walkthrough link; w only into the student's folder).
	opts.Confined, opts.ExportDir = true, ""
	if ss.teacher {
		opts.Progress = ui.NewMemoryProgress()
		opts.Teacher = &ui.TeacherStart{Hub: s.hub, Opts: classpage.DashboardOptions{ExportDir: filepath.Join(s.cfg.Dir, "exports")}}
	} else {
		dir := filepath.Join(s.cfg.Dir, "students", ss.name)
		if !filepath.IsLocal(filepath.Join("students", ss.name)) {
			panic("unsafe student folder " + room.Quote(ss.name, 40)) // SafeName guarantees it cannot happen
		}
		store, err := quiz.Open(dir)
		if err != nil {
			opts.Progress = ui.NewMemoryProgress()
			opts.Notice = "⚠ your progress cannot be saved on the server this session; tell the teacher"
			s.logf("%s: progress not saved: %v", ss.name, err)
		} else {
			opts.Progress = store
			switch {
			case store.Salvage != "":
				opts.Notice = fmt.Sprintf("⚠ your progress file could not be read whole (it %s): what could be read was carried over, and the original kept aside on the server; tell the teacher", store.Salvage)
			case store.Notice != "":
				opts.Notice = "⚠ your progress file could not be read; it was kept aside and a fresh one started"
			}
			if store.Notice != "" {
				opts.NoticeDetail = opts.Notice
				s.logf("%s: %s", ss.name, store.Notice)
			}
		}
		opts.ExportDir = dir
		opts.Room = ss.member.Room()
	}
	if ss.notice != "" {
		opts.Notice = ss.notice
	}
	var m tea.Model = ui.New(opts)
	if s.wrapModel != nil {
		m = s.wrapModel(ss.name, m)
	}
	g := &guard{inner: m, touch: ss.member.Touch, crash: func(what string, stack []byte) {
		s.logf("%s: panic in the app: %s\n%s", ss.name, what, stack)
		ss.mu.Lock()
		if ss.reason == "" {
			ss.reason, ss.detail = "crashed", what
		}
		ss.mu.Unlock()
	}}
	p := tea.NewProgram(g, tea.WithInput(in), tea.WithOutput(sess), tea.WithAltScreen(), tea.WithMouseCellMotion(),
		tea.WithFPS(60), tea.WithoutSignalHandler(), tea.WithContext(sess.Context()))
	g.program = p
	ss.mu.Lock()
	ss.program = p
	if ss.reason != "" { // ended while it was being built
		p.Quit()
	}
	ss.mu.Unlock()
	if !ss.teacher {
		ss.member.Attach(p.Send)
	}
	return p
}

// ThemeEnv is the variable a student's ssh client may send (`ssh -o
// SetEnv=ERRORLAB_THEME=light`) to pick their own theme, as
// ERRORLAB_THEME does on the command line.
const ThemeEnv = "ERRORLAB_THEME"

// sessionTheme is the theme the session's client asked for, if it is
// one errorlab has (an unknown name is ignored: the class's theme stays).
func sessionTheme(sess ssh.Session) (styles.Theme, bool) {
	for _, kv := range sess.Environ() {
		if v, ok := strings.CutPrefix(kv, ThemeEnv+"="); ok {
			t, err := styles.ParseTheme(v)
			return t, err == nil
		}
	}
	return "", false
}

// guard wraps a session's app: a panic in Init, Update or View, or in a
// command, ends that session (it is reported through crash) instead of
// the whole server, and every key or click counts as activity for the
// idle timeout.
type guard struct {
	inner   tea.Model
	touch   func()
	crash   func(what string, stack []byte)
	program *tea.Program
	dead    bool
}

// crashMsg carries a panic out of a command into the program's loop.
type crashMsg struct {
	what  string
	stack []byte
}

func (g *guard) recovered(r any) {
	if g.dead {
		return
	}
	g.dead = true
	g.crash(oneLine(fmt.Sprint(r)), debug.Stack())
}

// oneLine is a panic's words on one line, 300 bytes at most.
func oneLine(s string) string {
	s = common.OneLineText(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

func (g *guard) Init() (cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			g.recovered(r)
			cmd = tea.Quit
		}
	}()
	return g.wrap(g.inner.Init())
}

func (g *guard) Update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	switch msg := msg.(type) {
	case crashMsg:
		if !g.dead {
			g.dead = true
			g.crash(msg.what, msg.stack)
		}
		return g, tea.Quit
	case tea.KeyMsg, tea.MouseMsg:
		g.touch()
	}
	if g.dead {
		return g, tea.Quit
	}
	defer func() {
		if r := recover(); r != nil {
			g.recovered(r)
			m, cmd = g, tea.Quit
		}
	}()
	inner, c := g.inner.Update(msg)
	g.inner = inner
	return g, g.wrap(c)
}

func (g *guard) View() (v string) {
	if g.dead {
		return ""
	}
	defer func() {
		if r := recover(); r != nil {
			g.recovered(r)
			v = ""
			if g.program != nil {
				go g.program.Quit()
			}
		}
	}()
	return g.inner.View()
}

// wrap makes a command's panic a crashMsg; a batch's commands are
// wrapped as they are unpacked.
func (g *guard) wrap(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = crashMsg{what: oneLine(fmt.Sprint(r)), stack: debug.Stack()}
			}
		}()
		msg = cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			out := make(tea.BatchMsg, len(b))
			for i, c := range b {
				out[i] = g.wrap(c)
			}
			return out
		}
		return msg
	}
}

// Wait for the server in tests and the command: ServeContext serves
// until ctx ends, then closes the class.
func (s *Server) ServeContext(ctx context.Context, grace time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- s.Serve() }()
	select {
	case <-ctx.Done():
		return s.Close(grace)
	case err := <-errc:
		_ = s.Close(grace)
		return err
	}
}
