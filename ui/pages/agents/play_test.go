package agents

import (
	"testing"
	"time"
)

func TestPauseFor(t *testing.T) {
	for _, c := range []struct {
		gap, speed float64
		want       time.Duration
	}{
		{16, 4, 4 * time.Second}, {16, 1, maxPause}, {4, 1, 4 * time.Second}, {4, 0.5, maxPause}, {2, 4, 500 * time.Millisecond},
		{1, 1, time.Second}, {0, 1, minPause}, {0.2, 10, minPause}, {1, 0.5, 2 * time.Second},
	} {
		if got := pauseFor(c.gap, c.speed); got != c.want {
			t.Errorf("pauseFor(%g, %g) = %v, want %v", c.gap, c.speed, got, c.want)
		}
	}
	// 0.5× and 1× differ on the lessons' 1 s, 2 s, 4 s backoff.
	for _, gap := range []float64{1, 2} {
		if pauseFor(gap, 0.5) == pauseFor(gap, 1) {
			t.Errorf("a %gs wait looks the same at 0.5× and 1×", gap)
		}
	}
}
