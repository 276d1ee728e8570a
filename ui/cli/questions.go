package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

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
	// Concepts are the LESSON-RULES rules the question tests, as ids of
	// quiz.Concepts; a session draws one question per concept.
	Concepts []string `json:"concepts,omitempty"`
}

// QuestionOption is one option of a [QuestionEntry]: its text and why it
// is right or wrong, both trimmed.
type QuestionOption struct {
	Text        string `json:"text"`
	Explanation string `json:"explanation"`
}

// questionsCmd is `errorlab questions list|validate|exam`.
func (a *app) questionsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "questions",
		Short: "List, validate and print the exam-style question bank",
		Long: "Tools for teachers and question writers: list the bank (ids, topics, difficulty; --json for\n" +
			"everything), validate a folder of question files before handing it to --questions, and print a\n" +
			"mock exam as Markdown, with or without its answer key.",
		Example: "  errorlab questions list --json\n" +
			"  errorlab questions validate ./my-questions\n" +
			"  errorlab questions exam --seed 7 --count 30 --with-keys > exam-7.md",
	}
	cmd.AddCommand(a.questionsListCmd(), a.questionsValidateCmd(), a.questionsExamCmd())
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
					Trap: strings.TrimSpace(q.Trap), Story: q.StoryOf(), Concepts: q.Concepts}
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
			return a.validated(args[0], problems, n, err, "", "question", "")
		},
	}
}

// questionsExamCmd is `errorlab questions exam`: the mock exam that
// `errorlab quiz --mode exam` draws with the same seed, count and topic
// (authored questions only, inside the story and concept caps), printed
// as Markdown for reading on paper or by another reader. Without
// --with-keys it shows what the exam screen shows (no question ids, no
// keys); with it, an answer key follows, with each question's id,
// difficulty, concepts and trap, for the teacher.
func (a *app) questionsExamCmd() *cobra.Command {
	var seed uint64
	var count int
	var topic string
	var withKeys bool
	cmd := &cobra.Command{
		Use:   "exam",
		Short: "Print a drawn mock exam as Markdown (the draw of `quiz --mode exam` with the same --seed and --count)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if count < 0 || count == 0 && cmd.Flags().Changed("count") {
				return usagef("--count must be at least 1 (leave it out for 20)")
			}
			if topic != "" && quiz.TopicTitle(topic) == topic {
				return usagef("unknown --topic %q: use one of %s", topic, strings.Join(topicIDs(), ", "))
			}
			p, _, err := a.pool()
			if err != nil {
				return err
			}
			now := time.Now()
			fresh := seed == 0
			if fresh {
				seed = uint64(now.UnixNano())
			}
			s, err := quiz.NewSession(p, nil, quiz.Options{Mode: quiz.Exam, Topic: topic, Count: count, Seed: seed}, now)
			if err != nil {
				return UsageError{err}
			}
			if fresh {
				fmt.Fprintf(a.Stderr, "drew with seed %d; the same exam again: errorlab questions exam %s\n", s.Seed, repeatArgs(s, topic))
			}
			if short := s.Shortfall(); short != "" {
				fmt.Fprintf(a.Stderr, "%s\n", short)
			}
			writeExam(a.Stdout, s, withKeys)
			return nil
		},
	}
	cmd.Flags().Uint64Var(&seed, "seed", 0, "seed of the draw, as for quiz --seed (default: a fresh draw each run, its seed printed so it can be repeated)")
	cmd.Flags().IntVar(&count, "count", 0, "number of questions (default 20, as for a mock exam; fewer when the bank cannot hold more without one question giving another's answer away)")
	cmd.Flags().StringVar(&topic, "topic", "", "only this topic: "+strings.Join(topicIDs(), ", "))
	cmd.Flags().BoolVar(&withKeys, "with-keys", false, "add the answer key, with each question's id, difficulty and trap")
	return cmd
}

// writeExam prints the session's items as Markdown: a header with the
// seed and the draw, each item as the exam screen shows it (topic, stem,
// exhibit, lettered choices), and with keys the answer key at the end.
func writeExam(w io.Writer, s *quiz.Session, withKeys bool) {
	hard := 0
	for _, it := range s.Items {
		if it.Difficulty >= 3 {
			hard++
		}
	}
	fmt.Fprintf(w, "# errorlab mock exam\n\n")
	on := ""
	if s.Topic != "" {
		on = " on " + quiz.TopicTitle(s.Topic)
	}
	again := "errorlab quiz --mode exam " + repeatArgs(s, "")
	if s.Topic != "" {
		// The exam screen draws over every topic.
		again = "errorlab questions exam " + repeatArgs(s, s.Topic)
	}
	fmt.Fprintf(w, "%s%s · seed %d · the same draw as `%s` · %d at difficulty 3\n\n",
		quiz.Plural(len(s.Items), "question"), on, s.Seed, again, hard)
	if short := s.Shortfall(); short != "" {
		fmt.Fprintf(w, "%s.\n\n", short)
	}
	fmt.Fprintf(w, "Answer each question with its letter; where it says \"choose all that apply\", give every letter you choose.\n")
	for i, it := range s.Items {
		fmt.Fprintf(w, "\n## Question %d · %s\n\n%s\n", i+1, quiz.TopicTitle(it.Topic), mdText(it.Stem))
		if strings.TrimSpace(it.Exhibit) != "" {
			title := it.ExhibitTitle
			if title == "" {
				title = "Exhibit"
			}
			fmt.Fprintf(w, "\n%s:\n\n```json\n%s\n```\n", title, strings.TrimSpace(it.Exhibit))
		}
		for _, p := range it.Parts {
			prompt := strings.TrimSpace(p.Prompt)
			switch {
			case p.Multi && prompt == "" && !strings.Contains(strings.ToLower(it.Stem), "all that apply"):
				prompt = "Choose all that apply."
			case p.AnyOf:
				prompt += " (one letter)"
			}
			if prompt != "" {
				fmt.Fprintf(w, "\n*%s*\n", prompt)
			}
			fmt.Fprintln(w)
			for j, c := range p.Choices {
				fmt.Fprintf(w, "- **%s.** %s\n", quiz.Letter(j), mdText(c.Text))
			}
		}
	}
	if !withKeys {
		return
	}
	fmt.Fprintf(w, "\n## Answer key\n\n")
	for i, it := range s.Items {
		var keys []string
		for _, p := range it.Parts {
			var ls []string
			for _, j := range p.CorrectSet() {
				ls = append(ls, quiz.Letter(j))
			}
			sep := ", "
			if p.AnyOf {
				sep = " or "
			}
			keys = append(keys, strings.Join(ls, sep))
		}
		fmt.Fprintf(w, "%d. **%s** · `%s` · %s · difficulty %d", i+1, strings.Join(keys, " / "), it.ID, quiz.TopicTitle(it.Topic), it.Difficulty)
		if len(it.Concepts) > 0 {
			fmt.Fprintf(w, " · tests: %s", strings.Join(it.Concepts, ", "))
		}
		if it.Trap != "" {
			fmt.Fprintf(w, " · trap: %s", mdText(it.Trap))
		}
		fmt.Fprintln(w)
	}
}

// mdText folds a text onto one paragraph (the YAML's line breaks are
// layout only).
func mdText(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// repeatArgs are the flags that draw s again: --seed, --count (the count
// asked for) and --topic when set.
func repeatArgs(s *quiz.Session, topic string) string {
	args := fmt.Sprintf("--seed %d --count %d", s.Seed, s.Wanted)
	if topic != "" {
		args += " --topic " + topic
	}
	return args
}
