package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/common"
	classpage "github.com/errorlab/errorlab/ui/pages/classroom"
	"github.com/errorlab/errorlab/ui/pages/scenario"
	wtpage "github.com/errorlab/errorlab/ui/pages/walkthrough"
)

// onRoom takes the teacher's move in a class (a student's session): the
// screen showing the item takes it (a reveal, the next step of the
// walkthrough it follows); otherwise the item's screen opens on top of
// where the student is (esc goes back there), replacing an earlier
// room screen. A scenario's reveal is a line in the status.
func (a *App) onRoom(it common.RoomItem) tea.Cmd {
	if it.Seq < a.roomItem.Seq {
		return nil // overtaken by a later move
	}
	prev := a.roomItem
	a.roomItem = it
	// The first move comes as the student joins: a warning then (their
	// user name was mapped, say) stays in the status line.
	keep := prev.Seq == 0 && a.c.Status().Kind == common.StatusWarn
	revealOnly := prev.Same(it) && it.Revealed && !prev.Revealed
	if f, ok := a.top().(common.RoomFollower); ok && f.Follows(it) {
		return a.route(common.RoomMsg{Item: it})
	}
	var s common.Screen
	switch it.Kind {
	case common.RoomQuestion:
		bank := a.c.Bank
		if bank == nil {
			bank, _ = quiz.DefaultBank()
		}
		var q *quiz.Question
		if bank != nil {
			q, _ = bank.Get(it.Question)
		}
		if q == nil {
			a.c.SetStatus(common.StatusError, "the teacher asked question %q, which this errorlab does not have", it.Question)
			return nil
		}
		s = classpage.NewQuestion(a.c, it, q)
	case common.RoomScenario:
		if revealOnly {
			a.c.SetStatus(common.StatusInfo, "%s", it.RevealText)
			return nil
		}
		if sc, ok := a.top().(*scenario.Model); ok && sc.Crumb() == it.Scenario {
			return nil // already there
		}
		sc, ok := a.c.Catalog.Get(it.Scenario)
		if !ok {
			a.c.SetStatus(common.StatusError, "%s", common.UnknownScenario(a.c.Catalog, it.Scenario))
			return nil
		}
		s = scenario.New(a.c, sc)
		if !keep {
			defer a.c.SetStatus(common.StatusInfo, "the teacher opened this scenario for the room: make the call (enter), then choose an action (1–9); your choice goes to the room")
		}
	case common.RoomStep:
		set, err := a.c.WalkthroughSet()
		if err != nil {
			a.c.SetStatus(common.StatusError, "the walkthroughs did not load: %v", err)
			return nil
		}
		w, ok := set.Get(it.Walkthrough)
		if !ok {
			a.c.SetStatus(common.StatusError, "the teacher runs walkthrough %q, which this errorlab does not have", it.Walkthrough)
			return nil
		}
		s = wtpage.NewFollow(a.c, w)
	default:
		return nil
	}
	if !keep {
		a.c.ClearStatus() // what the status said was about the screen left behind
	}
	if _, ok := a.top().(common.RoomFollower); ok {
		a.dropTop() // one room screen at a time
	}
	cmd := a.push(s)
	if _, ok := s.(common.RoomFollower); ok {
		cmd = tea.Batch(cmd, a.route(common.RoomMsg{Item: it}))
	}
	return cmd
}

// reportWhere tells the teacher which screen the student is on, when it
// changed (a class only).
func (a *App) reportWhere() {
	if a.c.Room == nil {
		return
	}
	crumbs := make([]string, 0, len(a.stack))
	for _, s := range a.stack[1:] {
		crumbs = append(crumbs, s.Crumb())
	}
	where := "Home"
	if len(crumbs) > 0 {
		where = strings.Join(crumbs, " › ")
	}
	if where != a.lastWhere {
		a.lastWhere = where
		a.c.Room.Where(where)
	}
}
