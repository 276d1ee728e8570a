package check

import (
	"encoding/json"
	"io"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
)

// Run describes the run the results came from, for the report formats.
type Run struct {
	// Version is errorlab's version.
	Version string
	// FailOn is the lowest severity that fails the run (error or warning).
	FailOn grade.Severity
	// Target names what was checked when it was not a file: the server
	// command or URL of a live probe.
	Target string
}

// JSONReport is `errorlab check --format json`. Its shape is stable
// (documented in the README): new members may be added, none renamed or
// removed.
type JSONReport struct {
	Errorlab  string         `json:"errorlab"`
	Target    string         `json:"target,omitempty"`
	FailOn    grade.Severity `json:"failOn"`
	Failed    bool           `json:"failed"`
	Summary   Summary        `json:"summary"`
	Responses []JSONResponse `json:"responses"`
}

// JSONResponse is one graded response.
type JSONResponse struct {
	Source string         `json:"source"`
	Label  string         `json:"label"`
	Spec   rules.Revision `json:"spec"`
	// Verdict is clean, warn or fail.
	Verdict        grade.Verdict         `json:"verdict"`
	Classification *rules.Classification `json:"classification"`
	// Request and Response are the exact bytes, as JSON strings; Request
	// is null when there was none.
	Request  *string         `json:"request"`
	Response string          `json:"response"`
	Findings []grade.Finding `json:"findings"`
}

// NewJSONReport builds the JSON report of results.
func NewJSONReport(results []Result, run Run) JSONReport {
	rep := JSONReport{Errorlab: run.Version, Target: run.Target, FailOn: failOn(run), Failed: Failed(results, failOn(run)),
		Summary: Summarize(results), Responses: make([]JSONResponse, 0, len(results))}
	for _, r := range results {
		jr := JSONResponse{Source: r.Source, Label: r.Label, Spec: r.Spec, Verdict: r.Report.Verdict,
			Classification: r.Report.Classification, Response: string(r.Response), Findings: r.Report.Findings}
		if r.Request != nil {
			s := string(r.Request)
			jr.Request = &s
		}
		rep.Responses = append(rep.Responses, jr)
	}
	return rep
}

// WriteJSON writes the JSON report, indented by two spaces.
func WriteJSON(w io.Writer, results []Result, run Run) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(NewJSONReport(results, run))
}

func failOn(run Run) grade.Severity {
	if run.FailOn == "" {
		return grade.SevError
	}
	return run.FailOn
}
