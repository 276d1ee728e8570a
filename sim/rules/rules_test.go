package rules_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/sim/rules"
)

// section is the LESSON-RULES section each rule id must come from. It is
// written out here, not read from the rulebook, so a rule filed under the
// wrong section fails.
var section = map[string]string{
	rules.RuleProtocolLayer:     "§1",
	rules.RuleExecutionLayer:    "§1",
	rules.RuleInputByRevision:   "§1",
	rules.RuleGoError:           "§1",
	rules.RuleUnknownTool:       "§1",
	rules.RuleTransient:         "§2",
	rules.RuleValidation:        "§2",
	rules.RuleBusiness:          "§2",
	rules.RulePermission:        "§2",
	rules.RuleRetryableMeaning:  "§2",
	rules.RuleMetadataFields:    "§3",
	rules.RuleMetadataMirror:    "§3",
	rules.RuleOutputSchema:      "§3",
	rules.RuleGenericMessage:    "§3",
	rules.RuleRawException:      "§3",
	rules.RuleErrorAsSuccess:    "§3",
	rules.RuleValidEmpty:        "§4",
	rules.RuleAccessFailure:     "§4",
	rules.RuleEmptyContract:     "§4",
	rules.RuleRecoverLocally:    "§5",
	rules.RuleReportUpward:      "§5",
	rules.RuleNoSuppression:     "§5",
	rules.RuleSafeToShow:        "§6",
	rules.RuleActionable:        "§6",
	rules.RuleFlagSpellings:     "§7",
	rules.RuleConfirmation:      "§9",
	rules.RuleRateLimit:         "§9",
	rules.RuleUnexpectedFault:   "§9",
	rules.RulePartialSources:    "§9",
	rules.RuleSchemaConformance: "§9",
}

func TestEveryRuleIsFiledUnderItsSection(t *testing.T) {
	all := rules.AllRules()
	if len(all) != len(section) {
		t.Errorf("the rulebook has %d rules, this test knows %d: add the new ones to the section table", len(all), len(section))
	}
	for _, r := range all {
		want, known := section[r.ID]
		if !known {
			t.Errorf("rule %s is not in the section table", r.ID)
			continue
		}
		if r.Section != want {
			t.Errorf("rule %s is filed under %s, LESSON-RULES has it in %s", r.ID, r.Section, want)
		}
		if strings.TrimSpace(r.Title) == "" || strings.TrimSpace(r.Statement) == "" {
			t.Errorf("rule %s has no title or statement", r.ID)
		}
		if got := rules.Lookup(r.ID); got != r {
			t.Errorf("Lookup(%q) = %+v, want %+v", r.ID, got, r)
		}
	}
	if u := rules.Lookup("no.such.rule"); u.Section != "§?" || !strings.Contains(u.Title, "no.such.rule") {
		t.Errorf("an unknown rule id must show up on screen as unknown, got %+v", u)
	}
}

// want is the grade and the rule LESSON-RULES gives one action in one
// situation.
type want struct {
	grade rules.Grade
	rule  string
}

func best(rule string) want       { return want{rules.GradeBest, rule} }
func acceptable(rule string) want { return want{rules.GradeAcceptable, rule} }
func wrong(rule string) want      { return want{rules.GradeWrong, rule} }

