package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Metadata is the error metadata a tool result carries, read from
// structuredContent or, failing that, from a JSON object in a text block
// (LESSON-RULES §3). The canonical names are errorCategory, isRetryable and
// description; the synonyms of §3 are recognised and the name actually used
// is kept in the *Field members so a grader can point at it.
type Metadata struct {
	// Source is "structuredContent", "text" or "" (no metadata found).
	Source string
	// Path is where in the result the metadata object sits, as a JSON
	// path relative to the result: "structuredContent",
	// "structuredContent.error" (an envelope), "content[1].text".
	Path string
	// OK is the envelope's ok member, when there is one: false says the
	// call failed whatever isError says.
	OK *bool
	// Envelope is true when the fields sat inside an {ok, data, error} envelope.
	Envelope bool

	Category      Category // normalised to the four; "" when absent or resembling none
	CategoryRaw   string   // the value as sent
	CategoryField string   // "errorCategory", "category", ...
	// CategoryCanonical is true when CategoryRaw is one of the four exact
	// names; a value that only resembles one ("timeout", "Validation")
	// still sets Category, to the one it resembles (ParseCategory).
	CategoryCanonical bool

	IsRetryable    *bool
	RetryableField string // "isRetryable", "retriable", "automatic_retry_allowed", ...
	Recoverable    *bool  // "recoverable": the agent can recover, NOT the same as isRetryable

	Description          string
	DescriptionField     string // "description", "message", ...
	SuggestedAction      string
	SuggestedActionField string // "suggested_action", "suggestedAction", ...
	// Messages are the texts meant for a reader, by field name as sent:
	// description, message, detail, error (a string), suggested_action,
	// customerMessage. A grader checks each of them for raw exceptions.
	Messages []FieldText
	// ErrorMember is true when the object carries an error member that
	// is neither null nor false nor empty: a failure, whatever else the
	// result says (LESSON-RULES §3, §4).
	ErrorMember bool
	// ErrorOnly is true when the object is nothing but an error: an error
	// member and members that describe it ({"error": "user not found"},
	// {"error": {"code": 403, "message": "forbidden"}}), no data.
	ErrorOnly bool
	// FailedBy names the member that says the call failed, in the words
	// sent: `success: false` or `status: "error"` (the synonyms of ok:
	// false, LESSON-RULES §3); "" when none does.
	FailedBy string

	Code               string
	CustomerMessage    string
	RetryAfterSeconds  *float64
	CorrelationID      string
	RequiresUserAction bool
	HasFieldErrors     bool
	HasExample         bool
	ResultCount        *int
	HasPartialResults  bool
	HasAttempted       bool
}

// FieldText is one string member of the metadata: its name as sent and
// its text.
type FieldText struct {
	Field, Text string
}

// Classification is what an envelope says about a call (LESSON-RULES §1-§4):
// the layer, the category and isRetryable of an execution error, and
// whether a success is a valid empty result.
type Classification struct {
	Layer         Layer
	ProtocolCode  int      // the JSON-RPC error code, for the protocol layer
	ErrorCategory Category // execution layer only; "" when the result does not say
	IsRetryable   *bool    // as the result says; nil when it does not
	Empty         bool     // success whose query ran and matched nothing
	Meta          Metadata
}

// MarshalJSON writes {layer, errorCategory, isRetryable, empty} with null
// for an unknown category or isRetryable, the shape scripts read from
// `errorlab scenarios show --json`.
func (c Classification) MarshalJSON() ([]byte, error) {
	out := struct {
		Layer         Layer   `json:"layer"`
		ProtocolCode  *int    `json:"protocolCode,omitempty"`
		ErrorCategory *string `json:"errorCategory"`
		IsRetryable   *bool   `json:"isRetryable"`
		Empty         bool    `json:"empty"`
	}{Layer: c.Layer, IsRetryable: c.IsRetryable, Empty: c.Empty}
	if c.ErrorCategory != "" {
		s := string(c.ErrorCategory)
		out.ErrorCategory = &s
	}
	if c.Layer == LayerProtocol {
		code := c.ProtocolCode
		out.ProtocolCode = &code
	}
	return json.Marshal(out)
}

