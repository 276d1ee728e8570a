package room

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui/common"
)

func question(key string) Ask {
	return Ask{
		Item:    common.RoomItem{Kind: common.RoomQuestion, Key: key, Question: strings.TrimPrefix(key, "question:")},
		Title:   "Question " + key,
		Stem:    "Which layer?",
		Options: []string{"protocol", "execution", "both", "neither"},
		Labels:  []string{"A", "B", "C", "D"},
		Correct: []int{1},
	}
}

func newHub(t *testing.T, dir string) *Hub {
	t.Helper()
	h, err := New(Config{Dir: dir, Listen: "127.0.0.1:2222"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

func join(t *testing.T, h *Hub, name string) *Member {
	t.Helper()
	m, err := h.Join(name, Student, "127.0.0.1:5000")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A changed answer replaces the earlier one: the tally counts each
// student once per question, and the answer is closed by the reveal.
func TestAnswerCountsOnceAndReplaces(t *testing.T) {
	h := newHub(t, "")
	ann, bo := join(t, h, "ann"), join(t, h, "bo")
	if err := ann.Room().Answer("question:q1", []int{0}); !errors.Is(err, ErrNotAsked) {
		t.Fatalf("answer before the question was sent: %v, want ErrNotAsked", err)
	}
	if err := h.Send(question("question:q1")); err != nil {
		t.Fatal(err)
	}
	must(t, ann.Room().Answer("question:q1", []int{0}))
	must(t, ann.Room().Answer("question:q1", []int{0})) // the same again: nothing changes
	must(t, ann.Room().Answer("question:q1", []int{1})) // changed: replaces
	must(t, bo.Room().Answer("question:q1", []int{1}))
	counts, n := h.Tally("question:q1")
	if !slices.Equal(counts, []int{0, 2, 0, 0}) || n != 2 {
		t.Fatalf("tally = %v (%d answered), want [0 2 0 0] from 2", counts, n)
	}
	if got := ann.Room().Answered("question:q1"); !slices.Equal(got, []int{1}) {
		t.Errorf("ann's answer = %v, want [1]", got)
	}
	snap := h.Snapshot()
	if snap.Members[0].Name != "ann" || snap.Members[0].Changes != 1 {
		t.Errorf("ann's row = %+v, want one change", snap.Members[0])
	}
	for _, bad := range [][]int{nil, {4}, {-1}, {0, 1}} {
		if err := bo.Room().Answer("question:q1", bad); !errors.Is(err, ErrChoice) {
			t.Errorf("answer %v: %v, want ErrChoice", bad, err)
		}
	}
	must(t, h.Reveal())
	if err := bo.Room().Answer("question:q1", []int{2}); !errors.Is(err, ErrRevealed) {
		t.Errorf("answer after the reveal: %v, want ErrRevealed", err)
	}
	if err := h.Reveal(); err == nil {
		t.Error("a second reveal was accepted")
	}
	it, _ := h.Current()
	if !it.Revealed {
		t.Error("the current item is not marked revealed")
	}
}

// Students in their own goroutines answer and change their answers at
// once: every student is counted exactly once, with their last answer.
func TestConcurrentAnswers(t *testing.T) {
	h := newHub(t, t.TempDir())
	must(t, h.Send(question("question:q1")))
	ch, stop := h.Watch()
	defer stop()
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		m := join(t, h, fmt.Sprintf("s%02d", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := m.Room()
			for k := range 10 {
				_ = r.Answer("question:q1", []int{(i + k) % 4})
				r.Where(fmt.Sprintf("Lab › step %d", k))
				_ = h.Snapshot()
			}
			must(t, r.Answer("question:q1", []int{i % 4}))
		}()
	}
	wg.Wait()
	counts, answered := h.Tally("question:q1")
	if answered != n || !slices.Equal(counts, []int{10, 10, 10, 10}) {
		t.Fatalf("tally = %v (%d answered), want 10 each from %d", counts, answered, n)
	}
	select {
	case <-ch:
	default:
		t.Error("the dashboard heard of no change")
	}
}

// Every student's program hears the teacher's moves, in order by Seq.
func TestSendReachesStudents(t *testing.T) {
	h := newHub(t, "")
	got := make(chan common.RoomMsg, 10)
	m := join(t, h, "ann")
	m.Attach(func(msg tea.Msg) { got <- msg.(common.RoomMsg) })
	teacher, _ := h.Join("tea", Teacher, "local")
	teacher.Attach(func(tea.Msg) { t.Error("the teacher got a room message") })
	must(t, h.Send(question("question:q1")))
	first := <-got
	must(t, h.Reveal())
	second := <-got
	if first.Item.Key != "question:q1" || first.Item.Revealed || !second.Item.Revealed || second.Item.Seq <= first.Item.Seq {
		t.Fatalf("messages %+v then %+v", first, second)
	}
	// Sent again after the reveal, the item is a new poll: open, with a
	// round of its own (TestEverySendIsANewPoll has the rest).
	must(t, h.Send(Ask{Item: common.RoomItem{Kind: common.RoomStep, Walkthrough: "w", Step: 1}, Title: "step 2"}))
	<-got
	must(t, h.Send(question("question:q1")))
	if third := <-got; third.Item.Revealed || third.Item.Round == first.Item.Round {
		t.Errorf("a revealed question sent again came back revealed, or as the same poll: %+v", third.Item)
	}
	m.Leave("left", "")
	m.Leave("left", "") // twice: once in the log
	left := 0
	for _, e := range h.Snapshot().Events {
		if e.Kind == "left" {
			left++
		}
	}
	if left != 1 {
		t.Errorf("%d left events, want 1", left)
	}
}

// A reconnect under the same name keeps the student's answers; a crash
// is logged and counted.
func TestReconnectKeepsAnswers(t *testing.T) {
	h := newHub(t, "")
	must(t, h.Send(question("question:q1")))
	m := join(t, h, "ann")
	must(t, m.Room().Answer("question:q1", []int{3}))
	m.Leave("crashed", "runtime error: index out of range \x1b[31m")
	again := join(t, h, "ann")
	if got := again.Room().Answered("question:q1"); !slices.Equal(got, []int{3}) {
		t.Fatalf("after a reconnect the answer is %v, want [3]", got)
	}
	rec := h.Record()
	if rec.Students[0].Sessions != 2 || rec.Students[0].Crashes != 1 {
		t.Errorf("student record %+v, want 2 sessions and 1 crash", rec.Students[0])
	}
	var crash string
	for _, e := range h.Snapshot().Events {
		if e.Kind == "crashed" {
			crash = e.Text
		}
	}
	if !strings.Contains(crash, "ann") || strings.ContainsRune(crash, 0x1b) {
		t.Errorf("crash event %q: want ann named and no escape byte", crash)
	}
}

// The record is kept on disk as the class goes, and exports as
// Markdown and JSON with every answer by student and the tally.
func TestRecordOnDiskAndExport(t *testing.T) {
	dir := t.TempDir()
	h := newHub(t, dir)
	must(t, h.Send(question("question:q1")))
	for i, name := range []string{"ann", "bo", "cy"} {
		must(t, join(t, h, name).Room().Answer("question:q1", []int{min(i, 1)}))
	}
	must(t, h.Reveal())
	must(t, h.Close())
	rec, err := ReadRecord(dir, "")
	must(t, err)
	if len(rec.Questions) != 1 || rec.Questions[0].Answered != 3 || rec.Questions[0].Options[1].Count != 2 || !rec.Questions[0].Options[1].Correct {
		t.Fatalf("record read back: %+v", rec.Questions)
	}
	var md bytes.Buffer
	must(t, rec.WriteMarkdown(&md))
	for _, want := range []string{"| ✓ B | execution | 2 |", "| ann | A | ✗ | 0 |", "| bo | B | ✓ | 0 |", "3 of 3 answered · revealed", "| cy | B ✓ | 1 of 1 |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md.String())
		}
	}
	mdPath, jsPath, err := h.Export(filepath.Join(dir, "exports"))
	must(t, err)
	for _, p := range []string{mdPath, jsPath} {
		st, err := os.Stat(p)
		must(t, err)
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, st.Mode().Perm())
		}
	}
	if _, err := ReadRecord(dir, "../../etc/passwd"); err == nil || !strings.Contains(err.Error(), "not a session id") {
		t.Errorf("a path as a session id: %v", err)
	}
	if _, err := ReadRecord(t.TempDir(), ""); !errors.Is(err, ErrNoSessions) {
		t.Errorf("an empty folder: %v, want ErrNoSessions", err)
	}
}

func TestWatchEndsWithTheRoom(t *testing.T) {
	h := newHub(t, "")
	ch, _ := h.Watch()
	must(t, h.Close())
	select {
	case _, ok := <-ch:
		for ok {
			_, ok = <-ch
		}
	case <-time.After(time.Second):
		t.Fatal("the watch channel was not closed with the room")
	}
	if msg := WaitChange(ch)(); msg != nil {
		t.Errorf("WaitChange after close = %v, want nil", msg)
	}
	if _, err := h.Join("late", Student, ""); !errors.Is(err, ErrClosed) {
		t.Errorf("join after close: %v", err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
