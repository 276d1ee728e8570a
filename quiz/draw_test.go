package quiz

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// The mock exam is not easier than the real one: for many seeds and the
// usual lengths it is made of authored questions, a third at least at
// difficulty 3, each topic near its weight, and no story more than twice.
func TestMockExamDrawsByWeightAndDifficulty(t *testing.T) {
	p := testPool(t)
	total := 0
	for _, tp := range Topics {
		total += tp.Weight
	}
	for _, count := range []int{10, 20, 30} {
		for seed := uint64(1); seed <= 40; seed++ {
			s, err := NewSession(p, nil, Options{Mode: Exam, Count: count, Seed: seed}, t0)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Items) != count {
				t.Fatalf("seed %d: %d items, want %d", seed, len(s.Items), count)
			}
			hard, perTopic, stories := 0, map[string]int{}, map[string]int{}
			for _, it := range s.Items {
				if it.Kind != KindQuestion {
					t.Errorf("seed %d count %d: the exam drew a drill (%s) while authored questions were left", seed, count, it.ID)
				}
				if it.Difficulty == 3 {
					hard++
				}
				perTopic[it.Topic]++
				stories[it.Story]++
			}
			if hard*3 < count {
				t.Errorf("seed %d count %d: %d at difficulty 3, fewer than a third", seed, count, hard)
			}
			for _, tp := range Topics {
				want := float64(count*tp.Weight) / float64(total)
				if got := perTopic[tp.ID]; math.Abs(float64(got)-want) > 1 {
					t.Errorf("seed %d count %d: topic %s has %d, its weight gives %.1f", seed, count, tp.ID, got, want)
				}
			}
			for st, n := range stories {
				if n > StoryCap {
					t.Errorf("seed %d count %d: story %q drawn %d times", seed, count, st, n)
				}
			}
			for _, clash := range conceptClashes(s.Items) {
				t.Errorf("seed %d count %d: %s", seed, count, clash)
			}
		}
	}
}

// No question of a session tests a LESSON-RULES rule another tests or
// shows, and none meets a question it is kept apart from, in practice as in
// the mock exam: the one would hand over the other's answer to a reader who knows nothing of MCP (blind round 1 found Q2
// and Q13 on -32602, Q8 and Q23 on the exact-id contract, Q6 and Q25 on
// partial results).
// TestMockExamTakesDifficulty3WhereItCan: HardShare is a floor, not the
// aim. With as many difficulty-3 questions as each topic's share, free of
// caps, and as many at difficulty 2, nine in ten of the exams' questions
// are at difficulty 3 (all but hardSkip's share; issue 12: a mock exam at
// exam difficulty). The draw used to stop preferring them once a third
// were in, which gives about two in three here.
func TestMockExamTakesDifficulty3WhereItCan(t *testing.T) {
	var items []*Item
	for _, tp := range Topics {
		for i := range tp.Weight * 2 {
			id := fmt.Sprintf("%s-%d", tp.ID, i)
			items = append(items, &Item{ID: id, Kind: KindQuestion, Topic: tp.ID, Difficulty: 2 + i%2, Story: id, Parts: []Part{{}}})
		}
	}
	p, err := NewPool(items)
	if err != nil {
		t.Fatal(err)
	}
	hard, all := 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		s, err := NewSession(p, nil, Options{Mode: Exam, Count: 30, Seed: seed}, t0)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range s.Items {
			all++
			if it.Difficulty == 3 {
				hard++
			}
		}
	}
	if hard*100 < all*85 {
		t.Errorf("20 exams of 30 drew %d of %d questions at difficulty 3 (%d%%), want 85%% at least: the draw stops preferring them", hard, all, hard*100/all)
	}
}

