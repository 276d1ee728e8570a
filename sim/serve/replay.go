package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// MaxLogLine bounds one line of an exchange log that ReadLog accepts: a
// request and a response of at most a message each (1 MiB,
// mockserver.MaxMessageBytes), the truth, and room to spare.
const MaxLogLine = 8 << 20

// maxLogProblems is how many problems a LogError lists before ReadLog
// stops reading.
const maxLogProblems = 20

// LogError is an exchange log that cannot be replayed. Problems are
// "NAME:LINE: what is wrong", in file order; nothing of the log is kept.
type LogError struct {
	Name     string
	Problems []string
	// Stopped is set when reading stopped after maxLogProblems problems.
	Stopped bool
}

func (e *LogError) Error() string {
	var b strings.Builder
	if len(e.Problems) == 1 && !e.Stopped {
		fmt.Fprintf(&b, "%s cannot be replayed: %s", e.Name, e.Problems[0])
	} else {
		fmt.Fprintf(&b, "%s cannot be replayed:", e.Name)
		for _, p := range e.Problems {
			b.WriteString("\n  " + p)
		}
		if e.Stopped {
			fmt.Fprintf(&b, "\n  … reading stopped after %d problems", len(e.Problems))
		}
	}
	b.WriteString("\nA replay reads the exchange log `errorlab serve --log FILE` writes: one JSON object a line, " +
		`{"time", "session", "spec", "transport", "request", "response"}.`)
	return b.String()
}

// logRecord is one line of the exchange log, as Exchange.LogJSON writes it.
type logRecord struct {
	Time       string          `json:"time"`
	Session    string          `json:"session"`
	Spec       string          `json:"spec"`
	Transport  string          `json:"transport"`
	Seq        int             `json:"seq"`
	Sent       string          `json:"sent"`
	Scenario   string          `json:"scenario"`
	Style      string          `json:"style"`
	HTTPStatus int             `json:"httpStatus"`
	Request    json.RawMessage `json:"request"`
	Response   json.RawMessage `json:"response"`
	Truth      json.RawMessage `json:"truth"`
}

// ReplayOptions configure ReadLog.
type ReplayOptions struct {
	// Scenario finds the lab scenario a log names ("scenario"), so the
	// cards quote its feedback as the live cards did; nil, or nil for an
	// id, leaves the feedback out.
	Scenario func(id string) *Scenario
}

// ReadLog reads an exchange log (`errorlab serve --log FILE`, see
// Exchange.LogJSON) and returns a Server holding its client sessions as
// the live server held them when it stopped: each session's exchanges
// (the last MaxKept) and its report card, computed by the same code
// (session.add, the card's observe and rules.Classify) from the same
// exchanges in the same order. Nothing is served; Replayed names the log.
//
// name labels the log in errors and on screen. A line that is not such a
// record is a problem "NAME:LINE: what"; the error is a *LogError listing
// them (reading stops after 20), or the reader's own error, and then no
// Server is returned. A log without seq, sent or truth (written before
// they existed) is read with the line's order as seq and time as sent.
// A request the HTTP transport refused before any session took it
// (logged with "session":"" and its httpStatus) belongs to no card and is
// skipped. The log holds no session's start or end: a replayed card starts at its
// session's first request and ends with its last response. Memory grows
// with the sessions and their failures, not with the log's length.
func ReadLog(r io.Reader, name string, opts ReplayOptions) (*Server, error) {
	rp := &replay{name: name, opts: opts, sessions: map[string]*session{}}
	br := bufio.NewReaderSize(r, 64<<10)
	for line := 1; ; line++ {
		raw, tooLong, err := readLine(br)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		if tooLong {
			rp.problem(line, "the line is longer than %d MiB; errorlab serve writes no line that long", MaxLogLine>>20)
		} else if b := bytes.TrimSpace(raw); len(b) > 0 {
			rp.line(b, line)
		}
		if len(rp.problems) >= maxLogProblems && err == nil {
			rp.stopped = true
			break
		}
		if err != nil {
			break
		}
	}
	if len(rp.problems) == 0 && rp.srv == nil {
		rp.problems = append(rp.problems, name+": it holds no exchange")
	}
	if len(rp.problems) > 0 {
		return nil, &LogError{Name: name, Problems: rp.problems, Stopped: rp.stopped}
	}
	return rp.finish(), nil
}

// readLine reads one line (without its newline). A line longer than
// MaxLogLine is read to its end and dropped: tooLong. err is io.EOF at
// the end of the input (with the last line, if it had no newline).
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxLogLine+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}

// replay is ReadLog's state.
type replay struct {
	name     string
	opts     ReplayOptions
	srv      *Server
	sessions map[string]*session
	order    []*session
	last     map[*session]time.Time
	count    int
	end      time.Time
	problems []string
	stopped  bool
}

func (rp *replay) problem(line int, format string, a ...any) {
	rp.problems = append(rp.problems, fmt.Sprintf("%s:%d: %s", rp.name, line, fmt.Sprintf(format, a...)))
}

