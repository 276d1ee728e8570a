package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/errorlab/errorlab/sim/mockserver"
)

// Script is a call-by-call sequence of failures for `errorlab serve
// --script FILE`: "the first call to lookup_order times out, the second
// succeeds, then process_refund is refused as business". Each step is the
// next call of its tool; a tool's calls past its last step behave as the
// mock world does.
//
//	title: A refund day
//	steps:
//	  - tool: lookup_order
//	    failure: timeout
//	  - tool: lookup_order
//	    failure: none
//	  - tool: process_refund
//	    failure: business
type Script struct {
	Title string
	// File is the path the script was loaded from.
	File  string
	Steps []ScriptStep
}

// ScriptStep is one call of one tool and how it fails.
type ScriptStep struct {
	Tool string
	// Failure is the failure's name as written ("timeout", "none").
	Failure string
	Fault   mockserver.Fault
}

// scriptFile is a script as written.
type scriptFile struct {
	Title string       `yaml:"title"`
	Steps []scriptStep `yaml:"steps"`
}

type scriptStep struct {
	Tool    string `yaml:"tool"`
	Failure string `yaml:"failure"`
	// RetryAfterSeconds is a pointer so that a written 0 is seen (and
	// refused) rather than read as "not given".
	RetryAfterSeconds *int `yaml:"retryAfterSeconds"`
}

// LoadScript reads and checks a script file like every content file
// (size, control codes, anchors, unknown fields) and against the mock
// server (tool names, failure names, retryAfterSeconds only on a rate
// limit and between 1 and 3600, empty only on a tool whose success can
// be empty). Every problem is reported as file:line:col in a *LoadError;
// then no script is returned.
func LoadScript(path string) (*Script, error) {
	file := path
	var raw scriptFile
	data, ps := DecodeContentFile(os.DirFS(filepath.Dir(path)), filepath.Base(path), file, true, &raw)
	if len(ps) > 0 {
		return nil, &LoadError{Problems: ps}
	}
	at := func(p, msg string, a ...any) { ps = append(ps, ProblemAt(file, data, p, msg, a...)) }
	if len(raw.Steps) == 0 {
		at("$.steps", "a script needs steps: a list of {tool, failure}, e.g. - tool: lookup_order / failure: timeout")
	}
	s := &Script{Title: strings.TrimSpace(raw.Title), File: path}
	for i, st := range raw.Steps {
		here := fmt.Sprintf("$.steps[%d]", i)
		switch {
		case st.Tool == "":
			at(here, "step %d has no tool: name one of %s", i+1, strings.Join(mockserver.ToolNames(), ", "))
		case !mockserver.HasTool(st.Tool):
			at(here+".tool", "unknown tool %q (closest: %s)", st.Tool, strings.Join(ClosestIDs(st.Tool, mockserver.ToolNames(), 2), ", "))
		}
		if st.Failure == "" {
			at(here, "step %d has no failure: say how the call fails (timeout, business...) or none", i+1)
			continue
		}
		f, err := mockserver.ParseFailure(st.Failure)
		if err != nil {
			at(here+".failure", "%v", err)
			continue
		}
		if ra := st.RetryAfterSeconds; ra != nil {
			switch {
			case f.Kind != mockserver.FaultRateLimit:
				at(here+".retryAfterSeconds", "retryAfterSeconds goes only with failure: rate_limit")
			case *ra < 1 || *ra > 3600:
				// LESSON-RULES §2/§9: a rate limit says how long to wait;
				// a wait of 0 would tell the client to resend at once.
				at(here+".retryAfterSeconds", "retryAfterSeconds must be a whole number of seconds from 1 to 3600, not %d (a rate limit always asks for a wait; leave the field out for the server's own 5)", *ra)
			default:
				f.RetryAfterSeconds = *ra
			}
		}
		if f.Kind == mockserver.FaultEmpty && mockserver.HasTool(st.Tool) && !mockserver.CanBeEmpty(st.Tool) {
			at(here+".failure", "%s's success is never empty: empty fits customer_lookup, lookup_order and search_support_tickets", st.Tool)
		}
		s.Steps = append(s.Steps, ScriptStep{Tool: st.Tool, Failure: st.Failure, Fault: f})
	}
	if len(ps) > 0 {
		return nil, &LoadError{Problems: ps}
	}
	return s, nil
}

// Sequence is the script as the mock server takes it: each tool's calls
// in order (mockserver.Options.Sequence).
func (s *Script) Sequence() map[string][]mockserver.Fault {
	out := map[string][]mockserver.Fault{}
	for _, st := range s.Steps {
		out[st.Tool] = append(out[st.Tool], st.Fault)
	}
	return out
}

// Describe says what the script does, tool by tool: "lookup_order:
// timeout, then none; process_refund: business".
func (s *Script) Describe() string {
	var order []string
	byTool := map[string][]string{}
	for _, st := range s.Steps {
		if _, seen := byTool[st.Tool]; !seen {
			order = append(order, st.Tool)
		}
		byTool[st.Tool] = append(byTool[st.Tool], st.Failure)
	}
	parts := make([]string, len(order))
	for i, t := range order {
		parts[i] = t + ": " + strings.Join(byTool[t], ", then ")
	}
	return strings.Join(parts, "; ")
}
