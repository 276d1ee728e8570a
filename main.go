// Command errorlab is a terminal training simulator for structured error
// responses in MCP tools. `errorlab` opens the lab; `errorlab scenarios`
// lists, shows and validates scenarios for scripts and instructors.
//
// Exit codes: 0 success; 1 a failure while working (unreadable content,
// I/O); 2 a usage problem (unknown scenario id, bad flag value, no
// terminal for the TUI, invalid content given to validate).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui"
)

// usageError marks an error whose exit code is 2.
type usageError struct{ error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// app carries the global flags into the commands.
type app struct {
	content   string
	questions string
	stateDir  string
	stdout    io.Writer
	stderr    io.Writer
	// isTerminal reports whether stdout is a terminal; tests replace it.
	isTerminal func() bool
	// runTUI starts the Bubble Tea program; tests replace it.
	runTUI func(ui.Options) error
}

func main() {
	a := &app{
		stdout:     os.Stdout,
		stderr:     os.Stderr,
		isTerminal: func() bool { return isatty.IsTerminal(os.Stdout.Fd()) || isatty.IsCygwinTerminal(os.Stdout.Fd()) },
		runTUI:     ui.Run,
	}
	os.Exit(a.run(os.Args[1:]))
}

// run executes the command line and returns the exit code.
func (a *app) run(args []string) int {
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintln(a.stderr, "errorlab:", err)
	var ue usageError
	if errors.As(err, &ue) || isFlagError(err) {
		return 2
	}
	return 1
}

func isFlagError(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown flag") || strings.HasPrefix(msg, "unknown command") ||
		strings.HasPrefix(msg, "unknown shorthand flag") || strings.Contains(msg, "flag needs an argument") ||
		strings.HasPrefix(msg, "invalid argument") || strings.HasPrefix(msg, "accepts ") || strings.HasPrefix(msg, "requires ")
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "errorlab",
		Short: "A terminal lab for MCP tool error responses",
		Long: "errorlab teaches how MCP tools should report failure: isError, protocol errors versus\n" +
			"tool execution errors, the four error categories and isRetryable, a valid empty result\n" +
			"versus an access failure. Run it with no arguments to open the lab.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.lab("")
		},
	}
	root.PersistentFlags().StringVar(&a.content, "content", "", "directory of extra or replacement scenario *.yaml files (instructors)")
	root.PersistentFlags().StringVar(&a.questions, "questions", "", "directory of extra or replacement question *.yaml files (instructors)")
	root.PersistentFlags().StringVar(&a.stateDir, "state-dir", "", "where progress is kept (default: $XDG_STATE_HOME/errorlab)")
	root.AddCommand(a.labCmd(), a.scenariosCmd(), a.agentCmd(), a.quizCmd(), a.questionsCmd(), a.reportCmd())
	return root
}

func (a *app) labCmd() *cobra.Command {
	var id string
	cmd := &cobra.Command{
		Use:   "lab",
		Short: "Open the lab (the default command)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return a.lab(id) },
	}
	cmd.Flags().StringVar(&id, "scenario", "", "open directly at this scenario id")
	return cmd
}

func (a *app) catalog() (*scenarios.Catalog, error) {
	c, err := scenarios.Load(a.content)
	if err == nil {
		return c, nil
	}
	var le *scenarios.LoadError
	if errors.As(err, &le) {
		return nil, usagef("the scenario content has problems, so nothing was loaded:\n%v\nFix these lines (or drop --content) and try again", err)
	}
	if a.content != "" {
		// The built-in catalogue always loads; a failure here is --content's.
		return nil, usagef("--content %s: %v", a.content, err)
	}
	return nil, err
}

