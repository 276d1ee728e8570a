// Package quiz keeps a learner's progress (scenarios solved, questions and
// drills answered, exam history) and, as it grows, the question bank and
// the practice, exam and review sessions.
package quiz

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/adrg/xdg"
)

// SchemaVersion is the version of the progress file this build writes.
const SchemaVersion = 1

// FileName is the progress file's name inside the state directory.
const FileName = "progress.json"

// maxProgressBytes bounds the progress file errorlab will read: years of
// answers fit in a few hundred kilobytes.
const maxProgressBytes = 32 << 20

// ScenarioRecord is what the learner did on one lab scenario.
type ScenarioRecord struct {
	Solved bool `json:"solved"` // answered correctly at least once
	// FirstCorrect is whether the very first answer ever given on the
	// scenario was right; nil before any answer.
	FirstCorrect *bool     `json:"firstCorrect,omitempty"`
	Attempts     int       `json:"attempts"`
	LastAction   string    `json:"lastAction,omitempty"`
	LastGrade    string    `json:"lastGrade,omitempty"`
	At           time.Time `json:"at"`
}

// ItemRecord is the Leitner state of one question or drill.
type ItemRecord struct {
	Topic   string    `json:"topic,omitempty"`
	Box     int       `json:"box"`    // 1 = missed recently ... Mastered
	Streak  int       `json:"streak"` // right answers in a row that moved it up
	Right   int       `json:"right"`
	Wrong   int       `json:"wrong"`
	LastAt  time.Time `json:"lastAt"`
	LastRes bool      `json:"lastCorrect"`
	// UpAt is when a right answer last moved the item up a box (Apply:
	// at most once a day); zero when none has.
	UpAt time.Time `json:"upAt,omitzero"`
}

// ExamRecord is one finished mock exam.
type ExamRecord struct {
	At        time.Time         `json:"at"`
	Questions int               `json:"questions"`
	Correct   int               `json:"correct"`
	PassMark  float64           `json:"passMark"`
	Passed    bool              `json:"passed"`
	Seconds   int               `json:"seconds"`
	ByTopic   map[string][2]int `json:"byTopic"`            // topic → [correct, total]
	TimedOut  bool              `json:"timedOut,omitempty"` // the time ran out before it was handed in
	Missed    []string          `json:"missed,omitempty"`
	// The exam itself, so its answers can be walked again later (Pool.
	// ReplayExam); absent from records written before they were kept.
	Items   []string `json:"items,omitempty"`   // item ids, in exam order
	Answers []Answer `json:"answers,omitempty"` // per item, as handed in (nil: not answered)
	Flags   []bool   `json:"flags,omitempty"`
	Limit   int      `json:"limit,omitempty"` // the time allowed, in seconds
	Seed    uint64   `json:"seed,omitempty"`
}

// Progress is the whole progress file.
type Progress struct {
	SchemaVersion int                       `json:"schemaVersion"`
	Scenarios     map[string]ScenarioRecord `json:"scenarios"`
	Items         map[string]ItemRecord     `json:"items"`
	Exams         []ExamRecord              `json:"exams"`
}

// clone deep-copies the progress, so callers cannot change a store's
// snapshot by accident.
func (p *Progress) clone() *Progress {
	b, _ := json.Marshal(p)
	out := newProgress()
	_ = json.Unmarshal(b, out)
	return out
}

func newProgress() *Progress {
	return &Progress{SchemaVersion: SchemaVersion, Scenarios: map[string]ScenarioRecord{}, Items: map[string]ItemRecord{}}
}

// Store is the progress file on disk. Every change is a locked
// read-modify-write with an atomic replace (temp file, fsync, rename), so
// two errorlab processes answering at once lose no answer and a crash
// mid-write leaves the previous file intact.
type Store struct {
	path string

	mu    sync.Mutex
	cache *Progress // last snapshot read or written, for Solved
	// Notice is set when opening (or a later save) had to move a
	// damaged file aside; it says where the original is, what was left
	// out (one part a line) and what was carried over, for the learner
	// to read.
	Notice string
	// KeptAs is the path the damaged file was moved to, byte for byte as
	// it was ("" when none was).
	KeptAs string
	// Dropped names each part of the damaged file that could not be read
	// and was left out, with where it is in the file and why: "mock exam
	// #2 (line 40): ...". Empty when nothing could be carried over (the
	// file was not progress JSON at all) or nothing was damaged.
	Dropped []string
	// Salvage says in a few words what was wrong with the damaged file
	// when what could be read of it was carried over ("had 1 part that
	// could not be read", "ends part-way at line 61 (...)"); "" when
	// nothing was carried over or nothing was damaged.
	Salvage string
}

