package quiz

import (
	"testing"
	"time"
)

// TestTheLastTenExamsKeepTheirAnswers: every exam stays in the history
// (score, time, topics), and the newest KeptExams keep the questions and
// answers that reopening needs; RecentExams lists those, newest first.
func TestTheLastTenExamsKeepTheirAnswers(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	for i := range KeptExams + 2 {
		e := ExamRecord{At: at.Add(time.Duration(i) * time.Hour), Questions: 2, Correct: i % 3, PassMark: 0.7,
			Items: []string{"q1", "q2"}, Answers: []Answer{{{0}}, nil}, Flags: []bool{false, true}}
		if err := s.RecordExam(e); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Exams) != KeptExams+2 {
		t.Fatalf("the history has %d exams, want all %d", len(p.Exams), KeptExams+2)
	}
	for i, e := range p.Exams {
		if kept := len(e.Items) > 0 && len(e.Answers) > 0; kept != (i >= 2) {
			t.Errorf("exam %d keeps its answers: %v", i+1, kept)
		}
		if e.Correct != i%3 || e.Questions != 2 {
			t.Errorf("exam %d lost its score: %+v", i+1, e)
		}
	}
	recent := RecentExams(p)
	if len(recent) != KeptExams || !recent[0].At.Equal(at.Add(time.Duration(KeptExams+1)*time.Hour)) || !recent[KeptExams-1].At.Equal(at.Add(2*time.Hour)) {
		t.Errorf("recent exams: %d, newest %v, oldest %v", len(recent), recent[0].At, recent[len(recent)-1].At)
	}
	if KeptExams != 10 {
		t.Errorf("KeptExams is %d; the README and the help say 10", KeptExams)
	}
}