func TestSessionsDrawOneQuestionPerConcept(t *testing.T) {
	p := testPool(t)
	for _, it := range p.Items {
		if it.Kind == KindQuestion && len(it.Concepts) == 0 {
			t.Fatalf("question %s names no concept", it.ID)
		}
	}
	for seed := uint64(1); seed <= 60; seed++ {
		for _, o := range []Options{{Mode: Practice, Count: 15, Seed: seed}, {Mode: Practice, Count: 20, Seed: seed, Kinds: []Kind{KindQuestion}}} {
			s, err := NewSession(p, nil, o, t0)
			if err != nil {
				t.Fatal(err)
			}
			for _, clash := range conceptClashes(s.Items) {
				t.Errorf("seed %d %s of %d: %s", seed, o.Mode, o.Count, clash)
			}
		}
	}
}

// When the pool cannot fill a session inside the concept cap (every item
// on one rule), the session is shorter, never capped loosely, and says why.
func TestConceptCapHoldsWhenThePoolIsSmall(t *testing.T) {
	var items []*Item
	for _, id := range []string{"a", "b", "c", "d"} {
		items = append(items, &Item{ID: id, Kind: KindQuestion, Topic: "layers", Difficulty: 3, Story: id, Concepts: []string{"wire-codes"}, Parts: []Part{{}}})
	}
	p, err := NewPool(items)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []Mode{Practice, Exam} {
		s, err := NewSession(p, nil, Options{Mode: mode, Count: 4, Seed: 3}, t0)
		if err != nil || len(s.Items) != 1 {
			t.Fatalf("%s: %d items, %v; want 1 (one per rule)", mode, len(s.Items), err)
		}
		if got := s.Shortfall(); !strings.Contains(got, "1 question, not 4") {
			t.Errorf("%s: shortfall %q does not say 1 question, not 4", mode, got)
		}
	}
}

// A practice session draws at most StoryCap items of one story, drills
// included: the drills of a scenario share the story of the questions
// that cite it.
func TestPracticeKeepsStoriesApart(t *testing.T) {
	p := testPool(t)
	for seed := uint64(1); seed <= 60; seed++ {
		s, err := NewSession(p, nil, Options{Mode: Practice, Count: 15, Seed: seed}, t0)
		if err != nil {
			t.Fatal(err)
		}
		stories := map[string]int{}
		for _, it := range s.Items {
			if it.Story == "" {
				t.Fatalf("%s has no story", it.ID)
			}
			stories[it.Story]++
			if stories[it.Story] > StoryCap {
				t.Errorf("seed %d: story %q drawn %d times: %v", seed, it.Story, stories[it.Story], ids(s))
			}
		}
	}
	// The scenario's drills take the story its questions give it.
	for _, it := range p.Items {
		if it.Kind != KindQuestion && it.Scenario == "refund-above-auto-limit" && it.Story != "dana-desk" {
			t.Errorf("drill %s has story %q, want the questions' dana-desk", it.ID, it.Story)
		}
	}
}

