package mockserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// The official go-sdk client (v1.8.0) is an independent peer: it shares no
// code with mcp-go. These tests serve the mock server with ServeStdio on
// io.Pipes and connect a go-sdk client through its IOTransport.

// sdkSession connects a go-sdk client to a fresh mock server over stdio
// pipes. rev "" lets the SDK choose. The session and the server are
// stopped when the test ends.
func sdkSession(t *testing.T, opts mockserver.Options, rev string) *sdk.ClientSession {
	t.Helper()
	srv := mockserver.New(opts)
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- srv.ServeStdio(ctx, c2sR, s2cW)
		_ = s2cW.Close()
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-peer", Version: "1.8.0"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: s2cR, Writer: c2sW}, &sdk.ClientSessionOptions{ProtocolVersion: rev})
	stop := func() {
		if cs != nil {
			_ = cs.Close()
		}
		_ = c2sW.Close()
		cancel()
		if err := <-served; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
		_ = s2cR.Close()
	}
	if err != nil {
		stop()
		t.Fatalf("go-sdk connect (%q): %v", rev, err)
	}
	t.Cleanup(stop)
	return cs
}

// TestGoSDKNegotiation records which revision the go-sdk settles on, alone
// and pinned to each revision errorlab shows.
func TestGoSDKNegotiation(t *testing.T) {
	cases := []struct{ pin, want string }{
		{"", "2026-07-28"},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2026-07-28", "2026-07-28"},
	}
	for _, c := range cases {
		name := c.pin
		if name == "" {
			name = "SDK default"
		}
		t.Run(name, func(t *testing.T) {
			cs := sdkSession(t, mockserver.Options{}, c.pin)
			res := cs.InitializeResult()
			if res == nil {
				t.Fatal("no initialize result")
			}
			t.Logf("go-sdk v1.8.0 pinned to %q negotiated %s with %s %s", c.pin, res.ProtocolVersion, res.ServerInfo.Name, res.ServerInfo.Version)
			if res.ProtocolVersion != c.want {
				t.Errorf("negotiated %s, want %s", res.ProtocolVersion, c.want)
			}
			if res.ServerInfo == nil || res.ServerInfo.Name != mockserver.Name {
				t.Errorf("serverInfo %+v, want %s", res.ServerInfo, mockserver.Name)
			}
		})
	}
}

// TestGoSDKListsSixTools: tools/list through the go-sdk shows the six tools
// in order, each with the inputSchema and outputSchema the server declares.
func TestGoSDKListsSixTools(t *testing.T) {
	declared := mockserver.New(mockserver.Options{}).Tools()
	for _, rev := range rules.Revisions {
		t.Run(string(rev), func(t *testing.T) {
			cs := sdkSession(t, mockserver.Options{}, string(rev))
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]int{}
			for i, d := range declared {
				byName[d.Name] = i
			}
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
			}
			sorted := slices.Sorted(slices.Values(names))
			if !slices.Equal(sorted, slices.Sorted(slices.Values(mockserver.ToolNames()))) {
				t.Fatalf("go-sdk sees tools %v, want %v", names, mockserver.ToolNames())
			}
			for _, tool := range res.Tools {
				d := declared[byName[tool.Name]]
				in, _ := json.Marshal(tool.InputSchema)
				out, _ := json.Marshal(tool.OutputSchema)
				if tool.InputSchema == nil || !jsonEqual(in, d.RawInputSchema) {
					t.Errorf("%s: inputSchema seen by go-sdk differs from the declaration:\n%s", tool.Name, in)
				}
				if tool.OutputSchema == nil || !jsonEqual(out, d.RawOutputSchema) {
					t.Errorf("%s: outputSchema seen by go-sdk differs from the declaration:\n%s", tool.Name, out)
				}
				if tool.Description == "" {
					t.Errorf("%s has no description", tool.Name)
				}
			}
		})
	}
}

