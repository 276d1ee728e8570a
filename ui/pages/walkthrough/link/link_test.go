package link

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"
)

// guard only fails a test that would otherwise hang: every wait is on a
// channel, never on the clock.
const guard = 5 * time.Second

// sockPath is a socket path in a fresh directory that Host will create,
// short enough for a socket address.
func sockPath(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "l", "w.sock")
	if len(p) > maxSocketPath {
		d, err := os.MkdirTemp("/tmp", "el")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		p = filepath.Join(d, "l", "w.sock")
	}
	return p
}

func host(t *testing.T, path string, initial State) *Link {
	t.Helper()
	h, err := Host(path, initial)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func join(t *testing.T, path string) *Link {
	t.Helper()
	j, err := Join(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func next(t *testing.T, l *Link) State {
	t.Helper()
	select {
	case s, ok := <-l.Updates():
		if !ok {
			t.Fatal("Updates closed")
		}
		return s
	case <-time.After(guard):
		t.Fatal("no state within the guard")
	}
	return State{}
}

func event(t *testing.T, l *Link, kind EventKind) Event {
	t.Helper()
	select {
	case e, ok := <-l.Events():
		if !ok {
			t.Fatal("Events closed")
		}
		if e.Kind != kind {
			t.Fatalf("event %v %q, want %v", e.Kind, e.Text, kind)
		}
		return e
	case <-time.After(guard):
		t.Fatalf("no %v event within the guard", kind)
	}
	return Event{}
}

// expect checks where a state is, Seq aside.
func expect(t *testing.T, got State, step, part int, blank string) {
	t.Helper()
	if got.Walkthrough != "w" || got.Step != step || got.Part != part || got.Blank != blank {
		t.Fatalf("state %+v, want step %d part %d blank %q", got, step, part, blank)
	}
}

func send(t *testing.T, l *Link, s State) {
	t.Helper()
	if err := l.Send(s); err != nil {
		t.Fatal(err)
	}
}

func TestEitherSideDrivesAndTheOthersFollow(t *testing.T) {
	path := sockPath(t)
	started := time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC)
	h := host(t, path, State{Walkthrough: "w", Started: started, Seq: 99})
	a := join(t, path)
	event(t, h, PeerJoined)
	b := join(t, path)
	if e := event(t, h, PeerJoined); !strings.Contains(e.Text, "2 presenter views linked") {
		t.Errorf("joined: %q", e.Text)
	}
	if h.Peers() != 2 || a.Peers() != 1 || b.Peers() != 1 {
		t.Fatalf("peers: host %d, a %d, b %d", h.Peers(), a.Peers(), b.Peers())
	}
	for _, j := range []*Link{a, b} {
		s := next(t, j) // the catch-up
		expect(t, s, 0, 0, "")
		if s.Seq != 1 || !s.Started.Equal(started) {
			t.Fatalf("catch-up %+v: want Seq 1 (the link's, not the caller's) and the start time", s)
		}
	}

	send(t, h, State{Walkthrough: "w", Step: 1})
	expect(t, next(t, a), 1, 0, "")
	expect(t, next(t, b), 1, 0, "")

	send(t, a, State{Walkthrough: "w", Step: 2, Part: 1})
	expect(t, next(t, h), 2, 1, "")
	expect(t, next(t, b), 2, 1, "")

	send(t, b, State{Walkthrough: "w", Step: 3})
	expect(t, next(t, h), 3, 0, "")
	expect(t, next(t, a), 3, 0, "")

	// No echo: each side's next state is the host's next move, not its own.
	send(t, h, State{Walkthrough: "w", Step: 3, Blank: "black"})
	expect(t, next(t, a), 3, 0, "black")
	expect(t, next(t, b), 3, 0, "black")
	send(t, a, State{Walkthrough: "w", Step: 4})
	expect(t, next(t, h), 4, 0, "")
	expect(t, next(t, b), 4, 0, "")
	send(t, h, State{Walkthrough: "w", Step: 5})
	expect(t, next(t, a), 5, 0, "")
	expect(t, next(t, b), 5, 0, "")
}

func TestLateJoinerCatchesUp(t *testing.T) {
	path := sockPath(t)
	h := host(t, path, State{Walkthrough: "w"})
	a := join(t, path)
	next(t, a)
	send(t, a, State{Walkthrough: "w", Step: 4, Part: 2})
	expect(t, next(t, h), 4, 2, "")

	c := join(t, path)
	expect(t, next(t, c), 4, 2, "") // a presenter's move is the current state too

	send(t, h, State{Walkthrough: "w", Step: 4, Part: 2, Blank: "white"})
	expect(t, next(t, a), 4, 2, "white")
	expect(t, next(t, c), 4, 2, "white")
	d := join(t, path)
	expect(t, next(t, d), 4, 2, "white")
}

func TestAudienceGonePresenterCarriesOn(t *testing.T) {
	path := sockPath(t)
	h, err := Host(path, State{Walkthrough: "w"})
	if err != nil {
		t.Fatal(err)
	}
	a := join(t, path)
	b := join(t, path)
	next(t, a)
	next(t, b)
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	for _, j := range []*Link{a, b} {
		e := event(t, j, Lost)
		if e.Text != "the audience view has gone; carrying on alone" {
			t.Errorf("lost: %q", e.Text)
		}
		if j.Peers() != 0 {
			t.Errorf("peers after lost: %d", j.Peers())
		}
		err := j.Send(State{Walkthrough: "w", Step: 1})
		if !errors.Is(err, ErrAudienceGone) || !strings.Contains(err.Error(), "audience view has gone") {
			t.Errorf("Send after lost: %v", err)
		}
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the socket file outlived Close: %v", err)
	}
	if _, err := Join(path); !errors.Is(err, ErrNoAudience) {
		t.Errorf("Join after the host closed: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Error(err)
	}
}

func TestPresenterLeaves(t *testing.T) {
	path := sockPath(t)
	h := host(t, path, State{Walkthrough: "w"})
	a, err := Join(path)
	if err != nil {
		t.Fatal(err)
	}
	event(t, h, PeerJoined)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	e := event(t, h, PeerLeft)
	if e.Text != "a presenter view left; no presenter view linked" {
		t.Errorf("left: %q", e.Text)
	}
	if h.Peers() != 0 {
		t.Errorf("peers: %d", h.Peers())
	}
	send(t, h, State{Walkthrough: "w", Step: 1}) // alone is fine for the host
}

func TestCloseEndsTheChannels(t *testing.T) {
	path := sockPath(t)
	h := host(t, path, State{Walkthrough: "w"})
	a := join(t, path)
	next(t, a)
	for _, l := range []*Link{a, h} {
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		if err := l.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if err := l.Send(State{Walkthrough: "w"}); !errors.Is(err, ErrClosed) {
			t.Errorf("Send after Close: %v", err)
		}
		for range l.Updates() {
		}
		for e := range l.Events() {
			if e.Kind == Lost {
				t.Errorf("own Close reported as %q", e.Text)
			}
		}
	}
}

// rawClient is a presenter that speaks the wire by hand.
type rawClient struct {
	c net.Conn
	r *bufio.Reader
}

func dialRaw(t *testing.T, path string) *rawClient {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawClient{c: c, r: bufio.NewReader(c)}
}

func (rc *rawClient) line(t *testing.T) string {
	t.Helper()
	rc.c.SetReadDeadline(time.Now().Add(guard))
	s, err := rc.r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading: %v", err)
	}
	return s
}

func (rc *rawClient) write(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := rc.c.Write([]byte(l + "\n")); err != nil {
			t.Fatalf("writing: %v", err)
		}
	}
}

// hello greets the host as a presenter and reads its catch-up.
func (rc *rawClient) hello(t *testing.T) State {
	t.Helper()
	var h hello
	if err := json.Unmarshal([]byte(rc.line(t)), &h); err != nil {
		t.Fatal(err)
	}
	if h.Hello != protocolName || h.Version != protocolVersion || h.Role != roleAudience || h.Walkthrough != "w" {
		t.Fatalf("host's hello: %+v", h)
	}
	rc.write(t, `{"hello":"errorlab-walkthrough-link","version":1,"role":"presenter"}`)
	var s State
	if err := json.Unmarshal([]byte(rc.line(t)), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHostDropsStaleStates(t *testing.T) {
	path := sockPath(t)
	h := host(t, path, State{Walkthrough: "w"})
	rc := dialRaw(t, path)
	if s := rc.hello(t); s.Seq != 1 {
		t.Fatalf("catch-up %+v", s)
	}
	event(t, h, PeerJoined)
	rc.write(t, `{"walkthrough":"w","step":5,"seq":5}`, `{"walkthrough":"w","step":3,"seq":3}`, `{"walkthrough":"w","step":6,"seq":5}`)
	rc.c.Close()
	// The host reads the lines in order before it sees the end, so by the
	// time it says the presenter left, Updates holds the last state taken.
	event(t, h, PeerLeft)
	s := next(t, h)
	expect(t, s, 5, 0, "")
	if s.Seq != 5 {
		t.Fatalf("Seq %d", s.Seq)
	}
	j := join(t, path)
	if s := next(t, j); s.Step != 5 || s.Seq != 5 {
		t.Fatalf("catch-up after stale states: %+v", s)
	}
}

// fakeHost is an audience view that speaks the wire by hand; it answers
// one presenter with the lines of serve.
func fakeHost(t *testing.T, path string, serve func(c net.Conn, r *bufio.Reader)) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { ln.Close(); <-done })
	go func() {
		defer close(done)
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		serve(c, bufio.NewReader(c))
	}()
}

func TestPresenterDropsStaleStatesAndTakesTheHostsOnATie(t *testing.T) {
	path := sockPath(t)
	got := make(chan string, 1)
	fakeHost(t, path, func(c net.Conn, r *bufio.Reader) {
		fmt.Fprintln(c, `{"hello":"errorlab-walkthrough-link","version":1,"role":"audience","walkthrough":"w"}`)
		r.ReadString('\n') // the presenter's hello
		fmt.Fprintln(c, `{"walkthrough":"w","step":5,"seq":5}`)
		fmt.Fprintln(c, `{"walkthrough":"w","step":3,"seq":3}`)
		move, _ := r.ReadString('\n') // the presenter's move, seq 6
		got <- move
		fmt.Fprintln(c, `{"walkthrough":"w","step":7,"seq":6}`) // the host's own move 6 won
	})
	j := join(t, path)
	expect(t, next(t, j), 5, 0, "")
	send(t, j, State{Walkthrough: "w", Step: 9})
	select {
	case move := <-got:
		var s State
		if err := json.Unmarshal([]byte(move), &s); err != nil || s.Seq != 6 || s.Step != 9 {
			t.Fatalf("presenter's move %q (%v)", move, err)
		}
	case <-time.After(guard):
		t.Fatal("the fake host got no move")
	}
	event(t, j, Lost)
	// Step 3 (seq 3 after 5) was dropped; on the tie at 6 the host's won.
	expect(t, next(t, j), 7, 0, "")
}

func TestReceiveOrdersBySeq(t *testing.T) {
	for _, c := range []struct {
		host bool
		seq  uint64
		want bool
	}{
		{true, 4, false}, {true, 5, false}, {true, 6, true},
		{false, 4, false}, {false, 5, true}, {false, 6, true},
	} {
		l := newLink(c.host)
		l.cur = State{Walkthrough: "w", Seq: 5}
		applied, err := l.receive(nil, State{Walkthrough: "w", Step: 1, Seq: c.seq})
		if err != nil || applied != c.want {
			t.Errorf("host %v, seq %d after 5: applied %v (%v), want %v", c.host, c.seq, applied, err, c.want)
		}
		if applied != (len(l.updates) == 1) {
			t.Errorf("host %v, seq %d: applied %v but %d on Updates", c.host, c.seq, applied, len(l.updates))
		}
	}
	l := newLink(true)
	l.cur = State{Walkthrough: "w", Seq: 5}
	if _, err := l.receive(nil, State{Walkthrough: "other", Seq: 9}); !errors.Is(err, errForeign) {
		t.Errorf("another walkthrough's state: %v", err)
	}
}

func TestUpdatesKeepTheNewest(t *testing.T) {
	l := newLink(false)
	for seq := uint64(1); seq <= 10; seq++ {
		if _, err := l.receive(nil, State{Walkthrough: "w", Step: int(seq), Seq: seq}); err != nil {
			t.Fatal(err)
		}
	}
	if s := <-l.updates; s.Seq != 10 || len(l.updates) != 0 {
		t.Fatalf("got %+v with %d behind it", s, len(l.updates))
	}
	for i := range 2 * eventBuffer {
		l.emit(Event{PeerLeft, fmt.Sprint(i)})
	}
	if e := <-l.events; e.Text != fmt.Sprint(eventBuffer) {
		t.Fatalf("oldest event kept: %q", e.Text)
	}
}

func TestBadLinesDropThePresenterNotTheHost(t *testing.T) {
	path := sockPath(t)
	h := host(t, path, State{Walkthrough: "w"})
	pad := func(n int) string {
		s := `{"walkthrough":"w","step":1,"seq":2}`
		return s + strings.Repeat(" ", n-len(s)-1) // n bytes with the newline
	}
	for _, c := range []struct{ name, line, text string }{
		{"not json", `not json`, "malformed"},
		{"null", `null`, "names no walkthrough"},
		{"wrong type", `{"walkthrough":"w","step":"two","seq":3}`, "malformed"},
		{"negative step", `{"walkthrough":"w","step":-1,"seq":3}`, "before the first step"},
		{"unknown blank", `{"walkthrough":"w","blank":"grey","seq":3}`, "neither black nor white"},
		{"no seq", `{"walkthrough":"w","step":1}`, "without a seq"},
		{"another walkthrough", `{"walkthrough":"x","step":1,"seq":3}`, `drives walkthrough "x"`},
		{"oversized", pad(MaxLine + 1), "over 4 KiB"},
		{"oversized without newline", strings.Repeat("x", 3*MaxLine), "over 4 KiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rc := dialRaw(t, path)
			rc.hello(t)
			event(t, h, PeerJoined)
			rc.write(t, c.line)
			e := event(t, h, PeerLeft)
			if !strings.Contains(e.Text, c.text) || !strings.Contains(e.Text, "disconnected") {
				t.Errorf("left: %q, want it to say %q", e.Text, c.text)
			}
			rc.c.SetReadDeadline(time.Now().Add(guard))
			if _, err := rc.r.ReadString('\n'); err == nil {
				t.Error("the host kept the connection")
			}
		})
	}

	t.Run("a full line is fine", func(t *testing.T) {
		rc := dialRaw(t, path)
		rc.hello(t)
		event(t, h, PeerJoined)
		rc.write(t, pad(MaxLine))
		expect(t, next(t, h), 1, 0, "")
		rc.c.Close()
		event(t, h, PeerLeft)
	})

	for _, c := range []struct{ name, line, text string }{
		{"garbage hello", `GET / HTTP/1.1`, "does not speak the walkthrough link protocol"},
		{"another version", `{"hello":"errorlab-walkthrough-link","version":99,"role":"presenter"}`, "version 99"},
		{"another role", `{"hello":"errorlab-walkthrough-link","version":1,"role":"audience"}`, `"audience" view`},
		{"oversized hello", strings.Repeat("{", MaxLine+10), "over 4096 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rc := dialRaw(t, path)
			rc.line(t) // the host's hello
			rc.write(t, c.line)
			e := event(t, h, Refused)
			if !strings.Contains(e.Text, c.text) {
				t.Errorf("refused: %q, want it to say %q", e.Text, c.text)
			}
		})
	}

	// The host still presents, and presenters still drive.
	j := join(t, path)
	event(t, h, PeerJoined)
	expect(t, next(t, j), 1, 0, "")
	send(t, j, State{Walkthrough: "w", Step: 2})
	expect(t, next(t, h), 2, 0, "")
	send(t, h, State{Walkthrough: "w", Step: 3})
	expect(t, next(t, j), 3, 0, "")
}

