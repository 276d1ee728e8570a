// Package link is the local link between a walkthrough's audience view
// (the terminal the room sees) and its presenter views (the teacher's own
// screen): a unix socket in a private directory, JSON lines over it.
//
// The audience view hosts the link (Host) and any number of presenter
// views join it (Join). Either side drives: a side that moves calls Send,
// and the others receive the new State on Updates. The host keeps the
// current state, so a presenter view that joins late catches up at once,
// and it relays a presenter's move to every other presenter. When the
// audience view goes away, a presenter view gets a Lost event and carries
// on alone.
//
// The package is plain Go: it knows nothing of Bubble Tea or of the
// screens that use it.
package link

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// State is where a presentation is: which walkthrough, which step, how far
// the step's reveal has gone, whether the screen is blanked, whether the
// answer of a question is shown (a question's answer is its last part).
type State struct {
	Walkthrough string    `json:"walkthrough"`
	Step        int       `json:"step"`             // 0-based
	Part        int       `json:"part"`             // reveal progress within the step, 0 = nothing revealed
	Blank       string    `json:"blank,omitempty"`  // "", "black" or "white"
	Started     time.Time `json:"started,omitzero"` // when the presentation started (for the timer)
	// Content identifies the version of the walkthrough a view holds (a
	// digest of its steps); two views whose Content differs do not link.
	// Empty: not checked (an older caller).
	Content string `json:"content,omitempty"`
	Seq     uint64 `json:"seq"` // set by the link: a newer state has a higher Seq
}

// EventKind is what happened to the link.
type EventKind int

const (
	// PeerJoined: a presenter view joined the audience view (host side).
	PeerJoined EventKind = iota + 1
	// PeerLeft: a presenter view left, or was disconnected because it sent
	// a line the host cannot read (host side; Text says which).
	PeerLeft
	// Lost: the audience view has gone (presenter side); the presenter
	// view carries on alone.
	Lost
	// Refused: the host turned away a connection that never joined: another
	// user, another program, or another version of the link protocol.
	Refused
)

