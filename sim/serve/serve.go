// Package serve exposes the lab's mock MCP server (sim/mockserver, the one
// engine) to real MCP clients over stdio and Streamable HTTP, records
// every exchange exactly as it crossed the wire (the --log JSON lines),
// and keeps a report card per client session: for each failure it served,
// what the client did next (resent the same call, and after how long;
// changed the arguments; called another tool; escalated; stopped) and the
// verdict sim/rules gives that move, with the waits and the wasted calls.
//
// It knows nothing of terminals or content files: the caller passes a
// scenario's failures in through Config (plain engine types).
package serve

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// Transport names how a client reached the server.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// Scenario is what the caller tells the server about the lab scenario
// whose failures it serves (`errorlab serve --scenario ID`), for the
// watch screen and the report card. Its failure goes in Config.Faults.
type Scenario struct {
	ID, Title, Situation string
	// Tool and Arguments are the call the scenario makes; a learner asks
	// their client to make it.
	Tool      string
	Arguments map[string]any
	// Raw is set for a scenario whose request is hand-written bytes (a
	// malformed frame) that no real client sends.
	Raw string
	// Feedback is the scenario's own text for each recovery action; the
	// report card quotes it for failures of the scenario's tool.
	Feedback map[rules.Action]string
}

// Config configures a Server.
type Config struct {
	// Style is how failures are written (default good).
	Style mockserver.Style
	// Spec, when set, is the newest revision offered (a client settles on
	// it or older) and the revision assumed for requests that name none.
	// "" offers every revision; the assumed one is rules.DefaultRevision.
	Spec rules.Revision
	// Faults injects failures by tool (a scenario's failure).
	Faults map[string]mockserver.Fault
	// Sequence injects failures call by call (a --script).
	Sequence map[string][]mockserver.Fault
	// FailureModes adds the failure_mode practice argument to every tool;
	// set it when there is neither a scenario nor a script.
	FailureModes bool
	// Scenario describes the scenario served, if any.
	Scenario *Scenario
	// Script names the script served, if any ("refund-day.yaml").
	Script string
	// ExchangeLog receives every exchange as one JSON object a line (see
	// LogLine); nil keeps none.
	ExchangeLog io.Writer
	// Diagnostics receives the server's own log: sessions opening and
	// closing, transport errors, the detail behind a correlationId. Never
	// stdout in stdio mode. nil discards it.
	Diagnostics io.Writer
	// Now is the clock (default time.Now); tests pass their own.
	Now func() time.Time
	// FixedCorrelationIDs serves the lab's deterministic correlationIds
	// (derived from tool, arguments and attempt) instead of a random one
	// per incident (mockserver.Options.RandomCorrelationIDs), for tests
	// and goldens that compare served bytes with the lab's.
	FixedCorrelationIDs bool
}

// Server serves the mock server to real clients. One Server may serve a
// stdio client and any number of HTTP clients; each client session gets a
// mock server of its own, so a scenario's "fails the first time, works
// the second" counts that client's calls only.
type Server struct {
	cfg     Config
	start   time.Time
	diag    *log.Logger
	changed chan struct{}

	logMu sync.Mutex // guards log and seq
	log   io.Writer
	seq   int

	mu       sync.Mutex
	sessions []*session
	listen   string
	// replayed names the exchange log a replay was read from (ReadLog).
	replayed string

	classified classifyCache
}

// New returns a Server; nothing is served until ServeStdio or ServeHTTP.
func New(cfg Config) *Server {
	if cfg.Style == "" {
		cfg.Style = mockserver.StyleGood
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Diagnostics == nil {
		cfg.Diagnostics = io.Discard
	}
	return &Server{
		cfg:     cfg,
		start:   cfg.Now(),
		diag:    log.New(cfg.Diagnostics, "errorlab serve: ", 0),
		changed: make(chan struct{}, 1),
		log:     cfg.ExchangeLog,
	}
}

// Config returns the configuration, defaults filled.
func (s *Server) Config() Config { return s.cfg }

// Changed is signalled (without blocking; several changes may make one
// signal) whenever an exchange is recorded or a session opens or ends.
// A watcher takes a Snapshot when it fires.
func (s *Server) Changed() <-chan struct{} { return s.changed }

func (s *Server) notify() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// Listening is the address clients reach ("http://127.0.0.1:8765/mcp",
// "stdio"), once serving has begun.
func (s *Server) Listening() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listen
}

func (s *Server) setListening(addr string) {
	s.mu.Lock()
	s.listen = addr
	s.mu.Unlock()
	s.notify()
}