func (a *app) quizCmd() *cobra.Command {
	var mode, topic string
	var count, minutes int
	var seed uint64
	var pass float64
	cmd := &cobra.Command{
		Use:   "quiz",
		Short: "Exam-style practice: practice, a timed mock exam, or review of what you missed",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := quiz.ParseMode(mode)
			if err != nil {
				return usageError{err}
			}
			if topic != "" && quiz.TopicTitle(topic) == topic {
				ids := make([]string, len(quiz.Topics))
				for i, t := range quiz.Topics {
					ids[i] = t.ID
				}
				return usagef("unknown --topic %q: use one of %s", topic, strings.Join(ids, ", "))
			}
			if count < 0 || minutes < 0 {
				return usagef("--count and --minutes must not be negative")
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
	topicIDs := make([]string, len(quiz.Topics))
	for i, t := range quiz.Topics {
		topicIDs[i] = t.ID
	}
	cmd.Flags().StringVar(&topic, "topic", "", "only this topic: "+strings.Join(topicIDs, ", "))
	cmd.Flags().IntVar(&count, "count", 0, "number of questions (default 10; exam 20)")
	cmd.Flags().IntVar(&minutes, "minutes", 0, "exam time limit in minutes (default 1.5 per question)")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "seed for a reproducible order")
	cmd.Flags().Float64Var(&pass, "pass", 70, "exam pass line, percent")
	return cmd
}

func (a *app) lab(id string) error { return a.open(nil, id) }

// open starts the TUI at a scenario or in a quiz session.
func (a *app) open(q *ui.QuizStart, id string) error {
	if !a.isTerminal() {
		if q != nil {
			return usagef("errorlab quiz is a full-screen terminal program and stdout is not a terminal.\n" +
				"Run it in a terminal; `errorlab questions list --json` and `errorlab report` work in scripts")
		}
		return usagef("the lab is a full-screen terminal program and stdout is not a terminal.\n" +
			"Run it in a terminal, or use `errorlab scenarios list` / `errorlab scenarios show ID --json` in scripts")
	}
	c, err := a.catalog()
	if err != nil {
		return err
	}
	if id != "" {
		if _, found := c.Get(id); !found {
			return unknownScenario(c, id)
		}
	}
	opts := ui.Options{Catalog: c, ScenarioID: id, Quiz: q}
	if a.questions != "" {
		if opts.Bank, err = a.bank(c); err != nil {
			return err
		}
	}
	store, err := quiz.Open(a.stateDir)
	startNotice := ""
	if store != nil {
		startNotice = store.CurrentNotice()
	}
	switch {
	case err != nil:
		// The lab still works; only saving does not. The full reason goes
		// to stderr, which shows again when the lab closes.
		opts.Progress = ui.NewMemoryProgress()
		opts.Notice = "⚠ Progress is not being saved this session (use --state-dir for a writable place; the reason is printed when you quit)"
		fmt.Fprintf(a.stderr, "errorlab: progress will not be saved: %v\nUse --state-dir to pick a writable place.\n", err)
	default:
		opts.Progress = store
		if store.Notice != "" {
			opts.Notice = "⚠ Your progress file could not be read; it was kept aside and a fresh one started (details printed when you quit)"
			fmt.Fprintln(a.stderr, "errorlab:", store.Notice)
		}
	}
	err = a.runTUI(opts)
	if store != nil {
		if n := store.CurrentNotice(); n != "" && n != startNotice {
			fmt.Fprintln(a.stderr, "errorlab:", n)
		}
	}
	return err
}

func unknownScenario(c *scenarios.Catalog, id string) error {
	return usagef("no scenario %q. Closest ids: %s\n(`errorlab scenarios list` shows them all)", id, strings.Join(c.Closest(id, 3), ", "))
}

func (a *app) scenariosCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios",
		Short: "List, show and validate lab scenarios",
	}
	cmd.AddCommand(a.listCmd(), a.showCmd(), a.validateCmd())
	return cmd
}

