// Package walkthrough is the classroom page: a teacher presents a
// walkthrough (scenarios/walkthrough) to a room, step by step, with every
// call made live on the mock server and every agent really playing.
//
// Two screens: List, the walkthroughs with their length, steps and
// topics; and Model, the presenting screen. Model is the audience view
// (the room's screen: one step large, revealed a click at a time) or,
// with presenter set, the presenter view (the current step small, the
// notes, the next step, the timer). The two are linked through a local
// socket (package link): the audience view hosts, presenter views join,
// either side drives, and a view that joins late catches up.
//
// A step's data (the exchange of a live call, the pair of a comparison,
// the agents' runs, the question) is computed in a command when the step
// first opens and kept; View only joins lines already laid out.
package walkthrough

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/quiz"
	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/components/timeline"
)

// asking is a question the screen has put in its footer.
type asking int

const (
	askNone  asking = iota
	askQuit         // q: quit errorlab?
	askLeave        // esc: back to the list?
)

// Blanks of the room's screen (b, w), as the link names them.
const (
	blankBlack = "black"
	blankWhite = "white"
)

// Hooks the tests replace (export_test.go): the clock, and how often the
// timer ticks, a typed step number is taken and a presenter view tries
// to join an audience view that is not there yet (0: never).
var (
	timeNow    = time.Now
	tickEvery  = time.Second
	jumpPause  = 1500 * time.Millisecond
	retryEvery = 2 * time.Second
)

// Model is the presenting screen (a common.Screen): the audience view, or
// with presenter the presenter view. It takes the whole terminal and
// every key (ctrl+c aside).
type Model struct {
	// KeyMap is the screen's keys.
	KeyMap KeyMap

	c         *common.Common
	w         *wt.Walkthrough
	presenter bool
	bank      *quiz.Bank

	views    []*stepView
	step     int
	part     int
	wantLast bool // the step is loading; show its last part when it lands
	blank    string
	notes    bool
	timer    bool
	started  time.Time

	showHelp bool
	jumping  bool
	jump     string
	jumpGen  int
	asking   asking

	width, height int

	// The slide's components and its layout (slide.go).
	panes     [2]*pane.Model
	sides     [2]*timeline.Model
	qpane     *pane.Model
	notesPane *pane.Model
	nextPane  *pane.Model
	helpPane  *pane.Model
	lay       slideLayout
	focus     int
	spots     []spot
	// autoAt is the step and part last laid out: a new one focuses and
	// scrolls to what it reveals.
	autoAt [2]int
	// sidesFor is the step whose runs the timelines hold.
	sidesFor *stepView
	pres     presenterLayout
	// blankLines is the blanked screen, made once per size and blank.
	blankLines []string

	// The link to the other views (linkio.go).
	link      Link
	linkState linkState
	linkText  string
	linkTried bool
	retryGen  int
	// digest is the walkthrough's version (link.State.Content);
	// droveAlone, that this presenter view moved while unlinked, so it
	// pushes its state when it links (link.JoinOptions.Resume).
	digest     string
	droveAlone bool
	// waitedHost: this audience view found another holding the link and
	// retries hosting (it says so once).
	waitedHost bool

	tickGen int
	ticking bool

	// follow: class mode, the room moves the screen (follow.go); room is
	// the last room item acted on.
	follow bool
	room   common.RoomItem
}

