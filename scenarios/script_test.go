package scenarios

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/sim/mockserver"
)

func writeScript(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "day.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestScriptLoads: the example, as a script, becomes the mock
// server's call-by-call sequence.
func TestScriptLoads(t *testing.T) {
	path := writeScript(t, `title: A refund day
steps:
  - tool: lookup_order
    failure: timeout
  - tool: lookup_order
    failure: none
  - tool: process_refund
    failure: business
  - tool: search_support_tickets
    failure: rate_limit
    retryAfterSeconds: 12
`)
	s, err := LoadScript(path)
	if err != nil {
		t.Fatal(err)
	}
	seq := s.Sequence()
	if len(seq["lookup_order"]) != 2 || seq["lookup_order"][0].Kind != mockserver.FaultTimeout || seq["lookup_order"][1].Kind != mockserver.FaultNone {
		t.Errorf("lookup_order: %+v", seq["lookup_order"])
	}
	if seq["process_refund"][0].Kind != mockserver.FaultBusiness || seq["search_support_tickets"][0].RetryAfterSeconds != 12 {
		t.Errorf("sequence: %+v", seq)
	}
	if got := s.Describe(); got != "lookup_order: timeout, then none; process_refund: business; search_support_tickets: rate_limit" {
		t.Errorf("Describe: %q", got)
	}
}

// TestScriptProblemsAreLocated: every mistake is reported at its
// file:line:col, all at once, and nothing loads.
func TestScriptProblemsAreLocated(t *testing.T) {
	path := writeScript(t, `steps:
  - tool: lookup_ordr
    failure: timeout
  - tool: process_refund
    failure: refused
  - tool: get_customer
    failure: empty
  - tool: lookup_order
    failure: timeout
    retryAfterSeconds: 5
  - failure: none
`)
	s, err := LoadScript(path)
	var le *LoadError
	if s != nil || !errors.As(err, &le) {
		t.Fatalf("want a *LoadError, got %v, %v", s, err)
	}
	msg := err.Error()
	for _, want := range []string{
		path + `:2:11: unknown tool "lookup_ordr" (closest: lookup_order`,
		path + `:5:14: unknown failure "refused"`,
		path + `:7:14: get_customer's success is never empty`,
		path + `:10:24: retryAfterSeconds goes only with failure: rate_limit`,
		path + `:11:12: step 5 has no tool`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in:\n%s", want, msg)
		}
	}
	for _, bad := range []string{"steps: []\n", "steps:\n  - tool: lookup_order\n    failure: timeout\n    when: later\n", "steps: [unclosed\n"} {
		if _, err := LoadScript(writeScript(t, bad)); err == nil || !strings.Contains(err.Error(), "day.yaml:") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := LoadScript(filepath.Join(t.TempDir(), "none.yaml")); err == nil {
		t.Error("a missing file loaded")
	}
}

// TestScriptRetryAfterChecked: a rate limit's wait is a whole number of
// seconds from 1 to 3600 (LESSON-RULES §2/§9: a rate limit always asks for
// a wait), so 0 is refused rather than served as the default 5; a value of
// the wrong type names its own field, not the list it sits in. Each
// problem is at the value's file:line:col; a good wait still loads.
func TestScriptRetryAfterChecked(t *testing.T) {
	const head = "steps:\n  - tool: lookup_order\n    failure: none\n  - tool: search_support_tickets\n    failure: rate_limit\n"
	for _, c := range []struct {
		name, value string
		want        string // "" means it loads
		wait        int
	}{
		{"zero", "0", ":6:24: retryAfterSeconds must be a whole number of seconds from 1 to 3600, not 0", 0},
		{"negative", "-3", ":6:24: retryAfterSeconds must be a whole number of seconds from 1 to 3600, not -3", 0},
		{"too long", "3601", ":6:24: retryAfterSeconds must be a whole number of seconds from 1 to 3600, not 3601", 0},
		{"word", "ten", ":6:24: retryAfterSeconds has the wrong type: expected a whole number, found text", 0},
		{"list", "[10]", ":6:24: retryAfterSeconds has the wrong type: expected a whole number, found a list", 0},
		{"one", "1", "", 1},
		{"hour", "3600", "", 3600},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeScript(t, head+"    retryAfterSeconds: "+c.value+"\n")
			s, err := LoadScript(path)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := s.Sequence()["search_support_tickets"][0].RetryAfterSeconds; got != c.wait {
					t.Errorf("wait %d, want %d", got, c.wait)
				}
				return
			}
			if s != nil || err == nil {
				t.Fatalf("loaded: %+v", s)
			}
			if msg := err.Error(); !strings.Contains(msg, path+c.want) || strings.Contains(msg, "steps has") {
				t.Errorf("want %q in:\n%s", path+c.want, msg)
			}
		})
	}
}
