package rules

import "testing"

// TestObservedMovesReadAsActions: what a server sees a client do after a
// result reads as the §8 action a learner would have chosen, and gets the
// same grade Score gives that action.
func TestObservedMovesReadAsActions(t *testing.T) {
	transient := Situation{Layer: LayerExecution, Category: Transient}
	exhausted := Situation{Layer: LayerExecution, Category: Transient, RetriesExhausted: true}
	validation := Situation{Layer: LayerExecution, Category: Validation}
	business := Situation{Layer: LayerExecution, Category: Business}
	permission := Situation{Layer: LayerExecution, Category: Permission}
	confirm := Situation{Layer: LayerExecution, Category: Business, RequiresUserAction: true}
	empty := Situation{Layer: LayerSuccess, Empty: true}
	protocol := Situation{Layer: LayerProtocol}
	cases := []struct {
		name  string
		s     Situation
		o     Observed
		want  Action
		grade Grade
	}{
		{"transient, resent after the backoff", transient, Observed{Move: MoveResend, WaitSeconds: 1, Resend: 1}, RetrySame, GradeBest},
		{"transient, gave up", transient, Observed{Move: MoveStop}, ExplainAlternative, GradeWrong},
		{"transient, escalated at once", transient, Observed{Move: MoveEscalate}, EscalateHuman, GradeWrong},
		{"transient, cap spent, resent again", exhausted, Observed{Move: MoveResend, WaitSeconds: 8, Resend: 4}, RetrySame, GradeWrong},
		{"transient, cap spent, escalated", exhausted, Observed{Move: MoveEscalate}, EscalateHuman, GradeBest},
		{"transient, cap spent, stopped", exhausted, Observed{Move: MoveStop}, ReportPartial, GradeAcceptable},
		{"validation, resent", validation, Observed{Move: MoveResend, WaitSeconds: 1, Resend: 1}, RetrySame, GradeWrong},
		{"validation, new arguments", validation, Observed{Move: MoveChangeArgs}, FixInput, GradeBest},
		{"validation, another tool", validation, Observed{Move: MoveOtherTool, Tool: "customer_lookup"}, FixInput, GradeBest},
		{"business, resent", business, Observed{Move: MoveResend, WaitSeconds: 2, Resend: 1}, RetrySame, GradeWrong},
		{"business, stopped", business, Observed{Move: MoveStop}, ExplainAlternative, GradeBest},
		{"business, escalated", business, Observed{Move: MoveEscalate}, EscalateHuman, GradeAcceptable},
		{"business, an unrelated tool is not an explanation", business, Observed{Move: MoveOtherTool, Tool: "search_support_tickets"}, ExplainAlternative, GradeAcceptable},
		{"protocol from the headers, same body with new headers", protocol, Observed{Move: MoveRebuild}, FixClient, GradeBest},
		{"business, reworded the arguments", business, Observed{Move: MoveChangeArgs}, FixInput, GradeWrong},
		{"permission, escalated", permission, Observed{Move: MoveEscalate}, EscalateHuman, GradeBest},
		{"permission, another tool", permission, Observed{Move: MoveOtherTool, Tool: "customer_lookup"}, FixInput, GradeWrong},
		{"permission, resent", permission, Observed{Move: MoveResend, Resend: 1}, RetrySame, GradeWrong},
		{"confirmation, called with the yes", confirm, Observed{Move: MoveConfirm}, AskConfirmation, GradeBest},
		{"empty, stopped", empty, Observed{Move: MoveStop}, AcceptEmpty, GradeBest},
		{"empty, resent", empty, Observed{Move: MoveResend, Resend: 1}, RetrySame, GradeWrong},
		{"protocol, rebuilt the call", protocol, Observed{Move: MoveChangeArgs}, FixClient, GradeBest},
		{"protocol, the right tool name", protocol, Observed{Move: MoveOtherTool, Tool: "lookup_order"}, FixClient, GradeBest},
		{"protocol, resent", protocol, Observed{Move: MoveResend, Resend: 1}, RetrySame, GradeWrong},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ScoreObserved(c.s, c.o)
			if got.Action != c.want || got.Grade != c.grade {
				t.Errorf("read as %s (%s), want %s (%s): %s", got.Action, got.Grade, c.want, c.grade, got.Why)
			}
			if got.Reading == "" || got.Why == "" || got.Rule.ID == "" {
				t.Errorf("reading %q, why %q, rule %q: each should be set", got.Reading, got.Why, got.Rule.ID)
			}
			if plain := Score(c.s, c.want); c.o.Move != MoveResend && c.o.Move != MoveOtherTool && plain.Grade != got.Grade {
				t.Errorf("grade %s differs from Score's %s for the same action", got.Grade, plain.Grade)
			}
		})
	}
}

