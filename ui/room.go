package ui

import (
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/common"
	classpage "github.com/errorlab/errorlab/ui/pages/classroom"
	"github.com/errorlab/errorlab/ui/pages/scenario"
	wtpage "github.com/errorlab/errorlab/ui/pages/walkthrough"
)

// onRoom takes the teacher's move in a class (a student's session). The
// screen showing the item takes it (a reveal, a poll asked again, the
// next step of the walkthrough it follows); otherwise the item's screen
// opens in place of the room's previous screen (and whatever the
// student opened above it), so room moves never stack up: esc goes back
// to where the student was before the room took them. A reveal of a
// scenario the student has left takes them back to it. Freeing the room
// lets go of every screen that follows it.
func (a *App) onRoom(it common.RoomItem) tea.Cmd {
	if it.Seq < a.roomItem.Seq {
		return nil // overtaken by a later move
	}
	prev := a.roomItem
	a.roomItem = it
	// The first move comes as the student joins: a warning then (their
	// user name was mapped, say) stays in the status line.
	keep := prev.Seq == 0 && a.c.Status().Kind == common.StatusWarn
	if it.Kind == common.RoomFree {
		return a.roomFreed(keep)
	}
	if f, ok := a.top().(common.RoomFollower); ok && f.Follows(it) {
		a.roomScreen = a.top()
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
		sc, ok := a.c.Catalog.Get(it.Scenario)
		if !ok {
			a.c.SetStatus(common.StatusError, "%s", common.UnknownScenario(a.c.Catalog, it.Scenario))
			return nil
		}
		s = scenario.New(a.c, sc) // it says where the poll stands (the RoomMsg below)
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
	a.dropRoomScreen()
	cmd := a.push(s)
	a.roomScreen = s
	if _, ok := s.(common.RoomFollower); ok {
		var st common.Status
		if keep {
			st = a.c.Status()
		}
		cmd = tea.Batch(cmd, a.route(common.RoomMsg{Item: it}))
		if keep {
			a.c.PutStatus(st)
		}
	}
	return cmd
}

// dropRoomScreen closes the screen the room opened last, and every
// screen the student opened above it (n to the next scenario, say), when
// it is still on the stack.
func (a *App) dropRoomScreen() {
	if a.roomScreen == nil {
		return
	}
	i := slices.Index(a.stack, a.roomScreen)
	if i < 1 {
		a.roomScreen = nil
		return
	}
	for len(a.stack) > i {
		a.dropTop()
	}
	a.roomScreen = nil
}

// roomFreed lets go of every screen that follows the room (a
// walkthrough in class mode goes on at the student's own pace).
func (a *App) roomFreed(keep bool) tea.Cmd {
	released := false
	for _, s := range a.stack {
		if r, ok := s.(common.RoomReleaser); ok && r.ReleaseRoom() {
			released = true
		}
	}
	if !keep {
		if released {
			a.c.SetStatus(common.StatusInfo, "the teacher freed the room: the walkthrough is yours now (space and ← move it, esc leaves)")
		} else {
			a.c.SetStatus(common.StatusInfo, "the teacher freed the room: go wherever you like")
		}
	}
	a.layout(true)
	return nil
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
