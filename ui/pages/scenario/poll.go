package scenario

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
)

// A lab scenario the teacher sends a class to (`errorlab classroom`) is
// a poll: the first action a student chooses is their answer, and the
// lab's verdict on it waits for the teacher's reveal, so the room's
// tally shows what the room first thought and nobody learns the answer
// from the screen (or from the ✓/◑ count in the header) before the
// others have chosen. At the reveal the screen shows the verdict on
// that first choice and records it in the student's progress; from then
// on the scenario is the lab again.

// pollKey is the scenario's room key.
func (m *Model) pollKey() string { return common.ScenarioKey(m.sc.ID) }

// Follows implements common.RoomFollower: the screen takes the room's
// moves on its own scenario (a poll opened again, the reveal).
func (m *Model) Follows(it common.RoomItem) bool {
	return it.Kind == common.RoomScenario && it.Scenario == m.sc.ID
}

// inPoll reports whether a choice now is the student's answer to an open
// poll of the room, and their answer if they gave one.
func (m *Model) inPoll() (common.Poll, bool) {
	p := m.c.RoomPoll(m.pollKey())
	return p, p.Open()
}

// choosePolled takes action a as the student's answer to the room's open
// poll: the first choice is sent, any later one only reminds them which
// counts. No verdict shows, and nothing is recorded in their progress
// yet.
func (m *Model) choosePolled(p common.Poll, a rules.Action) tea.Cmd {
	if len(p.Answer) == 1 {
		first := rules.Actions[p.Answer[0]]
		m.polled = first
		m.c.SetStatus(common.StatusInfo, "your choice %d %s is in: in a class poll the first choice is the answer; the teacher will reveal it", p.Answer[0]+1, first.Title())
		return nil
	}
	if err := m.c.Room.Answer(m.pollKey(), []int{common.ActionIndex(a)}); err != nil {
		m.c.SetStatus(common.StatusWarn, "your choice was not taken: %v", err)
		return nil
	}
	m.polled = a
	m.lowerGen++
	m.c.SetStatus(common.StatusOK, "your choice %d %s is in: the teacher will reveal the answer (the verdict waits until then)", common.ActionIndex(a)+1, a.Title())
	return nil
}

// onRoom takes the room's move on this scenario: a poll (new, or the
// one the student joins) or its reveal.
func (m *Model) onRoom(it common.RoomItem) tea.Cmd {
	if !m.Follows(it) {
		return nil
	}
	p := m.c.RoomPoll(m.pollKey())
	if p.Round != it.Round {
		return nil // overtaken by a later poll
	}
	var mine rules.Action
	if len(p.Answer) == 1 && p.Answer[0] >= 0 && p.Answer[0] < len(rules.Actions) {
		mine = rules.Actions[p.Answer[0]]
	}
	if !it.Revealed {
		m.polled = mine
		if mine == "" && m.verdict != nil {
			m.clearVerdict() // an earlier verdict on this screen is not this poll's
		}
		m.lowerGen++
		if mine != "" {
			m.c.SetStatus(common.StatusInfo, "your choice %d %s is in: the teacher will reveal the answer", common.ActionIndex(mine)+1, mine.Title())
		} else {
			m.c.SetStatus(common.StatusInfo, "the teacher opened this scenario for the room: make the call (enter), then choose an action (1–9); your first choice is your answer, and its verdict waits for the teacher")
		}
		m.layout()
		return nil
	}
	m.polled = ""
	if mine == "" {
		m.lowerGen++
		m.layout()
		m.c.SetStatus(common.StatusInfo, "%s · answers are closed (you did not choose): the lab is yours to explore", it.RevealText)
		return nil
	}
	if m.verdict != nil && m.chosen == mine {
		return nil // shown already
	}
	cmd := m.grade(mine)
	v := m.verdict
	kind := common.StatusError
	if v.Grade.Correct() {
		kind = common.StatusOK
	}
	m.c.SetStatus(kind, "%s · your choice %d %s: %s", it.RevealText, common.ActionIndex(mine)+1, mine.Title(), common.GradeWord(v.Grade))
	m.layout()
	return cmd
}

// pollTitle is the lower panel's title while the student's choice waits
// for the reveal ("" when it does not).
func (m *Model) pollTitle() string {
	if m.polled == "" || m.verdict != nil {
		return ""
	}
	return fmt.Sprintf("Your choice %d %s is in · the teacher will reveal", common.ActionIndex(m.polled)+1, m.polled.Title())
}
