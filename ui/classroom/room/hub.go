// Package room is the shared state of a class run over SSH (`errorlab
// classroom`): who is connected and where each student is, the item the
// teacher has sent the room to (a question, a scenario, a walkthrough
// step), every student's answers, the tally, the reveal, and the record
// of the session that `errorlab report --class` exports.
//
// One Hub serves the whole class. Every student's session holds a Member
// (Join) whose Room is the session's common.Room; the teacher's dashboard
// reads Snapshot and waits on Watch for changes. All state sits behind
// one mutex; nothing is sent or written while it is held (messages to a
// student's program go out on their own goroutines, the session file is
// written by one writer goroutine), so a slow or stuck session never
// holds up the room.
package room

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
)

// Role is a member's part in the class.
type Role int

// The roles.
const (
	// Student: the whole app, progress of their own, answers counted.
	Student Role = iota
	// Teacher: the dashboard. Only a key listed in --teacher-keys (or the
	// host's own console) makes a teacher; a user name never does.
	Teacher
)

func (r Role) String() string {
	if r == Teacher {
		return "teacher"
	}
	return "student"
}

// Errors of Answer.
var (
	ErrNotAsked = errors.New("the room was not asked this question")
	ErrRevealed = errors.New("the teacher has revealed the answer: answers are closed")
	ErrChoice   = errors.New("that is not one of the options")
	ErrClosed   = errors.New("the class has ended")
	// ErrFirstCounts: in a poll whose first answer counts (a lab
	// scenario), a student's later choice is not taken.
	ErrFirstCounts = errors.New("your first choice is your answer in this poll")
)

