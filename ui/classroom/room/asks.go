package room

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
)

// AskQuestion is the item that sends the room to bank question q: every
// student answers it A–D on their screen. The title names the topic and
// the stem's start, never the question's id: ids such as
// "empty-which-mistake-is-worse" can give the answer away on a projected
// dashboard (the export keeps the id, in Key).
func AskQuestion(q *quiz.Question) Ask {
	a := Ask{
		Item:  common.RoomItem{Kind: common.RoomQuestion, Key: common.QuestionKey(q.ID), Question: q.ID},
		Title: fmt.Sprintf("Question · %s · %s", quiz.TopicTitle(q.Topic), StemStart(q.Stem, 48)),
	}
	fillQuestion(&a, q)
	return a
}

// StemStart is the first words of a question's stem, at most n bytes,
// cut at a word with "…".
func StemStart(stem string, n int) string {
	s := common.OneLineText(stem)
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// Grade is the room's verdict on an answer (choice: option indexes,
// sorted): for a lab scenario's poll, sim/rules' grade of the action
// chosen (Grades: best, acceptable or wrong, LESSON-RULES §8); for a
// question, best when it is exactly the right options and wrong
// otherwise. The dashboard and the session's record both mark answers
// with it (✓ best, ◑ acceptable, ✗ wrong).
func (a *Ask) Grade(choice []int) rules.Grade {
	if len(a.Grades) == len(a.Options) && len(choice) == 1 && choice[0] >= 0 && choice[0] < len(a.Grades) {
		return a.Grades[choice[0]]
	}
	c := slices.Clone(a.Correct)
	slices.Sort(c)
	if len(choice) > 0 && slices.Equal(choice, c) {
		return rules.GradeBest
	}
	return rules.GradeWrong
}

// GradeMark is a grade's mark, which reads without colour: ✓ best,
// ◑ acceptable, ✗ wrong.
func GradeMark(g rules.Grade) string {
	switch g {
	case rules.GradeBest:
		return "✓"
	case rules.GradeAcceptable:
		return "◑"
	}
	return "✗"
}

func fillQuestion(a *Ask, q *quiz.Question) {
	a.Stem, a.Multi, a.Correct = common.OneLineText(q.Stem), q.Multi, q.Correct()
	for i, o := range q.Options {
		a.Options = append(a.Options, common.OneLineText(o.Text))
		a.Labels = append(a.Labels, string(rune('A'+i)))
	}
}

// AskScenario is the item that sends the room to lab scenario sc: every
// student's app opens it, and the recovery action each chooses (1–9,
// LESSON-RULES §8) is their answer; the answer is the scenario's best
// action under the revision it opens with.
//
// Each action is graded by sim/rules (through the scenario's Score, at
// the revision it opens with): best, acceptable or wrong, the grades the
// lab gives, so an answer the lab calls acceptable is acceptable (◑) in
// the room too. The first action a student chooses is their answer
// (FirstCounts), as the lab's own mark counts the first answer; their
// screen keeps the verdict until the teacher reveals.
func AskScenario(sc *scenarios.Scenario) Ask {
	rev := sc.Revision()
	truth := sc.TruthAt(rev)
	best := truth.Best
	reveal := fmt.Sprintf("the teacher revealed the answer to %s: %d %s is the best move", common.OneLineText(sc.Title), common.ActionIndex(best)+1, best.Title())
	var ok []string
	for _, act := range truth.Acceptable {
		ok = append(ok, fmt.Sprintf("%d %s", common.ActionIndex(act)+1, act.Title()))
	}
	if len(ok) > 0 {
		reveal += "; acceptable: " + strings.Join(ok, ", ")
	}
	a := Ask{
		Item: common.RoomItem{Kind: common.RoomScenario, Key: common.ScenarioKey(sc.ID), Scenario: sc.ID,
			RevealText: reveal + fmt.Sprintf(" (spec %s)", rev)},
		Title:       "Scenario: " + common.OneLineText(sc.Title),
		Stem:        common.OneLineText(sc.Situation),
		Correct:     []int{common.ActionIndex(best)},
		FirstCounts: true,
	}
	for i, act := range rules.Actions {
		a.Options = append(a.Options, act.Title())
		a.Labels = append(a.Labels, fmt.Sprint(i+1))
		a.Grades = append(a.Grades, sc.Score(rev, act).Grade)
	}
	return a
}

// AskStep is the item that sends the room to step i (0-based) of
// walkthrough w in class mode. A question step asks its question (from
// bank, or written in the step); any other step asks nothing and only
// moves every screen. The error is a question the bank lacks.
func AskStep(w *wt.Walkthrough, i int, cat *scenarios.Catalog, bank *quiz.Bank) (Ask, error) {
	st := w.Steps[i]
	a := Ask{
		Item:  common.RoomItem{Kind: common.RoomStep, Walkthrough: w.ID, Step: i},
		Title: fmt.Sprintf("%s · step %d of %d · %s", common.OneLineText(w.Title), i+1, len(w.Steps), common.OneLineText(st.Heading(cat))),
		Stem:  common.OneLineText(st.Text),
	}
	if st.Kind != wt.KindQuestion {
		return a, nil
	}
	if bank == nil && st.Inline == nil {
		return a, fmt.Errorf("step %d asks question %q, and there is no question bank", i+1, st.Question)
	}
	q, err := st.Ask(bank)
	if err != nil {
		return a, err
	}
	a.Item.Key = common.StepKey(w.ID, i)
	fillQuestion(&a, q)
	return a, nil
}
