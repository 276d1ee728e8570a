package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/internal/uitest"
)

// A progress file with one answer record whose box is text.
const oneBadField = `{
  "schemaVersion": 1,
  "scenarios": {"timeout-second-try": {"solved": true, "firstCorrect": true, "attempts": 1, "at": "2026-05-01T10:00:00Z"}},
  "items": {
    "layers-a": {"topic": "layers", "box": "two", "streak": 1, "right": 1, "wrong": 0, "lastAt": "2026-05-01T11:00:00Z", "lastCorrect": true}
  },
  "exams": []
}
`

// TestProgressNoticeStaysUntilDismissed: `errorlab` on a progress file
// with one bad field. The notice saying what was left out and where the
// original is stays on Home through the learner's key presses (it used
// to vanish at the first one, a status line), shows on the quiz menu
// too, and goes only when x dismisses it. The same notice is printed to
// stderr, where it is read after quitting.
func TestProgressNoticeStaysUntilDismissed(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, quiz.FileName), []byte(oneBadField), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	var views []string
	var setup string
	env := Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(""), IsTerminal: func() bool { return true },
		RunTUI: func(o ui.Options) error {
			homeAt := uitest.HomeKeyIndex(t, ui.New(ui.Options{Catalog: o.Catalog}), "Practice & exam")
			m, _ := uitest.Start(ui.New(o), tea.WindowSizeMsg{Width: 80, Height: 24})
			views = append(views, m.View())
			// A learner looks around Home first.
			m, _ = uitest.Drive(m, uitest.Press("down"), uitest.Press("down"), uitest.Press("up"), uitest.Press("?"), uitest.Press("?"))
			views = append(views, m.View())
			keys := []tea.Msg{uitest.Press("g")}
			for range homeAt {
				keys = append(keys, uitest.Press("down"))
			}
			m, _ = uitest.Drive(m, append(keys, uitest.Press("enter"))...)
			views = append(views, m.View()) // the quiz menu
			m, _ = uitest.Drive(m, uitest.Press("enter"))
			setup = m.View() // the practice set-up needs the room
			m, _ = uitest.Drive(m, uitest.Press("esc"))
			views[2] += "\n" + m.View() // the menu again
			m, _ = uitest.Drive(m, uitest.Press("x"))
			views = append(views, m.View())
			m, _ = uitest.Drive(m, uitest.Press("esc"))
			views = append(views, m.View()) // Home again
			return nil
		}}
	if code := Run(env, []string{"--state-dir", dir, "lab"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	aside, _ := filepath.Glob(filepath.Join(dir, quiz.FileName+".corrupt-*"))
	if len(aside) != 1 {
		t.Fatalf("kept aside: %v", aside)
	}
	shown := func(v string) bool {
		for _, want := range []string{"Your progress file had 1 part that could not be read", filepath.Base(aside[0]),
			`the field "box" holds a string where progress keeps a number`, "Carried over: 1 lab scenario", "x dismisses this notice"} {
			if !strings.Contains(uitest.Flat(v), uitest.Flat(want)) {
				return false
			}
		}
		return true
	}
	for i, where := range []string{"on Home at start", "on Home after a few keys", "on the quiz menu"} {
		if !shown(views[i]) {
			t.Errorf("the notice is not there %s:\n%s", where, views[i])
		}
	}
	if strings.Contains(setup, "could not be read") || !strings.Contains(setup, "Start") {
		t.Errorf("the notice covers the practice set-up:\n%s", setup)
	}
	if strings.Count(views[2], "x dismisses this notice") != 2 {
		t.Errorf("the notice is not back on the menu after the set-up:\n%s", views[2])
	}
	if !strings.Contains(uitest.LineWith(views[1], "enter open"), "x dismiss notice") {
		t.Errorf("the help bar does not name x:\n%s", views[1])
	}
	for i, where := range []string{"after x", "back on Home after x"} {
		if v := views[3+i]; strings.Contains(v, "could not be read") || strings.Contains(v, "dismiss") {
			t.Errorf("the notice is still there %s:\n%s", where, v)
		}
	}
	if !strings.Contains(errOut.String(), "Your progress file had 1 part that could not be read") || !strings.Contains(errOut.String(), aside[0]) {
		t.Errorf("stderr lacks the notice:\n%s", errOut.String())
	}
}

// TestNoticeStatusSaysWhereToReadIt: `errorlab quiz` on a progress file
// with one bad field opens straight into practice, where the box does
// not show. The status line says what happened and where to read it,
// whole (it used to be the start of a long line cut off at 80 columns),
// and stays through `?` and other keys until the learner goes there; on
// the quiz menu the box shows, and the status line does not repeat it.
// On Home, at `errorlab`, only the box shows it too.
func TestNoticeStatusSaysWhereToReadIt(t *testing.T) {
	const hint = "⚠ Progress file partly unreadable · esc: the menu shows what was kept"
	var views []string
	run := func(args ...string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, quiz.FileName), []byte(oneBadField), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(""), IsTerminal: func() bool { return true },
			RunTUI: func(o ui.Options) error {
				m, _ := uitest.Start(ui.New(o), tea.WindowSizeMsg{Width: 80, Height: 24})
				views = append(views, m.View())
				if o.Quiz == nil {
					return nil
				}
				for _, k := range []string{"?", "?", "down"} {
					m, _ = uitest.Drive(m, uitest.Press(k))
					views = append(views, m.View())
				}
				m, _ = uitest.Drive(m, uitest.Press("esc"))
				views = append(views, m.View())
				return nil
			}}
		if code := Run(env, append([]string{"--state-dir", dir}, args...)); code != ExitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
	}
	run("quiz")
	for i, v := range views[:4] {
		if !strings.Contains(v, "Question 1 of 10") {
			t.Fatalf("view %d is not the practice:\n%s", i, v)
		}
		if !strings.Contains(v, "\n"+hint+"\n") {
			t.Errorf("view %d (after %d keys) does not say where the notice is, whole:\n%s", i, i, v)
		}
	}
	menu := views[4]
	if !strings.Contains(menu, "x dismisses this notice") || strings.Contains(menu, "esc: the menu shows") {
		t.Errorf("the menu does not show the box alone:\n%s", menu)
	}
	run()
	home := views[5]
	if !strings.Contains(home, "x dismisses this notice") || strings.Count(home, "⚠") != 1 {
		t.Errorf("Home shows the notice twice (or not at all):\n%s", home)
	}
}
