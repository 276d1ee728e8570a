package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui/internal/uitest"

	tea "github.com/charmbracelet/bubbletea"
)

// BenchmarkLabView measures one frame of the scenario screen after a call
// with the verdict shown (target: at most 2 ms per frame).
func BenchmarkLabView(b *testing.B) {
	cat := uitest.SubsetCatalog(b, uitest.TimeoutID)
	for _, sz := range [][2]int{{120, 40}, {200, 60}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			m, _ := uitest.Drive(New(Options{Catalog: cat, ScenarioID: uitest.TimeoutID, ExportDir: b.TempDir()}),
				tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}, uitest.Press("enter"), uitest.Press(uitest.RetryKey()))
			scenarioOf(nil, m)
			if !strings.Contains(m.View(), "✓ Correct") {
				b.Fatal("no verdict")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}
