package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/check"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/findings"
	"github.com/errorlab/errorlab/ui/styles"
)

// checkFlags are the flags of `errorlab check`.
type checkFlags struct {
	server, url, tool, args string
	probe, allowDestructive bool
	listRules               bool
	spec, format, failOn    string
	timeout                 time.Duration
}

// checkFormats are the --format values.
var checkFormats = []string{"text", "json", "junit", "sarif"}

// checkCmd is `errorlab check`: grade MCP tool responses against the
// lesson rules, from files or stdin, or from a live server.
func (a *app) checkCmd() *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check [FILE ...] | --server 'CMD ARGS' | --url URL",
		Short: "Grade any MCP server's error responses against the lesson rules",
		Long: "Reads tool responses and reports, rule by rule, where they break the lesson rules, with the\n" +
			"fix for each. FILE (or stdin, or -) holds a JSON-RPC response, an object {request, response,\n" +
			"tools?, spec?}, a JSON array of those, or JSON lines of those (the log of errorlab serve --log).\n" +
			"Live: --server 'CMD ARGS' starts a stdio server, --url reaches a Streamable HTTP one; then\n" +
			"--tool NAME --args JSON makes one call, or --probe tries every tool (an unknown tool, required\n" +
			"arguments missing, wrong types, values out of range, the --args examples). Tools whose\n" +
			"annotations say destructiveHint: true are never called unless --allow-destructive.\n" +
			"Exit codes: 0 no error finding, 1 an error finding (or a warning with --fail-on warn),\n" +
			"2 bad input or usage. --rules lists every check.",
		RunE: func(cmd *cobra.Command, args []string) error { return a.check(cmd, f, args) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.server, "server", "", "a stdio MCP server to check: its command line, e.g. 'npx -y @modelcontextprotocol/server-everything'")
	fl.StringVar(&f.url, "url", "", "a Streamable HTTP MCP server to check, e.g. http://127.0.0.1:8765/mcp")
	fl.StringVar(&f.tool, "tool", "", "the tool to call (with --probe: the only tool to probe)")
	fl.StringVar(&f.args, "args", "", "JSON: the tool's arguments; with --probe, examples to call too, by tool name: '{\"NAME\": {…}}'")
	fl.BoolVar(&f.probe, "probe", false, "call every tool in the ways that show how it fails")
	fl.BoolVar(&f.allowDestructive, "allow-destructive", false, "let --probe call tools whose annotations say destructiveHint: true")
	fl.BoolVar(&f.listRules, "rules", false, "list every check: id, severity, LESSON-RULES section, what it finds")
	fl.StringVar(&f.spec, "spec", string(rules.DefaultRevision), "the spec revision to grade under: 2025-06-18, 2025-11-25 or 2026-07-28")
	fl.StringVar(&f.format, "format", "text", "output: text, json, junit or sarif")
	fl.StringVar(&f.failOn, "fail-on", "error", "the lowest severity that fails (exit 1): error or warn")
	fl.DurationVar(&f.timeout, "timeout", check.DefaultCallTimeout, "how long to wait for each answer of a live server")
	return cmd
}

// findingsError is a run whose findings fail it: exit code 1.
type findingsError struct{ failing, total int }

func (e findingsError) Error() string {
	verb := "fail"
	if e.failing == 1 {
		verb = "fails"
	}
	return fmt.Sprintf("%d of %s %s the check", e.failing, common.Plural(e.total, "response"), verb)
}

