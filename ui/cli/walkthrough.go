package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/ui"
)

// WalkthroughEntry is one element of `errorlab walkthrough --json`.
type WalkthroughEntry struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Summary string `json:"summary"`
	// Minutes is the planned length.
	Minutes int `json:"minutes"`
	Steps   int `json:"steps"`
	// Topics are topic ids or LESSON-RULES sections ("§4").
	Topics []string `json:"topics"`
}

// walkthroughCmd is `errorlab walkthrough [NAME]`: the list, the
// presenting screen (the audience view, or --presenter) and a handout.
func (a *app) walkthroughCmd() *cobra.Command {
	var asJSON, presenter bool
	var export, output string
	cmd := &cobra.Command{
		Use:   "walkthrough [NAME]",
		Short: "List the classroom walkthroughs, present one, or write one as a handout",
		Long: "With no NAME, lists the classroom walkthroughs: a teacher presents one to a room step by\n" +
			"step, with every call made live on the mock server. `errorlab walkthrough NAME` presents it full\n" +
			"screen (the room's view); `errorlab walkthrough NAME --presenter`, in a second terminal, is the\n" +
			"teacher's view (notes, the next step, the timer), linked to the first through a local socket.\n" +
			"`errorlab walkthrough NAME --export md` writes the whole walkthrough as Markdown for the students\n" +
			"(the exact envelopes, the agent runs, the questions with their answers at the end). Walkthroughs\n" +
			"live in assets/walkthroughs; with --content DIR, DIR/walkthroughs/*.yaml adds or replaces them.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				if export != "" || output != "" {
					return usagef("--export and -o need a walkthrough NAME (see `errorlab walkthrough`)")
				}
				if presenter {
					return usagef("--presenter needs a walkthrough NAME: `errorlab walkthrough NAME --presenter` (`errorlab walkthrough` lists them)")
				}
				return a.listWalkthroughs(asJSON)
			}
			if asJSON {
				return usagef("--json lists the walkthroughs; leave out NAME, or use --export md for a handout")
			}
			if output != "" && export == "" {
				return usagef("-o names the file for --export; add --export md")
			}
			if export != "" && export != "md" {
				return usagef("unknown export format %q: use --export md (Markdown)", export)
			}
			set, c, b, err := a.walkthroughs()
			if err != nil {
				return err
			}
			w, ok := set.Get(args[0])
			if !ok {
				return usagef("no walkthrough %q. Closest ids: %s\n(`errorlab walkthrough` lists them all)", args[0], strings.Join(set.Closest(args[0], 3), ", "))
			}
			if export != "" {
				if presenter {
					return usagef("--presenter presents the walkthrough and --export writes it as a handout: use one of them")
				}
				return a.exportWalkthrough(w, c, b, output)
			}
			if !a.IsTerminal() {
				return usagef("presenting a walkthrough is a full-screen terminal program and stdout is not a terminal.\n"+
					"Run it in a terminal; `errorlab walkthrough %s --export md` writes it as a Markdown handout", w.ID)
			}
			return a.runTUI(ui.Options{Catalog: c, Bank: b, Walkthroughs: set, WalkthroughID: w.ID, Presenter: presenter})
		},
	}
	cmd.Flags().BoolVar(&presenter, "presenter", false, "open the presenter view (notes, next step, timer), linked to the audience view running in another terminal")
	cmd.Flags().BoolVar(&asJSON, "json", false, "list the walkthroughs as one JSON array")
	cmd.Flags().StringVar(&export, "export", "", "write the walkthrough in a format instead of presenting it: md (a Markdown handout)")
	cmd.Flags().StringVarP(&output, "output", "o", "", "with --export, the file to write (default: standard output)")
	return cmd
}

// walkthroughsCmd is `errorlab walkthroughs list|validate`.
func (a *app) walkthroughsCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "walkthroughs", Short: "List and validate classroom walkthroughs"}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the walkthroughs (the same as `errorlab walkthrough`)",
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return a.listWalkthroughs(asJSON) },
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print one JSON array")
	validate := &cobra.Command{
		Use:   "validate DIR",
		Short: "Check a directory of walkthrough files; problems print as file:line:col",
		Long: "Checks every walkthrough file in DIR (or in DIR/walkthroughs, the --content layout, when DIR\n" +
			"holds none of its own) against the scenarios and questions errorlab has (with --content and\n" +
			"--questions, yours too), and every expect claim against the engine. --content DIR reads\n" +
			"walkthroughs from DIR/walkthroughs only: a walkthrough at the root of a DIR not itself named\n" +
			"walkthroughs is reported.",
		Args: oneDir,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, b, err := a.catalogBank()
			if err != nil {
				return err
			}
			problems, n, err := walkthrough.ValidateDir(args[0], c, b)
			return a.validated(args[0], problems, n, err, "; nothing there would load", "walkthrough", "")
		},
	}
	cmd.AddCommand(list, validate)
	return cmd
}

// walkthroughs loads the built-in walkthroughs, overlaid with those of
// --content DIR/walkthroughs, and returns the catalogue and the bank they
// were checked against.
func (a *app) walkthroughs() (*walkthrough.Set, *scenarios.Catalog, *quiz.Bank, error) {
	c, b, err := a.catalogBank()
	if err != nil {
		return nil, nil, nil, err
	}
	set, err := walkthrough.Load(a.content, c, b)
	var le *scenarios.LoadError
	switch {
	case errors.As(err, &le):
		return nil, nil, nil, usagef("the walkthroughs in %s have problems, so none were loaded:\n%v\nFix these lines (or drop --content) and try again", a.content, err)
	case err != nil && a.content != "":
		return nil, nil, nil, usagef("--content %s: %v", a.content, err)
	}
	return set, c, b, err
}

func (a *app) listWalkthroughs(asJSON bool) error {
	set, _, _, err := a.walkthroughs()
	if err != nil {
		return err
	}
	entries := make([]WalkthroughEntry, 0, len(set.Walkthroughs))
	for _, w := range set.Walkthroughs {
		entries = append(entries, WalkthroughEntry{ID: w.ID, Title: strings.TrimSpace(w.Title), Summary: strings.Join(strings.Fields(w.Summary), " "),
			Minutes: w.Minutes, Steps: len(w.Steps), Topics: w.Topics})
	}
	return a.printList(asJSON, entries, "ID\tMINUTES\tSTEPS\tTOPICS\tTITLE", func(tw io.Writer) {
		for _, e := range entries {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", e.ID, e.Minutes, e.Steps, strings.Join(e.Topics, " "), e.Title)
		}
	})
}

// exportWalkthrough writes the handout to stdout, or to file: the whole
// handout is made first, so a failure leaves no half-written file.
func (a *app) exportWalkthrough(w *walkthrough.Walkthrough, c *scenarios.Catalog, b *quiz.Bank, file string) error {
	var buf bytes.Buffer
	if err := walkthrough.Handout(&buf, w, c, b); err != nil {
		return err
	}
	if file == "" || file == "-" {
		_, err := a.Stdout.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("cannot write the handout: %w", err)
	}
	fmt.Fprintf(a.Stderr, "wrote the handout of %s to %s\n", w.ID, file)
	return nil
}
