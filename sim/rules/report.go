package rules

// ReportKind is what a subagent sends its coordinator about a failure it
// could not resolve (LESSON-RULES §5).
type ReportKind string

const (
	// ReportBare is a bare "lookup failed": no category, no partial
	// results, nothing about what was tried.
	ReportBare ReportKind = "bare_failure"
	// ReportEmpty passes the failure off as an empty success.
	ReportEmpty ReportKind = "empty_success"
	// ReportEvery forwards each failed try upward as it happens, before
	// any local recovery.
	ReportEvery ReportKind = "every_failure"
	// ReportStructured is one report with the partial results, the
	// unresolved error with its category, and what was attempted.
	ReportStructured ReportKind = "structured_partial"
)

// ReportKinds lists the report choices in the order the lab offers them.
var ReportKinds = []ReportKind{ReportBare, ReportEmpty, ReportEvery, ReportStructured}

var reportTitle = map[ReportKind]string{
	ReportBare:       "a bare \"it failed\"",
	ReportEmpty:      "an empty success",
	ReportEvery:      "each failed try, as it happens",
	ReportStructured: "one structured partial report",
}

// Title names the report kind for a screen.
func (k ReportKind) Title() string { return reportTitle[k] }

// Example sketches the report's JSON for a failure of tool in category c
// (e.g. lookup_order, transient).
func (k ReportKind) Example(tool string, c Category) string {
	switch k {
	case ReportBare:
		return `{"status":"failed","message":"` + tool + ` failed"}`
	case ReportEmpty:
		return `{"status":"complete","results":[]}`
	case ReportEvery:
		return `{"event":"` + tool + ` attempt 1 failed"} … {"event":"` + tool + ` attempt 2 failed"} …`
	}
	return `{"status":"partial","partialResults":{...},"error":{"tool":"` + tool + `","errorCategory":"` + string(c) + `"},"attempted":[...]}`
}

// ScoreReport grades the report a subagent sends upward.
func ScoreReport(k ReportKind) Verdict {
	switch k {
	case ReportStructured:
		return Verdict{Grade: GradeBest, Rule: Lookup(RuleReportUpward),
			Why: "The coordinator gets what it needs to decide: what was obtained, what failed and how (its category), and what was already tried, so nothing is redone blind."}
	case ReportEmpty:
		return Verdict{Grade: GradeWrong, Rule: Lookup(RuleNoSuppression),
			Why: "Passing a failure up as an empty success hides it: the coordinator cannot tell \"found nothing\" from \"could not look\" and answers the customer with confidence and wrongly."}
	case ReportEvery:
		return Verdict{Grade: GradeWrong, Rule: Lookup(RuleRecoverLocally),
			Why: "Sending every failed try upward makes the coordinator do the subagent's job: the subagent holds the tool and the arguments, so it retries locally and reports once, only what it could not resolve."}
	}
	return Verdict{Grade: GradeWrong, Rule: Lookup(RuleReportUpward),
		Why: "A bare \"lookup failed\" repeats the generic-error problem one level up: no category, no partial results, no record of the retries, so the coordinator can only guess or start over."}
}

// CoordinatorSituation is the situation a coordinator faces on receiving a
// report whose unresolved error has this category (or a JSON-RPC code for
// a protocol error): the subagent has already spent its retries.
func CoordinatorSituation(c Category, protocolCode int) Situation {
	if protocolCode != 0 {
		return Situation{Layer: LayerProtocol, Coordinator: true}
	}
	return Situation{Layer: LayerExecution, Category: c, RetriesExhausted: c == Transient, Coordinator: true}
}
