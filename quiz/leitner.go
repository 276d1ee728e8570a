package quiz

import "time"

// Leitner boxes (LESSON-RULES-independent study scheduling): a wrong
// answer sends an item to box 1; each right answer moves it up a box; three
// right in a row masters it, and mastered items rest (review skips them).
const (
	BoxMissed     = 1
	Mastered      = 4
	MasteryStreak = 3
)

// Apply updates an item's record with one answer.
func (r ItemRecord) Apply(correct bool, at time.Time) ItemRecord {
	r.LastAt, r.LastRes = at.UTC(), correct
	if !correct {
		r.Wrong++
		r.Box, r.Streak = BoxMissed, 0
		return r
	}
	r.Right++
	r.Streak++
	switch {
	case r.Streak >= MasteryStreak:
		r.Box = Mastered
	case r.Box == 0:
		r.Box = 2
	case r.Box < Mastered-1:
		r.Box++
	}
	return r
}

// RecordItem stores one answer to a question or drill.
func (s *Store) RecordItem(id, topic string, correct bool, at time.Time) error {
	return s.Update(func(p *Progress) error {
		r := p.Items[id]
		r.Topic = topic
		p.Items[id] = r.Apply(correct, at)
		return nil
	})
}

// RecordExam appends a finished exam to the history.
func (s *Store) RecordExam(e ExamRecord) error {
	return s.Update(func(p *Progress) error {
		p.Exams = append(p.Exams, e)
		return nil
	})
}
