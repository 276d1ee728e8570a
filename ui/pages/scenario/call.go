package scenario

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/common"
)

// callTimeout bounds one in-process call (handshake included).
const callTimeout = 10 * time.Second

// runKey names one session: a scenario is called in one style under one
// revision; each combination keeps its own session and attempt count.
type runKey struct {
	style mockserver.Style
	rev   rules.Revision
}

type run struct {
	sess     *wire.Session
	attempts int
	last     *wire.Exchange
	class    string
}

type callDoneMsg struct {
	owner *Model
	key   runKey
	gen   int
	sess  *wire.Session
	ex    wire.Exchange
	class string
	err   error
}

// goodCustomerMsg carries the customerMessage of the good-style response
// to the scenario's call, fetched for the verdict's "Tell the customer".
type goodCustomerMsg struct {
	owner *Model
	gen   int
	text  string
}

// call makes the scenario's call once more on the session of the current
// style and revision, opening it first if needed.
func (m *Model) call() tea.Cmd {
	if m.busy {
		m.c.SetStatus(common.StatusWarn, "still waiting for the previous call")
		return nil
	}
	k := runKey{m.style, m.rev}
	var sess *wire.Session
	if r := m.runs[k]; r != nil {
		sess = r.sess
		if m.sc.RetriesExhausted && r.attempts > 0 {
			// The scenario starts after the last resend the cap allows.
			m.c.SetStatus(common.StatusWarn, "the retry cap is spent: decide what the subagent does now (1-9)")
			return nil
		}
	}
	m.busy = true
	sc, owner, gen := m.sc, m, m.gen
	return common.Safe("the call", func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		if sess == nil {
			s, err := sc.Open(ctx, k.style, k.rev)
			if err != nil {
				return callDoneMsg{owner: owner, key: k, gen: gen, err: fmt.Errorf("opening a session: %w", err)}
			}
			sess = s
		}
		ex, err := sess.Call(ctx, sc.Call)
		msg := callDoneMsg{owner: owner, key: k, gen: gen, sess: sess, ex: ex, err: err}
		if err == nil {
			msg.class = classSummary(ex)
		}
		return msg
	})
}

func (m *Model) callDone(msg callDoneMsg) {
	if msg.gen != m.gen {
		// The style or revision changed while the call was out: its run
		// was reset, so this answer belongs to nothing on screen (and the
		// busy flag to a newer call, if any).
		if msg.sess != nil {
			_ = msg.sess.Close()
		}
		return
	}
	m.busy = false
	r := m.runs[msg.key]
	if r == nil {
		r = &run{}
		m.runs[msg.key] = r
	}
	if msg.sess != nil {
		r.sess = msg.sess
	}
	if m.closed && r.sess != nil {
		_ = r.sess.Close()
	}
	if msg.err != nil {
		m.c.SetStatus(common.StatusError, "the call failed: %v", msg.err)
		return
	}
	r.attempts++
	ex := msg.ex
	r.last, r.class = &ex, msg.class
	if msg.key == (runKey{m.style, m.rev}) {
		m.setFocus(focusResponse)
		label := m.attemptLabel(r.attempts)
		if m.sc.InSubagent {
			m.c.SetStatus(common.StatusInfo, "%s: %s · e opens the propagation exercise", label, msg.class)
		} else {
			m.c.SetStatus(common.StatusInfo, "%s: %s", label, msg.class)
		}
		m.refreshPanes()
		m.refreshCaveat()
	}
}

// shownAttempt is the attempt number the learner sees: a scenario whose
// retries are already spent starts at the last attempt the cap allows.
func (m *Model) shownAttempt(attempts int) int {
	if m.sc.RetriesExhausted {
		return attempts + rules.MaxRetries
	}
	return attempts
}

// attemptLabel is "attempt 2", or "attempt 4 of 4 · retry cap spent".
func (m *Model) attemptLabel(attempts int) string {
	n := m.shownAttempt(attempts)
	if m.sc.RetriesExhausted {
		return fmt.Sprintf("attempt %d of %d · retry cap spent", n, rules.MaxRetries+1)
	}
	return fmt.Sprintf("attempt %d", n)
}

// resetRun forgets the response of the current style and revision, so
// the screen shows no response until the next call, and drops any call
// still out.
func (m *Model) resetRun() {
	k := runKey{m.style, m.rev}
	if r := m.runs[k]; r != nil && r.sess != nil {
		_ = r.sess.Close()
	}
	delete(m.runs, k)
	m.gen++
	m.busy = false
}

