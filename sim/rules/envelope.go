package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// MaxEnvelopeBytes bounds the size of a JSON-RPC message ParseEnvelope will
// read, so hostile input given to `check` cannot exhaust memory.
const MaxEnvelopeBytes = 4 << 20

// Envelope is a parsed JSON-RPC 2.0 response as it came off the wire.
// Exactly one of Error and Result is set for a well-formed response.
type Envelope struct {
	JSONRPC string          // "2.0" when well formed
	ID      json.RawMessage // the id as sent (number, string or null)
	Error   *ProtocolError  // the JSON-RPC error member, if any
	Result  *ToolResult     // the result member read as a CallToolResult, if any
	// Both is true when the response carried a result and an error member
	// at once, which JSON-RPC 2.0 forbids; Error and Result are both set.
	Both bool
	// Duplicates are the members sent more than once, as JSON paths
	// ("$.id", "$.result.isError"): in the response, its result, its
	// error and the result's structuredContent. RFC 8259 leaves the value
	// of a repeated name to each reader (Go keeps the last, others the
	// first), so two clients can read two different answers.
	Duplicates []string
}

// ErrNoResultOrError is the error ParseEnvelope wraps for a response with
// neither a result nor an error member (JSON-RPC 2.0 requires exactly one).
var ErrNoResultOrError = errors.New("response has neither a result nor an error member")

// errNullResult is ErrNoResultOrError for a response whose result member
// is there but null.
type errNullResult struct{}

func (errNullResult) Error() string {
	return "the result member is null, so the response has neither a result nor an error member: send a result object or an error"
}
func (errNullResult) Is(target error) bool { return target == ErrNoResultOrError }