// listEntry is one row of `scenarios list --json`.
type listEntry struct {
	ID            string          `json:"id"`
	Title         string          `json:"title"`
	Topic         string          `json:"topic"`
	Section       string          `json:"section"`
	Layer         rules.Layer     `json:"layer"`
	ErrorCategory *rules.Category `json:"errorCategory"`
	Spec          rules.Revision  `json:"spec"`
	Styles        []string        `json:"styles"`
	BestAction    rules.Action    `json:"bestAction"`
}

func (a *app) listCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the scenarios",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.catalog()
			if err != nil {
				return err
			}
			entries := make([]listEntry, 0, len(c.Scenarios))
			for _, s := range c.Scenarios {
				t := s.TruthAt(s.Revision())
				e := listEntry{ID: s.ID, Title: s.Title, Topic: s.Topic, Section: s.Section, Layer: t.Expected.Layer,
					Spec: s.Revision(), BestAction: t.Best}
				if t.Expected.ErrorCategory != "" {
					cat := t.Expected.ErrorCategory
					e.ErrorCategory = &cat
				}
				for _, st := range s.Styles {
					e.Styles = append(e.Styles, string(st))
				}
				entries = append(entries, e)
			}
			if asJSON {
				return writeJSON(a.stdout, entries)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTOPIC\tLAYER\tCATEGORY\tTITLE")
			for _, e := range entries {
				cat := "-"
				if e.ErrorCategory != nil {
					cat = string(*e.ErrorCategory)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.Topic, e.Layer, cat, e.Title)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON array")
	return cmd
}

func (a *app) showCmd() *cobra.Command {
	var styleFlag, specFlag string
	var asJSON, session bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Make a scenario's call and print the exact request and response",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.catalog()
			if err != nil {
				return err
			}
			if strings.TrimSpace(args[0]) == "" {
				return usagef("give a scenario id (see `errorlab scenarios list`)")
			}
			s, found := c.Get(args[0])
			if !found {
				return unknownScenario(c, args[0])
			}
			style, err := pickStyle(s, styleFlag)
			if err != nil {
				return err
			}
			rev := s.Revision()
			if specFlag != "" {
				if rev, err = rules.ParseRevision(specFlag); err != nil {
					return usageError{err}
				}
			}
			if session {
				msgs, err := s.Conversation(context.Background(), style, rev)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(a.stdout, map[string]any{"id": s.ID, "spec": rev, "style": style, "transcript": msgs})
				}
				for _, m := range msgs {
					fmt.Fprintf(a.stdout, "%s  %s\n", m.Dir, m.Bytes)
				}
				return nil
			}
			ex, err := s.Exchange(context.Background(), style, rev)
			if err != nil {
				return err
			}
			res := s.Record(ex, style, 0)
			if res.Classification == nil {
				return fmt.Errorf("scenario %s: response unreadable: %s", s.ID, res.ClassificationError)
			}
			if asJSON {
				return writeJSON(a.stdout, res)
			}
			return printShow(a.stdout, s, res)
		},
	}
	cmd.Flags().StringVar(&styleFlag, "style", "good", "response style: good, bad (the scenario's main bad style) or a style name")
	cmd.Flags().StringVar(&specFlag, "spec", "", "spec revision: 2025-06-18, 2025-11-25 or 2026-07-28 (default: the scenario's)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().BoolVar(&session, "session", false, "print the whole conversation (handshake, tools/list, the call) as it crossed a real stdio transport")
	return cmd
}

// pickStyle resolves --style against the styles a scenario offers.
func pickStyle(s *scenarios.Scenario, flag string) (mockserver.Style, error) {
	offered := make([]string, len(s.Styles))
	for i, st := range s.Styles {
		offered[i] = string(st)
	}
	switch flag {
	case "good":
		return mockserver.StyleGood, nil
	case "bad":
		if b := s.BadStyle(); b != "" {
			return b, nil
		}
		return "", usagef("scenario %s offers no bad style (styles: %s)", s.ID, strings.Join(offered, ", "))
	}
	st, err := mockserver.ParseStyle(flag)
	if err != nil {
		return "", usagef("unknown style %q: scenario %s offers %s (or bad, for its main bad style)", flag, s.ID, strings.Join(offered, ", "))
	}
	if !s.HasStyle(st) {
		return "", usagef("scenario %s does not offer style %s (styles: %s)", s.ID, st, strings.Join(offered, ", "))
	}
	return st, nil
}

