package quiz

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"time"
)

// Mode is how a session runs.
type Mode string

const (
	// Practice gives the verdict and explanations after each item.
	Practice Mode = "practice"
	// Exam is timed, gives no feedback until the end, and lets the learner
	// flag items and move freely before submitting.
	Exam Mode = "exam"
	// Review brings back what was missed before (Leitner box 1 first).
	Review Mode = "review"
)

// ParseMode accepts practice, exam or review.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case Practice, Exam, Review:
		return Mode(s), nil
	}
	return "", fmt.Errorf("unknown mode %q: use practice, exam or review", s)
}

// DefaultPassMark is the exam pass line, as a fraction.
const DefaultPassMark = 0.7

// Options configure a session.
type Options struct {
	Mode     Mode
	Topic    string        // "" = every topic
	Count    int           // items in the session (default 10; exam 20)
	Duration time.Duration // exam time limit (default 1 minute 30 per item)
	Seed     uint64        // 0 = from the clock; the same seed gives the same order
	PassMark float64       // exam pass line as a fraction (default 0.7)
	Kinds    []Kind        // restrict to these kinds (none = all)
}

// Session is one run of practice, exam or review.
type Session struct {
	Mode     Mode
	Items    []*Item
	Answers  []Answer // per item; nil until answered
	Flags    []bool   // exam: flagged for a second look
	Started  time.Time
	Duration time.Duration // exam only
	PassMark float64
	Seed     uint64
	Topic    string
	// Submitted is set when an exam is handed in (or its time runs out).
	Submitted bool
}

// ErrNothingToReview is returned for a review with nothing missed yet.
var ErrNothingToReview = errors.New("nothing to review: no question you missed is waiting. Items come back here until you answer them right three times in a row; practise to find new ones")