// ProtocolError is a JSON-RPC error member {code, message, data?}.
type ProtocolError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// ToolResult is a result member read as an MCP CallToolResult: content,
// structuredContent, isError, and the 2026-07-28 resultType and _meta.
type ToolResult struct {
	Content           []ContentBlock  `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	ResultType        string          `json:"resultType,omitempty"`
	Meta              json.RawMessage `json:"_meta,omitempty"`

	// HasIsError is true when the result carried an isError member at all.
	HasIsError bool `json:"-"`
	// HasContent is true when the result carried a content member.
	HasContent bool `json:"-"`
}

// ContentBlock is one entry of a result's content array. Only text blocks
// carry Text; other types are kept by Type for the grader.
type ContentBlock struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// Texts returns the text of every text block, in order.
func (r *ToolResult) Texts() []string {
	var out []string
	for _, b := range r.Content {
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return out
}

// ParseEnvelope reads one JSON-RPC response. It fails, with a message that
// says what is wrong, on input that is not JSON, larger than
// MaxEnvelopeBytes, not an object, or a response with neither result nor
// error.
func ParseEnvelope(raw []byte) (Envelope, error) {
	var env Envelope
	if len(raw) > MaxEnvelopeBytes {
		return env, fmt.Errorf("response is %d bytes; the limit is %d", len(raw), MaxEnvelopeBytes)
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return env, errors.New("response is empty: expected one JSON-RPC object")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return env, fmt.Errorf("response is not a JSON object: %v", err)
	}
	if v, ok := top["jsonrpc"]; ok {
		_ = json.Unmarshal(v, &env.JSONRPC)
	}
	env.ID = top["id"]
	if e, ok := top["error"]; ok && !isNull(e) {
		var pe ProtocolError
		if err := json.Unmarshal(e, &pe); err != nil {
			return env, fmt.Errorf("error member is not {code, message, data?}: %v", err)
		}
		env.Error = &pe
	}
	if r, ok := top["result"]; ok && !isNull(r) {
		tr, err := parseToolResult(r)
		if err != nil {
			return env, err
		}
		env.Result = tr
	}
	if env.Error == nil && env.Result == nil {
		if r, ok := top["result"]; ok && isNull(r) {
			return env, errNullResult{}
		}
		return env, ErrNoResultOrError
	}
	env.Both = env.Error != nil && env.Result != nil
	env.Duplicates = duplicateNames(raw, "$")
	if r := top["result"]; len(r) > 0 {
		env.Duplicates = append(env.Duplicates, duplicateNames(r, "$.result")...)
	}
	if e := top["error"]; len(e) > 0 {
		env.Duplicates = append(env.Duplicates, duplicateNames(e, "$.error")...)
	}
	if env.Result != nil && len(env.Result.StructuredContent) > 0 {
		env.Duplicates = append(env.Duplicates, duplicateNames(env.Result.StructuredContent, "$.result.structuredContent")...)
	}
	return env, nil
}

// maxDuplicates bounds the repeated names duplicateNames reports.
const maxDuplicates = 8

// duplicateNames returns path + "." + name for each member name that
// occurs more than once in the JSON object obj (its own members, not
// those of nested values), in the order of their second occurrence.
// obj is valid JSON (ParseEnvelope read it); anything but an object gives
// none. It reads obj once, byte by byte, so a large object costs linear
// time.
func duplicateNames(obj []byte, path string) []string {
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[0] != '{' {
		return nil
	}
	var seen map[string]bool
	var out []string
	depth, expectKey := 0, false
	for i := 0; i < len(obj); i++ {
		switch c := obj[i]; c {
		case '{', '[':
			depth++
			expectKey = depth == 1 && c == '{'
		case '}', ']':
			depth--
		case ',':
			expectKey = depth == 1
		case '"':
			end := stringEnd(obj, i)
			if depth == 1 && expectKey {
				name, plain := string(obj[i+1:max(i+1, end-1)]), bytes.IndexByte(obj[i:end], '\\') < 0
				if plain || json.Unmarshal(obj[i:end], &name) == nil {
					if seen == nil {
						seen = map[string]bool{}
					}
					if seen[name] && len(out) < maxDuplicates && !slices.Contains(out, path+"."+name) {
						out = append(out, path+"."+name)
					}
					seen[name] = true
				}
				expectKey = false
			}
			i = end - 1
		}
	}
	return out
}

// stringEnd returns the index just past the JSON string opening at i.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

func parseToolResult(r json.RawMessage) (*ToolResult, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(r, &fields); err != nil {
		return nil, fmt.Errorf("result member is not an object: %v", err)
	}
	var tr ToolResult
	if v, ok := fields["isError"]; ok {
		tr.HasIsError = true
		if err := json.Unmarshal(v, &tr.IsError); err != nil {
			return nil, fmt.Errorf("result.isError is not a boolean: %s", truncate(string(v), 40))
		}
	}
	if v, ok := fields["content"]; ok {
		tr.HasContent = true
		var blocks []json.RawMessage
		if err := json.Unmarshal(v, &blocks); err != nil {
			return nil, fmt.Errorf("result.content is not an array: %v", err)
		}
		for i, b := range blocks {
			cb, err := parseBlock(b)
			if err != nil {
				return nil, fmt.Errorf("result.content[%d]%v", i, err)
			}
			tr.Content = append(tr.Content, cb)
		}
	}
	if v, ok := fields["structuredContent"]; ok && !isNull(v) {
		tr.StructuredContent = v
	}
	if v, ok := fields["resultType"]; ok {
		_ = json.Unmarshal(v, &tr.ResultType)
	}
	tr.Meta = fields["_meta"]
	return &tr, nil
}

// parseBlock reads one content block; the error, which follows
// "result.content[i]", names the member that has the wrong type.
func parseBlock(b json.RawMessage) (ContentBlock, error) {
	var cb ContentBlock
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil || fields == nil {
		return cb, fmt.Errorf(" is a block that is not an object: %s %s", JSONKind(b), truncate(string(bytes.TrimSpace(b)), 40))
	}
	for _, m := range []struct {
		name string
		to   *string
	}{{"type", &cb.Type}, {"text", &cb.Text}} {
		v, ok := fields[m.name]
		if !ok || (m.name == "text" && isNull(v)) {
			continue
		}
		if json.Unmarshal(v, m.to) != nil {
			return cb, fmt.Errorf(".%s is %s; a content block's %s is a string", m.name, JSONKind(v), m.name)
		}
	}
	return cb, nil
}

// JSONKind names the kind of a JSON value for a message: "an object",
// "an array", "a string", "a number", "true or false", "null".
func JSONKind(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "an object"
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

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// metadataKeys are the members ReadMetadata reads, as normKey writes them.
var metadataKeys = map[string]bool{
	"ok": true, "error": true, "errorcategory": true, "category": true, "errortype": true,
	"isretryable": true, "retryable": true, "retriable": true, "automaticretryallowed": true, "recoverable": true,
	"description": true, "message": true, "detail": true, "suggestedaction": true, "code": true, "errorcode": true,
	"customermessage": true, "correlationid": true, "retryafterseconds": true, "requiresuseraction": true,
	"fielderrors": true, "examplearguments": true, "partialresults": true, "attempted": true, "resultcount": true,
	"status": true, "success": true,
}

// errorOnlyKeys are the members (as normKey writes them) an object may
// hold besides an error member and still say nothing but "this failed":
// {"error": "user not found"}, {"error": {...}, "status": 404}. A member
// outside them (orders, partialResults, resultCount) is data.
var errorOnlyKeys = map[string]bool{
	"ok": true, "error": true, "errors": true, "errorcategory": true, "category": true, "errortype": true,
	"isretryable": true, "retryable": true, "retriable": true, "automaticretryallowed": true, "recoverable": true,
	"description": true, "message": true, "detail": true, "details": true, "suggestedaction": true, "code": true,
	"errorcode": true, "customermessage": true, "correlationid": true, "requestid": true, "retryafterseconds": true,
	"status": true, "statuscode": true, "success": true, "timestamp": true, "data": true,
}

// lowerKeys returns the metadata members of an object (metadataKeys) with
// their keys lowered and stripped of "_" and "-", so "is_retryable",
// "isRetryable" and "IsRetryable" meet. Other members are left out, so a
// large object costs no large copy.
func lowerKeys(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, min(len(m), len(metadataKeys)))
	for k, v := range m {
		if n := normKey(k); metadataKeys[n] {
			out[n] = v
		}
	}
	return out
}

func normKey(k string) string {
	k = strings.ToLower(k)
	k = strings.ReplaceAll(k, "_", "")
	return strings.ReplaceAll(k, "-", "")
}
