package ui

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// BenchmarkLabView measures one frame of the scenario screen after a call
// with the verdict shown (target: at most 2 ms per frame).
func BenchmarkLabView(b *testing.B) {
	cat := subsetCatalog(b, timeoutID)
	for _, sz := range [][2]int{{120, 40}, {200, 60}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			m, _ := drive(New(Options{Catalog: cat, ScenarioID: timeoutID, ExportDir: b.TempDir()}),
				tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}, press("enter"), press(retryKey()))
			if s := scenarioOf(nil, m); s.verdict == nil {
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

// BenchmarkAgentsView measures one frame of the agents screen at 120x40
// with the afternoon series fully revealed (target: at most 2 ms).
func BenchmarkAgentsView(b *testing.B) {
	m := openAgents(b, afternoonCatalog(b), "four-failures", tea.WindowSizeMsg{Width: 120, Height: 40}, press("G"))
	if s := agentsOf(nil, m); !s.done() {
		b.Fatal("not fully revealed")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}
