package rules

import (
	"regexp"
	"testing"
)

// Every expression compiled on first use compiles: a typo fails here,
// not in front of a learner.
func TestLazyExpressionsCompile(t *testing.T) {
	all := []*Regexp{errorTextPattern, failureTextPattern, SystemErrorPrefix}
	for _, p := range leakPatterns {
		all = append(all, p.re)
	}
	for _, r := range all {
		if _, err := regexp.Compile(r.String()); err != nil {
			t.Errorf("%q: %v", r.String(), err)
		}
	}
}
