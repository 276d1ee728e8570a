package common

import (
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/rules"
)

// Room is the class a session belongs to (`errorlab classroom`: one
// student's SSH session); nil outside a class. The classroom server
// implements it over the room's shared state; every method is safe for
// concurrent use and quick (no disk or network I/O on the caller's
// goroutine).
type Room interface {
	// Student is the student's name as the teacher sees it (letters,
	// digits, '.', '_' and '-' only).
	Student() string
	// Current is the item the teacher has sent the room to, with whether
	// its answer is revealed; ok is false when there is none.
	Current() (item RoomItem, ok bool)
	// Answer records the student's answer to the room's question key: the
	// chosen options' indexes (0-based). A later answer replaces the
	// earlier one, so the tally counts each student once per question.
	// The error says why it was not taken: the teacher has revealed the
	// answer, the room was never asked key, or an option is out of range.
	Answer(key string, choice []int) error
	// Answered is the student's current answer to key (nil: none yet).
	Answered(key string) []int
	// Poll is where the room's latest poll of key stands for this
	// student (the zero Poll: key was never asked).
	Poll(key string) Poll
	// Where tells the teacher which screen the student is on (the
	// breadcrumb: "Lab › refund-past-return-window").
	Where(crumb string)
}

// Poll is one sending of a room item that asks, as a student's screen
// sees it (Room.Poll).
type Poll struct {
	// Round numbers the poll in the class (0: key was never asked).
	Round int
	// Revealed: the teacher has shown the answer; answers are closed.
	// RevealText is then the answer's words (a scenario's best move).
	Revealed   bool
	RevealText string
	// FirstCounts: the student's first choice is their answer (a lab
	// scenario's poll); a question's answer may change until the reveal.
	FirstCounts bool
	// Answer is the student's answer (nil: none yet).
	Answer []int
}

// Open reports whether the poll takes answers: asked, not revealed.
func (p Poll) Open() bool { return p.Round > 0 && !p.Revealed }

// RoomKind is what the teacher sent the room to.
type RoomKind string

// The kinds of room item.
const (
	// RoomQuestion is a question of the bank, answered A–D on the
	// student's screen.
	RoomQuestion RoomKind = "question"
	// RoomScenario is a lab scenario; the student's answer is the recovery
	// action they choose (LESSON-RULES §8, 1–9).
	RoomScenario RoomKind = "scenario"
	// RoomStep is a step of a walkthrough run in class mode: every
	// student's screen follows the teacher; a question step takes answers.
	RoomStep RoomKind = "step"
	// RoomFree: the teacher freed the room (no item); a screen that
	// follows the room lets go, and students roam.
	RoomFree RoomKind = "free"
)

// RoomItem is where the teacher has sent the room.
type RoomItem struct {
	Kind RoomKind `json:"kind"`
	// Key names the item's question for answers and the tally (see
	// QuestionKey, ScenarioKey and StepKey); "" for a walkthrough step
	// that asks nothing.
	Key string `json:"key,omitempty"`
	// Question is the bank question's id (RoomQuestion).
	Question string `json:"question,omitempty"`
	// Scenario is the scenario's id (RoomScenario).
	Scenario string `json:"scenario,omitempty"`
	// Walkthrough and Step (0-based) are the walkthrough step (RoomStep).
	Walkthrough string `json:"walkthrough,omitempty"`
	Step        int    `json:"step,omitempty"`
	// Round numbers the poll an item that asks opened (each send of it is
	// a poll of its own); 0 for an item that asks nothing.
	Round int `json:"round,omitempty"`
	// Revealed: the teacher has shown the answer on every screen; answers
	// are no longer taken.
	Revealed bool `json:"revealed,omitempty"`
	// RevealText is what a student's status line says when the answer is
	// revealed on a screen that has no answer of its own to show (a
	// scenario: its title and best move); set once revealed.
	RevealText string `json:"revealText,omitempty"`
	// Seq grows with every move of the teacher; a student's app drops a
	// RoomMsg older than the last it acted on.
	Seq int `json:"seq"`
}

// Same reports whether two items are the same place and poll (revealed
// or not).
func (it RoomItem) Same(o RoomItem) bool {
	return it.Kind == o.Kind && it.Key == o.Key && it.Question == o.Question && it.Scenario == o.Scenario &&
		it.Walkthrough == o.Walkthrough && it.Step == o.Step && it.Round == o.Round
}

// RoomMsg tells a student's app where the room is now: the classroom
// server sends it when the teacher moves the room or reveals an answer,
// and the root model opens or updates the screen for it.
type RoomMsg struct{ Item RoomItem }

// RoomFollower is a screen that shows a room item itself (a room
// question, a walkthrough followed in class mode): the root hands it the
// RoomMsg for the item it Follows instead of opening another screen.
type RoomFollower interface {
	Follows(it RoomItem) bool
}

// RoomReleaser is a screen that follows the room until the teacher frees
// it (common.RoomFree): ReleaseRoom lets it go (a walkthrough in class
// mode then moves at the student's pace) and reports whether it was
// following.
type RoomReleaser interface {
	ReleaseRoom() bool
}

// QuestionKey is the room key of bank question id: "question:ID".
func QuestionKey(id string) string { return "question:" + id }

// ScenarioKey is the room key of scenario id: "scenario:ID".
func ScenarioKey(id string) string { return "scenario:" + id }

// StepKey is the room key of walkthrough w's question step (0-based):
// "walkthrough:W/N", N counted from 1 as the screens show it.
func StepKey(w string, step int) string { return fmt.Sprintf("walkthrough:%s/%d", w, step+1) }

// ActionIndex is the position of a recovery action in rules.Actions
// (LESSON-RULES §8 order, the digit minus one), or -1.
func ActionIndex(a rules.Action) int { return slices.Index(rules.Actions, a) }

// ToggleChoice adds option i to a multi-choice answer, or takes it out.
func ToggleChoice(choice []int, i int) []int {
	if j := slices.Index(choice, i); j >= 0 {
		return slices.Delete(slices.Clone(choice), j, j+1)
	}
	return append(slices.Clone(choice), i)
}

// ChoiceLetters names an answer by its options' letters: "B", "A, C".
func ChoiceLetters(choice []int) string {
	s := make([]string, 0, len(choice))
	for _, i := range choice {
		s = append(s, string(rune('A'+i)))
	}
	return strings.Join(s, ", ")
}

// OptionRange is the letters of n options: "A–D" (n = 4), "A" (n = 1).
func OptionRange(n int) string {
	if n <= 1 {
		return "A"
	}
	return "A–" + string(rune('A'+n-1))
}

// OptionKey reads an option's key from k, among n options: a letter
// (either case) or a digit from 1; ok is false for any other key.
func OptionKey(k tea.KeyMsg, n int) (int, bool) {
	if k.Type != tea.KeyRunes || len(k.Runes) != 1 || k.Alt {
		return 0, false
	}
	r := k.Runes[0]
	switch {
	case r >= 'a' && r < 'a'+rune(n):
		return int(r - 'a'), true
	case r >= 'A' && r < 'A'+rune(n):
		return int(r - 'A'), true
	case r >= '1' && r < '1'+rune(n) && n <= 9:
		return int(r - '1'), true
	}
	return 0, false
}
