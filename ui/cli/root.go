// Package cli is errorlab's command line: one file per command, each a
// cobra command built on the shared [app] (soft-serve's cmd/soft keeps a
// package per command; one package with a file per command does the same
// job here without exporting the glue between them).
//
// [New] builds the root command and [Run] executes it and returns the
// process's exit code ([ExitOK], [ExitFailure] or [ExitUsage]).
package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/ui"
)

// Exit codes of errorlab.
const (
	// ExitOK: the command did what was asked.
	ExitOK = 0
	// ExitFailure: a failure while working (unreadable content, I/O).
	ExitFailure = 1
	// ExitUsage: a usage problem (unknown scenario id, bad flag value, no
	// terminal for the TUI, invalid content given to validate).
	ExitUsage = 2
)

// Env is what the command line talks to. main passes the process's own;
// tests pass buffers, a fixed answer to IsTerminal and a recorder for RunTUI.
type Env struct {
	// Stdout and Stderr receive the commands' output and errors.
	Stdout, Stderr io.Writer
	// Stdin is read by `errorlab check` when it is given no file, and
	// `errorlab serve` reads JSON-RPC from it over stdio; nil is none for
	// check and the process's standard input for serve.
	Stdin io.Reader
	// IsTerminal reports whether Stdout is a terminal; the TUI commands
	// refuse to start without one.
	IsTerminal func() bool
	// RunTUI starts the Bubble Tea program (ui.Run).
	RunTUI func(ui.Options) error
}

// UsageError marks an error whose exit code is [ExitUsage]: the person
// running errorlab asked for something it cannot do as asked.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e UsageError) Unwrap() error { return e.Err }

func usagef(format string, a ...any) error { return UsageError{fmt.Errorf(format, a...)} }

// app carries the environment and the global flags into the commands.
type app struct {
	Env
	content   string
	questions string
	stateDir  string
	theme     string
}

// Run executes errorlab with args (without the program name), printing an
// error to env.Stderr as "errorlab: ...", and returns the exit code.
func Run(env Env, args []string) int {
	root := New(env)
	root.SetArgs(args)
	return ExitCode(env.Stderr, root.Execute())
}

// ExitCode reports err from the root command's Execute on stderr and
// returns the exit code for it.
func ExitCode(stderr io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	fmt.Fprintln(stderr, "errorlab:", err)
	var ue UsageError
	if errors.As(err, &ue) || isFlagError(err) {
		return ExitUsage
	}
	return ExitFailure
}

// isFlagError recognises cobra's and pflag's own usage errors, which are
// plain errors.
func isFlagError(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown flag") || strings.HasPrefix(msg, "unknown command") ||
		strings.HasPrefix(msg, "unknown shorthand flag") || strings.Contains(msg, "flag needs an argument") ||
		strings.HasPrefix(msg, "invalid argument") || strings.HasPrefix(msg, "accepts ") || strings.HasPrefix(msg, "requires ")
}

// New builds errorlab's root command, with the persistent flags --content,
// --questions and --state-dir, --version, and every subcommand. Its output
// goes to env.Stdout and env.Stderr; its errors are returned, not printed.
func New(env Env) *cobra.Command {
	a := &app{Env: env}
	root := &cobra.Command{
		Use:   "errorlab",
		Short: "A terminal lab for MCP tool error responses",
		Long: "errorlab teaches how MCP tools should report failure: isError, protocol errors versus\n" +
			"tool execution errors, the four error categories and isRetryable, a valid empty result\n" +
			"versus an access failure. Run it with no arguments to open the lab.",
		Version:       Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.lab("")
		},
	}
	root.PersistentFlags().StringVar(&a.content, "content", "", "directory of extra or replacement scenario *.yaml files, with optional reference/ and walkthroughs/ folders (instructors)")
	root.PersistentFlags().StringVar(&a.questions, "questions", "", "directory of extra or replacement question *.yaml files (instructors)")
	root.PersistentFlags().StringVar(&a.theme, "theme", "", "colour theme: auto, dark, light, high-contrast or mono (default: $"+ThemeEnv+", then theme: in "+ConfigPath()+", then auto)")
	root.PersistentFlags().StringVar(&a.stateDir, "state-dir", "", "where progress is kept (default: $XDG_STATE_HOME/errorlab)")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		_, err := a.resolveTheme() // a bad theme is refused by every command
		return err
	}
	root.AddCommand(a.labCmd(), a.scenariosCmd(), a.agentCmd(), a.quizCmd(), a.questionsCmd(), a.reportCmd(), a.walkthroughCmd(), a.walkthroughsCmd())
	root.AddCommand(a.checkCmd())
	root.AddCommand(a.classroomCmd())
	root.AddCommand(a.serveCmd())
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	return root
}

// oneDir accepts exactly one argument, a directory, and says so otherwise.
func oneDir(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usagef("%s needs one directory of *.yaml files, e.g. `%s ./my-content`", cmd.CommandPath(), cmd.CommandPath())
	}
	return nil
}

// printList prints a list command's entries: v as one JSON array with
// --json, else a table aligned in columns, the header line first and then
// the lines rows writes.
func (a *app) printList(asJSON bool, v any, header string, rows func(w io.Writer)) error {
	if asJSON {
		return writeJSON(a.Stdout, v)
	}
	tw := tabwriter.NewWriter(a.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	rows(tw)
	return tw.Flush()
}

// writeJSON prints v indented by two spaces, with <, > and & left as they
// are, and a newline at the end.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
