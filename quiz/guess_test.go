package quiz

import (
	"fmt"
	"strings"
	"testing"
)

// guesser picks an option from the question text alone, as a test-taker
// who knows nothing of MCP would: it returns an option index.
type guesser struct {
	name string
	pick func(q *Question) int
	// length: the guesser picks by an option's length (shortest or
	// longest), the rule TestKeyLengthIsNoTellEitherWay holds both ways.
	length bool
}

// pickBy returns the option with the best score (the first on a tie, as
// a guesser reading top to bottom would).
func pickBy(q *Question, better func(a, b float64) bool, score func(i int) float64) int {
	best := 0
	for i := 1; i < len(q.Options); i++ {
		if better(score(i), score(best)) {
			best = i
		}
	}
	return best
}

func less(a, b float64) bool { return a < b }
func more(a, b float64) bool { return a > b }

var guessers = []guesser{
	{"shortest option (characters)", func(q *Question) int {
		return pickBy(q, less, func(i int) float64 { return float64(len(strings.TrimSpace(q.Options[i].Text))) })
	}, true},
	{"shortest option (words)", func(q *Question) int {
		return pickBy(q, less, func(i int) float64 { return float64(len(words(q.Options[i].Text))) })
	}, true},
	{"longest option (characters)", func(q *Question) int {
		return pickBy(q, more, func(i int) float64 { return float64(len(strings.TrimSpace(q.Options[i].Text))) })
	}, true},
	{"longest option (words)", func(q *Question) int {
		return pickBy(q, more, func(i int) float64 { return float64(len(words(q.Options[i].Text))) })
	}, true},
	{"most words shared with the stem", func(q *Question) int {
		stem := wordSet(q.Stem)
		return pickBy(q, more, func(i int) float64 {
			n := 0
			for w := range wordSet(q.Options[i].Text) {
				if stem[w] {
					n++
				}
			}
			return float64(n)
		})
	}, false},
	{"most unlike the others", func(q *Question) int {
		return pickBy(q, less, func(i int) float64 { return likeness(q, i, wordSet) })
	}, false},
	{"most like the others (words)", func(q *Question) int {
		return pickBy(q, more, func(i int) float64 { return likeness(q, i, wordSet) })
	}, false},
	// Convergence: distractors made by changing one element of the key
	// leave the key as the option that shares most with all the others.
	// The parts guesser compares whole comma-, semicolon- and
	// colon-separated parts ("isRetryable true"), breaking a tie by words,
	// since with no shared part it would only be "always A".
	{"most like the others (parts, then words)", func(q *Question) int {
		return pickBy(q, more, func(i int) float64 { return likeness(q, i, partSet) + likeness(q, i, wordSet)/1000 })
	}, false},
	{"always B (a middle letter)", func(*Question) int { return 1 }, false},
	{"always C (a middle letter)", func(*Question) int { return 2 }, false},
}

// likeness sums option i's overlap with every other option of q, each
// option cut into a set by split (words or parts).
func likeness(q *Question, i int, split func(string) map[string]bool) float64 {
	sum := 0.0
	for j := range q.Options {
		if j != i {
			sum += overlap(split(q.Options[i].Text), split(q.Options[j].Text))
		}
	}
	return sum
}

// singleAndMulti splits the embedded bank into single-answer and
// multi-answer questions.
func singleAndMulti(t *testing.T) (single, multi []*Question) {
	for _, q := range bank(t).Questions {
		if q.Multi {
			multi = append(multi, q)
		} else {
			single = append(single, q)
		}
	}
	return single, multi
}

// wonBy lists the ids of the single-answer questions qs that guesser g
// gets right.
func wonBy(g guesser, qs []*Question) []string {
	var won []string
	for _, q := range qs {
		if g.pick(q) == q.Correct()[0] {
			won = append(won, q.ID)
		}
	}
	return won
}

