package quiz_test

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/quiz"
)

// longExhibit is a pool of one question whose exhibit (64 lines)
// overflows its pane at every size.
func longExhibit(t *testing.T) *qz.Pool {
	pool, err := qz.NewPool([]*qz.Item{exhibitQuestion(61)})
	uitest.Must(t, err)
	return pool
}

// TestMouseOnTheExhibit: wide, the wheel over the exhibit pane scrolls
// it (the position in its border moves); a click on the question takes
// the focus (the item opens with it on the exhibit, first in the
// screen's order) and a click on the exhibit gives it back (▸ in its
// title). Narrow, the same on the exhibit box inside the column, and the
// wheel over the column scrolls the column.
func TestMouseOnTheExhibit(t *testing.T) {
	m := openQuiz(t, longExhibit(t), &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: 1, Seed: 1})
	v := m.View()
	if !strings.Contains(v, "▸ Exhibit") {
		t.Fatalf("the exhibit does not have the focus at the start:\n%s", v)
	}
	qx, qy := uitest.CellOf(t, v, "Classify the response.")
	m, _ = uitest.Drive(m, uitest.MousePress(qx, qy, tea.MouseButtonLeft))
	v = m.View()
	if strings.Contains(v, "▸ Exhibit") {
		t.Fatalf("a click on the question leaves the exhibit focused:\n%s", v)
	}
	x, y := uitest.CellOf(t, v, " Exhibit ")
	before := uitest.ScrollPos.FindString(v)
	m, _ = uitest.Drive(m, uitest.MousePress(x, y+3, tea.MouseButtonWheelDown))
	if after := uitest.ScrollPos.FindString(m.View()); before == "" || after == before || !strings.HasPrefix(after, "↕ 4-") {
		t.Errorf("the wheel over the exhibit: position %q, then %q:\n%s", before, after, m.View())
	}
	m, _ = uitest.Drive(m, uitest.MousePress(x, y+3, tea.MouseButtonWheelUp))
	if got := uitest.ScrollPos.FindString(m.View()); got != before {
		t.Errorf("wheel up: position %q, want %q", got, before)
	}
	m, _ = uitest.Drive(m, uitest.MousePress(x, y+2, tea.MouseButtonLeft))
	if !strings.Contains(m.View(), "▸ Exhibit") {
		t.Fatalf("a click on the exhibit does not focus it:\n%s", m.View())
	}
	sx, sy := uitest.CellOf(t, m.View(), "Classify the response.")
	m, _ = uitest.Drive(m, uitest.MousePress(sx, sy, tea.MouseButtonLeft))
	if strings.Contains(m.View(), "▸ Exhibit") {
		t.Fatalf("a click on the question leaves the exhibit focused:\n%s", m.View())
	}

	// Narrow: the exhibit is a box between the stem and the choices.
	m, _ = uitest.Drive(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	v = m.View()
	x, y = uitest.CellOf(t, v, " Exhibit ")
	before = uitest.ScrollPos.FindString(v)
	m, _ = uitest.Drive(m, uitest.MousePress(x, y+2, tea.MouseButtonWheelDown))
	if after := uitest.ScrollPos.FindString(m.View()); before == "" || !strings.HasPrefix(after, "↕ 4-") {
		t.Errorf("narrow, the wheel over the exhibit: position %q, then %q:\n%s", before, after, m.View())
	}
	m, _ = uitest.Drive(m, uitest.MousePress(x, y+1, tea.MouseButtonLeft))
	if !strings.Contains(m.View(), "▸ Exhibit") {
		t.Fatalf("narrow, a click on the exhibit does not focus it:\n%s", m.View())
	}
	// The focused box takes the column but for the hint row below it.
	sx, sy = uitest.CellOf(t, m.View(), "tab to the choices")
	m, _ = uitest.Drive(m, uitest.MousePress(sx, sy, tea.MouseButtonLeft))
	if strings.Contains(m.View(), "▸ Exhibit") {
		t.Fatalf("narrow, a click on the question leaves the exhibit focused:\n%s", m.View())
	}
	// The wheel over the column scrolls it: up to the stem, down to the
	// last choice.
	sx, sy = uitest.CellOf(t, m.View(), "Which errorCategory fits?")
	m, _ = uitest.Drive(m, uitest.MousePress(sx, sy, tea.MouseButtonWheelUp))
	if v := m.View(); !strings.Contains(v, "Classify the response.") || strings.Contains(v, "D  permission") {
		t.Errorf("wheel up over the column does not show the stem:\n%s", v)
	}
	sx, sy = uitest.CellOf(t, m.View(), "Which errorCategory fits?")
	m, _ = uitest.Drive(m, uitest.MousePress(sx, sy, tea.MouseButtonWheelDown))
	sx, sy = uitest.CellOf(t, m.View(), "Which errorCategory fits?")
	m, _ = uitest.Drive(m, uitest.MousePress(sx, sy, tea.MouseButtonWheelDown))
	if v := m.View(); strings.Contains(v, "Classify the response.") || !strings.Contains(v, "D  permission") {
		t.Errorf("wheel down over the column does not show the last choice:\n%s", v)
	}
}

