// Package check is `errorlab check` without the terminal: it reads tool
// responses from files (a bare JSON-RPC response, an object {request,
// response, tools?, spec?}, JSON lines of those, the log of `errorlab
// serve --log`), or probes a live MCP server over stdio or Streamable
// HTTP, grades each response with sim/grade, and writes the results as
// JSON, JUnit XML or SARIF 2.1.0. The rules themselves live in sim/grade
// and sim/rules; this package only carries responses to them and their
// findings out.
package check

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
)

// Limits on what Read accepts. Input beyond them is refused with an error
// that names the limit, never read in part.
const (
	// MaxInputBytes bounds a whole input (a file or stdin).
	MaxInputBytes = 64 << 20
	// MaxRecordBytes bounds one record: a JSON line, or a whole file that
	// holds one JSON value. It is the grader's own limit on one response.
	MaxRecordBytes = rules.MaxEnvelopeBytes
	// MaxDepth bounds how deeply a record's JSON may nest.
	MaxDepth = 128
	// MaxRecords bounds the responses in one input.
	MaxRecords = 100_000
	// maxProblems is how many problems an error lists before it says how
	// many more there are.
	maxProblems = 20
)

// Item is one response to grade, with what helps to judge it.
type Item struct {
	// Source says where the response came from: "FILE:LINE" for input
	// read from a file, or what the probe sent ("unknown tool").
	Source string `json:"source"`
	// Label names the exchange: "tools/call read_text_file".
	Label    string          `json:"label"`
	Request  json.RawMessage `json:"-"`
	Response json.RawMessage `json:"-"`
	// Tools are the tools/list entries the grader may use (input and
	// output schemas); nil when none are known.
	Tools []grade.Tool `json:"-"`
	// Spec is the revision the response is graded under.
	Spec rules.Revision `json:"spec"`
	// File is the input's name ("stdin" for "-"), "" when not from a file;
	// Line is the 1-based line the record starts on, 0 when not from a file.
	File string `json:"-"`
	Line int    `json:"line,omitempty"`
}