// categoryRows is LESSON-RULES §2 row by row: isRetryable, the next move
// (best and acceptable actions), and for every one of the nine actions of
// §8 the grade and the rule its feedback names.
var categoryRows = []struct {
	category  rules.Category
	retryable bool
	rule      string
	actions   map[rules.Action]want
}{
	{rules.Transient, true, rules.RuleTransient, map[rules.Action]want{
		rules.RetrySame:          best(rules.RuleTransient),
		rules.FixInput:           wrong(rules.RuleTransient),
		rules.ExplainAlternative: wrong(rules.RuleTransient),
		rules.EscalateHuman:      wrong(rules.RuleRecoverLocally),
		rules.RequestCredentials: wrong(rules.RulePermission),
		rules.AcceptEmpty:        wrong(rules.RuleAccessFailure),
		rules.AskConfirmation:    wrong(rules.RuleConfirmation),
		rules.FixClient:          wrong(rules.RuleExecutionLayer),
		rules.ReportPartial:      wrong(rules.RuleRecoverLocally),
	}},
	{rules.Validation, false, rules.RuleValidation, map[rules.Action]want{
		rules.RetrySame:          wrong(rules.RuleRetryableMeaning),
		rules.FixInput:           best(rules.RuleValidation),
		rules.ExplainAlternative: wrong(rules.RuleValidation),
		rules.EscalateHuman:      wrong(rules.RuleValidation),
		rules.RequestCredentials: wrong(rules.RulePermission),
		rules.AcceptEmpty:        wrong(rules.RuleValidEmpty),
		rules.AskConfirmation:    wrong(rules.RuleConfirmation),
		rules.FixClient:          wrong(rules.RuleExecutionLayer),
		rules.ReportPartial:      wrong(rules.RuleRecoverLocally),
	}},
	{rules.Business, false, rules.RuleBusiness, map[rules.Action]want{
		rules.RetrySame:          wrong(rules.RuleRetryableMeaning),
		rules.FixInput:           wrong(rules.RuleBusiness),
		rules.ExplainAlternative: best(rules.RuleBusiness),
		rules.EscalateHuman:      acceptable(rules.RuleBusiness),
		rules.RequestCredentials: wrong(rules.RulePermission),
		rules.AcceptEmpty:        wrong(rules.RuleValidEmpty),
		rules.AskConfirmation:    wrong(rules.RuleConfirmation),
		rules.FixClient:          wrong(rules.RuleExecutionLayer),
		rules.ReportPartial:      wrong(rules.RuleBusiness),
	}},
	{rules.Permission, false, rules.RulePermission, map[rules.Action]want{
		rules.RetrySame:          wrong(rules.RuleRetryableMeaning),
		rules.FixInput:           wrong(rules.RulePermission),
		rules.ExplainAlternative: wrong(rules.RulePermission),
		rules.EscalateHuman:      best(rules.RulePermission),
		rules.RequestCredentials: acceptable(rules.RulePermission),
		rules.AcceptEmpty:        wrong(rules.RuleValidEmpty),
		rules.AskConfirmation:    wrong(rules.RuleConfirmation),
		rules.FixClient:          wrong(rules.RuleExecutionLayer),
		rules.ReportPartial:      wrong(rules.RulePermission),
	}},
}

func TestCategoriesSection2(t *testing.T) {
	if len(categoryRows) != len(rules.Categories) {
		t.Fatalf("LESSON-RULES §2 has %d categories, the engine %d", len(categoryRows), len(rules.Categories))
	}
	for i, row := range categoryRows {
		t.Run(string(row.category), func(t *testing.T) {
			if rules.Categories[i] != row.category {
				t.Errorf("Categories[%d] = %s, want %s (the exam's order)", i, rules.Categories[i], row.category)
			}
			if !row.category.Valid() {
				t.Errorf("%s is not Valid()", row.category)
			}
			if got := row.category.Retryable(); got != row.retryable {
				t.Errorf("%s.Retryable() = %v, LESSON-RULES §2 says isRetryable %v", row.category, got, row.retryable)
			}
			if got := rules.CategoryRule(row.category); got.ID != row.rule || got.Section != "§2" {
				t.Errorf("CategoryRule(%s) = %s %s, want %s §2", row.category, got.ID, got.Section, row.rule)
			}
			checkSituation(t, rules.Situation{Layer: rules.LayerExecution, Category: row.category}, row.actions)
		})
	}
}

