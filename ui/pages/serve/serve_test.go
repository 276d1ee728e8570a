package serve_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/serve"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	servepage "github.com/errorlab/errorlab/ui/pages/serve"
)

func TestMain(m *testing.M) { uitest.Main(m) }

// clock is a fake clock the client advances instead of sleeping.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) sleep(s float64) {
	c.mu.Lock()
	c.t = c.t.Add(time.Duration(s * float64(time.Second)))
	c.mu.Unlock()
}

// stdioSession serves srv on pipes and connects a go-sdk client named
// name; stop ends the client's session and waits for the server.
func stdioSession(t *testing.T, srv *serve.Server, name string) (*sdk.ClientSession, func()) {
	t.Helper()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), c2sR, s2cW); s2cW.Close() }()
	c := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1.0"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.IOTransport{Reader: s2cR, Writer: c2sW}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	return cs, func() {
		_ = cs.Close()
		_ = c2sW.Close()
		<-done
		_ = s2cR.Close()
	}
}

func call(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) {
	t.Helper()
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args}); err != nil {
		t.Fatal(err)
	}
}

// played is a server a naive client has played: a timeout resent too
// soon, a business refusal resent, an empty search accepted.
func played(t *testing.T) *serve.Server {
	clk := &clock{t: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
	srv := serve.New(serve.Config{FailureModes: true, Now: clk.now})
	cs, stop := stdioSession(t, srv, "naive-agent")
	call(t, cs, "lookup_order", map[string]any{"order_id": "ORD-4471", "failure_mode": "timeout"})
	clk.sleep(0.2)
	call(t, cs, "lookup_order", map[string]any{"order_id": "ORD-4471", "failure_mode": "timeout"})
	refund := map[string]any{"order_id": "ORD-4471", "amount": 189, "confirmedByUser": true}
	call(t, cs, "process_refund", refund)
	clk.sleep(0.2)
	call(t, cs, "process_refund", refund)
	clk.sleep(1)
	call(t, cs, "search_support_tickets", map[string]any{"query": "gift card balance"})
	stop()
	return srv
}

// TestWatchGolden: the watch screen over a finished naive session, at
// 80x24 and 120x40: the exchanges, the selected one's request and
// response, and the report card with the verdicts (symbols that read
// without colour).
func TestWatchGolden(t *testing.T) {
	srv := played(t)
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			tm := teatest.NewTestModel(t, ui.New(ui.Options{Serve: &ui.ServeStart{Server: srv}}), teatest.WithInitialTermSize(sz[0], sz[1]))
			uitest.WaitFor(t, tm, "Report card")
			tm.Send(uitest.Press("q"))
			view := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
			for _, want := range []string{"● serving stdio", "naive-agent 1.0", "#7 search_support_tickets", "✗", "◑"} {
				if !strings.Contains(view, want) {
					t.Errorf("the view lacks %q:\n%s", want, view)
				}
			}
			teatest.RequireEqualOutput(t, []byte(view))
		})
	}
}

