package quiz

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/errorlab/errorlab/scenarios"
)

// The design review: faults that do not stop a bank from loading but make
// its questions easy to guess or let one question answer another. `errorlab
// questions validate` reports them with the load problems; the built-in
// bank must have none (TestEmbeddedBankPassesReview).
//
// What it reports, each at file:line:col:
//   - a question that names no trap (the misconception it tests), no
//     story (the situation its stem tells) or no concept (the rule it
//     tests);
//   - two questions citing one scenario under different stories;
//   - a stem that contains the text of one of its own keys, or a trap
//     that repeats a key (the trap is the wrong belief);
//   - a throwaway option ("All of the above", "None of it");
//   - an apart: id that names no question of the bank or the built-in one;
//   - two questions whose options overlap by more than half: more than two
//     of one question's four options are near-copies (more than half of
//     their words shared) of the other's;
//   - multi-answer letters out of balance, once the bank holds
//     [minMultiForBalance] multi-answer questions: a letter in more than
//     half the keys, letters far apart in how often they are keys, or
//     keys that are all the same size, or (from [minMultiForSizes]) no
//     key of some size from 1 to 4;
//   - single-answer letters out of balance, once it holds
//     [minSingleForBalance]: a letter keyed in under 15% or over 35%.

// Review thresholds.
const (
	// minMultiForBalance is the number of multi-answer questions from
	// which their letter balance is checked.
	minMultiForBalance = 4
	// minMultiForSizes is the number of multi-answer questions from which
	// every key size from 1 to 4 must be present (two of each size).
	minMultiForSizes = 8
	// minSingleForBalance is the number of single-answer questions from
	// which their letter balance is checked.
	minSingleForBalance = 12
	// nearCopy is the share of words two option texts must share (of the
	// words in either) to count as near-copies: more than half.
	nearCopy = 0.5
)

// ReviewBank runs the design review over b. Problems are placed in the
// questions' files when b was loaded from files (LoadBank), and name the
// question otherwise.
func ReviewBank(b *Bank) []QuestionProblem {
	var out []QuestionProblem
	add := func(q *Question, field, msg string, a ...any) {
		p := QuestionProblem{File: q.File, Msg: fmt.Sprintf(msg, a...)}
		if q.src != nil {
			p.Line, p.Column = scenarios.Locate(q.src, fmt.Sprintf("$[%d]%s", q.idx, field))
		}
		out = append(out, p)
	}
	storyOf := map[string]*Question{} // scenario → first question citing it with a story
	known := map[string]bool{}        // ids apart: may name: this bank's and the built-in bank's
	for _, q := range b.Questions {
		known[q.ID] = true
	}
	if base, err := DefaultBank(); err == nil {
		for _, q := range base.Questions {
			known[q.ID] = true
		}
	}
	for _, q := range b.Questions {
		if strings.TrimSpace(q.Trap) == "" {
			add(q, ".id", "question %s names no trap: add trap: with the misconception its wrong options are built on", q.ID)
		}
		if q.StoryOf() == "" {
			add(q, ".id", "question %s names no story: add story: with the situation its stem tells (a customer, a product, a system), so a session can keep questions that share its facts apart", q.ID)
		}
		for i, id := range q.Apart {
			if _, ok := known[id]; !ok {
				add(q, fmt.Sprintf(".apart[%d]", i), "question %s is kept apart from %q, which is no question of this bank or the built-in one: use the id of the question whose text gives this one away", q.ID, id)
			} else if id == q.ID {
				add(q, fmt.Sprintf(".apart[%d]", i), "question %s is kept apart from itself", q.ID)
			}
		}
		if len(q.Concepts) == 0 {
			add(q, ".id", "question %s names no concept: add concepts: with the LESSON-RULES rule it tests (an id of quiz.Concepts), so a session does not draw two questions that answer each other", q.ID)
		}
		if q.Scenario != "" && q.Story != "" {
			if first, ok := storyOf[q.Scenario]; ok && first.Story != q.Story {
				add(q, ".story", "question %s cites scenario %s under story %q, but question %s cites it under story %q: one scenario is one story", q.ID, q.Scenario, q.Story, first.ID, first.Story)
			} else if !ok {
				storyOf[q.Scenario] = q
			}
		}
		stem, trap := normalize(q.Stem), normalize(q.Trap)
		for _, i := range q.Correct() {
			if i >= len(q.Options) {
				continue
			}
			key := normalize(q.Options[i].Text)
			if key != "" && containsWords(stem, key) {
				add(q, ".stem", "the stem of %s contains the text of its key %s (%q): the answer is given away", q.ID, Letter(i), strings.TrimSpace(q.Options[i].Text))
			}
			if key != "" && trap == key {
				add(q, ".trap", "the trap of %s repeats its key %s: the trap is the wrong belief a distractor is built on, not the right answer", q.ID, Letter(i))
			}
		}
		for i, o := range q.Options {
			if throwaway.MatchString(normalize(o.Text)) {
				add(q, fmt.Sprintf(".options[%d].text", i), "option %s of %s (%q) is a throwaway: every wrong option should state a belief a half-prepared learner holds", Letter(i), q.ID, strings.TrimSpace(o.Text))
			}
		}
	}
	nearDuplicates(b.Questions, add)
	letterBalance(b.Questions, add)
	return out
}

// ReviewDir runs the design review over the question files of dir alone
// (not the built-in bank they overlay), as `--questions DIR` loads them.
// It returns nil when dir does not load: the loader reports that.
func ReviewDir(dir string) []QuestionProblem {
	b, err := LoadBank(os.DirFS(dir), dir)
	if err != nil {
		return nil
	}
	return ReviewBank(b)
}

