package quiz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
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
		"Carried over: 2 lab scenarios, 1 question or drill answered, 1 mock exam.\nLeft out:\n",
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

// writtenProgress is a progress file as errorlab writes it (indented,
// one field a line): two lab scenarios, ten answer records and three
// mock exams with their questions, answers and flags.
func writtenProgress(t *testing.T) (*Progress, []byte) {
	t.Helper()
	p := newProgress()
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	yes := true
	p.Scenarios["timeout-second-try"] = ScenarioRecord{Solved: true, FirstCorrect: &yes, Attempts: 1, At: at}
	p.Scenarios["refund-past-return-window"] = ScenarioRecord{Attempts: 2, At: at}
	for i := range 10 {
		p.Items[fmt.Sprintf("layers-q%02d", i)] = ItemRecord{Topic: "layers", Box: 1 + i%3, Streak: i % 2, Right: i, Wrong: 1, LastAt: at.Add(time.Duration(i) * time.Minute), LastRes: i%2 == 0}
	}
	for i := range 3 {
		p.Exams = append(p.Exams, ExamRecord{At: at.AddDate(0, 0, i+1), Questions: 3, Correct: 2, PassMark: 0.7, Seconds: 100, ByTopic: map[string][2]int{"layers": {2, 3}},
			Missed: []string{"layers-q01"}, Items: []string{"layers-q00", "layers-q01", "layers-q02"}, Answers: []Answer{{{0}}, {{1}}, {{2}}}, Flags: []bool{false, true, false}, Limit: 300, Seed: 7})
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return p, append(data, '\n')
}

// openWith writes body as the progress file in a new directory and
// opens it, checking the original is kept aside byte for byte.
func openWith(t *testing.T, body []byte) (*Store, *Progress) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), body, 0o644); err != nil {
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
	if kept, err := os.ReadFile(s.KeptAs); err != nil || !bytes.Equal(kept, body) {
		t.Errorf("the original is not kept aside byte for byte as %q: %v", s.KeptAs, err)
	}
	return s, p
}

// lineOf is the line of data holding s, counting from 1.
func lineOf(t *testing.T, data []byte, s string) int {
	t.Helper()
	i := bytes.Index(data, []byte(s))
	if i < 0 {
		t.Fatalf("%q is not in the file", s)
	}
	return 1 + bytes.Count(data[:i], []byte("\n"))
}

// TestSchemaVersionAsTextIsStillErrorlabs: "schemaVersion": "1" no
// longer throws the whole file away as not errorlab's. Everything is
// carried over, the notice says the version was text and was read as
// 1, and the new file has it as a number.
func TestSchemaVersionAsTextIsStillErrorlabs(t *testing.T) {
	want, good := writtenProgress(t)
	body := bytes.Replace(good, []byte(`"schemaVersion": 1`), []byte(`"schemaVersion": "1"`), 1)
	s, p := openWith(t, body)
	if len(p.Scenarios) != 2 || len(p.Items) != 10 || len(p.Exams) != 3 || !reflect.DeepEqual(p.Items, want.Items) {
		t.Errorf("not everything was carried over: %d scenarios, %d items, %d exams", len(p.Scenarios), len(p.Items), len(p.Exams))
	}
	for _, bad := range []string{"not an errorlab progress file", "fresh one", "Left out"} {
		if strings.Contains(s.Notice, bad) {
			t.Errorf("the notice says %q:\n%s", bad, s.Notice)
		}
	}
	for _, w := range []string{
		"Your progress file needed 1 repair.",
		"Carried over: 2 lab scenarios, 10 questions and drills answered, 3 mock exams.",
		`its schemaVersion (line 2): it holds the text "1" where progress keeps a number; read as version 1`,
	} {
		if !strings.Contains(s.Notice, w) {
			t.Errorf("the notice lacks %q:\n%s", w, s.Notice)
		}
	}
	if now, _ := os.ReadFile(s.Path()); !bytes.Contains(now, []byte(`"schemaVersion": 1,`)) {
		t.Errorf("the new file does not have the version as a number:\n%.80s", now)
	}
	// With no schemaVersion at all, errorlab's own sections still say whose it is.
	s, p = openWith(t, bytes.Replace(good, []byte(`"schemaVersion": 1,`), nil, 1))
	if len(p.Items) != 10 || len(p.Exams) != 3 || !strings.Contains(s.Notice, `it has no schemaVersion, but its other fields ("scenarios", "items", "exams") are errorlab's; read as version 1`) {
		t.Errorf("no schemaVersion: %d items, %d exams; notice:\n%s", len(p.Items), len(p.Exams), s.Notice)
	}
}

