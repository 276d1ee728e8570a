package quiz

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as a child errorlab process: with
// ERRORLAB_STORE_CHILD set it answers N scenarios in the store at
// ERRORLAB_STORE_DIR and exits.
func TestMain(m *testing.M) {
	if dir := os.Getenv("ERRORLAB_STORE_DIR"); dir != "" {
		os.Exit(child(dir, os.Getenv("ERRORLAB_STORE_CHILD"), os.Getenv("ERRORLAB_STORE_N")))
	}
	os.Exit(m.Run())
}

func child(dir, name, nText string) int {
	n, _ := strconv.Atoi(nText)
	s, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := 0; n == 0 || i < n; i++ {
		if err := s.RecordScenario(fmt.Sprintf("%s-%d", name, i), "retry_same", "best", true); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func childCmd(t *testing.T, dir, name string, n int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ERRORLAB_STORE_DIR="+dir, "ERRORLAB_STORE_CHILD="+name, "ERRORLAB_STORE_N="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	return cmd
}

func TestFreshStoreStartsEmptyAndRemembersAnswers(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Solved("timeout-second-try") {
		t.Fatal("a fresh store says a scenario is solved")
	}
	if err := s.MarkSolved("timeout-second-try"); err != nil {
		t.Fatal(err)
	}
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Solved("timeout-second-try") {
		t.Fatal("a solved scenario was forgotten after reopening the store")
	}
	data, _ := os.ReadFile(filepath.Join(dir, FileName))
	if !strings.Contains(string(data), `"schemaVersion": 1`) {
		t.Fatalf("progress file has no schema version:\n%s", data)
	}
}

func TestWrongAnswerDoesNotUnsolve(t *testing.T) {
	s, _ := Open(t.TempDir())
	_ = s.RecordScenario("x", "retry_same", "best", true)
	_ = s.RecordScenario("x", "fix_input", "wrong", false)
	p, _ := s.Load()
	if !p.Scenarios["x"].Solved || p.Scenarios["x"].Attempts != 2 || p.Scenarios["x"].LastAction != "fix_input" {
		t.Fatalf("record after a right then a wrong answer: %+v", p.Scenarios["x"])
	}
}

func TestCorruptFileIsKeptAsideNotOverwritten(t *testing.T) {
	for name, content := range map[string]string{
		"not json":      "{\"schemaVersion\": 1, \"scenarios\": {",
		"newer schema":  `{"schemaVersion": 99, "scenarios": {}}`,
		"no version":    `{"scenarios": {}}`,
		"binary junk":   "\x00\x01\x02garbage",
		"wrong shape":   `{"schemaVersion": 1, "scenarios": []}`,
		"empty file":    "",
		"only a number": "42",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Open(dir)
			if err != nil {
				t.Fatalf("a corrupt progress file stopped errorlab: %v", err)
			}
			if !strings.Contains(s.Notice, ".corrupt-") {
				t.Fatalf("the learner is not told where the old file went: %q", s.Notice)
			}
			aside, _ := filepath.Glob(filepath.Join(dir, FileName+".corrupt-*"))
			if len(aside) != 1 {
				t.Fatalf("want the corrupt file kept aside once, found %v", aside)
			}
			kept, _ := os.ReadFile(aside[0])
			if string(kept) != content {
				t.Fatalf("the kept-aside file was altered: %q", kept)
			}
			if !strings.Contains(s.Notice, aside[0]) {
				t.Fatalf("notice %q does not name %s", s.Notice, aside[0])
			}
			if err := s.MarkSolved("a"); err != nil {
				t.Fatal(err)
			}
			if !s.Solved("a") {
				t.Fatal("the fresh store does not record answers")
			}
		})
	}
}

// Two errorlab processes answering at once must lose no answer.
func TestTwoProcessesLoseNoAnswer(t *testing.T) {
	dir := t.TempDir()
	const n = 40
	a, b := childCmd(t, dir, "a", n), childCmd(t, dir, "b", n)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	if err := a.Wait(); err != nil {
		t.Fatalf("writer a: %v", err)
	}
	if err := b.Wait(); err != nil {
		t.Fatalf("writer b: %v", err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.Load()
	if len(p.Scenarios) != 2*n {
		t.Fatalf("two writers recorded %d answers, want %d", len(p.Scenarios), 2*n)
	}
}

// Concurrent writers inside one process, too.
func TestConcurrentUpdatesInOneProcess(t *testing.T) {
	s, _ := Open(t.TempDir())
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_ = s.RecordScenario(fmt.Sprintf("s%d", i), "", "best", true)
		}(i)
	}
	wg.Wait()
	p, _ := s.Load()
	if len(p.Scenarios) != 20 {
		t.Fatalf("got %d of 20 answers", len(p.Scenarios))
	}
}

// A process killed mid-write leaves a readable file: the previous one or
// the new one, never a torn one.
func TestKilledWriterLeavesAReadableFile(t *testing.T) {
	dir := t.TempDir()
	for round := 0; round < 5; round++ {
		cmd := childCmd(t, dir, fmt.Sprintf("r%d", round), 0) // writes until killed
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+round*15) * time.Millisecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()

		data, err := os.ReadFile(filepath.Join(dir, FileName))
		if err != nil {
			continue // killed before the first write finished: nothing lost
		}
		var p Progress
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatalf("round %d: the progress file is torn after a kill: %v", round, err)
		}
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Notice != "" {
		t.Fatalf("a kill mid-write made the store think the file was corrupt: %s", s.Notice)
	}
	tmp, _ := filepath.Glob(filepath.Join(dir, ".progress-*.tmp"))
	if len(tmp) > 3 {
		t.Logf("left-over temp files after kills: %d", len(tmp))
	}
}

