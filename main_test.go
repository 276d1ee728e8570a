package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui"
)

// cli runs errorlab's command line in process and returns exit code,
// stdout and stderr. The TUI is replaced by a recorder.
func cli(t *testing.T, terminal bool, args ...string) (int, string, string, *ui.Options) {
	t.Helper()
	var out, errOut bytes.Buffer
	var started *ui.Options
	a := &app{
		stdout:     &out,
		stderr:     &errOut,
		isTerminal: func() bool { return terminal },
		runTUI:     func(o ui.Options) error { started = &o; return nil },
	}
	code := a.run(append([]string{"--state-dir", t.TempDir()}, args...))
	return code, out.String(), errOut.String(), started
}

func TestScenariosListJSON(t *testing.T) {
	code, out, errOut, _ := cli(t, false, "scenarios", "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("not one JSON array: %v\n%s", err, out)
	}
	if len(list) < 16 {
		t.Fatalf("want at least 16 scenarios, got %d", len(list))
	}
	layers := map[string]bool{}
	for _, e := range list {
		for _, k := range []string{"id", "title", "topic", "layer", "errorCategory"} {
			if _, ok := e[k]; !ok {
				t.Fatalf("entry %v lacks %q", e["id"], k)
			}
		}
		layers[e["layer"].(string)] = true
		if e["layer"] == "execution" && e["errorCategory"] == nil {
			t.Errorf("%v: an execution error with a null errorCategory", e["id"])
		}
		if e["layer"] != "execution" && e["errorCategory"] != nil {
			t.Errorf("%v: layer %v with errorCategory %v", e["id"], e["layer"], e["errorCategory"])
		}
	}
	for _, l := range []string{"protocol", "execution", "success"} {
		if !layers[l] {
			t.Errorf("no scenario on the %s layer", l)
		}
	}
}

func TestScenariosListTable(t *testing.T) {
	code, out, _, _ := cli(t, false, "scenarios", "list")
	if code != 0 || !strings.Contains(out, "timeout-second-try") || !strings.HasPrefix(out, "ID") {
		t.Fatalf("exit %d, table:\n%s", code, out)
	}
}