// clock is the mock servers' time: seconds since the Server started, so a
// rate limit holds for real seconds.
func (s *Server) clock() float64 { return s.cfg.Now().Sub(s.start).Seconds() }

// mockOptions are the options of every client session's mock server.
func (s *Server) mockOptions(style mockserver.Style) mockserver.Options {
	rev := s.cfg.Spec
	if rev == "" {
		rev = rules.DefaultRevision
	}
	return mockserver.Options{
		Style:        style,
		Revision:     rev,
		Newest:       s.cfg.Spec,
		Faults:       s.cfg.Faults,
		Sequence:     s.cfg.Sequence,
		FailureModes: s.cfg.FailureModes,
		// One id per incident, never shared by two sessions or processes.
		RandomCorrelationIDs: !s.cfg.FixedCorrelationIDs,
		Clock:                s.clock,
		Log:                  s.cfg.Diagnostics,
	}
}

// OfferedVersions lists the protocol versions offered, newest first.
func (s *Server) OfferedVersions() []string {
	return mockserver.New(s.mockOptions(mockserver.StyleGood)).OfferedVersions()
}

// newSession starts a client session with a mock server of its own (and,
// when the style is bad, a good-style twin that tells the truth of each
// failure: see session.truth).
func (s *Server) newSession(id, transport string) *session {
	ss := &session{
		id:        id,
		transport: transport,
		srv:       mockserver.New(s.mockOptions(s.cfg.Style)),
		started:   s.cfg.Now(),
		owner:     s,
	}
	if s.cfg.Style != mockserver.StyleGood {
		ss.shadow = mockserver.New(s.mockOptions(mockserver.StyleGood))
	}
	s.mu.Lock()
	s.sessions = append(s.sessions, ss)
	s.mu.Unlock()
	s.diag.Printf("session %s opened (%s)", id, transport)
	s.notify()
	return ss
}