// checkSituation asserts Recommend and the Score of every action.
func checkSituation(t *testing.T, s rules.Situation, actions map[rules.Action]want) {
	t.Helper()
	if len(actions) != len(rules.Actions) {
		t.Fatalf("the table gives %d actions; LESSON-RULES §8 has %d", len(actions), len(rules.Actions))
	}
	var wantBest rules.Action
	var wantAcceptable []rules.Action
	for _, a := range rules.Actions {
		switch actions[a].grade {
		case rules.GradeBest:
			wantBest = a
		case rules.GradeAcceptable:
			wantAcceptable = append(wantAcceptable, a)
		}
	}
	rec, ok := rules.Recommend(s)
	if !ok {
		t.Fatalf("Recommend(%+v) says no recovery is needed", s)
	}
	if rec.Best != wantBest {
		t.Errorf("Recommend: best action %s, LESSON-RULES gives %s", rec.Best, wantBest)
	}
	got := slices.Clone(rec.Acceptable)
	slices.Sort(got)
	slices.Sort(wantAcceptable)
	if !slices.Equal(got, wantAcceptable) {
		t.Errorf("Recommend: acceptable %v, LESSON-RULES gives %v", rec.Acceptable, wantAcceptable)
	}
	if w := actions[wantBest]; rec.Rule.ID != w.rule {
		t.Errorf("Recommend: rule %s, want %s", rec.Rule.ID, w.rule)
	}
	for _, a := range rules.Actions {
		w := actions[a]
		t.Run(string(a), func(t *testing.T) {
			v := rules.Score(s, a)
			if v.Action != a || v.Best != wantBest {
				t.Errorf("verdict names action %s and best %s, want %s and %s", v.Action, v.Best, a, wantBest)
			}
			if v.Grade != w.grade {
				t.Errorf("grade %s, want %s (%s)", v.Grade, w.grade, v.Why)
			}
			if v.Grade.Correct() != (w.grade != rules.GradeWrong) {
				t.Errorf("grade %s: Correct() = %v", v.Grade, v.Grade.Correct())
			}
			if v.Rule.ID != w.rule {
				t.Errorf("feedback names rule %s (%s), want %s", v.Rule.ID, v.Rule.Ref(), w.rule)
			}
			if v.Rule.Section != section[w.rule] {
				t.Errorf("feedback cites section %s, want %s", v.Rule.Section, section[w.rule])
			}
			if strings.TrimSpace(v.Why) == "" {
				t.Error("the verdict has no sentence saying why")
			}
		})
	}
}

// TestOtherSituations covers the situations beyond the four categories
// that Recommend and Score handle: protocol errors (§1), a valid empty
// result (§4), an unconfirmed destructive action (§9) and a transient
// failure that outlasted the retry cap, alone and in a subagent (§5).
func TestOtherSituations(t *testing.T) {
	cases := []struct {
		name    string
		s       rules.Situation
		actions map[rules.Action]want
	}{
		{"protocol error: fix the client", rules.Situation{Layer: rules.LayerProtocol}, map[rules.Action]want{
			rules.RetrySame:          wrong(rules.RuleProtocolLayer),
			rules.FixInput:           wrong(rules.RuleProtocolLayer),
			rules.ExplainAlternative: wrong(rules.RuleProtocolLayer),
			rules.EscalateHuman:      wrong(rules.RuleProtocolLayer),
			rules.RequestCredentials: wrong(rules.RuleProtocolLayer),
			rules.AcceptEmpty:        wrong(rules.RuleProtocolLayer),
			rules.AskConfirmation:    wrong(rules.RuleConfirmation),
			rules.FixClient:          best(rules.RuleProtocolLayer),
			rules.ReportPartial:      wrong(rules.RuleProtocolLayer),
		}},
		{"valid empty result: accept it", rules.Situation{Layer: rules.LayerSuccess, Empty: true}, map[rules.Action]want{
			rules.RetrySame:          wrong(rules.RuleValidEmpty),
			rules.FixInput:           wrong(rules.RuleValidEmpty),
			rules.ExplainAlternative: wrong(rules.RuleValidEmpty),
			rules.EscalateHuman:      wrong(rules.RuleValidEmpty),
			rules.RequestCredentials: wrong(rules.RulePermission),
			rules.AcceptEmpty:        best(rules.RuleValidEmpty),
			rules.AskConfirmation:    wrong(rules.RuleConfirmation),
			rules.FixClient:          wrong(rules.RuleExecutionLayer),
			rules.ReportPartial:      wrong(rules.RuleValidEmpty),
		}},
		{"unconfirmed refund: ask the customer", rules.Situation{Layer: rules.LayerExecution, Category: rules.Business, RequiresUserAction: true}, map[rules.Action]want{
			rules.RetrySame:          wrong(rules.RuleRetryableMeaning),
			rules.FixInput:           wrong(rules.RuleConfirmation),
			rules.ExplainAlternative: wrong(rules.RuleConfirmation),
			rules.EscalateHuman:      wrong(rules.RuleConfirmation),
			rules.RequestCredentials: wrong(rules.RulePermission),
			rules.AcceptEmpty:        wrong(rules.RuleValidEmpty),
			rules.AskConfirmation:    best(rules.RuleConfirmation),
			rules.FixClient:          wrong(rules.RuleExecutionLayer),
			rules.ReportPartial:      wrong(rules.RuleConfirmation),
		}},
		{"retries exhausted, front-line agent: escalate", rules.Situation{Layer: rules.LayerExecution, Category: rules.Transient, RetriesExhausted: true}, map[rules.Action]want{
			rules.RetrySame:          wrong(rules.RuleRecoverLocally),
			rules.FixInput:           wrong(rules.RuleTransient),
			rules.ExplainAlternative: wrong(rules.RuleReportUpward),
			rules.EscalateHuman:      best(rules.RuleReportUpward),
			rules.RequestCredentials: wrong(rules.RulePermission),
			rules.AcceptEmpty:        wrong(rules.RuleAccessFailure),
			rules.AskConfirmation:    wrong(rules.RuleConfirmation),
			rules.FixClient:          wrong(rules.RuleExecutionLayer),
			rules.ReportPartial:      acceptable(rules.RuleReportUpward),
		}},
		{"retries exhausted in a subagent: report partial results", rules.Situation{Layer: rules.LayerExecution, Category: rules.Transient, RetriesExhausted: true, InSubagent: true}, map[rules.Action]want{
			rules.RetrySame:          wrong(rules.RuleRecoverLocally),
			rules.FixInput:           wrong(rules.RuleTransient),
			rules.ExplainAlternative: wrong(rules.RuleReportUpward),
			rules.EscalateHuman:      wrong(rules.RuleReportUpward),
			rules.RequestCredentials: wrong(rules.RuleReportUpward),
			rules.AcceptEmpty:        wrong(rules.RuleAccessFailure),
			rules.AskConfirmation:    wrong(rules.RuleReportUpward),
			rules.FixClient:          wrong(rules.RuleExecutionLayer),
			rules.ReportPartial:      best(rules.RuleReportUpward),
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkSituation(t, c.s, c.actions) })
	}
}

