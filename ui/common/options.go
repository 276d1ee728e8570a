package common

import (
	"fmt"

	"github.com/charmbracelet/bubbles/viewport"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/styles"
)

// OptionRows appends to rows a question's options laid out at width w
// (cells) for a question put to the room, as the classroom's student
// screen and the walkthrough's question step show it: a blank row, then
// "  A text" for each option; ▷ and "◂ your answer" on the options in mine; once
// revealed, ▶ on the options in right and every option's explanation under
// it ("the answer:" before a right one's). answer holds the rows (from,
// to, indexes into the returned rows) of the first right option and its
// explanation, {-1, -1} before the reveal.
func OptionRows(rows []string, st *styles.Styles, opts []quiz.Option, mine, right map[int]bool, revealed bool, w int) (_ []string, answer [2]int) {
	answer = [2]int{-1, -1}
	for i, o := range opts {
		rows = append(rows, "")
		// The answer is marked as the answer, not as good: a stem that
		// asks which option is wrong has its wrong one marked.
		lead, leadSt := fmt.Sprintf("  %c ", 'A'+i), st.Bold
		text := OneLineText(o.Text)
		if mine[i] {
			lead, leadSt = fmt.Sprintf("▷ %c ", 'A'+i), st.Accent.Bold(true)
			text += " ◂ your answer"
		}
		if revealed && right[i] {
			lead, leadSt = fmt.Sprintf("▶ %c ", 'A'+i), st.OK.Bold(true)
		}
		from := len(rows)
		rows = append(rows, HangLead(leadSt, lead, text, w, st.Plain, 5)...)
		if !revealed {
			continue
		}
		words := WrongWords
		if right[i] {
			words = RightWords
		}
		expl := StripVerdict(OneLineText(o.Explanation), words...)
		if right[i] {
			rows = append(rows, HangLead(st.OK, "     the answer:", expl, w, st.Muted, 5)...)
			if answer[0] < 0 {
				answer = [2]int{from, len(rows)}
			}
		} else {
			rows = append(rows, HangLead(st.Muted, "    ", expl, w, st.Muted, 5)...)
		}
	}
	return rows, answer
}

// ShowRows scrolls vp so rows [r[0], r[1]) are in view: from the top when
// they fit, else just enough to show them whole (as far as the view's
// height allows). A negative r[0] leaves the view at the top.
func ShowRows(vp *viewport.Model, r [2]int) {
	vp.GotoTop()
	if r[0] >= 0 && r[1] > vp.Height {
		vp.SetYOffset(min(r[1]-vp.Height, max(r[0]-1, 0)))
	}
}
