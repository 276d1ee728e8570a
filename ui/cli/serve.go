package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/serve"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/common"
)

// serveFlags are `errorlab serve`'s flags.
type serveFlags struct {
	http, scenario, script, style, spec, log, report, reportFormat string
	allowRemote, watch                                             bool
}

// serveCmd is `errorlab serve`: the lab's mock MCP server for real
// clients, over stdio (default) or Streamable HTTP, with an exchange log
// and a report card of how each client recovered.
func (a *app) serveCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--http ADDR] [--scenario ID | --script FILE] [--style S] [--spec REV] [--log FILE] [--report FILE] [--watch]",
		Short: "Serve the mock MCP server to a real client and grade how it recovers",
		Long: "Serves the lab's mock MCP server (the support back office: get_customer, customer_lookup,\n" +
			"lookup_order, process_refund, escalate_to_human, search_support_tickets) to any MCP client.\n" +
			"Over stdio by default: stdout carries only JSON-RPC, messages go to stderr. --http 127.0.0.1:8765\n" +
			"serves Streamable HTTP at /mcp instead (loopback only unless --allow-remote).\n\n" +
			"Which calls fail: --scenario ID fails them the way that lab scenario does; --script FILE gives\n" +
			"a YAML list of failures call by call; otherwise each tool takes a failure_mode argument\n" +
			"(timeout, rate_limit, transient, validation, business, permission, empty, internal, go_error,\n" +
			"crash) and its description says what each mode teaches.\n\n" +
			"For each failure served, the client's next call shows what it did (resent the same call, and\n" +
			"after how long; changed the arguments; called another tool; escalated; stopped), and the\n" +
			"lesson rules score that move. --report FILE writes every client's report card when the server\n" +
			"stops (Markdown, or JSON for a .json file); --log FILE writes every exchange as a JSON line\n" +
			"(`errorlab check` reads it; `errorlab lab --replay FILE` replays it with the report cards).\n" +
			"--watch shows it all live in the terminal (with --http).\n" +
			"ctrl+c (or SIGTERM) stops the server.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.serve(f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.http, "http", "", "serve Streamable HTTP at http://`ADDR`/mcp instead of stdio, e.g. 127.0.0.1:8765")
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "with --http, allow an address other machines can reach (prints a warning; Hosts naming that address are served)")
	fl.StringVar(&f.scenario, "scenario", "", "fail calls the way the lab scenario `ID` does (errorlab scenarios list shows them)")
	fl.StringVar(&f.script, "script", "", "a YAML `FILE` of failures call by call (steps: - tool: lookup_order / failure: timeout)")
	fl.StringVar(&f.style, "style", "good", "how failures are written: good, bad (the scenario's main bad style; generic without one) or a style name")
	fl.StringVar(&f.spec, "spec", "", "newest spec `REV` offered: 2025-06-18, 2025-11-25 or 2026-07-28 (default: every one; clients choose)")
	fl.StringVar(&f.log, "log", "", "write every exchange to `FILE` as JSON lines")
	fl.StringVar(&f.report, "report", "", "write the clients' report cards to `FILE` when the server stops")
	fl.StringVar(&f.reportFormat, "report-format", "", "md or json (default: json for a .json file, else md)")
	fl.BoolVar(&f.watch, "watch", false, "with --http, watch the exchanges and report cards live in the terminal")
	return cmd
}

