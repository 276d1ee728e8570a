// Package uitest holds the helpers errorlab's UI tests share: catalogues,
// key presses, a synchronous Bubble Tea loop, and the scenario ids the tests
// name. Only tests import it.
package uitest

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/errorlab/errorlab/assets"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
)

// subsetCatalog loads only the named embedded scenarios, so goldens do not
// change when other scenarios are added to the catalogue.
func SubsetCatalog(tb testing.TB, ids ...string) *scenarios.Catalog {
	tb.Helper()
	mfs := fstest.MapFS{}
	for _, id := range ids {
		b, err := fs.ReadFile(assets.FS, "scenarios/"+id+".yaml")
		if err != nil {
			tb.Fatalf("scenario %s: %v", id, err)
		}
		mfs[id+".yaml"] = &fstest.MapFile{Data: b}
	}
	c, err := scenarios.LoadFS(mfs, "test")
	if err != nil {
		tb.Fatalf("load: %v", err)
	}
	return c
}

var fullCatalog = sync.OnceValues(scenarios.Default)

// catalog is the whole built-in catalogue, or the timeout scenario alone
// if the catalogue does not load (content being edited in parallel).
func Catalog(tb testing.TB) *scenarios.Catalog {
	c, err := fullCatalog()
	if err != nil {
		tb.Logf("built-in catalogue does not load, using a subset: %v", err)
		return SubsetCatalog(tb, "timeout-second-try")
	}
	return c
}

// Press turns a key name into a KeyMsg; any other text is runes that
// arrive together (one message, as over SSH or tmux send-keys).
func Press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEscape}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case " ":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// drive feeds messages to m, running every command synchronously and
// feeding its messages back, like the Bubble Tea loop. It reports whether
// a command asked to quit.
func Drive(m tea.Model, msgs ...tea.Msg) (tea.Model, bool) {
	quit := false
	for _, in := range msgs {
		// Settle each input (its commands and theirs) before the next,
		// like a user who waits for the screen to update.
		queue := []tea.Msg{in}
		for len(queue) > 0 {
			msg := queue[0]
			queue = queue[1:]
			var cmd tea.Cmd
			m, cmd = m.Update(msg)
			out, q := runCmd(cmd)
			quit = quit || q
			queue = append(queue, out...)
		}
	}
	return m, quit
}

// Start feeds first to m (a size, say), then runs m's Init command,
// batches too, and feeds what it brings back, as the Bubble Tea loop
// does when a program starts. It reports whether a command asked to
// quit.
func Start(m tea.Model, first ...tea.Msg) (tea.Model, bool) {
	m, quit := Drive(m, first...)
	out, q := runCmd(m.Init())
	m, q2 := Drive(m, out...)
	return m, quit || q || q2
}

func runCmd(cmd tea.Cmd) ([]tea.Msg, bool) {
	if cmd == nil {
		return nil, false
	}
	switch msg := cmd().(type) {
	case nil:
		return nil, false
	case tea.QuitMsg:
		return nil, true
	case tea.BatchMsg:
		var out []tea.Msg
		quit := false
		for _, c := range msg {
			o, q := runCmd(c)
			out, quit = append(out, o...), quit || q
		}
		return out, quit
	default:
		return []tea.Msg{msg}, false
	}
}

func LineWith(view, substr string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, substr) {
			return l
		}
	}
	return ""
}

var Size120 = tea.WindowSizeMsg{Width: 120, Height: 40}

// SyncBuffer is a bytes.Buffer safe for the copy command's goroutine.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until the program's output (since the last wait) holds s.
func WaitFor(t *testing.T, tm *teatest.TestModel, s string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(s))
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

const (
	PermAsSuccessID = "permission-denied-as-success"
	ArgsSchemaID    = "refund-args-break-schema"
	AboveLimitID    = "refund-above-auto-limit"
)

// keyOf is the number key of an action.
func KeyOf(a rules.Action) string { return fmt.Sprint(slices.Index(rules.Actions, a) + 1) }

// flat is the view with every space, newline and pane border removed, so
// text wrapped inside a pane can be searched for.
func Flat(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\n', '│', '┃':
			return -1
		}
		return r
	}, s)
}

const (
	RefundWindowID = "refund-past-return-window"
	StaffID        = "staff-record-denied"
	StoreDownID    = "subagent-order-store-down"
)

// afternoonCatalog holds the four scenarios of the afternoon series only,
// so the goldens do not change when the catalogue grows.
func AfternoonCatalog(tb testing.TB) *scenarios.Catalog {
	return SubsetCatalog(tb, scenarios.Afternoon.IDs...)
}

const TimeoutID = "timeout-second-try"

// RetryKey is the number key of retry_same, from the rules' order.
func RetryKey() string { return KeyOf(rules.RetrySame) }

const GoErrorID = "refund-handler-go-error"

// RevKeys is the r presses that move scenario id (of the built-in
// catalogue) from its own revision to rev.
func RevKeys(t testing.TB, id string, rev rules.Revision) []tea.Msg {
	t.Helper()
	sc, ok := Catalog(t).Get(id)
	if !ok {
		t.Fatalf("no scenario %s", id)
	}
	i, j := slices.Index(rules.Revisions, sc.Revision()), slices.Index(rules.Revisions, rev)
	var out []tea.Msg
	for range (j - i + len(rules.Revisions)) % len(rules.Revisions) {
		out = append(out, Press("r"))
	}
	return out
}
