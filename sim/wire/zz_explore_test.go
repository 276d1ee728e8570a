package wire

import (
	"context"
	"fmt"
	"testing"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

func TestZZExplore(t *testing.T) {
	ctx := context.Background()
	for _, rev := range rules.Revisions {
		for _, open := range []func(context.Context, *mockserver.Server, rules.Revision) (*Session, error){Open, OpenStdio} {
			s, err := open(ctx, mockserver.New(mockserver.Options{Revision: rev}), rev)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []Call{
				{Raw: "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"lookup_order\",\"arguments\":{\"order_id\":\"ORD-4471\"}}}\n"},
				{Raw: "{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"method\":\"tools/call\",\"params\":{\"name\":\"lookup_order\",\"arguments\":{\"order_id\":5}}}"},
				{Raw: "[1,2]"},
				{Raw: "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":\"x\"}"},
				{Raw: "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"nope\"}"},
				{Raw: "{\"jsonrpc\":\"2.0\",\"id\":13}"},
				{Tool: "process_refund", Arguments: map[string]any{"order_id": "ORD-4519", "amount": 24.99, "confirmedByUser": true}},
			} {
				ex, err := s.Call(ctx, c)
				fmt.Printf("ERR=%v\n", err)
				_ = ex
			}
			for i, m := range s.Transcript() {
				if i < 5 && i != 4 && i != 3 || i >= 5 {
					if len(m.Bytes) < 600 {
						fmt.Printf("%s %q\n", m.Dir, m.Bytes)
					}
				}
			}
			s.Close()
			fmt.Println("=====")
		}
	}
}