// TestMouseScrollsTheResults: at 60x20 the wheel scrolls the exam's
// overview and the learner's results, which do not fit.
func TestMouseScrollsTheResults(t *testing.T) {
	// Eight questions on eight topics, none sharing a story: an exam of
	// 8 inside the story cap, with results taller than 20 rows.
	var items []*qz.Item
	for i, tp := range qz.Topics[:8] {
		items = append(items, testQuestion(fmt.Sprintf("t/m%d", i), tp.ID, false, "B", fmt.Sprintf("Question %d?", i+1), "no", "yes", "maybe"))
	}
	pool, err := qz.NewPool(items, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Exam, Count: 8, Seed: 4},
		tea.WindowSizeMsg{Width: 60, Height: 20}, uitest.Press("s"), uitest.Press("y"))
	const last = "explained."
	if v := m.View(); !strings.Contains(v, "Time taken") || strings.Contains(v, last) {
		t.Fatalf("not on the exam's results, or they fit at 60x20:\n%s", v)
	}
	down, up := uitest.MousePress(10, 5, tea.MouseButtonWheelDown), uitest.MousePress(10, 5, tea.MouseButtonWheelUp)
	m, _ = uitest.Drive(m, down, down, down)
	if v := m.View(); !strings.Contains(v, last) {
		t.Errorf("the wheel does not scroll the exam's overview:\n%s", v)
	}
	m, _ = uitest.Drive(m, up, up, up)
	if strings.Contains(m.View(), last) {
		t.Errorf("wheel up does not scroll the overview back:\n%s", m.View())
	}
	// G (end) goes to the bottom, g (home) back to the top.
	m, _ = uitest.Drive(m, uitest.Press("G"))
	if !strings.Contains(m.View(), last) {
		t.Errorf("G does not reach the overview's end:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("g"))
	if strings.Contains(m.View(), last) || !strings.Contains(m.View(), "Time taken") {
		t.Errorf("g does not go back to the top:\n%s", m.View())
	}

	m, _ = uitest.Drive(m, uitest.Press("r"))
	v := m.View()
	hint := uitest.LineWith(v, "more line")
	if !strings.Contains(v, "Weakest topics") || hint == "" {
		t.Fatalf("the results fit at 60x20, nothing to scroll:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.MousePress(10, 5, tea.MouseButtonWheelDown))
	v = m.View()
	if strings.Contains(v, "Weakest topics") || uitest.LineWith(v, "more line") == hint {
		t.Errorf("the wheel does not scroll the results (hint %q):\n%s", hint, v)
	}
	m, _ = uitest.Drive(m, uitest.MousePress(10, 5, tea.MouseButtonWheelUp))
	if !strings.Contains(m.View(), "Weakest topics") {
		t.Errorf("wheel up does not scroll the results back:\n%s", m.View())
	}
}

// On the menu, as on Home: a click selects an entry, a second click on it
// opens it, and the wheel moves the cursor.
func TestMenuMouse(t *testing.T) {
	pool := testPool(t)
	useQuiz(t, pool, &fakeClock{t: quizT0}, true)
	newApp := func() tea.Model { return ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, uitest.TimeoutID)}) }
	home, _ := uitest.Drive(newApp(), uitest.Size120)
	var keys []tea.Msg
	for range uitest.HomeKeyIndex(t, newApp(), "Practice & exam") {
		keys = append(keys, uitest.Press("down"))
	}
	m, _ := uitest.Drive(home, append(keys, uitest.Press("enter"))...)
	if !strings.Contains(m.View(), "▸ Practice") {
		t.Fatalf("the menu does not start on Practice:\n%s", m.View())
	}
	x, y := uitest.CellOf(t, m.View(), "Results")
	m, _ = uitest.Drive(m, uitest.MousePress(x, y, tea.MouseButtonLeft))
	if !strings.Contains(m.View(), "▸ Results") {
		t.Fatalf("a click on Results did not select it:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.MousePress(x, y, tea.MouseButtonWheelUp))
	if !strings.Contains(m.View(), "▸ Review") {
		t.Fatalf("wheel up did not move the cursor to Review:\n%s", m.View())
	}
	x, y = uitest.CellOf(t, m.View(), "Results")
	m, _ = uitest.Drive(m, uitest.MousePress(x, y, tea.MouseButtonLeft), uitest.MousePress(x, y, tea.MouseButtonLeft))
	if h := strings.Split(m.View(), "\n")[0]; !strings.Contains(h, "› Results") {
		t.Errorf("two clicks on Results did not open it; header %q", h)
	}
}