func (k EventKind) String() string {
	switch k {
	case PeerJoined:
		return "joined"
	case PeerLeft:
		return "left"
	case Lost:
		return "lost"
	case Refused:
		return "refused"
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is a change in the link, for the status line; Text is a sentence
// ("the audience view has gone; carrying on alone").
type Event struct {
	Kind EventKind
	Text string
}

var (
	// ErrNoAudience is wrapped by Join's error when nothing listens on the
	// socket: no audience view is running for the walkthrough.
	ErrNoAudience = errors.New("no audience view is running")
	// ErrAlreadyPresenting is wrapped by Host's error when a live audience
	// view already holds the socket.
	ErrAlreadyPresenting = errors.New("another audience view is already presenting this walkthrough")
	// ErrAudienceGone is Send's error on a presenter side whose audience
	// view has gone.
	ErrAudienceGone = errors.New("the audience view has gone; this presenter view carries on alone")
	// ErrMismatch is wrapped by Join's error when the audience view holds
	// another version of the walkthrough than this presenter view.
	ErrMismatch = errors.New("the two views hold different versions of the walkthrough")
	// ErrClosed is Send's error after Close.
	ErrClosed = errors.New("the walkthrough link is closed")
)

// Timeouts. They guard against a peer that hangs; no healthy exchange
// comes near them.
const (
	handshakeTimeout = 5 * time.Second
	writeTimeout     = 10 * time.Second
)

// eventBuffer is how many events wait for the reader before the oldest
// are dropped.
const eventBuffer = 32

// Link is one side of the link: the audience view's (Host) or a
// presenter view's (Join); the zero Link is not one. Its methods are safe
// for concurrent use.
type Link struct {
	host bool
	ln   *net.UnixListener // host only

	mu     sync.Mutex
	cur    State             // host: the current state; presenter: the newest applied or sent
	peers  map[*peer]bool    // host: the presenter views that said hello; presenter: the host while linked
	conns  map[net.Conn]bool // host: every accepted connection, for Close
	closed bool

	updates chan State
	events  chan Event
	wg      sync.WaitGroup
}

func newLink(host bool) *Link {
	return &Link{
		host:    host,
		peers:   map[*peer]bool{},
		conns:   map[net.Conn]bool{},
		updates: make(chan State, 1),
		events:  make(chan Event, eventBuffer),
	}
}

// Host is the audience side: it listens on path (creating the parent
// directory 0700 and the socket 0600) and serves any number of presenter
// views, each of which first receives the current state, initial until
// someone moves (initial.Seq is the link's to set, as in Send). A stale socket file left by a dead process is replaced;
// a live one (another audience view already presenting) is an error that
// wraps ErrAlreadyPresenting.
func Host(path string, initial State) (*Link, error) {
	if err := initial.check(); err != nil {
		return nil, fmt.Errorf("walkthrough link: %w", err)
	}
	if err := privateDir(path); err != nil {
		return nil, err
	}
	ln, err := listen(path)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("walkthrough link: cannot make %s private: %w", path, err)
	}
	l := newLink(true)
	l.ln = ln
	l.cur = initial
	l.cur.Seq = 1
	l.wg.Add(1)
	go l.accept()
	return l, nil
}

// Join is the presenter side: it dials the audience view listening on
// path and says hello. When no audience view is running, the error wraps
// ErrNoAudience and says how to start one. The host's current state
// arrives first on Updates. Join is JoinWith without options.
func Join(path string) (*Link, error) { return JoinWith(path, JoinOptions{}) }

// JoinOptions are what a presenter view tells the audience view when it
// joins.
type JoinOptions struct {
	// Walkthrough and Content are the walkthrough this presenter view
	// holds and its version (State.Content): when the audience view's
	// differ, neither side links and Join's error wraps ErrMismatch.
	// Empty: not checked.
	Walkthrough, Content string
	// Resume, when set, is where this presenter view went while it drove
	// alone: the audience view moves there (the timer too) instead of
	// sending its own state, so a room restarted after a crash resumes at
	// the presenter's step.
	Resume *State
}

// JoinWith is Join with options: the version check and the resume.
func JoinWith(path string, o JoinOptions) (*Link, error) {
	if o.Resume != nil {
		r := *o.Resume
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("walkthrough link: %w", err)
		}
		o.Resume = &r
	}
	d := net.Dialer{Timeout: handshakeTimeout}
	c, err := d.Dial("unix", path)
	if err != nil {
		return nil, joinError(path, err)
	}
	if uid, ok := peerUID(c); ok && uid != os.Getuid() {
		c.Close()
		return nil, fmt.Errorf("walkthrough link: %s is held by another user (uid %d); errorlab links only the views of one user", path, uid)
	}
	p := newPeer(c)
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	if err := writeHello(c, hello{Role: rolePresenter, Walkthrough: o.Walkthrough, Content: o.Content, Resume: o.Resume}); err != nil {
		c.Close()
		return nil, fmt.Errorf("walkthrough link: cannot greet the audience view on %s: %w", path, err)
	}
	h, err := readHello(p.r, roleAudience)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("walkthrough link: the audience view on %s did not answer as expected: %w", path, err)
	}
	if err := mismatch(o.Walkthrough, o.Content, h.Walkthrough, h.Content); err != nil {
		c.Close()
		return nil, fmt.Errorf("walkthrough link: not linked: %w: %v", ErrMismatch, err)
	}
	// The host's current state comes first: take it now, so that a move
	// made at once is numbered after it (and not dropped as stale).
	line, err := readLine(p.r)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("walkthrough link: the audience view on %s sent no state: %w", path, err)
	}
	first, err := decodeState(line)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("walkthrough link: the audience view on %s: %w", path, err)
	}
	c.SetDeadline(time.Time{})
	l := newLink(false)
	l.peers[p] = true
	l.cur = first
	offer(l.updates, first)
	l.wg.Add(2)
	go l.write(p)
	go func() {
		defer l.wg.Done()
		l.read(p)
	}()
	return l, nil
}