// TestCutFileKeepsEveryCompleteRecord: a file cut off part-way (a crash,
// a full disk, `head -c`) keeps every record complete before the cut;
// the notice says how many were carried over, where the file ends and
// that the rest was cut off.
func TestCutFileKeepsEveryCompleteRecord(t *testing.T) {
	want, good := writtenProgress(t)
	cut := bytes.Index(good, []byte(`"layers-q09"`)) + 40 // inside the tenth answer record
	s, p := openWith(t, good[:cut])
	if len(p.Scenarios) != 2 || len(p.Items) != 9 || len(p.Exams) != 0 {
		t.Fatalf("want the 2 scenarios and the 9 answer records before the cut, got %d, %d (and %d exams)", len(p.Scenarios), len(p.Items), len(p.Exams))
	}
	for id, r := range p.Items {
		if want.Items[id] != r {
			t.Errorf("%s carried over as %+v, want %+v", id, r, want.Items[id])
		}
	}
	for _, w := range []string{
		fmt.Sprintf("Your progress file ends part-way at line %d (truncated", 1+bytes.Count(good[:cut], []byte("\n"))),
		"Carried over: 2 lab scenarios, 9 questions and drills answered.",
		"every record complete before that point was carried over; what came after it is not in the new file",
	} {
		if !strings.Contains(s.Notice, w) {
			t.Errorf("the notice lacks %q:\n%s", w, s.Notice)
		}
	}
	if strings.Contains(s.Notice, "fresh one") {
		t.Errorf("the notice says a fresh one was started:\n%s", s.Notice)
	}
	// Cut in half, as the learner did: what was whole before the half is kept.
	_, p = openWith(t, good[:len(good)/2])
	if len(p.Scenarios) != 2 || len(p.Items) == 0 {
		t.Errorf("cut in half: %d scenarios and %d answer records carried over", len(p.Scenarios), len(p.Items))
	}
}

// TestBadValueInAnExamCostsOnlyThatValue: a flag that is not true or
// false is cleared, a score that is not a number is recounted from the
// answers, and the exam stays; the notice says what was repaired, on
// the line of the bad value, not of the exam's brace.
func TestBadValueInAnExamCostsOnlyThatValue(t *testing.T) {
	_, good := writtenProgress(t)
	body := bytes.Replace(good, []byte(`"correct": 2,`), []byte(`"correct": "0",`), 1)
	// The second flag of the second exam: "yes".
	second := bytes.Index(body, []byte(`"at": "2026-05-03`))
	flags := second + bytes.Index(body[second:], []byte(`"flags": [`))
	flag := flags + bytes.Index(body[flags:], []byte("true"))
	body = slices.Concat(body[:flag], []byte(`"yes"`), body[flag+len("true"):])
	s, p := openWith(t, body)
	if len(p.Exams) != 3 {
		t.Fatalf("want the 3 exams kept, got %d; notice:\n%s", len(p.Exams), s.Notice)
	}
	if p.Exams[0].Correct != 2 || p.Exams[0].Questions != 3 {
		t.Errorf("the score was not recounted: %d of %d", p.Exams[0].Correct, p.Exams[0].Questions)
	}
	if !slices.Equal(p.Exams[1].Flags, []bool{false, false, false}) || len(p.Exams[1].Items) != 3 {
		t.Errorf("the bad flag was not cleared alone: flags %v, items %v", p.Exams[1].Flags, p.Exams[1].Items)
	}
	for _, w := range []string{
		"Your progress file needed 2 repairs.",
		"Carried over: 2 lab scenarios, 10 questions and drills answered, 3 mock exams.",
		fmt.Sprintf(`the mock exam of 2026-05-02 10:00 UTC (line %d): the field "correct" holds a string where progress keeps a number; recounted from its answers as 2 of 3`, lineOf(t, body, `"correct": "0"`)),
		fmt.Sprintf(`the mock exam of 2026-05-03 10:00 UTC (line %d): the flag of its question 2 holds a string where progress keeps true or false; that flag was cleared`, lineOf(t, body, `"yes"`)),
	} {
		if !strings.Contains(s.Notice, w) {
			t.Errorf("the notice lacks %q:\n%s", w, s.Notice)
		}
	}
	if strings.Contains(s.Notice, "Left out") {
		t.Errorf("something was left out:\n%s", s.Notice)
	}
}

// TestLeftOutRecordNamesTheLineOfItsBadField: an answer record written
// over several lines is named by the line of its bad field.
func TestLeftOutRecordNamesTheLineOfItsBadField(t *testing.T) {
	_, good := writtenProgress(t)
	body := bytes.Replace(good, []byte(`"box": 3,`), []byte(`"box": "three",`), 1)
	s, p := openWith(t, body)
	if len(p.Items) != 9 {
		t.Errorf("want 9 answer records kept, got %d", len(p.Items))
	}
	w := fmt.Sprintf(`the answers to one question or drill (line %d): the field "box" holds a string`, lineOf(t, body, `"three"`))
	if !strings.Contains(s.Notice, w) {
		t.Errorf("the notice lacks %q:\n%s", w, s.Notice)
	}
}