var throwaway = regexp.MustCompile(`^(all|none|both|neither) (of )?(it|them|these|those|the above|of the above)$`)

// normalize lowercases text, drops punctuation other than what joins a
// token (- _ . / : inside words, digits) and collapses spaces.
func normalize(s string) string {
	return strings.Join(words(s), " ")
}

var wordPattern = regexp.MustCompile(`[\p{L}\p{N}£$€%]+(?:[-_./:'’][\p{L}\p{N}]+)*`)

// words splits text into lowercase word tokens.
func words(s string) []string {
	return wordPattern.FindAllString(strings.ToLower(s), -1)
}

// containsWords reports whether the word sequence needle occurs in hay at
// word boundaries.
func containsWords(hay, needle string) bool {
	return strings.Contains(" "+hay+" ", " "+needle+" ")
}

// overlap is the share of distinct words a and b have in common, of the
// distinct words in either (Jaccard).
func overlap(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	both := 0
	for w := range a {
		if b[w] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}

func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range words(s) {
		set[w] = true
	}
	return set
}

// nearDuplicates reports each question whose options overlap an earlier
// question's by more than half.
func nearDuplicates(qs []*Question, add func(*Question, string, string, ...any)) {
	sets := make([][]map[string]bool, len(qs))
	for i, q := range qs {
		for _, o := range q.Options {
			sets[i] = append(sets[i], wordSet(o.Text))
		}
	}
	for j := range qs {
		for i := 0; i < j; i++ {
			shared := 0
			for _, a := range sets[j] {
				for _, b := range sets[i] {
					if overlap(a, b) > nearCopy {
						shared++
						break
					}
				}
			}
			if n := min(len(sets[i]), len(sets[j])); n > 0 && shared*2 > n {
				add(qs[j], ".options", "the options of %s overlap those of %s (%s) by more than half: %d of %d are near-copies; write options that test a different belief, or merge the two questions", qs[j].ID, qs[i].ID, qs[i].File, shared, n)
			}
		}
	}
}

// letterBalance reports answer letters out of balance (see ReviewBank).
func letterBalance(qs []*Question, add func(*Question, string, string, ...any)) {
	var multi, single []*Question
	for _, q := range qs {
		if q.Multi {
			multi = append(multi, q)
		} else {
			single = append(single, q)
		}
	}
	if len(multi) >= minMultiForBalance {
		count := map[int]int{}
		sizes := map[int]int{}
		last := map[int]*Question{}
		for _, q := range multi {
			c := q.Correct()
			sizes[len(c)]++
			for _, i := range c {
				count[i]++
				last[i] = q
			}
		}
		k := len(multi)
		lo, hi := k, 0
		for i := range 4 {
			lo, hi = min(lo, count[i]), max(hi, count[i])
			if count[i]*2 > k {
				add(last[i], ".answers", "%s is a key letter in %d of the %d multi-answer questions (at most half may hold it): a test-taker who always picks %s gains; %s", Letter(i), count[i], k, Letter(i), multiSummary(count, sizes, k))
			}
		}
		if spread := max(2, (k+4)/5); hi-lo > spread {
			add(multi[len(multi)-1], ".answers", "multi-answer key letters are out of balance (the most and least used differ by %d, at most %d): %s", hi-lo, spread, multiSummary(count, sizes, k))
		}
		var missing []string
		for size := 1; size <= 4; size++ {
			if sizes[size] == 0 {
				missing = append(missing, fmt.Sprint(size))
			}
		}
		switch {
		case len(sizes) == 1:
			add(multi[len(multi)-1], ".answers", "every multi-answer key has %d letters: vary the key sizes from 1 to 4, or the size gives the answer away; %s", len(multi[0].Correct()), multiSummary(count, sizes, k))
		case k >= minMultiForSizes && len(missing) > 0:
			add(multi[len(multi)-1], ".answers", "no multi-answer key has %s: with %d multi-answer questions, give keys of every size from 1 to 4, or a test-taker learns the sizes never used; %s", sizeList(missing), k, multiSummary(count, sizes, k))
		}
	}
	if n := len(single); n >= minSingleForBalance {
		count := map[int]int{}
		last := map[int]*Question{}
		for _, q := range single {
			if c := q.Correct(); len(c) == 1 {
				count[c[0]]++
				last[c[0]] = q
			}
		}
		for i := range 4 {
			share := float64(count[i]) / float64(n)
			if share < 0.15 || share > 0.35 {
				q := last[i]
				if q == nil {
					q = single[len(single)-1]
				}
				add(q, ".answer", "%s is the key of %d of the %d single-answer questions (%.0f%%; keep each letter between 15%% and 35%%)", Letter(i), count[i], n, share*100)
			}
		}
	}
}

func multiSummary(count, sizes map[int]int, k int) string {
	var ls, ss []string
	for i := range 4 {
		ls = append(ls, fmt.Sprintf("%s %d", Letter(i), count[i]))
	}
	var keys []int
	for s := range sizes {
		keys = append(keys, s)
	}
	sort.Ints(keys)
	for _, s := range keys {
		ss = append(ss, fmt.Sprintf("%d of %s", sizes[s], Plural(s, "letter")))
	}
	return fmt.Sprintf("letters in %d keys: %s; key sizes: %s", k, strings.Join(ls, ", "), strings.Join(ss, ", "))
}

// sizeList names key sizes ("1 letter", "1 or 4 letters").
func sizeList(sizes []string) string {
	if len(sizes) == 1 && sizes[0] == "1" {
		return "1 letter"
	}
	return strings.Join(sizes, " or ") + " letters"
}