func printShow(w io.Writer, s *scenarios.Scenario, r scenarios.ExchangeRecord) error {
	cat := "-"
	if r.Classification.ErrorCategory != "" {
		cat = string(r.Classification.ErrorCategory)
	}
	retry := "-"
	if r.Classification.IsRetryable != nil {
		retry = fmt.Sprint(*r.Classification.IsRetryable)
	}
	_, err := fmt.Fprintf(w, "%s: %s\nspec %s, style %s\n\n--> request\n%s\n\n<-- response\n%s\n\nlayer %s, errorCategory %s, isRetryable %s, empty %v\nbest action: %s (%s)\n",
		s.ID, s.Title, r.Spec, r.Style, r.Request, r.Response,
		r.Classification.Layer, cat, retry, r.Classification.Empty, r.BestAction, r.BestAction.Title())
	return err
}

func (a *app) validateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate DIR",
		Short: "Check a directory of scenario files; problems print as file:line:col",
		Args:  oneDir,
		RunE: func(cmd *cobra.Command, args []string) error {
			problems, n, err := scenarios.ValidateDir(args[0])
			if err != nil {
				return usageError{err}
			}
			for _, p := range problems {
				fmt.Fprintln(a.stdout, p)
			}
			if len(problems) > 0 {
				return usagef("%d problem(s) in %s; nothing there would load", len(problems), args[0])
			}
			fmt.Fprintf(a.stdout, "%d scenario(s) in %s are valid\n", n, args[0])
			return nil
		},
	}
}

// oneDir accepts exactly one argument, a directory, and says so otherwise.
func oneDir(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usagef("%s needs one directory of *.yaml files, e.g. `%s ./my-content`", cmd.CommandPath(), cmd.CommandPath())
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func (a *app) agentCmd() *cobra.Command {
	var id, kindFlag string
	var coordinator, asJSON bool
	cmd := &cobra.Command{
		Use:   "agent --scenario ID (--agent naive|informed | --coordinator)",
		Short: "Play a scenario with a simulated agent on a virtual clock",
		Long: "Runs a simulated agent through a scenario: every tool call is a real tools/call to the\n" +
			"mock server; waits cost no real time. --agent informed reads the error metadata and follows\n" +
			"the lesson rules; --agent naive resends every failure. --coordinator plays the scenario as a\n" +
			"subagent job and prints the one report the subagent sends upward.\n" +
			"The scenario id four-failures runs the lessons' four failures of one afternoon in a row.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if strings.TrimSpace(id) == "" {
				return usagef("--scenario is required (see `errorlab scenarios list`, or use %s)", scenarios.Afternoon.ID)
			}
			if coordinator && cmd.Flags().Changed("agent") {
				return usagef("--coordinator plays the subagent and its coordinator; leave out --agent")
			}
			if coordinator && id == scenarios.Afternoon.ID {
				return usagef("%s is a series of four scenarios; --coordinator plays one scenario as a subagent job (try staff-record-denied)", id)
			}
			c, err := a.catalog()
			if err != nil {
				return err
			}
			ctx := context.Background()
			if coordinator {
				s, found := c.Get(id)
				if !found {
					return unknownScenario(c, id)
				}
				d, err := s.Delegation()
				if err != nil {
					return usageError{err}
				}
				cr, err := agent.Delegate(ctx, d)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(a.stdout, cr)
				}
				printSteps(a.stdout, cr.Subagent)
				fmt.Fprintf(a.stdout, "\nthe one report sent to the coordinator:\n")
				_ = writeJSON(a.stdout, cr.Report)
				action := string(cr.CoordinatorAction)
				if action == "" {
					action = "answer from the results"
				}
				fmt.Fprintf(a.stdout, "coordinator (%s): %s\nwhy: %s\n", action, cr.CoordinatorSays, cr.Why)
				return nil
			}
			kind, err := agent.ParseKind(kindFlag)
			if err != nil {
				return usageError{err}
			}
			var run *agent.Run
			if id == scenarios.Afternoon.ID {
				_, tasks, err := c.SeriesTasks(id)
				if err != nil {
					return err
				}
				run, err = agent.PlaySeries(ctx, id, tasks, kind)
				if err != nil {
					return err
				}
			} else {
				s, found := c.Get(id)
				if !found {
					return unknownScenario(c, id)
				}
				run, err = agent.Play(ctx, s.Task(), kind)
				if err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSON(a.stdout, run)
			}
			printRun(a.stdout, run)
			return nil
		},
	}
	cmd.Flags().StringVar(&id, "scenario", "", "scenario id, or "+scenarios.Afternoon.ID)
	cmd.Flags().StringVar(&kindFlag, "agent", "informed", "naive or informed")
	cmd.Flags().BoolVar(&coordinator, "coordinator", false, "play the scenario as a subagent job and show its report")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