func TestJoinSaysNoAudienceIsRunning(t *testing.T) {
	dir := filepath.Dir(sockPath(t))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "walkthrough-demo.sock")
	_, err := Join(path)
	if !errors.Is(err, ErrNoAudience) {
		t.Fatalf("Join with no socket: %v", err)
	}
	for _, want := range []string{"no audience view is running", `"demo"`, "`errorlab walkthrough demo`", "--presenter"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}

	stale(t, path)
	if _, err := Join(path); !errors.Is(err, ErrNoAudience) {
		t.Fatalf("Join with a stale socket: %v", err)
	}

	other := filepath.Join(dir, "x.sock")
	if _, err := Join(other); !errors.Is(err, ErrNoAudience) || !strings.Contains(err.Error(), "errorlab walkthrough NAME") {
		t.Fatalf("Join on a path of no walkthrough: %v", err)
	}
}

func TestJoinRefusesAnotherProtocol(t *testing.T) {
	for _, c := range []struct{ name, hello, want string }{
		{"version", `{"hello":"errorlab-walkthrough-link","version":99,"role":"audience"}`, "version 99"},
		{"garbage", `SSH-2.0-OpenSSH`, "does not speak the walkthrough link protocol"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := sockPath(t)
			fakeHost(t, path, func(conn net.Conn, r *bufio.Reader) {
				fmt.Fprintln(conn, c.hello)
				r.ReadString('\n')
			})
			_, err := Join(path)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Join: %v, want it to say %q", err, c.want)
			}
		})
	}
}