// Config configures a Hub.
type Config struct {
	// Dir is where the session's record is kept as it changes
	// (Dir/sessions/ID.json, read by `errorlab report --class`); "" keeps
	// it in memory only.
	Dir string
	// Listen is the address the server listens on, for the dashboard.
	Listen string
	// HostKey is the server's host key fingerprint (SHA256:…), shown on
	// the dashboard so students can check what ssh shows them.
	HostKey string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Ask is an item the teacher sends the room to, with the question it
// asks (when Item.Key is set): the stem, the options and the answer, so
// the tally can draw bars and mark the answer, and the export can list
// who chose what.
type Ask struct {
	Item common.RoomItem
	// Title is one line naming the item ("Question empty-which-mistake-is-worse",
	// "Scenario: Headphones returned 45 days after delivery",
	// "Empty is not an error · step 7 of 13").
	Title string
	// Stem is the question as the students read it ("" for a step that
	// asks nothing).
	Stem string
	// Options are the option texts in order; Labels their short names
	// ("A"…"D", or "1"…"9" for a scenario's recovery actions).
	Options []string
	Labels  []string
	// Correct are the indexes of the right options (the best action for
	// a scenario).
	Correct []int
	// Multi: a student may choose several options.
	Multi bool
	// Grades, when set (a lab scenario), is sim/rules' grade of each
	// option (best, acceptable or wrong; LESSON-RULES §8); without it an
	// answer is best when it is exactly Correct, and wrong otherwise.
	// Grade reads it.
	Grades []rules.Grade
	// FirstCounts: a student's first choice is their answer and a later
	// one is refused (ErrFirstCounts). A lab scenario's poll is so, as
	// the lab's own mark counts the first answer; a question's is not
	// (a student may change their answer until the reveal).
	FirstCounts bool
}

// Event is one line of the room's log: a student joined, left, timed
// out, or their session crashed.
type Event struct {
	At   time.Time `json:"at"`
	Kind string    `json:"kind"` // joined, left, idle, crashed, refused
	Name string    `json:"name,omitempty"`
	Text string    `json:"text"`
}

// Hub is the room's shared state. Its methods are safe for concurrent use.
type Hub struct {
	now     func() time.Time
	dir     string
	listen  string
	hostKey string

	mu       sync.Mutex
	id       string
	started  time.Time
	updated  time.Time
	nextID   int
	members  map[int]*Member
	students map[string]*student
	// asks are the polls in the order sent (a poll is one send of an
	// item that asks: sending the same question again opens a new one);
	// latest is each key's latest poll, the one students answer; cur is
	// the room's item's poll (nil when it asks nothing).
	asks     []*ask
	latest   map[string]*ask
	cur      *ask
	item     common.RoomItem
	hasItem  bool
	seq      int
	events   []Event
	watchers map[int]chan struct{}
	nextW    int
	closed   bool

	dirty  chan struct{}
	writer sync.WaitGroup
	werr   error
}

// student is what the room keeps of one name across its sessions.
type student struct {
	name     string
	first    time.Time
	sessions int
	crashes  int
}

// ask is one poll: an item sent to the room that asks, and the answers
// to it, one per student.
type ask struct {
	Ask
	// round numbers the polls of the session from 1 (RoomItem.Round);
	// time is how many times its key had been asked, this one included.
	round, time int
	asked       time.Time
	revealed    bool
	answers     map[string]*answer
	// present are the students connected at some moment while the poll
	// was open: the ones its "answered" counts against (with those who
	// answered).
	present map[string]bool
}

// answer is a student's answer to a poll: their first choice, and the
// one that counts now (the same when they never changed it).
type answer struct {
	first   []int
	choice  []int
	at      time.Time
	changes int
}

// maxEvents is how many log lines the room keeps.
const maxEvents = 200

// New starts a room. With cfg.Dir set, the directory Dir/sessions is
// created (0700) and the record is written there after every change;
// the error is the directory's.
func New(cfg Config) (*Hub, error) {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	h := &Hub{
		now: now, dir: cfg.Dir, listen: cfg.Listen, hostKey: cfg.HostKey,
		started: now(), members: map[int]*Member{}, students: map[string]*student{},
		latest: map[string]*ask{}, watchers: map[int]chan struct{}{},
	}
	h.updated = h.started
	h.id = h.started.UTC().Format("20060102-150405")
	if h.dir != "" {
		sd := filepath.Join(h.dir, "sessions")
		if err := os.MkdirAll(sd, 0o700); err != nil {
			return nil, fmt.Errorf("the class's folder %s: %w", sd, err)
		}
		// One record per start: a second start in the same second gets a suffix.
		for i := 2; fileExists(filepath.Join(sd, h.id+".json")); i++ {
			h.id = fmt.Sprintf("%s-%d", h.started.UTC().Format("20060102-150405"), i)
		}
		h.dirty = make(chan struct{}, 1)
		h.writer.Add(1)
		go h.write()
		h.changedLocked()
	}
	return h, nil
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// ID is the session's id (its start time, UTC: 20250131-140502).
func (h *Hub) ID() string { return h.id }

// RecordPath is where the session's record is kept ("" in memory only).
func (h *Hub) RecordPath() string {
	if h.dir == "" {
		return ""
	}
	return filepath.Join(h.dir, "sessions", h.id+".json")
}

// Close ends the class: every member's session is told nothing more,
// the record is written one last time, and later calls fail with
// ErrClosed. The error is the last write's.
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	for id, w := range h.watchers {
		close(w)
		delete(h.watchers, id)
	}
	dirty := h.dirty
	h.mu.Unlock()
	if dirty != nil {
		close(dirty)
		h.writer.Wait()
	}
	return h.werr
}

// write is the writer goroutine: after every change it writes the
// record (changes that come while it writes are written once, after).
func (h *Hub) write() {
	defer h.writer.Done()
	path := h.RecordPath()
	for range h.dirty {
		rec := h.Record()
		if err := rec.writeFile(path); err != nil {
			h.mu.Lock()
			h.werr = err
			h.mu.Unlock()
		}
	}
}

// changedLocked wakes the dashboards and the writer. h.mu is held.
func (h *Hub) changedLocked() {
	h.updated = h.now()
	for _, w := range h.watchers {
		select {
		case w <- struct{}{}:
		default:
		}
	}
	if h.dirty != nil && !h.closed {
		select {
		case h.dirty <- struct{}{}:
		default:
		}
	}
}

// Watch returns a channel that receives a signal after every change of
// the room (several changes close together may come as one signal) and
// is closed when the room closes, and a function that stops watching.
func (h *Hub) Watch() (<-chan struct{}, func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan struct{}, 1)
	if h.closed {
		close(ch)
		return ch, func() {}
	}
	id := h.nextW
	h.nextW++
	h.watchers[id] = ch
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if w, ok := h.watchers[id]; ok {
			close(w)
			delete(h.watchers, id)
		}
	}
}

