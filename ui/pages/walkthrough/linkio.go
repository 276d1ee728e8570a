package walkthrough

import (
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/pages/walkthrough/link"
)

// Link is what the presenting screen needs of one side of the
// walkthrough link (*link.Link); the tests use fakes too.
type Link interface {
	Send(link.State) error
	Updates() <-chan link.State
	Events() <-chan link.Event
	Peers() int
	Current() link.State
	Close() error
}

// Linker opens links: where walkthrough id's socket is, the audience
// side (Host) and the presenter side (Join).
type Linker struct {
	Path func(id string) string
	Host func(path string, initial link.State) (Link, error)
	Join func(path string, o link.JoinOptions) (Link, error)
}

// SocketLinker is the real link: a unix socket under the XDG runtime
// directory (link.SocketPath).
func SocketLinker() *Linker {
	return &Linker{
		Path: link.SocketPath,
		Host: func(path string, s link.State) (Link, error) {
			l, err := link.Host(path, s)
			if err != nil {
				return nil, err
			}
			return l, nil
		},
		Join: func(path string, o link.JoinOptions) (Link, error) {
			l, err := link.JoinWith(path, o)
			if err != nil {
				return nil, err
			}
			return l, nil
		},
	}
}

// linker is how the screens link; nil: they do not (tests).
var linker = SocketLinker()

// linkState is where the link stands, for the presenter's status line.
type linkState int

const (
	linkNone    linkState = iota // not tried, or no linker
	linkWaiting                  // presenter: no audience view yet, trying again
	linkUp                       // linked
	linkLost                     // presenter: the audience view has gone
	linkFailed                   // could not host or join; working alone
)

type (
	linkOpenedMsg struct {
		owner *Model
		l     Link
		err   error
	}
	linkUpdateMsg struct {
		owner *Model
		l     Link
		s     link.State
		ok    bool
	}
	linkEventMsg struct {
		owner *Model
		l     Link
		e     link.Event
		ok    bool
	}
	retryMsg struct {
		owner *Model
		gen   int
	}
)

// state is where this view is, as the link carries it.
func (m *Model) state() link.State {
	return link.State{Walkthrough: m.w.ID, Step: m.step, Part: m.part, Blank: m.blank, Started: m.started, Content: m.digest}
}

// openLink is the command that hosts the link (the audience view) or
// joins it (a presenter view).
func (m *Model) openLink() tea.Cmd {
	if linker == nil {
		return nil
	}
	if err := m.c.Allowed(common.LinkViews); err != nil {
		// A class over SSH: every session shares the server's socket
		// folder, and a student's view must never drive the room's.
		// The presenter view's footer says so (the audience view has no
		// link line).
		m.linkState, m.linkText = linkFailed, err.Error()
		return nil
	}
	owner, lk, id, presenter, initial := m, linker, m.w.ID, m.presenter, m.state()
	o := link.JoinOptions{Walkthrough: id, Content: m.digest}
	if m.droveAlone {
		// Moved while unlinked: the room resumes here, not at its own step.
		o.Resume = &initial
	}
	return func() tea.Msg {
		path := lk.Path(id)
		var l Link
		var err error
		if presenter {
			l, err = lk.Join(path, o)
		} else {
			l, err = lk.Host(path, initial)
		}
		return linkOpenedMsg{owner: owner, l: l, err: err}
	}
}

// relink is l on the presenter view: join the audience view again.
func (m *Model) relink() tea.Cmd {
	if err := m.c.Allowed(common.LinkViews); err != nil {
		m.c.SetStatus(common.StatusWarn, "%v", err)
		return nil
	}
	if m.linkState == linkUp {
		m.c.SetStatus(common.StatusOK, "already linked to the audience view")
		return nil
	}
	m.closeLink()
	m.retryGen++
	return m.openLink()
}

// closeLink closes the link, if any.
func (m *Model) closeLink() {
	if m.link != nil {
		_ = m.link.Close()
		m.link = nil
	}
}

// waitUpdate and waitEvent are the commands that bring the link's states
// and events into Bubble Tea, one at a time; each re-arms itself.
func waitUpdate(owner *Model, l Link) tea.Cmd {
	return func() tea.Msg {
		s, ok := <-l.Updates()
		return linkUpdateMsg{owner: owner, l: l, s: s, ok: ok}
	}
}

func waitEvent(owner *Model, l Link) tea.Cmd {
	return func() tea.Msg {
		e, ok := <-l.Events()
		return linkEventMsg{owner: owner, l: l, e: e, ok: ok}
	}
}

// linkMsg handles the link's messages; anything else is ignored.
func (m *Model) linkMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case linkOpenedMsg:
		if msg.owner != m {
			return nil
		}
		return m.onLinkOpened(msg)
	case linkUpdateMsg:
		if msg.owner != m || msg.l != m.link || !msg.ok {
			return nil
		}
		if msg.s.Seq < msg.l.Current().Seq {
			return waitUpdate(m, msg.l) // overtaken by a move since
		}
		m.apply(msg.s)
		return tea.Batch(waitUpdate(m, msg.l), m.load(m.step), m.prefetch(), m.armTick())
	case linkEventMsg:
		if msg.owner != m || msg.l != m.link || !msg.ok {
			return nil
		}
		return tea.Batch(m.onEvent(msg.e), waitEvent(m, msg.l))
	case retryMsg:
		if msg.owner != m || msg.gen != m.retryGen || m.linkState != linkWaiting {
			return nil
		}
		return m.openLink()
	}
	return nil
}

