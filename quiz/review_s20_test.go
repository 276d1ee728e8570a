package quiz

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestLeitnerSpacingIsElapsedTime: a review of this session's change found
// that "once a calendar day" let a learner move a question up at 23:59 and
// again at 00:01, and on a classroom server the day was the server's. The
// spacing is elapsed time, the same in every time zone.
func TestLeitnerSpacingIsElapsedTime(t *testing.T) {
	late := time.Date(2026, 12, 2, 23, 59, 0, 0, time.Local)
	r := ItemRecord{}.Apply(true, late)
	r = r.Apply(true, late.Add(2*time.Minute)) // 00:01, the next calendar day
	if r.Box != 2 {
		t.Fatalf("right at 23:59 and again at 00:01: box %d, want 2 (one move up)", r.Box)
	}
	if r = r.Apply(true, late.Add(21*time.Hour)); r.Box != 3 {
		t.Fatalf("right again 21 h later: box %d, want 3", r.Box)
	}
}

// TestSalvagedExamKeepsAStrangeKey: an exam record with an extra key that
// holds a control character is still carried over (the key was quoted the
// Go way, which is not JSON, and the whole exam was dropped).
func TestSalvagedExamKeepsAStrangeKey(t *testing.T) {
	_, good := writtenProgress(t)
	body := bytes.Replace(good, []byte(`"correct": 2,`), []byte(`"correct": 2, "\u0001": 1, "questions": "x",`), 1)
	s, p := openWith(t, body)
	if len(p.Exams) != 3 {
		t.Fatalf("want the 3 exams kept, got %d; notice:\n%s", len(p.Exams), s.Notice)
	}
}

// TestPassedRecountedWithoutAPassLine: a bad "passed" with no pass line is
// worked out against the usual pass line, not against 0 (which passed
// every exam).
func TestPassedRecountedWithoutAPassLine(t *testing.T) {
	_, good := writtenProgress(t)
	first := bytes.Index(good, []byte(`"passed": `))
	end := first + bytes.IndexAny(good[first:], ",\n")
	body := append(append(append([]byte{}, good[:first]...), []byte(`"passed": "x"`)...), good[end:]...)
	body = bytes.Replace(body, []byte(`"passMark": 0.7,`), nil, 1)
	s, p := openWith(t, body)
	if len(p.Exams) != 3 {
		t.Fatalf("want the 3 exams kept, got %d; notice:\n%s", len(p.Exams), s.Notice)
	}
	e := p.Exams[0]
	if want := float64(e.Correct)/float64(e.Questions) >= DefaultPassMark; e.Passed != want || !strings.Contains(s.Notice, "worked out again") {
		t.Errorf("passed %v for %d of %d (pass line %v), want %v; notice:\n%s", e.Passed, e.Correct, e.Questions, e.PassMark, want, s.Notice)
	}
}