// stale leaves a socket file that nobody listens on, as a killed
// audience view would.
func stale(t *testing.T, path string) {
	t.Helper()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Type() != fs.ModeSocket {
		t.Fatalf("no stale socket: %v", err)
	}
}

func TestSocketIsPrivate(t *testing.T) {
	path := sockPath(t)
	host(t, path, State{Walkthrough: "w"})
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != fs.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want a socket 0600", fi.Mode())
	}
	di, err := os.Lstat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if !di.IsDir() || di.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", di.Mode())
	}
}

func TestHostRefusesAnOpenDirectoryOrAFileInTheWay(t *testing.T) {
	dir := filepath.Dir(sockPath(t))
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Host(filepath.Join(dir, "w.sock"), State{Walkthrough: "w"})
	if err == nil || !strings.Contains(err.Error(), "open to other users (mode 0755)") {
		t.Errorf("Host in an open directory: %v", err)
	}
	if fi, _ := os.Lstat(dir); fi.Mode().Perm() != 0o755 {
		t.Errorf("Host changed a directory it did not make: %v", fi.Mode())
	}

	os.Chmod(dir, 0o700)
	file := filepath.Join(dir, "f.sock")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Host(file, State{Walkthrough: "w"}); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Host over a file: %v", err)
	}
	if _, err := os.Lstat(file); err != nil {
		t.Errorf("Host removed a file that is not a socket: %v", err)
	}
}

