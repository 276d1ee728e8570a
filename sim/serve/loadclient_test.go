package serve_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/sim/serve"
)

// rpcClient is the load client of BenchmarkServeHTTP: a lean Streamable
// HTTP client on net/http, the same for errorlab and for server-everything.
// It speaks just enough MCP (revision 2025-11-25) for the load: initialize
// and notifications/initialized, then tools/call POSTs carrying the
// session id, each answer read as JSON or as the SSE event that carries
// it. The go-sdk spends about 435 µs of CPU per call on this machine,
// which would cap any server; this client spends a few.
type rpcClient struct {
	url  string
	http *http.Client
	sid  string
	next int
	// call is the tools/call request body with a %d for its id.
	call string
}

const loadRevision = "2025-11-25"

// dialRPC opens a session on url: initialize (the session id comes back in
// Mcp-Session-Id), then notifications/initialized.
func dialRPC(hc *http.Client, url, client string) (*rpcClient, error) {
	c := &rpcClient{url: url, http: hc, next: 1}
	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":%q,"version":"1"}}}`, loadRevision, client)
	msg, hdr, err := c.post(init, "0")
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	var r struct {
		Result *struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if err := json.Unmarshal(msg, &r); err != nil || r.Result == nil {
		return nil, fmt.Errorf("initialize answered %s", msg)
	}
	if c.sid = hdr.Get("Mcp-Session-Id"); c.sid == "" {
		return nil, errors.New("initialize answered without an Mcp-Session-Id")
	}
	if _, _, err := c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""); err != nil {
		return nil, fmt.Errorf("notifications/initialized: %w", err)
	}
	return c, nil
}

// callTool prepares the tools/call every Call sends.
func (c *rpcClient) callTool(tool string, args map[string]any) {
	a, _ := json.Marshal(args)
	body, _ := json.Marshal(tool)
	c.call = `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":` + strings.ReplaceAll(string(body), "%", "%%") +
		`,"arguments":` + strings.ReplaceAll(string(a), "%", "%%") + `}}`
}

// Call makes the prepared tools/call once. A JSON-RPC error, a result
// with isError true, or no result is a failure.
func (c *rpcClient) Call() error {
	id := c.next
	c.next++
	msg, _, err := c.post(fmt.Sprintf(c.call, id), strconv.Itoa(id))
	if err != nil {
		return err
	}
	var r struct {
		Result *struct {
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	switch {
	case json.Unmarshal(msg, &r) != nil:
		return fmt.Errorf("not JSON-RPC: %.200s", msg)
	case r.Error != nil:
		return fmt.Errorf("JSON-RPC error %d: %s", r.Error.Code, r.Error.Message)
	case r.Result == nil:
		return fmt.Errorf("no result: %.200s", msg)
	case r.Result.IsError:
		return fmt.Errorf("isError: %.200s", msg)
	}
	return nil
}

// Close ends the session (DELETE).
func (c *rpcClient) Close() {
	req, err := http.NewRequest(http.MethodDelete, c.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", c.sid)
	req.Header.Set("MCP-Protocol-Version", loadRevision)
	if resp, err := c.http.Do(req); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// post sends one JSON-RPC message and returns the answer whose id is id
// (the JSON body, or the data of the SSE event carrying it) and the
// response's headers. A notification (id "") wants 202 and no answer.
func (c *rpcClient) post(body, id string) ([]byte, http.Header, error) {
	req, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.sid != "" {
		req.Header.Set("Mcp-Session-Id", c.sid)
		req.Header.Set("MCP-Protocol-Version", loadRevision)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	if id == "" {
		if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusOK {
			return nil, nil, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, data)
		}
		return nil, resp.Header, nil
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, data)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return data, resp.Header, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		d, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:"))
		if !ok {
			continue
		}
		d = bytes.TrimSpace(d)
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(d, &m) == nil && string(m.ID) == id {
			return d, resp.Header, nil
		}
	}
	return nil, nil, fmt.Errorf("the event stream carried no answer to id %s: %.200s", id, data)
}

// TestLoadClientCountsFailures: the benchmark's client reads a success as
// one, and counts isError, a JSON-RPC error and an unknown session as
// failures (a benchmark with zero failures must mean zero).
func TestLoadClientCountsFailures(t *testing.T) {
	url, _ := httpServer(t, serve.Config{FailureModes: true})
	hc := &http.Client{}
	c, err := dialRPC(hc, url, "load-client-test")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		ok   bool
	}{
		{"lookup_order", map[string]any{"order_id": "ORD-4471"}, true},
		{"lookup_order", map[string]any{"order_id": "ORD-4471", "failure_mode": "business"}, false},
		{"no_such_tool", map[string]any{}, false},
		{"lookup_order", map[string]any{"order_id": 4471}, false},
	} {
		c.callTool(tc.tool, tc.args)
		if err := c.Call(); (err == nil) != tc.ok {
			t.Errorf("%s %v: err %v, want ok=%v", tc.tool, tc.args, err, tc.ok)
		}
	}
	c.Close()
	c.callTool("lookup_order", map[string]any{"order_id": "ORD-4471"})
	if err := c.Call(); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("a call in a deleted session: %v", err)
	}
}
