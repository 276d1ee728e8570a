package cli

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
)

// quizCmd is `errorlab quiz`: the TUI opened in a practice, exam or
// review session.
func (a *app) quizCmd() *cobra.Command {
	var mode, topic string
	var count, minutes int
	var seed uint64
	var pass float64
	cmd := &cobra.Command{
		Use:   "quiz",
		Short: "Exam-style practice: practice, a timed mock exam, or review of what you missed",
		Long: "Opens exam practice. practice asks questions one at a time and explains every option after\n" +
			"each answer; exam is a timed mock exam drawn by topic weight and difficulty (difficulty 3\n" +
			"wherever the caps allow, a third at least), scored per topic against --pass at the end; review\n" +
			"brings back what you missed and rests what you have mastered: three right answers in a row,\n" +
			"on three different days (a right answer moves a question up a Leitner box " + quiz.Spaced + " at\n" +
			"most; a wrong one drops it to box 1 at once). Answers are kept in --state-dir,\n" +
			"so review knows your history. Your last " + strconv.Itoa(quiz.KeptExams) + " finished mock exams keep their answers: Past exams\n" +
			"on the quiz menu lists them, newest first (date, score, number of questions), and reopens any.",
		Example: "  errorlab quiz\n" +
			"  errorlab quiz --topic retryable --count 5\n" +
			"  errorlab quiz --mode exam --count 30 --minutes 45 --seed 7\n" +
			"  errorlab quiz --mode review",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := quiz.ParseMode(mode)
			if err != nil {
				return UsageError{err}
			}
			if topic != "" && quiz.TopicTitle(topic) == topic {
				return usagef("unknown --topic %q: use one of %s", topic, strings.Join(topicIDs(), ", "))
			}
			if count < 0 {
				return usagef("--count must not be negative")
			}
			if count == 0 && cmd.Flags().Changed("count") {
				return usagef("--count must be at least 1 (leave it out for 10, or 20 in an exam)")
			}
			if cmd.Flags().Changed("minutes") && (minutes < 1 || minutes > maxMinutes) {
				// 0 used to mean the default, silently.
				return usagef("--minutes must be from 1 to %d, not %d (leave it out for 1.5 minutes a question)", maxMinutes, minutes)
			}
			switch {
			case pass > 0 && pass <= 1:
				return usagef("--pass is a percentage: for a pass line of %g%% write --pass %g", pass*100, pass*100)
			case pass < 1 || pass > 100:
				return usagef("--pass is a percentage from 1 to 100 (got %g)", pass)
			}
			return a.open(&ui.QuizStart{Mode: m, Topic: topic, Count: count, Minutes: minutes, Seed: seed, PassMark: pass / 100}, "")
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "practice", "practice, exam or review")
	cmd.Flags().StringVar(&topic, "topic", "", "only this topic: "+strings.Join(topicIDs(), ", "))
	cmd.Flags().IntVar(&count, "count", 0, "number of questions (default 10; exam 20)")
	cmd.Flags().IntVar(&minutes, "minutes", 0, "exam time limit in minutes, 1 to 600 (default 1.5 per question)")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "seed for a reproducible order")
	cmd.Flags().Float64Var(&pass, "pass", 70, "exam pass line, percent")
	return cmd
}

// maxMinutes is the longest exam --minutes sets, as on the set-up.
const maxMinutes = 600

// topicIDs lists the quiz topics' ids in their order.
func topicIDs() []string {
	ids := make([]string, len(quiz.Topics))
	for i, t := range quiz.Topics {
		ids[i] = t.ID
	}
	return ids
}