// The finding: `quiz --topic metadata --count 15` set a "next move"
// drill on Priya's un-agreed refund as Q5 and the classify drill of the
// same scenario, its story and response word for word, as Q9 (Tomás's
// grinder as Q3 and Q10): Q5's explanations describe the response Q9
// asks to classify. A session holds one drill of a scenario at most, and
// no drill beside an authored question about its scenario, on every
// topic and for every seed, and says so when that leaves it short.
func TestPracticeDrawsOneDrillPerScenario(t *testing.T) {
	p := testPool(t)
	perScene := map[string]int{}
	for _, it := range p.Items {
		if it.Kind != KindQuestion {
			perScene[it.Scenario]++
		}
	}
	if perScene["refund-not-confirmed"] < 2 || perScene["order-lookup-internal-fault"] < 2 {
		t.Fatalf("the scenarios of the finding no longer have several drills: %v", perScene)
	}
	topics := []string{""}
	for _, tp := range Topics {
		topics = append(topics, tp.ID)
	}
	for _, topic := range topics {
		for seed := uint64(1); seed <= 120; seed++ {
			s, err := NewSession(p, nil, Options{Mode: Practice, Topic: topic, Count: 15, Seed: seed}, t0)
			if err != nil {
				t.Fatal(err)
			}
			byScene := map[string][]string{}
			for _, it := range s.Items {
				if it.Scenario != "" {
					byScene[it.Scenario] = append(byScene[it.Scenario], it.ID)
				}
			}
			for scene, its := range byScene {
				drills := 0
				for _, id := range its {
					if !strings.HasPrefix(id, "drill/") {
						continue
					}
					drills++
				}
				if drills > 0 && len(its) > 1 {
					t.Errorf("topic %q seed %d: scenario %s comes up %d times, as %v", topic, seed, scene, len(its), its)
				}
			}
			if (len(s.Items) < 15) != (s.Shortfall() != "") {
				t.Errorf("topic %q seed %d: %d items, shortfall %q", topic, seed, len(s.Items), s.Shortfall())
			}
		}
	}
	// The topic of the finding still fills the 15 asked for.
	if c := p.Capacity("metadata"); c < 15 {
		t.Errorf("metadata holds %d items in one session, fewer than the 15 of the finding", c)
	}
}

// When the pool cannot fill a session inside the story cap (one story
// only), the session holds StoryCap items and says why.
func TestStoryCapHoldsWhenThePoolIsSmall(t *testing.T) {
	var items []*Item
	for _, id := range []string{"a", "b", "c", "d"} {
		items = append(items, &Item{ID: id, Kind: KindQuestion, Topic: "layers", Difficulty: 3, Story: "same", Parts: []Part{{}}})
	}
	p, err := NewPool(items)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []Mode{Practice, Exam} {
		s, err := NewSession(p, nil, Options{Mode: mode, Count: 4, Seed: 3}, t0)
		if err != nil || len(s.Items) != StoryCap {
			t.Fatalf("%s: %d items, %v; want %d", mode, len(s.Items), err, StoryCap)
		}
		if s.Shortfall() == "" {
			t.Errorf("%s: a short session says nothing of why", mode)
		}
	}
}

// The tester found stories (a scenario, or a customer such as Dana who
// comes back across stories) shared by more than two items of one draw.
// In every draw mode and for many seeds: at most StoryCap items per
// story and per customer, no question beside one that tests or shows the
// rule it tests, and a session shorter than asked for says so.
func TestStoryCapHoldsInEveryDrawMode(t *testing.T) {
	p := testPool(t)
	drills := []Kind{KindClassify, KindNextAction, KindSpotDefects}
	type mode struct {
		name string
		o    Options
	}
	var modes []mode
	for _, n := range []int{10, 20, 30, 45} {
		modes = append(modes,
			mode{fmt.Sprintf("exam of %d", n), Options{Mode: Exam, Count: n, Kinds: []Kind{KindQuestion}}},
			mode{fmt.Sprintf("practice of %d", n), Options{Mode: Practice, Count: n}},
			mode{fmt.Sprintf("questions only, %d", n), Options{Mode: Practice, Count: n, Kinds: []Kind{KindQuestion}}},
			mode{fmt.Sprintf("drills of %d", n), Options{Mode: Practice, Count: n, Kinds: drills}})
	}
	for _, tp := range Topics {
		modes = append(modes, mode{"topic " + tp.ID, Options{Mode: Practice, Count: 10, Topic: tp.ID}})
	}
	for _, m := range modes {
		for seed := uint64(1); seed <= 150; seed++ {
			o := m.o
			o.Seed = seed
			s, err := NewSession(p, nil, o, t0)
			if err != nil {
				t.Fatalf("%s seed %d: %v", m.name, seed, err)
			}
			stories := map[string][]string{}
			for _, it := range s.Items {
				if o.Mode == Exam && it.Kind != KindQuestion {
					t.Errorf("%s seed %d: drew drill %s", m.name, seed, it.ID)
				}
				for _, k := range storyKeys(it) {
					stories[k] = append(stories[k], it.ID)
				}
			}
			for k, its := range stories {
				if len(its) > StoryCap {
					t.Errorf("%s seed %d: story %q drawn %d times: %v", m.name, seed, k, len(its), its)
				}
			}
			for _, clash := range conceptClashes(s.Items) {
				t.Errorf("%s seed %d: %s", m.name, seed, clash)
			}
			if short := s.Shortfall(); (len(s.Items) < o.Count) != (short != "") {
				t.Errorf("%s seed %d: %d of %d items, shortfall %q", m.name, seed, len(s.Items), o.Count, short)
			}
		}
	}
	// Dana is named by items of several stories: each counts for her.
	dana := 0
	for _, it := range p.Items {
		if slices.Contains(it.Customers, "dana") {
			dana++
		}
	}
	if dana < 5 {
		t.Errorf("only %d items name Dana; the customer catalogue is not applied", dana)
	}
}

