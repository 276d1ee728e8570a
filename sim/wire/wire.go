// Package wire records MCP conversations byte for byte. A Session drives a
// real mcp-go client through the handshake of a spec revision (initialize,
// or server/discover for 2026-07-28), tools/list and any number of calls
// against a mock server, either in process (Open: the exact bytes of
// HandleMessage, which equal what the stdio transport writes) or over the
// stdio transport itself with a tap on both pipes (OpenStdio).
//
// An Exchange is one request and its response; Render shows it as the MCP
// JSON-RPC envelope, as the Messages API tool_use/tool_result pair, or as
// what the model actually reads.
package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// ClientName identifies the simulated agent's client in clientInfo.
const ClientName = "errorlab-agent"

// Direction says who wrote a message.
type Direction string

const (
	ClientToServer Direction = "client→server"
	ServerToClient Direction = "server→client"
)

// Message is one JSON-RPC message exactly as it crossed the wire, without
// the newline that delimits it on stdio.
type Message struct {
	Dir   Direction `json:"dir"`
	Bytes []byte    `json:"-"`

	head *msgHead // parsed once, on first use
}

// MarshalJSON writes {dir, method?, id?, raw} with raw as a JSON string.
func (m Message) MarshalJSON() ([]byte, error) {
	h := head(m.Bytes)
	return json.Marshal(struct {
		Dir    Direction `json:"dir"`
		Method string    `json:"method,omitempty"`
		ID     string    `json:"id,omitempty"`
		Raw    string    `json:"raw"`
	}{m.Dir, h.Method, h.idString(), string(m.Bytes)})
}

// Method is the JSON-RPC method of a request or notification, "" for a
// response or unparsable bytes.
func (m Message) Method() string { return m.parsed().Method }

// ID is the message's id as JSON text ("3", "\"a\"", "null"), "" if none.
func (m Message) ID() string { return m.parsed().idString() }

func (m Message) parsed() msgHead {
	if m.head != nil {
		return *m.head
	}
	return head(m.Bytes)
}

type msgHead struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func (h msgHead) idString() string { return string(h.ID) }

func head(b []byte) msgHead {
	var h msgHead
	_ = json.Unmarshal(b, &h)
	return h
}

// Call is what the simulated client sends: a tools/call of Tool with
// Arguments, or Raw bytes written by hand (malformed JSON, an unknown
// method, an invalid request) that no real client would produce.
type Call struct {
	Tool      string         `json:"tool,omitempty" yaml:"tool,omitempty"`
	Arguments map[string]any `json:"arguments,omitempty" yaml:"arguments,omitempty"`
	Raw       string         `json:"raw,omitempty" yaml:"raw,omitempty"`
}

// Exchange is one request and its response, exactly as sent.
type Exchange struct {
	Revision rules.Revision `json:"spec"`
	Call     Call           `json:"call"`
	Request  []byte         `json:"-"`
	Response []byte         `json:"-"`
}

// Classify applies rules.Classify to the response.
func (e Exchange) Classify() (rules.Classification, error) { return rules.Classify(e.Response) }

// Session is one client connection to a mock server, recording every
// message. Calls on a Session are serialised.
type Session struct {
	Revision rules.Revision
	Server   *mockserver.Server

	callMu sync.Mutex
	client *client.Client
	rec    *recorder
	raw    func(ctx context.Context, raw []byte) ([]byte, error)
	close  func() error
}