// DefaultDir is errorlab's XDG state directory ($XDG_STATE_HOME/errorlab).
func DefaultDir() string { return filepath.Join(xdg.StateHome, "errorlab") }

// Open opens (creating if needed) the progress file in dir; dir "" means
// DefaultDir. A file that is not progress JSON at all, or of a newer
// schema, is moved aside as progress.json.corrupt-<time> and a fresh one
// starts. A progress file with some parts that cannot be read (a record
// of the wrong type, an unknown topic, a file cut off part-way) is moved
// aside the same way, byte for byte, and every part that can still be
// read is carried over into a new progress.json, a bad value an exam
// can do without mended; Store.Dropped names the parts left out. Either
// way Store.Notice says what happened and where the original is. Errors
// are for a directory that cannot be created or written.
func Open(dir string) (*Store, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("progress directory %s: %w", dir, err)
	}
	s := &Store{path: filepath.Join(dir, FileName)}
	err := s.withLock(func() error {
		_, err := s.readLocked()
		var ce *corruptError
		if errors.As(err, &ce) {
			_, err = s.keepAside(ce)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if _, err := s.Load(); err != nil {
		return nil, err
	}
	return s, nil
}

// keepAside moves a damaged progress file out of the way (never
// overwriting it), writes what could still be read of it (if anything)
// as the new progress file, and records a notice saying what was left
// out and where the original went. It returns the progress to go on
// with: what was carried over, or a fresh one.
func (s *Store) keepAside(ce *corruptError) (*Progress, error) {
	aside := fmt.Sprintf("%s.corrupt-%s", s.path, time.Now().UTC().Format("20060102T150405.000Z"))
	if rerr := os.Rename(s.path, aside); rerr != nil {
		return nil, fmt.Errorf("progress file %s is unreadable (%v) and could not be moved aside: %w", s.path, ce.err, rerr)
	}
	p, notice, salvage := newProgress(), fmt.Sprintf("Your progress file could not be read: %v. It was kept, unchanged, as:\n  %s\nA fresh one was started. %s", ce.err, aside, ce.advice()), ""
	if ce.salvaged != nil {
		p = ce.salvaged
		p.SchemaVersion = SchemaVersion
		if err := writeAtomic(s.path, p); err != nil {
			return nil, fmt.Errorf("progress file %s had unreadable parts; it was moved aside, unchanged, as %s, but what could be read of it could not be written back: %w", s.path, aside, err)
		}
		notice, salvage = ce.notice(aside, p), ce.summary()
	}
	s.mu.Lock()
	s.Notice, s.KeptAs, s.Dropped, s.Salvage = notice, aside, ce.dropped, salvage
	s.mu.Unlock()
	return p, nil
}

// counts says what a progress holds: "3 lab scenarios, 41 questions and
// drills answered, 2 mock exams", leaving out what it holds none of
// ("nothing" when that is all).
func (p *Progress) counts() string {
	var parts []string
	if n := len(p.Scenarios); n > 0 {
		parts = append(parts, Plural(n, "lab scenario"))
	}
	switch n := len(p.Items); {
	case n == 1:
		parts = append(parts, "1 question or drill answered")
	case n > 1:
		parts = append(parts, fmt.Sprintf("%d questions and drills answered", n))
	}
	if n := len(p.Exams); n > 0 {
		parts = append(parts, Plural(n, "mock exam"))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// Memory returns a Store that keeps progress in memory only: for a lab
// whose state directory cannot be written, and for tests.
func Memory() *Store {
	s := &Store{}
	s.cache = newProgress()
	return s
}

// Path is the progress file's location ("" for a Memory store).
func (s *Store) Path() string { return s.path }

// corruptError is a progress file that cannot be read whole; newer is
// set when a newer errorlab wrote it. salvaged, when not nil, is every
// part of it that could still be read (some values mended); dropped
// names each part that could not, repaired each value mended (where in
// the file, and why), and cut why reading stopped before the end of
// the file ("" when it did not).
type corruptError struct {
	err      error
	newer    bool
	salvaged *Progress
	dropped  []string
	repaired []string
	cut      string
}

// summary says in a few words what is wrong with a file that was partly
// read: "had 2 parts that could not be read and needed 1 repair", "ends
// part-way at line 61 (...)".
func (e *corruptError) summary() string {
	var had []string
	if n := len(e.dropped); n > 0 {
		had = append(had, "had "+Plural(n, "part")+" that could not be read")
	}
	if n := len(e.repaired); n > 0 {
		had = append(had, "needed "+Plural(n, "repair"))
	}
	var parts []string
	if e.cut != "" {
		parts = append(parts, strings.TrimPrefix(e.cut, "it "))
	}
	if len(had) > 0 {
		parts = append(parts, strings.Join(had, " and "))
	}
	return strings.Join(parts, "; it ")
}

// notice is what the learner reads about a file kept aside as aside,
// with p carried over: what is wrong, where the original is (the path
// on a line of its own, so it can be copied whole), what was carried
// over, then what was cut off, mended and left out, one part a line, so
// a long list stays readable on screen and where it is printed when
// errorlab quits.
func (e *corruptError) notice(aside string, p *Progress) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Your progress file %s. The original is kept, unchanged, as:\n  %s\nCarried over: %s.\n", e.summary(), aside, p.counts())
	if e.cut != "" {
		b.WriteString("Cut off: every record complete before that point was carried over; what came after it is not in the new file.\n")
	}
	if len(e.repaired) > 0 {
		fmt.Fprintf(&b, "Repaired (the rest of each kept):\n  - %s\n", strings.Join(e.repaired, "\n  - "))
	}
	if len(e.dropped) > 0 {
		fmt.Fprintf(&b, "Left out:\n  - %s\n", strings.Join(e.dropped, "\n  - "))
	}
	b.WriteString(e.advice())
	return b.String()
}

func (e *corruptError) Error() string { return e.err.Error() }

// advice says what the learner can do about the kept copy.
func (e *corruptError) advice() string {
	if e.salvaged != nil {
		return "If you can mend the original, rename it back to progress.json while errorlab is closed (it then replaces what was carried over); otherwise you may delete it."
	}
	if e.newer {
		return "To go on with that progress, rename it back to progress.json and use the newer errorlab that wrote it."
	}
	return "If you can mend it, rename it back to progress.json while errorlab is closed; otherwise you may delete it."
}

// jsonProblem says in plain words why data did not decode as progress.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case err.Error() == "unexpected end of JSON input":
		return "it ends part-way (truncated, as a crash or a full disk leaves it)"
	case errors.As(err, &se):
		return fmt.Sprintf("it is not valid JSON (at byte %d: %s)", se.Offset, se.Error())
	case errors.As(err, &te):
		return fmt.Sprintf("the field %q holds %s where progress keeps %s", te.Field, jsonWord(te.Value), jsonKind(te.Type.Kind()))
	}
	return "it is not valid JSON (" + err.Error() + ")"
}

func jsonWord(v string) string {
	switch v {
	case "array", "object":
		return "an " + v
	case "":
		return "a value of the wrong kind"
	}
	return "a " + v
}

func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	}
	return "a number"
}