// mismatch says how the walkthrough of one view (id, content) differs
// from the other's; nil when they agree or a side did not say.
func mismatch(id, content, otherID, otherContent string) error {
	switch {
	case id != "" && otherID != "" && id != otherID:
		return fmt.Errorf("%w: this view presents %q and the other %q", ErrMismatch, id, otherID)
	case content != "" && otherContent != "" && content != otherContent:
		if id == "" {
			id = otherID
		}
		return fmt.Errorf("%w: %q is version %s here and %s in the other view; start both with the same --content", ErrMismatch, id, content, otherContent)
	}
	return nil
}

// Send tells the other side(s) that this side moved to s. It assigns
// s.Seq (whatever the caller put there) and returns the error of a state
// that is not one (a negative step, an unknown blank); on a presenter
// side whose audience view has gone it returns ErrAudienceGone, and after
// Close ErrClosed. It never waits for the network.
func (l *Link) Send(s State) error {
	if err := s.check(); err != nil {
		return fmt.Errorf("walkthrough link: %w", err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	if !l.host && len(l.peers) == 0 {
		return ErrAudienceGone
	}
	s.Seq = l.cur.Seq + 1
	line, err := encodeState(s)
	if err != nil {
		return fmt.Errorf("walkthrough link: %w", err)
	}
	l.cur = s
	select {
	case <-l.updates: // an unread older state: this move supersedes it
	default:
	}
	for p := range l.peers {
		p.queue(line)
	}
	return nil
}

// Current is the newest state this side sent or took (its Seq included):
// a state read from Updates with a lower Seq has been overtaken.
func (l *Link) Current() State {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cur
}

// Updates delivers the states the other side(s) moved to, newest wins: it
// holds at most one state, the newest not yet read. A presenter side
// first receives the host's current state. It is closed by Close.
func (l *Link) Updates() <-chan State { return l.updates }

// Events delivers peer joined, peer left, refused and link lost, for the
// status line; when the reader falls behind the oldest are dropped. It is
// closed by Close.
func (l *Link) Events() <-chan Event { return l.events }

// Peers is how many others are connected now: on the host the presenter
// views, on a presenter 1 while the audience view is there and 0 after.
func (l *Link) Peers() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.peers)
}

// Close ends the link: on the host it stops listening, removes the socket
// file and disconnects every presenter view (each gets Lost). It waits
// for the link's goroutines, then closes Updates and Events. Closing
// twice is harmless.
func (l *Link) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	conns := make([]net.Conn, 0, len(l.conns)+len(l.peers))
	for c := range l.conns {
		conns = append(conns, c)
	}
	for p := range l.peers {
		p.close()
	}
	l.mu.Unlock()

	var err error
	if l.ln != nil {
		// The listener removes the socket file it created.
		if cerr := l.ln.Close(); cerr != nil && !errors.Is(cerr, net.ErrClosed) {
			err = fmt.Errorf("walkthrough link: %w", cerr)
		}
	}
	for _, c := range conns {
		c.Close()
	}
	l.wg.Wait()
	close(l.updates)
	close(l.events)
	return err
}

// accept serves the host's listener until Close.
func (l *Link) accept() {
	defer l.wg.Done()
	for {
		c, err := l.ln.AcceptUnix()
		if err != nil {
			l.mu.Lock()
			closed := l.closed
			l.mu.Unlock()
			if closed || errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(50 * time.Millisecond) // out of file descriptors, say
			continue
		}
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			c.Close()
			return
		}
		l.conns[c] = true
		l.wg.Add(1)
		l.mu.Unlock()
		go l.serve(c)
	}
}

