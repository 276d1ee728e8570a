package quiz

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The built-in bank passes its own design review: every question names
// its trap and story, no stem holds its key, no two questions are
// near-copies, and the answer letters are balanced.
func TestEmbeddedBankPassesReview(t *testing.T) {
	sub := embeddedChecked(t)
	if ps := ReviewBank(sub); len(ps) > 0 {
		var lines []string
		for _, p := range ps {
			lines = append(lines, p.String())
		}
		t.Fatalf("the built-in bank has %d design fault(s):\n%s", len(ps), strings.Join(lines, "\n"))
	}
}

func embeddedChecked(t *testing.T) *Bank {
	t.Helper()
	b := bank(t)
	for _, q := range b.Questions {
		if q.src == nil {
			t.Fatalf("%s has no source to place problems in", q.ID)
		}
	}
	return b
}

// The bank's statistics, as the issue sets them: answer letters balanced,
// multi-answer keys of every size with no letter in more than half of
// them, the per-topic counts, and enough hard questions for the mock exam.
func TestBankStatistics(t *testing.T) {
	b := bank(t)
	var single, multi []*Question
	for _, q := range b.Questions {
		if q.Multi {
			multi = append(multi, q)
		} else {
			single = append(single, q)
		}
	}
	// Single-answer keys: each letter between 20% and 30%.
	keys := map[string]int{}
	for _, q := range single {
		keys[q.Answer]++
	}
	for _, l := range []string{"A", "B", "C", "D"} {
		if share := float64(keys[l]) / float64(len(single)); share < 0.20 || share > 0.30 {
			t.Errorf("single-answer key %s: %d of %d (%.0f%%), want 20%% to 30%%", l, keys[l], len(single), share*100)
		}
	}
	// Multi-answer keys: at least 15, sizes 1 to 4 each present, no letter
	// in more than half, letters within 2 of each other.
	if len(multi) < 15 {
		t.Errorf("%d multi-answer questions, want at least 15", len(multi))
	}
	sizes := map[int]int{}
	letters := map[int]int{}
	for _, q := range multi {
		c := q.Correct()
		sizes[len(c)]++
		for _, i := range c {
			letters[i]++
		}
	}
	for s := 1; s <= 4; s++ {
		if sizes[s] == 0 {
			t.Errorf("no multi-answer key has %d letter(s): sizes %v", s, sizes)
		}
	}
	lo, hi := len(multi), 0
	for i := range 4 {
		lo, hi = min(lo, letters[i]), max(hi, letters[i])
		if letters[i]*2 > len(multi) {
			t.Errorf("%s is in %d of %d multi-answer keys, more than half", Letter(i), letters[i], len(multi))
		}
	}
	if hi-lo > 2 {
		t.Errorf("multi-answer letters range from %d to %d: %v", lo, hi, letters)
	}
	// Per topic: the minimum, ten at least for the topics the issue named,
	// and two difficulty-3 questions at least, so a 30-question exam can
	// take its third at difficulty 3 (TestMockExamDrawsByWeightAndDifficulty
	// checks the draw). Difficulty is measured, not wished for: a question
	// fresh readers answer right from its text alone is rated 2, so the
	// bank as a whole holds fewer than a third at 3.
	hardAll := 0
	for _, topic := range Topics {
		qs := b.ByTopic(topic.ID)
		hard := 0
		for _, q := range qs {
			if q.Difficulty == 3 {
				hard++
			}
		}
		hardAll += hard
		if len(qs) < topic.Minimum {
			t.Errorf("topic %s: %d questions, minimum %d", topic.ID, len(qs), topic.Minimum)
		}
		if hard < 2 {
			t.Errorf("topic %s: %d at difficulty 3, want 2 at least", topic.ID, hard)
		}
	}
	for _, id := range []string{"revisions", "spellings", "safety"} {
		if n := len(b.ByTopic(id)); n < 10 {
			t.Errorf("topic %s: %d questions, want 10", id, n)
		}
	}
	// Stories: a customer's story is told by two questions at most (the
	// issue found Dana's desk in six). A set of protocol facts that several
	// questions share (the 2026-07-28 wire, SEP-1303, the flag's spellings)
	// is one story too, so a session draws two of them at most and one
	// cannot hand over another's answer; five at most share one.
	stories := map[string][]string{}
	for _, q := range b.Questions {
		stories[q.StoryOf()] = append(stories[q.StoryOf()], q.ID)
	}
	shared := map[string]bool{"protocol-2026": true, "sep-1303": true, "flag-spellings": true, "handler-exceptions": true}
	for s, ids := range stories {
		if limit := map[bool]int{true: 5, false: 2}[shared[s]]; len(ids) > limit {
			t.Errorf("story %s is told by %d questions (at most %d): %v", s, len(ids), limit, ids)
		}
	}
	t.Logf("%d questions (%d single, %d multi); single keys %v; multi letters A %d B %d C %d D %d, sizes %v; %d at difficulty 3",
		len(b.Questions), len(single), len(multi), keys, letters[0], letters[1], letters[2], letters[3], sizes, hardAll)
}

