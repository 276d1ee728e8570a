// Command errorlab is a terminal training simulator for structured error
// responses in MCP tools. `errorlab` opens the lab; `errorlab scenarios`
// lists, shows and validates scenarios for scripts and instructors. The
// commands live in ui/cli; this file only wires them to the process.
//
// Exit codes: 0 success; 1 a failure while working (unreadable content,
// I/O); 2 a usage problem (unknown scenario id, bad flag value, no
// terminal for the TUI, invalid content given to validate).
package main

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"

	"github.com/errorlab/errorlab/ui"
	command "github.com/errorlab/errorlab/ui/cli"
)

// app is the process's side of the command line: where output goes, how
// to tell a terminal, and how to start the TUI. Tests replace each.
type app struct {
	stdin      io.Reader
	stdout     io.Writer
	stderr     io.Writer
	isTerminal func() bool
	runTUI     func(ui.Options) error
}

func main() {
	a := &app{
		stdin:      os.Stdin,
		stdout:     os.Stdout,
		stderr:     os.Stderr,
		isTerminal: func() bool { return isatty.IsTerminal(os.Stdout.Fd()) || isatty.IsCygwinTerminal(os.Stdout.Fd()) },
		runTUI:     ui.Run,
	}
	code := a.run(os.Args[1:])
	for _, f := range atExit {
		f()
	}
	os.Exit(code)
}

// atExit runs before the process exits (a test hook: profile_hook.go).
var atExit []func()

// run executes the command line and returns the exit code.
func (a *app) run(args []string) int {
	return command.Run(command.Env{Stdin: a.stdin, Stdout: a.stdout, Stderr: a.stderr, IsTerminal: a.isTerminal, RunTUI: a.runTUI}, args)
}
