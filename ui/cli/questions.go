package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/quiz"
)

// QuestionEntry is one element of `errorlab questions list --json`.
type QuestionEntry struct {
	ID         string `json:"id"`
	Topic      string `json:"topic"`
	Difficulty int    `json:"difficulty"`
	// Stem is the question, trimmed.
	Stem    string           `json:"stem"`
	Options []QuestionOption `json:"options"`
	// Answer is the correct option's letter ("B"), or for a multi-select
	// question the list of letters (["A", "C"]).
	Answer any `json:"answer"`
	// Rule names the LESSON-RULES section(s), e.g. "§2" or "§3 §6".
	Rule string `json:"rule"`
	// Scenario is the id of the scenario the question cites, if any.
	Scenario string `json:"scenario,omitempty"`
	// Trap is the misconception the question tests; Story the situation
	// its stem tells (see quiz.Question).
	Trap  string `json:"trap,omitempty"`
	Story string `json:"story,omitempty"`
}

// QuestionOption is one option of a [QuestionEntry]: its text and why it
// is right or wrong, both trimmed.
type QuestionOption struct {
	Text        string `json:"text"`
	Explanation string `json:"explanation"`
}

// questionsCmd is `errorlab questions list|validate`.
func (a *app) questionsCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "questions", Short: "List and validate the exam-style question bank"}
	cmd.AddCommand(a.questionsListCmd(), a.questionsValidateCmd())
	return cmd
}

func (a *app) questionsListCmd() *cobra.Command {
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the questions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, b, err := a.catalogBank()
			if err != nil {
				return err
			}
			var out []QuestionEntry
			for _, q := range b.Questions {
				e := QuestionEntry{ID: q.ID, Topic: q.Topic, Difficulty: q.Difficulty, Stem: strings.TrimSpace(q.Stem), Rule: q.Rule, Scenario: q.Scenario, Answer: q.Answer,
					Trap: strings.TrimSpace(q.Trap), Story: q.StoryOf()}
				if q.Multi {
					e.Answer = q.Answers
				}
				for _, o := range q.Options {
					e.Options = append(e.Options, QuestionOption{strings.TrimSpace(o.Text), strings.TrimSpace(o.Explanation)})
				}
				out = append(out, e)
			}
			return a.printList(asJSON, out, "ID\tTOPIC\tDIFFICULTY\tANSWER\tRULE", func(w io.Writer) {
				for _, e := range out {
					fmt.Fprintf(w, "%s\t%s\t%d\t%v\t%s\n", e.ID, e.Topic, e.Difficulty, e.Answer, e.Rule)
				}
			})
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print one JSON array")
	return list
}

func (a *app) questionsValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate DIR",
		Short: "Check a directory of question files; problems print as file:line:col",
		Args:  oneDir,
		RunE: func(cmd *cobra.Command, args []string) error {
			problems, n, err := quiz.ValidateQuestionsDir(args[0])
			return a.validated(args[0], problems, n, err, "", "question(s)")
		},
	}
}