// printRun writes a run as a readable timeline, with a heading per task
// for a series, then the sums and the verdict.
func printRun(w io.Writer, r *agent.Run) {
	if len(r.Parts) > 0 {
		fmt.Fprintf(w, "%s agent · %s\n", r.Agent, r.Scenario)
		for i, p := range r.Parts {
			fmt.Fprintf(w, "\n── %d/%d %s · style %s · %s\n", i+1, len(r.Parts), p.Scenario, p.Style, p.Verdict)
			printStepList(w, p.Steps)
		}
		fmt.Fprintln(w)
	} else {
		printSteps(w, r)
	}
	fmt.Fprintf(w, "calls %d · %.1f virtual seconds · verdict: %s\n", r.Calls, r.VirtualSeconds, r.Verdict)
	if r.Why != "" {
		fmt.Fprintf(w, "why: %s\n", r.Why)
	}
}

// printSteps writes a run's heading and steps.
func printSteps(w io.Writer, r *agent.Run) {
	who := string(r.Agent) + " agent"
	if r.Agent == "subagent" {
		who = "subagent"
	}
	fmt.Fprintf(w, "%s · %s · style %s\n", who, r.Scenario, r.Style)
	printStepList(w, r.Steps)
}

func printStepList(w io.Writer, steps []agent.Step) {
	for _, st := range steps {
		switch st.Kind {
		case agent.StepCall, agent.StepEscalate:
			what := st.Tool
			if st.Exchange != nil && st.Exchange.Call.Raw != "" {
				what = "hand-written bytes " + string(st.Exchange.Request)
			} else {
				args, _ := json.Marshal(st.Arguments)
				what += " " + string(args)
			}
			fmt.Fprintf(w, "  t=%6.1fs  %-8s %s  → %s\n", st.T, st.Kind, what, outcomeText(st))
		case agent.StepWait:
			fmt.Fprintf(w, "  t=%6.1fs  %-8s %gs  (%s)\n", st.T, st.Kind, st.Seconds, st.Text)
		case agent.StepMessage:
			fmt.Fprintf(w, "  t=%6.1fs  %-8s to %s: %s\n", st.T, st.Kind, st.To, st.Text)
		}
	}
}

func outcomeText(st agent.Step) string {
	switch {
	case st.Protocol != 0:
		return fmt.Sprintf("protocol error %d", st.Protocol)
	case st.Outcome == nil:
		return "?"
	case st.Outcome.Layer == rules.LayerExecution:
		cat := string(st.Outcome.ErrorCategory)
		if cat == "" {
			cat = "no category"
		}
		return "isError true (" + cat + ")"
	case st.Outcome.Empty:
		return "success, empty"
	}
	return "success"
}

