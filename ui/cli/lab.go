package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/sim/serve"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/common"
)

// labCmd is `errorlab lab [--scenario ID]`, which the root command runs
// when it is given no subcommand.
func (a *app) labCmd() *cobra.Command {
	var id, replay string
	cmd := &cobra.Command{
		Use:   "lab [--scenario ID | --replay FILE]",
		Short: "Open the lab (the default command)",
		Long: "Opens the lab. --scenario ID opens it at that scenario.\n\n" +
			"--replay FILE opens the exchange log of `errorlab serve --log FILE` as a replay: each client\n" +
			"session's exchanges in the request and response panes, each failure's classification, the\n" +
			"client's next move and its verdict, and the session's report card, scored from the log by the\n" +
			"same code that scores a live client. c shows what errorlab check finds in a response.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if replay != "" {
				return a.replay(replay, id)
			}
			return a.lab(id)
		},
	}
	cmd.Flags().StringVar(&id, "scenario", "", "open directly at this scenario `ID`")
	cmd.Flags().StringVar(&replay, "replay", "", "open the exchange log `FILE` of errorlab serve --log as a replay")
	return cmd
}

func (a *app) lab(id string) error { return a.open(nil, id) }

// replay reads an exchange log, then opens the watch screen on it. The
// log is read (and refused, with each bad line as FILE:LINE) before the
// terminal is taken.
func (a *app) replay(file, id string) error {
	if id != "" {
		return usagef("--replay and --scenario both say where the lab opens: give one")
	}
	c, err := a.catalog()
	if err != nil {
		return err
	}
	srv, err := common.ReadReplay(file, c)
	if err != nil {
		var le *serve.LogError
		if errors.As(err, &le) {
			return UsageError{err}
		}
		return usagef("--replay: cannot read %s: %v", file, errors.Unwrap(err))
	}
	if !a.IsTerminal() {
		return usagef("the replay is a full-screen terminal program and stdout is not a terminal.\n" +
			"Run it in a terminal; `errorlab check FILE` reads the same log in scripts")
	}
	return a.runTUI(ui.Options{Catalog: c, Serve: &ui.ServeStart{Server: srv}})
}

// open starts the TUI at a scenario or in a quiz session.
func (a *app) open(q *ui.QuizStart, id string) error {
	if !a.IsTerminal() {
		if q != nil {
			return usagef("the quiz is a full-screen terminal program and stdout is not a terminal.\n" +
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
		opts.NoticeDetail = fmt.Sprintf("Progress is not being saved this session: %v\nUse --state-dir to pick a writable place.", err)
	default:
		opts.Progress = store
		opts.NoticeDetail = store.Notice
		switch {
		case store.Salvage != "":
			opts.Notice = fmt.Sprintf("⚠ Progress file not read whole (it %s): what could be read was carried over; the original is kept as %s; details when you quit",
				store.Salvage, filepath.Base(store.KeptAs))
			fmt.Fprintln(a.Stderr, "errorlab:", store.Notice)
		case store.Notice != "":
			opts.Notice = "⚠ Progress file unreadable, kept aside as " + filepath.Base(store.KeptAs) + "; details when you quit"
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