// record is one object of the input: {request, response, tools?, spec?}
// (a fixture or a hand-made case) or a line of `errorlab serve --log`
// ({time, session, spec, request, response}). Other keys are ignored.
type record struct {
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`
	Tools    []grade.Tool    `json:"tools"`
	Spec     string          `json:"spec"`
	Session  string          `json:"session"`
}

// InputError is bad input: what is wrong, where, and what to do. Problems
// holds every problem found (each "NAME:LINE: what"), so nothing is lost.
type InputError struct {
	Name     string
	Problems []string
}

func (e *InputError) Error() string {
	var b strings.Builder
	n := len(e.Problems)
	if n == 1 {
		fmt.Fprintf(&b, "%s cannot be checked: %s", e.Name, e.Problems[0])
	} else {
		fmt.Fprintf(&b, "%s cannot be checked (%d problems):", e.Name, n)
		for i, p := range e.Problems {
			if i == maxProblems {
				fmt.Fprintf(&b, "\n  … and %d more", n-maxProblems)
				break
			}
			b.WriteString("\n  " + p)
		}
	}
	b.WriteString("\nerrorlab check reads a JSON-RPC response, an object {\"request\", \"response\", \"tools\", \"spec\"}, " +
		"a JSON array of those, or JSON lines of those (such as the log of errorlab serve --log)")
	return b.String()
}

// Read reads every response in r. name labels the input in sources and
// errors ("-" for stdin). spec is the revision for records that name
// none. The error is an *InputError listing every problem found, or the
// reader's own error.
func Read(r io.Reader, name string, spec rules.Revision) ([]Item, error) {
	if spec == "" {
		spec = rules.DefaultRevision
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(data) > MaxInputBytes {
		return nil, &InputError{Name: name, Problems: []string{fmt.Sprintf("it is larger than %d MiB, the most errorlab check reads at once; split it into smaller files", MaxInputBytes>>20)}}
	}
	return Parse(data, name, spec)
}

// Parse is Read on bytes already in memory.
func Parse(data []byte, name string, spec rules.Revision) ([]Item, error) {
	if spec == "" {
		spec = rules.DefaultRevision
	}
	if name == "-" {
		name = "stdin"
	}
	p := &parser{name: name, spec: spec, tools: map[string][]grade.Tool{}}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &InputError{Name: name, Problems: []string{"it is empty"}}
	}
	// One JSON value (a pretty-printed file, a bare response, an array)
	// is read whole; several (JSON lines, or files joined with cat) one
	// after another; input that does not read that way line by line, so
	// that every bad line is named.
	switch {
	case len(trimmed) <= MaxRecordBytes && json.Valid(trimmed):
		line := 1 + bytes.Count(data[:bytes.Index(data, trimmed[:1])], []byte("\n"))
		p.value(trimmed, line)
	case !p.stream(data):
		p.lines(data)
	}
	if len(p.problems) > 0 {
		return nil, &InputError{Name: name, Problems: p.problems}
	}
	if len(p.items) == 0 {
		return nil, &InputError{Name: name, Problems: []string{"it holds no response to grade (every record was a notification, whose response is null)"}}
	}
	return p.items, nil
}

type parser struct {
	name     string
	spec     rules.Revision
	items    []Item
	problems []string
	tools    map[string][]grade.Tool // by session, from tools/list exchanges in a log
	records  int
}

func (p *parser) problem(line int, format string, a ...any) {
	p.problems = append(p.problems, fmt.Sprintf("%s:%d: %s", p.name, line, fmt.Sprintf(format, a...)))
}

// stream reads consecutive JSON values; false (and nothing read) when the
// input is not such a sequence.
func (p *parser) stream(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type value struct {
		raw  []byte
		line int
	}
	var values []value
	for {
		start := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || len(raw) > MaxRecordBytes {
			return false
		}
		// The value starts after the whitespace the decoder skipped.
		at := int(start) + len(data[start:]) - len(bytes.TrimLeft(data[start:], " \t\r\n"))
		values = append(values, value{raw, 1 + bytes.Count(data[:at], []byte("\n"))})
	}
	for _, v := range values {
		p.value(bytes.TrimSpace(v.raw), v.line)
	}
	return true
}

func (p *parser) lines(data []byte) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxRecordBytes+1)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if len(b) > MaxRecordBytes {
			p.problem(line, "the line is longer than %d MiB, the most one record may be", MaxRecordBytes>>20)
			continue
		}
		if !json.Valid(b) {
			var v any
			err := json.Unmarshal(b, &v)
			p.problem(line, "not JSON (%v); each line must be one JSON value", err)
			continue
		}
		p.value(b, line)
		if len(p.problems) > 10*maxProblems {
			return
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			p.problem(line+1, "the line is longer than %d MiB, the most one record may be", MaxRecordBytes>>20)
			return
		}
		p.problem(line+1, "%v", err)
	}
}

// value reads one JSON value: an array of records, or one record.
func (p *parser) value(b []byte, line int) {
	if d := depth(b); d > MaxDepth {
		p.problem(line, "the JSON nests %d levels deep; errorlab check reads at most %d", d, MaxDepth)
		return
	}
	if b[0] == '[' {
		var elems []json.RawMessage
		if err := json.Unmarshal(b, &elems); err != nil {
			p.problem(line, "%v", err)
			return
		}
		if len(elems) == 0 {
			p.problem(line, "an empty array: a JSON-RPC batch answer with no response in it")
		}
		for _, e := range elems {
			p.record(bytes.TrimSpace(e), line)
		}
		return
	}
	p.record(b, line)
}

func (p *parser) record(b []byte, line int) {
	p.records++
	if p.records > MaxRecords {
		if p.records == MaxRecords+1 {
			p.problem(line, "more than %d responses in one input; split it into smaller files", MaxRecords)
		}
		return
	}
	if len(b) == 0 || b[0] != '{' {
		p.problem(line, "%s, not an object: expected a JSON-RPC response or {\"request\", \"response\"}", jsonKind(b))
		return
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		p.problem(line, "%v", err)
		return
	}
	_, hasResponse := top["response"]
	_, hasRPC := top["jsonrpc"]
	_, hasResult := top["result"]
	_, hasError := top["error"]
	switch {
	case hasResponse:
	case hasRPC || hasResult || hasError:
		// A bare JSON-RPC response.
		p.add(Item{Response: b, Spec: p.spec, Line: line}, line, "")
		return
	default:
		p.problem(line, "an object with neither \"response\" nor the members of a JSON-RPC response (jsonrpc, id, result or error)")
		return
	}
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		p.problem(line, "%v", err)
		return
	}
	spec := p.spec
	if rec.Spec != "" {
		rev, err := rules.ParseRevision(rec.Spec)
		if err != nil {
			p.problem(line, "%v", err)
			return
		}
		spec = rev
	}
	req, err := rawOrString(rec.Request)
	if err != nil {
		p.problem(line, "request: %v", err)
		return
	}
	resp, err := rawOrString(rec.Response)
	if err != nil {
		p.problem(line, "response: %v", err)
		return
	}
	if len(resp) == 0 {
		return // a notification: no response to grade
	}
	if tools := toolsListed(req, resp); tools != nil {
		p.tools[rec.Session] = tools
	}
	it := Item{Request: req, Response: resp, Tools: rec.Tools, Spec: spec, Line: line}
	p.add(it, line, rec.Session)
}

func (p *parser) add(it Item, line int, session string) {
	if it.Tools == nil {
		it.Tools = p.tools[session]
	}
	it.Source = fmt.Sprintf("%s:%d", p.name, line)
	it.File = p.name
	it.Label = Label(it.Request)
	p.items = append(p.items, it)
}

// rawOrString returns a JSON value as it is, or the bytes a JSON string
// holds (`errorlab scenarios show --json` writes the exact bytes as
// strings); null or absent is nil.
func rawOrString(raw json.RawMessage) ([]byte, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return []byte(s), nil
	}
	return raw, nil
}

// toolsListed returns the tools of a tools/list exchange (a log's), or nil.
func toolsListed(req, resp []byte) []grade.Tool {
	var r struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(req, &r) != nil || r.Method != "tools/list" {
		return nil
	}
	var out struct {
		Result struct {
			Tools []grade.Tool `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(resp, &out) != nil || out.Result.Tools == nil {
		return nil
	}
	return out.Result.Tools
}

// Label names an exchange by its request: "tools/call NAME", the method,
// or "response" when there is no readable request.
func Label(request []byte) string {
	var r struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if len(request) == 0 || json.Unmarshal(request, &r) != nil || r.Method == "" {
		return "response"
	}
	if r.Method == "tools/call" && r.Params.Name != "" {
		return "tools/call " + r.Params.Name
	}
	return r.Method
}

// depth returns how deeply JSON text nests (arrays and objects), reading
// past strings; it stops counting once past MaxDepth.
func depth(b []byte) int {
	d, top := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			if d > top {
				top = d
				if top > MaxDepth {
					return top
				}
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return top
}

func jsonKind(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