// partSet splits an option at its commas, semicolons and colons into
// parts (lower case, words only), so that "transient, isRetryable true;
// the agent waits" is three parts another option may share whole.
func partSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ':' }) {
		if w := strings.Join(words(p), " "); w != "" {
			set[w] = true
		}
	}
	return set
}

// guessCeiling is the most share of single-answer questions a mechanical
// guesser may get right. Chance is 25% with four options; the bank's
// ~78 single-answer questions put one standard deviation of a fair coin
// at about 5 points, so 30% lets a guesser sit at chance plus one
// deviation but fails the 39% the tester's shortest-option guesser
// scored (a tell in three questions out of eight).
const guessCeiling = 0.30

// A test-taker who knows nothing of MCP must not beat chance by a
// mechanical rule: shortest or longest option, the option echoing the
// stem, the odd one out, the option most like the others (convergence),
// or one letter always. For multi-answer questions, ticking all four must
// not pay either.
func TestMechanicalGuessersScoreNearChance(t *testing.T) {
	single, multi := singleAndMulti(t)
	var report []string
	for _, g := range guessers {
		won := wonBy(g, single)
		right := len(won)
		share := float64(right) / float64(len(single))
		report = append(report, fmt.Sprintf("%s %d/%d (%.0f%%)", g.name, right, len(single), share*100))
		if share > guessCeiling {
			t.Errorf("guessing %q gets %d of %d single-answer questions right (%.0f%%; at most %.0f%%): %v", g.name, right, len(single), share*100, guessCeiling*100, won)
		}
	}
	all := 0
	for _, q := range multi {
		if len(q.Correct()) == len(q.Options) {
			all++
		}
	}
	report = append(report, fmt.Sprintf("all options on multi-answer %d/%d", all, len(multi)))
	// Ticking everything is right only when every option is a key; the
	// key sizes run 1 to 4, so about a quarter at most.
	if share := float64(all) / float64(len(multi)); share > guessCeiling {
		t.Errorf("ticking every option gets %d of %d multi-answer questions right (%.0f%%)", all, len(multi), share*100)
	}
	t.Log(strings.Join(report, "; "))
}

// guessFloor is the least share of single-answer questions the length
// guessers must get right. A rule far below chance is a rule in reverse:
// if the key is never the shortest or the longest option, a test-taker
// who strikes out both picks between two and scores near 50%. Chance is
// 25%; 12% is about three deviations under it.
const guessFloor = 0.12

// The key must be the shortest option, and the longest, about as often as
// chance has it: "never the longest, never the shortest" is folk wisdom a
// test-taker uses, and the bank must not reward it either.
func TestKeyLengthIsNoTellEitherWay(t *testing.T) {
	single, _ := singleAndMulti(t)
	extreme := 0
	for _, g := range guessers {
		if !g.length {
			continue
		}
		right := len(wonBy(g, single))
		if share := float64(right) / float64(len(single)); share < guessFloor {
			t.Errorf("the key is the %s in %d of %d single-answer questions (%.0f%%; at least %.0f%%): striking that option out pays", g.name, right, len(single), share*100, guessFloor*100)
		}
	}
	for _, q := range single {
		k, lens := q.Correct()[0], make([]int, len(q.Options))
		for i, o := range q.Options {
			lens[i] = len(strings.TrimSpace(o.Text))
		}
		shortest, longest := true, true
		for i, n := range lens {
			if i != k {
				shortest = shortest && lens[k] < n
				longest = longest && lens[k] > n
			}
		}
		if shortest || longest {
			extreme++
		}
	}
	// Picking between the two middle options must not beat the ceiling:
	// their share of keys, halved, stays at or under guessCeiling.
	if middle := float64(len(single)-extreme) / float64(len(single)) / 2; middle > guessCeiling {
		t.Errorf("the key is strictly the shortest or the longest option in only %d of %d single-answer questions: a test-taker who strikes out both and picks between the other two scores %.0f%% (at most %.0f%%)", extreme, len(single), middle*100, guessCeiling*100)
	}
}