// New returns the presenting screen on walkthrough w at its first step:
// the audience view, or the presenter view when presenter is set.
func New(c *common.Common, w *wt.Walkthrough, presenter bool) *Model {
	bank := c.Bank
	if bank == nil {
		bank, _ = quiz.DefaultBank() // nil: a question step then says why
	}
	m := &Model{
		KeyMap:    DefaultKeyMap(),
		c:         c,
		w:         w,
		presenter: presenter,
		bank:      bank,
		digest:    w.Digest(),
		notes:     presenter,
		timer:     presenter,
		qpane:     pane.New(c),
		notesPane: pane.New(c),
		nextPane:  pane.New(c),
		helpPane:  pane.New(c),
		autoAt:    [2]int{-1, -1},
	}
	for i := range m.panes {
		m.panes[i] = pane.New(c)
		m.sides[i] = timeline.New(c)
	}
	m.views = make([]*stepView, len(w.Steps))
	for i, st := range w.Steps {
		m.views[i] = &stepView{st: st}
	}
	return m
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Activate implements common.Activator: the step on screen and its
// neighbours start loading, and the link opens (once).
func (m *Model) Activate() tea.Cmd {
	m.arrange()
	cmds := []tea.Cmd{m.load(m.step), m.prefetch(), m.armTick()}
	// In a class over SSH (a confined session) openLink refuses: no
	// view of a class links to another, so a student's presenter view
	// never drives another screen, the room's projector least of all.
	if !m.linkTried && !m.follow {
		m.linkTried = true
		cmds = append(cmds, m.openLink())
	}
	return tea.Batch(cmds...)
}

// Close implements common.Closer: the link closes (a presenter view
// hears that the audience view has gone).
func (m *Model) Close() {
	m.closeLink()
}

// Crumb implements common.Screen.
func (m *Model) Crumb() string {
	if m.follow {
		return fmt.Sprintf("%s · step %d of %d", m.w.Title, m.step+1, len(m.views))
	}
	if m.presenter {
		return m.w.Title + " (presenter)"
	}
	return m.w.Title
}

// Capturing implements common.InputCapturer: the screen takes every key,
// because clickers and presenters use keys the root keeps for itself
// elsewhere (w, q, esc, ?).
func (m *Model) Capturing() bool { return true }

// FullScreen implements common.FullScreener: the room sees the step and
// a one-line footer, nothing of the lab's chrome.
func (m *Model) FullScreen() bool { return true }

// GuardQuit implements common.QuitGuard: q asks first; it returns false
// (quit now) when the question is already asked.
func (m *Model) GuardQuit() bool {
	if m.asking == askQuit {
		return false
	}
	m.asking = askQuit
	return true
}

// SetSize implements common.Screen.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.arrange()
}

// Step is the step on screen (0-based) and Part how far its reveal has
// gone (0: nothing revealed yet).
func (m *Model) Step() int { return m.step }

// Part is how far the current step's reveal has gone (0: nothing yet).
func (m *Model) Part() int { return m.part }

// Presenter reports whether this is the presenter view.
func (m *Model) Presenter() bool { return m.presenter }

// Walkthrough is the walkthrough presented.
func (m *Model) Walkthrough() *wt.Walkthrough { return m.w }

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return m, m.key(msg)
	case tea.MouseMsg:
		m.mouse(msg)
	case stepLoadedMsg:
		if msg.owner == m {
			return m, m.onLoaded(msg)
		}
	case common.PanicMsg:
		// A step's command panicked: the steps still loading will not
		// land; say so where they would show.
		for _, v := range m.views {
			if v.loading {
				v.loading, v.loaded, v.err, v.data = false, true, errors.New(msg.What), &stepData{}
			}
		}
		m.arrange()
	case tickMsg:
		if msg.owner == m && msg.gen == m.tickGen {
			m.ticking = false
			return m, m.armTick()
		}
	case jumpMsg:
		if msg.owner == m && msg.gen == m.jumpGen && m.jumping {
			return m, m.commitJump()
		}
	case common.RoomMsg:
		return m, m.onRoom(msg.Item)
	default:
		return m, m.linkMsg(msg)
	}
	return m, nil
}

// key takes the keys of k one at a time (common.EachKey: a clicker's
// macro or tmux send-keys arrive as one message).
func (m *Model) key(k tea.KeyMsg) tea.Cmd { return common.EachKey(k, m.oneKey) }

func (m *Model) oneKey(k tea.KeyMsg) tea.Cmd {
	km := m.KeyMap
	m.c.ClearStatus()
	if a := m.asking; a != askNone {
		m.asking = askNone
		yes := k.String() == "y"
		switch {
		case a == askQuit && (yes || key.Matches(k, km.Quit)):
			return tea.Quit
		case a == askLeave && (yes || key.Matches(k, km.Leave)):
			return common.Send(common.NavMsg{Pop: true})
		}
		return nil // any other key stays
	}
	if m.blank != "" {
		m.blank = "" // any key shows the step again, and does nothing else
		m.arrange()
		return m.send()
	}
	if m.showHelp {
		m.showHelp = false // any key closes the keys, and does nothing else
		m.arrange()
		return nil
	}
	if m.follow {
		return m.followKey(k)
	}
	if m.jumping {
		if cmd, used := m.jumpKey(k); used {
			return cmd
		}
	}
	switch {
	case key.Matches(k, km.Forward):
		return m.forward()
	case key.Matches(k, km.Back):
		return m.back()
	case key.Matches(k, km.Jump):
		m.jumping, m.jump = true, ""
		m.jumpGen++
	case key.Matches(k, km.All):
		if m.started.IsZero() {
			m.started = timeNow()
		}
		return tea.Batch(m.goTo(m.step, -1), m.armTick())
	case key.Matches(k, km.First):
		return m.goTo(0, 0)
	case key.Matches(k, km.Last):
		return m.goTo(len(m.views)-1, 0)
	case key.Matches(k, km.Black):
		return m.setBlank(blankBlack)
	case key.Matches(k, km.White):
		return m.setBlank(blankWhite)
	case key.Matches(k, km.Notes):
		m.notes = !m.notes
		m.arrange()
	case key.Matches(k, km.Timer):
		m.timer = !m.timer
		m.arrange()
		return m.armTick()
	case key.Matches(k, km.Up):
		m.scroll(-1)
	case key.Matches(k, km.Down):
		m.scroll(1)
	case key.Matches(k, km.Focus):
		m.cycleFocus()
	case key.Matches(k, km.Relink) && m.presenter:
		return m.relink()
	case key.Matches(k, km.Help):
		m.showHelp = true
		m.arrange()
	case key.Matches(k, km.Leave):
		m.asking = askLeave
	case key.Matches(k, km.Quit):
		m.GuardQuit()
	}
	return nil
}

