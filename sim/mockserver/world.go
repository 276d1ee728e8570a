package mockserver

import (
	"strings"
	"time"
)

// The mock world: a small online shop's customer-support back office. Every
// figure the lessons use is here: order ORD-4471 delivered 45 days before
// Today under a 30-day return window, a £500 automatic refund limit, a
// customer who is also a member of staff.

// Today is the mock world's date. Ages of orders are counted from it so the
// transcripts are the same on every run.
var Today = time.Date(2026, time.November, 2, 0, 0, 0, 0, time.UTC)

// Policy figures (pounds sterling, days).
const (
	RefundWindowDays  = 30
	AutoRefundLimit   = 500.00
	Currency          = "GBP"
	AgentRole         = "support-agent"
	StaffRecordsScope = "hr:staff-records:read"
)

// Customer is a customer record as get_customer returns it.
type Customer struct {
	ID          string `json:"customerId"`
	Name        string `json:"name"`
	Email       string `json:"email"`
	Tier        string `json:"tier"`
	MemberSince string `json:"memberSince"`
	OpenOrders  int    `json:"openOrders"`
	staff       bool
}

// Order is an order as lookup_order returns it.
type Order struct {
	ID          string  `json:"orderId"`
	CustomerID  string  `json:"customerId"`
	Item        string  `json:"item"`
	Total       float64 `json:"total"`
	Currency    string  `json:"currency"`
	Status      string  `json:"status"`
	DeliveredOn string  `json:"deliveredOn,omitempty"`
	DaysSince   int     `json:"daysSinceDelivery,omitempty"`
}

// Ticket is a support ticket as search_support_tickets returns it.
type Ticket struct {
	ID         string `json:"ticketId"`
	CustomerID string `json:"customerId"`
	Subject    string `json:"subject"`
	Status     string `json:"status"`
	Opened     string `json:"opened"`
}

var customers = []Customer{
	{ID: "C-1001", Name: "Dana Whitfield", Email: "dana.whitfield@example.com", Tier: "standard", MemberSince: "2022-03-14", OpenOrders: 1},
	{ID: "C-1002", Name: "Sam Okafor", Email: "sam.okafor@example.com", Tier: "staff", MemberSince: "2021-09-01", staff: true},
	{ID: "C-1003", Name: "Priya Raman", Email: "priya.raman@example.com", Tier: "plus", MemberSince: "2024-01-20", OpenOrders: 1},
	{ID: "C-1004", Name: "Tomás Ferreira", Email: "tomas.ferreira@example.com", Tier: "standard", MemberSince: "2025-06-02"},
}

var orders = []Order{
	delivered("ORD-4471", "C-1001", "noise-cancelling headphones", 189.00, 45),
	delivered("ORD-4502", "C-1001", "oak standing desk", 750.00, 8),
	delivered("ORD-4519", "C-1003", "USB-C cable three-pack", 24.99, 3),
	{ID: "ORD-4520", CustomerID: "C-1003", Item: "monitor arm", Total: 89.00, Currency: Currency, Status: "in_transit"},
	delivered("ORD-4533", "C-1004", "espresso grinder", 139.50, 12),
}

var tickets = []Ticket{
	{ID: "SUP-1042", CustomerID: "C-1001", Subject: "Headphones crackle in the left ear", Status: "open", Opened: "2026-10-29"},
	{ID: "SUP-1047", CustomerID: "C-1001", Subject: "Desk delivered with a scratched top", Status: "pending", Opened: "2026-10-27"},
	{ID: "SUP-1051", CustomerID: "C-1003", Subject: "Monitor arm delivery date", Status: "open", Opened: "2026-11-01"},
	{ID: "SUP-0998", CustomerID: "C-1004", Subject: "Grinder refund question", Status: "solved", Opened: "2026-10-20"},
}

func delivered(id, cust, item string, total float64, daysAgo int) Order {
	return Order{
		ID: id, CustomerID: cust, Item: item, Total: total, Currency: Currency,
		Status: "delivered", DeliveredOn: Today.AddDate(0, 0, -daysAgo).Format("2006-01-02"), DaysSince: daysAgo,
	}
}

func findCustomer(id string) (Customer, bool) {
	for _, c := range customers {
		if c.ID == id {
			return c, true
		}
	}
	return Customer{}, false
}

func findCustomerByEmail(email string) (Customer, bool) {
	for _, c := range customers {
		if strings.EqualFold(c.Email, email) {
			return c, true
		}
	}
	return Customer{}, false
}

func findOrder(id string) (Order, bool) {
	for _, o := range orders {
		if o.ID == id {
			return o, true
		}
	}
	return Order{}, false
}

func searchTickets(query, status string, max int) []Ticket {
	words := strings.Fields(strings.ToLower(query))
	out := []Ticket{}
	for _, t := range tickets {
		if status != "" && status != "any" && t.Status != status {
			continue
		}
		hay := strings.ToLower(t.Subject + " " + t.ID + " " + t.CustomerID)
		match := len(words) > 0
		for _, w := range words {
			if !strings.Contains(hay, w) {
				match = false
				break
			}
		}
		if match {
			out = append(out, t)
		}
		if len(out) == max {
			break
		}
	}
	return out
}
