package rules

import "testing"

// Responses of the mock server as errorlab serve sends them: a lookup that
// succeeds, and a refund refused as business.
var (
	benchSuccess  = []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"resultCount\":1,\"orders\":[{\"orderId\":\"ORD-4471\",\"customerId\":\"C-1001\",\"item\":\"noise-cancelling headphones\",\"total\":189,\"currency\":\"GBP\",\"status\":\"delivered\",\"deliveredOn\":\"2026-09-18\",\"daysSinceDelivery\":45}],\"summary\":\"1 order matches ORD-4471.\"}"}],"structuredContent":{"resultCount":1,"orders":[{"orderId":"ORD-4471","customerId":"C-1001","item":"noise-cancelling headphones","total":189,"currency":"GBP","status":"delivered","deliveredOn":"2026-09-18","daysSinceDelivery":45}],"summary":"1 order matches ORD-4471."}}}`)
	benchBusiness = []byte(`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"{\"errorCategory\":\"business\",\"isRetryable\":false,\"description\":\"Order ORD-4471 was delivered 45 days ago and automatic refunds close 30 days after delivery. Resending will be refused the same way. Explain the window to the customer and offer a goodwill request through escalate_to_human.\",\"code\":\"REFUND_WINDOW_EXCEEDED\",\"customerMessage\":\"Your noise-cancelling headphones arrived 45 days ago, which is past our 30-day refund window, so I can't refund this order automatically. I can ask the team to consider a goodwill refund if you'd like.\"}"}],"isError":true,"structuredContent":{"errorCategory":"business","isRetryable":false,"description":"Order ORD-4471 was delivered 45 days ago and automatic refunds close 30 days after delivery. Resending will be refused the same way. Explain the window to the customer and offer a goodwill request through escalate_to_human.","code":"REFUND_WINDOW_EXCEEDED","customerMessage":"Your noise-cancelling headphones arrived 45 days ago, which is past our 30-day refund window, so I can't refund this order automatically. I can ask the team to consider a goodwill refund if you'd like."}}}`)
)

// BenchmarkClassify is rules.Classify on the two, as errorlab serve runs
// it on every tools/call response it records.
//
//	go test -run '^$' -bench Classify -benchmem ./sim/rules
func BenchmarkClassify(b *testing.B) {
	for _, c := range []struct {
		name string
		resp []byte
	}{{"success", benchSuccess}, {"business", benchBusiness}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Classify(c.resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