// conceptClashes lists the pairs of items that may not share a session:
// one tests a rule the other tests or shows, one is kept apart from the
// other (Item.Apart), or a drill and another item show one scenario.
func conceptClashes(items []*Item) []string {
	var out []string
	for i, a := range items {
		for _, b := range items[i+1:] {
			for _, p := range [][2]*Item{{a, b}, {b, a}} {
				x, y := p[0], p[1]
				if len(x.Concepts) > 0 && slices.Contains(y.Concepts, x.Concepts[0]) {
					out = append(out, fmt.Sprintf("%s tests %s, which %s tests or shows", x.ID, x.Concepts[0], y.ID))
				}
				if slices.Contains(x.Apart, y.ID) {
					out = append(out, fmt.Sprintf("%s is kept apart from %s", x.ID, y.ID))
				}
			}
			if a.Scenario != "" && a.Scenario == b.Scenario && (a.Kind != KindQuestion || b.Kind != KindQuestion) {
				out = append(out, fmt.Sprintf("%s and %s show one scenario, %s", a.ID, b.ID, a.Scenario))
			}
		}
	}
	return out
}

// Mock exams differ: a learner who sits several meets most of the bank,
// not the same thirty questions (the caps once left every draw the same
// best effort, topped up in bank order: 23 questions sat in 90% of exams).
func TestMockExamsVary(t *testing.T) {
	p := testPool(t)
	seen, runs := map[string]int{}, 40
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		s, err := NewSession(p, nil, Options{Mode: Exam, Count: 30, Seed: seed}, t0)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range s.Items {
			seen[it.ID]++
		}
	}
	questions := 0
	for _, it := range p.Items {
		if it.Kind == KindQuestion {
			questions++
		}
	}
	if len(seen)*10 < questions*7 {
		t.Errorf("%d exams of 30 met %d of %d questions; want at least 70%%", runs, len(seen), questions)
	}
	var always []string
	for id, n := range seen {
		if n*10 >= runs*9 {
			always = append(always, id)
		}
	}
	// A topic whose questions share rules may need one of them in almost
	// every exam (layers: only a few sets of its questions fit the concept
	// cap together); more than three such questions means the draw has
	// stopped varying.
	if len(always) > 3 {
		t.Errorf("%d questions are in 90%% or more of %d exams: %v", len(always), runs, always)
	}
}

