package quiz_test

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	"github.com/errorlab/errorlab/ui/pages/quiz"
)

// TestClassifyDrillFocusOrder: a classify drill's focus goes in the
// order of the screen, the response first. It opens on the response box
// (▸ in its title), the footer saying that tab goes to part 1; tab then
// goes to part 1, 2 and 3 and back to the response, shift+tab back the
// other way, and the footer always names where tab goes next. A choice
// key on the response picks in part 1 and takes the focus there, so
// "2 tab 3 tab 2" answers the three parts. The response used to be the
// last stop: tab walked the parts first, and only shift+tab reached it.
func TestClassifyDrillFocusOrder(t *testing.T) {
	drills, err := testDrills()
	uitest.Must(t, err)
	var classify *qz.Item
	for _, it := range drills {
		if it.Kind == qz.KindClassify {
			classify = it
		}
	}
	if classify == nil || len(classify.Parts) != 3 || classify.Exhibit == "" {
		t.Fatal("no three-part classify drill with a response")
	}
	pool, err := qz.NewPool([]*qz.Item{classify})
	uitest.Must(t, err)
	start := &quiz.Start{Mode: qz.Practice, Count: 1, Seed: 1}
	for _, sz := range quizSizes() {
		size := tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}
		m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), start, size)
		focus := func(want string, tabTo string) {
			t.Helper()
			v := m.View()
			onResponse := strings.Contains(v, "▸ Response")
			switch {
			case want == "response" && !onResponse:
				t.Fatalf("%dx%d: the response box does not have the focus:\n%s", sz[0], sz[1], v)
			case want != "response" && (onResponse || !strings.Contains(v, "▸ "+want+".")):
				t.Fatalf("%dx%d: part %s does not have the focus:\n%s", sz[0], sz[1], want, v)
			}
			if !strings.Contains(v, "tab to "+tabTo) {
				t.Errorf("%dx%d: the footer does not say tab goes to %s:\n%s", sz[0], sz[1], tabTo, v)
			}
		}
		focus("response", "part 1")
		for _, step := range []struct{ key, at, next string }{
			{"tab", "1", "part 2"}, {"tab", "2", "part 3"}, {"tab", "3", "the response"}, {"tab", "response", "part 1"},
			{"shift+tab", "3", "the response"}, {"shift+tab", "2", "part 3"}, {"shift+tab", "1", "part 2"}, {"shift+tab", "response", "part 1"},
		} {
			m, _ = uitest.Drive(m, uitest.Press(step.key))
			focus(step.at, step.next)
		}

		m = openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), start, size,
			uitest.Press("2"), uitest.Press("tab"), uitest.Press("3"), uitest.Press("tab"), uitest.Press("2"), uitest.Press("enter"))
		got := sessionOf(t, m).Session().Answers[0]
		if len(got) != 3 || len(got[0]) != 1 || got[0][0] != 1 || len(got[1]) != 1 || got[1][0] != 2 || len(got[2]) != 1 || got[2][0] != 1 {
			t.Errorf("%dx%d: 2 tab 3 tab 2 answered %v, want B, C, B in parts 1, 2, 3", sz[0], sz[1], got)
		}
	}
}

// TestChoiceLettersWorkOnTheResponse: with the focus on the response, as
// a drill opens, every choice letter still picks: "g" picks choice G of
// a next-action drill rather than scrolling the response to its top.
func TestChoiceLettersWorkOnTheResponse(t *testing.T) {
	drills, err := testDrills()
	uitest.Must(t, err)
	for _, it := range drills {
		if it.Kind != qz.KindNextAction || len(it.Parts[0].Choices) < 7 {
			continue
		}
		pool, err := qz.NewPool([]*qz.Item{it})
		uitest.Must(t, err)
		m := openQuiz(t, pool, &fakeClock{t: quizT0}, qz.Memory(), &quiz.Start{Mode: qz.Practice, Count: 1, Seed: 1})
		if !strings.Contains(m.View(), "▸ Response") {
			t.Fatalf("the drill does not open on its response:\n%s", m.View())
		}
		m, _ = uitest.Drive(m, uitest.Press("g"), uitest.Press("enter"))
		if got := sessionOf(t, m).Session().Answers[0]; len(got) != 1 || len(got[0]) != 1 || got[0][0] != 6 {
			t.Errorf("g on the response picked %v, want choice G", got)
		}
		return
	}
	t.Fatal("no next-action drill with seven choices or more")
}
