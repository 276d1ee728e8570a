package scenario

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"
)

// pollRoom is a class with one open lab poll whose first answer counts,
// as the classroom's hub keeps it.
type pollRoom struct {
	key    string
	answer []int
}

func (r *pollRoom) Student() string                  { return "ana" }
func (r *pollRoom) Current() (common.RoomItem, bool) { return common.RoomItem{}, false }
func (r *pollRoom) Answered(key string) []int        { return r.Poll(key).Answer }
func (r *pollRoom) Where(string)                     {}
func (r *pollRoom) Answer(key string, c []int) error {
	switch {
	case key != r.key:
		return errors.New("not asked")
	case r.answer != nil && !slices.Equal(r.answer, c):
		return errors.New("your first choice is your answer in this poll")
	}
	r.answer = slices.Clone(c)
	return nil
}
func (r *pollRoom) Poll(key string) common.Poll {
	if key != r.key {
		return common.Poll{}
	}
	return common.Poll{Round: 1, FirstCounts: true, Answer: slices.Clone(r.answer)}
}

// Two digits that arrive together (one SSH packet, split into two keys
// by common.EachKey) answer a class poll with the first: the choice is
// taken as the key is read, not by a command Bubble Tea may run after
// the second key's.
func TestPollBurstTakesTheFirstDigit(t *testing.T) {
	m := openTimeout(t)
	r := &pollRoom{key: common.ScenarioKey(uitest.TimeoutID)}
	m.c.Room = r
	m = drive(m, uitest.Press("enter"))
	if !m.hasResponse() {
		t.Fatal("the call made no response")
	}
	_, first := m.Update(uitest.Press("1"))
	_, second := m.Update(uitest.Press("2"))
	// Bubble Tea runs a batch's commands at once: the second key's may
	// finish first.
	runAll(m, second)
	runAll(m, first)
	if !slices.Equal(r.answer, []int{0}) {
		t.Fatalf("the poll's answer is %v, want [0] (the first digit, 1)", r.answer)
	}
	if m.polled != rules.Actions[0] || !strings.Contains(m.c.Status().Text, "your choice 1 ") {
		t.Errorf("the screen shows %q as the choice; status %q", m.polled, m.c.Status().Text)
	}
	if m.verdict != nil {
		t.Error("a verdict shows before the teacher's reveal")
	}
}

// runAll runs cmd's message (if any) through the screen.
func runAll(m *Model, cmd tea.Cmd) {
	if cmd != nil {
		drive(m, cmd())
	}
}