// ChangedMsg tells a dashboard that the room changed (Snapshot again).
type ChangedMsg struct{}

// WaitChange is the command a dashboard runs to hear of the next change:
// it returns ChangedMsg, or nil when the room has closed or stop was
// called.
func WaitChange(ch <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		if _, ok := <-ch; !ok {
			return nil
		}
		return ChangedMsg{}
	}
}

// logLocked adds an event to the log. h.mu is held.
func (h *Hub) logLocked(kind, name, format string, args ...any) {
	h.events = append(h.events, Event{At: h.now(), Kind: kind, Name: name, Text: fmt.Sprintf(format, args...)})
	if len(h.events) > maxEvents {
		h.events = slices.Delete(h.events, 0, len(h.events)-maxEvents)
	}
}

// Log adds a line to the room's log (a refused connection, the server
// closing), shown on the dashboard; name is the member's safe name or "".
func (h *Hub) Log(kind, name, format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.logLocked(kind, name, format, args...)
	h.changedLocked()
}

// Join adds a session to the room: name is the member's safe name
// (SafeName), remote the client's address. A student's record and
// answers are kept across sessions under the same name, so a reconnect
// carries on. The error is ErrClosed once the class has ended.
func (h *Hub) Join(name string, role Role, remote string) (*Member, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	h.nextID++
	t := h.now()
	m := &Member{h: h, id: h.nextID, name: name, role: role, remote: remote, since: t, lastInput: t}
	h.members[m.id] = m
	if role == Student {
		s := h.students[name]
		if s == nil {
			s = &student{name: name, first: t}
			h.students[name] = s
		}
		s.sessions++
		// A student who comes while a poll is open counts for it.
		for _, q := range h.latest {
			if !q.revealed {
				q.present[name] = true
			}
		}
		if s.sessions > 1 {
			h.logLocked("joined", name, "%s joined again (session %d)", name, s.sessions)
		} else {
			h.logLocked("joined", name, "%s joined", name)
		}
	} else {
		h.logLocked("joined", name, "the teacher (%s) joined", name)
	}
	h.changedLocked()
	return m, nil
}

// Send moves the room to a.Item: every student's screen goes there, and
// when the item asks (Item.Key set) it opens a new poll: answers to it
// are taken until it is revealed. Every send is a poll of its own, with
// its own answers and tally, even of an item asked before (Item.Round
// numbers them). Item.Seq, Item.Round and Item.Revealed are set by the
// room.
func (h *Hub) Send(a Ask) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return ErrClosed
	}
	it := a.Item
	it.Revealed, it.Round = false, 0
	h.cur = nil
	if it.Key != "" {
		if len(a.Options) == 0 || len(a.Labels) != len(a.Options) || (a.Grades != nil && len(a.Grades) != len(a.Options)) {
			h.mu.Unlock()
			return fmt.Errorf("%s: a question needs options, each with a label (and a grade, when graded)", it.Key)
		}
		q := &ask{Ask: a, round: len(h.asks) + 1, time: h.timesLocked(it.Key) + 1, asked: h.now(),
			answers: map[string]*answer{}, present: map[string]bool{}}
		for _, m := range h.members {
			if m.role == Student {
				q.present[m.name] = true
			}
		}
		it.Round = q.round
		q.Item = it
		// The answer's words travel with the reveal, not before.
		it.RevealText = ""
		h.asks = append(h.asks, q)
		h.latest[it.Key] = q
		h.cur = q
	}
	h.seq++
	it.Seq = h.seq
	h.item, h.hasItem = it, true
	h.changedLocked()
	sends := h.studentSendsLocked()
	h.mu.Unlock()
	broadcast(sends, common.RoomMsg{Item: it})
	return nil
}

