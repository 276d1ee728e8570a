package room

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
)

// Each send of a question is a poll of its own: open again after a
// reveal, with its own answers and tally, counted in Asked, and its own
// entry in the record.
func TestEverySendIsANewPoll(t *testing.T) {
	dir := t.TempDir()
	h := newHub(t, dir)
	ann, bo := join(t, h, "ann"), join(t, h, "bo")
	const key = "question:q1"
	if h.Asked(key) != 0 {
		t.Fatal("asked before it was sent")
	}
	must(t, h.Send(question(key)))
	must(t, ann.Room().Answer(key, []int{0}))
	must(t, bo.Room().Answer(key, []int{1}))
	must(t, h.Reveal())
	must(t, h.Send(question(key)))
	it, _ := h.Current()
	if it.Revealed || it.Round != 2 {
		t.Fatalf("asked again: %+v, want an open poll, round 2", it)
	}
	if got := ann.Room().Answered(key); got != nil {
		t.Fatalf("ann's answer to the new poll is %v before she answered it", got)
	}
	must(t, ann.Room().Answer(key, []int{1}))
	if counts, n := h.Tally(key); n != 1 || !slices.Equal(counts, []int{0, 1, 0, 0}) {
		t.Fatalf("the new poll's tally is %v from %d, want B once", counts, n)
	}
	must(t, h.Send(question(key)))
	if h.Asked(key) != 3 {
		t.Errorf("Asked = %d after three sends", h.Asked(key))
	}
	snap := h.Snapshot()
	if snap.Ask.Time != 3 || snap.Ask.Answered != 0 {
		t.Errorf("the third poll on the dashboard: time %d, %d answered", snap.Ask.Time, snap.Ask.Answered)
	}
	must(t, h.Close())
	rec, err := ReadRecord(dir, "")
	must(t, err)
	if len(rec.Questions) != 3 {
		t.Fatalf("the record has %d entries for three sends", len(rec.Questions))
	}
	for i, want := range []int{2, 1, 0} {
		q := rec.Questions[i]
		if q.Round != i+1 || q.Time != i+1 || q.Answered != want || len(q.Answers) != want {
			t.Errorf("entry %d: round %d, time %d, %d answered (%d answers), want round and time %d, %d answered", i, q.Round, q.Time, q.Answered, len(q.Answers), i+1, want)
		}
	}
	if !rec.Questions[0].Revealed || rec.Questions[1].Revealed {
		t.Error("the reveal of the first poll leaked into the second")
	}
}

// A lab scenario's poll: the first choice is the answer (a later one is
// refused and the tally shows the first), and the room grades with
// sim/rules: the lab's acceptable move is ◑ acceptable on the dashboard
// and in the record, not wrong.
func TestScenarioPollFirstCountsAndGrades(t *testing.T) {
	cat, err := scenarios.Default()
	must(t, err)
	sc, ok := cat.Get("staff-record-denied")
	if !ok {
		t.Skip("no staff-record-denied scenario")
	}
	truth := sc.TruthAt(sc.Revision())
	if len(truth.Acceptable) == 0 {
		t.Fatal("staff-record-denied has no acceptable move")
	}
	acceptable := common.ActionIndex(truth.Acceptable[0])
	best := common.ActionIndex(truth.Best)
	h := newHub(t, "")
	ann, bo := join(t, h, "ann"), join(t, h, "bo")
	a := AskScenario(sc)
	must(t, h.Send(a))
	key := a.Item.Key
	must(t, ann.Room().Answer(key, []int{acceptable}))
	if err := ann.Room().Answer(key, []int{best}); !errors.Is(err, ErrFirstCounts) {
		t.Fatalf("a second choice: %v, want ErrFirstCounts", err)
	}
	wrong := slices.IndexFunc(a.Grades, func(g rules.Grade) bool { return g == rules.GradeWrong })
	must(t, bo.Room().Answer(key, []int{wrong}))
	if counts, _ := h.Tally(key); counts[acceptable] != 1 || counts[best] != 0 {
		t.Errorf("the tally %v does not show ann's first choice", counts)
	}
	if p := ann.Room().Poll(key); !p.Open() || !p.FirstCounts || !slices.Equal(p.Answer, []int{acceptable}) || p.RevealText != "" {
		t.Errorf("ann's poll before the reveal: %+v", p)
	}
	grades := map[string]rules.Grade{}
	for _, m := range h.Snapshot().Members {
		grades[m.Name] = m.Grade
	}
	if grades["ann"] != rules.GradeAcceptable || grades["bo"] != rules.GradeWrong {
		t.Errorf("the dashboard's grades: %v, want ann acceptable, bo wrong", grades)
	}
	must(t, h.Reveal())
	if p := ann.Room().Poll(key); p.Open() || !strings.Contains(p.RevealText, sc.Title) {
		t.Errorf("after the reveal the poll is %+v; its text should name the scenario", p)
	}
	for _, q := range h.Record().Questions {
		for _, ar := range q.Answers {
			if ar.Student == "ann" && (ar.Grade != "acceptable" || !ar.Correct) {
				t.Errorf("ann's acceptable answer is recorded as %+v", ar)
			}
			if ar.Student == "bo" && (ar.Grade != "wrong" || ar.Correct) {
				t.Errorf("bo's wrong answer is recorded as %+v", ar)
			}
		}
	}
}

