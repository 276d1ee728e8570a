package mockserver

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/errorlab/errorlab/sim/rules"
)

// toolSpec is one tool of the mock server: its declared schemas, an example
// call, the shape of its empty success, and its domain logic.
type toolSpec struct {
	name        string
	title       string
	description string
	readOnly    bool
	inputSchema string
	// successSchema is the success branch of the outputSchema; the error
	// branch is added by outputSchema() so errors never break it (§3).
	successSchema string
	example       map[string]any
	// otherExample is a second valid call, given as exampleArguments when
	// the refused arguments are example itself (a validation failure forced
	// on the example must not offer the same arguments as the fix).
	otherExample map[string]any
	empty        func(args map[string]any) any
	run          func(s *Server, args map[string]any) outcome
}

// outcome is what a tool's domain logic decided: a success payload or a
// failure.
type outcome struct {
	success any
	fail    *failure
}

func ok(v any) outcome       { return outcome{success: v} }
func fail(f failure) outcome { return outcome{fail: &f} }
func money(v float64) string { return fmt.Sprintf("£%.2f", v) }
func argString(args map[string]any, k string) string {
	s, _ := args[k].(string)
	return strings.TrimSpace(s)
}

var (
	orderIDPattern    = regexp.MustCompile(`^ORD-\d{4}$`)
	customerIDPattern = regexp.MustCompile(`^C-\d{4}$`)
	emailPattern      = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// errorBranch is the outputSchema branch every error payload conforms to.
const errorBranch = `{"type":"object","required":["errorCategory","isRetryable","description"],"properties":{` +
	`"errorCategory":{"enum":["transient","validation","business","permission"]},` +
	`"isRetryable":{"type":"boolean"},"description":{"type":"string"},"code":{"type":"string"},` +
	`"customerMessage":{"type":"string"},"retryAfterSeconds":{"type":"integer","minimum":0},` +
	`"requiresUserAction":{"type":"boolean"},"fieldErrors":{"type":"array"},` +
	`"exampleArguments":{"type":"object"},"correlationId":{"type":"string"}}}`

// outputSchema joins the success shape and the error shape in one union,
// so a tool's error results conform to its declared outputSchema
// (LESSON-RULES §3: "a schema that admits the error shape").
func (t toolSpec) outputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","anyOf":[` + t.successSchema + `,` + errorBranch + `]}`)
}

var orderJSON = `{"type":"object","required":["orderId","customerId","item","total","currency","status"],"properties":{` +
	`"orderId":{"type":"string"},"customerId":{"type":"string"},"item":{"type":"string"},"total":{"type":"number"},` +
	`"currency":{"type":"string"},"status":{"type":"string"},"deliveredOn":{"type":"string"},"daysSinceDelivery":{"type":"integer"}}}`

var customerJSON = `{"type":"object","required":["customerId","name","email","tier"],"properties":{` +
	`"customerId":{"type":"string"},"name":{"type":"string"},"email":{"type":"string"},"tier":{"type":"string"},` +
	`"memberSince":{"type":"string"},"openOrders":{"type":"integer"}}}`

// EscalationTool is the tool that hands a case to a person: calling it is
// the escalate_human recovery action (LESSON-RULES §8).
const EscalationTool = "escalate_to_human"