// Reveal shows the answer of the current item on every student's
// screen; answers to it are closed from then on. The error says there is
// nothing to reveal.
func (h *Hub) Reveal() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return ErrClosed
	}
	q := h.cur
	if !h.hasItem || q == nil {
		h.mu.Unlock()
		return errors.New("the room is not on a question: there is no answer to reveal")
	}
	if q.revealed {
		h.mu.Unlock()
		return errors.New("the answer is already revealed")
	}
	q.revealed = true
	h.seq++
	h.item.Revealed, h.item.RevealText, h.item.Seq = true, q.Item.RevealText, h.seq
	it := h.item
	h.changedLocked()
	sends := h.studentSendsLocked()
	h.mu.Unlock()
	broadcast(sends, common.RoomMsg{Item: it})
	return nil
}

// Clear frees the room: it is on no item, and every student's screen
// hears it (common.RoomFree): a walkthrough followed in class mode lets
// go, and students roam freely; a student who connects stays on Home.
// Open polls stay open.
func (h *Hub) Clear() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.hasItem, h.cur = false, nil
	h.seq++
	h.item = common.RoomItem{Kind: common.RoomFree, Seq: h.seq}
	free := h.item
	h.changedLocked()
	sends := h.studentSendsLocked()
	h.mu.Unlock()
	broadcast(sends, common.RoomMsg{Item: free})
}

// timesLocked is how many polls key has had. h.mu is held.
func (h *Hub) timesLocked(key string) int {
	if q := h.latest[key]; q != nil {
		return q.time
	}
	return 0
}

// Asked is how many times the room has been asked key (0: never), for
// the teacher's pickers.
func (h *Hub) Asked(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.timesLocked(key)
}

// Current is the room's item (ok false when none).
func (h *Hub) Current() (common.RoomItem, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.item, h.hasItem
}

// studentSendsLocked lists the students' senders. h.mu is held.
func (h *Hub) studentSendsLocked() []func(tea.Msg) {
	var out []func(tea.Msg)
	for _, m := range h.members {
		if m.role == Student && m.send != nil {
			out = append(out, m.send)
		}
	}
	return out
}

// broadcast delivers msg to every sender, each on its own goroutine (a
// program's Send blocks until its loop takes the message; it returns at
// once when the program has ended). RoomMsg carries Seq, so the order
// the goroutines run in does not matter.
func broadcast(sends []func(tea.Msg), msg tea.Msg) {
	for _, s := range sends {
		go s(msg)
	}
}

// answerLocked records name's answer to the latest poll of key. h.mu
// is held.
func (h *Hub) answerLocked(name, key string, choice []int) error {
	if h.closed {
		return ErrClosed
	}
	q := h.latest[key]
	if q == nil {
		return ErrNotAsked
	}
	if q.revealed {
		return ErrRevealed
	}
	if len(choice) == 0 || (!q.Multi && len(choice) > 1) {
		return ErrChoice
	}
	c := slices.Clone(choice)
	slices.Sort(c)
	c = slices.Compact(c)
	if c[0] < 0 || c[len(c)-1] >= len(q.Options) {
		return ErrChoice
	}
	a := q.answers[name]
	switch {
	case a == nil:
		q.answers[name] = &answer{first: c, choice: c, at: h.now()}
		q.present[name] = true
	case slices.Equal(a.choice, c):
		return nil
	case q.FirstCounts:
		return ErrFirstCounts
	default:
		a.choice, a.at = c, h.now()
		a.changes++
	}
	h.changedLocked()
	return nil
}