func TestStaleSocketIsReplacedLiveOneRefused(t *testing.T) {
	path := sockPath(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	stale(t, path)
	h := host(t, path, State{Walkthrough: "w"})

	_, err := Host(path, State{Walkthrough: "w"})
	if !errors.Is(err, ErrAlreadyPresenting) || !strings.Contains(err.Error(), "already presenting") {
		t.Fatalf("a second host: %v", err)
	}
	// The first one still presents, and the second one's probe was no
	// presenter.
	j := join(t, path)
	expect(t, next(t, j), 0, 0, "")
	event(t, h, PeerJoined)
	if h.Peers() != 1 {
		t.Errorf("peers: %d", h.Peers())
	}
}

func TestSendAndHostRefuseWhatIsNoState(t *testing.T) {
	path := sockPath(t)
	if _, err := Host(path, State{}); err == nil || !strings.Contains(err.Error(), "names no walkthrough") {
		t.Errorf("Host with no walkthrough: %v", err)
	}
	h := host(t, path, State{Walkthrough: "w"})
	for _, c := range []struct {
		s    State
		want string
	}{
		{State{}, "names no walkthrough"},
		{State{Walkthrough: "w", Step: -1}, "step -1 is before the first step"},
		{State{Walkthrough: "w", Part: -2}, "part -2"},
		{State{Walkthrough: "w", Blank: "grey"}, `blank "grey"`},
		{State{Walkthrough: strings.Repeat("w", MaxLine)}, "more than a line may"},
	} {
		if err := h.Send(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Send(%.40v): %v, want %q", c.s, err, c.want)
		}
	}
}

// TestConcurrentDrivingConverges has every side drive at once; once the
// host has read every move, all sides come to the host's state.
func TestConcurrentDrivingConverges(t *testing.T) {
	path := sockPath(t)
	h := host(t, path, State{Walkthrough: "w"})
	a := join(t, path)
	b := join(t, path)
	next(t, a)
	next(t, b)
	const moves = 200
	var wg sync.WaitGroup
	for i, l := range []*Link{h, a, b} {
		wg.Go(func() {
			for n := range moves {
				if err := l.Send(State{Walkthrough: "w", Step: i*1000 + n, Part: n % 3}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	cur := func(l *Link) State {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.cur
	}
	// The one wait that is not on a channel: the host reading the last
	// move of each presenter (the guard only ends a hung test).
	read := func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		last := map[int]bool{}
		for p := range h.peers {
			last[p.last.Step] = true
		}
		return last[1000+moves-1] && last[2000+moves-1]
	}
	for end := time.Now().Add(guard); !read(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the host never read the presenters' last moves")
		}
	}
	want := cur(h)
	for _, j := range []*Link{a, b} {
		for {
			if cur(j) == want {
				break
			}
			next(t, j) // Updates holds the newest state taken; wait for more
		}
	}
	// Nobody moves any more: a last move of the host's reaches everyone.
	send(t, h, State{Walkthrough: "w", Step: 9999})
	for _, j := range []*Link{a, b} {
		for next(t, j).Step != 9999 { // the slot may still hold the last state
		}
	}
}

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"four-failures-one-afternoon": "four-failures-one-afternoon",
		"Four Failures/../One":        "four-failures-one",
		"--x__y--":                    "x-y",
		"":                            "unnamed",
		"é/ü":                         "unnamed",
		"Step 7: ÉTÉ":                 "step-7-t",
	} {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%q) = %q, want %q", in, got, want)
		}
	}
	long1, long2 := sanitize(strings.Repeat("a", 60)+"1"), sanitize(strings.Repeat("a", 60)+"2")
	if len(long1) > maxID || long1 == long2 || strings.Trim(long1, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
		t.Errorf("long ids: %q and %q", long1, long2)
	}
}

