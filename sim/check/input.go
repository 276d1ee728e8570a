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
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

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
	// Truth, when the input says what really happened (a record's
	// "expected", as `errorlab scenarios show --json` and the lab give it),
	// lets the grader catch a failure passed off as a plausible empty
	// result.
	Truth *rules.Situation `json:"-"`
	// Waited is how long a live call waited for an answer that never came
	// (Response is then empty, or what the server sent instead).
	Waited time.Duration `json:"-"`
	// Ended is how the server's process ended before it answered ("exit
	// status 3"); Response is then empty.
	Ended string `json:"-"`
	// Stray are lines a stdio server wrote on stdout that are not JSON-RPC
	// messages (graded as envelope.stray-output).
	Stray [][]byte `json:"-"`
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
	// Expected is the true outcome of the call, {layer, errorCategory,
	// ...}, as `errorlab scenarios show --json` writes it; read only when
	// it is an object with a layer.
	Expected json.RawMessage `json:"expected"`
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
	data, err := utf8Text(data)
	if err != nil {
		return nil, &InputError{Name: name, Problems: []string{err.Error()}}
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &InputError{Name: name, Problems: []string{"it is empty"}}
	}
	// One JSON value (a pretty-printed file, a bare response, an array)
	// is read whole; several (JSON lines, or files joined with cat) one
	// after another. A document that starts as pretty-printed JSON (its
	// first line is not a JSON value by itself) and breaks is one broken
	// document: its first error is named at FILE:LINE:COL. Other input
	// that does not read as a sequence of values is read line by line,
	// so that every bad line of JSON lines is named.
	switch {
	case len(trimmed) <= MaxRecordBytes && json.Valid(trimmed):
		line := 1 + bytes.Count(data[:bytes.Index(data, trimmed[:1])], []byte("\n"))
		p.value(trimmed, line)
	case prettyPrinted(trimmed):
		p.stream(data, true)
	case !p.stream(data, false):
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

// utf8Text returns data without a UTF-8 byte order mark; UTF-16 and
// UTF-32 text is refused with what to do (JSON is UTF-8, RFC 8259).
func utf8Text(data []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return data[3:], nil
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE, 0, 0}), bytes.HasPrefix(data, []byte{0, 0, 0xFE, 0xFF}):
		return nil, errors.New("it is UTF-32 text (it starts with a UTF-32 byte order mark); errorlab check reads UTF-8 JSON: convert it first, e.g. iconv -f UTF-32 -t UTF-8 FILE > FILE.utf8.json")
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}),
		len(data) >= 4 && (data[1] == 0 && data[3] == 0 && data[0] != 0 || data[0] == 0 && data[2] == 0 && data[1] != 0):
		return nil, errors.New("it is UTF-16 text (as Windows tools often write); errorlab check reads UTF-8 JSON: convert it first, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8.json, or in PowerShell Out-File -Encoding utf8")
	}
	return data, nil
}

// prettyPrinted reports JSON that opens an object or array whose first
// line is not a whole JSON value: a pretty-printed document, not JSON
// lines.
func prettyPrinted(trimmed []byte) bool {
	if trimmed[0] != '{' && trimmed[0] != '[' {
		return false
	}
	first, _, _ := bytes.Cut(trimmed, []byte("\n"))
	return !json.Valid(bytes.TrimSpace(first))
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
// input is not such a sequence. With document set, the input is taken to
// be JSON values whatever happens: a syntax error is one problem, at the
// line and column where it is. Lines are counted as the decoder moves on,
// so the time is linear in the input.
func (p *parser) stream(data []byte, document bool) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type value struct {
		raw  []byte
		line int
	}
	var values []value
	line, counted := 1, 0 // line is the line of byte counted
	lineAt := func(at int) int {
		line += bytes.Count(data[counted:at], []byte("\n"))
		counted = at
		return line
	}
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			// Keep the value where it lies in data, not the decoder's copy.
			end := int(dec.InputOffset())
			raw = data[end-len(raw) : end]
		}
		if err != nil {
			if !document {
				return false
			}
			at := int(dec.InputOffset())
			var se *json.SyntaxError
			if errors.As(err, &se) && se.Offset > 0 {
				at = int(se.Offset) - 1
			} else if errors.Is(err, io.ErrUnexpectedEOF) {
				at = len(bytes.TrimRight(data, " \t\r\n"))
			}
			at = max(0, min(at, len(data)))
			if tooDeep(err) {
				p.problem(lineAt(at), "%s", deepText)
				return true
			}
			p.problems = append(p.problems, fmt.Sprintf("%s:%d:%d: not JSON: %s", p.name, lineAt(at), column(data, at), syntaxText(err, data, at)))
			return true
		}
		// The value ends where the decoder stopped; it starts len(raw) before.
		at := int(dec.InputOffset()) - len(raw)
		if len(raw) > MaxRecordBytes {
			if !document {
				return false
			}
			p.problem(lineAt(at), "the value is larger than %d MiB, the most one record may be", MaxRecordBytes>>20)
			return true
		}
		values = append(values, value{raw, lineAt(at)})
		if len(values) > MaxRecords {
			p.problem(line, "more than %d responses in one input; split it into smaller files", MaxRecords)
			return true
		}
	}
	for _, v := range values {
		p.value(v.raw, v.line)
		if p.records > MaxRecords {
			break
		}
	}
	return true
}

// column is the 1-based column, in characters, of byte at in its line.
func column(data []byte, at int) int {
	start := bytes.LastIndexByte(data[:at], '\n') + 1
	return 1 + utf8.RuneCount(data[start:at])
}