// Open starts an in-process session: a real mcp-go client whose transport
// hands each marshalled request to Server.HandleMessage. It performs the
// revision's handshake and tools/list before returning.
func Open(ctx context.Context, srv *mockserver.Server, rev rules.Revision) (*Session, error) {
	rec := &recorder{}
	tr := &byteTransport{srv: srv, rec: rec}
	s := &Session{Revision: rev, Server: srv, rec: rec, raw: tr.sendRaw, close: func() error { return nil }}
	if err := s.start(ctx, tr); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Session) start(ctx context.Context, tr transport.Interface) error {
	s.client = client.NewClient(tr, client.WithProtocolVersion(string(s.Revision)))
	if err := s.client.Start(ctx); err != nil {
		return fmt.Errorf("start client: %w", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = string(s.Revision)
	init.Params.ClientInfo = mcp.Implementation{Name: ClientName, Version: mockserver.Version}
	res, err := s.client.Initialize(ctx, init)
	if err != nil {
		return fmt.Errorf("handshake (%s): %w", s.Revision, err)
	}
	if res.ProtocolVersion != string(s.Revision) {
		return fmt.Errorf("handshake settled on %s, not %s", res.ProtocolVersion, s.Revision)
	}
	if _, err := s.client.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	return nil
}

// Transcript returns every message so far, in wire order.
func (s *Session) Transcript() []Message { return s.rec.snapshot() }

// Close ends the session.
func (s *Session) Close() error { return s.close() }

// Call sends one call and returns its exchange. A protocol error is not a
// Go error here: it is the exchange's response. The error is for a session
// that broke (closed pipes, a cancelled context).
func (s *Session) Call(ctx context.Context, call Call) (Exchange, error) {
	s.callMu.Lock()
	defer s.callMu.Unlock()
	ex := Exchange{Revision: s.Revision, Call: call}
	if call.Raw != "" {
		// One JSON-RPC message is one line on stdio: surrounding whitespace
		// (a YAML block scalar's newline) is not part of it.
		raw := bytes.TrimSpace([]byte(call.Raw))
		if bytes.ContainsAny(raw, "\r\n") {
			return ex, errors.New("hand-written request bytes must be one line: on stdio a newline ends a JSON-RPC message")
		}
		resp, err := s.raw(ctx, raw)
		if err != nil {
			return ex, err
		}
		ex.Request, ex.Response = raw, resp
		return ex, nil
	}
	mark := s.rec.len()
	req := mcp.CallToolRequest{}
	req.Params.Name = call.Tool
	req.Params.Arguments = call.Arguments
	_, err := s.client.CallTool(ctx, req)
	var transportErr *transport.Error
	if err != nil && errors.As(err, &transportErr) {
		return ex, fmt.Errorf("tools/call %s: %w", call.Tool, err)
	}
	ex.Request, ex.Response = s.rec.pair(mark, string(mcp.MethodToolsCall))
	if ex.Request == nil || ex.Response == nil {
		return ex, fmt.Errorf("tools/call %s: no response recorded (%v)", call.Tool, err)
	}
	return ex, nil
}

// recorder keeps the transcript.
type recorder struct {
	mu   sync.Mutex
	msgs []Message
	cond *sync.Cond
}

func (r *recorder) add(dir Direction, b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := head(b)
	r.msgs = append(r.msgs, Message{Dir: dir, Bytes: append([]byte(nil), b...), head: &h})
	if r.cond != nil {
		r.cond.Broadcast()
	}
}

func (r *recorder) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.msgs)
}

func (r *recorder) snapshot() []Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Message(nil), r.msgs...)
}

// pair finds, after index from, the last client request with this method
// and the server message answering its id.
func (r *recorder) pair(from int, method string) (req, resp []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var id string
	for i := len(r.msgs) - 1; i >= from; i-- {
		m := r.msgs[i]
		if m.Dir == ClientToServer && m.Method() == method {
			req, id = m.Bytes, m.ID()
			break
		}
	}
	for i := from; i < len(r.msgs) && req != nil; i++ {
		m := r.msgs[i]
		if m.Dir == ServerToClient && m.ID() == id {
			resp = m.Bytes
		}
	}
	return req, resp
}

// byteTransport is an mcp-go client transport that marshals each message
// exactly as the stdio transport does and hands it to the mock server.
type byteTransport struct {
	srv *mockserver.Server
	rec *recorder
}

func (t *byteTransport) Start(context.Context) error { return nil }
func (t *byteTransport) Close() error                { return nil }
func (t *byteTransport) GetSessionId() string        { return "" }
func (t *byteTransport) SetNotificationHandler(func(mcp.JSONRPCNotification)) {
}

func (t *byteTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	out, err := t.sendRaw(ctx, b)
	if err != nil {
		return nil, err
	}
	var resp transport.JSONRPCResponse
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("unreadable response: %w", err)
	}
	return &resp, nil
}

func (t *byteTransport) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	t.rec.add(ClientToServer, b)
	if out := t.srv.HandleMessage(ctx, b); out != nil {
		t.rec.add(ServerToClient, out)
	}
	return nil
}

func (t *byteTransport) sendRaw(ctx context.Context, b []byte) ([]byte, error) {
	t.rec.add(ClientToServer, b)
	out := t.srv.HandleMessage(ctx, b)
	if out == nil {
		return nil, errors.New("the server sent no response")
	}
	t.rec.add(ServerToClient, out)
	return out, nil
}
