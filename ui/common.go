package ui

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
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
	// Bank is the question bank for the quiz; nil is the built-in one.
	Bank *quiz.Bank

	Progress  Progress
	ExportDir string
	Clipboard io.Writer

	Width, Height int

	status Status
	// lastNotice is the progress store's notice shown last (or known at
	// start), so a new one shows once.
	lastNotice string
}

// recordScenario records one answer on a lab scenario, right (best or
// acceptable) or not; the store decides the mark (✓ when the first
// answer ever was right, ◑ when right only after a miss). The error is
// the Progress store's.
func (c *Common) recordScenario(id string, a rules.Action, g rules.Grade) error {
	return c.Progress.RecordScenario(id, string(a), string(g), g.Correct())
}

// mark is how the learner stands on a scenario (✓, ◑ or nothing).
func (c *Common) mark(id string) quiz.Mark {
	if c.Progress == nil {
		return quiz.MarkNone
	}
	return c.Progress.ScenarioMark(id)
}

// markCounts counts the catalogue's scenarios marked ✓ and ◑.
func (c *Common) markCounts() (first, afterMiss int) {
	for _, s := range c.Catalog.Scenarios {
		switch c.mark(s.ID) {
		case quiz.MarkFirstTime:
			first++
		case quiz.MarkAfterMiss:
			afterMiss++
		}
	}
	return first, afterMiss
}

// markText is "✓ 5 · ◑ 2 of 27".
func (c *Common) markText() string {
	first, after := c.markCounts()
	return fmt.Sprintf("✓ %d · ◑ %d of %d", first, after, len(c.Catalog.Scenarios))
}

// afterWrite runs after every progress write (a lab answer, a quiz item,
// an exam): a new notice from the store (the progress file was found
// spoiled and kept aside while running) goes to the status line, ahead
// of what the status said.
func (c *Common) afterWrite() {
	if c.Progress == nil {
		return
	}
	n := strings.TrimSpace(strings.TrimPrefix(c.Progress.CurrentNotice(), "⚠"))
	if n == "" || n == c.lastNotice {
		return
	}
	c.lastNotice = n
	n = shortNotice(n)
	if c.status.Text != "" {
		n += " · " + c.status.Text
	}
	c.SetStatus(StatusWarn, "%s", n)
}

// keptAside matches the store's notice about a spoiled progress file.
var keptAside = regexp.MustCompile(`^Your progress file could not be read \((.*)\)\. It was kept as (\S+) and a fresh one started\.$`)

// shortNotice fits the store's notice to a status line: what happened
// and where the old file is first, the reason last.
func shortNotice(n string) string {
	if m := keptAside.FindStringSubmatch(n); m != nil {
		return fmt.Sprintf("progress file unreadable: a fresh one started; the old one is kept as %s (%s)", m[2], m[1])
	}
	return n
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

// quitGuard is a screen that asks before q quits (a running exam would
// be lost). GuardQuit returns true when it has started asking.
type quitGuard interface {
	GuardQuit() bool
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

// styleLabel is a response style's label ("error as success") for its id
// ("error_as_success"); anything else comes back as it is.
func styleLabel(id string) string {
	if s, err := mockserver.ParseStyle(id); err == nil && s.Label() != "" {
		return s.Label()
	}
	return id
}

// styleIDs matches the style ids that are not plain words
// (error_as_success, raw_exception, ...) in prose.
var styleIDs = sync.OnceValue(func() *regexp.Regexp {
	var ids []string
	for _, s := range mockserver.Styles {
		if strings.Contains(string(s), "_") {
			ids = append(ids, regexp.QuoteMeta(string(s)))
		}
	}
	return regexp.MustCompile(`\b(` + strings.Join(ids, "|") + `)\b`)
})

// styleWords writes style ids in prose as their labels: "In the
// error_as_success style" reads "In the error as success style".
func styleWords(text string) string {
	return styleIDs().ReplaceAllStringFunc(text, styleLabel)
}

// Verdict words an explanation may open with. Beside a label that
// already gives the verdict ("✓ correct:", "✗ Not the best move:") they
// only repeat it.
var (
	rightWords      = []string{"Right", "Correct", "Yes"}
	wrongWords      = []string{"Wrong", "Not quite", "Incorrect", "Not this one", "No"}
	bestWords       = append([]string{"Best"}, rightWords...)
	acceptableWords = append([]string{"Acceptable"}, rightWords...)
)

// stripVerdict drops one of words from the start of text when it stands
// alone as a sentence or a lead-in ("Right. The…", "Acceptable: the…",
// "Not quite! …"), so "✓ correct: Right. The…" reads "✓ correct: The…".
// A word that runs on into the sentence ("Right, and…", "Wrong for this
// SDK.") stays. After a colon the next word is capitalised when it is a
// plain lower-case word (never an identifier such as isRetryable). Text
// that would be left empty comes back unchanged.
func stripVerdict(text string, words ...string) string {
	t := strings.TrimSpace(text)
	for _, w := range words {
		if len(t) <= len(w) || !strings.EqualFold(t[:len(w)], w) {
			continue
		}
		p := t[len(w)]
		if p != '.' && p != ':' && p != '!' {
			continue
		}
		rest := t[len(w)+1:]
		if rest != "" && rest[0] != ' ' && rest[0] != '\n' {
			continue // "No.5", "Right:now"
		}
		rest = strings.TrimSpace(rest)
		if rest == "" {
			return text
		}
		if p == ':' {
			word, _, _ := strings.Cut(rest, " ")
			if strings.Trim(word, "abcdefghijklmnopqrstuvwxyz,;.") == "" && word[0] >= 'a' && word[0] <= 'z' {
				rest = strings.ToUpper(rest[:1]) + rest[1:]
			}
		}
		return rest
	}
	return text
}
