package walkthrough_test

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/walkthrough"
)

// BenchmarkWalkthroughStep: one forward click and the frame it draws
// (Update and View through the App) at 120x40, with the step's data
// already computed: the live call of "Four failures in one afternoon"
// (the longest envelope of the built-in walkthroughs' first call),
// revealed part after part, and a timeline step and a question of the
// test walkthrough. The target is under 1.7 ms, a tenth of a 60 fps
// frame.
func BenchmarkWalkthroughStep(b *testing.B) {
	cases := []struct {
		name      string
		id        string
		step      string // keys to the step, which then loads
		builtIn   bool
		presenter bool
	}{
		{"live_call", "four-failures-one-afternoon", "2", true, false},
		{"live_call/presenter", "four-failures-one-afternoon", "2", true, true},
		{"agents", "every-kind", "4", false, false},
		{"question", "every-kind", "6", false, false},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			o := ui.Options{Catalog: uitest.Catalog(b), WalkthroughID: c.id, Presenter: c.presenter}
			if !c.builtIn {
				set, cat := testSet(b)
				o.Catalog, o.Walkthroughs = cat, set
			}
			m, _ := uitest.Start(ui.New(o), tea.WindowSizeMsg{Width: 120, Height: 40})
			m, _ = press(m, "g", c.step, "enter")
			s := m.(*ui.App).Top().(*walkthrough.Model)
			fwd, back := keyMsg("space"), keyMsg("left")
			// The last part that still leaves a click inside the step.
			last := 0
			for {
				m, _ = m.Update(fwd)
				if s.Step()+1 != atoi(c.step) {
					m, _ = m.Update(back)
					break
				}
				last = s.Part()
			}
			for s.Part() > 0 {
				m, _ = m.Update(back)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if s.Part() >= last {
					b.StopTimer()
					for s.Part() > 0 {
						m, _ = m.Update(back)
					}
					b.StartTimer()
				}
				m, _ = m.Update(fwd)
				_ = m.View()
			}
		})
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
