package quiz

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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
	// Wanted is the length asked for; a draw that cannot reach it inside
	// StoryCap and clash holds fewer items (see Shortfall).
	Wanted int
}

// Shortfall says, in a line for the learner (at most 70 characters), why
// the session holds fewer items than asked for ("" when it holds them
// all): "4 questions, not 10: the rest of this topic would give answers
// away". The caps that keep items from handing each other their answers
// (StoryCap, clash) are never given up.
func (s *Session) Shortfall() string {
	n := len(s.Items)
	if s.Wanted <= n {
		return ""
	}
	where := "the bank"
	if s.Topic != "" {
		where = "this topic"
	}
	return fmt.Sprintf("%s, not %d: the rest of %s would give answers away", Plural(n, "question"), s.Wanted, where)
}

// Plural is "1 question", "3 questions".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// ErrNothingToReview is returned for a review with nothing missed yet.
var ErrNothingToReview = errors.New("nothing to review: no question you missed is waiting. Items come back here until you answer them right three times in a row on three different days; practise to find new ones")

// NewSession draws items from the pool. Review needs the learner's
// progress; practice and exam ignore it. Practice draws in shuffled order
// with at most StoryCap items of one story and no two that clash;
// an exam draws authored questions only (o.Kinds is ignored), as
// examDraw says (topic weights, difficulty 3 where the caps allow and a
// third at least, StoryCap, clash), at most Pool.ExamCapacity of them;
// either may hold fewer than o.Count when the pool cannot fill it inside
// the caps (Session.Shortfall). Review takes the missed
// items in Leitner order, whatever their story. The same seed gives the
// same draw.
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
	kinds := o.Kinds
	if o.Mode == Exam {
		// A mock exam is the real exam's kind of question: authored ones
		// only (drills stay in practice), whatever o.Kinds says, so the
		// quiz and `questions exam` make one draw.
		kinds = []Kind{KindQuestion}
	}
	candidates := pool.Filter(o.Topic, kinds...)
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
			// Never more than the set-up offers (ExamCapacity): a larger
			// count draws that many, and Shortfall says so.
			set := pool.fitting(o.Topic, KindQuestion)
			n := min(o.Count, len(set))
			picked = examDraw(picked, n, r)
			if len(picked) < n {
				// This seed's orders fell short of what the bank holds:
				// draw from the capacity set, whose questions all fit
				// together, so the exam has the n it offers.
				picked = examDraw(slices.Clone(set), n, r)
			}
		} else {
			picked = capped(picked, o.Count, r)
		}
	}
	if len(picked) > o.Count {
		picked = picked[:o.Count]
	}
	s := &Session{Mode: o.Mode, Items: picked, Answers: make([]Answer, len(picked)), Flags: make([]bool, len(picked)),
		Started: now, PassMark: o.PassMark, Seed: o.Seed, Topic: o.Topic, Wanted: o.Count}
	if o.Mode == Review {
		s.Wanted = len(picked)
	}
	if o.Mode == Exam {
		s.Duration = o.Duration
		if s.Duration <= 0 {
			s.Duration = time.Duration(len(picked)) * 90 * time.Second
		}
	}
	return s, nil
}

// StoryCap is the most items sharing a story that one session draws, in
// every mode (practice, a topic, drills, the mock exam, `questions
// exam`): two items of one story (Item.Story) or about one customer
// (Item.Customers) at most, so one stem cannot hand over the facts
// another question asks for (issue 12: questions that answer each other).
// A pool that cannot fill a session inside the caps gives a shorter one
// (Session.Wanted says how many were asked for); a draw never breaks them.
const StoryCap = 2

// HardShare is the least share of a mock exam drawn at difficulty 3
// (a third), so the mock exam is not easier than the real one. Above it,
// an exam takes difficulty 3 wherever the caps leave a choice.
const HardShare = 3 // one in HardShare

