package rules_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/errorlab/errorlab/sim/rules"
)

// toolResult writes a JSON-RPC response holding a CallToolResult whose
// structuredContent is structured (omitted when "") and mirrored as the
// only text block, the shape LESSON-RULES §3 recommends.
func toolResult(isError bool, structured string) []byte {
	return toolResultText(isError, structured, structured)
}

// toolResultText is toolResult with the text block given separately ("" for
// none).
func toolResultText(isError bool, structured, text string) []byte {
	res := map[string]any{"content": []any{}}
	if text != "" {
		res["content"] = []any{map[string]any{"type": "text", "text": text}}
	}
	if structured != "" {
		res["structuredContent"] = json.RawMessage(structured)
	}
	if isError {
		res["isError"] = true
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 3, "result": res})
	if err != nil {
		panic(err)
	}
	return b
}

func classify(t *testing.T, response []byte) rules.Classification {
	t.Helper()
	c, err := rules.Classify(response)
	if err != nil {
		t.Fatalf("Classify(%s): %v", response, err)
	}
	return c
}

func ptr[T any](v T) *T { return &v }

func boolText(b *bool) string {
	if b == nil {
		return "absent"
	}
	return fmt.Sprint(*b)
}

// TestValidEmptyVersusAccessFailure is LESSON-RULES §4.
func TestValidEmptyVersusAccessFailure(t *testing.T) {
	t.Run("resultCount 0 is a valid empty success", func(t *testing.T) {
		c := classify(t, toolResult(false, `{"resultCount":0,"orders":[],"summary":"0 orders match ORD-9999; the query ran and no order has that id."}`))
		if c.Layer != rules.LayerSuccess || !c.Empty {
			t.Fatalf("got layer %s empty %v, want success and empty", c.Layer, c.Empty)
		}
		if c.Meta.ResultCount == nil || *c.Meta.ResultCount != 0 {
			t.Errorf("resultCount not read: %v", c.Meta.ResultCount)
		}
		rec, ok := rules.Recommend(rules.SituationOf(c))
		if !ok || rec.Best != rules.AcceptEmpty || rec.Rule.ID != rules.RuleValidEmpty || rec.Rule.Section != "§4" {
			t.Errorf("Recommend = %+v, %v; want accept_empty under §4 %s", rec, ok, rules.RuleValidEmpty)
		}
		if v := rules.Score(rules.SituationOf(c), rules.RetrySame); v.Grade != rules.GradeWrong || v.Rule.ID != rules.RuleValidEmpty {
			t.Errorf("retrying a valid empty result: %s %s, want wrong under %s", v.Grade, v.Rule.ID, rules.RuleValidEmpty)
		}
	})
	t.Run("an access failure is a transient execution error, never empty", func(t *testing.T) {
		c := classify(t, toolResult(true, `{"errorCategory":"transient","isRetryable":true,"description":"Could not connect to the order database, so the query did not run: there is no answer yet, empty or otherwise.","code":"SOURCE_UNREACHABLE","correlationId":"corr-5e1f0a77"}`))
		if c.Layer != rules.LayerExecution || c.Empty {
			t.Fatalf("got layer %s empty %v, want execution and not empty", c.Layer, c.Empty)
		}
		if c.ErrorCategory != rules.Transient || c.IsRetryable == nil || !*c.IsRetryable {
			t.Errorf("got %s isRetryable %s, want transient true", c.ErrorCategory, boolText(c.IsRetryable))
		}
		s := rules.SituationOf(c)
		if rec, _ := rules.Recommend(s); rec.Best != rules.RetrySame {
			t.Errorf("best action %s, want retry_same", rec.Best)
		}
		v := rules.Score(s, rules.AcceptEmpty)
		if v.Grade != rules.GradeWrong {
			t.Errorf("accept_empty on an access failure graded %s", v.Grade)
		}
		if v.Rule.ID != rules.RuleAccessFailure || v.Rule.Section != "§4" {
			t.Errorf("accept_empty on an access failure names %s (%s), want %s §4", v.Rule.ID, v.Rule.Section, rules.RuleAccessFailure)
		}
	})
	t.Run(`a success whose only text is [] is empty`, func(t *testing.T) {
		c := classify(t, toolResultText(false, "", "[]"))
		if c.Layer != rules.LayerSuccess || !c.Empty {
			t.Errorf("got layer %s empty %v, want success and empty", c.Layer, c.Empty)
		}
	})
	t.Run("a success with no content at all is empty", func(t *testing.T) {
		c := classify(t, []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`))
		if c.Layer != rules.LayerSuccess || !c.Empty {
			t.Errorf("got layer %s empty %v, want success and empty", c.Layer, c.Empty)
		}
	})
	t.Run("resultCount 1 is not empty", func(t *testing.T) {
		c := classify(t, toolResult(false, `{"resultCount":1,"orders":[{"orderId":"ORD-4471"}]}`))
		if c.Layer != rules.LayerSuccess || c.Empty {
			t.Errorf("got layer %s empty %v, want success, not empty", c.Layer, c.Empty)
		}
	})
	t.Run("a success carrying data in text only is not empty", func(t *testing.T) {
		c := classify(t, toolResultText(false, "", "Order ORD-4471: delivered 2026-09-18."))
		if c.Empty {
			t.Error("a success with data was read as empty")
		}
	})
	t.Run("an isError result with resultCount 0 is an error, not an empty result", func(t *testing.T) {
		c := classify(t, toolResult(true, `{"errorCategory":"transient","isRetryable":true,"description":"The index is rebuilding.","resultCount":0}`))
		if c.Layer != rules.LayerExecution || c.Empty {
			t.Errorf("got layer %s empty %v, want execution, not empty", c.Layer, c.Empty)
		}
	})
}

// decisionRows is LESSON-RULES §9, row by row, as hand-written JSON-RPC
// responses that follow the table.
var decisionRows = []struct {
	situation string
	response  []byte
	layer     rules.Layer
	code      int
	category  rules.Category
	retryable *bool
	best      rules.Action // "" for a success that needs no recovery
	check     func(t *testing.T, c rules.Classification)
}{
	{
		situation: "unknown tool name",
		response:  []byte(`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Unknown tool: refund_order"}}`),
		layer:     rules.LayerProtocol, code: -32602, best: rules.FixClient,
	},
	{
		situation: "request not a valid tools/call",
		response:  []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`),
		layer:     rules.LayerProtocol, code: -32600, best: rules.FixClient,
	},
	{
		situation: "required business field missing",
		response: toolResult(true, `{"errorCategory":"validation","isRetryable":false,"description":"delivery_date is required for a redelivery. Ask the customer which day suits them and send a new call.",`+
			`"code":"MISSING_FIELD","fieldErrors":[{"field":"delivery_date","expected":"a value (required)"}],"exampleArguments":{"order_id":"ORD-4520","delivery_date":"2026-11-09"}}`),
		layer: rules.LayerExecution, category: rules.Validation, retryable: ptr(false), best: rules.FixInput,
		check: func(t *testing.T, c rules.Classification) {
			if !c.Meta.HasFieldErrors || !c.Meta.HasExample {
				t.Errorf("fieldErrors %v exampleArguments %v, want both read", c.Meta.HasFieldErrors, c.Meta.HasExample)
			}
			if !strings.Contains(c.Meta.Description, "delivery_date") {
				t.Errorf("description %q does not name the field", c.Meta.Description)
			}
		},
	},
	{
		situation: "date in the wrong format",
		response: toolResult(true, `{"errorCategory":"validation","isRetryable":false,"description":"delivery_date must be a date as YYYY-MM-DD, e.g. 2026-11-09. Received 09/11/2026. Send a new call with the corrected date.",`+
			`"code":"INVALID_DATE","fieldErrors":[{"field":"delivery_date","expected":"YYYY-MM-DD","received":"09/11/2026"}],"exampleArguments":{"order_id":"ORD-4520","delivery_date":"2026-11-09"}}`),
		layer: rules.LayerExecution, category: rules.Validation, retryable: ptr(false), best: rules.FixInput,
		check: func(t *testing.T, c rules.Classification) {
			if !c.Meta.HasFieldErrors || !c.Meta.HasExample || c.Meta.Code != "INVALID_DATE" {
				t.Errorf("meta %+v: want fieldErrors, exampleArguments and code INVALID_DATE", c.Meta)
			}
		},
	},
	{
		situation: "caller lacks permission",
		response:  toolResult(true, `{"errorCategory":"permission","isRetryable":false,"description":"The support-agent role may not read staff records. Escalate to a team lead who holds the access.","code":"FORBIDDEN"}`),
		layer:     rules.LayerExecution, category: rules.Permission, retryable: ptr(false), best: rules.EscalateHuman,
	},
	{
		situation: "destructive action not confirmed by the user",
		response: toolResult(true, `{"errorCategory":"business","isRetryable":false,"description":"Refunds need the customer's explicit yes. Ask them, then call again with confirmedByUser: true.",`+
			`"code":"CONFIRMATION_REQUIRED","requiresUserAction":true,"customerMessage":"Before I refund £24.99, can you confirm you'd like me to go ahead?"}`),
		layer: rules.LayerExecution, category: rules.Business, retryable: ptr(false), best: rules.AskConfirmation,
		check: func(t *testing.T, c rules.Classification) {
			if !c.Meta.RequiresUserAction {
				t.Error("requiresUserAction not read")
			}
			if c.Meta.CustomerMessage == "" {
				t.Error("customerMessage not read")
			}
		},
	},
	{
		situation: "upstream rate limit",
		response:  toolResult(true, `{"errorCategory":"transient","isRetryable":true,"description":"The ticket index is limiting request rates. Wait 30 seconds, then send the same call.","code":"RATE_LIMITED","retryAfterSeconds":30}`),
		layer:     rules.LayerExecution, category: rules.Transient, retryable: ptr(true), best: rules.RetrySame,
		check: func(t *testing.T, c rules.Classification) {
			if c.Meta.RetryAfterSeconds == nil || *c.Meta.RetryAfterSeconds != 30 {
				t.Fatalf("retryAfterSeconds = %v, want 30", c.Meta.RetryAfterSeconds)
			}
			if w := rules.BackoffSeconds(1, *c.Meta.RetryAfterSeconds); w != 30 {
				t.Errorf("first resend waits %v s, want the server's 30", w)
			}
		},
	},
	{
		situation: "upstream timeout",
		response:  toolResult(true, `{"errorCategory":"transient","isRetryable":true,"description":"The order database did not answer within 3 seconds. The request is valid: send the same call again after a short wait.","code":"UPSTREAM_TIMEOUT","correlationId":"corr-2f9c11d0"}`),
		layer:     rules.LayerExecution, category: rules.Transient, retryable: ptr(true), best: rules.RetrySame,
		check: func(t *testing.T, c rules.Classification) {
			if c.Meta.CorrelationID != "corr-2f9c11d0" {
				t.Errorf("correlationId = %q", c.Meta.CorrelationID)
			}
		},
	},
	{
		situation: "some sources answered: success with warnings and partial results",
		response:  toolResult(false, `{"resultCount":2,"tickets":[{"ticketId":"SUP-1042"},{"ticketId":"SUP-1047"}],"partialResults":true,"attempted":["eu-tickets","us-tickets","apac-tickets"],"warnings":["apac-tickets did not answer; its tickets are missing"]}`),
		layer:     rules.LayerSuccess,
		check: func(t *testing.T, c rules.Classification) {
			if c.Empty {
				t.Error("partial results read as an empty result")
			}
			if !c.Meta.HasPartialResults || !c.Meta.HasAttempted {
				t.Errorf("partialResults %v attempted %v, want both read", c.Meta.HasPartialResults, c.Meta.HasAttempted)
			}
		},
	},
	{
		situation: "some sources answered: isError when the task cannot be done",
		response:  toolResult(true, `{"errorCategory":"transient","isRetryable":true,"description":"2 of 3 ticket stores answered; apac-tickets timed out, so the full history is not available.","partialResults":[{"ticketId":"SUP-1042"}],"attempted":["eu-tickets","us-tickets","apac-tickets"]}`),
		layer:     rules.LayerExecution, category: rules.Transient, retryable: ptr(true), best: rules.RetrySame,
		check: func(t *testing.T, c rules.Classification) {
			if !c.Meta.HasPartialResults || !c.Meta.HasAttempted {
				t.Errorf("partialResults %v attempted %v, want both read", c.Meta.HasPartialResults, c.Meta.HasAttempted)
			}
		},
	},
	{
		situation: "unexpected exception, sanitized",
		response:  toolResult(true, `{"errorCategory":"transient","isRetryable":true,"description":"An unexpected fault stopped lookup_order before it finished; nothing was changed. Try once more; if it fails again, report correlationId corr-7b3e0c55 to the platform team.","code":"INTERNAL_ERROR","correlationId":"corr-7b3e0c55"}`),
		layer:     rules.LayerExecution, category: rules.Transient, retryable: ptr(true), best: rules.RetrySame,
		check: func(t *testing.T, c rules.Classification) {
			if c.Meta.CorrelationID != "corr-7b3e0c55" {
				t.Errorf("correlationId = %q", c.Meta.CorrelationID)
			}
		},
	},
	{
		situation: "success with structuredContent conforming to the outputSchema",
		response:  toolResult(false, `{"resultCount":1,"orders":[{"orderId":"ORD-4471","customerId":"C-1001","item":"Noise-cancelling headphones","total":189,"currency":"GBP","status":"delivered"}],"summary":"1 order matches ORD-4471."}`),
		layer:     rules.LayerSuccess,
		check: func(t *testing.T, c rules.Classification) {
			if c.Empty {
				t.Error("a one-order success read as empty")
			}
		},
	},
}

const orderOutputSchema = `{"type":"object","required":["resultCount","orders"],"properties":{"resultCount":{"type":"integer","minimum":0},` +
	`"orders":{"type":"array","items":{"type":"object","required":["orderId","customerId","item","total","currency","status"]}},"summary":{"type":"string"}}}`

func TestDecisionTableSection9(t *testing.T) {
	for _, row := range decisionRows {
		t.Run(row.situation, func(t *testing.T) {
			c := classify(t, row.response)
			if c.Layer != row.layer {
				t.Fatalf("layer %s, want %s", c.Layer, row.layer)
			}
			if row.layer == rules.LayerProtocol && c.ProtocolCode != row.code {
				t.Errorf("code %d, want %d", c.ProtocolCode, row.code)
			}
			if c.ErrorCategory != row.category {
				t.Errorf("errorCategory %q, want %q", c.ErrorCategory, row.category)
			}
			if boolText(c.IsRetryable) != boolText(row.retryable) {
				t.Errorf("isRetryable %s, want %s", boolText(c.IsRetryable), boolText(row.retryable))
			}
			if row.layer == rules.LayerExecution {
				if c.Meta.Source != "structuredContent" || c.Meta.CategoryField != "errorCategory" ||
					c.Meta.RetryableField != "isRetryable" || c.Meta.DescriptionField != "description" || c.Meta.Description == "" {
					t.Errorf("canonical metadata not read as such: %+v", c.Meta)
				}
				if c.IsRetryable != nil && *c.IsRetryable != c.ErrorCategory.Retryable() {
					t.Errorf("the hand-written row contradicts §2: %s with isRetryable %v", c.ErrorCategory, *c.IsRetryable)
				}
			}
			rec, ok := rules.Recommend(rules.SituationOf(c))
			if row.best == "" {
				if ok {
					t.Errorf("a success needs no recovery, Recommend gave %s", rec.Best)
				}
			} else if !ok || rec.Best != row.best {
				t.Errorf("best action %s (ok %v), want %s", rec.Best, ok, row.best)
			}
			env, err := rules.ParseEnvelope(row.response)
			if err != nil {
				t.Fatal(err)
			}
			if env.Result != nil {
				for _, text := range env.Result.Texts() {
					if leaks := rules.Leaks(text); len(leaks) > 0 {
						t.Errorf("a response that follows the table is flagged as leaking %q", leaks)
					}
				}
			}
			if row.check != nil {
				row.check(t, c)
			}
		})
	}
	t.Run("outputSchema conformance is checkable", func(t *testing.T) {
		sch := compile(t, orderOutputSchema)
		for _, row := range decisionRows {
			if !strings.HasPrefix(row.situation, "success with structuredContent") {
				continue
			}
			env, _ := rules.ParseEnvelope(row.response)
			if err := validateJSON(sch, env.Result.StructuredContent); err != nil {
				t.Errorf("the conforming success does not conform: %v", err)
			}
			if err := validateJSON(sch, []byte(`{"resultCount":"one","orders":{}}`)); err == nil {
				t.Error("a non-conforming structuredContent passed the schema")
			}
		}
	})
}

func compile(t *testing.T, schema string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///schema.json", doc); err != nil {
		t.Fatal(err)
	}
	return c.MustCompile("mem:///schema.json")
}

func validateJSON(sch *jsonschema.Schema, raw []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// TestMetadataSynonyms is LESSON-RULES §3: the names seen in the wild that
// a grader must recognise, and `recoverable`, which it must not mistake for
// isRetryable.
func TestMetadataSynonyms(t *testing.T) {
	cases := []struct {
		name       string
		structured string
		category   rules.Category
		catField   string
		retryable  *bool
		retryField string
		descField  string
		envelope   bool
		check      func(t *testing.T, m rules.Metadata)
	}{
		{name: "category for errorCategory", structured: `{"category":"validation","isRetryable":false,"description":"order_id must be ORD-NNNN."}`,
			category: rules.Validation, catField: "category", retryable: ptr(false), retryField: "isRetryable", descField: "description"},
		{name: "a synonym category value", structured: `{"errorCategory":"rate_limited","isRetryable":true,"description":"Slow down."}`,
			category: rules.Transient, catField: "errorCategory", retryable: ptr(true), retryField: "isRetryable", descField: "description",
			check: func(t *testing.T, m rules.Metadata) {
				if m.CategoryRaw != "rate_limited" {
					t.Errorf("CategoryRaw = %q, want the value as sent", m.CategoryRaw)
				}
			}},
		{name: "retriable", structured: `{"errorCategory":"transient","retriable":true,"description":"Busy."}`,
			category: rules.Transient, catField: "errorCategory", retryable: ptr(true), retryField: "retriable", descField: "description"},
		{name: "retryable", structured: `{"errorCategory":"business","retryable":false,"description":"Past the window."}`,
			category: rules.Business, catField: "errorCategory", retryable: ptr(false), retryField: "retryable", descField: "description"},
		{name: "automatic_retry_allowed", structured: `{"errorCategory":"permission","automatic_retry_allowed":false,"description":"No access."}`,
			category: rules.Permission, catField: "errorCategory", retryable: ptr(false), retryField: "automatic_retry_allowed", descField: "description"},
		{name: "snake_case canonical names", structured: `{"error_category":"transient","is_retryable":true,"description":"Busy."}`,
			category: rules.Transient, catField: "error_category", retryable: ptr(true), retryField: "is_retryable", descField: "description"},
		{name: "message for description", structured: `{"errorCategory":"transient","isRetryable":true,"message":"The order database timed out."}`,
			category: rules.Transient, catField: "errorCategory", retryable: ptr(true), retryField: "isRetryable", descField: "message",
			check: func(t *testing.T, m rules.Metadata) {
				if m.Description != "The order database timed out." {
					t.Errorf("Description = %q", m.Description)
				}
			}},
		{name: "suggested_action", structured: `{"errorCategory":"transient","isRetryable":true,"description":"Busy.","suggested_action":"wait 5 s and resend"}`,
			category: rules.Transient, catField: "errorCategory", retryable: ptr(true), retryField: "isRetryable", descField: "description",
			check: func(t *testing.T, m rules.Metadata) {
				if m.SuggestedAction != "wait 5 s and resend" {
					t.Errorf("SuggestedAction = %q", m.SuggestedAction)
				}
			}},
		{name: "{ok, data, error} envelope", structured: `{"ok":false,"data":null,"error":{"category":"permission","retryable":false,"message":"Staff records need the hr:staff-records:read scope.","code":"FORBIDDEN"}}`,
			category: rules.Permission, catField: "category", retryable: ptr(false), retryField: "retryable", descField: "message", envelope: true,
			check: func(t *testing.T, m rules.Metadata) {
				if m.Code != "FORBIDDEN" {
					t.Errorf("code inside the envelope not read: %q", m.Code)
				}
			}},
		{name: "recoverable true is not isRetryable", structured: `{"errorCategory":"validation","recoverable":true,"description":"Fix the id."}`,
			category: rules.Validation, catField: "errorCategory", retryable: nil, descField: "description",
			check: func(t *testing.T, m rules.Metadata) {
				if m.Recoverable == nil || !*m.Recoverable {
					t.Errorf("recoverable not kept apart: %v", m.Recoverable)
				}
			}},
		{name: "recoverable false is not isRetryable", structured: `{"errorCategory":"transient","recoverable":false,"description":"Busy."}`,
			category: rules.Transient, catField: "errorCategory", retryable: nil, descField: "description"},
		{name: "errorCategory wins over category", structured: `{"errorCategory":"business","category":"transient","isRetryable":false,"description":"Past the window."}`,
			category: rules.Business, catField: "errorCategory", retryable: ptr(false), retryField: "isRetryable", descField: "description"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := classify(t, toolResult(true, c.structured))
			m := cl.Meta
			if m.Category != c.category || m.CategoryField != c.catField {
				t.Errorf("category %q from field %q, want %q from %q", m.Category, m.CategoryField, c.category, c.catField)
			}
			if cl.ErrorCategory != c.category {
				t.Errorf("classification errorCategory %q, want %q", cl.ErrorCategory, c.category)
			}
			if boolText(m.IsRetryable) != boolText(c.retryable) || m.RetryableField != c.retryField {
				t.Errorf("isRetryable %s from field %q, want %s from %q", boolText(m.IsRetryable), m.RetryableField, boolText(c.retryable), c.retryField)
			}
			if boolText(cl.IsRetryable) != boolText(c.retryable) {
				t.Errorf("classification isRetryable %s, want %s", boolText(cl.IsRetryable), boolText(c.retryable))
			}
			if m.DescriptionField != c.descField || m.Description == "" {
				t.Errorf("description %q from field %q, want field %q", m.Description, m.DescriptionField, c.descField)
			}
			if m.Envelope != c.envelope {
				t.Errorf("Envelope = %v, want %v", m.Envelope, c.envelope)
			}
			if c.check != nil {
				c.check(t, m)
			}
		})
	}
}

// TestMetadataPlacement: structuredContent first, then a JSON object in a
// text block (for tools that only mirror), nothing from prose.
func TestMetadataPlacement(t *testing.T) {
	t.Run("text-only metadata is read from the text block", func(t *testing.T) {
		c := classify(t, toolResultText(true, "", `{"errorCategory":"business","isRetryable":false,"description":"Past the 30-day window."}`))
		if c.Meta.Source != "text" || c.ErrorCategory != rules.Business {
			t.Errorf("source %q category %q, want text and business", c.Meta.Source, c.ErrorCategory)
		}
	})
	t.Run("structuredContent wins over the text block", func(t *testing.T) {
		c := classify(t, toolResultText(true, `{"errorCategory":"validation","isRetryable":false,"description":"Bad id."}`,
			`{"errorCategory":"transient","isRetryable":true,"description":"Busy."}`))
		if c.Meta.Source != "structuredContent" || c.ErrorCategory != rules.Validation {
			t.Errorf("source %q category %q, want structuredContent and validation", c.Meta.Source, c.ErrorCategory)
		}
	})
	t.Run("prose carries no metadata", func(t *testing.T) {
		c := classify(t, toolResultText(true, "", "Operation failed"))
		if c.Meta.Source != "" || c.ErrorCategory != "" || c.IsRetryable != nil {
			t.Errorf("metadata invented from prose: %+v", c.Meta)
		}
	})
}

// TestNullIsAbsent: a JSON null is "not said", not false or zero. Reading
// "isRetryable": null as false tells the grader the tool said "do not
// retry"; reading "resultCount": null as 0 turns an unknown count into a
// confident "no match" (LESSON-RULES §4).
func TestNullIsAbsent(t *testing.T) {
	t.Run("isRetryable null", func(t *testing.T) {
		c := classify(t, toolResult(true, `{"errorCategory":"transient","isRetryable":null,"description":"Busy."}`))
		if c.IsRetryable != nil {
			t.Errorf("isRetryable null read as %v", *c.IsRetryable)
		}
	})
	t.Run("resultCount null", func(t *testing.T) {
		c := classify(t, toolResult(false, `{"resultCount":null,"orders":[{"orderId":"ORD-4471"}]}`))
		if c.Empty {
			t.Error("a success with resultCount null and one order was read as a valid empty result")
		}
	})
}

func TestClassificationJSON(t *testing.T) {
	cases := []struct {
		name     string
		response []byte
		want     string
	}{
		{"protocol", []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: x"}}`),
			`{"layer":"protocol","protocolCode":-32602,"errorCategory":null,"isRetryable":null,"empty":false}`},
		{"execution", toolResult(true, `{"errorCategory":"transient","isRetryable":true,"description":"Busy."}`),
			`{"layer":"execution","errorCategory":"transient","isRetryable":true,"empty":false}`},
		{"execution without metadata", toolResultText(true, "", "Operation failed"),
			`{"layer":"execution","errorCategory":null,"isRetryable":null,"empty":false}`},
		{"empty", toolResult(false, `{"resultCount":0}`),
			`{"layer":"success","errorCategory":null,"isRetryable":null,"empty":true}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(classify(t, c.response))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != c.want {
				t.Errorf("got  %s\nwant %s", b, c.want)
			}
		})
	}
}

// TestParseEnvelopeHostileInput: `errorlab check` reads anyone's bytes.
// Each bad input fails with a message that says what is wrong.
func TestParseEnvelopeHostileInput(t *testing.T) {
	big := func(n int) []byte {
		prefix := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`
		suffix := `"}]}}`
		return []byte(prefix + strings.Repeat("a", n-len(prefix)-len(suffix)) + suffix)
	}
	cases := []struct {
		name  string
		input []byte
		says  []string
	}{
		{"not JSON", []byte("HTTP/1.1 502 Bad Gateway"), []string{"not a JSON object"}},
		{"a JSON array (a batch)", []byte(`[{"jsonrpc":"2.0","id":1,"result":{"content":[]}}]`), []string{"not a JSON object", "array"}},
		{"a JSON string", []byte(`"Operation failed"`), []string{"not a JSON object"}},
		{"5 MB", big(5 << 20), []string{fmt.Sprint(5 << 20), "limit", fmt.Sprint(rules.MaxEnvelopeBytes)}},
		{"nested deeper than any parser allows", []byte(`{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`), []string{"depth"}},
		{"missing result and error", []byte(`{"jsonrpc":"2.0","id":1}`), []string{"neither a result nor an error"}},
		{"result and error both null", []byte(`{"jsonrpc":"2.0","id":1,"result":null,"error":null}`), []string{"neither a result nor an error"}},
		{"empty input", []byte("  \n"), []string{"empty"}},
		{"result not an object", []byte(`{"jsonrpc":"2.0","id":1,"result":"ok"}`), []string{"result member is not an object"}},
		{"content not an array", []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":"ok"}}`), []string{"result.content is not an array"}},
		{"a content block that is not an object", []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":["ok"]}}`), []string{"block that is not an object"}},
		{"isError not a boolean", []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":"yes"}}`), []string{"isError is not a boolean"}},
		{"error member not an object", []byte(`{"jsonrpc":"2.0","id":1,"error":"boom"}`), []string{"error member is not {code, message"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := rules.ParseEnvelope(c.input)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", trunc(err.Error()), s)
				}
			}
			if _, err := rules.Classify(c.input); err == nil {
				t.Error("Classify accepted what ParseEnvelope rejects")
			}
		})
	}
	t.Run("exactly MaxEnvelopeBytes is accepted", func(t *testing.T) {
		if _, err := rules.ParseEnvelope(big(rules.MaxEnvelopeBytes)); err != nil {
			t.Errorf("a response of exactly the limit was refused: %v", trunc(err.Error()))
		}
		if _, err := rules.ParseEnvelope(big(rules.MaxEnvelopeBytes + 1)); err == nil {
			t.Error("a response one byte over the limit was accepted")
		}
	})
}

func trunc(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// TestClassifyNestedEnvelopesCostLinearMemory: an {ok, data, error}
// envelope is unwrapped once. A hostile response that nests envelopes
// inside envelopes must not make Classify re-parse the remaining document
// at every level: that is quadratic, and well under the 4 MB limit it
// takes seconds and hundreds of megabytes. The test measures bytes
// allocated, not time.
func TestClassifyNestedEnvelopesCostLinearMemory(t *testing.T) {
	nested := func(depth int) []byte {
		inner := strings.Repeat(`{"ok":false,"error":`, depth) + `{"errorCategory":"transient","isRetryable":true,"description":"x"}` + strings.Repeat("}", depth)
		return []byte(`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[],"structuredContent":` + inner + `}}`)
	}
	for _, depth := range []int{1, 2000} {
		input := nested(depth)
		allocated := bytesAllocated(func() {
			if _, err := rules.Classify(input); err != nil {
				t.Fatalf("depth %d: %v", depth, err)
			}
		})
		perByte := float64(allocated) / float64(len(input))
		t.Logf("depth %d: %d bytes in, %d bytes allocated (%.0f per input byte)", depth, len(input), allocated, perByte)
		if perByte > 200 {
			t.Errorf("depth %d: Classify allocated %d bytes for a %d-byte response (%.0f per byte): the envelope unwrapping is not linear", depth, allocated, len(input), perByte)
		}
	}
}

func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLeaksFindsInternals is LESSON-RULES §6: what must never reach the
// model.
func TestLeaksFindsInternals(t *testing.T) {
	cases := []struct{ name, text string }{
		{"Python traceback", "Traceback (most recent call last):\n  File \"/srv/support-tools/handlers.py\", line 88, in lookup_order\nKeyError: 'order'"},
		{"Python frame alone", `  File "/srv/support-tools/db.py", line 41, in execute`},
		{"Python source file and line", "AccountStateError: account state RETAINED not in ('ACTIVE','SUSPENDED') (policy_engine/rules.py:212)"},
		{"Java stack frame", "java.lang.NullPointerException\n\tat com.shop.orders.OrderService.find(OrderService.java:88)"},
		{"Node.js stack frame", "TypeError: Cannot read properties of undefined (reading 'total')\n    at lookupOrder (/srv/app/handlers.js:41:13)"},
		{"Go goroutine dump", "panic: runtime error: invalid memory address\n\ngoroutine 17 [running]:\nmain.handler()"},
		{"Go file and line", "lookup_order: nil order record at /srv/support-tools/handlers.go:132"},
		{"SQL select", `row = db.execute("SELECT * FROM orders WHERE order_id = %s")`},
		{"SQL insert", "INSERT INTO refunds (order_id, amount) VALUES ('ORD-4471', 189.00)"},
		{"SQL update", "UPDATE orders SET status = 'refunded' WHERE order_id = 'ORD-4471'"},
		{"lower-case SQL select", "psycopg.errors.QueryCanceled: select id, total from orders where order_id = 'ORD-4471'"},
		{"lower-case SQL update", "IntegrityError: update orders set status = 'refunded' where order_id = 'ORD-4471'"},
		{"lower-case SQL delete", "OperationalError: delete from refunds where refund_id = 'RF-7301'"},
		{"lower-case SQL insert", "IntegrityError: insert into refunds (order_id, amount) values ('ORD-4471', 189.00)"},
		{"API key in a URL", "HTTPError: 429 for url: https://api.example.com/v2/query?api_key=sk_live_51Hx9Q2"},
		{"password", "login failed: password=Winter2026!"},
		{"Authorization header", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.c3VwcG9ydA"},
		{"bare bearer token", "PermissionError: role=support-agent lacks scope (auth header: Bearer eyJhbGciOiJIUzI1NiJ9.c3VwcG9ydC1hZ2VudA)"},
		{"credentials in a connection string", `psycopg.connect("postgresql://svc_support:Winter2026!@db.example.com:5432/crm")`},
		{"private host", "could not reach orders-db-2.prod.internal:5432"},
		{"private IPv4 10/8", "connection to server at 10.4.7.33 port 5432 failed"},
		{"private IPv4 192.168/16", "upstream 192.168.1.20 refused"},
		{"private IPv4 172.16/12", "upstream 172.20.0.5 refused"},
		{"Node.js system error", "ENOENT: no such file or directory, open 'notes.txt'"},
		{"Go dial error", "lookup failed: dial tcp 127.0.0.1:5432: connect: connection refused"},
		{"Go file error", "open /var/lib/orders.db: permission denied"},
		{"Python errno", "OSError: [Errno 13] Permission denied"},
		{"JWT", "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc rejected"},
		{"AWS key", "S3 refused AKIAIOSFODNN7EXAMPLE"},
		{"private key", "-----BEGIN RSA PRIVATE KEY-----"},
		{"password in JSON", `{"user":"svc","password":"Winter2026!"}`},
		{"localhost port", "redis at localhost:6379 did not answer"},
		{"Windows path", `could not open C:\Users\dana\notes.txt`},
		{"Rust panic", "thread 'main' panicked at src/orders.rs:41:5"},
		{"Postgres error", `ERROR: relation "orders" does not exist`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := rules.Leaks(c.text); len(got) == 0 {
				t.Errorf("no leak found in %q", c.text)
			}
		})
	}
}

// TestLeaksNoneOnCleanDescriptions: masking everything is wrong too (§6).
// A specific, actionable description must not be flagged.
func TestLeaksNoneOnCleanDescriptions(t *testing.T) {
	cases := []struct{ name, text string }{
		{"validation", "order_id must be ORD- followed by four digits, e.g. ORD-4471. Received 'ORD-4471x'. Correct it and send a new call."},
		{"not found by contract", "No customer has the id C-9999. Check the id with the customer, or search by email with customer_lookup."},
		{"business", "A refund of £750.00 is above the £500.00 limit for automatic refunds and needs a manager's approval. Do not resend."},
		{"timeout with correlationId", "The order database did not answer within 3 seconds. Send the same call again. correlationId corr-2f9c11d0."},
		{"permission", "The support-agent role does not hold the hr:staff-records:read scope. Escalate to a team lead."},
		{"an email address", "0 customers match \"dana.whitfield@example.com\"; the search ran and found no account."},
		{"a date and an amount", "Order ORD-4471 was delivered on 2026-09-18, 45 days ago; the refund window is 30 days. Total £189.00."},
		{"a token that has expired, in words", "The session token has expired. Sign in again, then resend."},
		{"plain English with select ... from ... set", "Select a delivery slot from the list and set delivery_date to its date (YYYY-MM-DD)."},
		{"plain English with update ... from", "Update the shipping address from the account page, then send the call again."},
		{"a version number", "This tool needs client version 10.2.1 or later; upgrade the client and resend."},
		{"plain English with delete ... from ... set", "Delete the old address from the profile, set the new one, then resend."},
		{"plain English with insert ... into", "Insert the customer's email into the identifier argument and send a new call."},
		{"a time of day", "The store reopens at 10:30 UTC; send the same call again after that."},
		{"a date and time", "Delivered 2026-09-18T10:30:00Z to the pickup point."},
		{"permission in words", "Permission denied: the support-agent role cannot read staff records. Escalate to a team lead."},
		{"a relative file name", "notes.txt is not in the allowed folder; give a name from list_directory."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := rules.Leaks(c.text); len(got) > 0 {
				t.Errorf("clean description flagged as leaking %q: %q", got, c.text)
			}
		})
	}
}

// TestLooksLikeError: the error-as-success anti-pattern (§3) is a success
// whose text reads as a failure.
func TestLooksLikeError(t *testing.T) {
	failures := []string{
		"ERROR: Permission denied",
		"Error: order not found",
		"error 500",
		"Traceback (most recent call last):",
		"Exception in thread \"main\"",
		"failed to connect to the order database",
		"Permission denied",
		"Access denied for user 'svc_support'",
		"Unauthorized",
		"Forbidden",
		"Timeout waiting for the ticket index",
		"timed out after 3 s",
		"panic: runtime error",
		"  FATAL could not open ledger",
	}
	for _, s := range failures {
		if !rules.LooksLikeError(s) {
			t.Errorf("LooksLikeError(%q) = false", s)
		}
	}
	successes := []string{
		"0 orders match ORD-9999; the query ran and no order has that id.",
		"Order ORD-4471: delivered 2026-09-18.",
		`{"resultCount":0,"orders":[]}`,
		"[]",
		"No errors found in the last 24 hours.",
		"Refund of £24.99 issued for ORD-4519.",
		"Errorless run",
	}
	for _, s := range successes {
		if rules.LooksLikeError(s) {
			t.Errorf("LooksLikeError(%q) = true", s)
		}
	}
}