// forward reveals the next part, or past the last part opens the next
// step. The first click starts the clock.
func (m *Model) forward() tea.Cmd {
	if m.started.IsZero() {
		m.started = timeNow()
	}
	v := m.views[m.step]
	switch {
	case v.loading || m.part < v.parts()-1:
		// While a step loads, the click is kept: the part is clamped
		// when the data lands.
		m.part++
		m.arrange()
		return tea.Batch(m.send(), m.armTick())
	case m.step < len(m.views)-1:
		return tea.Batch(m.goTo(m.step+1, 0), m.armTick())
	}
	m.c.SetStatus(common.StatusInfo, "the end of the walkthrough: ← goes back, g jumps to a step, q quits")
	return m.armTick()
}

// back hides the last part revealed, or before the first part goes to
// the previous step, fully revealed.
func (m *Model) back() tea.Cmd {
	switch {
	case m.part > 0:
		m.part--
		m.arrange()
		return m.send()
	case m.step > 0:
		return m.goTo(m.step-1, -1)
	}
	m.c.SetStatus(common.StatusInfo, "this is the first step")
	return nil
}

// goTo shows step i at part p (-1: its last part, when it has loaded).
func (m *Model) goTo(i, p int) tea.Cmd {
	i = min(max(i, 0), len(m.views)-1)
	changed := i != m.step
	m.step, m.wantLast = i, false
	v := m.views[i]
	switch {
	case p >= 0:
		m.part = p
	case v.loaded:
		m.part = v.parts() - 1
	default:
		m.part, m.wantLast = 0, true
	}
	if changed {
		m.focus = 0
	}
	m.arrange()
	return tea.Batch(m.load(i), m.prefetch(), m.send())
}

func (m *Model) setBlank(b string) tea.Cmd {
	m.blank = b
	m.arrange()
	return m.send()
}

// jumpKey handles a key while a step number is typed (g 7 enter); used
// is false for a key that ends the typing and acts as itself.
func (m *Model) jumpKey(k tea.KeyMsg) (tea.Cmd, bool) {
	s := k.String()
	switch {
	case len(s) == 1 && s[0] >= '0' && s[0] <= '9':
		if len(m.jump) < 3 {
			m.jump += s
		}
		m.jumpGen++
		if jumpPause > 0 {
			owner, gen := m, m.jumpGen
			return tea.Tick(jumpPause, func(time.Time) tea.Msg { return jumpMsg{owner: owner, gen: gen} }), true
		}
		return nil, true
	case s == "enter":
		return m.commitJump(), true
	case s == "backspace":
		if m.jump == "" {
			m.jumping = false
		} else {
			m.jump = m.jump[:len(m.jump)-1]
		}
		m.jumpGen++
		return nil, true
	case s == "esc" || s == "g":
		m.jumping = false
		m.jumpGen++
		return nil, true
	}
	m.jumping = false
	m.jumpGen++
	return nil, false
}

type jumpMsg struct {
	owner *Model
	gen   int
}

// commitJump goes to the typed step number.
func (m *Model) commitJump() tea.Cmd {
	m.jumping = false
	m.jumpGen++
	n, err := strconv.Atoi(m.jump)
	m.jump = ""
	if err != nil {
		return nil
	}
	if n < 1 || n > len(m.views) {
		m.c.SetStatus(common.StatusWarn, "no step %d: this walkthrough has steps 1 to %d", n, len(m.views))
		return nil
	}
	if m.started.IsZero() && n > 1 {
		m.started = timeNow()
	}
	return tea.Batch(m.goTo(n-1, 0), m.armTick())
}