func (a *app) check(cmd *cobra.Command, f checkFlags, files []string) error {
	spec, err := rules.ParseRevision(f.spec)
	if err != nil {
		return UsageError{err}
	}
	if !slices.Contains(checkFormats, f.format) {
		return usagef("unknown --format %q: use one of %s", f.format, strings.Join(checkFormats, ", "))
	}
	failOn := grade.SevError
	switch f.failOn {
	case "error":
	case "warn", "warning":
		failOn = grade.SevWarning
	default:
		return usagef("unknown --fail-on %q: use error or warn", f.failOn)
	}
	if f.timeout <= 0 {
		return usagef("--timeout %s: give how long to wait for each answer, more than zero, e.g. --timeout 30s", f.timeout)
	}
	if f.listRules {
		if len(files) > 0 {
			return usagef("--rules lists the checks and reads no file: run errorlab check %s without --rules to grade it", strings.Join(files, " "))
		}
		return a.printChecks(f.format)
	}
	live := f.server != "" || f.url != ""
	switch {
	case f.server != "" && f.url != "":
		return usagef("give --server or --url, not both")
	case live && len(files) > 0:
		return usagef("give files to read or a live server (--server, --url), not both")
	case live && !f.probe && f.tool == "":
		return usagef("say what to call: --tool NAME (with --args JSON) for one call, or --probe to try every tool")
	case !live && (f.probe || f.tool != "" || f.args != "" || f.allowDestructive):
		return usagef("--probe, --tool, --args and --allow-destructive need a live server: --server 'CMD ARGS' or --url URL")
	}
	run := check.Run{Version: Version(), FailOn: failOn}
	var results []check.Result
	if live {
		results, err = a.checkLive(cmd.Context(), f, spec, &run)
	} else {
		results, err = a.checkFiles(files, spec, cmd.Flags().Changed("spec"))
	}
	if err != nil {
		return err
	}
	if err := a.writeCheck(f.format, results, run); err != nil {
		return err
	}
	if check.Failed(results, failOn) {
		n := 0
		for _, r := range results {
			if check.Fails(r.Report, failOn) {
				n++
			}
		}
		return findingsError{failing: n, total: len(results)}
	}
	return nil
}

// checkFiles reads and grades files ("-" or none: stdin). specGiven
// says --spec was given: a record that names its own spec is graded
// under it, and stderr says so.
func (a *app) checkFiles(files []string, spec rules.Revision, specGiven bool) ([]check.Result, error) {
	if len(files) == 0 {
		if f, ok := a.Stdin.(*os.File); a.Stdin == nil || ok && term.IsTerminal(f.Fd()) {
			return nil, usagef("nothing to check: give a FILE of responses, pipe them to stdin, or check a live server with --server 'CMD ARGS' or --url URL (see errorlab check --help)")
		}
		files = []string{"-"}
	}
	var results []check.Result
	for _, name := range files {
		var r io.Reader
		if name == "-" {
			r = a.Stdin
			if r == nil {
				return nil, usagef("stdin is not available")
			}
		} else {
			if st, err := os.Stat(name); err == nil && st.IsDir() {
				return nil, usagef("%s is a directory: give the files in it, e.g. errorlab check %s", name, filepath.Join(name, "*.json"))
			}
			fh, err := os.Open(name)
			if err != nil {
				return nil, usagef("cannot read %s: %v", name, errors.Unwrap(err))
			}
			defer fh.Close()
			r = fh
		}
		items, err := check.Read(r, name, spec)
		var ie *check.InputError
		if errors.As(err, &ie) {
			return nil, UsageError{err}
		} else if err != nil {
			return nil, usagef("cannot read %s: %v", name, err)
		}
		if specGiven {
			a.noteOwnSpecs(items, spec)
		}
		results = append(results, check.GradeAll(items)...)
	}
	return results, nil
}

// noteOwnSpecs says on stderr which records name a revision other than
// --spec: theirs is the one they were made under, and it is used.
func (a *app) noteOwnSpecs(items []check.Item, spec rules.Revision) {
	var first *check.Item
	n := 0
	for i := range items {
		if items[i].Spec != spec {
			if first == nil {
				first = &items[i]
			}
			n++
		}
	}
	if first == nil {
		return
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more records)", n-1)
	}
	fmt.Fprintf(a.Stderr, "errorlab check: %s names spec %s, so it is graded under that, not --spec %s%s\n", first.Source, first.Spec, spec, more)
}

