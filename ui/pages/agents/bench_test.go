package agents_test

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui/internal/uitest"
)

// BenchmarkAgentsView measures one frame of the agents screen at 120x40
// with the afternoon series fully revealed (target: at most 2 ms).
func BenchmarkAgentsView(b *testing.B) {
	m := openAgents(b, uitest.AfternoonCatalog(b), "four-failures", tea.WindowSizeMsg{Width: 120, Height: 40}, uitest.Press("G"))
	if s := agentsOf(nil, m); !s.Done() {
		b.Fatal("not fully revealed")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}
