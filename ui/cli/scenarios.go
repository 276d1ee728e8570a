package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// ScenarioEntry is one element of `errorlab scenarios list --json`: what
// the scenario's good-style response is, under its own spec revision.
type ScenarioEntry struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Topic   string `json:"topic"`
	Section string `json:"section"`
	// Layer is protocol, execution or success.
	Layer rules.Layer `json:"layer"`
	// ErrorCategory is null unless the response is an execution error.
	ErrorCategory *rules.Category `json:"errorCategory"`
	Spec          rules.Revision  `json:"spec"`
	// Styles lists the response styles, good first.
	Styles     []string     `json:"styles"`
	BestAction rules.Action `json:"bestAction"`
}

// Conversation is `errorlab scenarios show ID --session --json`: the
// whole conversation (handshake, tools/list, the call) as it crossed a
// real stdio transport, in the order the messages were written.
type Conversation struct {
	ID         string           `json:"id"`
	Spec       rules.Revision   `json:"spec"`
	Style      mockserver.Style `json:"style"`
	Transcript []wire.Message   `json:"transcript"`
}

// scenariosCmd is `errorlab scenarios list|show|validate`. The JSON of
// `show --json` is scenarios.ExchangeRecord.
func (a *app) scenariosCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios",
		Short: "List, show and validate lab scenarios",
	}
	cmd.AddCommand(a.scenariosListCmd(), a.scenariosShowCmd(), a.scenariosValidateCmd())
	return cmd
}

func (a *app) scenariosListCmd() *cobra.Command {
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
			entries := make([]ScenarioEntry, 0, len(c.Scenarios))
			for _, s := range c.Scenarios {
				t := s.TruthAt(s.Revision())
				e := ScenarioEntry{ID: s.ID, Title: s.Title, Topic: s.Topic, Section: s.Section, Layer: t.Expected.Layer,
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
			return a.printList(asJSON, entries, "ID\tTOPIC\tLAYER\tCATEGORY\tTITLE", func(w io.Writer) {
				for _, e := range entries {
					cat := "-"
					if e.ErrorCategory != nil {
						cat = string(*e.ErrorCategory)
					}
					fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.Topic, e.Layer, cat, e.Title)
				}
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON array")
	return cmd
}

func (a *app) scenariosShowCmd() *cobra.Command {
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
					return UsageError{err}
				}
			}
			if session {
				msgs, err := s.Conversation(context.Background(), style, rev)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(a.Stdout, Conversation{ID: s.ID, Spec: rev, Style: style, Transcript: msgs})
				}
				for _, m := range msgs {
					fmt.Fprintf(a.Stdout, "%s  %s\n", m.Dir, m.Bytes)
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
				return writeJSON(a.Stdout, res)
			}
			return printShow(a.Stdout, s, res)
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

func (a *app) scenariosValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate DIR",
		Short: "Check a directory of scenario files; problems print as file:line:col",
		Args:  oneDir,
		RunE: func(cmd *cobra.Command, args []string) error {
			problems, n, err := scenarios.ValidateDir(args[0])
			also := ""
			if scenarios.HasReference(args[0]) {
				also = " and the Reference's 9 sections"
			}
			return a.validated(args[0], problems, n, err, "; nothing there would load", "scenario", also)
		},
	}
}

// validated reports what a validate command found in dir: each problem
// on its own line and a usage error, or the count of valid things ("3
// questions in DIR are valid", noun in the singular; also follows the
// count, e.g. " and the Reference's 9 sections").
func (a *app) validated(dir string, problems []scenarios.Problem, n int, err error, failTail, noun, also string) error {
	if err != nil {
		return UsageError{err}
	}
	for _, p := range problems {
		fmt.Fprintln(a.Stdout, p)
	}
	if len(problems) > 0 {
		return usagef("%s in %s%s", quiz.Plural(len(problems), "problem"), dir, failTail)
	}
	verb := "are"
	if n == 1 && also == "" {
		verb = "is"
	}
	fmt.Fprintf(a.Stdout, "%s%s in %s %s valid\n", quiz.Plural(n, noun), also, dir, verb)
	return nil
}
