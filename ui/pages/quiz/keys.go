package quiz

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the keys of the menu and the practice, exam, review and
// results screens (help.KeyMap comes from each screen, which shows the
// keys that act at the moment).
type KeyMap struct {
	Choose   key.Binding // a-i / 1-9, for help only; matched directly
	Toggle   key.Binding // space: pick or toggle the choice under the cursor
	Part     key.Binding // the focus on: the exhibit, then each part
	PartRev  key.Binding
	Check    key.Binding // enter: check the answer (practice) or next question (exam)
	Next     key.Binding // n: next question after the verdict
	Prev     key.Binding // previous question (exam, review of answers)
	Forward  key.Binding // next question (exam, review of answers)
	Flag     key.Binding
	Submit   key.Binding // s: hand the exam in
	Confirm  key.Binding
	Discard  key.Binding // y: leave an exam and throw it away (enter does not)
	Cancel   key.Binding
	Results  key.Binding
	Practise key.Binding
	LastExam key.Binding // a on Results: the latest exam's answers
	Open     key.Binding // enter on a menu entry or a weak topic
	Change   key.Binding // ←/→ on a set-up field
	Type     key.Binding // digits on a number field, for help only
	Scroll   key.Binding // ↑/↓ once the answer is shown, for help only
}

// DefaultKeyMap returns the quiz screens' keys. Choice letters and
// digits are matched by the item itself, after these.
func DefaultKeyMap() KeyMap {
	return KeyMap{
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
		Discard:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "leave and discard")),
		Cancel:   key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "no")),
		Results:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "results")),
		Practise: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "practise")),
		LastExam: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "latest exam's answers")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Change:   key.NewBinding(key.WithKeys("left", "right", "h", "l"), key.WithHelp("←/→", "change")),
		Type:     key.NewBinding(key.WithKeys("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("0-9", "type a number")),
		Scroll:   key.NewBinding(key.WithKeys("up", "down", "k", "j"), key.WithHelp("↑/↓", "scroll")),
	}
}