// serve greets one connection on the host, registers it as a presenter
// view and reads its states until it goes.
func (l *Link) serve(c *net.UnixConn) {
	defer l.wg.Done()
	defer func() {
		c.Close()
		l.mu.Lock()
		delete(l.conns, c)
		l.mu.Unlock()
	}()
	if uid, ok := peerUID(c); ok && uid != os.Getuid() {
		l.refuse(fmt.Sprintf("refused a link from another user (uid %d)", uid))
		return
	}
	l.mu.Lock()
	id, content := l.cur.Walkthrough, l.cur.Content
	l.mu.Unlock()

	p := newPeer(c)
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	if err := writeHello(c, hello{Role: roleAudience, Walkthrough: id, Content: content}); err != nil {
		return // gone before hello: an audience view probing for a live socket
	}
	h, err := readHello(p.r, rolePresenter)
	if err != nil {
		if !errors.Is(err, errSilent) {
			l.refuse("refused a link: " + err.Error())
		}
		return
	}
	if err := mismatch(id, content, h.Walkthrough, h.Content); err != nil {
		l.refuse("refused a presenter view: " + err.Error())
		return
	}
	c.SetDeadline(time.Time{})

	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	if r := h.Resume; r != nil && r.check() == nil && r.Walkthrough == id && (content == "" || r.Content == "" || r.Content == content) {
		// The presenter drove alone: the room goes where it went.
		s := *r
		s.Content = content
		s.Seq = l.cur.Seq + 1
		if line, err := encodeState(s); err == nil {
			l.cur = s
			offer(l.updates, s)
			for q := range l.peers {
				q.queue(line)
			}
		}
	}
	line, err := encodeState(l.cur)
	if err != nil { // cannot happen: cur was checked when it was set
		l.mu.Unlock()
		return
	}
	l.peers[p] = true
	p.queue(line) // catch-up, before any later move
	l.emit(Event{PeerJoined, "a presenter view joined; " + linked(len(l.peers))})
	l.wg.Add(1)
	l.mu.Unlock()
	go l.write(p)
	l.read(p)
}

// refuse reports a connection turned away before it joined.
func (l *Link) refuse(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.emit(Event{Refused, text})
	}
}

// read applies the states a peer sends until it goes or sends a line that
// is not one.
func (l *Link) read(p *peer) {
	for {
		line, err := readLine(p.r)
		if err != nil {
			l.drop(p, err)
			return
		}
		if len(line) == 0 {
			continue
		}
		s, err := decodeState(line)
		if err != nil {
			l.drop(p, err)
			return
		}
		if _, err := l.receive(p, s); err != nil {
			l.drop(p, err)
			return
		}
	}
}

// receive applies a state from peer p unless it is stale, hands it to
// Updates and, on the host, relays it to every other presenter view. The
// host orders the moves: it takes a presenter's state only when it is
// newer than the current one, and a presenter takes the host's state when
// it is at least as new as its own (on a tie the host's state wins: the
// host has refused the presenter's, and this is what it took instead).
// It reports whether s was applied; its error is a state the host will
// not take from this peer.
func (l *Link) receive(p *peer, s State) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false, nil
	}
	if p != nil {
		p.last = s
	}
	if l.host {
		if s.Walkthrough != l.cur.Walkthrough {
			return false, fmt.Errorf("%w: it drives walkthrough %q, this view presents %q", errForeign, s.Walkthrough, l.cur.Walkthrough)
		}
		if s.Content != "" && l.cur.Content != "" && s.Content != l.cur.Content {
			return false, fmt.Errorf("%w: it drives another version of walkthrough %q", errForeign, s.Walkthrough)
		}
		if s.Seq <= l.cur.Seq {
			return false, nil // stale, or overtaken by a move already taken
		}
	} else if s.Seq < l.cur.Seq {
		return false, nil // stale
	}
	l.cur = s
	offer(l.updates, s)
	if l.host {
		line, err := encodeState(s)
		if err != nil {
			return true, nil // cannot happen: it was decoded and checked
		}
		for q := range l.peers {
			if q != p {
				q.queue(line)
			}
		}
	}
	return true, nil
}

