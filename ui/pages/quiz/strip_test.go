package quiz_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/quiz"
)

var stripNumber = regexp.MustCompile(`\d+`)

// TestLongExamStripEndsAtLastQuestion: a 68-question exam's strip, too
// long for one row, shows a window around the current question; at 80
// columns after five flags it ended " 64" (read as the total, nothing
// said 65-68 were off the strip) and "s submit" was cut off. Now the last
// number on it is always 68, "s submit" stays, the current question is
// numbered, and the row fits the screen, wherever the learner is.
func TestLongExamStripEndsAtLastQuestion(t *testing.T) {
	const n = 68
	var items []*qz.Item
	for i := range n {
		items = append(items, testQuestion(fmt.Sprintf("t/q%02d", i), "categories", false, "B", fmt.Sprintf("Question %d?", i+1), "no", "yes", "maybe"))
	}
	pool, err := qz.NewPool(items, nil)
	uitest.Must(t, err)
	var in []tea.Msg
	for range 5 {
		in = append(in, uitest.Press("2"), uitest.Press("f"), uitest.Press("right"))
	}
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: n, Seed: 4}, in...)
	if got := len(m.(*ui.App).Top().(*quiz.Session).Session().Items); got != n {
		t.Fatalf("the exam has %d questions, want %d", got, n)
	}
	for _, moves := range []int{0, 28, 34} { // at 6, at 34, at 68
		for range moves {
			m, _ = uitest.Drive(m, uitest.Press("right"))
		}
		cur := m.(*ui.App).Top().(*quiz.Session).Cur() + 1
		for _, sz := range [][2]int{{80, 24}, {100, 30}, {120, 40}} {
			m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			at := fmt.Sprintf("%dx%d at question %d", sz[0], sz[1], cur)
			strip := ansi.Strip(uitest.LineWith(m.View(), fmt.Sprintf("[%d", cur)))
			if strip == "" {
				t.Fatalf("%s: the strip does not number the current question:\n%s", at, m.View())
			}
			if w := ansi.StringWidth(strip); w > sz[0] {
				t.Errorf("%s: the strip is %d wide: %q", at, w, strip)
			}
			if !strings.Contains(strip, "s submit") {
				t.Errorf("%s: the strip lacks s submit: %q", at, strip)
			}
			nums := stripNumber.FindAllString(strings.Split(strip, "s submit")[0], -1)
			if last, _ := strconv.Atoi(nums[len(nums)-1]); last != n {
				t.Errorf("%s: the strip's last number is %d, not the exam's last question %d: %q", at, last, n, strip)
			}
			if cur > 1 && !strings.Contains(strip, "1") {
				t.Errorf("%s: the strip does not show where the exam starts: %q", at, strip)
			}
		}
	}
}