// tools is the catalogue, in the order tools/list shows them.
var tools = []toolSpec{
	{
		name:          "get_customer",
		title:         "Get customer",
		description:   "Fetch one customer record by its exact id (format C-NNNN, e.g. C-1001). By contract an id with no record is an error (CUSTOMER_NOT_FOUND); to search by email use customer_lookup.",
		readOnly:      true,
		inputSchema:   `{"type":"object","properties":{"customer_id":{"type":"string","description":"Exact customer id, C- and four digits, e.g. C-1001"}},"required":["customer_id"],"additionalProperties":false}`,
		successSchema: `{"type":"object","required":["customer"],"properties":{"customer":` + customerJSON + `,"summary":{"type":"string"}}}`,
		example:       map[string]any{"customer_id": "C-1001"},
		otherExample:  map[string]any{"customer_id": "C-1003"},
		run:           runGetCustomer,
	},
	{
		name:        "customer_lookup",
		title:       "Customer lookup",
		description: "Search customers by id (C-NNNN) or email. No match is a valid empty result (resultCount 0), not an error. failure_mode triggers a failure on purpose, for practice: none, transient, validation, business, permission or empty.",
		readOnly:    true,
		inputSchema: `{"type":"object","properties":{"identifier":{"type":"string","description":"A customer id (C-1001) or an email address"},` +
			`"failure_mode":{"type":"string","enum":["none","transient","validation","business","permission","empty"],"default":"none","description":"Practice switch: make this call fail in one category"}},"required":["identifier"],"additionalProperties":false}`,
		successSchema: `{"type":"object","required":["resultCount","customers"],"properties":{"resultCount":{"type":"integer","minimum":0},"customers":{"type":"array","items":` + customerJSON + `},"summary":{"type":"string"}}}`,
		example:       map[string]any{"identifier": "dana.whitfield@example.com"},
		otherExample:  map[string]any{"identifier": "C-1001"},
		empty:         emptyCustomers,
		run:           runCustomerLookup,
	},
	{
		name:          "lookup_order",
		title:         "Look up order",
		description:   "Look up an order by id (ORD- and four digits, e.g. ORD-4471). An id that matches no order is a valid empty result (resultCount 0).",
		readOnly:      true,
		inputSchema:   `{"type":"object","properties":{"order_id":{"type":"string","description":"Order id, ORD- and four digits, e.g. ORD-4471"}},"required":["order_id"],"additionalProperties":false}`,
		successSchema: `{"type":"object","required":["resultCount","orders"],"properties":{"resultCount":{"type":"integer","minimum":0},"orders":{"type":"array","items":` + orderJSON + `},"summary":{"type":"string"}}}`,
		example:       map[string]any{"order_id": "ORD-4471"},
		otherExample:  map[string]any{"order_id": "ORD-4519"},
		empty:         emptyOrders,
		run:           runLookupOrder,
	},
	{
		name:  "process_refund",
		title: "Process refund",
		description: fmt.Sprintf("Refund all or part of a delivered order to the original payment method. Needs the customer's explicit confirmation (confirmedByUser: true). Automatic refunds are limited to %s and to %d days after delivery; beyond that a manager decides.",
			money(AutoRefundLimit), RefundWindowDays),
		inputSchema: `{"type":"object","properties":{"order_id":{"type":"string","description":"Order id, e.g. ORD-4471"},` +
			`"amount":{"type":"number","description":"Amount in pounds, e.g. 24.99"},` +
			`"confirmedByUser":{"type":"boolean","description":"true only after the customer said yes to this refund"},` +
			`"reason":{"type":"string"}},"required":["order_id","amount","confirmedByUser"],"additionalProperties":false}`,
		successSchema: `{"type":"object","required":["refundId","orderId","amount","currency","status"],"properties":{"refundId":{"type":"string"},"orderId":{"type":"string"},` +
			`"amount":{"type":"number"},"currency":{"type":"string"},"status":{"const":"issued"},"summary":{"type":"string"}}}`,
		example:      map[string]any{"order_id": "ORD-4519", "amount": 24.99, "confirmedByUser": true},
		otherExample: map[string]any{"order_id": "ORD-4533", "amount": 139.50, "confirmedByUser": true},
		run:          runProcessRefund,
	},
	{
		name:        "escalate_to_human",
		title:       "Escalate to a human",
		description: "Hand the case to a person: a team lead for access questions, a manager for refunds above the limit or goodwill requests. Give a summary a person can act on without reading the chat.",
		inputSchema: `{"type":"object","properties":{"summary":{"type":"string","description":"What the customer needs and what has been tried"},` +
			`"customer_id":{"type":"string"},"order_id":{"type":"string"},` +
			`"reason":{"type":"string","enum":["business_rule","permission","outage","customer_request","other"]},` +
			`"priority":{"type":"string","enum":["low","normal","high"],"default":"normal"}},"required":["summary"],"additionalProperties":false}`,
		successSchema: `{"type":"object","required":["ticketId","queue","status"],"properties":{"ticketId":{"type":"string"},"queue":{"type":"string"},` +
			`"status":{"type":"string"},"expectedResponse":{"type":"string"},"summary":{"type":"string"}}}`,
		example:      map[string]any{"summary": "Refund of £750.00 on ORD-4502 needs manager approval; customer confirmed.", "order_id": "ORD-4502", "reason": "business_rule"},
		otherExample: map[string]any{"summary": "Customer asks for a goodwill refund on ORD-4471, 45 days after delivery; refused by the 30-day window.", "order_id": "ORD-4471", "reason": "business_rule"},
		run:          runEscalate,
	},
	{
		name:        "search_support_tickets",
		title:       "Search support tickets",
		description: "Full-text search of support tickets. No hits is a valid empty result (resultCount 0), never an error. maxResults 1 to 20, default 5.",
		readOnly:    true,
		inputSchema: `{"type":"object","properties":{"query":{"type":"string","description":"A few words, e.g. 'headphones crackle'"},` +
			`"status":{"type":"string","enum":["open","pending","solved","closed","any"],"default":"any"},` +
			`"maxResults":{"type":"integer","default":5}},"required":["query"],"additionalProperties":false}`,
		successSchema: `{"type":"object","required":["resultCount","tickets"],"properties":{"resultCount":{"type":"integer","minimum":0},"tickets":{"type":"array"},"summary":{"type":"string"}}}`,
		example:       map[string]any{"query": "headphones crackle", "status": "any", "maxResults": 5},
		otherExample:  map[string]any{"query": "monitor arm delivery", "status": "open", "maxResults": 5},
		empty:         emptyTickets,
		run:           runSearchTickets,
	},
}