func TestSocketPath(t *testing.T) {
	t.Cleanup(xdg.Reload) // after t.Setenv has put the environment back
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	fallback := filepath.Join(tmp, fmt.Sprintf("errorlab-%d", os.Getuid()))

	runtime := filepath.Join(tmp, "run")
	if err := os.Mkdir(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(tmp, "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o755)
	deep := filepath.Join(runtime, strings.Repeat("d", 80))
	if err := os.Mkdir(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, env, dir string }{
		{"runtime dir", runtime, filepath.Join(runtime, "errorlab")},
		{"unset", "", fallback},
		{"missing", filepath.Join(tmp, "missing"), fallback},
		{"relative", "run", fallback},
		{"open to others", open, fallback},
		{"too deep for a socket", deep, fallback},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("XDG_RUNTIME_DIR", c.env)
			xdg.Reload()
			got := SocketPath("Four Failures/One Afternoon")
			if want := filepath.Join(c.dir, "walkthrough-four-failures-one-afternoon.sock"); got != want {
				t.Fatalf("SocketPath = %q, want %q", got, want)
			}
		})
	}

	// Host makes the fallback directory, private; Join finds it.
	t.Setenv("XDG_RUNTIME_DIR", "")
	xdg.Reload()
	path := SocketPath("demo")
	if len(path) > maxSocketPath {
		t.Skipf("TMPDIR is too deep for a socket: %s", path)
	}
	h := host(t, path, State{Walkthrough: "demo"})
	if fi, err := os.Lstat(fallback); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("fallback directory: %v %v", fi, err)
	}
	j := join(t, SocketPath("demo"))
	if s := next(t, j); s.Walkthrough != "demo" {
		t.Fatalf("catch-up %+v", s)
	}
	event(t, h, PeerJoined)
}

