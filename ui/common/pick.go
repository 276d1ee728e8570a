package common

import tea "github.com/charmbracelet/bubbletea"

// PickRow is the mouse on a list of n items drawn as lines, owner giving
// for each line the item it belongs to (-1 for none): the wheel moves the
// cursor a row, a left click selects the item under the pointer, and a
// click on the item already selected opens it (open true). It returns the
// new cursor.
func PickRow(e tea.MouseMsg, cursor, n int, owner []int) (int, bool) {
	if e.Action != tea.MouseActionPress || n == 0 {
		return cursor, false
	}
	switch e.Button {
	case tea.MouseButtonWheelUp:
		return max(cursor-1, 0), false
	case tea.MouseButtonWheelDown:
		return min(cursor+1, n-1), false
	case tea.MouseButtonLeft:
		if e.Y < 0 || e.Y >= len(owner) || owner[e.Y] < 0 {
			return cursor, false
		}
		if owner[e.Y] == cursor {
			return cursor, true
		}
		return owner[e.Y], false
	}
	return cursor, false
}