// Classify reads one JSON-RPC response and says what it is. The error is
// ParseEnvelope's, for input that is not a JSON-RPC response.
func Classify(response []byte) (Classification, error) {
	env, err := ParseEnvelope(response)
	if err != nil {
		return Classification{}, err
	}
	return ClassifyEnvelope(env), nil
}

// ClassifyEnvelope classifies an already parsed envelope.
func ClassifyEnvelope(env Envelope) Classification {
	if env.Error != nil {
		return Classification{Layer: LayerProtocol, ProtocolCode: env.Error.Code}
	}
	res := env.Result
	meta := ReadMetadata(res)
	c := Classification{Meta: meta}
	if res.IsError {
		c.Layer = LayerExecution
		c.ErrorCategory = meta.Category
		c.IsRetryable = meta.IsRetryable
		return c
	}
	c.Layer = LayerSuccess
	c.Empty = isEmptySuccess(res, meta)
	return c
}

// ReadMetadata finds the error metadata of a result: structuredContent
// first, then the first text block holding a JSON object.
func ReadMetadata(res *ToolResult) Metadata {
	if res == nil {
		return Metadata{}
	}
	if obj, ok := asObject(res.StructuredContent); ok {
		m := metadataFrom(obj)
		m.Source, m.Path = "structuredContent", withEnvelope("structuredContent", m.Envelope)
		return m
	}
	for i, b := range res.Content {
		if b.Type != "text" {
			continue
		}
		if obj, ok := asObject([]byte(b.Text)); ok {
			m := metadataFrom(obj)
			m.Source, m.Path = "text", withEnvelope(fmt.Sprintf("content[%d].text", i), m.Envelope)
			return m
		}
	}
	return Metadata{}
}

func asObject(raw []byte) (map[string]json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	return m, true
}

// metadataFrom reads the fields of LESSON-RULES §3 from one object,
// unwrapping an {ok, data, error} envelope.
func metadataFrom(obj map[string]json.RawMessage) Metadata { return metadataAt(obj, 0) }

