package walkthrough

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// Handout writes the whole walkthrough as Markdown for the students: the
// narration, the exact envelopes of every live call and compare as json
// code blocks (the bytes the lab shows, indented as the lab indents
// them), each agent run as a short timeline, and the questions, with
// their answers and the explanation of every option gathered at the end.
// Presenter notes stay out. Every call and run is made afresh on the
// mock server, so the handout shows what the room saw.
func Handout(w io.Writer, wt *Walkthrough, cat *scenarios.Catalog, bank *quiz.Bank) error {
	h := handout{cat: cat, bank: bank}
	h.printf("# %s\n\n%s\n\n", clean(wt.Title), prose(wt.Summary))
	h.printf("*%d minutes · %d steps · topics: %s*\n", wt.Minutes, len(wt.Steps), strings.Join(wt.Topics, ", "))
	for i, st := range wt.Steps {
		h.gap()
		h.printf("## Step %d · %s\n\n", i+1, clean(st.Heading(cat)))
		if err := h.step(i, st); err != nil {
			return fmt.Errorf("walkthrough %s, step %d: %w", wt.ID, i+1, err)
		}
	}
	if len(h.asked) > 0 {
		h.gap()
		h.printf("## Answers\n")
		for n, a := range h.asked {
			h.answer(n+1, a)
		}
	}
	_, err := io.WriteString(w, h.b.String())
	return err
}

type handout struct {
	b     strings.Builder
	cat   *scenarios.Catalog
	bank  *quiz.Bank
	asked []asked
}

// asked is a question put to the room, kept for the answers at the end.
type asked struct {
	step int
	q    *quiz.Question
}

func (h *handout) printf(format string, a ...any) { fmt.Fprintf(&h.b, format, a...) }

// gap ends what came before with exactly one blank line.
func (h *handout) gap() {
	s := strings.TrimRight(h.b.String(), "\n")
	h.b.Reset()
	h.b.WriteString(s + "\n\n")
}

func (h *handout) step(i int, st *Step) error {
	ctx := context.Background()
	if st.Kind != KindQuestion && strings.TrimSpace(st.Text) != "" {
		text := prose(st.Text)
		if st.Kind == KindTakeaway {
			text = "> **Takeaway.** " + text
		}
		h.printf("%s\n\n", text)
	}
	switch st.Kind {
	case KindLiveCall:
		ex, err := st.Exchange(ctx, h.cat)
		if err != nil {
			return err
		}
		h.printf("Scenario `%s`, spec %s, response style %s.\n\n", st.Scenario, st.Revision, st.Style)
		h.envelope("Request (client → server)", ex.Request)
		h.envelope("Response (server → client)", ex.Response)
		h.reading(ex)
	case KindCompare:
		bad, good, err := st.Pair(ctx, h.cat)
		if err != nil {
			return err
		}
		h.printf("Scenario `%s`, spec %s: the same call answered in the %s style (%s), then in the good style.\n\n",
			st.Scenario, st.Revision, st.Bad, st.Bad.Description())
		if string(bad.Request) == string(good.Request) {
			h.envelope("Request (client → server)", good.Request)
		} else {
			h.envelope("Request, bad style", bad.Request)
			h.envelope("Request, good style", good.Request)
		}
		h.envelope("Response in the "+string(st.Bad)+" style", bad.Response)
		h.reading(bad)
		h.envelope("Response in the good style", good.Response)
		h.reading(good)
	case KindAgents:
		runs, err := st.Play(ctx, h.cat)
		if err != nil {
			return err
		}
		h.agents(runs)
	case KindQuestion:
		q, err := st.Ask(h.bank)
		if err != nil {
			return err
		}
		h.asked = append(h.asked, asked{step: i + 1, q: q})
		n := len(h.asked)
		h.printf("**Question %d.** %s\n\n", n, prose(q.Stem))
		if q.Multi {
			h.printf("*Choose all that apply.*\n\n")
		}
		for j, o := range q.Options {
			h.printf("- **%s.** %s\n", quiz.Letter(j), clean(o.Text))
		}
		h.printf("\n*The answer is at the end (question %d).*\n", n)
	}
	return nil
}

// envelope writes one message as a json code block, indented as the lab
// shows it.
func (h *handout) envelope(caption string, b []byte) {
	body := wire.Pretty(b)
	lang := "json"
	if !json.Valid(b) {
		lang = "text"
	}
	fence := fenceFor(body)
	h.printf("%s:\n\n%s%s\n%s\n%s\n\n", caption, fence, lang, body, fence)
}

