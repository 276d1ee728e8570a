package quiz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A progress file as a learner might have it after editing one field by
// hand: two lab scenarios, three answer records (one whose box is text,
// one on a topic errorlab does not have), and two exams (the second
// scored on a topic that does not exist).
const partlyBadProgress = `{
  "schemaVersion": 1,
  "scenarios": {
    "timeout-second-try": {"solved": true, "firstCorrect": true, "attempts": 1, "at": "2026-05-01T10:00:00Z"},
    "refund-past-return-window": {"solved": false, "attempts": 2, "at": "2026-05-01T10:05:00Z"}
  },
  "items": {
    "layers-secret-one": {"topic": "layers", "box": 2, "streak": 1, "right": 1, "wrong": 0, "lastAt": "2026-05-01T11:00:00Z", "lastCorrect": true},
    "layers-secret-two": {"topic": "layers", "box": "three", "streak": 1, "right": 1, "wrong": 0, "lastAt": "2026-05-01T11:01:00Z", "lastCorrect": true},
    "made-up-secret": {"topic": "astrology", "box": 1, "streak": 0, "right": 0, "wrong": 1, "lastAt": "2026-05-01T11:02:00Z", "lastCorrect": false}
  },
  "exams": [
    {"at": "2026-05-02T09:00:00Z", "questions": 3, "correct": 2, "passMark": 0.7, "passed": false, "seconds": 120, "byTopic": {"layers": [2, 3]}},
    {"at": "2026-05-03T09:00:00Z", "questions": 3, "correct": 3, "passMark": 0.7, "passed": true, "seconds": 100, "byTopic": {"astrology": [3, 3]}}
  ]
}
`

// TestPartlyBadFileKeepsWhatIsValid: one bad field no longer costs the
// learner everything. The file is kept aside byte for byte, every record
// that still reads is carried over into a new progress.json, and the
// notice names each part left out (where it is in the file and why),
// what was carried over and where the original is, without the question
// ids (they can give answers away).
func TestPartlyBadFileKeepsWhatIsValid(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte(partlyBadProgress), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if !s.Solved("timeout-second-try") || p.Scenarios["refund-past-return-window"].Attempts != 2 {
		t.Errorf("the lab scenarios were not carried over: %+v", p.Scenarios)
	}
	if r, ok := p.Items["layers-secret-one"]; !ok || r.Box != 2 || r.Right != 1 {
		t.Errorf("the valid answer record was not carried over: %+v", p.Items)
	}
	if len(p.Items) != 1 {
		t.Errorf("want only the valid answer record, got %+v", p.Items)
	}
	if len(p.Exams) != 1 || p.Exams[0].Correct != 2 {
		t.Errorf("want the valid exam carried over, got %+v", p.Exams)
	}
	aside, _ := filepath.Glob(filepath.Join(dir, FileName+".corrupt-*"))
	if len(aside) != 1 || s.KeptAs != aside[0] {
		t.Fatalf("want the original kept aside once, as KeptAs %q; found %v", s.KeptAs, aside)
	}
	if kept, _ := os.ReadFile(aside[0]); string(kept) != partlyBadProgress {
		t.Errorf("the original was not kept byte for byte:\n%s", kept)
	}
	if len(s.Dropped) != 3 {
		t.Errorf("want 3 parts dropped, got %q", s.Dropped)
	}
	for _, want := range []string{
		"3 parts that could not be read",
		`the answers to one question or drill (line 9): the field "box" holds a string where progress keeps a number`,
		`the answers to one question or drill (line 10): its topic "astrology" is not one of errorlab's topics`,
		`the mock exam of 2026-05-03 09:00 UTC (line 14): its score by topic names "astrology"`,
		"Carried over: 2 lab scenarios, 1 question or drill answered, 1 mock exam. Left out:\n",
		"kept, unchanged, as:\n  " + aside[0] + "\n",
		"rename it back to progress.json",
	} {
		if !strings.Contains(s.Notice, want) {
			t.Errorf("the notice lacks %q:\n%s", want, s.Notice)
		}
	}
	if strings.Contains(s.Notice, "secret") {
		t.Errorf("the notice shows a question id:\n%s", s.Notice)
	}
	// What was carried over is on disk: the next errorlab finds it, with
	// nothing left to drop.
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if again.Notice != "" || !again.Solved("timeout-second-try") {
		t.Errorf("reopening: notice %q, solved %v", again.Notice, again.Solved("timeout-second-try"))
	}
	// The report changes nothing and names the parts too.
	if err := os.WriteFile(path, []byte(partlyBadProgress), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadProgress(dir); err == nil || !strings.Contains(err.Error(), "Nothing was changed") || !strings.Contains(err.Error(), "carries over everything else") || !strings.Contains(err.Error(), `"astrology"`) {
		t.Errorf("report: %v", err)
	}
}

// TestPartlyBadWhileRunningKeepsWhatIsValid: a file damaged in one field
// while errorlab runs is handled the same way on the next save: the
// answer just given and everything still valid are kept.
func TestPartlyBadWhileRunningKeepsWhatIsValid(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(partlyBadProgress), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkSolved("unknown-tool-name"); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Load()
	if !p.Scenarios["unknown-tool-name"].Solved || !p.Scenarios["timeout-second-try"].Solved || len(p.Exams) != 1 {
		t.Errorf("after the save: %+v, %d exams", p.Scenarios, len(p.Exams))
	}
	if len(s.Dropped) != 3 || !strings.Contains(s.Notice, s.KeptAs) || s.KeptAs == "" {
		t.Errorf("notice %q, dropped %q", s.Notice, s.Dropped)
	}
}

// TestSectionOfTheWrongKindIsDroppedAlone: a whole collection of the
// wrong kind goes, the others stay.
func TestSectionOfTheWrongKindIsDroppedAlone(t *testing.T) {
	dir := t.TempDir()
	body := `{"schemaVersion": 1, "scenarios": {"timeout-second-try": {"solved": true, "attempts": 1}}, "items": [1, 2], "exams": [null]}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Solved("timeout-second-try") {
		t.Error("the valid scenarios were not carried over")
	}
	for _, want := range []string{
		`every answer to a question or drill (line 1): the field "items" holds an array where progress keeps an object`,
		"mock exam #1 (line 1): it holds null where progress keeps an object",
	} {
		if !strings.Contains(s.Notice, want) {
			t.Errorf("the notice lacks %q:\n%s", want, s.Notice)
		}
	}
}