// serve checks the flags, builds the server and runs it until the client
// goes (stdio), the person quits (--watch) or a signal arrives.
func (a *app) serve(f serveFlags) error {
	cfg, err := a.serveConfig(f)
	if err != nil {
		return err
	}
	format, err := reportFormat(f)
	if err != nil {
		return err
	}
	if f.log != "" {
		lf, err := os.OpenFile(f.log, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("--log: %v", err)
		}
		defer lf.Close()
		cfg.ExchangeLog = lf
	}
	if f.report != "" {
		// Fail now, not after an afternoon of serving.
		rf, err := os.OpenFile(f.report, os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("--report: %v", err)
		}
		rf.Close()
	}
	cfg.Diagnostics = a.Stderr
	if f.watch {
		// The terminal belongs to the watch screen: a line on stderr would
		// land in the middle of it.
		cfg.Diagnostics = io.Discard
	}
	s := serve.New(cfg)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if f.http == "" {
		fmt.Fprintf(a.Stderr, "errorlab serve: the mock MCP server on stdio (%s; style %s; %s). stdout carries only JSON-RPC; ctrl+c stops.\n", s.Describe(), cfg.Style, offered(s))
		err = s.ServeStdio(ctx, a.stdin(), a.Stdout)
	} else {
		err = a.serveHTTP(ctx, s, f)
	}
	report := s.Finish()
	for _, c := range report.Sessions {
		fmt.Fprintf(a.Stderr, "errorlab serve: %s (session %s): %s\n", orUnnamed(c.Client), c.Session, c.Summary())
	}
	if f.report != "" {
		if werr := writeReport(f.report, format, report); werr != nil {
			return werr
		}
		fmt.Fprintf(a.Stderr, "errorlab serve: report cards written to %s\n", f.report)
	}
	return err
}

func (a *app) stdin() io.Reader {
	if a.Stdin != nil {
		return a.Stdin
	}
	return os.Stdin
}

// serveHTTP listens and serves until ctx ends, or with --watch until the
// person leaves the watch screen.
func (a *app) serveHTTP(ctx context.Context, s *serve.Server, f serveFlags) error {
	ln, err := serve.Listen(f.http, f.allowRemote)
	if err != nil {
		return UsageError{err}
	}
	if f.allowRemote {
		fmt.Fprintln(a.Stderr, remoteNotice(ln.Addr().String()))
	}
	url := "http://" + ln.Addr().String() + serve.Path
	fmt.Fprintf(a.Stderr, "errorlab serve: serving MCP (Streamable HTTP) at %s (%s; style %s; %s). ctrl+c stops.\n", url, s.Describe(), s.Config().Style, offered(s))
	if !f.watch {
		return s.ServeHTTP(ctx, ln, f.allowRemote)
	}
	ctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- s.ServeHTTP(ctx, ln, f.allowRemote) }()
	tuiErr := a.runTUI(ui.Options{Serve: &ui.ServeStart{Server: s, Stopped: ctx.Done()}, NoSignalHandler: true})
	if ctx.Err() != nil || errors.Is(tuiErr, tea.ErrInterrupted) {
		tuiErr = nil // a signal stopped the server: the program was interrupted on purpose
	}
	cancel()
	if err := <-served; err != nil {
		return err
	}
	return tuiErr
}

