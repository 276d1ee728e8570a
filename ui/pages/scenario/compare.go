package scenario

import (
	"bytes"
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
)

// diffState holds the bad and good responses to the same call, each
// made on a fresh session.
type diffState struct {
	rev    rules.Revision
	bad    mockserver.Style
	badEx  wire.Exchange
	goodEx wire.Exchange
}

type diffDoneMsg struct {
	owner *Model
	state diffState
	err   error
}

// startDiff opens the comparison of the bad style on screen (or the
// scenario's first bad one) against the good one.
func (m *Model) startDiff() tea.Cmd {
	bad := m.style
	if bad.Good() {
		bad = m.sc.BadStyle()
	}
	if bad == "" {
		m.c.SetStatus(common.StatusWarn, "this scenario offers only the good style: nothing to compare")
		return nil
	}
	m.diffOn = true
	if m.diff != nil && m.diff.bad == bad && m.diff.rev == m.rev {
		m.refreshPanes()
		return nil
	}
	return m.fetchDiff(bad)
}

// closeDiff leaves the comparison: the panes and the caveat go back to
// the style's own call.
func (m *Model) closeDiff() {
	m.diffOn = false
	m.refreshPanes()
	m.refreshCaveat()
}

func (m *Model) fetchDiff(bad mockserver.Style) tea.Cmd {
	m.diffBusy = true
	m.refreshPanes()
	sc, rev, owner := m.sc, m.rev, m
	return common.Safe("the comparison", func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		badEx, err := sc.Exchange(ctx, bad, rev)
		if err != nil {
			return diffDoneMsg{owner: owner, err: err}
		}
		goodEx, err := sc.Exchange(ctx, mockserver.StyleGood, rev)
		if err != nil {
			return diffDoneMsg{owner: owner, err: err}
		}
		return diffDoneMsg{owner: owner, state: diffState{rev: rev, bad: bad, badEx: badEx, goodEx: goodEx}}
	})
}

func (m *Model) diffDone(msg diffDoneMsg) {
	m.diffBusy = false
	if msg.err != nil {
		m.c.SetStatus(common.StatusError, "the comparison calls failed: %v", msg.err)
		m.diffOn = false
	} else {
		d := msg.state
		m.diff = &d
		where := "on the left, good on the right"
		if m.stacked {
			where = "above, good below"
		}
		if d.sameResponse() {
			m.c.SetStatus(common.StatusInfo, "%s", d.sameReason())
		} else {
			m.c.SetStatus(common.StatusInfo, "same call on fresh sessions: %s %s", d.bad.Label(), where)
		}
	}
	m.refreshPanes()
	m.refreshCaveat()
}

// sameResponse reports whether the diff's bad and good responses are
// byte for byte the same (a request refused before any tool ran).
func (d *diffState) sameResponse() bool {
	return bytes.Equal(d.badEx.Response, d.goodEx.Response)
}

// sameReason says why the styles make no difference to a diff.
func (d *diffState) sameReason() string {
	if c, err := d.goodEx.Classify(); err == nil && c.Layer == rules.LayerProtocol {
		return fmt.Sprintf("Under %s this request never reaches a tool, so the response style makes no difference", d.rev)
	}
	return fmt.Sprintf("Under %s the %s style sends the same response as the good one here, so the style makes no difference", d.rev, d.bad.Label())
}