// checkLive probes a live server, drawing a progress bar on stderr when
// it is a terminal.
func (a *app) checkLive(ctx context.Context, f checkFlags, spec rules.Revision, run *check.Run) ([]check.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	t := check.Target{Command: f.server, URL: f.url}
	run.Target = t.Label()
	opts := check.Options{Spec: spec, Probe: f.probe, Tool: f.tool, Args: json.RawMessage(f.args),
		AllowDestructive: f.allowDestructive, CallTimeout: f.timeout}
	if f.args != "" && !json.Valid([]byte(f.args)) {
		return nil, usagef("--args is not valid JSON: %s", f.args)
	}
	endBar := func() {}
	if bar := a.progressBar(); bar != nil {
		opts.Progress = bar
		endBar = func() { fmt.Fprint(a.Stderr, "\r\x1b[K") }
	}
	out, err := check.Live(ctx, t, opts)
	endBar() // the bar's line ends before anything else is said
	var ae *check.ArgsError
	if errors.As(err, &ae) {
		if ae.Name != "" {
			return nil, usagef("%s %q: the server has no tool of that name (it lists %s); closest: %s", ae.Flag, ae.Name,
				common.Plural(len(ae.Known), "tool"), strings.Join(scenarios.ClosestIDs(ae.Name, ae.Known, 3), ", "))
		}
		return nil, UsageError{ae}
	}
	if err != nil {
		return nil, UsageError{fmt.Errorf("cannot check %s: %w", t.Label(), err)}
	}
	if out.SpecNote != "" {
		fmt.Fprintf(a.Stderr, "errorlab check: ⚠ %s\n", out.SpecNote)
	}
	for _, s := range out.Skipped {
		fmt.Fprintf(a.Stderr, "errorlab check: skipped %s\n", s)
	}
	for _, s := range out.Notes {
		fmt.Fprintf(a.Stderr, "errorlab check: note: %s\n", s)
	}
	if out.Stopped != "" {
		fmt.Fprintf(a.Stderr, "errorlab check: ⚠ %s\n", out.Stopped)
	}
	return out.Results, nil
}

// progressBar returns a Progress callback drawing a bubbles progress bar
// on stderr, or nil when stderr is not a terminal.
func (a *app) progressBar() func(done, total int, what string) {
	fh, ok := a.Stderr.(*os.File)
	if !ok || !term.IsTerminal(fh.Fd()) {
		return nil
	}
	width := 100
	if w, _, err := term.GetSize(fh.Fd()); err == nil && w > 0 {
		width = w
	}
	bar := progress.New(progress.WithDefaultGradient(), progress.WithWidth(min(30, width/3)))
	return func(done, total int, what string) {
		pct := 1.0
		if total > 0 {
			pct = float64(done) / float64(total)
		}
		line := fmt.Sprintf("%s %d/%d %s", bar.ViewAs(pct), done, total, what)
		fmt.Fprint(a.Stderr, "\r\x1b[K"+ansi.Truncate(line, width-1, "…"))
	}
}

// writeCheck prints the results in the chosen format.
func (a *app) writeCheck(format string, results []check.Result, run check.Run) error {
	switch format {
	case "json":
		return check.WriteJSON(a.Stdout, results, run)
	case "junit":
		return check.WriteJUnit(a.Stdout, results, run)
	case "sarif":
		return check.WriteSARIF(a.Stdout, results, run)
	}
	st, w := a.textStyles()
	out := bufio.NewWriter(a.Stdout)
	findings.EachLine(st, results, w, func(l string) {
		_, _ = out.WriteString(l)
		_ = out.WriteByte('\n')
	})
	return out.Flush()
}

// textStyles are the styles for text on stdout: colour only on a terminal
// and without NO_COLOR (lipgloss's renderer decides), wrapped to the
// terminal's width (not wrapped in a pipe).
func (a *app) textStyles() (*styles.Styles, int) {
	r := lipgloss.NewRenderer(a.Stdout)
	theme, _ := a.resolveTheme()
	w := 0
	if fh, ok := a.Stdout.(*os.File); ok && term.IsTerminal(fh.Fd()) {
		if tw, _, err := term.GetSize(fh.Fd()); err == nil {
			w = tw
		}
	}
	return styles.New(r, theme), w
}

// printChecks is `errorlab check --rules`: a table, JSON, or a SARIF log
// whose driver lists every check as a rule (and no result).
func (a *app) printChecks(format string) error {
	checks := grade.Checks()
	switch format {
	case "json":
		return writeJSON(a.Stdout, checks)
	case "sarif":
		return check.WriteSARIF(a.Stdout, nil, check.Run{Version: Version()})
	case "junit":
		return usagef("--rules lists the checks as text, json or sarif; junit holds test results, not rules")
	}
	tw := tabwriter.NewWriter(a.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSEVERITY\tSECTION\tFINDS")
	for _, c := range checks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.ID, c.Severity, rules.Lookup(c.Rule).Ref(), c.Title)
	}
	return tw.Flush()
}