// line reads one record and adds its exchange to its session.
func (rp *replay) line(b []byte, line int) {
	if b[0] != '{' {
		rp.problem(line, "not a JSON object; each line of an exchange log is one object")
		return
	}
	var rec logRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		rp.problem(line, "%s", jsonProblem(err))
		return
	}
	received, err := time.Parse(time.RFC3339Nano, rec.Time)
	switch {
	case rec.Time == "":
		rp.problem(line, `no "time" (when the request arrived, RFC 3339)`)
		return
	case err != nil:
		rp.problem(line, `"time" %q is not an RFC 3339 time`, rec.Time)
		return
	case rec.Session == "" && rec.HTTPStatus >= 400 && rec.Transport == TransportHTTP:
		return // a request the transport refused before any session took it: on no card
	case rec.Session == "":
		rp.problem(line, `no "session" (the client session the exchange belongs to)`)
		return
	case rec.Request == nil:
		rp.problem(line, `no "request"`)
		return
	case rec.Response == nil:
		rp.problem(line, `no "response" (null for a notification)`)
		return
	case rec.Transport != "" && rec.Transport != TransportHTTP && rec.Transport != TransportStdio:
		rp.problem(line, `"transport" %q: want http or stdio`, rec.Transport)
		return
	case rec.Seq < 0:
		rp.problem(line, `"seq" %d is negative`, rec.Seq)
		return
	}
	var spec rules.Revision
	if rec.Spec != "" {
		if spec, err = rules.ParseRevision(rec.Spec); err != nil {
			rp.problem(line, `"spec": %v`, err)
			return
		}
	}
	if rec.Style != "" {
		if _, err := mockserver.ParseStyle(rec.Style); err != nil {
			rp.problem(line, `"style": %v`, err)
			return
		}
	}
	sent := received
	if rec.Sent != "" {
		if sent, err = time.Parse(time.RFC3339Nano, rec.Sent); err != nil {
			rp.problem(line, `"sent" %q is not an RFC 3339 time`, rec.Sent)
			return
		}
	}
	if len(rp.problems) > 0 {
		return // only checking from here on: nothing is kept of a bad log
	}
	req, resp, truth := logged(rec.Request), logged(rec.Response), logged(rec.Truth)
	if rp.srv == nil {
		rp.start(rec, received)
	}
	rp.count++
	h, ok := readHead(req)
	ex := rp.srv.exchangeOf(req, resp, h, ok)
	ex.Seq = rec.Seq
	if ex.Seq == 0 {
		ex.Seq = rp.count
	}
	ex.Session, ex.Transport, ex.Spec, ex.Scenario, ex.Style = rec.Session, rec.Transport, spec, rec.Scenario, rp.srv.cfg.Style
	ex.Received, ex.Sent, ex.HTTPStatus, ex.Truth = received, sent, rec.HTTPStatus, truth
	if ex.HTTPStatus == 0 && ex.Transport == TransportHTTP {
		ex.HTTPStatus = http.StatusOK // the log leaves out 200
	}
	ss := rp.sessions[rec.Session]
	if ss == nil {
		ss = &session{id: rec.Session, transport: rec.Transport, started: received, owner: rp.srv}
		rp.sessions[rec.Session] = ss
		rp.order = append(rp.order, ss)
	}
	ss.add(ex)
	rp.last[ss] = sent
	if sent.After(rp.end) {
		rp.end = sent
	}
}

// start makes the Server of the replay at its first exchange.
func (rp *replay) start(rec logRecord, at time.Time) {
	var sc *Scenario
	if rec.Scenario != "" {
		if rp.opts.Scenario != nil {
			sc = rp.opts.Scenario(rec.Scenario)
		}
		if sc == nil {
			sc = &Scenario{ID: rec.Scenario, Title: "(not in this catalogue)"}
		}
	}
	rp.srv = New(Config{Scenario: sc, Style: mockserver.Style(rec.Style), Now: func() time.Time { return at }})
	rp.srv.replayed = rp.name
	rp.last = map[*session]time.Time{}
	rp.end = at
}

// finish ends every session at its last response, as Finish ends a live
// server's, keeping the last MaxKept exchanges of each.
func (rp *replay) finish() *Server {
	s := rp.srv
	end := rp.end
	s.cfg.Now = func() time.Time { return end }
	for _, ss := range rp.order {
		ss.ended, ss.endedAt = true, rp.last[ss]
		ss.card.finish(false, rp.last[ss]) // the log holds no stop: read as the client's end
		if len(ss.exchanges) > MaxKept {
			ss.exchanges = slices.Clone(ss.exchanges[len(ss.exchanges)-MaxKept:])
		}
	}
	s.sessions = rp.order
	return s
}

// logged is a request, response or truth as it crossed the wire: the
// JSON as it is, or the bytes a JSON string holds (a frame that was not
// JSON); null is nil.
func logged(raw json.RawMessage) []byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []byte(s)
		}
	}
	return append([]byte(nil), raw...)
}

// jsonProblem says what encoding/json found wrong, without Go type names.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := map[string]string{"time": "a string", "session": "a string", "spec": "a string", "transport": "a string",
			"seq": "a whole number", "sent": "a string", "scenario": "a string", "httpStatus": "a whole number"}[te.Field]
		if want == "" {
			want = "another type"
		}
		return fmt.Sprintf("%q is %s, not %s", te.Field, te.Value, want)
	}
	return fmt.Sprintf("not JSON (%v); each line of an exchange log is one JSON object", err)
}

// Replayed names the exchange log a Server was read from (ReadLog), ""
// for a live server.
func (s *Server) Replayed() string { return s.replayed }
