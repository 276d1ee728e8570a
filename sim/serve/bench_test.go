package serve_test

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/realtools"
	"github.com/errorlab/errorlab/sim/serve"
)

// Load of BenchmarkServeHTTP: clients × calls tools/call each.
const (
	benchClients = 64
	benchCalls   = 200
)

// loadResult is one run of the load.
type loadResult struct {
	calls    int
	failures int64
	elapsed  time.Duration
	lat      []time.Duration
}

func (r loadResult) perSecond() float64 { return float64(r.calls) / r.elapsed.Seconds() }

func (r loadResult) quantile(q float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	s := slices.Clone(r.lat)
	slices.Sort(s)
	return s[min(int(q*float64(len(s))), len(s)-1)]
}

// load connects benchClients go-sdk clients (2025-11-25, one session
// each, no standalone SSE stream) to url and has each make benchCalls
// calls of tool, all at once. A failure is a call that errs or returns
// isError.
func load(tb testing.TB, url, tool string, args map[string]any) loadResult {
	tb.Helper()
	httpClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients * 2}}
	sessions := make([]*sdk.ClientSession, benchClients)
	for i := range sessions {
		c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: httpClient, DisableStandaloneSSE: true},
			&sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			tb.Fatalf("client %d: %v", i, err)
		}
		sessions[i] = cs
	}
	defer func() {
		for _, cs := range sessions {
			_ = cs.Close()
		}
	}()
	var failures atomic.Int64
	lats := make([][]time.Duration, benchClients)
	var wg sync.WaitGroup
	start := time.Now()
	for i, cs := range sessions {
		wg.Go(func() {
			lats[i] = make([]time.Duration, 0, benchCalls)
			for range benchCalls {
				t0 := time.Now()
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
				lats[i] = append(lats[i], time.Since(t0))
				if err != nil || res.IsError {
					failures.Add(1)
				}
			}
		})
	}
	wg.Wait()
	r := loadResult{calls: benchClients * benchCalls, failures: failures.Load(), elapsed: time.Since(start)}
	for _, l := range lats {
		r.lat = append(r.lat, l...)
	}
	return r
}

// peakHeap samples the heap in use every 5 ms until stop, and returns the
// highest value in MiB.
func peakHeap(stop <-chan struct{}) <-chan float64 {
	out := make(chan float64, 1)
	go func() {
		var peak uint64
		var ms runtime.MemStats
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				out <- float64(peak) / (1 << 20)
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// BenchmarkServeHTTP is a bounded load on loopback: 64 concurrent go-sdk
// clients × 200 tools/call each (lookup_order, a success) against errorlab
// serve's Streamable HTTP transport, with zero failures allowed. It
// reports calls/s, p50 and p99 latency, and the peak heap of the process
// (server and clients: they share it). In the same run the same client
// load calls server-everything's echo tool (Node 22, streamableHttp), and
// the ratios are reported: the targets are at least 3x its calls/s and at
// most a third of its p99.
//
//	go test -run '^$' -bench ServeHTTP -benchtime 1x ./sim/serve
func BenchmarkServeHTTP(b *testing.B) {
	url, _ := httpServer(b, serve.Config{FailureModes: true, Diagnostics: io.Discard})
	var mine loadResult
	var peak float64
	for b.Loop() {
		stop := make(chan struct{})
		heap := peakHeap(stop)
		mine = load(b, url, "lookup_order", map[string]any{"order_id": "ORD-4471"})
		close(stop)
		peak = max(peak, <-heap)
		if mine.failures != 0 {
			b.Fatalf("%d of %d calls failed", mine.failures, mine.calls)
		}
	}
	b.ReportMetric(mine.perSecond(), "calls/s")
	b.ReportMetric(float64(mine.quantile(0.50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(mine.quantile(0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(peak, "peak-heap-MiB")

	b.StopTimer()
	node := realtools.Node22(b)
	evURL := realtools.ServerEverythingHTTP(b, node)
	ev := load(b, evURL, "echo", map[string]any{"message": "hello"})
	if ev.failures != 0 {
		b.Fatalf("server-everything: %d of %d echo calls failed", ev.failures, ev.calls)
	}
	b.ReportMetric(ev.perSecond(), "everything-calls/s")
	b.ReportMetric(float64(ev.quantile(0.99).Microseconds())/1000, "everything-p99-ms")
	b.ReportMetric(mine.perSecond()/ev.perSecond(), "x-calls/s")
	b.ReportMetric(float64(mine.quantile(0.99))/float64(ev.quantile(0.99)), "p99-ratio")
}

// BenchmarkServeStdio is one go-sdk client calling lookup_order over
// errorlab serve's stdio transport (in process, on pipes), one call at a
// time: calls/s and the mean latency (ns/op).
//
//	go test -run '^$' -bench ServeStdio ./sim/serve
func BenchmarkServeStdio(b *testing.B) {
	tr, _ := stdioServer(b, serve.Config{FailureModes: true, Diagnostics: io.Discard})
	cs := connect(b, tr, "bench-stdio", "2025-11-25")
	args := &sdk.CallToolParams{Name: "lookup_order", Arguments: map[string]any{"order_id": "ORD-4471"}}
	start := time.Now()
	n := 0
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), args)
		if err != nil || res.IsError {
			b.Fatalf("call failed: %v %+v", err, res)
		}
		n++
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "calls/s")
}
