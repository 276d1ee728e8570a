package mockserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// MaxMessageBytes is the largest JSON-RPC message the mock server reads:
// 1 MiB. A tool call of the mock world is a few hundred bytes; a bigger
// message is a mistake or an attack, and is answered with OversizeReply
// without being read into memory (stdio) or parsed (HTTP).
const MaxMessageBytes = 1 << 20

// batchReply answers a JSON array: JSON-RPC batches were removed from MCP
// in revision 2025-06-18, so a batch is not a valid request (-32600, id
// null, as JSON-RPC 2.0 answers an invalid request whose id is unknown).
var batchReply = mustMarshal(mcp.JSONRPCError{
	JSONRPC: mcp.JSONRPC_VERSION,
	ID:      mcp.NewRequestId(nil),
	Error: mcp.NewJSONRPCErrorDetails(mcp.INVALID_REQUEST,
		"Invalid Request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send each message on its own", nil),
})

// oversizeReply answers a message over MaxMessageBytes.
var oversizeReply = mustMarshal(mcp.JSONRPCError{
	JSONRPC: mcp.JSONRPC_VERSION,
	ID:      mcp.NewRequestId(nil),
	Error: mcp.NewJSONRPCErrorDetails(mcp.INVALID_REQUEST,
		fmt.Sprintf("Invalid Request: the message is larger than %d bytes (1 MiB), the most this server reads; it was not processed", MaxMessageBytes), nil),
})

// OversizeReply is the JSON-RPC error (-32600, id null) the server answers
// to a message over MaxMessageBytes. The bytes are shared: do not modify.
func OversizeReply() []byte { return oversizeReply }

// Preflight answers, ahead of mcp-go, the messages whose answer the mock
// server writes itself, and returns nil for every other message, which
// mcp-go's MCPServer then answers. Every transport runs it first
// (HandleMessage, ServeStdio, and `errorlab serve`'s HTTP transport), so
// they all answer the same bytes:
//
//   - bytes that are not JSON: -32700, the reply mcp-go's stdio server
//     writes for them;
//   - a JSON array (a batch): -32600 (batches were removed in 2025-06-18);
//   - a request whose params is not an object, or a tools/call whose name
//     is not a string or whose _meta is not an object: -32602 with a
//     sentence saying what is wrong (mcp-go would quote a Go decoding
//     error, which no client should see: LESSON-RULES §6);
//   - under 2025-06-18, a tools/call whose arguments break the tool's
//     inputSchema: -32602 (LESSON-RULES §1).
//
// It also records the revision an initialize negotiates. Notifications
// (no id) are never answered here.
func (s *Server) Preflight(raw []byte) []byte {
	raw = bytes.TrimSpace(raw)
	if !json.Valid(raw) {
		return parseErrorReply
	}
	if len(raw) > 0 && raw[0] == '[' {
		return batchReply
	}
	if reply := envelopeReply(raw); reply != nil {
		return reply
	}
	var top struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(raw, &top) != nil {
		return nil // envelopeReply has answered every shape this cannot read
	}
	if reply := s.shapeReply(top.ID, top.Method, top.Params); reply != nil {
		return reply
	}
	var h requestHead
	if json.Unmarshal(raw, &h) != nil {
		return nil // params of other methods with odd field types: mcp-go answers
	}
	s.observeHead(h)
	return s.preflightHead(h)
}

