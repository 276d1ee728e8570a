package walkthrough_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// exchange makes a scenario's call in a style under a revision.
func exchange(t *testing.T, id string, style mockserver.Style, rev rules.Revision) wire.Exchange {
	t.Helper()
	c, _ := content(t)
	s, ok := c.Get(id)
	if !ok {
		t.Fatalf("no scenario %s", id)
	}
	ex, err := s.Exchange(context.Background(), style, rev)
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

// plan is a compact view of a reveal plan: "part path label" per line.
func plan(rs []walkthrough.Reveal) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(string(r.Part) + " " + r.Path + " | " + r.Label + "\n")
	}
	return b.String()
}

// A protocol error: the request, the error member with its code, then the
// error's code and message; there is no result, so no isError.
func TestRevealsProtocolError(t *testing.T) {
	ex := exchange(t, "unknown-tool-name", mockserver.StyleGood, rules.Rev20251125)
	got := plan(walkthrough.Reveals(ex))
	want := `request $ | request: tools/call refund_order
layer $.error | protocol error -32602: no tool ran
field $.error.code | code: -32602
field $.error.message | message: tool 'refund_order' not found: tool not found
`
	if got != want {
		t.Errorf("plan:\n%s\nwant:\n%s", got, want)
	}
}

// A tool execution error: the request, the result, isError true, then
// every structuredContent field in the order the server wrote it, each
// with the lines of the pretty envelope to highlight.
func TestRevealsToolExecutionError(t *testing.T) {
	ex := exchange(t, "staff-record-denied", mockserver.StyleGood, rules.Rev20251125)
	rs := walkthrough.Reveals(ex)
	want := `request $ | request: tools/call get_customer
layer $.result | result: the tool ran
isError $.result.isError | isError: true
field $.result.structuredContent.errorCategory | errorCategory: permission
field $.result.structuredContent.isRetryable | isRetryable: false
field $.result.structuredContent.description | description: This customer record is restricted: it is a staff record, a…
field $.result.structuredContent.code | code: STAFF_RECORD_RESTRICTED
`
	if got := plan(rs); got != want {
		t.Fatalf("plan:\n%s\nwant:\n%s", got, want)
	}
	lines := strings.Split(wire.Pretty(ex.Response), "\n")
	pretty := wire.Pretty(ex.Response)
	for _, c := range []struct {
		i          int
		raw, line  string
		name, text string
	}{
		{2, `"isError":true`, `    "isError": true,`, "isError", "true"},
		{3, `"errorCategory":"permission"`, `      "errorCategory": "permission",`, "errorCategory", "permission"},
		{4, `"isRetryable":false`, `      "isRetryable": false,`, "isRetryable", "false"},
		{6, `"code":"STAFF_RECORD_RESTRICTED"`, `      "code": "STAFF_RECORD_RESTRICTED"`, "code", "STAFF_RECORD_RESTRICTED"},
	} {
		r := rs[c.i]
		if got := string(ex.Response[r.Raw.Start:r.Raw.End]); got != c.raw {
			t.Errorf("%s: raw span %q, want %q", r.Path, got, c.raw)
		}
		if r.Lines.To != r.Lines.From+1 || lines[r.Lines.From] != c.line {
			t.Errorf("%s: lines %v = %q, want %q", r.Path, r.Lines, lines[r.Lines.From:r.Lines.To], c.line)
		}
		if got := pretty[r.Pretty.Start:r.Pretty.End]; strings.TrimSpace(strings.TrimSuffix(c.line, ",")) != got {
			t.Errorf("%s: pretty span %q", r.Path, got)
		}
		if r.Name != c.name || r.Text != c.text || r.Side != walkthrough.SideResponse {
			t.Errorf("%s: name %q text %q side %s", r.Path, r.Name, r.Text, r.Side)
		}
	}
	// The layer covers the whole result member, from its key to its end.
	layer := rs[1]
	if lines[layer.Lines.From] != `  "result": {` || lines[layer.Lines.To-1] != "  }" {
		t.Errorf("the result member spans %q .. %q", lines[layer.Lines.From], lines[layer.Lines.To-1])
	}
	// The request is revealed whole.
	req := rs[0]
	if req.Side != walkthrough.SideRequest || req.Raw.End != len(ex.Request) || req.Lines.To != len(strings.Split(wire.Pretty(ex.Request), "\n")) {
		t.Errorf("request reveal %+v", req)
	}
}

