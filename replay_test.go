package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/serve"
	"github.com/errorlab/errorlab/ui/common"
)

// replayFixture, when set, is where TestReplayOfARealServeLog copies the
// HTTP run's log: the fixture of the replay screen's goldens
// (ui/pages/serve/testdata/afternoon.jsonl).
var replayFixture = flag.String("replay-fixture", "", "copy the HTTP run's exchange log to this file")

// shift is what the clients of these tests are asked to do: a timeout, a
// refusal past the return window, a malformed order id, an empty ticket
// search, a staff record.
var shift = []struct {
	tool       string
	args       map[string]any
	correction map[string]any
}{
	{"lookup_order", map[string]any{"order_id": "ORD-4471", "failure_mode": "timeout"}, nil},
	{"process_refund", map[string]any{"order_id": "ORD-4471", "amount": 189.0, "confirmedByUser": true}, nil},
	{"lookup_order", map[string]any{"order_id": "ORD-4471x"}, map[string]any{"order_id": "ORD-4471"}},
	{"search_support_tickets", map[string]any{"query": "gift card balance"}, nil},
	{"get_customer", map[string]any{"customer_id": "C-1002"}, nil},
}

// failed reads a result as a client does: isError, its errorCategory.
func failed(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) (bool, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return true, ""
	}
	var sc struct {
		ErrorCategory string `json:"errorCategory"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &sc)
	return res.IsError, sc.ErrorCategory
}

// naiveShift resends every failure twice, 50 ms apart.
func naiveShift(t *testing.T, cs *sdk.ClientSession) {
	for _, tk := range shift {
		bad, _ := failed(t, cs, tk.tool, tk.args)
		for tries := 0; bad && tries < 2; tries++ {
			time.Sleep(50 * time.Millisecond)
			bad, _ = failed(t, cs, tk.tool, tk.args)
		}
	}
}

// informedShift waits 1 s before resending a transient failure, corrects
// a validation error, escalates a permission error, stops after a
// refusal.
func informedShift(t *testing.T, cs *sdk.ClientSession) {
	for _, tk := range shift {
		bad, cat := failed(t, cs, tk.tool, tk.args)
		switch {
		case bad && cat == "transient":
			time.Sleep(time.Duration(rules.BackoffSeconds(1, 0) * float64(time.Second)))
			failed(t, cs, tk.tool, tk.args)
		case bad && cat == "validation" && tk.correction != nil:
			failed(t, cs, tk.tool, tk.correction)
		case bad && cat == "permission":
			failed(t, cs, "escalate_to_human", map[string]any{"summary": "A staff record needs a team lead with access.", "reason": "other"})
		}
	}
}

// cardsOf is a report's cards as JSON, without a session's start and end
// (the log holds neither).
func cardsOf(t *testing.T, sessions []serve.Card) string {
	t.Helper()
	var out []string
	for _, c := range sessions {
		c.Started, c.Ended = time.Time{}, time.Time{}
		b, err := json.MarshalIndent(c, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return strings.Join(out, "\n")
}

// TestReplayOfARealServeLog: go-sdk clients play a shift against the built
// binary, which writes --log and --report; the lab's replay of that log
// (the function `errorlab lab --replay` calls) gives the report cards the
// live server wrote: every failure, the move, the verdict, the waits and
// the wasted calls. Over HTTP with two clients, and over stdio with a
// scenario in a bad style (the truth and the scenario's feedback come
// from the log).
func TestReplayOfARealServeLog(t *testing.T) {
	cat, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	compare := func(t *testing.T, logFile, reportFile string) serve.Report {
		t.Helper()
		b, err := os.ReadFile(reportFile)
		if err != nil {
			t.Fatal(err)
		}
		var live serve.Report
		if err := json.Unmarshal(b, &live); err != nil {
			t.Fatal(err)
		}
		srv, err := common.ReadReplay(logFile, cat)
		if err != nil {
			t.Fatal(err)
		}
		replayed := srv.Report()
		if got, want := cardsOf(t, replayed.Sessions), cardsOf(t, live.Sessions); got != want {
			t.Errorf("the replay's cards differ from the report the server wrote:\n--- replay\n%s\n--- --report\n%s", got, want)
		}
		if replayed.Style != live.Style {
			t.Errorf("replayed style %s, live %s", replayed.Style, live.Style)
		}
		return live
	}

	t.Run("http", func(t *testing.T) {
		dir := t.TempDir()
		logFile, reportFile := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, "report.json")
		url, cmd, _ := httpBinary(t, "--log", logFile, "--report", reportFile)
		for _, p := range []struct {
			name string
			play func(*testing.T, *sdk.ClientSession)
		}{{"naive-agent", naiveShift}, {"informed-agent", informedShift}} {
			c := sdk.NewClient(&sdk.Implementation{Name: p.name, Version: "1.0"}, nil)
			cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatal(err)
			}
			p.play(t, cs)
			_ = cs.Close()
		}
		stopWithin(t, cmd, os.Interrupt, time.Second)
		live := compare(t, logFile, reportFile)
		if len(live.Sessions) != 2 || live.Sessions[0].Wasted == 0 || live.Sessions[1].Wrong != 0 || len(live.Sessions[1].Waits) != 1 {
			t.Errorf("the live cards are not the shift's: %s / %s", live.Sessions[0].Summary(), live.Sessions[len(live.Sessions)-1].Summary())
		}
		if *replayFixture != "" {
			b, _ := os.ReadFile(logFile)
			if err := os.WriteFile(*replayFixture, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("stdio, a scenario in a bad style", func(t *testing.T) {
		dir := t.TempDir()
		logFile, reportFile := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, "report.json")
		cmd := exec.Command(binary(t), "--state-dir", t.TempDir(), "serve", "--scenario", "refund-past-return-window", "--style", "bad", "--log", logFile, "--report", reportFile)
		var stderr syncBuffer
		cmd.Stderr = &stderr
		c := sdk.NewClient(&sdk.Implementation{Name: "naive-agent", Version: "1.0"}, nil)
		cs, err := c.Connect(context.Background(), &sdk.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
		if err != nil {
			t.Fatal(err)
		}
		sc, _ := cat.Get("refund-past-return-window")
		for range 3 {
			failed(t, cs, sc.Call.Tool, sc.Call.Arguments)
		}
		failed(t, cs, "escalate_to_human", map[string]any{"summary": "The refund was refused; the customer wants a person.", "reason": "other"})
		if err := cs.Close(); err != nil {
			t.Fatalf("close: %v\n%s", err, stderr.String())
		}
		live := compare(t, logFile, reportFile)
		if len(live.Sessions) != 1 || live.Style == "" || live.Style == "good" || len(live.Sessions[0].Entries) != 3 {
			t.Fatalf("the live report is not the scenario's: %+v", live)
		}
		feedback := 0
		for _, e := range live.Sessions[0].Entries {
			if e.Feedback != "" {
				feedback++
			}
			if e.Truth.ErrorCategory != rules.Business {
				t.Errorf("#%d judged against %+v, not the business refusal it really was", e.Seq, e.Truth)
			}
		}
		if feedback == 0 {
			t.Error("no entry quotes the scenario's feedback")
		}
	})
}
