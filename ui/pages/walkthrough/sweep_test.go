package walkthrough_test

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"
)

// TestWalkthroughSizeSweep resizes the walkthrough screens (the list,
// every frame of the goldens, the blanked screen, the keys, a step
// number being typed, the quit question, the presenter view at every
// kind and without its notes) through widths 1..300 and heights 1..100,
// as ui's TestSizeSweep does for the other screens: View never panics,
// and from 60x20 up no line is wider than the terminal and the frame is
// no taller than it.
func TestWalkthroughSizeSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	states := map[string]tea.Model{}
	set, cat := testSet(t)
	list, _ := uitest.Drive(ui.New(ui.Options{Catalog: cat, Walkthroughs: set}), uitest.Size120, common.OpenWalkthroughsMsg{})
	states["list"] = list
	for _, f := range frames {
		m, _ := press(open(t, f.presenter, 120, 40), f.keys...)
		states[f.name] = m
	}
	extra := []struct {
		name      string
		presenter bool
		keys      []string
	}{
		{"blank white", false, []string{"space", "w"}},
		{"keys", false, []string{"g", "3", "enter", "space", "?"}},
		{"typing a step", false, []string{"g", "1"}},
		{"asking to quit", false, []string{"q"}},
		{"presenter, agents", true, []string{"g", "5", "enter", "left"}},
		{"presenter, coordinator", true, []string{"g", "5", "enter", "space", "space"}},
		{"presenter, question", true, []string{"g", "6", "enter", "space"}},
		{"presenter, blank, notes hidden", true, []string{"g", "3", "enter", "space", "n", "b"}},
		{"presenter, keys", true, []string{"?"}},
	}
	for _, e := range extra {
		m, _ := press(open(t, e.presenter, 120, 40), e.keys...)
		states[e.name] = m
	}
	uitest.Sweep(t, states)
}