// NewSession draws items from the pool. Review needs the learner's
// progress; practice and exam ignore it.
func NewSession(pool *Pool, p *Progress, o Options, now time.Time) (*Session, error) {
	if o.Seed == 0 {
		o.Seed = uint64(now.UnixNano())
	}
	if o.Count <= 0 {
		o.Count = 10
		if o.Mode == Exam {
			o.Count = 20
		}
	}
	if o.PassMark <= 0 || o.PassMark > 1 {
		o.PassMark = DefaultPassMark
	}
	if o.Topic != "" && TopicTitle(o.Topic) == o.Topic {
		return nil, fmt.Errorf("unknown topic %q", o.Topic)
	}
	candidates := pool.Filter(o.Topic, o.Kinds...)
	if len(candidates) == 0 {
		return nil, fmt.Errorf("no items on topic %q", o.Topic)
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	var picked []*Item
	switch o.Mode {
	case Review:
		picked = reviewOrder(candidates, p)
		if len(picked) == 0 {
			return nil, ErrNothingToReview
		}
	default:
		picked = append([]*Item(nil), candidates...)
		r.Shuffle(len(picked), func(i, j int) { picked[i], picked[j] = picked[j], picked[i] })
		if o.Mode == Exam {
			picked = balanced(picked, o.Count)
		}
	}
	if len(picked) > o.Count {
		picked = picked[:o.Count]
	}
	s := &Session{Mode: o.Mode, Items: picked, Answers: make([]Answer, len(picked)), Flags: make([]bool, len(picked)),
		Started: now, PassMark: o.PassMark, Seed: o.Seed, Topic: o.Topic}
	if o.Mode == Exam {
		s.Duration = o.Duration
		if s.Duration <= 0 {
			s.Duration = time.Duration(len(picked)) * 90 * time.Second
		}
	}
	return s, nil
}

// balanced takes count items round-robin across topics, so an exam covers
// the topics rather than whatever the shuffle favoured.
func balanced(items []*Item, count int) []*Item {
	byTopic := map[string][]*Item{}
	var topics []string
	for _, it := range items {
		if _, seen := byTopic[it.Topic]; !seen {
			topics = append(topics, it.Topic)
		}
		byTopic[it.Topic] = append(byTopic[it.Topic], it)
	}
	var out []*Item
	for len(out) < count {
		progressed := false
		for _, t := range topics {
			if len(byTopic[t]) > 0 && len(out) < count {
				out = append(out, byTopic[t][0])
				byTopic[t] = byTopic[t][1:]
				progressed = true
			}
		}
		if !progressed {
			break
		}
	}
	return out
}

// reviewOrder returns the seen, not yet mastered items: box 1 (missed)
// first, then box 2, then box 3; oldest first within a box.
func reviewOrder(items []*Item, p *Progress) []*Item {
	if p == nil {
		return nil
	}
	var out []*Item
	for _, it := range items {
		r, seen := p.Items[it.ID]
		if seen && r.Box >= 1 && r.Box < Mastered {
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := p.Items[out[i].ID], p.Items[out[j].ID]
		if a.Box != b.Box {
			return a.Box < b.Box
		}
		return a.LastAt.Before(b.LastAt)
	})
	return out
}

// Remaining is the exam time left at now (0 when out of time; the full
// duration for untimed sessions).
func (s *Session) Remaining(now time.Time) time.Duration {
	if s.Duration <= 0 {
		return 0
	}
	left := s.Duration - now.Sub(s.Started)
	if left < 0 {
		return 0
	}
	return left
}

// Answer records the learner's choices for item i. It reports whether the
// answer is correct; in an exam the caller must not show it before the
// end.
func (s *Session) Answer(i int, a Answer) (bool, error) {
	if i < 0 || i >= len(s.Items) {
		return false, fmt.Errorf("no item %d", i)
	}
	if s.Submitted {
		return false, errors.New("the exam has been submitted")
	}
	s.Answers[i] = a
	return s.Items[i].Check(a), nil
}

// ToggleFlag flags or unflags item i (exam).
func (s *Session) ToggleFlag(i int) {
	if i >= 0 && i < len(s.Flags) {
		s.Flags[i] = !s.Flags[i]
	}
}

// Unanswered lists the items with no complete answer.
func (s *Session) Unanswered() []int {
	var out []int
	for i, it := range s.Items {
		if !it.Complete(s.Answers[i]) {
			out = append(out, i)
		}
	}
	return out
}

// TopicScore is right and total per topic.
type TopicScore struct {
	Topic   string
	Correct int
	Total   int
}

// Fraction is Correct/Total (0 when empty).
func (t TopicScore) Fraction() float64 {
	if t.Total == 0 {
		return 0
	}
	return float64(t.Correct) / float64(t.Total)
}

// Result is a scored session.
type Result struct {
	Correct  int
	Total    int
	Passed   bool
	ByTopic  []TopicScore // in Topics order
	Missed   []string     // item ids answered wrong or not at all
	Seconds  int
	PassMark float64
	// TimedOut is set when the exam's time ran out before it was handed in.
	TimedOut bool
}

// Score scores every item; unanswered items count as wrong.
func (s *Session) Score(now time.Time) Result {
	res := Result{Total: len(s.Items), PassMark: s.PassMark, Seconds: int(now.Sub(s.Started).Seconds())}
	res.TimedOut = s.Duration > 0 && now.Sub(s.Started) >= s.Duration
	if s.Duration > 0 && time.Duration(res.Seconds)*time.Second > s.Duration {
		res.Seconds = int(s.Duration.Seconds())
	}
	per := map[string]*TopicScore{}
	for i, it := range s.Items {
		ts := per[it.Topic]
		if ts == nil {
			ts = &TopicScore{Topic: it.Topic}
			per[it.Topic] = ts
		}
		ts.Total++
		if it.Check(s.Answers[i]) {
			ts.Correct++
			res.Correct++
		} else {
			res.Missed = append(res.Missed, it.ID)
		}
	}
	for _, t := range Topics {
		if ts := per[t.ID]; ts != nil {
			res.ByTopic = append(res.ByTopic, *ts)
		}
	}
	res.Passed = res.Total > 0 && float64(res.Correct)/float64(res.Total) >= s.PassMark
	return res
}

// ExamRecord turns an exam result into the record kept in progress.
func (r Result) ExamRecord(at time.Time) ExamRecord {
	by := map[string][2]int{}
	for _, t := range r.ByTopic {
		by[t.Topic] = [2]int{t.Correct, t.Total}
	}
	return ExamRecord{At: at.UTC(), Questions: r.Total, Correct: r.Correct, PassMark: r.PassMark, Passed: r.Passed,
		Seconds: r.Seconds, ByTopic: by, Missed: r.Missed, TimedOut: r.TimedOut}
}