// A test-wise reader who knows nothing of MCP must not do much better than
// chance by wording alone. Each rule a clever guesser uses is tried on
// every single-answer question where it singles out some options, and
// must not pick the key more often than a third of the time (chance is a
// quarter).
func TestKeyIsNotGivenAwayByWording(t *testing.T) {
	stop := map[string]bool{}
	for _, w := range strings.Fields("a an the of to and or in on for is it its be by as at with that this then so from which what when are was not no") {
		stop[w] = true
	}
	content := func(s string) map[string]bool {
		out := map[string]bool{}
		for _, w := range words(s) {
			if !stop[w] {
				out[w] = true
			}
		}
		return out
	}
	absolute := regexp.MustCompile(`(?i)\b(never|always|only|must|every|any|all|none|nothing|cannot)\b`)
	hedged := regexp.MustCompile(`(?i)\b(may|might|can|could|usually|often|some|if)\b`)
	// Each guesser returns the options it would choose between (nil when it
	// has no opinion).
	guessers := map[string]func(q *Question) []int{
		// the option that repeats most of the stem's words
		"echoes the stem": func(q *Question) []int {
			stem := content(q.Stem)
			best, out := -1.0, []int(nil)
			for i, o := range q.Options {
				ws := content(o.Text)
				n := 0
				for w := range ws {
					if stem[w] {
						n++
					}
				}
				score := float64(n) / math.Max(1, float64(len(ws)))
				switch {
				case score > best:
					best, out = score, []int{i}
				case score == best:
					out = append(out, i)
				}
			}
			return out
		},
		// the options without an absolute word, when some have one
		"avoids absolutes": func(q *Question) []int { return marked(q, absolute, false) },
		// the hedged options, when some are hedged
		"is hedged": func(q *Question) []int { return marked(q, hedged, true) },
		// the longest option (ties included)
		"is longest": func(q *Question) []int {
			most, out := 0, []int(nil)
			for i, o := range q.Options {
				switch n := len(strings.TrimSpace(o.Text)); {
				case n > most:
					most, out = n, []int{i}
				case n == most:
					out = append(out, i)
				}
			}
			return out
		},
	}
	names := make([]string, 0, len(guessers))
	for n := range guessers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		guess := guessers[name]
		right, tried := 0.0, 0
		for _, q := range bank(t).Questions {
			if q.Multi {
				continue
			}
			picks := guess(q)
			if len(picks) == 0 || len(picks) == len(q.Options) {
				continue
			}
			tried++
			for _, p := range picks {
				if p == q.Correct()[0] {
					right += 1 / float64(len(picks))
				}
			}
		}
		rate := right / float64(max(tried, 1))
		t.Logf("guess the option that %s: %.1f of %d right (%.0f%%)", name, right, tried, rate*100)
		if rate > 1.0/3 {
			t.Errorf("guessing the option that %s scores %.0f%% (%s of %d); keep it at a third or less", name, rate*100, fmt.Sprintf("%.1f", right), tried)
		}
	}
}

// marked returns the options whose text matches re (want true) or does not
// (want false), or nil when all or none do.
func marked(q *Question, re *regexp.Regexp, want bool) []int {
	var out []int
	for i, o := range q.Options {
		if re.MatchString(o.Text) == want {
			out = append(out, i)
		}
	}
	if len(out) == len(q.Options) {
		return nil
	}
	return out
}

// TestExplanationsSpeakToTheLearner: what a learner reads (stems, options,
// explanations) carries none of the authors' working words: notes about
// blind readers, "the answer key", the seed lessons, or "beyond the exam"
// in a mock exam (a new user found "Readers who strike this as obstructive
// under-select." in an explanation).
func TestExplanationsSpeakToTheLearner(t *testing.T) {
	working := []string{"readers who", "reader who", "under-select", "outsider", "answer key", "seed lesson", "beyond the exam", "the seeds"}
	for _, q := range bank(t).Questions {
		texts := []string{q.Stem}
		for _, o := range q.Options {
			texts = append(texts, o.Text, o.Explanation)
		}
		for _, s := range texts {
			low := strings.ToLower(strings.Join(strings.Fields(s), " "))
			for _, w := range working {
				if strings.Contains(low, w) {
					t.Errorf("%s: %q speaks of %q: %s", q.ID, w, w, s)
				}
			}
		}
	}
}
