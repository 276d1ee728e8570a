package scenario

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"
)

// rootRows is what the root keeps of a terminal's height for itself:
// the header, the status line and two lines of short help.
const rootRows = 4

// newCommon is a session's Common on cat with progress in memory.
func newCommon(tb testing.TB, cat *scenarios.Catalog) *common.Common {
	c := common.New(lipgloss.DefaultRenderer(), cat, common.NewMemoryProgress())
	c.ExportDir = tb.TempDir()
	return c
}

// openIn opens the screen on scenario id of cat with the area a terminal
// of size leaves it, and feeds it msgs.
func openIn(tb testing.TB, cat *scenarios.Catalog, id string, size tea.WindowSizeMsg, msgs ...tea.Msg) *Model {
	tb.Helper()
	sc, ok := cat.Get(id)
	if !ok {
		tb.Fatalf("no scenario %s", id)
	}
	m := New(newCommon(tb, cat), sc)
	m.SetSize(size.Width, size.Height-rootRows)
	return drive(m, msgs...)
}

// openAt opens a scenario of the built-in catalogue.
func openAt(tb testing.TB, id string, size tea.WindowSizeMsg, msgs ...tea.Msg) *Model {
	tb.Helper()
	return openIn(tb, uitest.Catalog(tb), id, size, msgs...)
}

// openTimeout opens timeout-second-try, alone in its catalogue, at
// 120x40.
func openTimeout(tb testing.TB, msgs ...tea.Msg) *Model {
	tb.Helper()
	return openIn(tb, uitest.SubsetCatalog(tb, uitest.TimeoutID), uitest.TimeoutID, uitest.Size120, msgs...)
}

// drive feeds msgs to the screen like the root does: a WindowSizeMsg
// becomes the screen's area, anything else goes through Update with its
// commands run synchronously (what they ask of the root is dropped).
func drive(m *Model, msgs ...tea.Msg) *Model {
	for _, msg := range msgs {
		if sz, ok := msg.(tea.WindowSizeMsg); ok {
			m.SetSize(sz.Width, sz.Height-rootRows)
			continue
		}
		uitest.Drive(m, msg)
	}
	return m
}

// lowerView shows the whole lower panel: focus it and give it room.
func lowerView(m *Model) string {
	m.setFocus(focusLower)
	m.SetSize(200, 90-rootRows)
	return m.View()
}

// keyCmd is the message of the command m's Update returns for key k, nil
// when there is none.
func keyCmd(m *Model, k string) tea.Msg {
	_, cmd := m.Update(uitest.Press(k))
	if cmd == nil {
		return nil
	}
	return cmd()
}