// metadataAt reads one object; depth bounds envelope unwrapping to one
// level, so hostile nesting costs linear time.
func metadataAt(obj map[string]json.RawMessage, depth int) Metadata {
	var m Metadata
	norm := lowerKeys(obj)
	var okFlag *bool
	if v, found := norm["ok"]; found {
		var b bool
		if json.Unmarshal(v, &b) == nil {
			okFlag = &b
		}
	}
	if inner, ok := asObject(norm["error"]); ok && depth == 0 {
		_, hasCategory := norm["errorcategory"]
		_, hasCategory2 := norm["category"]
		if !hasCategory && !hasCategory2 {
			m = metadataAt(inner, depth+1)
			m.Envelope, m.OK = true, okFlag
			m.ErrorMember = m.ErrorMember || len(inner) > 0
			m.ErrorOnly = m.ErrorMember && errorOnly(obj)
			m.FailedBy = failedBy(obj)
			return m
		}
	}
	names := originalNames(obj)

	for _, k := range []string{"errorcategory", "category", "errortype"} {
		if v, ok := norm[k]; ok {
			var s string
			if json.Unmarshal(v, &s) == nil {
				m.CategoryRaw, m.CategoryField = s, names[k]
				if c, canonical, ok := ParseCategory(s); ok {
					m.Category, m.CategoryCanonical = c, canonical
				}
			}
			break
		}
	}
	for _, k := range []string{"isretryable", "retryable", "retriable", "automaticretryallowed"} {
		if v, ok := norm[k]; ok && !isNull(v) {
			var b bool
			if json.Unmarshal(v, &b) == nil {
				m.IsRetryable, m.RetryableField = &b, names[k]
			}
			break
		}
	}
	if v, ok := norm["recoverable"]; ok && !isNull(v) {
		var b bool
		if json.Unmarshal(v, &b) == nil {
			m.Recoverable = &b
		}
	}
	for _, k := range []string{"description", "message", "detail", "error"} {
		if v, ok := norm[k]; ok {
			var s string
			if json.Unmarshal(v, &s) == nil && s != "" {
				m.Description, m.DescriptionField = s, names[k]
				break
			}
		}
	}
	m.SuggestedAction, m.SuggestedActionField = str(norm["suggestedaction"]), names["suggestedaction"]
	for _, k := range []string{"description", "message", "detail", "error", "suggestedaction", "customermessage"} {
		if s := str(norm[k]); s != "" {
			m.Messages = append(m.Messages, FieldText{Field: names[k], Text: s})
		}
	}
	if v, ok := norm["error"]; ok {
		switch strings.TrimSpace(string(v)) {
		case "null", "false", `""`, "{}", "[]":
		default:
			m.ErrorMember = true
		}
	}
	m.Code = str(norm["code"])
	if m.Code == "" {
		m.Code = str(norm["errorcode"])
	}
	m.CustomerMessage = str(norm["customermessage"])
	m.CorrelationID = str(norm["correlationid"])
	if v, ok := norm["retryafterseconds"]; ok && !isNull(v) {
		var f float64
		if json.Unmarshal(v, &f) == nil {
			m.RetryAfterSeconds = &f
		}
	}
	if v, ok := norm["requiresuseraction"]; ok {
		_ = json.Unmarshal(v, &m.RequiresUserAction)
	}
	_, m.HasFieldErrors = norm["fielderrors"]
	_, m.HasExample = norm["examplearguments"]
	_, m.HasPartialResults = norm["partialresults"]
	_, m.HasAttempted = norm["attempted"]
	if v, ok := norm["resultcount"]; ok && !isNull(v) {
		var n int
		if json.Unmarshal(v, &n) == nil {
			m.ResultCount = &n
		}
	}
	m.OK = okFlag
	m.ErrorOnly = m.ErrorMember && errorOnly(obj)
	m.FailedBy = failedBy(obj)
	return m
}

// errorOnly reports an object whose every member is in errorOnlyKeys, a
// data member (if any) being null or empty.
func errorOnly(obj map[string]json.RawMessage) bool {
	for k, v := range obj {
		n := normKey(k)
		if !errorOnlyKeys[n] {
			return false
		}
		if n == "data" {
			switch strings.TrimSpace(string(v)) {
			case "null", "{}", "[]", `""`:
			default:
				return false
			}
		}
	}
	return true
}

// failedStatus are the values of a status member that say a call failed.
var failedStatus = map[string]bool{"error": true, "failed": true, "failure": true, "fail": true, "errored": true, "ko": true}

// failedBy names the member of obj that says the call failed: success
// false, or a status of "error", "failed", "failure" (any case).
func failedBy(obj map[string]json.RawMessage) string {
	for k, v := range obj {
		if normKey(k) == "success" && strings.TrimSpace(string(v)) == "false" {
			return k + ": false"
		}
	}
	for k, v := range obj {
		var s string
		if normKey(k) == "status" && json.Unmarshal(v, &s) == nil && failedStatus[strings.ToLower(strings.TrimSpace(s))] {
			return fmt.Sprintf("%s: %q", k, s)
		}
	}
	return ""
}

// withEnvelope adds ".error" to a path whose metadata sat in an envelope.
func withEnvelope(path string, envelope bool) string {
	if envelope {
		return path + ".error"
	}
	return path
}

func originalNames(obj map[string]json.RawMessage) map[string]string {
	out := make(map[string]string, min(len(obj), len(metadataKeys)))
	for k := range obj {
		if n := normKey(k); metadataKeys[n] {
			out[n] = k
		}
	}
	return out
}

