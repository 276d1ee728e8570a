package serve

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// Exchange is one JSON-RPC request and its response as they crossed the
// wire, with what the server read from them.
type Exchange struct {
	// Seq numbers the exchanges of the whole server, from 1.
	Seq       int
	Session   string
	Transport string
	// Spec is the revision the exchange was served under.
	Spec rules.Revision
	// Received is when the request arrived; Sent when the response left.
	Received, Sent time.Time
	// Request and Response are the bytes exactly as received and sent
	// (without a transport's framing: stdio's newline, HTTP's headers).
	// Response is nil for a notification.
	Request, Response []byte
	// HTTPStatus is the status of an HTTP response (0 over stdio).
	HTTPStatus int
	// HTTPMethod is the HTTP method of a request the transport refused
	// when it was not POST ("GET", "PUT"); "" otherwise.
	HTTPMethod string
	// HTTPBody is the body answered when it was not a JSON-RPC message (a
	// transport refusal's plain text: "Forbidden: the Host header …");
	// Response is nil then.
	HTTPBody string
	// Refused marks a request the HTTP transport refused before any
	// client session took it (no or unknown Mcp-Session-Id, Host or Origin
	// against DNS rebinding, a method or path MCP does not serve, a body
	// mcp-go refused): logged with session "", on no card.
	Refused bool
	// Scenario is the id of the lab scenario served ("" when none), and
	// Style the style failures were written in when it is not good.
	Scenario string
	Style    mockserver.Style
	// Truth is, when failures are written in a bad style, the good
	// style's response to the same tools/call: what really went wrong,
	// which the report card judges the client's move against (see
	// session.shadow). nil under the good style.
	Truth []byte

	// Method is the request's method ("" for bytes that are not a request).
	Method string
	// Tool and Arguments are a tools/call's params.name and params.arguments
	// (arguments compacted, keys sorted).
	Tool      string
	Arguments json.RawMessage
	// Client is the clientInfo the request carries (initialize's, or
	// 2026-07-28's _meta), as "name version".
	Client string
	// Class is rules.Classify of a tools/call's response, shared by
	// exchanges whose responses are equal: read it only.
	Class *rules.Classification
}

// requestHead is what the server reads from a request.
type requestHead struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name            string          `json:"name"`
		Arguments       json.RawMessage `json:"arguments"`
		ProtocolVersion string          `json:"protocolVersion"`
		ClientInfo      *clientInfo     `json:"clientInfo"`
		Meta            struct {
			ProtocolVersion string      `json:"io.modelcontextprotocol/protocolVersion"`
			ClientInfo      *clientInfo `json:"io.modelcontextprotocol/clientInfo"`
		} `json:"_meta"`
	} `json:"params"`
}

type clientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

func (c *clientInfo) String() string {
	if c == nil || c.Name == "" {
		return ""
	}
	if c.Version == "" {
		return c.Name
	}
	return c.Name + " " + c.Version
}

// readHead parses a request's head; ok is false for bytes that are not a
// JSON object of that shape.
func readHead(raw []byte) (h requestHead, ok bool) {
	return h, json.Unmarshal(raw, &h) == nil
}

// client is the clientInfo a request names, "" if none.
func (h requestHead) client() string {
	if c := h.Params.ClientInfo.String(); c != "" && h.Method == "initialize" {
		return c
	}
	return h.Params.Meta.ClientInfo.String()
}

// exchangeOf reads an exchange from its request (head already read) and
// response.
func (s *Server) exchangeOf(req, resp []byte, h requestHead, ok bool) Exchange {
	ex := Exchange{Request: req, Response: resp}
	if !ok {
		return ex
	}
	ex.Method, ex.Client = h.Method, h.client()
	if h.Method == "tools/call" {
		ex.Tool = h.Params.Name
		ex.Arguments = canonicalArgs(h.Params.Arguments)
		ex.Class = s.classify(resp)
	}
	return ex
}

