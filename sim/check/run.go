package check

import (
	"github.com/errorlab/errorlab/sim/grade"
)

// Result is one graded response.
type Result struct {
	Item
	Report grade.Report
}

// GradeItem grades one item with sim/grade.
func GradeItem(it Item) Result {
	return Result{Item: it, Report: grade.Grade(grade.Input{Request: it.Request, Response: it.Response, Tools: it.Tools, Spec: it.Spec,
		Truth: it.Truth, Waited: it.Waited, Ended: it.Ended, Stray: it.Stray})}
}

// GradeAll grades every item, in order.
func GradeAll(items []Item) []Result {
	out := make([]Result, len(items))
	for i, it := range items {
		out[i] = GradeItem(it)
	}
	return out
}

// Summary counts responses by verdict and findings by severity.
type Summary struct {
	Responses int `json:"responses"`
	Clean     int `json:"clean"`
	Warn      int `json:"warn"`
	Fail      int `json:"fail"`
	Errors    int `json:"errors"`
	Warnings  int `json:"warnings"`
	Notes     int `json:"notes"`
}

// Summarize counts the results.
func Summarize(results []Result) Summary {
	var s Summary
	for _, r := range results {
		s.Responses++
		switch r.Report.Verdict {
		case grade.Clean:
			s.Clean++
		case grade.Warn:
			s.Warn++
		case grade.Fail:
			s.Fail++
		}
		for _, f := range r.Report.Findings {
			switch f.Severity {
			case grade.SevError:
				s.Errors++
			case grade.SevWarning:
				s.Warnings++
			case grade.SevNote:
				s.Notes++
			}
		}
	}
	return s
}

// Failed reports whether the results fail a run that fails on failOn:
// grade.SevError (the default) fails on any error finding,
// grade.SevWarning on any error or warning.
func Failed(results []Result, failOn grade.Severity) bool {
	for _, r := range results {
		if Fails(r.Report, failOn) {
			return true
		}
	}
	return false
}

// Fails reports whether one report fails under failOn (see Failed).
func Fails(rep grade.Report, failOn grade.Severity) bool {
	for _, f := range rep.Findings {
		if fails(f, failOn) {
			return true
		}
	}
	return false
}