func (m *Model) onLinkOpened(msg linkOpenedMsg) tea.Cmd {
	if msg.err != nil {
		if m.presenter && errors.Is(msg.err, link.ErrNoAudience) {
			m.linkState = linkWaiting
			m.linkText = fmt.Sprintf("no audience view yet: run `errorlab walkthrough %s` in the room's terminal", m.w.ID)
			if retryEvery > 0 {
				m.linkText += " (trying every " + retryEvery.String() + ")"
				owner, gen := m, m.retryGen
				return tea.Tick(retryEvery, func(time.Time) tea.Msg { return retryMsg{owner: owner, gen: gen} })
			}
			m.linkText += " (l tries again)"
			return nil
		}
		if !m.presenter && errors.Is(msg.err, link.ErrAlreadyPresenting) && retryEvery > 0 {
			// Another room's view holds the socket: take over when it goes.
			m.linkState = linkWaiting
			m.linkText = "another audience view holds the link; trying again every " + retryEvery.String()
			if !m.waitedHost {
				m.waitedHost = true
				m.c.SetStatus(common.StatusWarn, "another audience view holds the link: retrying every %v", retryEvery)
			}
			owner, gen := m, m.retryGen
			return tea.Tick(retryEvery, func(time.Time) tea.Msg { return retryMsg{owner: owner, gen: gen} })
		}
		m.linkState = linkFailed
		m.linkText = "not linked, working alone: " + msg.err.Error()
		if !m.presenter {
			m.c.SetStatus(common.StatusWarn, "not linked to a presenter view: %v", msg.err)
		} else if errors.Is(msg.err, link.ErrMismatch) {
			m.c.SetStatus(common.StatusWarn, "not linked: %v", msg.err)
		}
		return nil
	}
	m.link = msg.l
	m.linkState = linkUp
	m.droveAlone = false
	if m.presenter {
		m.linkText = "linked to the audience view: either side drives"
		m.c.SetStatus(common.StatusOK, "linked to the audience view of %s", m.w.ID)
	} else {
		m.linkText = "hosting the link for presenter views"
		if m.waitedHost {
			m.waitedHost = false
			m.c.SetStatus(common.StatusOK, "took over the link: presenter views can join")
		}
	}
	return tea.Batch(waitUpdate(m, msg.l), waitEvent(m, msg.l))
}

func (m *Model) onEvent(e link.Event) tea.Cmd {
	switch e.Kind {
	case link.Lost:
		m.linkState = linkLost
		m.linkText = "the audience view has gone: carrying on alone (l links again)"
		m.c.SetStatus(common.StatusWarn, "%s", m.linkText)
		l := m.link
		m.link = nil
		return func() tea.Msg { _ = l.Close(); return nil }
	case link.PeerJoined, link.PeerLeft:
		if !m.presenter {
			m.linkText = e.Text
			m.c.SetStatus(common.StatusInfo, "⇄ %s", e.Text)
		}
	case link.Refused:
		m.c.SetStatus(common.StatusWarn, "%s", e.Text)
	}
	return nil
}

// apply moves this view to where another view went.
func (m *Model) apply(s link.State) {
	if s.Walkthrough != m.w.ID {
		m.c.SetStatus(common.StatusWarn, "the other view presents %q, not %q: its moves are ignored", s.Walkthrough, m.w.ID)
		return
	}
	if m.c.Status().Kind == common.StatusInfo {
		// "a presenter view joined", "the end…": old news once the
		// other side moves; warnings and errors stay.
		m.c.ClearStatus()
	}
	step := min(max(s.Step, 0), len(m.views)-1)
	if step != m.step {
		m.focus = 0
	}
	m.step, m.part, m.wantLast = step, max(s.Part, 0), false
	if v := m.views[step]; v.loaded {
		m.part = min(m.part, v.parts()-1)
	}
	m.blank = s.Blank
	if !s.Started.IsZero() {
		m.started = s.Started
	}
	m.arrange()
}

// send tells the other views where this one is now.
func (m *Model) send() tea.Cmd {
	if m.link == nil {
		m.droveAlone = m.presenter
		return nil
	}
	err := m.link.Send(m.state())
	switch {
	case err == nil, errors.Is(err, link.ErrClosed):
	case errors.Is(err, link.ErrAudienceGone):
		m.droveAlone = true
		m.linkState = linkLost
		m.linkText = "the audience view has gone: carrying on alone (l links again)"
		m.c.SetStatus(common.StatusWarn, "%s", m.linkText)
	default:
		m.c.SetStatus(common.StatusError, "the link refused this move: %v", err)
	}
	return nil
}
