package common

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/keymap"
	"github.com/errorlab/errorlab/ui/styles"
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
	Styles  *styles.Styles
	Keys    keymap.Global
	Nav     keymap.Nav
	Catalog *scenarios.Catalog
	// Bank is the question bank for the quiz; nil is the built-in one.
	Bank *quiz.Bank
	// Walkthroughs are the classroom walkthroughs (checked against Catalog
	// and Bank); nil loads the built-in ones when first needed.
	Walkthroughs *walkthrough.Set

	Progress  Progress
	ExportDir string
	Clipboard io.Writer
	// Room is the class this session belongs to (a student's SSH session
	// of `errorlab classroom`); nil outside a class.
	Room Room

	Width, Height int
	// Below is the breadcrumb of the screen esc goes back to ("Home"
	// from a page Home opened, "" on Home), so a help can name it. The
	// root sets it whenever the stack changes.
	Below string

	status Status
	// confined: a session of a class over SSH, which may touch nothing on
	// the host but its own folder (Confine, Allowed).
	confined bool
	// lastNotice is the progress store's notice shown last (or known at
	// start), so a new one shows once.
	lastNotice string
	// pinned is the notice Home and the quiz menu keep on screen until the
	// learner dismisses it (PinNotice); "" for none.
	pinned string
	// announce is set when a notice was pinned by a progress write
	// (AfterWrite), until the root has said so in the status line
	// (TakeAnnounce).
	announce bool
}

// PinNotice keeps text (a progress file kept aside: what was left out,
// where the original is) on Home and the quiz menu, below the screen,
// until the learner dismisses it with x (DismissNotice); elsewhere the
// root's status line says it waits there. A status line is gone at the
// next key; this stays until it is read. Lines are kept; a leading ⚠ is
// dropped (the box shows its own).
func (c *Common) PinNotice(text string) {
	c.pinned = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "⚠"))
}

// PinnedNotice is the notice PinNotice keeps, "" when none waits.
func (c *Common) PinnedNotice() string { return c.pinned }

// DismissNotice drops the pinned notice: the learner has read it.
func (c *Common) DismissNotice() { c.pinned = "" }

// RecordScenario records one answer on a lab scenario, right (best or
// acceptable) or not; the store decides the mark (✓ when the first
// answer ever was right, ◑ when right only after a miss). The error is
// the Progress store's. (In a class, the answer to a poll of the room
// goes to the room from the scenario screen, and reaches the progress
// here only at the reveal.)
func (c *Common) RecordScenario(id string, a rules.Action, g rules.Grade) error {
	return c.Progress.RecordScenario(id, string(a), string(g), g.Correct())
}

// RoomPoll is where the room's latest poll of key stands for this
// student; the zero Poll outside a class.
func (c *Common) RoomPoll(key string) Poll {
	if c.Room == nil {
		return Poll{}
	}
	return c.Room.Poll(key)
}

// Mark is how the learner stands on a scenario (✓, ◑ or nothing).
func (c *Common) Mark(id string) quiz.Mark {
	if c.Progress == nil {
		return quiz.MarkNone
	}
	return c.Progress.ScenarioMark(id)
}

// MarkCounts counts the catalogue's scenarios marked ✓ and ◑.
func (c *Common) MarkCounts() (first, afterMiss int) {
	for _, s := range c.Catalog.Scenarios {
		switch c.Mark(s.ID) {
		case quiz.MarkFirstTime:
			first++
		case quiz.MarkAfterMiss:
			afterMiss++
		}
	}
	return first, afterMiss
}

// MarkText is "✓ 5 · ◑ 2 of 27".
func (c *Common) MarkText() string {
	first, after := c.MarkCounts()
	return fmt.Sprintf("✓ %d · ◑ %d of %d", first, after, len(c.Catalog.Scenarios))
}

// AfterWrite runs after every progress write (a lab answer, a quiz item,
// an exam): a new notice from the store (the progress file was found
// spoiled and kept aside while running) is pinned, whole, for Home and
// the quiz menu until it is dismissed (PinNotice), and announced: the
// root puts a line saying what happened and where to read it ahead of
// what the status says (TakeAnnounce).
func (c *Common) AfterWrite() {
	if c.Progress == nil {
		return
	}
	n := noticeText(c.Progress)
	if n == "" || n == c.lastNotice {
		return
	}
	c.lastNotice = n
	c.PinNotice(n)
	c.announce = true
}

