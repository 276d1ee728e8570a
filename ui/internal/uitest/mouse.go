package uitest

import (
	"os"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// Main runs a UI test package's tests without colour (the goldens and
// the views the tests read are plain text) on a dark background; call it
// from TestMain.
func Main(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// MousePress is a press of button b at cell (x, y) of the terminal; the
// App hands it to the top page with y made relative to the page's area.
func MousePress(x, y int, b tea.MouseButton) tea.MouseMsg {
	return tea.MouseMsg{X: x, Y: y, Action: tea.MouseActionPress, Button: b}
}

// RowOf is the row (0 = the first line) of the first line of view
// holding s; the test fails when none does.
func RowOf(t testing.TB, view, s string) int {
	t.Helper()
	for i, l := range strings.Split(view, "\n") {
		if strings.Contains(l, s) {
			return i
		}
	}
	t.Fatalf("no line holds %q:\n%s", s, view)
	return -1
}

// CellOf is where s first shows in view: its column in cells and its
// row (terminal coordinates, as the mouse reports them); the test fails
// when no line holds it.
func CellOf(t testing.TB, view, s string) (x, y int) {
	t.Helper()
	for y, l := range strings.Split(ansi.Strip(view), "\n") {
		if i := strings.Index(l, s); i >= 0 {
			return ansi.StringWidth(l[:i]), y
		}
	}
	t.Fatalf("%q is not on screen:\n%s", s, view)
	return 0, 0
}

// ScrollPos matches the scroll position a pane draws in its bottom
// border when its content overflows ("↕ 12-30/44").
var ScrollPos = regexp.MustCompile(`[↑↓↕] \d+-\d+/\d+`)