// Two views holding different versions of one walkthrough do not link:
// the presenter's Join says why, and the host reports the refusal.
func TestDifferentVersionsDoNotLink(t *testing.T) {
	path := sockPath(t)
	h := host(t, path, State{Walkthrough: "w", Content: "aaaa"})
	_, err := JoinWith(path, JoinOptions{Walkthrough: "w", Content: "bbbb"})
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("JoinWith another version: %v, want ErrMismatch", err)
	}
	for _, want := range []string{"different versions", `"w"`, "aaaa", "bbbb", "--content"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if e := event(t, h, Refused); !strings.Contains(e.Text, "different versions") {
		t.Errorf("the host's refusal: %q", e.Text)
	}
	if h.Peers() != 0 {
		t.Errorf("peers after a refused version: %d", h.Peers())
	}
	// The same version links; so does a presenter that does not say (Join).
	a, err := JoinWith(path, JoinOptions{Walkthrough: "w", Content: "aaaa"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if s := next(t, a); s.Content != "aaaa" {
		t.Errorf("catch-up %+v, want content aaaa", s)
	}
	join(t, path)
}

// A presenter that drove alone resumes the room where it went (the timer
// too) when it joins a fresh audience view, and the other presenters
// follow.
func TestResumePushesThePresentersState(t *testing.T) {
	path := sockPath(t)
	h := host(t, path, State{Walkthrough: "w", Content: "aaaa"})
	other := join(t, path)
	next(t, other)
	event(t, h, PeerJoined)
	started := time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC)
	r := &State{Walkthrough: "w", Step: 12, Part: 1, Started: started, Content: "aaaa"}
	p, err := JoinWith(path, JoinOptions{Walkthrough: "w", Content: "aaaa", Resume: r})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	got := next(t, h)
	expect(t, got, 12, 1, "")
	if !got.Started.Equal(started) {
		t.Errorf("the host's timer %v, want %v", got.Started, started)
	}
	expect(t, next(t, p), 12, 1, "")
	expect(t, next(t, other), 12, 1, "")
	// It moves on from there.
	send(t, p, State{Walkthrough: "w", Step: 13})
	expect(t, next(t, h), 13, 0, "")
}

// A move a presenter makes the moment it has joined is numbered after
// the host's catch-up, so the host takes it, and the catch-up it has not
// read yet is dropped as overtaken.
func TestAMoveRightAfterJoiningIsTaken(t *testing.T) {
	path := sockPath(t)
	h := host(t, path, State{Walkthrough: "w"})
	for i := 1; i <= 20; i++ {
		p, err := Join(path)
		if err != nil {
			t.Fatal(err)
		}
		send(t, p, State{Walkthrough: "w", Step: i})
		expect(t, next(t, h), i, 0, "")
		select {
		case s := <-p.Updates():
			t.Fatalf("the presenter still holds an overtaken state %+v", s)
		default:
		}
		if c := p.Current(); c.Step != i {
			t.Fatalf("the presenter's current state %+v, want step %d", c, i)
		}
		p.Close()
	}
}
