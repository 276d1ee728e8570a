package walkthrough

import (
	"testing"
	"time"

	"github.com/errorlab/errorlab/ui/common"
)

// What the external tests (package walkthrough_test, which drive the
// root App) need of the page's internals.

// Quiet makes the screens link to nothing, tick never, take a typed step
// number only on enter and never retry a link; TestMain calls it.
func Quiet() {
	linker = nil
	tickEvery, jumpPause, retryEvery = 0, 0, 0
}

// UseHooks sets the clock, the linker (nil: none) and the pause after a
// typed step number for one test; its cleanup restores them.
func UseHooks(tb testing.TB, now func() time.Time, l *Linker, pause time.Duration) {
	tb.Helper()
	oldNow, oldLinker, oldPause := timeNow, linker, jumpPause
	if now != nil {
		timeNow = now
	}
	linker, jumpPause = l, pause
	tb.Cleanup(func() { timeNow, linker, jumpPause = oldNow, oldLinker, oldPause })
}

// Linked reports whether a presenting screen is linked to another view.
func Linked(s common.Screen) bool {
	m, ok := s.(*Model)
	return ok && m.linkState == linkUp
}

// Blank is the presenting screen's blank ("", "black" or "white").
func Blank(s common.Screen) string {
	if m, ok := s.(*Model); ok {
		return m.blank
	}
	return ""
}

// UseRetry sets how often a view retries the link, for one test.
func UseRetry(tb testing.TB, every time.Duration) {
	tb.Helper()
	old := retryEvery
	retryEvery = every
	tb.Cleanup(func() { retryEvery = old })
}

// Started is when the presenting screen's timer started (zero: not yet).
func Started(s common.Screen) time.Time {
	if m, ok := s.(*Model); ok {
		return m.started
	}
	return time.Time{}
}