// TestWatchKeys: tab moves the focus through the four panes, the list's
// selection moves with up (and stops following), f follows again, and y
// copies the selected response.
func TestWatchKeys(t *testing.T) {
	m, _ := uitest.Drive(ui.New(ui.Options{Serve: &ui.ServeStart{Server: played(t)}}), uitest.Size120)
	if !strings.Contains(uitest.LineWith(m.View(), "exchanges"), "newest") {
		t.Fatalf("the list does not follow the newest exchange at first:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("up"), uitest.Press("up"))
	if l := uitest.LineWith(m.View(), "▸ #"); !strings.Contains(l, "#5") || strings.Contains(uitest.LineWith(m.View(), "exchanges"), "newest") {
		t.Errorf("after two ups the selection is not #5, or still follows: %q", l)
	}
	if !strings.Contains(m.View(), "#5 Request") {
		t.Errorf("the request pane does not show #5")
	}
	m, _ = uitest.Drive(m, uitest.Press("f"))
	if l := uitest.LineWith(m.View(), "▸ #"); !strings.Contains(l, "#7") {
		t.Errorf("f did not follow the newest again: %q", l)
	}
	for _, want := range []string{"Request", "Response", "Report card", "exchanges"} {
		m, _ = uitest.Drive(m, uitest.Press("tab"))
		if !strings.Contains(uitest.LineWith(m.View(), "┏"), want) {
			t.Errorf("tab did not focus %s: %q", want, uitest.LineWith(m.View(), "┏"))
		}
	}
}

// TestWatchUpdatesLive: with the real program loop, a client's calls over
// HTTP appear as they arrive, and its move after a failure is scored.
func TestWatchUpdatesLive(t *testing.T) {
	srv := serve.New(serve.Config{FailureModes: true})
	ln, err := serve.Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = srv.ServeHTTP(ctx, ln, false) }()
	tm := teatest.NewTestModel(t, ui.New(ui.Options{Serve: &ui.ServeStart{Server: srv}}), teatest.WithInitialTermSize(120, 40))
	uitest.WaitFor(t, tm, "No client yet")
	c := sdk.NewClient(&sdk.Implementation{Name: "live-client", Version: "2"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: srv.Listening()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	perm := map[string]any{"customer_id": "C-1001", "failure_mode": "permission"}
	call(t, cs, "get_customer", perm)
	uitest.WaitFor(t, tm, "no call yet")
	call(t, cs, "escalate_to_human", map[string]any{"summary": "The staff record needs a team lead with access."})
	uitest.WaitFor(t, tm, "called escalate_to_human")
	tm.Send(uitest.Press("q"))
	view := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	if !regexp.MustCompile(`live-client 2 · http 2026-07-28 · 2 calls · ✓1`).MatchString(view) {
		t.Errorf("the client's chip:\n%s", view)
	}
}

// TestWatchQuitsWhenTheServerStops: a signal to `errorlab serve --watch`
// stops the server; the watch screen then ends the program.
func TestWatchQuitsWhenTheServerStops(t *testing.T) {
	stopped := make(chan struct{})
	tm := teatest.NewTestModel(t, ui.New(ui.Options{Serve: &ui.ServeStart{Server: serve.New(serve.Config{}), Stopped: stopped}}), teatest.WithInitialTermSize(100, 30))
	uitest.WaitFor(t, tm, "Report card")
	close(stopped)
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestHomeServeStartsAndStopsAServer: Home → Serve starts a server a
// client can reach; leaving the screen stops it.
func TestHomeServeStartsAndStopsAServer(t *testing.T) {
	tm := teatest.NewTestModel(t, ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}), teatest.WithInitialTermSize(120, 40))
	uitest.WaitFor(t, tm, "Serve")
	for range 6 {
		tm.Send(uitest.Press("down"))
	}
	tm.Send(uitest.Press("enter"))
	var url string
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/mcp`).Find(b)
		url = string(m)
		return m != nil
	}, teatest.WithDuration(10*time.Second))
	c := sdk.NewClient(&sdk.Implementation{Name: "home-client", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", url, err)
	}
	call(t, cs, "lookup_order", map[string]any{"order_id": "ORD-4471x"})
	uitest.WaitFor(t, tm, "home-client 1")
	_ = cs.Close()
	tm.Send(uitest.Press("esc"))
	uitest.WaitFor(t, tm, "Practice & exam")
	tm.Send(uitest.Press("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	c2 := sdk.NewClient(&sdk.Implementation{Name: "late", Version: "1"}, nil)
	if cs2, err := c2.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil); err == nil {
		cs2.Close()
		t.Errorf("the server at %s still answers after leaving the screen", url)
	}
}

// In a confined session (a class over SSH) Home → Serve's screen opens
// no port and says so.
func TestConfinedSessionServesNothing(t *testing.T) {
	c := common.New(nil, uitest.SubsetCatalog(t, uitest.TimeoutID), nil)
	c.Confine("")
	m := servepage.NewHome(c)
	m.SetSize(100, 30)
	if cmd := m.Activate(); cmd != nil {
		t.Fatal("the screen started its server")
	}
	if view := uitest.Flat(m.View()); !strings.Contains(view, uitest.Flat("Not available in a class: run errorlab serve on your own machine")) {
		t.Fatalf("the screen does not say why:\n%s", m.View())
	}
	m.Close()
}

// afternoon is the replay of testdata/afternoon.jsonl, an exchange log
// the built binary wrote while two go-sdk clients (a naive one that resends
// everything, an informed one) played a shift over HTTP (written by
// `go test -run TestReplayOfARealServeLog -replay-fixture FILE .`).
func afternoon(t *testing.T) *serve.Server {
	t.Helper()
	srv, err := common.ReadReplay("testdata/afternoon.jsonl", uitest.Catalog(t))
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestReplayGolden: the replay of a real log at 80x24 and 120x40, on the
// naive client's second resend of a refused refund: the exchange's
// request and response, and its failure marked ▸ on the card with the
// move and the verdict.
func TestReplayGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			tm := teatest.NewTestModel(t, ui.New(ui.Options{Serve: &ui.ServeStart{Server: afternoon(t)}}), teatest.WithInitialTermSize(sz[0], sz[1]))
			uitest.WaitFor(t, tm, "Report card")
			for range 5 {
				tm.Send(uitest.Press("l"))
			}
			uitest.WaitFor(t, tm, "▸✗ #6")
			tm.Send(uitest.Press("q"))
			view := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
			for _, want := range []string{"Replay", "◆ replay of testdata/afternoon.jsonl", "naive-agent 1.0", "#6", "REFUND_WINDOW_EXCEEDED", "wasted call"} {
				if !strings.Contains(view, want) {
					t.Errorf("the view lacks %q:\n%s", want, view)
				}
			}
			teatest.RequireEqualOutput(t, []byte(view))
		})
	}
}

// TestReplayKeys: a replay opens at the first client's first exchange;
// → moves through it and the card marks the selected failure; ] goes to
// the next client from its first exchange; f says a replay does not
// change; c opens the Check screen on the selected response.
func TestReplayKeys(t *testing.T) {
	m, _ := uitest.Start(ui.New(ui.Options{Serve: &ui.ServeStart{Server: afternoon(t)}}), uitest.Size120)
	view := m.View()
	if !strings.Contains(uitest.LineWith(view, "▸ #"), "#1 initialize") || strings.Contains(uitest.LineWith(view, "exchanges"), "newest") {
		t.Fatalf("the replay does not open at its first exchange:\n%s", view)
	}
	m, _ = uitest.Drive(m, uitest.Press("l"), uitest.Press("l"), uitest.Press("l"), uitest.Press("l"))
	if l := uitest.LineWith(m.View(), "▸✗"); !strings.Contains(l, "#5 process_refund") {
		t.Errorf("the card does not mark #5's failure: %q\n%s", l, m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("]"))
	view = m.View()
	if !strings.Contains(uitest.LineWith(view, "▸ informed-agent"), "informed-agent 1.0") || !strings.Contains(uitest.LineWith(view, "▸ #"), "initialize") {
		t.Errorf("] did not open the informed client at its first exchange:\n%s", view)
	}
	m, _ = uitest.Drive(m, uitest.Press("f"))
	if st := m.(*ui.App).Status(); !strings.Contains(st.Text, "a replay does not change") {
		t.Errorf("f in a replay: %q", st.Text)
	}
	m, _ = uitest.Drive(m, uitest.Press("l"), uitest.Press("l"), uitest.Press("c"))
	view = m.View()
	if !strings.Contains(view, "Replay › Check") || !strings.Contains(view, "tools/call lookup_order") || !strings.Contains(view, "graded under 2025-11-25") {
		t.Errorf("c did not open the Check screen on #17's response:\n%s", view)
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if !strings.Contains(m.View(), "◆ replay of") {
		t.Errorf("esc from Check does not return to the replay:\n%s", m.View())
	}
}

// TestReplayPrompt: r asks for a log; a malformed one is refused with its
// file:line and what is wrong, the prompt staying open and the replay on
// screen unchanged; a good one opens (instead of the current replay).
func TestReplayPrompt(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	good, err := os.ReadFile("testdata/afternoon.jsonl")
	uitest.Must(t, err)
	lines := strings.SplitN(string(good), "\n", 3)
	uitest.Must(t, os.WriteFile(bad, []byte(lines[0]+"\n"+`{"time":"half past nine","session":"s","request":{},"response":null}`+"\n"), 0o644))
	other := filepath.Join(dir, "other.jsonl")
	uitest.Must(t, os.WriteFile(other, good, 0o644))

	m, _ := uitest.Start(ui.New(ui.Options{Serve: &ui.ServeStart{Server: afternoon(t)}}), uitest.Size120)
	m, _ = uitest.Drive(m, uitest.Press("r"), uitest.Press(bad), uitest.Press("enter"))
	view := m.View()
	if !strings.Contains(view, bad+`:2: "time" "half past nine" is not an RFC 3339 time`) || !strings.Contains(view, "Replay a log") {
		t.Fatalf("a bad log is not refused with its line:\n%s", view)
	}
	if !strings.Contains(view, "◆ replay of testdata/afternoon.jsonl") {
		t.Errorf("the replay on screen changed:\n%s", view)
	}
	m, _ = uitest.Drive(m, uitest.Press("q")) // typed into the path, not quitting
	if !strings.Contains(m.View(), "bad.jsonlq") {
		t.Errorf("q did not go to the prompt:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("esc"))
	if strings.Contains(m.View(), "Replay a log") {
		t.Errorf("esc did not close the prompt:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("r"))
	for range len(bad) + 1 {
		m, _ = uitest.Drive(m, uitest.Press("backspace"))
	}
	m, _ = uitest.Drive(m, uitest.Press(other), uitest.Press("enter"))
	view = m.View()
	if !strings.Contains(view, "◆ replay of "+other) || !strings.Contains(view, "errorlab › Replay") || strings.Contains(view, "Replay › Replay") {
		t.Errorf("the good log did not replace the replay:\n%s", view)
	}
}
