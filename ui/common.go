package ui

import (
	"fmt"
	"io"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
)

// Minimum terminal size for the layout; below it the app shows a message.
const (
	MinWidth  = 60
	MinHeight = 20
)

// Common is handed to every screen: the renderer and the styles built from
// it, the global keys, the content and where side effects go. Width and
// Height are the whole terminal's, in cells.
type Common struct {
	R       *lipgloss.Renderer
	Styles  *Styles
	Keys    GlobalKeys
	Nav     NavKeys
	Catalog *scenarios.Catalog

	Progress  Progress
	ExportDir string
	Clipboard io.Writer

	Width, Height int

	status Status
	solved map[string]bool // cache of Progress.Solved, by scenario id
}

// recordScenario records one answer on a lab scenario; solved (a right
// first answer) also marks it ✓ in the cache. The error is the Progress
// store's.
func (c *Common) recordScenario(id string, a rules.Action, g rules.Grade, solved bool) error {
	if err := c.Progress.RecordScenario(id, string(a), string(g), solved); err != nil {
		return err
	}
	if solved {
		if c.solved == nil {
			c.solved = map[string]bool{}
		}
		c.solved[id] = true
	}
	return nil
}

// StatusKind says how a status line reads: each has its own symbol, so
// the line reads without colour.
type StatusKind int

const (
	StatusInfo StatusKind = iota
	StatusOK
	StatusWarn
	StatusError
)

// Symbol is the status's monochrome marker.
func (k StatusKind) Symbol() string {
	switch k {
	case StatusOK:
		return "✓"
	case StatusWarn:
		return "⚠"
	case StatusError:
		return "✗"
	}
	return "•"
}

// Status is the one-line message above the help bar.
type Status struct {
	Kind StatusKind
	Text string
}

// SetStatus replaces the status line.
func (c *Common) SetStatus(kind StatusKind, format string, args ...any) {
	c.status = Status{Kind: kind, Text: fmt.Sprintf(format, args...)}
}

// ClearStatus empties the status line.
func (c *Common) ClearStatus() { c.status = Status{} }

// StatusLine renders the status with its symbol, or "" when empty.
func (c *Common) StatusLine() string {
	if c.status.Text == "" {
		return ""
	}
	st := c.Styles.Info
	switch c.status.Kind {
	case StatusOK:
		st = c.Styles.OK
	case StatusWarn:
		st = c.Styles.Warn
	case StatusError:
		st = c.Styles.Bad
	}
	return st.Render(c.status.Kind.Symbol() + " " + c.status.Text)
}

// screen is one page of the app: a tea.Model with its own help and a size.
// Update must return the same screen (a pointer), so the root keeps it.
type screen interface {
	tea.Model
	help.KeyMap
	// SetSize gives the screen its area in cells (may be any size >= 0).
	SetSize(width, height int)
	// Crumb names the screen in the header's breadcrumb.
	Crumb() string
}

// inputCapturer is a screen that is, right now, typing text: the root
// then passes every key but ctrl+c to it (q types a q).
type inputCapturer interface {
	Capturing() bool
}

// backHandler is a screen that uses esc itself before the root goes back
// (clearing a filter, leaving the diff view). It returns true when it did.
type backHandler interface {
	Back() bool
}

// activator is a screen that refreshes when it comes to the top of the
// stack (the lab list re-reads progress).
type activator interface {
	Activate() tea.Cmd
}

// closer is a screen holding resources to release when it is left.
type closer interface {
	Close()
}

// clipSource is a screen with an envelope to copy (y).
type clipSource interface {
	// ClipText returns what to copy and a label for the status line; ok is
	// false with a reason when there is nothing to copy.
	ClipText() (text, label string, ok bool, reason string)
}

// exportSource is a screen with an exchange to write (w).
type exportSource interface {
	// ExportRecord returns the record and the file's base name; ok is false
	// with a reason when there is nothing to write.
	ExportRecord() (rec exportRecord, name string, ok bool, reason string)
}

// Navigation messages, sent by screens and handled by the root.
type (
	openLabMsg       struct{}
	openReferenceMsg struct{}
	openScenarioMsg  struct{ ID string }
	// replaceScenarioMsg swaps the current scenario screen for another
	// (n: next scenario), keeping the stack depth.
	replaceScenarioMsg struct{ ID string }
)

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// panicMsg reports a panic inside a command, which would otherwise end
// the program.
type panicMsg struct{ what string }

// safe wraps a command so that a panic in the engine becomes an error in
// the status line instead of killing the program.
func safe(what string, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = panicMsg{what: fmt.Sprintf("%s failed unexpectedly: %v", what, r)}
			}
		}()
		return cmd()
	}
}
