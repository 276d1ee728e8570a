package walkthrough_test

import (
	"os"
	"sync"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/errorlab/errorlab/scenarios"
	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/walkthrough"
)

func TestMain(m *testing.M) {
	walkthrough.Quiet()
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// The test walkthrough (testdata/walkthroughs) with every kind of
// step, loaded once against the whole catalogue.
var (
	setOnce sync.Once
	set     *wt.Set
	setErr  error
)

// testSet is the test walkthrough's set and the catalogue it was checked
// against.
func testSet(tb testing.TB) (*wt.Set, *scenarios.Catalog) {
	tb.Helper()
	cat := uitest.Catalog(tb)
	setOnce.Do(func() {
		set, setErr = wt.LoadFS(os.DirFS("testdata/walkthroughs"), "testdata/walkthroughs", cat, nil)
	})
	uitest.Must(tb, setErr)
	return set, cat
}
