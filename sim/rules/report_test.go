package rules_test

import (
	"testing"

	"github.com/errorlab/errorlab/sim/rules"
)

// A tool failure written as a -32603 protocol error: fixing the server is
// an acceptable reading of what is seen; the truth still decides the best
// move, and without the seen layer fix_client stays wrong.
func TestFixClientOnAProtocolErrorThatHidesAToolFailure(t *testing.T) {
	truth := rules.Situation{Layer: rules.LayerExecution, Category: rules.Transient}
	if v := rules.Score(truth, rules.FixClient); v.Grade != rules.GradeWrong {
		t.Fatalf("fix_client on a plain transient error: %s", v.Grade)
	}
	seen := truth
	seen.Seen = rules.LayerProtocol
	v := rules.Score(seen, rules.FixClient)
	if v.Grade != rules.GradeAcceptable || v.Rule.ID != rules.RuleGoError {
		t.Fatalf("fix_client when a -32603 is on screen: %s %s", v.Grade, v.Rule.ID)
	}
	if b := rules.Score(seen, rules.RetrySame); b.Grade != rules.GradeBest {
		t.Fatalf("the truth's best move changed: %s", b.Grade)
	}
}

func TestReportKinds(t *testing.T) {
	for _, k := range rules.ReportKinds {
		v := rules.ScoreReport(k)
		if (k == rules.ReportStructured) != (v.Grade == rules.GradeBest) {
			t.Errorf("%s graded %s", k, v.Grade)
		}
		if k.Title() == "" || k.Example("lookup_order", rules.Transient) == "" {
			t.Errorf("%s has no title or example", k)
		}
	}
	if rules.ScoreReport(rules.ReportEvery).Rule.ID != rules.RuleRecoverLocally || rules.ScoreReport(rules.ReportEmpty).Rule.ID != rules.RuleNoSuppression {
		t.Error("report verdicts name the wrong rules")
	}
	coord := rules.Score(rules.CoordinatorSituation(rules.Transient, 0), rules.ReportPartial)
	if coord.Grade != rules.GradeWrong {
		t.Errorf("report upward for the coordinator: %s", coord.Grade)
	}
}
