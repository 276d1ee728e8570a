package quiz

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

var t0 = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

func TestLeitnerBoxes(t *testing.T) {
	day := func(n int) time.Time { return t0.Add(time.Duration(n) * 24 * time.Hour) }
	var r ItemRecord
	r = r.Apply(true, day(0))
	if r.Box != 2 || r.Streak != 1 {
		t.Fatalf("first right answer: box %d streak %d", r.Box, r.Streak)
	}
	r = r.Apply(false, day(0))
	if r.Box != BoxMissed || r.Streak != 0 || r.Wrong != 1 {
		t.Fatalf("a wrong answer must send the item to box 1: %+v", r)
	}
	r = r.Apply(true, day(1))
	r = r.Apply(true, day(2))
	if r.Box == Mastered {
		t.Fatal("mastered after two right answers; three in a row are needed")
	}
	r = r.Apply(true, day(3))
	if r.Box != Mastered {
		t.Fatalf("three right in a row, a day apart, must master the item: %+v", r)
	}
	r = r.Apply(false, day(3))
	if r.Box != BoxMissed {
		t.Fatal("a mastered item answered wrong must return to box 1")
	}
}

// TestLeitnerMovesUpOnceADay: the finding "mastery can be earned by
// repeating one question": missed, then answered right seven times within
// a minute (Results, a, p, right, n, a, ...) it was box 4, streak 7,
// mastered. A right answer moves an item up at most once a day; the
// repeats are counted as answered but move nothing, and a wrong answer
// still drops it at once.
func TestLeitnerMovesUpOnceADay(t *testing.T) {
	r := ItemRecord{}.Apply(false, t0)
	for i := range 7 {
		r = r.Apply(true, t0.Add(time.Duration(5*(i+1))*time.Second))
	}
	if r.Box != 2 || r.Streak != 1 || r.Right != 7 || r.Wrong != 1 {
		t.Fatalf("missed, then right seven times in a minute: box %d, streak %d, right %d, wrong %d; want box 2, streak 1, right 7, wrong 1", r.Box, r.Streak, r.Right, r.Wrong)
	}
	if !r.LastRes || !r.LastAt.Equal(t0.Add(35*time.Second)) {
		t.Fatalf("the repeats must still be recorded as answered: %+v", r)
	}
	// The next day's right answer moves it up; a repeat that day does not.
	next := t0.Add(24 * time.Hour)
	r = r.Apply(true, next)
	r = r.Apply(true, next.Add(time.Minute))
	if r.Box != 3 || r.Streak != 2 {
		t.Fatalf("next day: box %d streak %d; want box 3, streak 2", r.Box, r.Streak)
	}
	// A wrong answer drops it at once, even on a day it moved up, and a
	// right answer that same day does not climb again.
	r = r.Apply(false, next.Add(2*time.Minute))
	r = r.Apply(true, next.Add(3*time.Minute))
	if r.Box != BoxMissed || r.Streak != 0 {
		t.Fatalf("wrong then right on a day it moved up: box %d streak %d; want box 1, streak 0", r.Box, r.Streak)
	}
	// On a day it has not moved up, a right answer after a miss does.
	later := next.Add(24 * time.Hour)
	r = r.Apply(false, later).Apply(true, later.Add(time.Minute))
	if r.Box != 2 || r.Streak != 1 {
		t.Fatalf("missed then right on a new day: box %d streak %d; want box 2, streak 1", r.Box, r.Streak)
	}

	// What Results shows: the repeated item is not mastered.
	p := testPool(t)
	it := p.Filter("categories", KindQuestion)[0]
	store := Memory()
	if err := store.RecordItem(it.ID, it.Topic, false, t0); err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		if err := store.RecordItem(it.ID, it.Topic, true, t0.Add(time.Duration(5*(i+1))*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	prog, err := store.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range Summarize(p, prog).Topics {
		if tm.Topic == it.Topic && tm.Mastered != 0 {
			t.Fatalf("Results show %d mastered on %s after one question answered right seven times in a minute", tm.Mastered, tm.Topic)
		}
	}
}

func testPool(t *testing.T) *Pool {
	t.Helper()
	c, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	b, err := DefaultBank()
	if err != nil {
		t.Fatal(err)
	}
	p, err := LoadPool(context.Background(), b, c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ids(s *Session) []string {
	var out []string
	for _, it := range s.Items {
		out = append(out, it.ID)
	}
	return out
}

func TestSeedGivesAReproducibleOrder(t *testing.T) {
	p := testPool(t)
	a, _ := NewSession(p, nil, Options{Mode: Practice, Count: 15, Seed: 42}, t0)
	b, _ := NewSession(p, nil, Options{Mode: Practice, Count: 15, Seed: 42}, t0.Add(time.Hour))
	c, _ := NewSession(p, nil, Options{Mode: Practice, Count: 15, Seed: 43}, t0)
	if !slices.Equal(ids(a), ids(b)) {
		t.Fatal("the same seed gave two different orders")
	}
	if slices.Equal(ids(a), ids(c)) {
		t.Fatal("different seeds gave the same order")
	}
}

func TestTopicFilter(t *testing.T) {
	p := testPool(t)
	s, err := NewSession(p, nil, Options{Mode: Practice, Topic: "empty", Count: 50, Seed: 1}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range s.Items {
		if it.Topic != "empty" {
			t.Fatalf("%s (topic %s) in an empty-topic session", it.ID, it.Topic)
		}
	}
	if _, err := NewSession(p, nil, Options{Mode: Practice, Topic: "astrology"}, t0); err == nil {
		t.Fatal("an unknown topic was accepted")
	}
}

func answerRight(it *Item) Answer {
	var a Answer
	for _, p := range it.Parts {
		set := p.CorrectSet()
		if p.AnyOf {
			set = set[:1]
		}
		a = append(a, set)
	}
	return a
}

func TestExamScoresPerTopicAndPassLine(t *testing.T) {
	p := testPool(t)
	s, err := NewSession(p, nil, Options{Mode: Exam, Count: 10, Seed: 7, PassMark: 0.6}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Items) != 10 || s.Duration != 15*time.Minute {
		t.Fatalf("exam of %d items, %v", len(s.Items), s.Duration)
	}
	topics := map[string]bool{}
	for _, it := range s.Items {
		topics[it.Topic] = true
	}
	if len(topics) < 5 {
		t.Errorf("an exam of 10 covers only %d topics", len(topics))
	}
	for i := 0; i < 6; i++ {
		if ok, _ := s.Answer(i, answerRight(s.Items[i])); !ok {
			t.Fatalf("the right answer to %s scored wrong", s.Items[i].ID)
		}
	}
	s.ToggleFlag(8)
	res := s.Score(t0.Add(5 * time.Minute))
	if res.Correct != 6 || res.Total != 10 || !res.Passed || len(res.Missed) != 4 {
		t.Fatalf("6 of 10 at a 60%% line: %+v", res)
	}
	sum := 0
	for _, ts := range res.ByTopic {
		sum += ts.Total
	}
	if sum != 10 {
		t.Fatalf("per-topic totals add to %d", sum)
	}
	res.PassMark = 0.7
	s.PassMark = 0.7
	if s.Score(t0).Passed {
		t.Fatal("6 of 10 passed a 70% line")
	}
	if got := s.Remaining(t0.Add(20 * time.Minute)); got != 0 {
		t.Fatalf("time left after the limit: %v", got)
	}
}

func TestReviewBringsMissedFirstAndRestsMastered(t *testing.T) {
	p := testPool(t)
	prog := newProgress()
	items := p.Filter("")
	missed, boxed, mastered := items[0], items[1], items[2]
	prog.Items[boxed.ID] = ItemRecord{}.Apply(true, t0)
	prog.Items[missed.ID] = ItemRecord{}.Apply(false, t0.Add(time.Minute))
	m := ItemRecord{}
	for i := 0; i < 3; i++ {
		m = m.Apply(true, t0.Add(time.Duration(i-3)*24*time.Hour))
	}
	prog.Items[mastered.ID] = m
	s, err := NewSession(p, prog, Options{Mode: Review, Count: 10}, t0)
	if err != nil {
		t.Fatal(err)
	}
	got := ids(s)
	if len(got) != 2 || got[0] != missed.ID || got[1] != boxed.ID {
		t.Fatalf("review order %v; want the missed item, then the one in box 2, and no mastered one", got)
	}
	if _, err := NewSession(p, newProgress(), Options{Mode: Review}, t0); err != ErrNothingToReview {
		t.Fatalf("an empty review: %v", err)
	}
}

// Drill keys come from the engine, not from stored answers.
func TestDrillKeysComeFromTheRules(t *testing.T) {
	p := testPool(t)
	c, _ := scenarios.Default()
	for _, it := range p.Filter("", KindClassify, KindNextAction, KindSpotDefects) {
		s, ok := c.Get(it.Scenario)
		if !ok {
			t.Fatalf("%s cites unknown scenario %s", it.ID, it.Scenario)
		}
		switch it.Kind {
		case KindClassify:
			rev, style := s.Revision(), mockserver.StyleGood
			if i := strings.Index(it.ID, "@"); i > 0 {
				rev = rules.Revision(it.ID[i+1:])
			}
			if parts := strings.Split(it.ID, "/"); len(parts) == 4 {
				style = mockserver.Style(parts[3])
			}
			ex, _ := s.Exchange(context.Background(), style, rev)
			cl, _ := ex.Classify()
			layer := it.Parts[0].Choices[indexOf(cl.Layer)]
			if !layer.Correct {
				t.Errorf("%s: the key's layer disagrees with rules.Classify (%s)", it.ID, cl.Layer)
			}
		case KindNextAction:
			best := s.TruthAt(s.Revision()).Best
			for i, a := range rules.Actions {
				if a == best && !it.Parts[0].Choices[i].Correct {
					t.Errorf("%s: the scenario's best action %s is not a right answer", it.ID, best)
				}
			}
		case KindSpotDefects:
			if len(it.Parts[0].CorrectSet()) == 0 {
				t.Errorf("%s: a spot-the-defects drill with no defect", it.ID)
			}
		}
	}
}

// Each choice of a drill's part explains itself: a new user found three
// choices of one part explained by the same sentence, which once the
// "Not this one." opener is set aside told them nothing about their pick.
func TestDrillChoicesExplainThemselves(t *testing.T) {
	p := testPool(t)
	for _, it := range p.Filter("", KindClassify) {
		for _, part := range it.Parts {
			seen := map[string]bool{}
			for _, ch := range part.Choices {
				why := ch.Explanation // as the screen shows it, without the opener
				for _, opener := range []string{"Not this one.", "Not this one:"} {
					why = strings.TrimPrefix(why, opener)
				}
				why = strings.ToLower(strings.TrimSpace(why))
				if seen[why] {
					t.Errorf("%s, %q: two choices share the explanation %q", it.ID, part.Prompt, why)
				}
				seen[why] = true
			}
		}
	}
}

// TestDrillTextsAgreeWithLessonRules: a new user found drills that
// contradict themselves. The classify drill of a refund handler's Go
// error (-32603) said "no tool ran (§1)" under a question text whose
// handler had run and failed; the escalation-panic drill's explanation
// said "Try once more" beside a response and an option allowing 3
// resends, and the response itself told the agent, when escalate_to_human
// failed, to hand the case over "with escalate_to_human". Per LESSON-RULES
// §1 a handler's failure becomes -32603 although the tool ran, and per
// §2/§5 a transient failure gets the original call plus at most 3
// resends after 1 s, 2 s and 4 s, then a report.
func TestDrillTextsAgreeWithLessonRules(t *testing.T) {
	p := testPool(t)
	c, _ := scenarios.Default()
	oneRetry := regexp.MustCompile(`(?i)\b(once more|one retry|single retry|one more try|single allowed retry|one permitted retry)\b`)
	handlerErrors := 0
	for _, it := range p.Filter("", KindClassify, KindNextAction, KindSpotDefects) {
		s, _ := c.Get(it.Scenario)
		texts := []string{it.Stem, it.Exhibit, it.After}
		for _, part := range it.Parts {
			for _, ch := range part.Choices {
				texts = append(texts, ch.Explanation)
			}
		}
		all := strings.Join(texts, "\n")
		if m := oneRetry.FindString(all); m != "" {
			t.Errorf("%s says %q, while a transient failure gets at most 3 resends (§2)", it.ID, m)
		}
		if s.Call.Tool == mockserver.EscalationTool && strings.Contains(it.Exhibit, "with escalate_to_human") {
			t.Errorf("%s: escalate_to_human failed, and its response sends the agent back to escalate_to_human:\n%s", it.ID, it.Exhibit)
		}
		if it.Kind == KindClassify && strings.Contains(it.Exhibit, `"code": -32603`) && s.SituationAt(s.Revision()).Layer == rules.LayerExecution {
			handlerErrors++
			why := it.Parts[0].Choices[indexOf(rules.LayerProtocol)].Explanation
			if strings.Contains(all, "no tool ran") || !strings.Contains(why, "although the tool ran") || !strings.Contains(why, "isError result written on purpose") {
				t.Errorf("%s: the handler ran and failed, but the layer is explained as %q", it.ID, why)
			}
		}
	}
	if handlerErrors < 2 {
		t.Errorf("%d classify drills of a handler's -32603; the refund and escalation drills are missing", handlerErrors)
	}
	// The lab shows the same feedback and takeaways.
	for _, s := range c.Scenarios {
		texts := []string{s.Takeaway}
		for _, fb := range s.Feedback {
			texts = append(texts, fb)
		}
		if m := oneRetry.FindString(strings.Join(texts, "\n")); m != "" {
			t.Errorf("scenario %s says %q, while a transient failure gets at most 3 resends (§2)", s.ID, m)
		}
	}
}

func indexOf(l rules.Layer) int {
	return map[rules.Layer]int{rules.LayerProtocol: 0, rules.LayerExecution: 1, rules.LayerSuccess: 2}[l]
}

func TestStoreRecordsItemsAndExams(t *testing.T) {
	s, _ := Open(t.TempDir())
	_ = s.RecordItem("q1", "layers", false, t0)
	_ = s.RecordItem("q1", "layers", true, t0)
	_ = s.RecordExam(ExamRecord{At: t0, Questions: 10, Correct: 7, PassMark: 0.7, Passed: true})
	p, _ := s.Load()
	if p.Items["q1"].Box != 2 || p.Items["q1"].Wrong != 1 || len(p.Exams) != 1 {
		t.Fatalf("progress after a wrong then a right answer and one exam: %+v %+v", p.Items["q1"], p.Exams)
	}
}

func TestSummaryAndReport(t *testing.T) {
	pool := testPool(t)
	prog := newProgress()
	layers := pool.Filter("layers")
	prog.Items[layers[0].ID] = ItemRecord{Topic: "layers"}.Apply(false, t0)
	prog.Items[layers[1].ID] = ItemRecord{Topic: "layers"}.Apply(true, t0)
	cats := pool.Filter("categories")
	prog.Items[cats[0].ID] = ItemRecord{Topic: "categories"}.Apply(true, t0)
	prog.Exams = append(prog.Exams, ExamRecord{At: t0, Questions: 20, Correct: 15, PassMark: 0.7, Passed: true, Seconds: 754})
	sum := Summarize(pool, prog)
	if len(sum.Weakest) == 0 || sum.Weakest[0] != "layers" {
		t.Fatalf("weakest topics %v; layers (1 of 2) should lead", sum.Weakest)
	}
	if len(sum.Missed) != 1 || sum.Missed[0].ID != layers[0].ID {
		t.Fatalf("missed %+v", sum.Missed)
	}
	var md strings.Builder
	if err := sum.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| Two layers: protocol vs execution | 2 /", "15 / 20", "✓ passed", layers[0].ID} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, md.String())
		}
	}
}

// TestReplayExamShowsTheExamAgain: an exam handed in is kept with its
// questions, answers and flags, through the progress file's JSON, so its
// answers can be walked again later with the same score (a new user
// could not get back to an exam's answers once they left its results).
func TestReplayExamShowsTheExamAgain(t *testing.T) {
	p := testPool(t)
	s, err := NewSession(p, nil, Options{Mode: Exam, Count: 6, Seed: 3}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for i, it := range s.Items {
		if i%2 == 0 {
			s.Answers[i] = Answer{it.Parts[0].CorrectSet()}
		}
	}
	s.Flags[1] = true
	end := t0.Add(4 * time.Minute)
	res := s.Score(end)
	b, err := json.Marshal(s.ExamRecord(res, end))
	if err != nil {
		t.Fatal(err)
	}
	var rec ExamRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	again, res2, err := p.ReplayExam(rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Items) != len(s.Items) || res2.Correct != res.Correct || res2.Seconds != res.Seconds || !again.Flags[1] || !again.Submitted {
		t.Fatalf("replayed: %d items, %d right in %d s, flags %v; want %d, %d in %d s, question 2 flagged",
			len(again.Items), res2.Correct, res2.Seconds, again.Flags, len(s.Items), res.Correct, res.Seconds)
	}
	for i := range s.Items {
		if again.Items[i] != s.Items[i] || !slices.EqualFunc(again.Answers[i], s.Answers[i], slices.Equal[[]int]) {
			t.Errorf("question %d: %s %v, want %s %v", i+1, again.Items[i].ID, again.Answers[i], s.Items[i].ID, s.Answers[i])
		}
	}

	// An answer that points past its question's choices (a hand-edited
	// file, a question changed since) counts as not answered.
	rec.Answers[0] = Answer{{99}}
	if again, _, err := p.ReplayExam(rec); err != nil || again.Answers[0] != nil {
		t.Errorf("a choice out of range: %v, answer %v", err, again.Answers[0])
	}
	// A question gone from the bank, and a record from before answers were kept.
	rec.Items[0] = "no-such-question"
	if _, _, err := p.ReplayExam(rec); err == nil || !strings.Contains(err.Error(), "the bank no longer has 1 of its questions") {
		t.Errorf("a question gone: %v", err)
	}
	if _, _, err := p.ReplayExam(ExamRecord{At: t0, Questions: 6}); !errors.Is(err, ErrNoAnswersKept) {
		t.Errorf("an old record: %v", err)
	}
}