// Tally counts, for each option of the latest poll of key, the students
// whose answer includes it (each student once: a changed answer
// replaces the earlier one), and how many students answered.
func (h *Hub) Tally(key string) (counts []int, answered int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.latest[key]
	if q == nil {
		return nil, 0
	}
	return q.tally()
}

// presentNames are the students the poll counts against, sorted.
func (q *ask) presentNames() []string {
	out := make([]string, 0, len(q.present)+len(q.answers))
	for name := range q.present {
		out = append(out, name)
	}
	for name := range q.answers {
		if !q.present[name] {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// eligible is how many students the poll's "answered" counts against:
// those connected while it was open, and those who answered.
func (q *ask) eligible() int {
	n := len(q.present)
	for name := range q.answers {
		if !q.present[name] {
			n++
		}
	}
	return n
}

func (q *ask) tally() ([]int, int) {
	counts := make([]int, len(q.Options))
	for _, a := range q.answers {
		for _, i := range a.choice {
			counts[i]++
		}
	}
	return counts, len(q.answers)
}

// Member is one session in the room (a student's or the teacher's).
type Member struct {
	h      *Hub
	id     int
	name   string
	role   Role
	remote string

	// Guarded by h.mu.
	since     time.Time
	lastInput time.Time
	where     string
	send      func(tea.Msg)
	left      bool
}

// ID is the session's number in this class (1, 2, …).
func (m *Member) ID() int { return m.id }

// Name is the member's safe name.
func (m *Member) Name() string { return m.name }

// Role is the member's role.
func (m *Member) Role() Role { return m.role }

// Attach sets how the room reaches this session's program (its Send);
// students get a RoomMsg whenever the teacher moves the room.
func (m *Member) Attach(send func(tea.Msg)) {
	m.h.mu.Lock()
	defer m.h.mu.Unlock()
	m.send = send
}

// Touch records input from the member (a key, the mouse): the idle
// timeout counts from the last one.
func (m *Member) Touch() {
	m.h.mu.Lock()
	m.lastInput = m.h.now()
	m.h.mu.Unlock()
}

// Idle is how long ago the member's last input came.
func (m *Member) Idle() time.Duration {
	m.h.mu.Lock()
	defer m.h.mu.Unlock()
	return m.h.now().Sub(m.lastInput)
}

// Leave takes the session out of the room; kind says why ("left",
// "disconnected", "idle", "crashed", "closed") and detail, when set, is shown with it
// (a crash's panic value, sanitised). A second Leave does nothing.
func (m *Member) Leave(kind, detail string) {
	h := m.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if m.left {
		return
	}
	m.left, m.send = true, nil
	delete(h.members, m.id)
	who := m.name
	if m.role == Teacher {
		who = "the teacher (" + m.name + ")"
	}
	detail = common.OneLineText(common.Sanitize(detail))
	if len(detail) > 200 {
		detail = detail[:200] + "…"
	}
	switch kind {
	case "crashed":
		if s := h.students[m.name]; s != nil && m.role == Student {
			s.crashes++
		}
		h.logLocked(kind, m.name, "%s: the session crashed and was closed (%s); the others carry on", who, detail)
	case "idle":
		h.logLocked(kind, m.name, "%s: closed after %s without a key", who, detail)
	case "disconnected":
		h.logLocked("left", m.name, "%s disconnected", who)
	default:
		h.logLocked("left", m.name, "%s left", who)
	}
	h.changedLocked()
}

// Room is the student's side of the room for their app (common.Room).
func (m *Member) Room() common.Room { return studentRoom{m} }

type studentRoom struct{ m *Member }

func (r studentRoom) Student() string { return r.m.name }

func (r studentRoom) Current() (common.RoomItem, bool) { return r.m.h.Current() }

func (r studentRoom) Answer(key string, choice []int) error {
	h := r.m.h
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.answerLocked(r.m.name, key, choice)
}

func (r studentRoom) Answered(key string) []int { return r.Poll(key).Answer }

func (r studentRoom) Poll(key string) common.Poll {
	h := r.m.h
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.latest[key]
	if q == nil {
		return common.Poll{}
	}
	p := common.Poll{Round: q.round, Revealed: q.revealed, FirstCounts: q.FirstCounts}
	if q.revealed {
		p.RevealText = q.Item.RevealText
	}
	if a := q.answers[r.m.name]; a != nil {
		p.Answer = slices.Clone(a.choice)
	}
	return p
}

func (r studentRoom) Where(crumb string) {
	crumb = common.OneLineText(common.Sanitize(crumb))
	h := r.m.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.m.where != crumb {
		r.m.where = crumb
		h.changedLocked()
	}
}

// MemberView is one connected session as the dashboard shows it.
type MemberView struct {
	ID        int
	Name      string
	Role      Role
	Remote    string
	Since     time.Time
	LastInput time.Time
	// Where is the screen the student is on ("" before their app reports).
	Where string
	// Idle is how long ago their last key or click came, by the room's
	// clock (the one the idle timeout counts with).
	Idle time.Duration
	// Answer is the student's answer to the current question (nil: none);
	// First their first one, Changes how often they changed it; Grade
	// the room's verdict on it (Ask.Grade).
	Answer  []int
	First   []int
	Changes int
	Grade   rules.Grade
}

// AskView is the current poll with its tally.
type AskView struct {
	Ask
	// Round numbers the poll in the session; Time is how many times its
	// item has been asked, this one included (2: asked once before).
	Round, Time int
	Revealed    bool
	// Counts per option (each student once) and how many answered, of
	// Eligible: the students connected while it was open, and those who
	// answered.
	Counts   []int
	Answered int
	Eligible int
}

// Snapshot is the room at one moment, for the dashboard.
type Snapshot struct {
	Session string
	Listen  string
	HostKey string
	Started time.Time
	// At is when it was taken, by the room's clock.
	At time.Time
	// Members are the sessions connected now: students by name, then the
	// teacher's.
	Members []MemberView
	// Students is how many distinct students are connected.
	Students int
	// Item is where the room is (nil: nowhere; students roam).
	Item *common.RoomItem
	// Ask is the current item's question and tally (nil when it asks
	// nothing).
	Ask *AskView
	// Events is the log, oldest first (the last 200).
	Events []Event
}

// Snapshot copies the room's state.
func (h *Hub) Snapshot() Snapshot {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	s := Snapshot{Session: h.id, Listen: h.listen, HostKey: h.hostKey, Started: h.started, At: now, Events: slices.Clone(h.events)}
	var q *ask
	if h.hasItem {
		it := h.item
		s.Item = &it
		q = h.cur
	}
	if q != nil {
		counts, n := q.tally()
		s.Ask = &AskView{Ask: q.Ask, Round: q.round, Time: q.time, Revealed: q.revealed, Counts: counts, Answered: n, Eligible: q.eligible()}
		s.Ask.Item = h.item
	}
	names := map[string]bool{}
	for _, m := range h.members {
		v := MemberView{ID: m.id, Name: m.name, Role: m.role, Remote: m.remote, Since: m.since, LastInput: m.lastInput,
			Idle: now.Sub(m.lastInput), Where: m.where}
		if q != nil && m.role == Student {
			if a := q.answers[m.name]; a != nil {
				v.Answer, v.First, v.Changes, v.Grade = slices.Clone(a.choice), slices.Clone(a.first), a.changes, q.Grade(a.choice)
			}
		}
		if m.role == Student {
			names[m.name] = true
		}
		s.Members = append(s.Members, v)
	}
	s.Students = len(names)
	sort.Slice(s.Members, func(i, j int) bool {
		a, b := s.Members[i], s.Members[j]
		if a.Role != b.Role {
			return a.Role < b.Role
		}
		if la, lb := strings.ToLower(a.Name), strings.ToLower(b.Name); la != lb {
			return la < lb
		}
		return a.ID < b.ID
	})
	return s
}