// hardSkip: an exam's pick takes a difficulty-3 question whenever one
// fits, except one pick in hardSkip, which takes any that fits, so a topic
// whose few difficulty-3 questions fit together does not set the same ones
// in every exam (TestMockExamsVary).
const hardSkip = 8

// examAttempts is how many orders of the pool an exam draw tries for one
// within a question of every topic share that meets the difficulty-3
// share inside the caps; drawAttempts is how many orders a practice draw
// tries for one that reaches the length asked for.
const (
	examAttempts = 64
	drawAttempts = 64
)

// draw keeps count of what a session has taken.
type draw struct {
	hard    int // how many of out are at difficulty 3
	out     []*Item
	taken   map[*Item]bool
	stories map[string]int
}

func newDraw() *draw {
	return &draw{taken: map[*Item]bool{}, stories: map[string]int{}}
}

// clash reports whether a and b may not sit in one session, in any draw:
// one tests a rule (the first of Item.Concepts, a rule of LESSON-RULES)
// that the other tests or shows (its other concepts), so a reader who
// knows nothing of MCP reads the one answer off the other; or either is
// kept apart from the other (Item.Apart, pairs blind readers named); or
// both show one lab scenario and at least one is a drill (sameScene). Two
// items that only show one rule may meet.
func clash(a, b *Item) bool {
	return len(a.Concepts) > 0 && slices.Contains(b.Concepts, a.Concepts[0]) ||
		len(b.Concepts) > 0 && slices.Contains(a.Concepts, b.Concepts[0]) ||
		slices.Contains(a.Apart, b.ID) || slices.Contains(b.Apart, a.ID) ||
		sameScene(a, b)
}

// sameScene reports whether a and b come from one lab scenario
// (Item.Scenario) and at least one of them is a drill. The drills of a
// scenario tell its story in the same words and show the same response
// (a next-move drill's explanations describe the very response its
// classify drill asks about), and a drill shows the response an authored
// question about that scenario asks the learner to work out: one session
// holds one of them at most. Two authored questions about one scenario
// are written apart and meet under StoryCap.
func sameScene(a, b *Item) bool {
	return a.Scenario != "" && a.Scenario == b.Scenario && (a.Kind != KindQuestion || b.Kind != KindQuestion)
}

// storyKeys are the keys StoryCap counts for it: its story and each
// customer it names ("customer:dana").
func storyKeys(it *Item) []string {
	var keys []string
	if it.Story != "" {
		keys = append(keys, it.Story)
	}
	for _, c := range it.Customers {
		keys = append(keys, "customer:"+c)
	}
	return keys
}

// fits reports whether it may join the draw inside StoryCap, clashing
// with no item taken.
func (d *draw) fits(it *Item) bool {
	if d.taken[it] {
		return false
	}
	for _, k := range storyKeys(it) {
		if d.stories[k] >= StoryCap {
			return false
		}
	}
	for _, t := range d.out {
		if clash(t, it) {
			return false
		}
	}
	return true
}

// take adds it if it fits; it reports whether it was added.
func (d *draw) take(it *Item) bool {
	if !d.fits(it) {
		return false
	}
	d.taken[it] = true
	if it.Difficulty >= 3 {
		d.hard++
	}
	for _, k := range storyKeys(it) {
		d.stories[k]++
	}
	d.out = append(d.out, it)
	return true
}

// fill takes items in order, inside the caps, until there are count.
func (d *draw) fill(items []*Item, count int) {
	for _, it := range items {
		if len(d.out) >= count {
			return
		}
		d.take(it)
	}
}