func TestScenariosShowJSONGivesExactBytes(t *testing.T) {
	code, out, errOut, _ := cli(t, false, "scenarios", "show", "timeout-second-try", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		ID, Spec, Style, Request, Response string
		Classification                     struct {
			Layer         string  `json:"layer"`
			ErrorCategory *string `json:"errorCategory"`
			IsRetryable   *bool   `json:"isRetryable"`
			Empty         bool    `json:"empty"`
		}
		BestAction        string   `json:"bestAction"`
		AcceptableActions []string `json:"acceptableActions"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if got.ID != "timeout-second-try" || got.Spec != "2025-11-25" || got.Style != "good" {
		t.Fatalf("id/spec/style: %+v", got)
	}
	if !json.Valid([]byte(got.Request)) || !strings.Contains(got.Request, `"method":"tools/call"`) {
		t.Fatalf("request is not the tools/call bytes: %s", got.Request)
	}
	if !strings.Contains(got.Response, `"isError":true`) || strings.Contains(got.Response, "\n") {
		t.Fatalf("response is not the compact wire bytes: %s", got.Response)
	}
	c := got.Classification
	if c.Layer != "execution" || c.ErrorCategory == nil || *c.ErrorCategory != "transient" || c.IsRetryable == nil || !*c.IsRetryable || c.Empty {
		t.Fatalf("classification: %+v", c)
	}
	if got.BestAction != "retry_same" || got.AcceptableActions == nil {
		t.Fatalf("bestAction %q acceptable %v", got.BestAction, got.AcceptableActions)
	}
}

func TestScenariosShowBadStyleAndSpec(t *testing.T) {
	code, out, errOut, _ := cli(t, false, "scenarios", "show", "timeout-second-try", "--style", "bad", "--spec", "2026-07-28", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]any
	_ = json.Unmarshal([]byte(out), &got)
	if got["style"] == "good" || got["spec"] != "2026-07-28" {
		t.Fatalf("style %v spec %v", got["style"], got["spec"])
	}
	if !strings.Contains(got["response"].(string), `"resultType":"complete"`) {
		t.Fatalf("a 2026-07-28 result without resultType: %v", got["response"])
	}
	if !strings.Contains(got["request"].(string), "io.modelcontextprotocol/protocolVersion") {
		t.Fatalf("a 2026-07-28 request without _meta: %v", got["request"])
	}
}

func TestUnknownScenarioSuggestsClosest(t *testing.T) {
	code, _, errOut, _ := cli(t, false, "scenarios", "show", "timeout-second")
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errOut, "timeout-second-try") {
		t.Fatalf("no closest id in: %s", errOut)
	}
}

func TestBadFlagValuesExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"scenarios", "show", "timeout-second-try", "--spec", "2024-01-01"},
		{"scenarios", "show", "timeout-second-try", "--style", "shiny"},
		{"scenarios", "show", "timeout-second-try", "--style", "empty_success"},
		{"scenarios", "list", "--bogus"},
		{"agent", "--scenario", "timeout-second-try", "--agent", "clever"},
		{"agent"},
	} {
		code, _, errOut, _ := cli(t, false, args...)
		if code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

func TestLabRefusesWithoutATerminal(t *testing.T) {
	code, _, errOut, started := cli(t, false)
	if code != 2 || started != nil {
		t.Fatalf("exit %d, TUI started %v", code, started != nil)
	}
	if !strings.Contains(errOut, "not a terminal") {
		t.Fatalf("stderr: %s", errOut)
	}
}

func TestLabOpensAtScenario(t *testing.T) {
	code, _, errOut, started := cli(t, true, "lab", "--scenario", "timeout-second-try")
	if code != 0 || started == nil || started.ScenarioID != "timeout-second-try" || started.Progress == nil {
		t.Fatalf("exit %d %s; started %+v", code, errOut, started)
	}
	code, _, errOut, started = cli(t, true, "lab", "--scenario", "no-such-thing")
	if code != 2 || started != nil || !strings.Contains(errOut, "Closest") {
		t.Fatalf("unknown id: exit %d, %s", code, errOut)
	}
}

func writeScenario(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func builtin(t *testing.T, id string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("assets", "scenarios", id+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestValidateReportsFileLineColumn(t *testing.T) {
	dir := t.TempDir()
	writeScenario(t, dir, "good.yaml", builtin(t, "timeout-second-try"))
	bad := strings.Replace(builtin(t, "timeout-second-try"), "bestAction: retry_same", "bestAction: fix_input", 1)
	bad = strings.Replace(bad, "id: timeout-second-try", "id: timeout-copy", 1)
	writeScenario(t, dir, "wrong-action.yaml", bad)
	writeScenario(t, dir, "broken.yaml", "id: x\ntitle: [unclosed\n")
	code, out, errOut, _ := cli(t, false, "scenarios", "validate", dir)
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	for _, want := range []string{
		filepath.Join(dir, "broken.yaml") + ":2:",
		filepath.Join(dir, "wrong-action.yaml") + ":",
		"disagrees with LESSON-RULES",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("validate output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "nothing there would load") {
		t.Errorf("stderr: %s", errOut)
	}

	ok := t.TempDir()
	writeScenario(t, ok, "good.yaml", builtin(t, "timeout-second-try"))
	code, out, _, _ = cli(t, false, "scenarios", "validate", ok)
	if code != 0 || !strings.Contains(out, "1 scenario in ") {
		t.Fatalf("valid dir: exit %d, %s", code, out)
	}
}

func TestContentOverlayReplacesAndAdds(t *testing.T) {
	dir := t.TempDir()
	repl := strings.Replace(builtin(t, "timeout-second-try"), "title: ", "title: Replaced - ", 1)
	writeScenario(t, dir, "mine.yaml", repl)
	added := strings.Replace(builtin(t, "timeout-second-try"), "id: timeout-second-try", "id: my-own-timeout", 1)
	writeScenario(t, dir, "added.yaml", added)
	code, out, errOut, _ := cli(t, false, "--content", dir, "scenarios", "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "Replaced - ") || !strings.Contains(out, "my-own-timeout") {
		t.Fatalf("overlay not applied:\n%s", out)
	}
}

func TestBrokenContentLoadsNothing(t *testing.T) {
	dir := t.TempDir()
	writeScenario(t, dir, "ok.yaml", strings.Replace(builtin(t, "timeout-second-try"), "id: timeout-second-try", "id: extra-one", 1))
	writeScenario(t, dir, "bad.yaml", "id: nope\nunknown_key: 1\n")
	code, out, errOut, started := cli(t, true, "--content", dir)
	if code == 0 || started != nil {
		t.Fatalf("broken content still started the lab (exit %d)", code)
	}
	if out != "" || !strings.Contains(errOut, "bad.yaml:2:1") || !strings.Contains(errOut, "nothing was loaded") {
		t.Fatalf("stderr: %s", errOut)
	}
}

func TestAgentJSON(t *testing.T) {
	for _, kind := range []string{"informed", "naive"} {
		code, out, errOut, _ := cli(t, false, "agent", "--scenario", "refund-past-return-window", "--agent", kind, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", kind, code, errOut)
		}
		var run struct {
			Scenario, Agent, FinalMessage, Verdict string
			Steps                                  []struct {
				T         float64        `json:"t"`
				Kind      string         `json:"kind"`
				Tool      string         `json:"tool"`
				Arguments map[string]any `json:"arguments"`
				IsError   *bool          `json:"isError"`
			}
			Calls          int
			VirtualSeconds float64
		}
		if err := json.Unmarshal([]byte(out), &run); err != nil {
			t.Fatalf("%s: %v\n%s", kind, err, out)
		}
		if run.Agent != kind || run.Scenario != "refund-past-return-window" || run.FinalMessage == "" || run.Verdict == "" {
			t.Fatalf("%s: %+v", kind, run)
		}
		if run.Steps[0].Kind != "call" || run.Steps[0].Tool != "process_refund" || run.Steps[0].IsError == nil || !*run.Steps[0].IsError {
			t.Fatalf("%s: first step %+v", kind, run.Steps[0])
		}
		if kind == "informed" && run.Calls != 1 {
			t.Errorf("the informed agent resent a business refusal: %d calls", run.Calls)
		}
		if kind == "naive" && run.Calls != 6 {
			t.Errorf("the naive agent should resend the refusal five times: %d calls", run.Calls)
		}
	}
}

func TestAgentCoordinatorAndSeries(t *testing.T) {
	code, out, errOut, _ := cli(t, false, "agent", "--scenario", "staff-record-denied", "--coordinator", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{`"partialResults"`, `"errorCategory": "permission"`, `"attempted"`, `"coordinatorAction": "escalate_human"`} {
		if !strings.Contains(out, want) {
			t.Errorf("coordinator JSON lacks %s:\n%s", want, out)
		}
	}
	code, _, errOut, _ = cli(t, false, "agent", "--scenario", "refund-past-return-window", "--coordinator")
	if code != 2 || !strings.Contains(errOut, "read-only tools") {
		t.Fatalf("delegating a refund scenario: exit %d %s", code, errOut)
	}
	code, out, _, _ = cli(t, false, "agent", "--scenario", "four-failures", "--agent", "naive")
	if code != 0 || !strings.Contains(out, "process_refund") || !strings.Contains(out, "get_customer") {
		t.Fatalf("series: exit %d\n%s", code, out)
	}
}

func TestQuestionsListJSON(t *testing.T) {
	code, out, errOut, _ := cli(t, false, "questions", "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list []struct {
		ID, Topic, Stem, Rule string
		Difficulty            int
		Options               []struct{ Text, Explanation string }
		Answer                any
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) < 80 {
		t.Fatalf("%d questions listed", len(list))
	}
	for _, q := range list {
		if q.ID == "" || q.Topic == "" || q.Stem == "" || q.Rule == "" || len(q.Options) != 4 || q.Answer == nil {
			t.Fatalf("incomplete entry: %+v", q)
		}
		for _, o := range q.Options {
			if o.Text == "" || o.Explanation == "" {
				t.Fatalf("%s: an option without text or explanation", q.ID)
			}
		}
	}
}

func TestQuestionsValidateReportsPositions(t *testing.T) {
	dir := t.TempDir()
	writeScenario(t, dir, "q.yaml", "- id: x\n  topic: nowhere\n")
	code, out, _, _ := cli(t, false, "questions", "validate", dir)
	if code != 2 || !strings.Contains(out, filepath.Join(dir, "q.yaml")+":2:10: unknown topic") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestReportFormats(t *testing.T) {
	code, out, _, _ := cli(t, false, "report", "--format", "json")
	var sum map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &sum) != nil || sum["topics"] == nil || sum["exams"] == nil || sum["missed"] == nil {
		t.Fatalf("exit %d, json report:\n%s", code, out)
	}
	code, out, _, _ = cli(t, false, "report")
	if code != 0 || !strings.HasPrefix(out, "# errorlab progress report") {
		t.Fatalf("exit %d, md report:\n%s", code, out)
	}
	if code, _, _, _ = cli(t, false, "report", "--format", "pdf"); code != 2 {
		t.Fatalf("--format pdf: exit %d", code)
	}
}

func TestShowSessionPrintsTheWholeConversation(t *testing.T) {
	code, out, errOut, _ := cli(t, false, "scenarios", "show", "timeout-second-try", "--session", "--spec", "2025-06-18", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Transcript []struct{ Dir, Method, Raw string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, m := range got.Transcript {
		if m.Method != "" {
			methods = append(methods, m.Method)
		}
	}
	want := "initialize notifications/initialized tools/list tools/call"
	if strings.Join(methods, " ") != want {
		t.Fatalf("conversation methods %v, want %s", methods, want)
	}
	if !strings.Contains(got.Transcript[0].Raw, `"protocolVersion":"2025-06-18"`) {
		t.Fatalf("handshake not pinned to 2025-06-18: %s", got.Transcript[0].Raw)
	}
}

func TestContentErrorsExitTwo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "afile")
	_ = os.WriteFile(file, nil, 0o644)
	for _, dir := range []string{t.TempDir(), "/nonexistent/errorlab", file} {
		code, _, errOut, _ := cli(t, false, "--content", dir, "scenarios", "list")
		if code != 2 || !strings.Contains(errOut, "errorlab:") {
			t.Errorf("--content %s: exit %d, %s", dir, code, errOut)
		}
	}
}

func TestUnwritableStateStillOpensTheLab(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	_ = os.WriteFile(f, nil, 0o644)
	var out, errOut bytes.Buffer
	var started *ui.Options
	a := &app{stdout: &out, stderr: &errOut, isTerminal: func() bool { return true },
		runTUI: func(o ui.Options) error { started = &o; return nil }}
	code := a.run([]string{"--state-dir", filepath.Join(f, "sub")})
	if code != 0 || started == nil || started.Progress == nil {
		t.Fatalf("exit %d; the lab did not open without a writable state dir: %s", code, errOut.String())
	}
	if !strings.Contains(started.Notice, "not being saved") {
		t.Fatalf("the learner is not told progress is not saved: %q", started.Notice)
	}
}

func TestCorruptProgressNoticeReachesTheLab(t *testing.T) {
	dir := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "progress.json"), []byte("garbage{{{"), 0o644)
	var out, errOut bytes.Buffer
	var started *ui.Options
	a := &app{stdout: &out, stderr: &errOut, isTerminal: func() bool { return true },
		runTUI: func(o ui.Options) error { started = &o; return nil }}
	if code := a.run([]string{"--state-dir", dir}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if started == nil || !strings.Contains(started.Notice, "kept aside") {
		t.Fatalf("notice for the TUI: %+v", started)
	}
}

func TestReportChangesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	var out, errOut bytes.Buffer
	a := &app{stdout: &out, stderr: &errOut, isTerminal: func() bool { return false }, runTUI: func(ui.Options) error { return nil }}
	if code := a.run([]string{"--state-dir", dir, "report"}); code != 0 {
		t.Fatalf("report on a missing state dir: exit %d %s", code, errOut.String())
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("report created the state directory")
	}
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, "progress.json"), []byte("{bad"), 0o644)
	out.Reset()
	errOut.Reset()
	if code := a.run([]string{"--state-dir", dir, "report"}); code != 1 || !strings.Contains(errOut.String(), "cannot be read") {
		t.Fatalf("report on a corrupt file: exit %d %s", code, errOut.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "progress.json")); string(b) != "{bad" {
		t.Fatal("report moved or changed the corrupt file")
	}
}

func TestQuizFlags(t *testing.T) {
	code, _, errOut, started := cli(t, true, "quiz", "--mode", "exam", "--count", "12", "--minutes", "15", "--seed", "9", "--pass", "80", "--topic", "empty")
	if code != 0 || started == nil || started.Quiz == nil {
		t.Fatalf("exit %d %s", code, errOut)
	}
	q := started.Quiz
	if q.Mode != "exam" || q.Count != 12 || q.Minutes != 15 || q.Seed != 9 || q.PassMark != 0.8 || q.Topic != "empty" {
		t.Fatalf("quiz start: %+v", q)
	}
	for _, args := range [][]string{{"quiz", "--mode", "cram"}, {"quiz", "--topic", "astrology"}, {"quiz", "--pass", "120"}, {"quiz", "--pass", "0"}, {"quiz", "--pass", "0.5"}, {"quiz", "--count", "-1"}} {
		if code, _, _, started := cli(t, true, args...); code != 2 || started != nil {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	if code, _, errOut, _ := cli(t, false, "quiz"); code != 2 || !strings.Contains(errOut, "not a terminal") {
		t.Fatalf("quiz without a terminal: exit %d %s", code, errOut)
	}
}

func TestQuestionsOverlay(t *testing.T) {
	dir := t.TempDir()
	q := "- id: my-own-question\n  topic: layers\n  difficulty: 1\n  stem: Which layer reports an unknown tool?\n  options:\n" +
		"    - {text: protocol, explanation: right because no tool ran}\n    - {text: execution, explanation: wrong because no tool ran}\n" +
		"    - {text: success, explanation: wrong because nothing succeeded}\n    - {text: transport, explanation: wrong because that is not a layer here}\n" +
		"  answer: A\n  rule: \"§1\"\n"
	writeScenario(t, dir, "mine.yaml", q)
	code, out, errOut, _ := cli(t, false, "--questions", dir, "questions", "list", "--json")
	if code != 0 || !strings.Contains(out, "my-own-question") || !strings.Contains(out, "layers-unknown-tool-wire") {
		t.Fatalf("exit %d %s\n%s", code, errOut, out)
	}
	writeScenario(t, dir, "bad.yaml", "- id: x\n  topic: nowhere\n")
	code, _, errOut, started := cli(t, true, "--questions", dir, "quiz")
	if code != 2 || started != nil || !strings.Contains(errOut, "bad.yaml:2:") {
		t.Fatalf("broken questions: exit %d %s", code, errOut)
	}
}