// serveConfig turns the flags into the server's configuration.
func (a *app) serveConfig(f serveFlags) (serve.Config, error) {
	var cfg serve.Config
	switch {
	case f.scenario != "" && f.script != "":
		return cfg, usagef("--scenario and --script both choose the failures: give one")
	case f.watch && f.http == "":
		return cfg, usagef("--watch needs --http ADDR: over stdio the terminal belongs to the client (try --http 127.0.0.1:8765 --watch)")
	case f.allowRemote && f.http == "":
		return cfg, usagef("--allow-remote goes with --http ADDR")
	case f.watch && !a.IsTerminal():
		return cfg, usagef("--watch draws a full-screen view and stdout is not a terminal; leave out --watch, or use --report")
	case f.reportFormat != "" && f.report == "":
		return cfg, usagef("--report-format %s goes with --report FILE: it says how the report cards are written, and without --report none are", f.reportFormat)
	case f.report != "" && f.log != "" && samePath(f.report, f.log):
		return cfg, usagef("--report and --log both name %s: the report cards would overwrite the exchange log; give two files (e.g. --log exchanges.jsonl --report card.md)", f.report)
	}
	if f.spec != "" {
		rev, err := rules.ParseRevision(f.spec)
		if err != nil {
			return cfg, UsageError{err}
		}
		cfg.Spec = rev
	}
	cfg.Style = mockserver.StyleGood
	switch {
	case f.scenario != "":
		c, err := a.catalog()
		if err != nil {
			return cfg, err
		}
		sc, found := c.Get(f.scenario)
		if !found {
			return cfg, unknownScenario(c, f.scenario)
		}
		if cfg.Style, err = pickStyle(sc, f.style); err != nil {
			return cfg, err
		}
		if sc.Failure.Kind != "" && sc.Failure.Kind != mockserver.FaultNone && sc.Call.Tool != "" {
			cfg.Faults = map[string]mockserver.Fault{sc.Call.Tool: sc.Failure}
		}
		cfg.Scenario = common.ServeScenario(sc)
		if sc.Call.Raw != "" {
			fmt.Fprintf(a.Stderr, "errorlab serve: scenario %s sends hand-written bytes no MCP client sends; pipe them in yourself: printf '%%s\\n' '%s' | errorlab serve --scenario %s\n", sc.ID, strings.TrimSpace(sc.Call.Raw), sc.ID)
		} else {
			fmt.Fprintf(a.Stderr, "errorlab serve: scenario %s: ask your client to call %s with %s\n", sc.ID, sc.Call.Tool, compactJSON(sc.Call.Arguments))
		}
		return cfg, nil
	case f.script != "":
		sc, err := scenarios.LoadScript(f.script)
		if err != nil {
			var le *scenarios.LoadError
			if errors.As(err, &le) {
				return cfg, usagef("the script has problems, so nothing was served:\n%v", err)
			}
			return cfg, usagef("--script: %v", err)
		}
		cfg.Sequence, cfg.Script = sc.Sequence(), filepath.Base(sc.File)+" ("+sc.Describe()+")"
	default:
		cfg.FailureModes = true
	}
	switch f.style {
	case "", "good":
	case "bad":
		cfg.Style = mockserver.StyleGeneric
	default:
		st, err := mockserver.ParseStyle(f.style)
		if err != nil {
			return cfg, UsageError{fmt.Errorf("%v (or bad)", err)}
		}
		cfg.Style = st
	}
	return cfg, nil
}

// samePath reports whether two flag values name one file: the same path
// once cleaned and made absolute, or (when both exist) the same file.
func samePath(a, b string) bool {
	if x, err := filepath.Abs(a); err == nil {
		if y, err := filepath.Abs(b); err == nil && x == y {
			return true
		}
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// reportFormat is md or json: --report-format, else by the file's extension.
func reportFormat(f serveFlags) (string, error) {
	switch strings.ToLower(f.reportFormat) {
	case "md", "markdown":
		return "md", nil
	case "json":
		return "json", nil
	case "":
		if strings.EqualFold(filepath.Ext(f.report), ".json") {
			return "json", nil
		}
		return "md", nil
	}
	return "", usagef("--report-format %q: use md or json", f.reportFormat)
}

func writeReport(path, format string, r serve.Report) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--report: %v", err)
	}
	if format == "json" {
		err = r.WriteJSON(out)
	} else {
		err = r.WriteMarkdown(out)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--report: %v", err)
	}
	return nil
}

func offered(s *serve.Server) string {
	if spec := s.Config().Spec; spec != "" {
		return "revisions up to " + string(spec)
	}
	return "every revision, the client chooses"
}

func orUnnamed(client string) string {
	if client == "" {
		return "an unnamed client"
	}
	return client
}

// compactJSON is v as one line of JSON, with <, > and & as they are.
func compactJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// remoteNotice is what --allow-remote prints for a server listening on
// addr: a plain note that it changes nothing on a loopback address, else
// a warning of what it means (anyone on the network may call every tool;
// which Host headers are served: see serve.HostPolicy).
func remoteNotice(addr string) string {
	if serve.IsLoopback(addr) {
		return fmt.Sprintf("errorlab serve: note: --allow-remote changes nothing here: %s is a loopback address, which only this machine can reach. To serve other machines, listen on an address they can reach (e.g. --http 0.0.0.0:8765 --allow-remote).", addr)
	}
	return fmt.Sprintf("errorlab serve: WARNING: listening on %s, which other machines can reach: anyone on your network who can connect to that address can call this server's tools, with no password or key. Requests are served when their Host header is %s; any other Host gets 403 (against DNS rebinding). Stop it when you are done, or serve on 127.0.0.1 instead.", addr, serve.NewHostPolicy(addr, true, nil).Describe())
}
