package walkthrough_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
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
	// It drove alone to step 2: the room resumes there, with its timer.
	aud2.waitFor(t, "resuming at the presenter's step", aud2.at(2, 0), none)
	if a, p := walkthrough.Started(aud2.m.(*ui.App).Top()), walkthrough.Started(none.m.(*ui.App).Top()); a.IsZero() || !a.Equal(p) {
		t.Errorf("the room's timer started %v, the presenter's %v", a, p)
	}
	none.waitFor(t, "staying where it drove", none.at(2, 0), aud2)
	// The program ends (q q, ctrl+c): ui.Run closes the App, and with it
	// the link.
	aud2.m.(*ui.App).Close()
	none.waitFor(t, "hearing that the audience ended", none.shows("the audience view has gone"))
}

// A second audience view for a walkthrough already presented says so in
// one short line, retries hosting, and takes over the link when the
// first goes; the presenter then links to it. Two views holding
// different versions of the walkthrough refuse to link and say why.
func TestSecondAudienceTakesOverAndVersionsMustMatch(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "run", "wt.sock")
	lk := walkthrough.SocketLinker()
	lk.Path = func(string) string { return sock }
	walkthrough.UseHooks(t, nil, lk, 0)
	walkthrough.UseRetry(t, 20*time.Millisecond)
	set, cat := testSet(t)
	opts := func(presenter bool) ui.Options {
		return ui.Options{Catalog: cat, Walkthroughs: set, WalkthroughID: "every-kind", Presenter: presenter, ExportDir: t.TempDir()}
	}
	aud1 := newProgram("audience 1", ui.New(opts(false)), tea.WindowSizeMsg{Width: 80, Height: 24})
	aud1.waitFor(t, "hosting", linked)
	pres := newProgram("presenter", ui.New(opts(true)), tea.WindowSizeMsg{Width: 120, Height: 40})
	pres.waitFor(t, "joining", linked, aud1)
	aud2 := newProgram("audience 2", ui.New(opts(false)), tea.WindowSizeMsg{Width: 80, Height: 24})
	const msg = "⚠ another audience view holds the link: retrying every 20ms"
	aud2.waitFor(t, "saying another holds the link", aud2.shows(msg), aud1, pres)
	for _, line := range strings.Split(aud2.m.View(), "\n") {
		if strings.Contains(line, "another audience view") && !strings.Contains(line, msg) {
			t.Errorf("the status line is cut: %q", line)
		}
	}
	if len(msg) > 80 {
		t.Errorf("%q does not fit 80 columns", msg)
	}
	aud1.m.(*ui.App).Close()
	pres.waitFor(t, "hearing audience 1 went", pres.shows("the audience view has gone"), aud2)
	aud2.waitFor(t, "taking over the link", linked, pres)
	pres.press("l")
	pres.waitFor(t, "linking to audience 2", linked, aud2)
	pres.press("space")
	aud2.waitFor(t, "following the presenter", aud2.at(2, 0), pres)
	aud2.m.(*ui.App).Close()
	pres.waitFor(t, "hearing audience 2 went", pres.shows("the audience view has gone"))

	// Another version of every-kind: its title differs.
	dir := t.TempDir()
	b, err := os.ReadFile("testdata/walkthroughs/every-kind.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), "title: Every kind of step", "title: Every kind of step, revised", 1))
	if err := os.WriteFile(filepath.Join(dir, "every-kind.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	set2, err := wt.LoadFS(os.DirFS(dir), dir, cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	aud3 := newProgram("audience of another version", ui.New(ui.Options{Catalog: cat, Walkthroughs: set2, WalkthroughID: "every-kind", ExportDir: t.TempDir()}), tea.WindowSizeMsg{Width: 80, Height: 24})
	aud3.waitFor(t, "hosting", linked)
	pres.press("l")
	pres.waitFor(t, "refusing another version", pres.shows("different versions"), aud3)
	if walkthrough.Linked(pres.m.(*ui.App).Top()) {
		t.Error("the presenter linked to another version of the walkthrough")
	}
	aud3.waitFor(t, "reporting the refusal", aud3.shows("refused a presenter view"), pres)
	aud3.m.(*ui.App).Close()
}