// TestResendWaitsAndWaste: a resend of a transient failure is held to the
// backoff and to retryAfterSeconds; resends that cannot work are wasted.
func TestResendWaitsAndWaste(t *testing.T) {
	transient := Situation{Layer: LayerExecution, Category: Transient}
	yes, no := true, false
	cases := []struct {
		name   string
		s      Situation
		o      Observed
		grade  Grade
		wasted bool
		waitOK bool
		rule   string
	}{
		{"first resend after 1 s", transient, Observed{Move: MoveResend, WaitSeconds: 1.02, Resend: 1}, GradeBest, false, true, RuleTransient},
		{"second resend after 1 s (backoff wants 2 s)", transient, Observed{Move: MoveResend, WaitSeconds: 1, Resend: 2}, GradeAcceptable, false, false, RuleTransient},
		{"resend at once", transient, Observed{Move: MoveResend, WaitSeconds: 0.01, Resend: 1}, GradeAcceptable, false, false, RuleTransient},
		{"resend before retryAfterSeconds 5", transient, Observed{Move: MoveResend, WaitSeconds: 2, Resend: 1, RetryAfterSeconds: 5}, GradeWrong, true, false, RuleRateLimit},
		{"resend after retryAfterSeconds 5", transient, Observed{Move: MoveResend, WaitSeconds: 5.1, Resend: 1, RetryAfterSeconds: 5}, GradeBest, false, true, RuleTransient},
		{"resend 4.5 s into retryAfterSeconds 5 (the server refuses it)", transient, Observed{Move: MoveResend, WaitSeconds: 4.5, Resend: 1, RetryAfterSeconds: 5}, GradeWrong, true, false, RuleRateLimit},
		{"resend after 5.2 s the server still refused", transient, Observed{Move: MoveResend, WaitSeconds: 5.2, Resend: 1, RetryAfterSeconds: 5, RefusedAgain: &yes}, GradeWrong, true, false, RuleRateLimit},
		{"resend the server let through", transient, Observed{Move: MoveResend, WaitSeconds: 5.01, Resend: 1, RetryAfterSeconds: 5, RefusedAgain: &no}, GradeBest, false, true, RuleTransient},
		{"resend of a business refusal", Situation{Layer: LayerExecution, Category: Business}, Observed{Move: MoveResend, WaitSeconds: 9, Resend: 1}, GradeWrong, true, false, RuleRetryableMeaning},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ScoreObserved(c.s, c.o)
			if got.Grade != c.grade || got.Wasted != c.wasted || got.Rule.ID != c.rule {
				t.Errorf("grade %s wasted %v rule %s, want %s %v %s: %s", got.Grade, got.Wasted, got.Rule.ID, c.grade, c.wasted, c.rule, got.Why)
			}
			if c.s.Category == Transient && (got.WaitOK == nil || *got.WaitOK != c.waitOK) {
				t.Errorf("WaitOK %v, want %v", got.WaitOK, c.waitOK)
			}
		})
	}
}

// TestWaitShownAsCompared: a wait just short of retryAfterSeconds never
// reads as the full wait in the card's sentence.
func TestWaitShownAsCompared(t *testing.T) {
	got := ScoreObserved(Situation{Layer: LayerExecution, Category: Transient}, Observed{Move: MoveResend, WaitSeconds: 4.999, Resend: 1, RetryAfterSeconds: 5})
	if got.Reading != "resent the same call after 4.99 s" {
		t.Errorf("reading %q", got.Reading)
	}
}

// TestMoveWindow: a server that stops within the backoff (plus the
// thinking time) of a transient failure cut the client's move off.
func TestMoveWindow(t *testing.T) {
	tr := Situation{Layer: LayerExecution, Category: Transient}
	if w := MoveWindow(tr, 2, 0); w != 2+ThinkSeconds {
		t.Errorf("second resend window %v", w)
	}
	if w := MoveWindow(tr, 1, 10); w != 10+ThinkSeconds {
		t.Errorf("retryAfter window %v", w)
	}
	if w := MoveWindow(Situation{Layer: LayerExecution, Category: Business}, 1, 0); w != ThinkSeconds {
		t.Errorf("business window %v", w)
	}
}