// readLocked reads the file; a missing file is a fresh Progress. A
// Memory store returns a copy of what it holds.
func (s *Store) readLocked() (*Progress, error) {
	if s.path == "" {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.cache.clone(), nil
	}
	info, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return newProgress(), nil
	}
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		// A FIFO or device would block or never end; a directory cannot be
		// replaced. None of them is a progress file to move aside.
		what := "a special file"
		if info.IsDir() {
			what = "a directory"
		}
		return nil, fmt.Errorf("%s is not a regular file but %s, so errorlab cannot keep progress there; it leaves it alone: move it away, or pick another place with --state-dir", s.path, what)
	}
	if info.Size() > maxProgressBytes {
		return nil, &corruptError{err: fmt.Errorf("it is %d bytes, far larger than any progress file", info.Size())}
	}
	data, err := os.ReadFile(s.path)
	if err != nil {
		return nil, err
	}
	return decodeProgress(data)
}

// ReadProgress reads the progress file in dir ("" = DefaultDir) without
// creating, locking or moving anything: for exports. A missing file is an
// empty Progress; an unreadable one is an error that says where it is.
func ReadProgress(dir string) (*Progress, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	s := &Store{path: filepath.Join(dir, FileName)}
	p, err := s.readLocked()
	var ce *corruptError
	if errors.As(err, &ce) {
		if ce.newer {
			return nil, fmt.Errorf("progress file %s cannot be read: %v. Nothing was changed: run the report with the newer errorlab", s.path, ce.err)
		}
		if ce.salvaged != nil {
			return nil, fmt.Errorf("progress file %s cannot be read whole: %v. Nothing was changed: mend the file and run the report again, or open errorlab (the lab or a quiz), which keeps it aside as %s.corrupt-<time> and carries over everything else", s.path, ce.err, FileName)
		}
		return nil, fmt.Errorf("progress file %s cannot be read: %v. Nothing was changed: mend the file and run the report again, or open errorlab (the lab or a quiz), which keeps it aside as %s.corrupt-<time> and starts fresh", s.path, ce.err, FileName)
	}
	if err != nil && !strings.Contains(err.Error(), "not a regular file") {
		return nil, fmt.Errorf("progress in %s cannot be read (%v): point --state-dir at the directory that holds your progress.json", dir, err)
	}
	return p, err
}