// syntaxText says what a JSON syntax error is, with a hint for the usual
// slips: a trailing comma, a cut-off file.
func syntaxText(err error, data []byte, at int) string {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "the input ends inside a value (a missing } or ], or a cut-off file)"
	}
	msg := err.Error()
	if at < len(data) && (data[at] == '}' || data[at] == ']') {
		if prev := bytes.TrimRight(data[:at], " \t\r\n"); len(prev) > 0 && prev[len(prev)-1] == ',' {
			msg += "; JSON allows no comma before a closing " + string(data[at])
		}
	}
	return msg
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
			if tooDeep(err) {
				p.problem(line, "%s", deepText)
			} else {
				p.problem(line, "not JSON (%v); each line must be one JSON value", err)
			}
			continue
		}
		p.value(b, line)
		if len(p.problems) > 10*maxProblems || p.records > MaxRecords {
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

// deepText says a value nests too deeply, whichever reader found it.
var deepText = fmt.Sprintf("the JSON nests more than %d levels deep; errorlab check reads at most %d", MaxDepth, MaxDepth)

// tooDeep reports encoding/json's error for nesting past its own limit
// (10,000 levels), which is past MaxDepth too.
func tooDeep(err error) bool {
	return err != nil && strings.Contains(err.Error(), "exceeded max depth")
}

// value reads one JSON value: an array of records, or one record.
func (p *parser) value(b []byte, line int) {
	if depth(b) > MaxDepth {
		p.problem(line, "%s", deepText)
		return
	}
	if b[0] == '[' {
		p.array(b, line)
		return
	}
	p.record(b, line)
}

// array reads a JSON array of records, each at the line it starts on.
func (p *parser) array(b []byte, line int) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		p.problem(line, "%v", err)
		return
	}
	n, counted := 0, 0
	for dec.More() {
		var e json.RawMessage
		if err := dec.Decode(&e); err != nil {
			p.problem(line, "%v", err)
			return
		}
		at := int(dec.InputOffset()) - len(e)
		line += bytes.Count(b[counted:at], []byte("\n"))
		counted = at
		p.record(e, line)
		if n++; p.records > MaxRecords {
			return
		}
	}
	if n == 0 {
		p.problem(line, "an empty array: a JSON-RPC batch answer with no response in it")
	}
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
		p.problem(line, "%s, not an object: expected a JSON-RPC response or {\"request\", \"response\"}", rules.JSONKind(b))
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
		p.problem(line, "%s", memberError(err))
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
	truth, err := expectedTruth(rec.Expected)
	if err != nil {
		p.problem(line, "expected: %v", err)
		return
	}
	it := Item{Request: req, Response: resp, Tools: rec.Tools, Spec: spec, Line: line, Truth: truth}
	p.add(it, line, rec.Session)
}

// expectedTruth reads a record's "expected": the true outcome of the call
// ({"layer": "execution", "errorCategory": "transient", ...}, the shape of
// `errorlab scenarios show --json`). Anything but an object with a layer
// is not such an outcome and is ignored (nil), as other keys are.
func expectedTruth(raw json.RawMessage) (*rules.Situation, error) {
	var e struct {
		Layer         *string `json:"layer"`
		ErrorCategory *string `json:"errorCategory"`
		Empty         bool    `json:"empty"`
	}
	if len(bytes.TrimSpace(raw)) == 0 || raw[0] != '{' || json.Unmarshal(raw, &e) != nil || e.Layer == nil {
		return nil, nil
	}
	s := rules.Situation{Layer: rules.Layer(*e.Layer), Empty: e.Empty}
	switch s.Layer {
	case rules.LayerProtocol, rules.LayerExecution, rules.LayerSuccess:
	default:
		return nil, fmt.Errorf("layer %q is none of protocol, execution, success", *e.Layer)
	}
	if e.ErrorCategory != nil {
		c, canonical, _ := rules.ParseCategory(*e.ErrorCategory)
		if !canonical {
			return nil, fmt.Errorf("errorCategory %q is none of transient, validation, business, permission", *e.ErrorCategory)
		}
		s.Category = c
	}
	return &s, nil
}

// memberError says which member of a record has the wrong type, in the
// record's own terms: "\"tools\" is a string; it must be an array of
// tools/list entries".
func memberError(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	field := te.Field
	if field == "" {
		field = "the record"
	}
	if field == "tools" && te.Type.Kind() == reflect.Struct {
		return fmt.Sprintf("\"tools\" holds %s; each entry must be a tools/list entry, an object {\"name\", \"inputSchema\", \"outputSchema\"}", map[string]string{"string": "a string", "number": "a number", "bool": "true or false", "array": "an array"}[te.Value])
	}
	got := map[string]string{"string": "a string", "number": "a number", "bool": "true or false", "array": "an array", "object": "an object"}[te.Value]
	if got == "" {
		got = te.Value
	}
	want := map[string]string{
		"tools":      "an array of tools/list entries, each {\"name\", \"inputSchema\", \"outputSchema\"}",
		"tools.name": "a string, the tool's name",
		"spec":       "a string such as \"2025-11-25\"",
		"session":    "a string",
	}[field]
	if want == "" {
		switch te.Type.Kind() {
		case reflect.Slice, reflect.Array:
			want = "an array"
		case reflect.Struct, reflect.Map:
			want = "an object"
		case reflect.String:
			want = "a string"
		case reflect.Bool:
			want = "true or false"
		default:
			want = "a number"
		}
	}
	return fmt.Sprintf("%q is %s; it must be %s", field, got, want)
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