// TakeAnnounce reports whether a notice was pinned by a progress write
// since it was last asked, and forgets it.
func (c *Common) TakeAnnounce() bool {
	a := c.announce
	c.announce = false
	return a
}

// noticeText is the store's current notice without its ⚠.
func noticeText(p Progress) string {
	return strings.TrimSpace(strings.TrimPrefix(p.CurrentNotice(), "⚠"))
}

// NoticeHead is the pinned notice in a few words for the status line,
// and what its whole text shows, for "esc: the menu shows what was
// kept": "progress file partly unreadable", "what was kept".
func NoticeHead(n string) (head, shows string) {
	low := strings.ToLower(n)
	switch {
	case strings.HasPrefix(low, "your progress file could not be read:"):
		return "progress file unreadable, a fresh one started", "where the old one is"
	case strings.Contains(n, "\nLeft out:") || strings.Contains(n, "\nCut off:") || strings.HasPrefix(low, "your progress file could not be read whole"):
		return "progress file partly unreadable", "what was kept"
	case strings.Contains(n, "\nRepaired"):
		return "progress file repaired", "what was mended"
	case strings.HasPrefix(low, "progress is not being saved"):
		return "progress is not being saved", "why"
	}
	head, _, _ = strings.Cut(n, "\n")
	if i := strings.IndexAny(head, ".:;("); i > 0 {
		head = head[:i]
	}
	return strings.TrimSpace(head), "the whole notice"
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

// Progress is where the learner's progress goes: scenarios answered,
// questions and drills (Leitner boxes), exam history. *quiz.Store
// implements it (on disk, or in memory with quiz.Memory). Solved and
// ScenarioMark must be cheap: screens call them while drawing lists.
type Progress interface {
	Solved(id string) bool
	MarkSolved(id string) error
	// RecordScenario records one answer on a lab scenario; correct is
	// whether it was right (best or acceptable). The store decides the
	// mark: ✓ only when the very first answer ever was right.
	RecordScenario(id, action, grade string, correct bool) error
	RecordItem(id, topic string, correct bool, at time.Time) error
	RecordExam(e quiz.ExamRecord) error
	Load() (*quiz.Progress, error)
	// ScenarioMark is ✓ (right first time), ◑ (right after a miss) or
	// nothing, without disk I/O.
	ScenarioMark(id string) quiz.Mark
	// CurrentNotice is the latest notice for the learner (e.g. the progress
	// file was found spoiled and kept aside while running); "" for none.
	CurrentNotice() string
}

// NewMemoryProgress returns a Progress kept in memory, safe for concurrent
// use.
func NewMemoryProgress() Progress { return quiz.Memory() }

// New builds the Common of one session: styles from r, the default keys,
// the catalogue and the progress store. The store's notice at this moment
// counts as already shown (the caller reports it, or chose not to); only a
// later one reaches the status line, through AfterWrite.
func New(r *lipgloss.Renderer, cat *scenarios.Catalog, prog Progress) *Common {
	c := &Common{
		R:        r,
		Styles:   styles.DefaultStyles(r),
		Keys:     keymap.DefaultGlobal(),
		Nav:      keymap.DefaultNav(),
		Catalog:  cat,
		Progress: prog,
	}
	if prog != nil {
		c.lastNotice = noticeText(prog)
	}
	return c
}

// Status is the status line's current message (Text "" when empty).
func (c *Common) Status() Status { return c.status }

// PutStatus replaces the status line with s.
func (c *Common) PutStatus(s Status) { c.status = s }

// WalkthroughSet is the session's walkthroughs: Walkthroughs, or the
// built-in ones loaded against the catalogue and the bank the first time
// they are asked for (then kept). The error says why none loaded.
func (c *Common) WalkthroughSet() (*walkthrough.Set, error) {
	if c.Walkthroughs != nil {
		return c.Walkthroughs, nil
	}
	set, err := walkthrough.Default(c.Catalog, c.Bank)
	if err != nil {
		return nil, err
	}
	c.Walkthroughs = set
	return set, nil
}