// classSummary says what a response is, in a few words, from rules.Classify.
func classSummary(ex wire.Exchange) string {
	c, err := ex.Classify()
	if err != nil {
		return "the response is not a JSON-RPC response"
	}
	switch c.Layer {
	case rules.LayerProtocol:
		return fmt.Sprintf("protocol error %d (no tool result)", c.ProtocolCode)
	case rules.LayerSuccess:
		if c.Empty {
			return "success, empty result"
		}
		if common.LooksLikeErrorText(ex) {
			return "success (no isError) whose text reads as an error"
		}
		return "success"
	}
	s := "tool execution error (isError: true)"
	if c.ErrorCategory != "" {
		s += ", " + string(c.ErrorCategory)
	} else {
		s += ", no errorCategory"
	}
	if c.IsRetryable != nil {
		s += fmt.Sprintf(", isRetryable %v", *c.IsRetryable)
	}
	return s
}

// fetchCustomer finds the customerMessage of the good-style response for
// the verdict's "Tell the customer:", shown with the best answer only:
// from a good response at hand (the comparison's good side, or the good
// style's last call), or else from a fresh good-style call in a command.
func (m *Model) fetchCustomer() tea.Cmd {
	m.customerGen++
	m.toolCustomer = ""
	if v := m.verdict; v == nil || v.Grade != rules.GradeBest || v.Action != m.sc.BestAction {
		return nil
	}
	var good *wire.Exchange
	switch {
	case m.diff != nil && m.diff.rev == m.rev:
		good = &m.diff.goodEx
	case m.runs[runKey{mockserver.StyleGood, m.rev}] != nil && m.runs[runKey{mockserver.StyleGood, m.rev}].last != nil:
		good = m.runs[runKey{mockserver.StyleGood, m.rev}].last
	}
	if good != nil {
		m.toolCustomer = customerMessageOf(good.Response)
		return nil
	}
	sc, rev, owner, gen := m.sc, m.rev, m, m.customerGen
	return common.Safe("the good response", func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		ex, err := sc.Exchange(ctx, mockserver.StyleGood, rev)
		if err != nil {
			return goodCustomerMsg{owner: owner, gen: gen}
		}
		return goodCustomerMsg{owner: owner, gen: gen, text: customerMessageOf(ex.Response)}
	})
}

// customerMessageOf is the customerMessage a response's metadata carries.
func customerMessageOf(resp []byte) string {
	c, err := rules.Classify(resp)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(c.Meta.CustomerMessage)
}

// customer is what the verdict tells the customer: the good response's
// customerMessage, else the scenario's own text, on the scenario's best
// action only ("" on any other).
func (m *Model) customer() string {
	if m.verdict == nil || m.verdict.Action != m.sc.BestAction {
		return ""
	}
	if m.toolCustomer != "" {
		return m.toolCustomer
	}
	return strings.TrimSpace(m.sc.CustomerMessage)
}

// DescribeCall is what the agent will send on sc: the tool and its
// arguments as compact JSON (a string "24.99" keeps its quotes), or the
// raw bytes of a hand-written request.
func DescribeCall(sc *scenarios.Scenario) string {
	c := sc.Call
	if c.Raw != "" {
		return "hand-written bytes:\n" + c.Raw
	}
	return fmt.Sprintf("tools/call %s %s", c.Tool, common.ArgsJSON(c.Arguments))
}

// callLines is how many lines the call summary takes at inner width w.
func (m *Model) callLines(w int) int {
	return len(strings.Split(wrapCall(DescribeCall(m.sc), w), "\n"))
}

// wrapCall wraps a call summary to w cells, breaking after a comma or at
// a space (never inside "ORD-4471" at its hyphen), and cutting a token
// only when it is wider than a line.
func wrapCall(s string, w int) string {
	w = max(w, 1)
	var out []string
	for _, para := range strings.Split(s, "\n") {
		var tokens []string
		start := 0
		for i, r := range para {
			if r == ',' || r == ' ' {
				tokens = append(tokens, para[start:i+1])
				start = i + 1
			}
		}
		if start < len(para) {
			tokens = append(tokens, para[start:])
		}
		line := ""
		flush := func() {
			out = append(out, strings.TrimRight(line, " "))
			line = ""
		}
		for _, t := range tokens {
			if line != "" && ansi.StringWidth(strings.TrimRight(line+t, " ")) > w {
				flush()
			}
			if line == "" {
				t = strings.TrimLeft(t, " ")
			}
			for ansi.StringWidth(t) > w {
				// A token wider than a line: cut it.
				head := ansi.Truncate(t, w-ansi.StringWidth(line), "")
				if head == "" {
					flush()
					continue
				}
				line += head
				t = t[len(head):]
				flush()
			}
			line += t
		}
		flush()
	}
	return strings.Join(out, "\n")
}
