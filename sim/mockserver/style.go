package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/errorlab/errorlab/sim/rules"
)

// Style is how the mock server writes a failure: the way the lessons
// recommend, or one of the anti-patterns they warn about.
type Style string

const (
	// StyleGood: isError: true, errorCategory, isRetryable, a description and
	// the extras that fit, in structuredContent and mirrored as JSON in a
	// text block (LESSON-RULES §3).
	StyleGood Style = "good"
	// StyleGeneric: isError: true and "Operation failed", nothing else.
	StyleGeneric Style = "generic"
	// StyleRawException: isError: true carrying the raw exception text or
	// stack trace, internals and all (§3, §6).
	StyleRawException Style = "raw_exception"
	// StyleErrorAsSuccess: isError absent, "ERROR: ..." in the text (§3).
	StyleErrorAsSuccess Style = "error_as_success"
	// StyleEmptySuccess: an access failure reported as an empty success (§4).
	StyleEmptySuccess Style = "empty_success"
	// StyleProtocolError: the handler returns a Go error, which mcp-go sends
	// as a -32603 JSON-RPC error: an execution failure on the wrong layer (§1).
	StyleProtocolError Style = "protocol_error"
	// StyleStructuredOnly: structuredContent with the metadata but no text
	// block, so a client that reads only content sees nothing (§3).
	StyleStructuredOnly Style = "structured_only"
)

// Styles lists every style, good first.
var Styles = []Style{StyleGood, StyleGeneric, StyleRawException, StyleErrorAsSuccess, StyleEmptySuccess, StyleProtocolError, StyleStructuredOnly}

var styleText = map[Style][2]string{
	StyleGood:           {"good", "structured error: isError, errorCategory, isRetryable, description, mirrored in text"},
	StyleGeneric:        {"generic", "isError with \"Operation failed\" and nothing else"},
	StyleRawException:   {"raw exception", "isError carrying the raw exception or stack trace"},
	StyleErrorAsSuccess: {"error as success", "no isError; \"ERROR: ...\" in the text"},
	StyleEmptySuccess:   {"empty success", "the failure reported as an empty success"},
	StyleProtocolError:  {"protocol error", "the handler returns a Go error: JSON-RPC -32603"},
	StyleStructuredOnly: {"structured only", "structuredContent with no text block"},
}

// Label is a short name for screens.
func (s Style) Label() string { return styleText[s][0] }

// Description says what the style does.
func (s Style) Description() string { return styleText[s][1] }

// Good reports whether this is the recommended style.
func (s Style) Good() bool { return s == StyleGood }

// ParseStyle accepts a style id; the error lists the valid ones.
func ParseStyle(s string) (Style, error) {
	for _, x := range Styles {
		if string(x) == s {
			return x, nil
		}
	}
	names := make([]string, len(Styles))
	for i, x := range Styles {
		names[i] = string(x)
	}
	return "", fmt.Errorf("unknown response style %q: use one of %s", s, strings.Join(names, ", "))
}

// FieldError says which argument was wrong, what was expected and what
// arrived (LESSON-RULES §3 fieldErrors).
type FieldError struct {
	Field    string `json:"field"`
	Expected string `json:"expected"`
	Received any    `json:"received,omitempty"`
}

// ErrorPayload is the structured metadata of a tool execution error, in
// the order a reader wants it: the canonical three first (LESSON-RULES §3).
type ErrorPayload struct {
	ErrorCategory      rules.Category `json:"errorCategory"`
	IsRetryable        bool           `json:"isRetryable"`
	Description        string         `json:"description"`
	Code               string         `json:"code,omitempty"`
	CustomerMessage    string         `json:"customerMessage,omitempty"`
	RetryAfterSeconds  int            `json:"retryAfterSeconds,omitempty"`
	RequiresUserAction bool           `json:"requiresUserAction,omitempty"`
	FieldErrors        []FieldError   `json:"fieldErrors,omitempty"`
	ExampleArguments   map[string]any `json:"exampleArguments,omitempty"`
	CorrelationID      string         `json:"correlationId,omitempty"`
}

// failure is one tool execution failure, with everything each style needs.
type failure struct {
	payload ErrorPayload
	// errorText is the one line an "ERROR: ..." success would carry.
	errorText string
	// exception is what an unhandled exception would have put on screen,
	// internals included: only the raw_exception style shows it.
	exception string
	// queryDidNotRun marks an access failure a careless tool could pass off
	// as "no results" (LESSON-RULES §4).
	queryDidNotRun bool
	// emptyShape is the success payload an empty_success style would send.
	emptyShape any
}

// render writes the failure in a style. A Go error return is the
// protocol_error style: mcp-go turns it into -32603.
func (f failure) render(style Style) (*mcp.CallToolResult, error) {
	p := f.payload
	p.IsRetryable = p.ErrorCategory.Retryable()
	switch style {
	case StyleGeneric:
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("Operation failed")}, IsError: true}, nil
	case StyleRawException:
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(f.exception)}, IsError: true}, nil
	case StyleErrorAsSuccess:
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(f.errorText)}}, nil
	case StyleEmptySuccess:
		if f.emptyShape != nil {
			return structured(f.emptyShape, false), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("[]")}}, nil
	case StyleProtocolError:
		return nil, errors.New(rules.FirstSentence(p.Description))
	case StyleStructuredOnly:
		return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: p, IsError: true}, nil
	}
	return structured(p, true), nil
}

// structured builds a result whose structuredContent is v and whose single
// text block is the same data as JSON (the spec's SHOULD, LESSON-RULES §3).
func structured(v any, isError bool) *mcp.CallToolResult {
	text, err := json.Marshal(v)
	if err != nil {
		text = []byte(`{}`)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(string(text))},
		StructuredContent: v,
		IsError:           isError,
	}
}
