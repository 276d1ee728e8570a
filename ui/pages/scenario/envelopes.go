package scenario

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/jsonview"
)

// refreshPanes sets the two envelope panes from the current state. The
// lexing happens here (in Update), never in View.
func (m *Model) refreshPanes() {
	st := m.c.Styles
	if m.diffOn {
		if m.diff == nil || m.diffBusy {
			wait := func(int) string { return st.Muted.Render("making the call on a fresh session…") }
			m.panes[0].SetContent("bad style", "", wait)
			m.panes[1].SetContent("good style", "", wait)
			return
		}
		d := m.diff
		_, badResp := wire.Render(d.badEx, m.view)
		_, goodResp := wire.Render(d.goodEx, m.view)
		if d.sameResponse() {
			// No ✗ and ✓ here: the two responses are the same bytes.
			note := d.sameReason() + ": both sides are the same bytes."
			m.setPaneNote(0, fmt.Sprintf("%s style · %s", d.bad.Label(), badResp.Title), rawOf(d.badEx.Response, badResp, m.view), badResp, note)
			m.setPaneNote(1, fmt.Sprintf("good style · %s · identical", goodResp.Title), rawOf(d.goodEx.Response, goodResp, m.view), goodResp, note)
			return
		}
		m.setPane(0, fmt.Sprintf("✗ %s (bad) · %s", d.bad.Label(), badResp.Title), rawOf(d.badEx.Response, badResp, m.view), badResp)
		m.setPane(1, fmt.Sprintf("✓ %s · %s", mockserver.StyleGood.Label(), goodResp.Title), rawOf(d.goodEx.Response, goodResp, m.view), goodResp)
		return
	}
	r := m.cur()
	if r == nil || r.last == nil {
		call := DescribeCall(m.sc)
		m.panes[0].SetContent("Request · the agent will send", "", func(w int) string {
			return wrapCall(call, w) + "\n\n" + ansi.Wrap(st.Muted.Render("Press enter to make the call."), w, "")
		})
		m.panes[1].SetContent("Response", "", func(w int) string {
			return ansi.Wrap(st.Muted.Render("No response yet."), w, "")
		})
		return
	}
	req, resp := wire.Render(*r.last, m.view)
	m.setPane(0, req.Title, rawOf(r.last.Request, req, m.view), req)
	m.setPane(1, fmt.Sprintf("%s · %s", resp.Title, m.attemptLabel(r.attempts)), rawOf(r.last.Response, resp, m.view), resp)
}

// rawOf is what y copies from a pane: the exact wire bytes in the MCP
// view, the pane's text in the others.
func rawOf(wireBytes []byte, p wire.Pane, v wire.View) string {
	if v == wire.ViewMCP {
		return string(wireBytes)
	}
	return p.Body
}

func (m *Model) setPane(i int, title, raw string, p wire.Pane) {
	m.setPaneNote(i, title, raw, p, "")
}

// setPaneNote is setPane with a muted note above the envelope.
func (m *Model) setPaneNote(i int, title, raw string, p wire.Pane, note string) {
	var d jsonview.Doc
	if p.JSON {
		d = jsonview.JSON(p.Body)
	} else {
		d = jsonview.Plain(p.Body)
	}
	st := m.c.Styles
	m.panes[i].SetContent(title, raw, func(w int) string {
		if note == "" {
			return d.Render(w, st)
		}
		return st.Muted.Render(ansi.Wrap(note, w, "")) + "\n\n" + d.Render(w, st)
	})
}

// ClipText implements common.ClipSource: the raw text of the envelope
// pane focused last.
func (m *Model) ClipText() (string, string, bool, string) {
	i := m.lastPane
	p := m.panes[i]
	if p.Raw() == "" {
		return "", "", false, "nothing to copy yet: make the call first (enter)"
	}
	label := "request"
	if i == focusResponse {
		label = "response"
	}
	if m.diffOn && m.diff != nil {
		label = m.diff.bad.Label() + " response"
		if i == focusResponse {
			label = "good response"
		}
	} else if m.view != wire.ViewMCP {
		label += " (" + m.view.Label() + ")"
	} else {
		label += " envelope"
	}
	return p.Raw(), label, true, ""
}

// exportName is errorlab-<id>-<style>-<rev>-attempt<n>.json; the root's
// writer adds -2, -3, ... before .json when the name is taken.
func exportName(id string, style mockserver.Style, rev rules.Revision, attempt int) string {
	return fmt.Sprintf("errorlab-%s-%s-%s-attempt%d.json", id, style, rev, attempt)
}

// ExportRecord implements common.ExportSource: the current exchange, or
// in the comparison the one whose pane was focused last.
func (m *Model) ExportRecord() (common.ExportRecord, string, bool, string) {
	var ex wire.Exchange
	style, attempt := m.style, 0
	switch {
	case m.diffOn && m.diff != nil:
		ex, style = m.diff.goodEx, mockserver.StyleGood
		if m.lastPane == focusRequest {
			ex, style = m.diff.badEx, m.diff.bad
		}
		attempt = 1
	case m.cur() != nil && m.cur().last != nil:
		ex, attempt = *m.cur().last, m.shownAttempt(m.cur().attempts)
	default:
		return common.ExportRecord{}, "", false, "nothing to write yet: make the call first (enter)"
	}
	return m.sc.Record(ex, style, attempt), exportName(m.sc.ID, style, ex.Revision, attempt), true, ""
}

// SideNote implements common.SideNoter: in the comparison with the
// verdict focused, y and w take the envelope pane focused last, which the
// learner may not have in mind; the status then says which side and how
// to pick.
func (m *Model) SideNote() common.SideNote {
	if !m.diffOn || m.diff == nil || m.focus != focusLower {
		return common.SideNote{}
	}
	what := "good response"
	if m.lastPane == focusRequest {
		what = m.diff.bad.Label() + " response"
	}
	where := "bad left, good right"
	if m.stacked {
		where = "bad above, good below"
	}
	return common.SideNote{What: what, Note: "compare: " + where + "; tab to choose"}
}