// A success: isError is absent (said so, with no position), then the
// structuredContent fields; a revision's extra members (_meta,
// resultType) change nothing in the plan.
func TestRevealsSuccess(t *testing.T) {
	for _, rev := range rules.Revisions {
		ex := exchange(t, "email-with-no-account", mockserver.StyleGood, rev)
		rs := walkthrough.Reveals(ex)
		want := `request $ | request: tools/call customer_lookup
layer $.result | result: the tool ran
isError $.result.isError | isError absent: the result counts as a success
field $.result.structuredContent.resultCount | resultCount: 0
field $.result.structuredContent.customers | customers: []
field $.result.structuredContent.summary | summary: 0 customers match "j.morales@example.org"; the search ran a…
`
		if got := plan(rs); got != want {
			t.Errorf("%s plan:\n%s\nwant:\n%s", rev, got, want)
		}
		if is := rs[2]; !is.Absent || is.Lines != (walkthrough.Lines{}) || is.Value != nil {
			t.Errorf("%s: absent isError %+v", rev, is)
		}
	}
}

// A result without structuredContent (the generic style) reveals its
// content blocks in the fields' place.
func TestRevealsGenericContent(t *testing.T) {
	ex := exchange(t, "staff-record-denied", mockserver.StyleGeneric, rules.Rev20251125)
	rs := walkthrough.Reveals(ex)
	last := rs[len(rs)-1]
	if len(rs) != 4 || last.Part != walkthrough.PartContent || last.Label != "text: Operation failed" || last.Path != "$.result.content[0]" {
		t.Errorf("plan:\n%s", plan(rs))
	}
}

// Hand-written bytes that are not JSON still reveal as a request, and the
// -32700 that answers them is a protocol error like any other.
func TestRevealsHandWrittenRequest(t *testing.T) {
	ex := exchange(t, "truncated-json-request", mockserver.StyleGood, rules.Rev20251125)
	rs := walkthrough.Reveals(ex)
	if rs[0].Label != "request: hand-written bytes" || rs[1].Label != "protocol error -32700: no tool ran" {
		t.Errorf("plan:\n%s", plan(rs))
	}
	odd := walkthrough.Reveals(wire.Exchange{Request: []byte("{}"), Response: []byte("not json")})
	if len(odd) != 2 || odd[1].Part != walkthrough.PartLayer || odd[1].Raw.End != len("not json") {
		t.Errorf("unreadable response: %s", plan(odd))
	}
}

// For every scenario, style and revision the plan follows the issue's
// order, and every part's spans cut the same JSON value out of the exact
// bytes and out of the pretty text, on the lines it names.
func TestRevealsEverywhere(t *testing.T) {
	c, _ := content(t)
	order := map[walkthrough.Part]int{walkthrough.PartRequest: 0, walkthrough.PartLayer: 1, walkthrough.PartIsError: 2, walkthrough.PartField: 3, walkthrough.PartContent: 3}
	n := 0
	for _, s := range c.Scenarios {
		for _, style := range s.Styles {
			for _, rev := range rules.Revisions {
				ex := exchange(t, s.ID, style, rev)
				rs := walkthrough.Reveals(ex)
				pretty := wire.Pretty(ex.Response)
				lines := strings.Split(pretty, "\n")
				for i, r := range rs {
					n++
					if i > 0 && order[r.Part] < order[rs[i-1].Part] {
						t.Errorf("%s/%s/%s: %s after %s", s.ID, style, rev, r.Part, rs[i-1].Part)
					}
					if r.Side != walkthrough.SideResponse || r.Absent || r.Path == "$" {
						continue
					}
					raw, pr := ex.Response[r.Raw.Start:r.Raw.End], pretty[r.Pretty.Start:r.Pretty.End]
					if !sameMember(raw, []byte(pr)) {
						t.Errorf("%s/%s/%s %s: raw %q and pretty %q differ", s.ID, style, rev, r.Path, raw, pr)
					}
					if r.Lines.From < 0 || r.Lines.To > len(lines) || r.Lines.From >= r.Lines.To ||
						!strings.Contains(strings.Join(lines[r.Lines.From:r.Lines.To], "\n"), pr) {
						t.Errorf("%s/%s/%s %s: lines %v do not hold the member", s.ID, style, rev, r.Path, r.Lines)
					}
				}
			}
		}
	}
	if n < 300 {
		t.Errorf("only %d parts checked", n)
	}
}

// sameMember compares two `"key": value` texts (or bare values) as JSON.
func sameMember(a, b []byte) bool {
	wrap := func(m []byte) []byte {
		if bytes.HasPrefix(m, []byte(`"`)) && bytes.Contains(m, []byte(`":`)) {
			return append(append([]byte("{"), m...), '}')
		}
		return m
	}
	var x, y any
	if json.Unmarshal(wrap(a), &x) != nil || json.Unmarshal(wrap(b), &y) != nil {
		return false
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return bytes.Equal(xs, ys)
}
