package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui/internal/uitest"
)

// TestNoticeKeepsThePathOnOneLine: the kept file's path in the notice
// box is never broken where the terminal has room for it, so it can be
// copied in one go: at 60x20 a path a little wider than the box runs
// over its right edge; one under the home directory too wide for the box
// is written with ~; only one wider than the terminal is broken, after
// a "/".
func TestNoticeKeepsThePathOnOneLine(t *testing.T) {
	t.Setenv("HOME", "/home/learner")
	notice := func(path string) string {
		return "Your progress file had 1 part that could not be read. The original is kept, unchanged, as:\n  " + path +
			"\nCarried over: 1 lab scenario.\nLeft out:\n  - the answers to one question or drill (line 5): the field \"box\" holds a string where progress keeps a number\nIf you can mend the original, rename it back to progress.json while errorlab is closed; otherwise you may delete it."
	}
	const file = "progress.json.corrupt-20260502T101010.123Z"
	for _, c := range []struct {
		name, path, want string
		w, h             int
	}{
		{"wider than the box", "/srv/errorlab/" + file, "│   /srv/errorlab/" + file + "\n", 60, 20},
		{"under home", "/home/learner/.local/state/errorlab/" + file, "│   ~/.local/state/errorlab/" + file + " ", 80, 24},
		{"wider than the terminal", "/home/learner/.local/state/errorlab/" + file, "│   ~/.local/state/errorlab/ ", 60, 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, _ := uitest.Drive(New(Options{Catalog: uitest.Catalog(t), NoticeDetail: notice(c.path)}), tea.WindowSizeMsg{Width: c.w, Height: c.h})
			v := m.View()
			if !strings.Contains(v, c.want) {
				t.Errorf("the path is not on a line as %q:\n%s", c.want, v)
			}
			if c.w == 60 && !strings.Contains(v, "│ Carried over") {
				t.Errorf("the box is broken:\n%s", v)
			}
		})
	}
}