// capped takes count items inside StoryCap and clash, in the order
// given; when that order falls short it tries up to drawAttempts other
// orders (from r) and keeps the longest draw, which may still be shorter
// than count: the caps are never given up.
func capped(items []*Item, count int, r *rand.Rand) []*Item {
	var best []*Item
	order := append([]*Item(nil), items...)
	for n := 0; n < drawAttempts; n++ {
		if n > 0 {
			r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		d := newDraw()
		d.fill(order, count)
		if len(d.out) > len(best) {
			best = d.out
		}
		if len(best) >= count || len(best) == len(items) {
			break
		}
	}
	return best
}

// Capacity is the most items one session on topic ("" = all) of the
// given kinds (none = all) can hold inside StoryCap and clash, as
// far as drawAttempts orders find: what a set-up screen offers.
func (p *Pool) Capacity(topic string, kinds ...Kind) int {
	return len(p.fitting(topic, kinds...))
}

// fitting is the items on topic of the given kinds that one draw fits
// together, as many as drawAttempts orders find, the same whatever the
// seed: what Capacity counts.
func (p *Pool) fitting(topic string, kinds ...Kind) []*Item {
	items := p.Filter(topic, kinds...)
	return capped(items, len(items), rand.New(rand.NewPCG(1, 2)))
}

// ExamCapacity is the most questions one mock exam on topic ("" = all)
// holds inside StoryCap and clash: the "at most" of the exam's set-up,
// and exactly what NewSession draws for an exam of that count or more
// (the quiz and `questions exam` alike), whatever the seed.
func (p *Pool) ExamCapacity(topic string) int { return p.Capacity(topic, KindQuestion) }

// examDraw draws a mock exam of up to count authored questions from
// shuffled items, like the real exam: each topic's share set by its
// Weight, at least one in HardShare at difficulty 3 and more wherever the
// caps allow, at most StoryCap per story and no two that clash, in
// shuffled order. It tries up to examAttempts orders of the questions for
// one whose topics are each within one question of their share (a share
// the caps leave short is topped up from any topic) with HardShare met;
// failing that, it keeps the longest draw. A bank too small for count
// inside the caps gives fewer.
func examDraw(items []*Item, count int, r *rand.Rand) []*Item {
	var questions []*Item
	byTopic := map[string][]*Item{}
	for _, it := range items {
		if it.Kind == KindQuestion {
			questions = append(questions, it)
			byTopic[it.Topic] = append(byTopic[it.Topic], it)
		}
	}
	quota := topicQuotas(byTopic, min(count, len(questions)), r)
	var order []string
	for _, t := range Topics {
		if quota[t.ID] > 0 {
			order = append(order, t.ID)
		}
	}
	need := min((count+HardShare-1)/HardShare, len(questions))
	var best *draw
	for n := 0; n < examAttempts; n++ {
		if n > 0 {
			for _, t := range order {
				qs := byTopic[t]
				r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
			}
		}
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		d, got := newDraw(), map[string]int{}
		// The first half of the attempts take a topic's questions in
		// their shuffled order, so exams differ; the second half take the
		// one that keeps the fewest others out, for a pool the caps
		// leave tight.
		shareDraw(d, got, order, byTopic, quota, n >= examAttempts/2, r)
		// A share the caps left short is topped up from any topic, in a
		// shuffled order; the draw stands if every topic is within one
		// question of its share and the difficulty-3 share is met.
		r.Shuffle(len(questions), func(i, j int) { questions[i], questions[j] = questions[j], questions[i] })
		d.fill(questions, count)
		if d.hard >= need && len(d.out) == min(count, len(questions)) && nearShares(d.out, quota) {
			best = d
			break
		}
		if best == nil || len(d.out) > len(best.out) {
			best = d
		}
	}
	if best == nil {
		best = newDraw()
	}
	out := best.out
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// shareDraw takes questions into d, inside the caps, until each topic has
// its quota: at each step it serves the topic with the least slack (the
// fewest questions that still fit, against the number it still needs), and
// takes, of its difficulty-3 questions if any fit (else, or one time in
// hardSkip, of all), the first in its shuffled order or, when careful, one
// that keeps the fewest others out. Without that order clash (shared
// rules, Item.Apart) starves a topic whose questions share rules (layers)
// before its turn comes. got counts what each topic has.
func shareDraw(d *draw, got map[string]int, order []string, byTopic map[string][]*Item, quota map[string]int, careful bool, r *rand.Rand) {
	for {
		fitting := map[string][]*Item{}
		var open []*Item
		for _, t := range order {
			if got[t] >= quota[t] {
				continue
			}
			for _, it := range byTopic[t] {
				if d.fits(it) {
					fitting[t] = append(fitting[t], it)
					open = append(open, it)
				}
			}
		}
		topic, slack := "", 0
		for _, t := range order {
			if got[t] >= quota[t] || len(fitting[t]) == 0 {
				continue
			}
			if sl := len(fitting[t]) - (quota[t] - got[t]); topic == "" || sl < slack {
				topic, slack = t, sl
			}
		}
		if topic == "" {
			return
		}
		cands := fitting[topic]
		var hs []*Item
		for _, it := range cands {
			if it.Difficulty >= 3 {
				hs = append(hs, it)
			}
		}
		if len(hs) > 0 && r.IntN(hardSkip) != 0 {
			cands = hs
		}
		pick := cands[0] // the first in this attempt's shuffled order
		if careful {
			least, near := -1, []*Item(nil)
			for _, c := range cands {
				n := 0
				for _, o := range open {
					if o != c && d.keepsOut(c, o) {
						n++
					}
				}
				if least < 0 || n < least {
					pick, least = c, n
					near = near[:0]
				}
				if n <= least+1 {
					near = append(near, c)
				}
			}
			if len(near) > 1 { // vary among the near-best, so exams differ
				pick = near[r.IntN(len(near))]
			}
		}
		d.take(pick)
		got[topic]++
	}
}

// keepsOut reports whether taking a into d would stop b from fitting: the
// two clash, or a would bring a story of b's to StoryCap.
func (d *draw) keepsOut(a, b *Item) bool {
	if clash(a, b) {
		return true
	}
	for _, k := range storyKeys(a) {
		if d.stories[k]+1 >= StoryCap && slices.Contains(storyKeys(b), k) {
			return true
		}
	}
	return false
}

// nearShares reports whether each topic's count in out is within one
// question of its share by Weight of len(out), and of its quota.
func nearShares(out []*Item, quota map[string]int) bool {
	got, total := map[string]int{}, 0
	for _, it := range out {
		got[it.Topic]++
	}
	for _, t := range Topics {
		total += t.Weight
	}
	for _, t := range Topics {
		share := float64(len(out)*t.Weight) / float64(total)
		if math.Abs(float64(got[t.ID])-share) > 1 || got[t.ID]-quota[t.ID] > 1 || quota[t.ID]-got[t.ID] > 1 {
			return false
		}
	}
	return true
}

// topicQuotas shares n questions among the topics by Weight (largest
// remainder, ties broken by r), never more than a topic holds; what a
// topic cannot take goes to the others.
func topicQuotas(byTopic map[string][]*Item, n int, r *rand.Rand) map[string]int {
	quota := map[string]int{}
	for n > 0 {
		type share struct {
			id   string
			frac float64
		}
		var open []share
		weight := 0
		for _, t := range Topics {
			if quota[t.ID] < len(byTopic[t.ID]) {
				open = append(open, share{id: t.ID})
				weight += max(t.Weight, 1)
			}
		}
		if len(open) == 0 {
			break
		}
		r.Shuffle(len(open), func(i, j int) { open[i], open[j] = open[j], open[i] })
		given := 0
		for i := range open {
			w := max(topicWeight(open[i].id), 1)
			exact := float64(n*w) / float64(weight)
			whole := int(exact)
			whole = min(whole, len(byTopic[open[i].id])-quota[open[i].id])
			quota[open[i].id] += whole
			given += whole
			open[i].frac = exact - float64(int(exact))
		}
		left := n - given
		sort.SliceStable(open, func(i, j int) bool { return open[i].frac > open[j].frac })
		for i := 0; left > 0 && i < len(open); i++ {
			if quota[open[i].id] < len(byTopic[open[i].id]) {
				quota[open[i].id]++
				left--
			}
		}
		if left == n {
			break
		}
		n = left
	}
	return quota
}

func topicWeight(id string) int {
	for _, t := range Topics {
		if t.ID == id {
			return t.Weight
		}
	}
	return 1
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
	ByTopic  []TopicScore // in the order the topics first come in the session
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
	// Per topic, in the order the topics first come in the session: the
	// order the learner met them, and the order of the row of answers.
	per := map[string]int{}
	for i, it := range s.Items {
		k, seen := per[it.Topic]
		if !seen {
			k = len(res.ByTopic)
			per[it.Topic] = k
			res.ByTopic = append(res.ByTopic, TopicScore{Topic: it.Topic})
		}
		res.ByTopic[k].Total++
		if it.Check(s.Answers[i]) {
			res.ByTopic[k].Correct++
			res.Correct++
		} else {
			res.Missed = append(res.Missed, it.ID)
		}
	}
	res.Passed = res.Total > 0 && float64(res.Correct)/float64(res.Total) >= s.PassMark
	return res
}

// ExamRecord is the record kept in progress of exam s, handed in at at
// and scored r: the result, and the exam's items, answers and flags so
// Pool.ReplayExam can show it again.
func (s *Session) ExamRecord(r Result, at time.Time) ExamRecord {
	by := map[string][2]int{}
	for _, t := range r.ByTopic {
		by[t.Topic] = [2]int{t.Correct, t.Total}
	}
	e := ExamRecord{At: at.UTC(), Questions: r.Total, Correct: r.Correct, PassMark: r.PassMark, Passed: r.Passed,
		Seconds: r.Seconds, ByTopic: by, Missed: r.Missed, TimedOut: r.TimedOut}
	for _, it := range s.Items {
		e.Items = append(e.Items, it.ID)
	}
	e.Answers = slices.Clone(s.Answers)
	e.Flags = slices.Clone(s.Flags)
	e.Limit = int(s.Duration.Seconds())
	e.Seed = s.Seed
	return e
}

// ErrNoAnswersKept is ReplayExam's error for a record written before
// exams kept their answers.
var ErrNoAnswersKept = errors.New("that exam's answers were not kept (an older errorlab): new exams keep theirs")

// ReplayExam rebuilds a handed-in exam from its record: the session, with
// its items (from this pool), answers and flags, and its result scored
// against today's bank. It fails with ErrNoAnswersKept for an old record,
// and names how many items the pool no longer holds (a bank changed since).
func (p *Pool) ReplayExam(e ExamRecord) (*Session, Result, error) {
	if len(e.Items) == 0 {
		return nil, Result{}, ErrNoAnswersKept
	}
	s := &Session{Mode: Exam, Started: e.At.Add(-time.Duration(e.Seconds) * time.Second),
		Duration: time.Duration(e.Limit) * time.Second, PassMark: e.PassMark, Seed: e.Seed,
		Submitted: true, Wanted: len(e.Items)}
	gone := 0
	for i, id := range e.Items {
		it, ok := p.Get(id)
		if !ok {
			gone++
			continue
		}
		var a Answer
		if i < len(e.Answers) && it.Fits(e.Answers[i]) {
			a = e.Answers[i]
		}
		s.Items = append(s.Items, it)
		s.Answers = append(s.Answers, a)
		s.Flags = append(s.Flags, i < len(e.Flags) && e.Flags[i])
	}
	if gone > 0 {
		return nil, Result{}, fmt.Errorf("that exam's answers cannot be shown: the bank no longer has %d of its questions", gone)
	}
	return s, s.Score(e.At), nil
}
