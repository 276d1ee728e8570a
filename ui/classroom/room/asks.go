package room

import (
	"fmt"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
)

// AskQuestion is the item that sends the room to bank question q: every
// student answers it A–D on their screen.
func AskQuestion(q *quiz.Question) Ask {
	a := Ask{
		Item:  common.RoomItem{Kind: common.RoomQuestion, Key: common.QuestionKey(q.ID), Question: q.ID},
		Title: fmt.Sprintf("Question %s · %s", q.ID, quiz.TopicTitle(q.Topic)),
	}
	fillQuestion(&a, q)
	return a
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
func AskScenario(sc *scenarios.Scenario) Ask {
	best := sc.TruthAt(sc.Revision()).Best
	a := Ask{
		Item: common.RoomItem{Kind: common.RoomScenario, Key: common.ScenarioKey(sc.ID), Scenario: sc.ID,
			RevealText: fmt.Sprintf("the teacher revealed the answer: %d %s is the best move here (spec %s)", common.ActionIndex(best)+1, best.Title(), sc.Revision())},
		Title:   "Scenario: " + common.OneLineText(sc.Title),
		Stem:    common.OneLineText(sc.Situation),
		Correct: []int{common.ActionIndex(best)},
	}
	for i, act := range rules.Actions {
		a.Options = append(a.Options, act.Title())
		a.Labels = append(a.Labels, fmt.Sprint(i+1))
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