// TestPlainSuccessNeedsNoRecovery: a success with data has nothing to
// recover from; every action is wrong and Recommend says so.
func TestPlainSuccessNeedsNoRecovery(t *testing.T) {
	s := rules.Situation{Layer: rules.LayerSuccess}
	if _, ok := rules.Recommend(s); ok {
		t.Error("Recommend offers a recovery for a plain success")
	}
	for _, a := range rules.Actions {
		if v := rules.Score(s, a); v.Grade != rules.GradeWrong {
			t.Errorf("%s on a plain success graded %s", a, v.Grade)
		}
	}
}

// TestSubagentReportsWhatItCannotFix is LESSON-RULES §5: "On the cap, or on
// a non-retryable error it cannot fix, it propagates ONE report". A
// subagent that meets a business refusal or a missing permission cannot
// fix either (it does not talk to the customer, and it cannot become
// another principal), so reporting upward with its partial results is
// the move. A validation error it can fix itself.
func TestSubagentReportsWhatItCannotFix(t *testing.T) {
	for _, c := range []rules.Category{rules.Business, rules.Permission} {
		t.Run(string(c)+" in a subagent", func(t *testing.T) {
			s := rules.Situation{Layer: rules.LayerExecution, Category: c, InSubagent: true}
			v := rules.Score(s, rules.ReportPartial)
			if v.Grade != rules.GradeBest || v.Rule.ID != rules.RuleReportUpward {
				t.Errorf("report_partial graded %s under %s (%q); §5 says a subagent propagates a non-retryable error it cannot fix", v.Grade, v.Rule.Ref(), v.Why)
			}
			if v := rules.Score(s, rules.RetrySame); v.Grade != rules.GradeWrong {
				t.Errorf("retry_same on a %s error in a subagent graded %s", c, v.Grade)
			}
		})
	}
	t.Run("unconfirmed refund in a subagent", func(t *testing.T) {
		s := rules.Situation{Layer: rules.LayerExecution, Category: rules.Business, RequiresUserAction: true, InSubagent: true}
		if v := rules.Score(s, rules.ReportPartial); !v.Grade.Correct() {
			t.Errorf("report_partial graded %s: a subagent cannot ask the customer itself", v.Grade)
		}
	})
	t.Run("validation in a subagent", func(t *testing.T) {
		s := rules.Situation{Layer: rules.LayerExecution, Category: rules.Validation, InSubagent: true}
		if v := rules.Score(s, rules.FixInput); v.Grade != rules.GradeBest || v.Rule.ID != rules.RuleValidation {
			t.Errorf("fix_input in a subagent graded %s under %s, want best under %s", v.Grade, v.Rule.ID, rules.RuleValidation)
		}
		if v := rules.Score(s, rules.RetrySame); v.Grade != rules.GradeWrong {
			t.Errorf("retry_same on a validation error in a subagent graded %s", v.Grade)
		}
	})
	t.Run("transient within the cap in a subagent", func(t *testing.T) {
		s := rules.Situation{Layer: rules.LayerExecution, Category: rules.Transient, InSubagent: true}
		if v := rules.Score(s, rules.RetrySame); v.Grade != rules.GradeBest {
			t.Errorf("retry_same graded %s: a subagent recovers transient failures locally", v.Grade)
		}
		if v := rules.Score(s, rules.ReportPartial); v.Grade != rules.GradeWrong || v.Rule.ID != rules.RuleRecoverLocally {
			t.Errorf("report_partial on a first transient failure graded %s under %s, want wrong under %s", v.Grade, v.Rule.ID, rules.RuleRecoverLocally)
		}
	})
}

