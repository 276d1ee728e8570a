package check

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/errorlab/errorlab/sim/grade"
)

// JUnit XML, the shape CI systems read (Ant's and Jenkins' schema): one
// test suite, one test case per response, a <failure> for a response that
// fails the run, and every finding with its fix in the case's output.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the results as JUnit XML: a response fails when it has
// a finding at run.FailOn or above.
func WriteJUnit(w io.Writer, results []Result, run Run) error {
	suite := junitSuite{Name: "errorlab check", Tests: len(results)}
	if run.Target != "" {
		suite.Name = "errorlab check " + run.Target
	}
	for _, r := range results {
		c := junitCase{Classname: "errorlab.check", Name: r.Source + " " + r.Label}
		var failing, all []string
		var first *grade.Finding
		for i, f := range r.Report.Findings {
			line := fmt.Sprintf("%s %s (%s %s) at %s: %s\n  fix: %s", f.Severity, f.ID, f.Section, f.Rule, f.Path, f.Message, f.Fix)
			all = append(all, line)
			if fails(f, failOn(run)) {
				failing = append(failing, line)
				if first == nil {
					first = &r.Report.Findings[i]
				}
			}
		}
		if first != nil {
			suite.Failures++
			c.Failure = &junitFailure{Message: fmt.Sprintf("%s: %s", first.ID, first.Message), Type: string(first.ID),
				Text: strings.Join(failing, "\n")}
		}
		if len(all) > 0 {
			c.SystemOut = strings.Join(all, "\n")
		}
		suite.Cases = append(suite.Cases, c)
	}
	out := junitSuites{Name: "errorlab check", Tests: suite.Tests, Failures: suite.Failures, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func fails(f grade.Finding, failOn grade.Severity) bool {
	return f.Severity == grade.SevError || (failOn == grade.SevWarning && f.Severity == grade.SevWarning)
}