func emptyCustomers(args map[string]any) any {
	return customerList{ResultCount: 0, Customers: []Customer{}, Summary: fmt.Sprintf("0 customers match %q; the search ran and found no account.", argString(args, "identifier"))}
}

func emptyOrders(args map[string]any) any {
	return orderList{ResultCount: 0, Orders: []Order{}, Summary: fmt.Sprintf("0 orders match %s; the query ran and no order has that id.", argString(args, "order_id"))}
}

func emptyTickets(args map[string]any) any {
	return ticketList{ResultCount: 0, Tickets: []Ticket{}, Summary: fmt.Sprintf("0 tickets match %q; the search ran and found nothing.", echoed(argString(args, "query")))}
}

func specFor(name string) (toolSpec, bool) {
	for _, t := range tools {
		if t.name == name {
			return t, true
		}
	}
	return toolSpec{}, false
}

type customerResult struct {
	Customer Customer `json:"customer"`
	Summary  string   `json:"summary"`
}

type customerList struct {
	ResultCount int        `json:"resultCount"`
	Customers   []Customer `json:"customers"`
	Summary     string     `json:"summary"`
}

type orderList struct {
	ResultCount int     `json:"resultCount"`
	Orders      []Order `json:"orders"`
	Summary     string  `json:"summary"`
}

type ticketList struct {
	ResultCount int      `json:"resultCount"`
	Tickets     []Ticket `json:"tickets"`
	Summary     string   `json:"summary"`
}

type refundResult struct {
	RefundID string  `json:"refundId"`
	OrderID  string  `json:"orderId"`
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
	Status   string  `json:"status"`
	Summary  string  `json:"summary"`
}

type escalation struct {
	TicketID         string `json:"ticketId"`
	Queue            string `json:"queue"`
	Status           string `json:"status"`
	ExpectedResponse string `json:"expectedResponse"`
	Summary          string `json:"summary"`
}

func badFormat(field, expected string, received any, example map[string]any, what string) failure {
	return failure{
		payload: ErrorPayload{
			ErrorCategory:    rules.Validation,
			Description:      fmt.Sprintf("%s must be %s. Received %s. Correct it (ask the customer if it cannot be worked out) and send a new call; resending this one fails the same way.", field, expected, quote(received)),
			Code:             "INVALID_" + strings.ToUpper(what),
			FieldErrors:      []FieldError{{Field: field, Expected: expected, Received: echoedAny(received)}},
			ExampleArguments: example,
		},
		errorText: fmt.Sprintf("ERROR: invalid %s", strings.ReplaceAll(field, "_", " ")),
		exception: fmt.Sprintf("ValueError: invalid literal for int() with base 10: %s", quote(received)),
	}
}