// canonicalArgs is arguments re-encoded with sorted keys and no spaces,
// so two calls compare equal when their arguments are the same values.
// Missing or null arguments are {}.
func canonicalArgs(raw json.RawMessage) json.RawMessage {
	var v any
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return json.RawMessage(`{}`)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// logPreview is how much of a frame over 1 MiB the log keeps (cutFrame).
const logPreview = 256

// LogJSON is the exchange as one line of the exchange log (`errorlab
// serve --log FILE`), newline included: one JSON object per exchange,
//
//	{"time":"<RFC3339Nano, when the request arrived>",
//	 "session":"<client session id>",
//	 "spec":"<revision the exchange was served under>",
//	 "transport":"stdio|http",
//	 "seq":<the exchange's number across the server, from 1>,
//	 "sent":"<RFC3339Nano, when the response left>",
//	 "scenario":"<the lab scenario served, when one is>",
//	 "style":"<the --style failures were written in, when not good>",
//	 "httpStatus":<the HTTP status, when not 200>,
//	 "httpMethod":"<a refused request's HTTP method, when not POST>",
//	 "httpBody":"<a refusal's plain-text body, when it was not JSON-RPC>",
//	 "request":<the JSON-RPC request exactly as received (null: no body)>,
//	 "response":<the JSON-RPC response exactly as sent, or null for a notification>,
//	 "truth":<under a bad --style, the good style's response to the same tools/call>}
//
// request and response are embedded as the JSON they were, byte for byte
// (never re-encoded). Bytes that are not JSON (a malformed frame) are
// embedded as a JSON string holding them, and a frame over 1 MiB as a
// string of its first 256 bytes, "…" and a note saying it was cut and
// its size ("… [cut: the frame was 1048600 bytes, over the 1048576-byte
// (1 MiB) limit; its first 256 bytes are kept]"); a request sent with line
// breaks inside it (possible over HTTP) is compacted onto one line. An
// HTTP status other than 200 is added as "httpStatus". A request the
// HTTP transport refused before any session took it (Exchange.Refused)
// is logged too, with "session":"", its status, "httpMethod" when it was
// not POST, and the body answered: the JSON-RPC error as "response", or
// plain text as "httpBody" with "response":null. `errorlab check`
// reads these lines, and ReadLog replays them (`errorlab lab --replay`):
// seq, sent, scenario, style and truth are what the report card needs
// beyond the exchange itself.
func (ex Exchange) LogJSON() []byte {
	var b bytes.Buffer
	b.Grow(len(ex.Request) + len(ex.Response) + len(ex.Truth) + 220)
	b.WriteString(`{"time":`)
	b.WriteString(strconv.Quote(ex.Received.Format(time.RFC3339Nano)))
	b.WriteString(`,"session":`)
	writeString(&b, ex.Session)
	b.WriteString(`,"spec":`)
	writeString(&b, string(ex.Spec))
	b.WriteString(`,"transport":`)
	writeString(&b, ex.Transport)
	b.WriteString(`,"seq":`)
	b.WriteString(strconv.Itoa(ex.Seq))
	b.WriteString(`,"sent":`)
	b.WriteString(strconv.Quote(ex.Sent.Format(time.RFC3339Nano)))
	if ex.Scenario != "" {
		b.WriteString(`,"scenario":`)
		writeString(&b, ex.Scenario)
	}
	if ex.Style != "" && ex.Style != mockserver.StyleGood {
		b.WriteString(`,"style":`)
		writeString(&b, string(ex.Style))
	}
	if ex.HTTPStatus != 0 && ex.HTTPStatus != 200 {
		b.WriteString(`,"httpStatus":`)
		b.WriteString(strconv.Itoa(ex.HTTPStatus))
	}
	if ex.HTTPMethod != "" {
		b.WriteString(`,"httpMethod":`)
		writeString(&b, ex.HTTPMethod)
	}
	if ex.HTTPBody != "" {
		b.WriteString(`,"httpBody":`)
		writeString(&b, ex.HTTPBody)
	}
	b.WriteString(`,"request":`)
	if ex.Refused && len(ex.Request) == 0 {
		b.WriteString("null") // a GET or DELETE: no body
	} else {
		writeRaw(&b, ex.Request)
	}
	b.WriteString(`,"response":`)
	if ex.Response == nil {
		b.WriteString("null")
	} else {
		writeRaw(&b, ex.Response)
	}
	if ex.Truth != nil {
		b.WriteString(`,"truth":`)
		writeRaw(&b, ex.Truth)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// writeRaw embeds raw as JSON: as it is when it is JSON on one line,
// compacted when it is JSON over several lines, else as a string.
func writeRaw(b *bytes.Buffer, raw []byte) {
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && json.Valid(t) {
		if bytes.ContainsAny(t, "\r\n") {
			_ = json.Compact(b, t)
			return
		}
		b.Write(t)
		return
	}
	if len(raw) > mockserver.MaxMessageBytes {
		raw = cutFrame(raw, int64(len(raw)))
	}
	writeString(b, string(raw))
}

// writeString writes s as a JSON string, with <, > and & kept as they are.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode's newline
}

// Bounds of a Server's memory of classified responses (classify).
const (
	classifiedBytes = 4 << 10
	classifiedMax   = 256
)

// classifyCache is the Server's memory of recent responses' classification,
// by their bytes.
type classifyCache struct {
	mu sync.Mutex
	m  map[string]*rules.Classification
}

// classify is rules.Classify(resp), nil when resp is not a JSON-RPC
// response. Classify is a function of the bytes alone, and a mock server
// answers a call asked again with the same bytes (a lookup that succeeds,
// an empty search), so each distinct response of up to 4 KiB is read
// once and its classification shared by every exchange that got it (read
// it only): the last 256 are remembered (when full, the memory starts
// afresh).
func (s *Server) classify(resp []byte) *rules.Classification {
	c := &s.classified
	small := len(resp) <= classifiedBytes
	if small {
		c.mu.Lock()
		cl := c.m[string(resp)]
		c.mu.Unlock()
		if cl != nil {
			return cl
		}
	}
	cl, err := rules.Classify(resp)
	if err != nil {
		return nil
	}
	if small {
		c.mu.Lock()
		if c.m == nil || len(c.m) >= classifiedMax {
			c.m = make(map[string]*rules.Classification, classifiedMax)
		}
		c.m[string(resp)] = &cl
		c.mu.Unlock()
	}
	return &cl
}