// "N of M answered" counts against the students connected while the
// poll was open, and those who answered: not against everyone ever
// seen, nor only those connected now.
func TestAnsweredCountsAgainstThoseThere(t *testing.T) {
	h := newHub(t, "")
	yan := join(t, h, "yan")
	yan.Leave("left", "") // came and went before any question
	ana, bob := join(t, h, "ana"), join(t, h, "bob")
	const key = "question:q1"
	must(t, h.Send(question(key)))
	must(t, ana.Room().Answer(key, []int{1}))
	must(t, bob.Room().Answer(key, []int{0}))
	bob.Leave("left", "") // his ssh was killed
	if a := h.Snapshot().Ask; a.Answered != 2 || a.Eligible != 2 {
		t.Fatalf("after bob left: %d of %d, want 2 of 2", a.Answered, a.Eligible)
	}
	join(t, h, "cy") // comes while it is open: counts
	if a := h.Snapshot().Ask; a.Eligible != 3 {
		t.Fatalf("cy joined while it was open: of %d, want 3", a.Eligible)
	}
	must(t, h.Reveal())
	join(t, h, "dan") // after the reveal: does not
	if a := h.Snapshot().Ask; a.Eligible != 3 {
		t.Fatalf("dan joined after the reveal: of %d, want 3", a.Eligible)
	}
	rec := h.Record()
	if got := rec.Questions[0].Present; !slices.Equal(got, []string{"ana", "bob", "cy"}) {
		t.Errorf("the record counts against %v", got)
	}
	var md strings.Builder
	must(t, rec.WriteMarkdown(&md))
	for _, want := range []string{"2 of 3 answered", "| yan | · | 0 of 0 |", "| cy | — | 0 of 1 |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md.String())
		}
	}
}

// Freeing the room reaches every student's screen (a walkthrough in
// class mode lets go); the room is then on no item.
func TestClearReachesStudents(t *testing.T) {
	h := newHub(t, "")
	got := make(chan common.RoomMsg, 4)
	m := join(t, h, "ann")
	m.Attach(func(msg tea.Msg) { got <- msg.(common.RoomMsg) })
	must(t, h.Send(Ask{Item: common.RoomItem{Kind: common.RoomStep, Walkthrough: "w", Step: 2}, Title: "step 3"}))
	step := <-got
	h.Clear()
	select {
	case free := <-got:
		if free.Item.Kind != common.RoomFree || free.Item.Seq <= step.Item.Seq {
			t.Fatalf("the room freed sent %+v", free.Item)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("freeing the room sent the students nothing")
	}
	if _, ok := h.Current(); ok {
		t.Error("a freed room is still on an item")
	}
}

// The dashboard's idle column and the idle timeout read one clock: the
// member's last key, by the room's clock.
func TestIdleIsTheRoomsClock(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2025, 1, 31, 14, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	h, err := New(Config{Now: clock})
	must(t, err)
	defer h.Close()
	m := join(t, h, "ann")
	mu.Lock()
	now = now.Add(20 * time.Second)
	mu.Unlock()
	if got := h.Snapshot().Members[0].Idle; got != 20*time.Second || m.Idle() != got {
		t.Fatalf("idle %v on the dashboard, %v for the timeout; want 20s both", got, m.Idle())
	}
	m.Touch()
	if got := h.Snapshot().Members[0].Idle; got != 0 || m.Idle() != 0 {
		t.Fatalf("after a key: idle %v and %v, want 0", got, m.Idle())
	}
}

// A session file is data anyone who can write the state directory could
// have edited: its session id cannot move the export out of its folder,
// and a name with escape codes is mapped as a live one is.
func TestTamperedRecordIsCleaned(t *testing.T) {
	dir := t.TempDir()
	sd := filepath.Join(dir, "sessions")
	must(t, os.MkdirAll(sd, 0o700))
	bad := `{"version":2,"session":"../../../etc/x","started":"2025-01-31T14:00:00Z","updated":"2025-01-31T14:00:00Z",
"students":[{"name":"zo\u001b]0;pwned\u0007\u001b[2J","firstSeen":"2025-01-31T14:00:00Z","sessions":1}],
"questions":[{"key":"question:q1\u001b[31m","round":1,"time":1,"kind":"question","title":"Q\u001b[2J","options":[{"label":"A","text":"x\u001b[5m","correct":true,"count":1}],
"revealed":true,"asked":"2025-01-31T14:00:00Z","answered":1,"present":["zo\u001b]0;pwned\u0007\u001b[2J"],
"answers":[{"student":"zo\u001b]0;pwned\u0007\u001b[2J","choice":["A"],"grade":"best","correct":true,"at":"2025-01-31T14:00:00Z"}]}]}`
	must(t, os.WriteFile(filepath.Join(sd, "20250131-140000.json"), []byte(bad), 0o600))
	rec, err := ReadRecord(dir, "")
	must(t, err)
	if rec.Session != "20250131-140000" {
		t.Errorf("the session id read back is %q, want the file's name", rec.Session)
	}
	out := filepath.Join(t.TempDir(), "out")
	md, js, err := rec.Export(out)
	must(t, err)
	for _, p := range []string{md, js} {
		if filepath.Dir(p) != out {
			t.Errorf("the export wrote %s, outside %s", p, out)
		}
	}
	var b strings.Builder
	must(t, rec.WriteMarkdown(&b))
	if strings.ContainsRune(b.String(), 0x1b) || strings.ContainsRune(b.String(), 0x07) {
		t.Errorf("the Markdown carries control characters from the file:\n%q", b.String())
	}
	if safe, _ := SafeName("zo\x1b]0;pwned\x07\x1b[2J"); rec.Students[0].Name != safe || rec.Questions[0].Answers[0].Student != safe {
		t.Errorf("the name read back is %q, want it mapped to %q", rec.Students[0].Name, safe)
	}
}