// envelopeReply is the -32600 for valid JSON that is not a JSON-RPC
// message (JSON-RPC 2.0 §4, §5; MCP's ids are strings or integers, never
// null), or nil: a JSON value that is not an object (id null); an id
// that is null, a fraction, an object, an array or a boolean (id null:
// it cannot be echoed); a method that is not a string, or a message with
// neither a method nor a result or error (with its id). Answers to the
// server (result or error) are left alone.
func envelopeReply(raw []byte) []byte {
	if len(raw) == 0 || raw[0] != '{' {
		return invalidRequest(nil, "a JSON-RPC message is a JSON object with \"jsonrpc\": \"2.0\", a \"method\" and (for a request) an \"id\"")
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	method, hasMethod := m["method"]
	id, hasID := m["id"]
	if !hasMethod && (hasResult || hasError) {
		return nil // the client's answer to a server request
	}
	if hasID {
		id = bytes.TrimSpace(id)
		var n json.Number
		okID := len(id) > 0 && string(id) != "null" && (id[0] == '"' || (json.Unmarshal(id, &n) == nil && !bytes.ContainsAny(id, ".eE")))
		if !okID {
			return invalidRequest(nil, "the id must be a string or an integer (MCP allows no null, fraction, object, array or boolean id)")
		}
	}
	var echo json.RawMessage
	if hasID {
		echo = id
	}
	switch {
	case !hasMethod:
		return invalidRequest(echo, "the message has no \"method\": a request names the method to call, e.g. \"tools/list\"")
	case len(bytes.TrimSpace(method)) == 0 || bytes.TrimSpace(method)[0] != '"':
		return invalidRequest(echo, "\"method\" must be a string, e.g. \"tools/call\"")
	}
	return nil
}

func invalidRequest(rawID json.RawMessage, msg string) []byte {
	var id any
	if rawID != nil {
		_ = json.Unmarshal(rawID, &id)
	}
	return mustMarshal(mcp.JSONRPCError{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(id),
		Error:   mcp.NewJSONRPCErrorDetails(mcp.INVALID_REQUEST, "Invalid Request: "+msg, nil),
	})
}

// shapeReply is the -32602 for params of the wrong shape, or nil.
func (s *Server) shapeReply(id json.RawMessage, method string, params json.RawMessage) []byte {
	if len(id) == 0 || method == "" {
		return nil
	}
	p := bytes.TrimSpace(params)
	if len(p) == 0 || string(p) == "null" {
		return nil
	}
	if p[0] != '{' {
		return invalidParams(id, "params must be a JSON object")
	}
	if method == string(mcp.MethodInitialize) {
		var init struct {
			ProtocolVersion json.RawMessage `json:"protocolVersion"`
		}
		if json.Unmarshal(p, &init) == nil {
			if v := bytes.TrimSpace(init.ProtocolVersion); len(v) > 0 && v[0] != '"' {
				return invalidParams(id, "params.protocolVersion must be a revision as a string, e.g. \"2025-11-25\"")
			}
		}
		return nil
	}
	if method != string(mcp.MethodToolsCall) {
		return nil
	}
	var call struct {
		Name      json.RawMessage `json:"name"`
		Meta      json.RawMessage `json:"_meta"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(p, &call) != nil {
		return nil
	}
	if n := bytes.TrimSpace(call.Name); len(n) > 0 && n[0] != '"' {
		return invalidParams(id, "params.name must be the tool's name as a string, e.g. \"lookup_order\"")
	}
	if m := bytes.TrimSpace(call.Meta); len(m) > 0 && m[0] != '{' && string(m) != "null" {
		return invalidParams(id, "params._meta must be a JSON object")
	}
	if a := bytes.TrimSpace(call.Arguments); len(a) > 0 && a[0] != '{' && string(a) != "null" {
		// The call breaks the request schema itself (CallToolRequest's
		// arguments is an object), under every revision: -32602, not a
		// tool's validation result (LESSON-RULES §1, §9).
		return invalidParams(id, "params.arguments must be a JSON object of the tool's arguments by name, e.g. {\"order_id\": \"ORD-4471\"}")
	}
	return nil
}

func invalidParams(rawID json.RawMessage, msg string) []byte {
	var id any
	_ = json.Unmarshal(rawID, &id)
	return mustMarshal(mcp.JSONRPCError{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(id),
		Error:   mcp.NewJSONRPCErrorDetails(mcp.INVALID_PARAMS, "Invalid params: "+msg, nil),
	})
}

// errTooLong marks a line over MaxMessageBytes; the rest of it has been
// read and dropped.
var errTooLong = errors.New("message over MaxMessageBytes")

// readMessage reads one newline-delimited message of at most max bytes
// (without the newline). A longer line is read to its end and dropped,
// and errTooLong returned, so the next message reads cleanly. At the end
// of the input a last line without a newline is still a message.
func readMessage(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline is not part of the message
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case err == nil:
			if tooLong {
				return nil, errTooLong
			}
			return bytes.TrimSuffix(line, []byte("\n")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if tooLong {
				return nil, errTooLong
			}
			if len(line) == 0 {
				return nil, io.EOF
			}
			return line, nil
		default:
			return nil, err
		}
	}
}

// replyWait counts the requests handed to mcp-go's stdio server that are
// still unanswered, so that the end of the input does not end the
// session before they are: mcp-go stops its workers when its input ends
// and drops the tool calls still queued, and a client that writes its
// requests and closes stdin (`printf ... | errorlab serve`) must still
// get every answer.
type replyWait struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending map[string]int
	total   int
}

func newReplyWait() *replyWait {
	w := &replyWait{pending: map[string]int{}}
	w.cond = sync.NewCond(&w.mu)
	return w
}

// ReplyKey is the id a message's reply will carry, as JSON ("null" for a
// message answered with an id-less error: not JSON-RPC, or an id that
// cannot be echoed), and whether it gets a reply at all (not for a
// notification or an answer to the server). Transports pair replies to
// requests with it.
func ReplyKey(raw []byte) (string, bool) { return replyKey(raw) }

func replyKey(raw []byte) (string, bool) {
	if json.Valid(raw) {
		if reply := envelopeReply(bytes.TrimSpace(raw)); reply != nil {
			var e struct {
				ID json.RawMessage `json:"id"`
			}
			_ = json.Unmarshal(reply, &e)
			return string(bytes.TrimSpace(e.ID)), true // the id the -32600 echoes
		}
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return "null", true
	}
	id, hasID := m["id"]
	_, hasMethod := m["method"]
	_, hasResult := m["result"]
	_, hasError := m["error"]
	switch {
	case hasID && (hasMethod || !(hasResult || hasError)):
		return string(bytes.TrimSpace(id)), true
	case hasMethod, hasResult, hasError:
		return "", false // a notification, or the client's answer to the server
	}
	return "null", true
}

func (w *replyWait) expect(raw []byte) {
	key, replies := replyKey(raw)
	if !replies {
		return
	}
	w.mu.Lock()
	w.pending[key]++
	w.total++
	w.mu.Unlock()
}

// answered takes one line the server wrote.
func (w *replyWait) answered(line []byte) {
	var h struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(line, &h)
	key := string(bytes.TrimSpace(h.ID))
	if key == "" {
		key = "null"
	}
	w.mu.Lock()
	if w.pending[key] > 0 {
		w.pending[key]--
		w.total--
		w.cond.Broadcast()
	}
	w.mu.Unlock()
}

// wait returns once every request has its answer, ctx is done, or limit
// has passed.
func (w *replyWait) wait(ctx context.Context, limit time.Duration) {
	stop := context.AfterFunc(ctx, func() { w.mu.Lock(); w.cond.Broadcast(); w.mu.Unlock() })
	defer stop()
	timer := time.AfterFunc(limit, func() { w.mu.Lock(); w.cond.Broadcast(); w.mu.Unlock() })
	defer timer.Stop()
	deadline := time.Now().Add(limit)
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.total > 0 && ctx.Err() == nil && time.Now().Before(deadline) {
		w.cond.Wait()
	}
}

// answerTap passes the server's output through and tells w of each line.
type answerTap struct {
	w   io.Writer
	rw  *replyWait
	buf []byte
}

func (t *answerTap) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.buf = append(t.buf, p[:n]...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			break
		}
		t.rw.answered(t.buf[:i])
		t.buf = t.buf[i+1:]
	}
	return n, err
}
