package quiz

import "time"

// Leitner boxes (LESSON-RULES-independent study scheduling): a wrong
// answer sends an item to box 1 at once; a right answer moves it up a
// box, at most once a day (Spaced), and three such moves in a row master
// it; mastered items rest (review skips them). A right answer given the
// same day as the last move up is counted (Right, LastAt) but moves
// nothing: answering one question again and again in one sitting is not
// learning it, so it cannot master it.
const (
	BoxMissed     = 1
	Mastered      = 4
	MasteryStreak = 3
)

// Spaced is the Leitner spacing, in words for the learner: how often a
// right answer can move a question up a box.
const Spaced = "once a day"

// spacing is Spaced as a duration: a right answer moves a question up only
// if its last move up was at least this long before. Elapsed time, not the
// calendar, so the rule is the same on a classroom server in another time
// zone and 23:59 then 00:01 is not two days (20 h lets a learner who
// revises at about the same time each day move up every day).
const spacing = 20 * time.Hour

// sameDay reports whether a and b lie less than spacing apart (either
// way: a clock set back does not stall a learner).
func sameDay(a, b time.Time) bool {
	d := b.Sub(a)
	return d < spacing && d > -spacing
}

// Apply updates an item's record with one answer.
func (r ItemRecord) Apply(correct bool, at time.Time) ItemRecord {
	r.LastAt, r.LastRes = at.UTC(), correct
	if !correct {
		r.Wrong++
		r.Box, r.Streak = BoxMissed, 0
		return r
	}
	r.Right++
	if !r.UpAt.IsZero() && sameDay(r.UpAt, at) {
		return r // moved up today already: counted, not promoted
	}
	r.UpAt = at.UTC()
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

// KeptExams is how many of the newest finished mock exams keep their
// questions and answers in progress, so each can be reopened (Past
// exams on the quiz menu). Older exams keep their score, time and topics
// for the history and the report.
const KeptExams = 10

// RecordExam appends a finished exam to the history. The exam before the
// newest KeptExams loses its questions and answers (its score stays).
func (s *Store) RecordExam(e ExamRecord) error {
	return s.Update(func(p *Progress) error {
		p.Exams = append(p.Exams, e)
		for i := range max(len(p.Exams)-KeptExams, 0) {
			p.Exams[i].Items, p.Exams[i].Answers, p.Exams[i].Flags = nil, nil, nil
		}
		return nil
	})
}

// RecentExams is the newest KeptExams finished exams of p, newest first:
// the ones that can be reopened. A record written before exams kept their
// answers is among them, without Items (Pool.ReplayExam says so).
func RecentExams(p *Progress) []ExamRecord {
	if p == nil {
		return nil
	}
	n := min(len(p.Exams), KeptExams)
	out := make([]ExamRecord, 0, n)
	for i := len(p.Exams) - 1; i >= len(p.Exams)-n; i-- {
		out = append(out, p.Exams[i])
	}
	return out
}
