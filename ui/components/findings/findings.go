// Package findings draws what `errorlab check` found in a response: one
// block per finding (its symbol, check id, LESSON-RULES section and JSON
// path, what is wrong here, and the fix), a header per response, and the
// summary line. The command line's text output, the Check page and the
// lab's `c` all draw findings with it.
//
// Every state carries a symbol as well as a colour (✓ clean, ⚠ warning,
// ✗ error, • note), so it reads under NO_COLOR and on a projector. Text
// that came from a server is sanitized: a control sequence in a message
// cannot move the cursor or change colours.
package findings

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/check"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/styles"
)

// SeveritySymbol is a finding's symbol and style: ✗ error, ⚠ warning, • note.
func SeveritySymbol(st *styles.Styles, s grade.Severity) (string, lipgloss.Style) {
	switch s {
	case grade.SevError:
		return "✗", st.Bad
	case grade.SevWarning:
		return "⚠", st.Warn
	}
	return "•", st.Info
}

// VerdictSymbol is a response's symbol and style: ✓ clean, ⚠ warn, ✗ fail.
func VerdictSymbol(st *styles.Styles, v grade.Verdict) (string, lipgloss.Style) {
	switch v {
	case grade.Fail:
		return "✗", st.Bad
	case grade.Warn:
		return "⚠", st.Warn
	}
	return "✓", st.OK
}

// Header is one response's first line: its verdict, label and source,
// e.g. "✗ fail  tools/call read_text_file  probe 7: example 1". w <= 0
// does not cut it.
func Header(st *styles.Styles, v grade.Verdict, label, source string, w int) string {
	sym, ss := VerdictSymbol(st, v)
	line := ss.Bold(true).Render(sym+" "+string(v)) + "  " + st.Bold.Render(common.Sanitize(common.OneLineText(label))) +
		"  " + st.Muted.Render(common.Sanitize(common.OneLineText(source)))
	if w > 0 {
		line = ansi.Truncate(line, w, "…")
	}
	return line
}

// Lines draws findings, most severe first, each as a head line
// ("✗ leak.path · §6 Safe to show the model · $.result.content[0].text"),
// the message and "fix: …", indented by indent spaces and wrapped to w
// cells (w <= 0: not wrapped, one line each).
func Lines(st *styles.Styles, fs []grade.Finding, w, indent int) []string {
	pad := strings.Repeat(" ", indent)
	var out []string
	for _, f := range Sorted(fs) {
		sym, ss := SeveritySymbol(st, f.Severity)
		head := ss.Render(sym+" "+string(f.ID)) + st.Muted.Render(" · "+rules.Lookup(f.Rule).Ref()+" · "+f.Path)
		if w > 0 {
			head = ansi.Truncate(head, max(w-indent, 1), "…")
		}
		out = append(out, pad+head)
		out = append(out, wrap(st.Plain, "", common.Sanitize(f.Message), w, indent+2)...)
		out = append(out, wrap(st.Muted, "fix: ", f.Fix, w, indent+2)...)
	}
	return out
}

// Sorted returns the findings errors first, then warnings, then notes,
// keeping the grader's order within each.
func Sorted(fs []grade.Finding) []grade.Finding {
	out := make([]grade.Finding, 0, len(fs))
	for _, sev := range []grade.Severity{grade.SevError, grade.SevWarning, grade.SevNote} {
		for _, f := range fs {
			if f.Severity == sev {
				out = append(out, f)
			}
		}
	}
	return out
}

func wrap(s lipgloss.Style, lead, text string, w, indent int) []string {
	pad := strings.Repeat(" ", indent)
	if w <= 0 {
		return []string{pad + s.Render(lead+common.OneLineText(text))}
	}
	// Broken at spaces only: a hyphen is part of a code (-32602) or an
	// id, never a place to break it.
	lines := common.WrapWords(lead+common.OneLineText(text), max(w-indent, 10))
	for i, l := range lines {
		lines[i] = pad + s.Render(l)
	}
	return lines
}

// Summary is the closing line: "27 responses: 3 ✓ clean, 2 ⚠ warn, 22 ✗
// fail · 30 errors, 5 warnings, 1 note".
func Summary(st *styles.Styles, s check.Summary) string {
	return fmt.Sprintf("%s: %s, %s, %s · %s, %s, %s", st.Bold.Render(common.Plural(s.Responses, "response")),
		st.OK.Render(fmt.Sprintf("%d ✓ clean", s.Clean)), st.Warn.Render(fmt.Sprintf("%d ⚠ warn", s.Warn)),
		st.Bad.Render(fmt.Sprintf("%d ✗ fail", s.Fail)),
		common.Plural(s.Errors, "error"), common.Plural(s.Warnings, "warning"), common.Plural(s.Notes, "note"))
}

// Report draws graded responses for the command line: a header per
// response, its findings with their fixes, a blank line between
// responses, and the summary line.
func Report(st *styles.Styles, results []check.Result, w int) []string {
	var out []string
	EachLine(st, results, w, func(l string) { out = append(out, l) })
	return out
}

// EachLine is Report one line at a time, so that a long report is
// written as it is drawn rather than held whole. The spec revision the
// responses were graded under opens the report when they share one, and
// follows each response's source when they do not.
func EachLine(st *styles.Styles, results []check.Result, w int, line func(string)) {
	spec := SharedSpec(results)
	if spec != "" {
		line(st.Muted.Render("graded under spec " + string(spec)))
	}
	for i, r := range results {
		if i > 0 && (len(r.Report.Findings) > 0 || len(results[i-1].Report.Findings) > 0) {
			line("")
		}
		source := r.Source
		if spec == "" {
			source += " · spec " + string(r.Spec)
		}
		line(Header(st, r.Report.Verdict, r.Label, source, w))
		for _, l := range Lines(st, r.Report.Findings, w, 2) {
			line(l)
		}
	}
	if len(results) > 0 {
		line("")
	}
	line(Summary(st, check.Summarize(results)))
}

// SharedSpec is the revision every result was graded under, "" when they
// differ (or there is none).
func SharedSpec(results []check.Result) rules.Revision {
	var spec rules.Revision
	for i, r := range results {
		if i > 0 && r.Spec != spec {
			return ""
		}
		spec = r.Spec
	}
	return spec
}
