package scenarios

import (
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// ExchangeRecord is one exchange of a scenario with its context: what
// `errorlab scenarios show --json` prints and what the lab's `w` writes.
// Request and Response are the exact bytes as JSON strings;
// Classification is rules.Classify of the response (null, with
// ClassificationError, when it is unreadable); Expected, BestAction and
// AcceptableActions are the scenario's truth under Spec.
type ExchangeRecord struct {
	ID                  string                `json:"id"`
	Title               string                `json:"title"`
	Spec                rules.Revision        `json:"spec"`
	Style               mockserver.Style      `json:"style"`
	Attempt             int                   `json:"attempt,omitempty"`
	Call                wire.Call             `json:"call"`
	Request             string                `json:"request"`
	Response            string                `json:"response"`
	Classification      *rules.Classification `json:"classification"`
	ClassificationError string                `json:"classificationError,omitempty"`
	Expected            Expected              `json:"expected"`
	BestAction          rules.Action          `json:"bestAction"`
	AcceptableActions   []rules.Action        `json:"acceptableActions"`
}

// Record describes an exchange of this scenario made in a style (attempt
// 0 when it does not apply).
func (s *Scenario) Record(ex wire.Exchange, style mockserver.Style, attempt int) ExchangeRecord {
	t := s.TruthAt(ex.Revision)
	r := ExchangeRecord{
		ID: s.ID, Title: s.Title, Spec: ex.Revision, Style: style, Attempt: attempt, Call: ex.Call,
		Request: string(ex.Request), Response: string(ex.Response),
		Expected: t.Expected, BestAction: t.Best, AcceptableActions: t.Acceptable,
	}
	if r.AcceptableActions == nil {
		r.AcceptableActions = []rules.Action{}
	}
	if c, err := ex.Classify(); err != nil {
		r.ClassificationError = err.Error()
	} else {
		r.Classification = &c
	}
	return r
}