// Load returns a snapshot of the progress.
func (s *Store) Load() (*Progress, error) {
	var p *Progress
	err := s.withLock(func() error {
		var err error
		p, err = s.readLocked()
		return err
	})
	if err != nil {
		return nil, err
	}
	s.remember(p)
	return p.clone(), nil
}

func (s *Store) remember(p *Progress) {
	s.mu.Lock()
	s.cache = p
	s.mu.Unlock()
}

// Update applies fn to the current progress and writes the result
// atomically, holding the lock throughout. fn's error aborts the write.
func (s *Store) Update(fn func(*Progress) error) error {
	return s.withLock(func() error {
		p, err := s.readLocked()
		var ce *corruptError
		if errors.As(err, &ce) {
			// Spoiled while errorlab was running: keep it aside and carry
			// over what can be read, as Open does.
			p, err = s.keepAside(ce)
		}
		if err != nil {
			return err
		}
		if err := fn(p); err != nil {
			return err
		}
		p.SchemaVersion = SchemaVersion
		if s.path != "" {
			if err := writeAtomic(s.path, p); err != nil {
				return err
			}
		}
		s.remember(p)
		return nil
	})
}

func writeAtomic(path string, p *Progress) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".progress-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Solved reports whether the learner has answered a scenario correctly,
// from the last snapshot this Store read or wrote (no disk I/O, so a
// screen may call it while drawing).
func (s *Store) Solved(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cache != nil && s.cache.Scenarios[id].Solved
}

// MarkSolved records a correct answer on a scenario.
func (s *Store) MarkSolved(id string) error {
	return s.RecordScenario(id, "", "best", true)
}

// Mark is how a scenario shows in the lab list.
type Mark string

const (
	MarkNone Mark = ""
	// MarkFirstTime: the first answer ever given was right (✓).
	MarkFirstTime Mark = "first-time"
	// MarkAfterMiss: right in the end, after a wrong first answer (◑).
	MarkAfterMiss Mark = "after-miss"
)

// Symbol is the mark's sign on screen: ✓, ◑ or nothing.
func (m Mark) Symbol() string {
	switch m {
	case MarkFirstTime:
		return "✓"
	case MarkAfterMiss:
		return "◑"
	}
	return ""
}

// ScenarioMark says how the learner stands on a scenario, from the last
// snapshot (no disk I/O): ✓ only when the very first answer was right,
// across visits and spec revisions, so trying numbers until one is right
// shows ◑, not ✓.
func (s *Store) ScenarioMark(id string) Mark {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache == nil {
		return MarkNone
	}
	r := s.cache.Scenarios[id]
	switch {
	case r.FirstCorrect != nil && *r.FirstCorrect:
		return MarkFirstTime
	case r.Solved:
		return MarkAfterMiss
	}
	return MarkNone
}

// CurrentNotice returns the latest notice the store has for the learner
// (a progress file kept aside, at start or while running), "" when there
// is none. Screens compare it with the last one they showed.
func (s *Store) CurrentNotice() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Notice
}

// RecordScenario records one answer on a scenario: right or not, with the
// action and grade. Solved stays true once set; the first answer ever
// decides FirstCorrect.
func (s *Store) RecordScenario(id, action, grade string, correct bool) error {
	return s.Update(func(p *Progress) error {
		r := p.Scenarios[id]
		if r.Attempts == 0 && r.FirstCorrect == nil {
			first := correct
			r.FirstCorrect = &first
		}
		r.Attempts++
		if action != "" {
			r.LastAction = action
		}
		r.LastGrade = grade
		r.Solved = r.Solved || correct
		r.At = time.Now().UTC()
		p.Scenarios[id] = r
		return nil
	})
}
