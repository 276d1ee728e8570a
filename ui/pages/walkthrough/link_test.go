package walkthrough_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/pages/walkthrough"
)

// program runs one App as Bubble Tea does, for a test that needs real
// concurrency: every command runs in its own goroutine and its message
// comes back on msgs; Update and View run on the test's goroutine only.
type program struct {
	name string
	m    tea.Model
	msgs chan tea.Msg
}

func newProgram(name string, m tea.Model, size tea.WindowSizeMsg) *program {
	p := &program{name: name, m: m, msgs: make(chan tea.Msg, 256)}
	p.update(size)
	p.run(m.Init())
	return p
}

func (p *program) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		switch msg := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				p.run(c)
			}
		default:
			p.msgs <- msg
		}
	}()
}

func (p *program) update(msg tea.Msg) {
	m, cmd := p.m.Update(msg)
	p.m = m
	p.run(cmd)
}

// press feeds keys, each settled as far as the messages already there.
func (p *program) press(names ...string) {
	for _, n := range names {
		p.update(keyMsg(n))
		p.drain()
	}
}

// drain handles the messages that are waiting, without waiting for more.
func (p *program) drain() {
	for {
		select {
		case msg := <-p.msgs:
			p.update(msg)
		default:
			return
		}
	}
}

// waitFor handles messages (of this program, and of others, so both
// keep going) until cond holds, or fails after five seconds.
func (p *program) waitFor(t *testing.T, what string, cond func(*program) bool, others ...*program) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for !cond(p) {
		for _, o := range others {
			o.drain()
		}
		select {
		case msg := <-p.msgs:
			p.update(msg)
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatalf("%s: %s never happened; its view:\n%s", p.name, what, p.m.View())
		}
	}
}

func (p *program) at(step, part int) func(*program) bool {
	return func(p *program) bool {
		s, ok := p.m.(*ui.App).Top().(*walkthrough.Model)
		return ok && s.Step()+1 == step && s.Part() == part
	}
}

func (p *program) shows(text string) func(*program) bool {
	return func(p *program) bool { return strings.Contains(p.m.View(), text) }
}

func linked(p *program) bool { return walkthrough.Linked(p.m.(*ui.App).Top()) }

// An audience view and presenter views linked over a real unix socket:
// either side drives, a presenter that joins late catches up, a blank
// from the presenter blanks the room's screen, and when the audience
// view goes the presenter says so and carries on alone.
func TestLinkOverSocket(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "run", "wt.sock") // Host makes run/ 0700
	lk := walkthrough.SocketLinker()
	lk.Path = func(string) string { return sock }
	walkthrough.UseHooks(t, nil, lk, 0)
	set, cat := testSet(t)
	opts := func(presenter bool) ui.Options {
		return ui.Options{Catalog: cat, Walkthroughs: set, WalkthroughID: "every-kind", Presenter: presenter, ExportDir: t.TempDir()}
	}
	aud := newProgram("audience", ui.New(opts(false)), tea.WindowSizeMsg{Width: 80, Height: 24})
	aud.waitFor(t, "hosting", linked)

	pres := newProgram("presenter", ui.New(opts(true)), tea.WindowSizeMsg{Width: 120, Height: 40})
	pres.waitFor(t, "joining", linked, aud)
	pres.waitFor(t, "the linked line", pres.shows("✓ linked to the audience view of every-kind"), aud)
	aud.waitFor(t, "a presenter joined", aud.shows("a presenter view joined"), pres)

	// The audience drives.
	aud.press("space", "space", "space")
	pres.waitFor(t, "following the audience to step 2 part 2", pres.at(2, 2), aud)
	pres.waitFor(t, "the step's data", pres.shows("Now · step 2 of 8 · part 2 of 8"), aud)
	if v := pres.m.View(); !strings.Contains(v, "▷ next click: isError: true") || !strings.Contains(v, " / 10:00  ") || strings.Contains(v, "starts at the first click") {
		t.Errorf("the presenter at step 2 part 2, with the clock the audience started:\n%s", v)
	}

	// The presenter drives: a jump, then a blank.
	pres.press("g", "4", "enter")
	aud.waitFor(t, "following the presenter to step 4", aud.at(4, 0), pres)
	pres.press("b")
	aud.waitFor(t, "blanked by the presenter", func(p *program) bool { return walkthrough.Blank(p.m.(*ui.App).Top()) == "black" }, pres)
	if strings.TrimSpace(aud.m.View()) != "" {
		t.Errorf("the room's screen is not blank:\n%s", aud.m.View())
	}
	pres.waitFor(t, "the blank banner", pres.shows("◼ the room's screen is blank (black)"), aud)
	aud.press("x") // any key on the room's side shows the step again
	pres.waitFor(t, "unblanked from the audience", func(p *program) bool { return walkthrough.Blank(p.m.(*ui.App).Top()) == "" }, aud)

	// A presenter view that joins late catches up at once.
	late := newProgram("late presenter", ui.New(opts(true)), tea.WindowSizeMsg{Width: 80, Height: 24})
	late.waitFor(t, "catching up with step 4", late.at(4, 0), aud, pres)
	pres.press("space")
	late.waitFor(t, "a move of the other presenter", late.at(4, 1), aud, pres)
	aud.waitFor(t, "a move of the other presenter", aud.at(4, 1), pres, late)

	// The audience view goes: esc twice leaves it for the list, which
	// closes the link.
	aud.press("esc", "esc")
	aud.waitFor(t, "leaving for the list", func(p *program) bool {
		_, ok := p.m.(*ui.App).Top().(*walkthrough.List)
		return ok
	})
	pres.waitFor(t, "saying the audience has gone", pres.shows("the audience view has gone: carrying on alone"), late)
	late.waitFor(t, "saying the audience has gone", late.shows("the audience view has gone"), pres)
	pres.press("space", "space")
	if s := pres.m.(*ui.App).Top().(*walkthrough.Model); s.Step()+1 != 4 || s.Part() != 3 {
		t.Errorf("alone, the presenter did not move: step %d part %d", s.Step()+1, s.Part())
	}
	if v := pres.m.View(); !strings.Contains(v, "⚠ the audience view has gone: carrying on alone (l links again)") {
		t.Errorf("alone, the presenter's status:\n%s", v)
	}

	// A presenter with no audience view at all says how to start one.
	none := newProgram("alone", ui.New(ui.Options{Catalog: cat, Walkthroughs: set, WalkthroughID: "every-kind", Presenter: true}), tea.WindowSizeMsg{Width: 120, Height: 40})
	none.waitFor(t, "no audience", none.shows("no audience view yet: run `errorlab walkthrough every-kind` in the room's terminal (l tries again)"))
	none.press("space")
	if s := none.m.(*ui.App).Top().(*walkthrough.Model); s.Step() != 1 {
		t.Errorf("a presenter with no audience does not move: step %d", s.Step()+1)
	}
	// ... and links when one starts (l).
	aud2 := newProgram("audience again", ui.New(opts(false)), tea.WindowSizeMsg{Width: 80, Height: 24})
	aud2.waitFor(t, "hosting again", linked)
	none.press("l")
	none.waitFor(t, "linking with l", linked, aud2)
	none.waitFor(t, "catching up with the new audience", none.at(1, 0), aud2)
	// The program ends (q q, ctrl+c): ui.Run closes the App, and with it
	// the link.
	aud2.m.(*ui.App).Close()
	none.waitFor(t, "hearing that the audience ended", none.shows("the audience view has gone"))
}