// gosdkCases are the calls made through both clients: every natural
// failure of the mock world, every fault on every tool, and the bad styles
// on one failure.
func gosdkCases() []struct {
	matrixCall
	style mockserver.Style
} {
	type c = struct {
		matrixCall
		style mockserver.Style
	}
	var out []c
	for _, mc := range naturalCalls {
		out = append(out, c{mc, mockserver.StyleGood})
	}
	for _, mc := range faultCalls() {
		out = append(out, c{mc, mockserver.StyleGood})
	}
	window := naturalCalls[slices.IndexFunc(naturalCalls, func(m matrixCall) bool { return m.name == "refund past the 30-day window" })]
	for _, st := range mockserver.Styles[1:] {
		mc := window
		mc.name = window.name + " in the " + string(st) + " style"
		out = append(out, c{mc, st})
	}
	goErr := matrixCall{name: "lookup_order go_error in the protocol_error style", call: wire.Call{Tool: "lookup_order", Arguments: args("order_id", "ORD-4471")}, fault: mockserver.Fault{Kind: mockserver.FaultGoError}}
	out = append(out, c{goErr, mockserver.StyleProtocolError})
	return out
}

// TestGoSDKSeesWhatMcpGoSees: for the same call on a fresh server, the
// go-sdk client over stdio sees the same isError, the same structuredContent
// and the same text as the mcp-go path (wire.Open), and a protocol error
// arrives as a go-sdk error carrying the same JSON-RPC code.
func TestGoSDKSeesWhatMcpGoSees(t *testing.T) {
	ctx := context.Background()
	for _, tc := range gosdkCases() {
		t.Run(tc.name, func(t *testing.T) {
			for _, rev := range rules.Revisions {
				t.Run(string(rev), func(t *testing.T) {
					opts := tc.options(tc.style, rev)
					ex := exchange(t, opts, rev, tc.call)
					env := parse(t, ex.Response)
					c, _ := ex.Classify()

					cs := sdkSession(t, opts, string(rev))
					params := &sdk.CallToolParams{Name: tc.call.Tool}
					if tc.call.Arguments != nil {
						params.Arguments = tc.call.Arguments
					}
					res, err := cs.CallTool(ctx, params)

					if env.Error != nil {
						var werr *jsonrpc.Error
						if !errors.As(err, &werr) {
							t.Fatalf("mcp-go saw protocol error %d; go-sdk returned result %+v, error %v", env.Error.Code, res, err)
						}
						if int(werr.Code) != env.Error.Code {
							t.Errorf("go-sdk error code %d, mcp-go saw %d", werr.Code, env.Error.Code)
						}
						if werr.Message != env.Error.Message {
							t.Errorf("go-sdk error message %q, mcp-go saw %q", werr.Message, env.Error.Message)
						}
						return
					}
					if err != nil {
						t.Fatalf("mcp-go saw a result (%s); go-sdk returned error %v", c.Layer, err)
					}
					if res.IsError != env.Result.IsError {
						t.Errorf("isError: go-sdk %v, mcp-go %v", res.IsError, env.Result.IsError)
					}
					var sdkStructured []byte
					if res.StructuredContent != nil {
						sdkStructured, _ = json.Marshal(res.StructuredContent)
					}
					switch {
					case len(sdkStructured) == 0 && len(env.Result.StructuredContent) == 0:
					case !jsonEqual(sdkStructured, env.Result.StructuredContent):
						t.Errorf("structuredContent differs:\ngo-sdk: %s\nmcp-go: %s", sdkStructured, env.Result.StructuredContent)
					}
					var sdkTexts []string
					for _, content := range res.Content {
						if tc, isText := content.(*sdk.TextContent); isText {
							sdkTexts = append(sdkTexts, tc.Text)
						} else {
							t.Errorf("go-sdk sees a %T block", content)
						}
					}
					if !slices.Equal(sdkTexts, env.Result.Texts()) {
						t.Errorf("text blocks differ:\ngo-sdk: %q\nmcp-go: %q", sdkTexts, env.Result.Texts())
					}
				})
			}
		})
	}
}