func TestUnwritableDirectorySaysWhatToDo(t *testing.T) {
	// A path under a regular file cannot be created, even by root.
	f := filepath.Join(t.TempDir(), "file")
	_ = os.WriteFile(f, nil, 0o644)
	_, err := Open(filepath.Join(f, "sub"))
	if err == nil || !strings.Contains(err.Error(), "progress directory") {
		t.Fatalf("want an error naming the progress directory, got %v", err)
	}
}

func TestCorruptionWhileRunningIsKeptAsideOnTheNextSave(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	_ = s.MarkSolved("a")
	_ = os.WriteFile(filepath.Join(dir, FileName), []byte("{torn"), 0o644)
	if err := s.MarkSolved("b"); err != nil {
		t.Fatalf("a save after outside corruption failed: %v", err)
	}
	if !strings.Contains(s.Notice, ".corrupt-") {
		t.Fatalf("no notice: %q", s.Notice)
	}
	aside, _ := filepath.Glob(filepath.Join(dir, FileName+".corrupt-*"))
	if len(aside) != 1 {
		t.Fatalf("kept aside: %v", aside)
	}
	p, _ := s.Load()
	if !p.Scenarios["b"].Solved {
		t.Fatal("the answer given after the corruption was lost")
	}
}

func TestMemoryStoreKeepsAnswersWithoutFiles(t *testing.T) {
	s := Memory()
	if err := s.RecordScenario("a", "retry_same", "best", true); err != nil {
		t.Fatal(err)
	}
	_ = s.RecordItem("q", "layers", false, t0)
	p, _ := s.Load()
	if !s.Solved("a") || p.Items["q"].Box != BoxMissed || s.Path() != "" {
		t.Fatalf("memory store: %+v", p)
	}
	p.Scenarios["b"] = ScenarioRecord{Solved: true}
	if s.Solved("b") {
		t.Fatal("changing a loaded snapshot changed the store")
	}
}

func TestSpecialProgressFileIsRefusedNotRead(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, FileName), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Open(dir); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("a FIFO progress file: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening a FIFO progress file hangs")
	}
	if _, err := ReadProgress(dir); err == nil {
		t.Fatal("report read a FIFO")
	}
}

func TestMarksRememberTheFirstAnswerEver(t *testing.T) {
	s := Memory()
	_ = s.RecordScenario("a", "retry_same", "best", true)
	_ = s.RecordScenario("b", "fix_input", "wrong", false)
	_ = s.RecordScenario("b", "retry_same", "best", true)
	_ = s.RecordScenario("a", "fix_input", "wrong", false)
	if s.ScenarioMark("a") != MarkFirstTime || s.ScenarioMark("b") != MarkAfterMiss || s.ScenarioMark("c") != MarkNone {
		t.Fatalf("marks a=%q b=%q c=%q", s.ScenarioMark("a"), s.ScenarioMark("b"), s.ScenarioMark("c"))
	}
	if MarkFirstTime.Symbol() != "✓" || MarkAfterMiss.Symbol() != "◑" {
		t.Fatal("mark symbols")
	}
}

// Each broken progress file: opening keeps it aside unchanged and the
// notice says what was wrong, where the copy is and what to do; the
// report (ReadProgress) changes nothing and says the same.
func TestBrokenProgressFileMessages(t *testing.T) {
	cases := []struct{ name, body, why, todo string }{
		{"truncated", `{"schemaVersion":1,"scenarios":{`, "ends part-way at line 1 (truncated", "rename it back to progress.json while errorlab is closed"},
		{"wrong types", `{"schemaVersion":1,"scenarios":[1,2],"items":{}}`, `the field "scenarios" holds an array where progress keeps an object`, "rename it back"},
		{"newer version", `{"schemaVersion":7,"scenarios":{},"items":{}}`, "a newer errorlab wrote it (schemaVersion 7; this one reads 1)", "use the newer errorlab that wrote it"},
		{"no version", `{"scenarios":{},"items":{}}`, `it has no schemaVersion, but its other fields ("scenarios", "items") are errorlab's; read as version 1`, "rename it back"},
		{"not errorlab's", `{"name":"x","items":{}}`, "it has no valid schemaVersion, so it is not an errorlab progress file", "rename it back"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadProgress(dir)
			if err == nil || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), "Nothing was changed") {
				t.Fatalf("report: %v", err)
			}
			if data, _ := os.ReadFile(path); string(data) != c.body {
				t.Fatal("the report changed the file")
			}
			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{c.why, s.KeptAs, c.todo} {
				if s.KeptAs == "" || !strings.Contains(s.Notice, want) {
					t.Errorf("notice %q lacks %q", s.Notice, want)
				}
			}
			if data, _ := os.ReadFile(s.KeptAs); string(data) != c.body {
				t.Error("the kept copy is not the file as it was")
			}
		})
	}
	t.Run("a directory in its place", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, err := range []error{func() error { _, err := ReadProgress(dir); return err }(), func() error { _, err := Open(dir); return err }()} {
			if err == nil || !strings.Contains(err.Error(), "is not a regular file but a directory") || !strings.Contains(err.Error(), "--state-dir") {
				t.Errorf("got %v", err)
			}
		}
	})
	t.Run("a state dir that cannot be made", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadProgress(filepath.Join(file, "sub"))
		if err == nil || !strings.Contains(err.Error(), "point --state-dir at the directory") {
			t.Errorf("got %v", err)
		}
	})
}