// fenceFor is a code fence longer than any run of backticks in body.
func fenceFor(body string) string {
	longest, run := 0, 0
	for _, r := range body {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// reading says what the engine reads in a response.
func (h *handout) reading(ex wire.Exchange) {
	cl, err := ex.Classify()
	if err != nil {
		h.printf("The engine cannot read this response: %v.\n\n", err)
		return
	}
	h.printf("What the engine reads: %s.\n\n", describe(cl))
}

// describe puts a classification in words.
func describe(cl rules.Classification) string {
	switch cl.Layer {
	case rules.LayerProtocol:
		return fmt.Sprintf("a protocol error, code %d; no tool ran", cl.ProtocolCode)
	case rules.LayerExecution:
		s := "a tool execution error (isError true)"
		if cl.ErrorCategory != "" {
			s += ", errorCategory " + string(cl.ErrorCategory)
		} else {
			s += " with no errorCategory"
		}
		if cl.IsRetryable != nil {
			s += fmt.Sprintf(", isRetryable %v", *cl.IsRetryable)
		}
		return s
	}
	if cl.Empty {
		return "a success with nothing in it: the query ran and matched nothing"
	}
	return "a success"
}

// agents writes the runs of an agents step as timelines.
func (h *handout) agents(r *AgentRuns) {
	if c := r.Coordinator; c != nil {
		h.printf("**The subagent** (every call a real tools/call; waits on a virtual clock):\n\n")
		h.timeline(c.Subagent.Steps, "")
		rep, _ := json.MarshalIndent(c.Report, "", "  ")
		h.printf("\nThe one report it sends its coordinator:\n\n```json\n%s\n```\n\n", rep)
		action := "answers from the results"
		if c.CoordinatorAction != "" {
			action = fmt.Sprintf("chooses %s (%s)", c.CoordinatorAction, c.CoordinatorAction.Title())
		}
		h.printf("**The coordinator** %s: %s\n\n%s\n", action, c.CoordinatorSays, c.Why)
		return
	}
	for _, run := range []*agent.Run{r.Naive, r.Informed} {
		if run == nil {
			continue
		}
		meets := fmt.Sprintf(" (meets the %s style)", run.Style)
		if len(run.Parts) > 0 {
			meets = ""
		}
		h.printf("**The %s agent**%s: %s, %g s of virtual time; %s.\n\n", run.Agent, meets, plural(run.Calls, "call"), run.VirtualSeconds, run.Verdict)
		if len(run.Parts) > 0 {
			for _, p := range run.Parts {
				h.printf("- *%s* (%s style): %s\n", p.Scenario, p.Style, p.Verdict)
				h.timeline(p.Steps, "  ")
			}
		} else {
			h.timeline(run.Steps, "")
		}
		if run.Why != "" && len(run.Parts) == 0 {
			h.printf("\n%s\n", run.Why)
		}
		h.printf("\n")
	}
}

// timeline writes a run's steps as a Markdown list, one line each,
// indented under a series' task.
func (h *handout) timeline(steps []agent.Step, indent string) {
	for _, st := range steps {
		var what string
		switch st.Kind {
		case agent.StepCall, agent.StepEscalate:
			what = fmt.Sprintf("%s `%s` → %s", st.Kind, callText(st), outcome(st))
		case agent.StepWait:
			what = fmt.Sprintf("waits %g s (%s)", st.Seconds, st.Text)
		case agent.StepMessage:
			switch st.To {
			case "self":
				what = "decides: " + st.Text
			case "coordinator":
				what = "reports to the coordinator (the report follows)"
			default:
				what = fmt.Sprintf("to the %s: “%s”", st.To, st.Text)
			}
		}
		h.printf("%s- %.1f s · %s\n", indent, st.T, what)
	}
}

func callText(st agent.Step) string {
	if st.Exchange != nil && st.Exchange.Call.Raw != "" {
		return "hand-written bytes"
	}
	args, _ := json.Marshal(st.Arguments)
	return st.Tool + " " + string(args)
}

// outcome is a call's result in a few words.
func outcome(st agent.Step) string {
	cl := st.Outcome
	switch {
	case cl == nil:
		return "no readable answer"
	case cl.Layer == rules.LayerProtocol:
		return fmt.Sprintf("protocol error %d", cl.ProtocolCode)
	case cl.Layer == rules.LayerExecution:
		s := "isError true, no category"
		if cl.ErrorCategory != "" {
			s = "isError true, " + string(cl.ErrorCategory)
		}
		if cl.IsRetryable != nil {
			s += fmt.Sprintf(", isRetryable %v", *cl.IsRetryable)
		}
		return s
	case cl.Empty:
		return "success, nothing matched"
	}
	return "success"
}

// answer writes a question's answer and every option's explanation.
func (h *handout) answer(n int, a asked) {
	right := map[int]bool{}
	var letters []string
	for _, i := range a.q.Correct() {
		right[i] = true
		letters = append(letters, quiz.Letter(i))
	}
	h.printf("\n**Question %d** (step %d): %s. Rule %s.\n\n", n, a.step, strings.Join(letters, " and "), a.q.Rule)
	for j, o := range a.q.Options {
		mark := "✗"
		if right[j] {
			mark = "✓"
		}
		h.printf("- %s **%s.** %s — %s\n", mark, quiz.Letter(j), clean(o.Text), clean(o.Explanation))
	}
}

// prose is a block of text as Markdown paragraphs: the lines of each
// paragraph joined, paragraphs kept apart by a blank line.
func prose(s string) string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		if p = clean(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}

// clean puts text on one line (a heading, a list item).
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