// dropSession forgets a session that never began (an initialize the
// transport refused).
func (s *Server) dropSession(ss *session) {
	s.mu.Lock()
	for i, x := range s.sessions {
		if x == ss {
			s.sessions = append(s.sessions[:i], s.sessions[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	s.notify()
}

// endSession closes a session's report card: failures still waiting for
// a move are marked "stopped", or, when the server is stopping
// (serverStopped) soon after them, left pending as cut off (see
// cardBuilder.finish).
func (s *Server) endSession(ss *session, serverStopped bool) {
	ss.mu.Lock()
	if ss.ended {
		ss.mu.Unlock()
		return
	}
	ss.ended = true
	ss.endedAt = s.cfg.Now()
	ss.card.finish(serverStopped, ss.endedAt)
	if len(ss.exchanges) > KeptWhenEnded { // the card stays whole; the history need not
		ss.exchanges = slices.Clone(ss.exchanges[len(ss.exchanges)-KeptWhenEnded:])
	}
	ss.mu.Unlock()
	s.diag.Printf("session %s ended", ss.id)
	s.notify()
}

// Finish ends every session still open as the server stops (their
// failures without a move are "stopped", or pending when the stop cut
// the move off) and returns the final report. Call it when serving is over.
func (s *Server) Finish() Report {
	s.mu.Lock()
	all := append([]*session(nil), s.sessions...)
	s.mu.Unlock()
	for _, ss := range all {
		s.endSession(ss, true)
	}
	return s.Report()
}

// newID is a random session id (16 hex digits).
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// record is one exchange of a session: it is numbered, written to the
// exchange log, added to the session's history and scored on its card.
func (s *Server) record(ss *session, req, resp []byte, received, sent time.Time, status int) Exchange {
	h, ok := readHead(req)
	return s.recordHead(ss, req, resp, "", h, ok, received, sent, status)
}

// recordHead is record for a request whose head is already read; text
// is the body answered when it was not a JSON-RPC message (Exchange.HTTPBody).
//
// A session's exchanges are numbered, logged and scored one at a time,
// in one order, so a replay of the log (ReadLog) scores them as the live
// card did; times keep only their wall-clock reading, the one the log
// holds, for the same reason.
func (s *Server) recordHead(ss *session, req, resp []byte, text string, h requestHead, ok bool, received, sent time.Time, status int) Exchange {
	ss.order.Lock()
	defer ss.order.Unlock()
	ex := s.exchangeOf(req, resp, h, ok)
	ex.Session, ex.Transport, ex.Spec = ss.id, ss.transport, ss.revision(h)
	ex.Received, ex.Sent, ex.HTTPStatus, ex.HTTPBody = received.Round(0), sent.Round(0), status, text
	if s.cfg.Scenario != nil {
		ex.Scenario = s.cfg.Scenario.ID
	}
	ex.Style = s.cfg.Style
	ex.Truth = ss.truth(ex)
	s.logMu.Lock()
	s.seq++ // only here, under logMu: the log's order is the numbers' order
	ex.Seq = s.seq
	s.writeLog(ex)
	s.logMu.Unlock()
	ss.add(ex)
	s.notify()
	return ex
}

// recordRefusal logs a request the HTTP transport refused before any
// client session took it (see Exchange.Refused): numbered in the log's
// order like every exchange, scored on no card. resp is the JSON-RPC
// error answered, or nil with text the plain-text body.
func (s *Server) recordRefusal(method string, req, resp []byte, text string, received time.Time, status int) {
	ex := Exchange{Transport: TransportHTTP, Request: req, Response: resp, HTTPBody: text, HTTPStatus: status, Refused: true,
		Received: received.Round(0), Sent: s.cfg.Now().Round(0)}
	if method != "POST" {
		ex.HTTPMethod = method
	}
	if s.cfg.Scenario != nil {
		ex.Scenario = s.cfg.Scenario.ID
	}
	s.logMu.Lock()
	s.seq++
	ex.Seq = s.seq
	s.writeLog(ex)
	s.logMu.Unlock()
}

// Snapshot is the state of every session for a watcher: the newest first
// (a replay's in the log's order).
type Snapshot struct {
	Listening string
	Sessions  []SessionView
}

// SessionView is one client session: its card and its exchanges (the
// last MaxKept), oldest first.
type SessionView struct {
	Card      Card
	Exchanges []Exchange
}

// Snapshot copies the state of every session.
func (s *Server) Snapshot() Snapshot {
	s.mu.Lock()
	all := append([]*session(nil), s.sessions...)
	snap := Snapshot{Listening: s.listen}
	s.mu.Unlock()
	if s.replayed == "" {
		slices.Reverse(all)
	}
	for _, ss := range all {
		ss.mu.Lock()
		kept := ss.exchanges[max(len(ss.exchanges)-MaxKept, 0):]
		view := SessionView{Card: ss.cardView(s.cfg.Now()), Exchanges: make([]Exchange, len(kept))}
		for i, ex := range kept {
			view.Exchanges[i] = *ex
		}
		ss.mu.Unlock()
		snap.Sessions = append(snap.Sessions, view)
	}
	return snap
}

// Report is every session's card, oldest session first, with what was
// served.
func (s *Server) Report() Report {
	s.mu.Lock()
	all := append([]*session(nil), s.sessions...)
	s.mu.Unlock()
	r := Report{
		Started:  s.start,
		Ended:    s.cfg.Now(),
		Serving:  s.Describe(),
		Style:    s.cfg.Style,
		Spec:     s.cfg.Spec,
		Listen:   s.Listening(),
		Sessions: []Card{},
	}
	for _, ss := range all {
		ss.mu.Lock()
		c := ss.cardView(r.Ended)
		ss.mu.Unlock()
		if c.Calls == 0 && len(c.Entries) == 0 && c.Client == "" {
			continue // a probe that never spoke MCP
		}
		r.Sessions = append(r.Sessions, c)
	}
	sort.SliceStable(r.Sessions, func(i, j int) bool { return r.Sessions[i].Started.Before(r.Sessions[j].Started) })
	return r
}

// Describe says in one line what failures are served.
func (s *Server) Describe() string {
	if s.replayed != "" {
		if s.cfg.Scenario != nil {
			return fmt.Sprintf("a replay of %s (scenario %s: %s)", s.replayed, s.cfg.Scenario.ID, s.cfg.Scenario.Title)
		}
		return "a replay of " + s.replayed
	}
	switch {
	case s.cfg.Scenario != nil:
		return fmt.Sprintf("scenario %s: %s", s.cfg.Scenario.ID, s.cfg.Scenario.Title)
	case s.cfg.Script != "":
		return "script " + s.cfg.Script
	case s.cfg.FailureModes:
		return "failures on demand: the failure_mode argument of each tool"
	}
	return "no injected failures: the mock world's own"
}

// writeLog writes ex to the exchange log. Call with logMu held.
func (s *Server) writeLog(ex Exchange) {
	if s.log == nil {
		return
	}
	line := ex.LogJSON()
	if _, err := s.log.Write(line); err != nil {
		s.diag.Printf("the exchange log could not be written: %v", err)
		s.log = nil
	}
}
