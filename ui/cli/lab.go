package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
)

// labCmd is `errorlab lab [--scenario ID]`, which the root command runs
// when it is given no subcommand.
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

func (a *app) lab(id string) error { return a.open(nil, id) }

// open starts the TUI at a scenario or in a quiz session.
func (a *app) open(q *ui.QuizStart, id string) error {
	if !a.IsTerminal() {
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
	return a.runTUI(ui.Options{Catalog: c, ScenarioID: id, Quiz: q})
}

// runTUI starts the TUI with opts (the catalogue set; the bank, when
// nil, from --questions), adding the theme and the progress store.
func (a *app) runTUI(opts ui.Options) error {
	theme, err := a.resolveTheme()
	if err != nil {
		return err
	}
	opts.Theme = theme
	c := opts.Catalog
	if a.questions != "" && opts.Bank == nil {
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
		fmt.Fprintf(a.Stderr, "errorlab: progress will not be saved: %v\nUse --state-dir to pick a writable place.\n", err)
	default:
		opts.Progress = store
		if store.Notice != "" {
			opts.Notice = "⚠ Your progress file could not be read; it was kept aside and a fresh one started (details printed when you quit)"
			fmt.Fprintln(a.Stderr, "errorlab:", store.Notice)
		}
	}
	err = a.RunTUI(opts)
	if store != nil {
		if n := store.CurrentNotice(); n != "" && n != startNotice {
			fmt.Fprintln(a.Stderr, "errorlab:", n)
		}
	}
	return err
}
