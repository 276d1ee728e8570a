package scenario

import (
	"fmt"
	"strings"
	"sync"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
	"github.com/errorlab/errorlab/ui/components/verdict"
)

// mockTools is the mock server's tool declarations, for the grader.
var mockTools = sync.OnceValue(func() []grade.Tool {
	var out []grade.Tool
	for _, t := range mockserver.New(mockserver.Options{}).Tools() {
		out = append(out, grade.Tool{Name: t.Name, InputSchema: t.RawInputSchema, OutputSchema: t.RawOutputSchema})
	}
	return out
})

// shown is the exchange whose response is on screen for the current
// style and the attempt it was (the comparison's calls are first calls).
func (m *Model) shown() (*wire.Exchange, int) {
	if m.diffOn && m.diff != nil {
		if m.style.Good() {
			return &m.diff.goodEx, 1
		}
		return &m.diff.badEx, 1
	}
	if r := m.cur(); r != nil && r.last != nil {
		return r.last, r.attempts
	}
	return nil, 0
}

// refreshCaveat recomputes the caveat for the verdict and the response
// now on screen. It runs in Update (the grader is not free).
func (m *Model) refreshCaveat() {
	old := m.caveat
	m.caveat = m.computeCaveat()
	if old != m.caveat {
		m.lowerGen++
	}
}

// computeCaveat is what the verdict adds under a bad style whose
// response hides or garbles what really happened; nil when there is no
// verdict, the style is good or makes no difference, or the response
// on screen tells the truth without defects.
func (m *Model) computeCaveat() *verdict.Caveat {
	if m.verdict == nil || !m.badStyleMatters() {
		return nil
	}
	ex, attempt := m.shown()
	if ex == nil {
		return nil
	}
	if f := m.sc.Failure; f.SucceedOnAttempt > 0 && attempt >= f.SucceedOnAttempt {
		// The failure has passed (the resend worked): the response on
		// screen is a real success, not the style hiding a failure.
		return nil
	}
	cl, err := ex.Classify()
	if err != nil {
		return nil
	}
	truth := m.sc.SituationAt(m.rev)
	rep := grade.Grade(grade.Input{Request: ex.Request, Response: ex.Response, Tools: mockTools(), Spec: m.rev, Truth: &truth})
	cv := &verdict.Caveat{Style: m.style, Truth: truthText(m.sc.TruthAt(m.rev).Expected, m.sc.RetriesExhausted)}
	seen := map[grade.Defect]bool{}
	for _, f := range rep.Findings {
		if f.Severity == grade.SevNote || seen[f.Defect] {
			continue
		}
		seen[f.Defect] = true
		cv.Findings = append(cv.Findings, f)
		if f.Defect == grade.DefectNoTextBlock {
			cv.Textless = true
		}
	}
	cv.Gap = gapText(m.sc.TruthAt(m.rev).Expected, cl)
	if cv.Gap == "" && len(cv.Findings) == 0 {
		return nil
	}
	return cv
}

// truthText says what really happened, e.g. "a transient error
// (isRetryable true)".
func truthText(e scenarios.Expected, exhausted bool) string {
	switch e.Layer {
	case rules.LayerProtocol:
		return fmt.Sprintf("a JSON-RPC protocol error (%d): no tool ran", e.ProtocolCode)
	case rules.LayerSuccess:
		if e.Empty {
			return "a valid empty result: the query ran and found nothing"
		}
		return "a success"
	}
	s := "a tool execution error"
	if e.ErrorCategory != "" {
		s = fmt.Sprintf("a %s error", e.ErrorCategory)
	}
	if e.IsRetryable != nil {
		s += fmt.Sprintf(" (isRetryable %v)", *e.IsRetryable)
	}
	if exhausted {
		s += " whose retries are spent"
	}
	return s
}

// gapText says what the response (classified as cl) fails to tell about
// the truth e, or "" when its classification matches.
func gapText(e scenarios.Expected, cl rules.Classification) string {
	switch {
	case cl.Layer == rules.LayerProtocol && e.Layer != rules.LayerProtocol:
		return fmt.Sprintf("it is a JSON-RPC error %d, so no tool result reaches the model", cl.ProtocolCode)
	case cl.Layer == rules.LayerSuccess && e.Layer != rules.LayerSuccess:
		if cl.Empty {
			return "it has no isError and reads as a success that found nothing"
		}
		return "it has no isError, so it reads as a success, and it carries no errorCategory or isRetryable"
	case cl.Layer != e.Layer:
		return fmt.Sprintf("it reads as %s", cl.Layer)
	case cl.Layer != rules.LayerExecution:
		return ""
	}
	var parts []string
	switch {
	case cl.ErrorCategory == "" && cl.IsRetryable == nil:
		parts = append(parts, "it carries no errorCategory and no isRetryable")
	case cl.ErrorCategory == "":
		parts = append(parts, "it carries no errorCategory")
	case e.ErrorCategory != "" && cl.ErrorCategory != e.ErrorCategory:
		parts = append(parts, fmt.Sprintf("its errorCategory says %s", cl.ErrorCategory))
	}
	if cl.ErrorCategory != "" {
		switch {
		case cl.IsRetryable == nil:
			parts = append(parts, "it carries no isRetryable")
		case e.IsRetryable != nil && *cl.IsRetryable != *e.IsRetryable:
			parts = append(parts, fmt.Sprintf("its isRetryable says %v", *cl.IsRetryable))
		}
	}
	return strings.Join(parts, "; ")
}
