package common

import tea "github.com/charmbracelet/bubbletea"

// EachKey hands fn the keys of k one at a time and batches what fn
// returns. Keys that arrive in one read (tmux send-keys, a clicker's
// macro, fast typing, an SSH client's packet) come from Bubble Tea as one
// KeyMsg with several runes, which no key binding matches; split, each is
// a key of its own. A bracketed paste stays whole (a text input takes it
// as one insertion). The root model runs every key through it, so a page
// only ever sees one rune a message unless it is handed a paste.
func EachKey(k tea.KeyMsg, fn func(tea.KeyMsg) tea.Cmd) tea.Cmd {
	if k.Type != tea.KeyRunes || len(k.Runes) <= 1 || k.Paste {
		return fn(k)
	}
	cmds := make([]tea.Cmd, 0, len(k.Runes))
	for _, r := range k.Runes {
		cmds = append(cmds, fn(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt}))
	}
	return tea.Batch(cmds...)
}
