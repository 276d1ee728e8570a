package scenarios_test

import (
	"context"
	"testing"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/wire"
)

func benchCatalog(b *testing.B) *scenarios.Catalog {
	b.Helper()
	c, err := scenarios.Default()
	if err != nil {
		b.Fatalf("the built-in scenarios do not load:\n%v", err)
	}
	return c
}

// BenchmarkExchange measures what the lab does when the learner presses
// enter: the scenario's tools/call (its first attempt, so an injected
// fault fires) through the real mcp-go client and the mock server, with
// the exact request and response bytes recorded. The session it runs on
// is opened beforehand with the timer stopped; BenchmarkOpen measures
// that. Target: 100 µs per exchange.
func BenchmarkExchange(b *testing.B) {
	ctx := context.Background()
	for _, s := range benchCatalog(b).Scenarios {
		b.Run(s.ID, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				sess, err := s.Open(ctx, mockserver.StyleGood, s.Revision())
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := sess.Call(ctx, s.Call); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				_ = sess.Close()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkOpen measures opening a scenario's session, once per scenario
// screen, style and revision: a fresh mock server, the revision's
// handshake and tools/list (whose ~10 KB reply the mcp-go client decodes).
func BenchmarkOpen(b *testing.B) {
	ctx := context.Background()
	for _, s := range benchCatalog(b).Scenarios {
		b.Run(s.ID, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sess, err := s.Open(ctx, mockserver.StyleGood, s.Revision())
				if err != nil {
					b.Fatal(err)
				}
				_ = sess.Close()
			}
		})
	}
}

// BenchmarkCall measures repeated calls on one open in-process session
// (the learner pressing enter again and again). The session is replaced,
// with the timer stopped, every callsPerSession calls so its transcript
// stays small; a scenario whose fault clears on a later attempt is
// measured mostly after it cleared.
func BenchmarkCall(b *testing.B) {
	const callsPerSession = 500
	ctx := context.Background()
	for _, s := range benchCatalog(b).Scenarios {
		b.Run(s.ID, func(b *testing.B) {
			b.ReportAllocs()
			var sess *wire.Session
			open := func() {
				b.StopTimer()
				defer b.StartTimer()
				if sess != nil {
					_ = sess.Close()
				}
				var err error
				if sess, err = s.Open(ctx, mockserver.StyleGood, s.Revision()); err != nil {
					b.Fatal(err)
				}
			}
			open()
			for i := 0; i < b.N; i++ {
				if i > 0 && i%callsPerSession == 0 {
					open()
				}
				if _, err := sess.Call(ctx, s.Call); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			_ = sess.Close()
		})
	}
}
