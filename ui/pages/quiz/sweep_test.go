package quiz_test

import (
	"testing"

	"github.com/errorlab/errorlab/ui/internal/uitest"
)

// TestQuizSizeSweep resizes every quiz screen state through widths
// 1..300 and heights 1..100, as ui's TestSizeSweep does for the other
// screens: View never panics, and from 60x20 up no line is wider than
// the terminal and the frame is no taller than it.
func TestQuizSizeSweep(t *testing.T) {
	uitest.Sweep(t, quizScreenStates(t))
}