func str(raw json.RawMessage) string {
	var s string
	if raw != nil && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// isEmptySuccess reports a valid empty result (LESSON-RULES §4): a
// resultCount of 0, or a success that carries nothing at all ([] / {} / "").
func isEmptySuccess(res *ToolResult, meta Metadata) bool {
	if meta.ResultCount != nil {
		return *meta.ResultCount == 0
	}
	if obj, ok := asObject(res.StructuredContent); ok && len(obj) > 0 {
		return false
	}
	for _, t := range res.Texts() {
		switch strings.TrimSpace(t) {
		case "", "[]", "{}", "null":
		default:
			return false
		}
	}
	return true
}

var errorTextPattern = Lazy(`(?i)^\s*(error\b|err:|exception\b|traceback|fatal\b|failed\b|failure\b|panic:|access denied|permission denied|unauthori[sz]ed|forbidden|timed? ?out|timeout\b)`)

// LooksLikeError reports text that reads as a failure ("ERROR: Permission
// denied", "Traceback ..."). A success result whose text does is the
// error-as-success anti-pattern of LESSON-RULES §3.
func LooksLikeError(text string) bool { return errorTextPattern.MatchString(text) }

// maxFailureLine is the longest one-line text ReadsAsFailedCall and
// ShortFailure judge: a whole result that is one short sentence.
const maxFailureLine = 200

var failedCallPattern = Lazy(`(?i)^\s*(the |an? )?(\w+ )?(request|call|operation|query|lookup|connection|upstream|server|api|network|internal|unexpected|unknown|http|database|service) (failed|error|errored)\b`)

// ReadsAsFailedCall reports a one-line text of at most 200 bytes that
// says a request failed: "Request failed with status code 500",
// "Internal server error", "Upstream call failed". Such a text as the
// whole of a success result is the error-as-success anti-pattern of
// LESSON-RULES §3, as LooksLikeError's are.
func ReadsAsFailedCall(text string) bool {
	text = strings.TrimSpace(text)
	return len(text) <= maxFailureLine && !strings.ContainsRune(text, '\n') && failedCallPattern.MatchString(text)
}

// ShortFailure returns the failure words (SaysFailed) of a one-line text
// of at most 200 bytes: "Could not connect to the database" as the whole
// of a success result is an access failure passed off as an answer
// (LESSON-RULES §4). "" for a longer text or one that says no failure.
func ShortFailure(text string) string {
	text = strings.TrimSpace(text)
	if len(text) > maxFailureLine || strings.ContainsRune(text, '\n') {
		return ""
	}
	return SaysFailed(text)
}

// failureTextPattern matches words that say a call failed or its source
// could not be reached: "could not reach the order database", "the query
// did not run", "timed out", "unavailable", "connection refused".
var failureTextPattern = Lazy(`(?i)(\b(could ?not|couldn'?t|can ?not|can'?t|unable to|failed to|did ?not|didn'?t|was ?not|wasn'?t|were ?not|weren'?t)\s+(be\s+)?(reach(ed)?|connect(ed)?|contact(ed)?|access(ed)?|quer(y|ied)|load(ed)?|read|open(ed)?|run|ran|complete(d)?|finish(ed)?|fetch(ed)?|retriev(e|ed)|search(ed)?|execute(d)?|respond(ed)?|answer(ed)?)\b|\btim(ed|ing)[ -]?out\b|\btimeout\b|\b(unavailable|unreachable|unresponsive|outage)\b|\bconnection (was )?(refused|reset|lost|failed|closed|dropped)\b|\b(is|was|went|are|were) (down|offline)\b)`)

// SaysFailed reports text that says the call failed or its source could
// not be reached ("Could not reach the order database", "database
// timeout", "the query did not run"). In a success that returns nothing,
// such words mark an access failure passed off as an empty result
// (LESSON-RULES §4), which is worse than an error: the agent gives a
// confident wrong answer. It returns the words found ("" for none).
func SaysFailed(text string) string {
	return failureTextPattern.FindString(text)
}