// TestExecutionErrorWithoutCategoryIsNotASuccess: a generic "Operation
// failed" (isError true, no errorCategory) read with SituationOf is an
// execution error whose category nobody knows. Scoring it must not tell
// the learner the call succeeded.
func TestExecutionErrorWithoutCategoryIsNotASuccess(t *testing.T) {
	c, err := rules.Classify([]byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Operation failed"}],"isError":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := rules.SituationOf(c)
	if s.Layer != rules.LayerExecution || s.Category != "" {
		t.Fatalf("SituationOf(generic failure) = %+v, want execution with no category", s)
	}
	for _, a := range rules.Actions {
		v := rules.Score(s, a)
		if v.Rule.ID == rules.RuleValidEmpty || strings.Contains(v.Why, "succeeded") {
			t.Errorf("%s on an uncategorised isError result is explained as a success: %s %q", a, v.Rule.ID, v.Why)
		}
	}
}

func TestSituationOfReadsConfirmation(t *testing.T) {
	c, err := rules.Classify([]byte(`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"{}"}],"isError":true,` +
		`"structuredContent":{"errorCategory":"business","isRetryable":false,"description":"Ask the customer to confirm.","requiresUserAction":true}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := rules.SituationOf(c)
	if s.Kind() != "confirmation" {
		t.Errorf("Kind() = %q, want confirmation", s.Kind())
	}
	if rec, _ := rules.Recommend(s); rec.Best != rules.AskConfirmation {
		t.Errorf("best action %s, want ask_confirmation", rec.Best)
	}
}

func TestRevisions(t *testing.T) {
	cases := []struct {
		rev       rules.Revision
		input     rules.Layer
		stateless bool
	}{
		{rules.Rev20250618, rules.LayerProtocol, false},
		{rules.Rev20251125, rules.LayerExecution, false},
		{rules.Rev20260728, rules.LayerExecution, true},
	}
	if !slices.Equal(rules.Revisions, []rules.Revision{rules.Rev20250618, rules.Rev20251125, rules.Rev20260728}) {
		t.Errorf("Revisions = %v, want the three dates oldest first", rules.Revisions)
	}
	for _, c := range cases {
		t.Run(string(c.rev), func(t *testing.T) {
			if got := c.rev.InputSchemaLayer(); got != c.input {
				t.Errorf("InputSchemaLayer() = %s, want %s", got, c.input)
			}
			if got := c.rev.Stateless(); got != c.stateless {
				t.Errorf("Stateless() = %v, want %v", got, c.stateless)
			}
			got, err := rules.ParseRevision(string(c.rev))
			if err != nil || got != c.rev {
				t.Errorf("ParseRevision(%q) = %q, %v", c.rev, got, err)
			}
		})
	}
	if rules.DefaultRevision != rules.Rev20251125 {
		t.Errorf("DefaultRevision = %s, want 2025-11-25", rules.DefaultRevision)
	}
}

func TestParseErrorsListValidValues(t *testing.T) {
	t.Run("unknown revision", func(t *testing.T) {
		_, err := rules.ParseRevision("2024-11-05")
		if err == nil {
			t.Fatal("2024-11-05 accepted")
		}
		for _, want := range []string{"2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %s", err, want)
			}
		}
	})
	t.Run("unknown action", func(t *testing.T) {
		_, err := rules.ParseAction("retry")
		if err == nil {
			t.Fatal("retry accepted")
		}
		if !strings.Contains(err.Error(), `"retry"`) {
			t.Errorf("error %q does not quote the bad value", err)
		}
		for _, a := range rules.Actions {
			if !strings.Contains(err.Error(), string(a)) {
				t.Errorf("error %q does not list %s", err, a)
			}
		}
	})
	t.Run("every action parses and has words", func(t *testing.T) {
		want := []rules.Action{"retry_same", "fix_input", "explain_alternative", "escalate_human", "request_credentials",
			"accept_empty", "ask_confirmation", "fix_client", "report_partial"}
		if !slices.Equal(rules.Actions, want) {
			t.Errorf("Actions = %v, want LESSON-RULES §8 order %v", rules.Actions, want)
		}
		for _, a := range rules.Actions {
			got, err := rules.ParseAction(string(a))
			if err != nil || got != a {
				t.Errorf("ParseAction(%q) = %q, %v", a, got, err)
			}
			if a.Title() == "" || a.Description() == "" {
				t.Errorf("%s has no title or description", a)
			}
		}
		if rules.Action("").Valid() || rules.Action("Retry_Same").Valid() {
			t.Error("an empty or mis-cased action is Valid()")
		}
	})
}

func TestParseCategorySynonyms(t *testing.T) {
	cases := []struct {
		in        string
		want      rules.Category
		canonical bool
		ok        bool
	}{
		{"transient", rules.Transient, true, true},
		{"validation", rules.Validation, true, true},
		{"business", rules.Business, true, true},
		{"permission", rules.Permission, true, true},
		{"Transient", rules.Transient, false, true},
		{"rate_limit", rules.Transient, false, true},
		{"timeout", rules.Transient, false, true},
		{"invalid_argument", rules.Validation, false, true},
		{"policy", rules.Business, false, true},
		{"forbidden", rules.Permission, false, true},
		{"  access_denied ", rules.Permission, false, true},
		{"weather", "", false, false},
		{"", "", false, false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, canonical, ok := rules.ParseCategory(c.in)
			if got != c.want || canonical != c.canonical || ok != c.ok {
				t.Errorf("ParseCategory(%q) = %q, %v, %v; want %q, %v, %v", c.in, got, canonical, ok, c.want, c.canonical, c.ok)
			}
		})
	}
}

// TestBackoff is LESSON-RULES §2 and §9: three resends after 1 s, 2 s and
// 4 s; a longer retryAfterSeconds wins.
func TestBackoff(t *testing.T) {
	if rules.MaxRetries != 3 {
		t.Errorf("MaxRetries = %d, want 3", rules.MaxRetries)
	}
	cases := []struct {
		name       string
		retry      int
		retryAfter float64
		want       float64
	}{
		{"first resend waits 1 s", 1, 0, 1},
		{"second resend waits 2 s", 2, 0, 2},
		{"third resend waits 4 s", 3, 0, 4},
		{"no resend, no wait", 0, 0, 0},
		{"retryAfterSeconds 30 overrides 1 s", 1, 30, 30},
		{"retryAfterSeconds 30 overrides 4 s", 3, 30, 30},
		{"a shorter retryAfterSeconds does not shorten the backoff", 3, 2, 4},
		{"fractional retryAfterSeconds", 1, 1.5, 1.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := rules.BackoffSeconds(c.retry, c.retryAfter); got != c.want {
				t.Errorf("BackoffSeconds(%d, %v) = %v, want %v", c.retry, c.retryAfter, got, c.want)
			}
		})
	}
	var total float64
	for r := 1; r <= rules.MaxRetries; r++ {
		total += rules.BackoffSeconds(r, 0)
	}
	if total != 7 {
		t.Errorf("the capped retries wait %v s in all, want 7 (1+2+4)", total)
	}
}

// A member name sent twice in the response, its result, its error or its
// structuredContent is found; the same name in different objects, or
// inside a string, is not.
func TestDuplicateMembers(t *testing.T) {
	cases := []struct {
		raw  string
		want []string
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a"}],"isError":true,"isError":false}}`, []string{"$.result.isError"}},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[]},"id":2}`, []string{"$.id"}},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"a","code":-32603}}`, []string{"$.error.code"}},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"ok":true,"ok":false}}}`, []string{"$.result.structuredContent.ok"}},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a"},{"type":"text","text":"{\"id\":1,\"id\":2}"}],"structuredContent":{"a":{"x":1},"b":{"x":2}}}}`, nil},
	}
	for _, c := range cases {
		env, err := rules.ParseEnvelope([]byte(c.raw))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(env.Duplicates, c.want) {
			t.Errorf("%s: duplicates %q, want %q", c.raw, env.Duplicates, c.want)
		}
	}
}