// maxEcho is how many characters of a client's input a result quotes back.
const maxEcho = 80

// echoed is s as a result quotes it back: whole up to maxEcho characters,
// else its first maxEcho and "… (N characters)", so an over-long input
// (a 1 MiB query) does not come back whole in the text and again in
// structuredContent.
func echoed(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= maxEcho {
		return s
	}
	r := []rune(s)
	return fmt.Sprintf("%s… (%d characters)", string(r[:maxEcho]), n)
}

// echoedAny is echoed for a string, v itself otherwise.
func echoedAny(v any) any {
	if s, isStr := v.(string); isStr {
		return echoed(s)
	}
	return v
}

func quote(v any) string {
	if s, isStr := v.(string); isStr {
		return "'" + echoed(s) + "'"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func runGetCustomer(_ *Server, args map[string]any) outcome {
	id := argString(args, "customer_id")
	if !customerIDPattern.MatchString(id) {
		return fail(badFormat("customer_id", "C- followed by four digits, e.g. C-1001", id, map[string]any{"customer_id": "C-1001"}, "customer_id"))
	}
	c, found := findCustomer(id)
	if !found {
		return fail(failure{
			payload: ErrorPayload{
				ErrorCategory: rules.Validation,
				Description:   fmt.Sprintf("No customer has the id %s. get_customer fetches one exact id, and an unknown id is an error by contract. Check the id with the customer, or search by email with customer_lookup.", id),
				Code:          "CUSTOMER_NOT_FOUND",
				FieldErrors:   []FieldError{{Field: "customer_id", Expected: "the id of an existing customer", Received: id}},
			},
			errorText: "ERROR: customer not found",
			exception: fmt.Sprintf("KeyError: '%s'", id),
		})
	}
	if c.staff {
		return fail(failure{
			payload: ErrorPayload{
				ErrorCategory: rules.Permission,
				Description:   fmt.Sprintf("This customer record is restricted: it is a staff record, and the %s role does not hold the %s scope. The same call will be refused every time; escalate to a team lead with staff-records access, passing the customer id.", AgentRole, StaffRecordsScope),
				Code:          "STAFF_RECORD_RESTRICTED",
			},
			errorText: "ERROR: Permission denied",
			exception: fmt.Sprintf("PermissionError: role=%s lacks scope %s on hr.staff_records (auth header: Bearer eyJhbGciOiJIUzI1NiJ9.c3VwcG9ydC1hZ2VudA)", AgentRole, StaffRecordsScope),
		})
	}
	return ok(customerResult{Customer: c, Summary: fmt.Sprintf("Customer %s found.", c.ID)})
}

func runCustomerLookup(s *Server, args map[string]any) outcome {
	ident := argString(args, "identifier")
	switch argString(args, "failure_mode") {
	case "transient":
		return fail(s.incident(injected("customer_lookup", Fault{Kind: FaultAccessFailure}, s.attempts("customer_lookup"), nil)))
	case "validation":
		fl := injected("customer_lookup", Fault{Kind: FaultValidation}, 0, nil)
		fl.payload.FieldErrors[0].Expected = "a customer id (C-NNNN) or an email address"
		fl.payload.ExampleArguments = map[string]any{"identifier": "maria.lopez@example.com"}
		if ident != "C-1001" {
			fl.payload.ExampleArguments = map[string]any{"identifier": "C-1001"}
		}
		return fail(fl)
	case "business":
		return fail(injected("customer_lookup", Fault{Kind: FaultBusiness}, 0, nil))
	case "permission":
		return fail(injected("customer_lookup", Fault{Kind: FaultPermission}, 0, nil))
	case "empty":
		return ok(emptyCustomers(args))
	}
	var found []Customer
	switch {
	case customerIDPattern.MatchString(ident):
		if c, hit := findCustomer(ident); hit {
			found = append(found, c)
		}
	case emailPattern.MatchString(ident):
		if c, hit := findCustomerByEmail(ident); hit {
			found = append(found, c)
		}
	default:
		fl := injected("customer_lookup", Fault{Kind: FaultValidation}, 0, nil)
		fl.payload.FieldErrors[0].Expected = "a customer id (C-NNNN) or an email address"
		fl.payload.ExampleArguments = map[string]any{"identifier": "maria.lopez@example.com"}
		if ident != "C-1001" {
			fl.payload.ExampleArguments = map[string]any{"identifier": "C-1001"}
		}
		return fail(fl)
	}
	if len(found) == 0 {
		return ok(emptyCustomers(args))
	}
	if found[0].staff {
		return fail(injected("customer_lookup", Fault{Kind: FaultPermission}, 0, nil))
	}
	return ok(customerList{ResultCount: 1, Customers: found, Summary: fmt.Sprintf("1 customer matches %q.", ident)})
}

func runLookupOrder(_ *Server, args map[string]any) outcome {
	id := argString(args, "order_id")
	if !orderIDPattern.MatchString(id) {
		return fail(badFormat("order_id", "ORD- followed by four digits, e.g. ORD-4471", id, map[string]any{"order_id": "ORD-4471"}, "order_id"))
	}
	o, found := findOrder(id)
	if !found {
		return ok(emptyOrders(args))
	}
	return ok(orderList{ResultCount: 1, Orders: []Order{o}, Summary: fmt.Sprintf("1 order matches %s.", id)})
}

func runProcessRefund(s *Server, args map[string]any) outcome {
	id := argString(args, "order_id")
	amount, _ := args["amount"].(float64)
	confirmed, _ := args["confirmedByUser"].(bool)
	if !orderIDPattern.MatchString(id) {
		return fail(badFormat("order_id", "ORD- followed by four digits, e.g. ORD-4471", id, map[string]any{"order_id": "ORD-4519", "amount": 24.99, "confirmedByUser": true}, "order_id"))
	}
	if amount <= 0 || math.Round(amount*100) != amount*100 {
		return fail(badFormat("amount", "a positive amount in pounds with at most two decimals, e.g. 24.99", args["amount"], map[string]any{"order_id": id, "amount": 24.99, "confirmedByUser": confirmed}, "amount"))
	}
	o, found := findOrder(id)
	if !found {
		return fail(failure{
			payload: ErrorPayload{
				ErrorCategory: rules.Validation,
				Description:   fmt.Sprintf("No order has the id %s, so there is nothing to refund. Check the id with lookup_order or with the customer, then send a new call.", id),
				Code:          "ORDER_NOT_FOUND",
				FieldErrors:   []FieldError{{Field: "order_id", Expected: "the id of a delivered order", Received: id}},
			},
			errorText: "ERROR: order not found",
			exception: fmt.Sprintf("KeyError: '%s'", id),
		})
	}
	if o.Status != "delivered" {
		return fail(failure{
			payload: ErrorPayload{
				ErrorCategory:   rules.Business,
				Description:     fmt.Sprintf("Order %s has not been delivered yet (status %s), and only delivered orders can be refunded. Do not resend; offer to cancel the delivery or check back once it arrives.", id, o.Status),
				Code:            "NOT_DELIVERED",
				CustomerMessage: "Your order is still on its way, so I can't refund it yet. I can help you cancel it, or we can sort out a return once it arrives.",
			},
			errorText: "ERROR: refund not allowed",
			exception: "AssertionError: order.status == 'delivered'",
		})
	}
	if amount > o.Total {
		return fail(badFormat("amount", fmt.Sprintf("no more than the order total of %s", money(o.Total)), amount, map[string]any{"order_id": id, "amount": o.Total, "confirmedByUser": confirmed}, "amount"))
	}
	if o.DaysSince > RefundWindowDays {
		return fail(failure{
			payload: ErrorPayload{
				ErrorCategory: rules.Business,
				Description: fmt.Sprintf("Order %s was delivered %d days ago and automatic refunds close %d days after delivery. Resending will be refused the same way. Explain the window to the customer (customerMessage) and offer a goodwill request; call escalate_to_human for it only once they want one.",
					id, o.DaysSince, RefundWindowDays),
				Code:            "REFUND_WINDOW_EXCEEDED",
				CustomerMessage: fmt.Sprintf("Your %s arrived %d days ago, which is past our %d-day refund window, so I can't refund this order automatically. I can ask the team to consider a goodwill refund if you'd like.", o.Item, o.DaysSince, RefundWindowDays),
			},
			errorText: "ERROR: refund rejected",
			exception: fmt.Sprintf("PolicyViolation: delivered_at=%s + 30d < now() (refund_policy.window_days=30, override_role=mgr_refunds)", o.DeliveredOn),
		})
	}
	if amount > AutoRefundLimit {
		return fail(failure{
			payload: ErrorPayload{
				ErrorCategory: rules.Business,
				Description: fmt.Sprintf("A refund of %s is above the %s limit for automatic refunds and needs a manager's approval. Do not resend: escalate_to_human with the order, the amount and the customer's confirmation.",
					money(amount), money(AutoRefundLimit)),
				Code:            "REFUND_LIMIT_EXCEEDED",
				CustomerMessage: fmt.Sprintf("Refunds above %s need a manager's sign-off, so I can't complete this one myself. I can pass it to a manager now with all the details, if you'd like.", money(AutoRefundLimit)),
			},
			errorText: "ERROR: refund rejected",
			exception: fmt.Sprintf("PolicyViolation: amount %.2f > AUTO_REFUND_MAX 500.00 (see policy_engine/limits.yaml)", amount),
		})
	}
	if !confirmed {
		return fail(failure{
			payload: ErrorPayload{
				ErrorCategory: rules.Business,
				Description: fmt.Sprintf("Refunds move money, so they need the customer's explicit yes. Ask the customer to confirm the refund of %s on %s, then call again with confirmedByUser: true. Do not resend this call as it is.",
					money(amount), id),
				Code:               "CONFIRMATION_REQUIRED",
				RequiresUserAction: true,
				CustomerMessage:    fmt.Sprintf("Before I refund %s for your %s, can you confirm you'd like me to go ahead?", money(amount), o.Item),
			},
			errorText: "ERROR: not confirmed",
			exception: "AssertionError: confirmedByUser",
		})
	}
	n := s.nextSerial()
	return ok(refundResult{
		RefundID: fmt.Sprintf("RF-%d", 7300+n), OrderID: id, Amount: amount, Currency: Currency, Status: "issued",
		Summary: fmt.Sprintf("Refund of %s issued for %s; it reaches the original payment method in 3 to 5 working days.", money(amount), id),
	})
}

func runEscalate(s *Server, args map[string]any) outcome {
	summary := argString(args, "summary")
	if len(summary) < 12 {
		return fail(badFormat("summary", "a sentence a person can act on (12 characters or more)", summary, map[string]any{"summary": "Refund of £750.00 on ORD-4502 needs manager approval; customer confirmed."}, "summary"))
	}
	queue := "tier-2"
	expect := "within 4 working hours"
	switch argString(args, "reason") {
	case "business_rule":
		queue, expect = "refund-approvals", "within 1 working day"
	case "permission":
		queue, expect = "team-leads", "within 2 working hours"
	}
	n := s.nextSerial()
	id := fmt.Sprintf("ESC-%d", 2040+n)
	return ok(escalation{TicketID: id, Queue: queue, Status: "queued", ExpectedResponse: expect,
		Summary: fmt.Sprintf("Case %s queued for %s; a person will pick it up %s.", id, queue, expect)})
}

func runSearchTickets(_ *Server, args map[string]any) outcome {
	query := argString(args, "query")
	if query == "" {
		return fail(badFormat("query", "a few non-blank words, e.g. 'headphones crackle'", args["query"], map[string]any{"query": "headphones crackle", "maxResults": 5}, "query"))
	}
	max := 5
	if v, has := args["maxResults"].(float64); has {
		max = int(v)
	}
	if max < 1 || max > 20 {
		return fail(badFormat("maxResults", "a whole number from 1 to 20", args["maxResults"], map[string]any{"query": echoed(query), "maxResults": 5}, "max_results"))
	}
	status := argString(args, "status")
	hits := searchTickets(query, status, max)
	if len(hits) == 0 {
		return ok(emptyTickets(args))
	}
	noun := "tickets match"
	if len(hits) == 1 {
		noun = "ticket matches"
	}
	return ok(ticketList{ResultCount: len(hits), Tickets: hits, Summary: fmt.Sprintf("%d %s %q.", len(hits), noun, echoed(query))})
}