// write sends what is queued for a peer until the peer goes.
func (l *Link) write(p *peer) {
	defer l.wg.Done()
	for {
		select {
		case <-p.gone:
			return
		case <-p.wake:
		}
		line := p.take()
		if line == nil {
			continue
		}
		p.c.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := p.c.Write(line); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				err = fmt.Errorf("%w: %v", errStalled, err)
			}
			l.drop(p, err)
			return
		}
	}
}

// drop disconnects peer p for cause and says so once (nothing after
// Close).
func (l *Link) drop(p *peer, cause error) {
	p.close()
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.peers[p] {
		return
	}
	delete(l.peers, p)
	if l.closed {
		return
	}
	if !l.host {
		text := "the audience view has gone; carrying on alone"
		if !errors.Is(cause, errStalled) && isProtocolError(cause) {
			text = "the audience view sent what this presenter view cannot read (" + cause.Error() + "); carrying on alone"
		}
		l.emit(Event{Lost, text})
		return
	}
	text := "a presenter view left"
	switch {
	case errors.Is(cause, errTooLong):
		text = "a presenter view sent a line over 4 KiB and was disconnected"
	case errors.Is(cause, errStalled):
		text = "a presenter view stopped reading and was disconnected"
	case isProtocolError(cause):
		text = "a presenter view was disconnected: " + cause.Error()
	}
	l.emit(Event{PeerLeft, text + "; " + linked(len(l.peers))})
}

// emit queues an event; l.mu is held.
func (l *Link) emit(e Event) { offer(l.events, e) }

// offer puts v on ch without waiting: when ch is full its oldest value
// makes room. Callers hold l.mu, so there is one sender at a time.
func offer[T any](ch chan T, v T) {
	for {
		select {
		case ch <- v:
			return
		default:
		}
		select {
		case <-ch:
		default:
		}
	}
}

func linked(n int) string {
	switch n {
	case 0:
		return "no presenter view linked"
	case 1:
		return "1 presenter view linked"
	}
	return fmt.Sprintf("%d presenter views linked", n)
}

// peer is the other end of one connection, with a writer's slot that
// holds the newest line not yet written: states are whole, so a newer one
// makes an older unsent one pointless.
type peer struct {
	c    net.Conn
	r    *bufio.Reader
	mu   sync.Mutex
	next []byte
	last State // the last state read from this peer, taken or not (l.mu)
	wake chan struct{}
	gone chan struct{}
	once sync.Once
}

func newPeer(c net.Conn) *peer {
	return &peer{
		c:    c,
		r:    bufio.NewReaderSize(c, MaxLine),
		wake: make(chan struct{}, 1),
		gone: make(chan struct{}),
	}
}

func (p *peer) queue(line []byte) {
	p.mu.Lock()
	p.next = line
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *peer) take() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := p.next
	p.next = nil
	return line
}

func (p *peer) close() {
	p.once.Do(func() {
		close(p.gone)
		p.c.Close()
	})
}

// encodeState is s as one line of the protocol.
func encodeState(s State) ([]byte, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	b = append(b, '\n')
	if len(b) > MaxLine {
		return nil, fmt.Errorf("the state takes %d bytes, more than a line may (%d)", len(b), MaxLine)
	}
	return b, nil
}

// Only the errors below are about what a peer said; the others are about
// the connection.
func isProtocolError(err error) bool {
	return errors.Is(err, errTooLong) || errors.Is(err, errMalformed) || errors.Is(err, errForeign)
}

var (
	errTooLong   = fmt.Errorf("a line over %d bytes", MaxLine)
	errMalformed = errors.New("a malformed line")
	errForeign   = errors.New("a state of another walkthrough")
	errStalled   = errors.New("the peer stopped reading")
	errSilent    = errors.New("closed before hello")
)