// TestExamOrderIsShuffledPerDraw: a new user found three mock exams in
// one state directory all opening on "Valid empty vs access failure".
// The questions of an exam come in an order shuffled from its seed, not
// grouped by topic: over many seeds the first question's topic is every
// topic in turn, none of them first in more than a third of the exams,
// and an exam's topics come in many runs, not one block per topic.
func TestExamOrderIsShuffledPerDraw(t *testing.T) {
	p := testPool(t)
	const seeds = 300
	for _, count := range []int{10, 20, 30} {
		first := map[string]int{}
		grouped := 0
		for seed := uint64(1); seed <= seeds; seed++ {
			s, err := NewSession(p, nil, Options{Mode: Exam, Count: count, Seed: seed * 0x9e37}, t0)
			if err != nil {
				t.Fatal(err)
			}
			first[s.Items[0].Topic]++
			runs, topics := 1, map[string]bool{s.Items[0].Topic: true}
			for i := 1; i < len(s.Items); i++ {
				topics[s.Items[i].Topic] = true
				if s.Items[i].Topic != s.Items[i-1].Topic {
					runs++
				}
			}
			if runs == len(topics) && len(topics) < len(s.Items) {
				grouped++ // one block per topic, some topic more than once
			}
		}
		for _, tp := range Topics {
			if first[tp.ID] == 0 {
				t.Errorf("exams of %d: no exam of %d opens on %s: %v", count, seeds, tp.ID, first)
			}
			if first[tp.ID]*3 > seeds {
				t.Errorf("exams of %d: %d of %d exams open on %s", count, first[tp.ID], seeds, tp.ID)
			}
		}
		// Ten questions over ten topics repeat a topic or two, next to each
		// other by chance; twenty or more would be grouped only by design.
		if count >= 20 && grouped*20 > seeds {
			t.Errorf("exams of %d: %d of %d exams have their questions grouped by topic", count, grouped, seeds)
		}
	}
	// The same seed gives the same order; the next seed another.
	a, _ := NewSession(p, nil, Options{Mode: Exam, Count: 20, Seed: 7}, t0)
	b, _ := NewSession(p, nil, Options{Mode: Exam, Count: 20, Seed: 7}, t0)
	c, _ := NewSession(p, nil, Options{Mode: Exam, Count: 20, Seed: 8}, t0)
	if !slices.Equal(ids(a), ids(b)) || slices.Equal(ids(a), ids(c)) {
		t.Errorf("seed 7 twice: %v and %v; seed 8: %v", ids(a), ids(b), ids(c))
	}
}

// A new user found the exam's set-up offering "at most 48" while
// `quiz --mode exam --count 60` set 60 (drills topped it up) and
// `--count 500` set 68, and `questions exam --count 60` printed 50 while
// calling itself the same draw. One number now: a mock exam holds
// authored questions only, never more than ExamCapacity (what the set-up
// offers), and exactly that many for any larger count, whatever the
// seed or the kinds asked for, saying how many were asked.
func TestExamNeverExceedsItsCapacity(t *testing.T) {
	p := testPool(t)
	limit := p.ExamCapacity("")
	if limit < 20 || limit > len(p.Filter("", KindQuestion)) {
		t.Fatalf("ExamCapacity %d", limit)
	}
	for seed := uint64(1); seed <= 4; seed++ {
		for _, count := range []int{limit, 500} {
			var drew []string
			for _, kinds := range [][]Kind{nil, {KindQuestion}} {
				s, err := NewSession(p, nil, Options{Mode: Exam, Count: count, Seed: seed, Kinds: kinds}, t0)
				if err != nil {
					t.Fatal(err)
				}
				if len(s.Items) != limit {
					t.Fatalf("seed %d count %d kinds %v: %d questions, the set-up offers at most %d", seed, count, kinds, len(s.Items), limit)
				}
				want := ""
				if count > limit {
					want = fmt.Sprintf("%d questions, not %d", limit, count)
				}
				if got := s.Shortfall(); !strings.Contains(got, want) || (want == "") != (got == "") {
					t.Errorf("seed %d count %d: shortfall %q, want %q", seed, count, got, want)
				}
				drew = append(drew, fmt.Sprint(ids(s)))
			}
			if drew[0] != drew[1] {
				t.Errorf("seed %d count %d: the quiz's draw and the questions-only draw differ", seed, count)
			}
		}
	}
}
