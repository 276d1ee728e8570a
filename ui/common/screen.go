package common

import (
	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/errorlab/errorlab/scenarios"
)

// Screen is one page of the app: a tea.Model with its own help and a size.
// Update must return the same screen (a pointer), so the root keeps it.
type Screen interface {
	tea.Model
	help.KeyMap
	// SetSize gives the screen its area in cells (may be any size >= 0).
	SetSize(width, height int)
	// Crumb names the screen in the header's breadcrumb.
	Crumb() string
}

// InputCapturer is a screen that is, right now, typing text: the root
// then passes every key but ctrl+c to it (q types a q).
type InputCapturer interface {
	Capturing() bool
}

// NoticeHost is a screen a learner lands on and reads at leisure (Home,
// the quiz menu): while HostsNotice is true the root shows the pinned
// notice (Common.PinNotice) in a box below it, and x dismisses it.
type NoticeHost interface {
	HostsNotice() bool
}

// BackHandler is a screen that uses esc itself before the root goes back
// (clearing a filter, leaving the diff view). It returns true when it did.
type BackHandler interface {
	Back() bool
}

// QuitGuard is a screen that asks before q quits (a running exam would
// be lost). GuardQuit returns true when it has started asking.
type QuitGuard interface {
	GuardQuit() bool
}

// FullScreener is a screen that, right now, takes the whole terminal:
// the root draws no header, status line or help bar around it (a
// walkthrough presented to a room draws its own footer). Mouse events
// then come with the terminal's own coordinates.
type FullScreener interface {
	FullScreen() bool
}

// StackKeyed is a screen the stack holds once at most (the quiz's
// Results, one exam's results): opening one whose StackKey is already on
// the stack goes back there, the new screen in the old one's place,
// instead of stacking a copy (a new user walked Results › Exam results ›
// Results › … one screen deeper each time, and esc took one step back).
// An empty key is not kept once.
type StackKeyed interface {
	StackKey() string
}

// Activator is a screen that refreshes when it comes to the top of the
// stack (the lab list re-reads progress).
type Activator interface {
	Activate() tea.Cmd
}

// Closer is a screen holding resources to release when it is left.
type Closer interface {
	Close()
}

// ClipSource is a screen with an envelope to copy (y).
type ClipSource interface {
	// ClipText returns what to copy and a label for the status line; ok is
	// false with a reason when there is nothing to copy.
	ClipText() (text, label string, ok bool, reason string)
}

// ExportSource is a screen with an exchange to write (w).
type ExportSource interface {
	// ExportRecord returns the record and the file's base name; ok is false
	// with a reason when there is nothing to write.
	ExportRecord() (rec ExportRecord, name string, ok bool, reason string)
}

// ExportRecord is the file `w` writes: one exchange with its context
// (scenarios.ExchangeRecord, the shape `scenarios show --json` prints).
type ExportRecord = scenarios.ExchangeRecord

// SideNote says which of two responses on screen y or w took, and how to
// take the other: "good response", "compare: bad left, good right; tab
// to choose".
type SideNote struct{ What, Note string }

// SideNoter is a screen whose y and w may take a side the learner is not
// looking at (the comparison, with the verdict focused).
type SideNoter interface {
	SideNote() SideNote
}

func SideOf(s Screen) SideNote {
	if n, ok := s.(SideNoter); ok {
		return n.SideNote()
	}
	return SideNote{}
}
