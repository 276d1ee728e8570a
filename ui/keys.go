package ui

import (
	"github.com/charmbracelet/bubbles/key"
)

// ScenarioKeys are the scenario screen's own keys.
type ScenarioKeys struct {
	Call     key.Binding
	Choose   key.Binding // 1-9, for help only; the digits are matched directly
	Style    key.Binding
	Revision key.Binding
	View     key.Binding
	Diff     key.Binding
	Focus    key.Binding
	FocusRev key.Binding
	Next     key.Binding
	Agents   key.Binding
	Exercise key.Binding // only on subagent scenarios (InSubagent)
}

// DefaultScenarioKeys returns the scenario screen's keys.
func DefaultScenarioKeys() ScenarioKeys {
	return ScenarioKeys{
		Call:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "make the call")),
		Choose:   key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "choose action")),
		Style:    key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "style")),
		Revision: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "spec revision")),
		View:     key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "view")),
		Diff:     key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "bad vs good")),
		Focus:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		FocusRev: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next scenario")),
		Agents:   key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "watch the agents")),
		Exercise: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "propagation exercise")),
	}
}

// AgentsKeys are the agents screen's own keys.
type AgentsKeys struct {
	Step     key.Binding
	Play     key.Binding
	Faster   key.Binding
	Slower   key.Binding
	Restart  key.Binding
	Revision key.Binding
	All      key.Binding
	Focus    key.Binding
	FocusRev key.Binding
	Expand   key.Binding
	Subagent key.Binding
}

// DefaultAgentsKeys returns the agents screen's keys. space and G/end
// take precedence over the navigation keys they share (page down,
// bottom); r is the spec revision, as on the scenario screen.
func DefaultAgentsKeys() AgentsKeys {
	return AgentsKeys{
		Step:     key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "next step")),
		Play:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "play/pause")),
		Faster:   key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
		Slower:   key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "slower")),
		Restart:  key.NewBinding(key.WithKeys("0"), key.WithHelp("0", "restart")),
		Revision: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "spec revision (plays again)")),
		All:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "reveal all")),
		Focus:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		FocusRev: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Expand:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "raw exchange")),
		Subagent: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "subagent view")),
	}
}

// ExerciseKeys are the propagation exercise's own keys.
type ExerciseKeys struct {
	Choose key.Binding // digits, for help only
	Focus  key.Binding
}

// DefaultExerciseKeys returns the propagation exercise's keys.
func DefaultExerciseKeys() ExerciseKeys {
	return ExerciseKeys{
		Choose: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "choose")),
		Focus:  key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "other step")),
	}
}

// QuizKeys are the keys of the practice, exam, review and results screens.
type QuizKeys struct {
	Choose   key.Binding // a-i / 1-9, for help only; matched directly
	Toggle   key.Binding // space: pick or toggle the choice under the cursor
	Part     key.Binding // next part or the exhibit
	PartRev  key.Binding
	Check    key.Binding // enter: check the answer (practice) or next question (exam)
	Next     key.Binding // n: next question after the verdict
	Prev     key.Binding // previous question (exam, review of answers)
	Forward  key.Binding // next question (exam, review of answers)
	Flag     key.Binding
	Submit   key.Binding // s: hand the exam in
	Confirm  key.Binding
	Cancel   key.Binding
	Results  key.Binding
	Practise key.Binding
	Open     key.Binding // enter on a menu entry or a weak topic
	Change   key.Binding // ←/→ on a set-up field
	Type     key.Binding // digits on a number field, for help only
	Scroll   key.Binding // ↑/↓ once the answer is shown, for help only
}

// DefaultQuizKeys returns the quiz screens' keys. Choice letters and
// digits are matched by the item itself, after these.
func DefaultQuizKeys() QuizKeys {
	return QuizKeys{
		Choose:   key.NewBinding(key.WithKeys("a", "b", "c", "d", "e", "1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("a-i/1-9", "choose")),
		Toggle:   key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "pick/toggle")),
		Part:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next part/exhibit")),
		PartRev:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous part")),
		Check:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "check answer")),
		Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next question")),
		Prev:     key.NewBinding(key.WithKeys("left", "["), key.WithHelp("←/[", "previous")),
		Forward:  key.NewBinding(key.WithKeys("right", "]"), key.WithHelp("→/]", "next")),
		Flag:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "flag")),
		Submit:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "submit exam")),
		Confirm:  key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "yes")),
		Cancel:   key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "no")),
		Results:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "results")),
		Practise: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "practise")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Change:   key.NewBinding(key.WithKeys("left", "right", "h", "l"), key.WithHelp("←/→", "change")),
		Type:     key.NewBinding(key.WithKeys("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("0-9", "type a number")),
		Scroll:   key.NewBinding(key.WithKeys("up", "down", "k", "j"), key.WithHelp("↑/↓", "scroll")),
	}
}
