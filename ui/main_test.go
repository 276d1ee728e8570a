package ui

import (
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/errorlab/errorlab/assets"
	"github.com/errorlab/errorlab/scenarios"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// subsetCatalog loads only the named embedded scenarios, so goldens do not
// change when other scenarios are added to the catalogue.
func subsetCatalog(tb testing.TB, ids ...string) *scenarios.Catalog {
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
func catalog(tb testing.TB) *scenarios.Catalog {
	c, err := fullCatalog()
	if err != nil {
		tb.Logf("built-in catalogue does not load, using a subset: %v", err)
		return subsetCatalog(tb, "timeout-second-try")
	}
	return c
}

// press turns a key name into a KeyMsg.
func press(s string) tea.KeyMsg {
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
	case " ":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// drive feeds messages to m, running every command synchronously and
// feeding its messages back, like the Bubble Tea loop. It reports whether
// a command asked to quit.
func drive(m tea.Model, msgs ...tea.Msg) (tea.Model, bool) {
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

func lineWith(view, substr string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, substr) {
			return l
		}
	}
	return ""
}