func (a *app) questionsCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "questions", Short: "List and validate the exam-style question bank"}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the questions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.catalog()
			if err != nil {
				return err
			}
			b, err := a.bank(c)
			if err != nil {
				return err
			}
			type option struct {
				Text        string `json:"text"`
				Explanation string `json:"explanation"`
			}
			type entry struct {
				ID         string   `json:"id"`
				Topic      string   `json:"topic"`
				Difficulty int      `json:"difficulty"`
				Stem       string   `json:"stem"`
				Options    []option `json:"options"`
				Answer     any      `json:"answer"`
				Rule       string   `json:"rule"`
				Scenario   string   `json:"scenario,omitempty"`
			}
			var out []entry
			for _, q := range b.Questions {
				e := entry{ID: q.ID, Topic: q.Topic, Difficulty: q.Difficulty, Stem: strings.TrimSpace(q.Stem), Rule: q.Rule, Scenario: q.Scenario, Answer: q.Answer}
				if q.Multi {
					e.Answer = q.Answers
				}
				for _, o := range q.Options {
					e.Options = append(e.Options, option{strings.TrimSpace(o.Text), strings.TrimSpace(o.Explanation)})
				}
				out = append(out, e)
			}
			if asJSON {
				return writeJSON(a.stdout, out)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTOPIC\tDIFFICULTY\tANSWER\tRULE")
			for _, e := range out {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%v\t%s\n", e.ID, e.Topic, e.Difficulty, e.Answer, e.Rule)
			}
			return tw.Flush()
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print one JSON array")
	validate := &cobra.Command{
		Use:   "validate DIR",
		Short: "Check a directory of question files; problems print as file:line:col",
		Args:  oneDir,
		RunE: func(cmd *cobra.Command, args []string) error {
			problems, n, err := quiz.ValidateQuestionsDir(args[0])
			if err != nil {
				return usageError{err}
			}
			for _, p := range problems {
				fmt.Fprintln(a.stdout, p)
			}
			if len(problems) > 0 {
				return usagef("%d problem(s) in %s", len(problems), args[0])
			}
			fmt.Fprintf(a.stdout, "%d question(s) in %s are valid\n", n, args[0])
			return nil
		},
	}
	cmd.AddCommand(list, validate)
	return cmd
}

func (a *app) reportCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Export progress for a teacher (per topic, exam history, missed questions)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "md" && format != "json" {
				return usagef("unknown --format %q: use md or json", format)
			}
			prog, err := quiz.ReadProgress(a.stateDir)
			if err != nil {
				return err
			}
			pool, c, err := a.pool()
			if err != nil {
				return err
			}
			sum := quiz.Summarize(pool, prog)
			sum.Scenarios = len(c.Scenarios)
			if format == "json" {
				return sum.WriteJSON(a.stdout)
			}
			return sum.WriteMarkdown(a.stdout)
		},
	}
	cmd.Flags().StringVar(&format, "format", "md", "md or json")
	return cmd
}

// bank loads the question bank, overlaid with --questions.
func (a *app) bank(c *scenarios.Catalog) (*quiz.Bank, error) {
	b, err := quiz.LoadBankDir(a.questions, c)
	var be *quiz.BankError
	if errors.As(err, &be) {
		return nil, usagef("the questions in %s have problems, so none were loaded:\n%v\nFix these lines (or drop --questions) and try again", a.questions, err)
	}
	if err != nil && a.questions != "" {
		return nil, usagef("--questions %s: %v", a.questions, err)
	}
	return b, err
}

// pool loads the question bank and the catalogue's drills, and returns
// the catalogue too.
func (a *app) pool() (*quiz.Pool, *scenarios.Catalog, error) {
	c, err := a.catalog()
	if err != nil {
		return nil, nil, err
	}
	bank, err := a.bank(c)
	if err != nil {
		return nil, nil, err
	}
	p, err := quiz.LoadPool(context.Background(), bank, c)
	return p, c, err
}
