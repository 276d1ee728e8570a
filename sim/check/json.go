package check

import (
	"bufio"
	"bytes"
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
		rep.Responses = append(rep.Responses, jsonResponse(r))
	}
	return rep
}

func jsonResponse(r Result) JSONResponse {
	jr := JSONResponse{Source: r.Source, Label: r.Label, Spec: r.Spec, Verdict: r.Report.Verdict,
		Classification: r.Report.Classification, Response: string(r.Response), Findings: r.Report.Findings}
	if r.Request != nil {
		s := string(r.Request)
		jr.Request = &s
	}
	return jr
}

// WriteJSON writes the JSON report, indented by two spaces. The responses
// are written one by one, so a large input is never held twice in memory.
func WriteJSON(w io.Writer, results []Result, run Run) error {
	rep := NewJSONReport(nil, run)
	rep.Failed, rep.Summary = Failed(results, failOn(run)), Summarize(results)
	if len(results) == 0 {
		return encodeIndented(w, rep, "")
	}
	var head bytes.Buffer
	if err := encodeIndented(&head, rep, ""); err != nil {
		return err
	}
	// The header ends with `"responses": []` and the closing brace: write
	// it up to the array, then each response in the indentation the whole
	// document would have.
	b := bytes.TrimRight(head.Bytes(), "\n}")
	b = bytes.TrimSuffix(b, []byte("[]"))
	bw := bufio.NewWriter(w)
	_, _ = bw.Write(b)
	_, _ = bw.WriteString("[\n    ")
	for i, r := range results {
		if i > 0 {
			_, _ = bw.WriteString(",\n    ")
		}
		var one bytes.Buffer
		if err := encodeIndented(&one, jsonResponse(r), "    "); err != nil {
			return err
		}
		_, _ = bw.Write(bytes.TrimRight(one.Bytes(), "\n"))
	}
	_, _ = bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

func encodeIndented(w io.Writer, v any, prefix string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func failOn(run Run) grade.Severity {
	if run.FailOn == "" {
		return grade.SevError
	}
	return run.FailOn
}
