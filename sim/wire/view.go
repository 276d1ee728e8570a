package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/errorlab/errorlab/sim/rules"
)

// View is one way of looking at an exchange.
type View string

const (
	// ViewMCP is the JSON-RPC request and response as they crossed the wire.
	ViewMCP View = "mcp"
	// ViewMessages is the same call as a Messages API host writes it: a
	// tool_use block and the tool_result block (is_error) it sends back.
	ViewMessages View = "messages"
	// ViewModel is what lands in the model's context: the text it reads.
	ViewModel View = "model"
)

// Views lists the views in the order `v` cycles them.
var Views = []View{ViewMCP, ViewMessages, ViewModel}

// Label names the view on screen.
func (v View) Label() string {
	switch v {
	case ViewMessages:
		return "Messages API"
	case ViewModel:
		return "What the model sees"
	}
	return "MCP JSON-RPC"
}

// Next returns the view after v, wrapping around.
func (v View) Next() View {
	for i, x := range Views {
		if x == v {
			return Views[(i+1)%len(Views)]
		}
	}
	return ViewMCP
}

// Pane is one side of an exchange as a view renders it. JSON panes hold
// indented JSON; the others hold plain text.
type Pane struct {
	Title string
	Body  string
	JSON  bool
}

// Render returns the request and response panes of an exchange in a view.
func Render(ex Exchange, v View) (request, response Pane) {
	switch v {
	case ViewMessages:
		return messagesView(ex)
	case ViewModel:
		return modelView(ex)
	}
	return Pane{Title: "Request (client → server)", Body: Pretty(ex.Request), JSON: json.Valid(ex.Request)},
		Pane{Title: "Response (server → client)", Body: Pretty(ex.Response), JSON: json.Valid(ex.Response)}
}

// Pretty indents JSON with two spaces; bytes that are not JSON come back
// as they are.
func Pretty(b []byte) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return string(b)
	}
	return buf.String()
}

// ToolUseID is the Messages API id errorlab gives a call, stable for the
// same request bytes.
func ToolUseID(request []byte) string {
	h := fnv.New64a()
	_, _ = h.Write(request)
	return fmt.Sprintf("toolu_01%016x", h.Sum64())
}

// toolResultBlock is the Messages API tool_result content block.
type toolResultBlock struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error,omitempty"`
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// ToolResult converts an MCP response into the Messages API tool_result a
// host sends back to the model (LESSON-RULES §7: isError becomes
// is_error). Only text content travels; structuredContent does not. For a
// protocol error there is no tool result; hostNote is the text a host
// typically writes instead, and hostWritten is true.
func ToolResult(ex Exchange) (block []byte, hostWritten bool) {
	id := ToolUseID(ex.Request)
	env, err := rules.ParseEnvelope(ex.Response)
	if err != nil {
		return nil, false
	}
	if env.Error != nil {
		content, _ := json.Marshal(hostErrorText(env.Error))
		b, _ := json.Marshal(toolResultBlock{Type: "tool_result", ToolUseID: id, Content: content, IsError: true})
		return b, true
	}
	blocks := []textBlock{}
	for _, t := range env.Result.Texts() {
		blocks = append(blocks, textBlock{Type: "text", Text: t})
	}
	content, _ := json.Marshal(blocks)
	b, _ := json.Marshal(toolResultBlock{Type: "tool_result", ToolUseID: id, Content: content, IsError: env.Result.IsError})
	return b, false
}

func hostErrorText(e *rules.ProtocolError) string {
	return fmt.Sprintf("Error: MCP error %d: %s", e.Code, e.Message)
}

func messagesView(ex Exchange) (Pane, Pane) {
	req := Pane{Title: "tool_use (model → host)", JSON: true}
	if ex.Call.Raw != "" {
		req.Body = "These request bytes came from a broken client, not from a tool_use block: whatever the model asked for, this is what went out on the wire, so no tool_use matches it."
		req.JSON = false
	} else {
		args := ex.Call.Arguments
		if args == nil {
			args = map[string]any{}
		}
		b, _ := json.Marshal(struct {
			Type  string         `json:"type"`
			ID    string         `json:"id"`
			Name  string         `json:"name"`
			Input map[string]any `json:"input"`
		}{"tool_use", ToolUseID(ex.Request), ex.Call.Tool, args})
		req.Body = Pretty(b)
	}
	block, hostWritten := ToolResult(ex)
	resp := Pane{Title: "tool_result (host → model)", Body: Pretty(block), JSON: true}
	if block == nil {
		resp = Pane{Title: "tool_result (host → model)", Body: "The response is not JSON-RPC; a host has nothing to convert."}
	}
	if hostWritten {
		resp.Title = "tool_result written by the host, not the tool"
	}
	return req, resp
}

func modelView(ex Exchange) (Pane, Pane) {
	req := Pane{Title: "The model asked for"}
	if ex.Call.Raw != "" {
		req.Body = "What the model asked for never reached the server intact: a broken client sent the bytes shown in the MCP view instead."
	} else {
		args, _ := json.Marshal(ex.Call.Arguments)
		if ex.Call.Arguments == nil {
			args = []byte("{}")
		}
		req.Body = fmt.Sprintf("%s(%s)", ex.Call.Tool, args)
	}
	resp := Pane{Title: "The model reads"}
	env, err := rules.ParseEnvelope(ex.Response)
	switch {
	case err != nil:
		resp.Body = "Nothing readable came back."
	case env.Error != nil:
		how := "the request was rejected at the protocol layer, before any tool ran."
		if env.Error.Code == -32603 {
			how = "the server answered with a JSON-RPC error instead of a result. The tool's handler may well have run and failed; its failure came back on the protocol layer."
		}
		resp.Body = "No tool result: " + how + " Whatever the model reads here is written by the host, not the tool. A typical host says only:\n\n    " +
			hostErrorText(env.Error) + "\n\nThere is no errorCategory, no isRetryable and no description to act on."
	default:
		var b strings.Builder
		if env.Result.IsError {
			b.WriteString("[tool result, marked as an error]\n\n")
		} else {
			b.WriteString("[tool result]\n\n")
		}
		texts := env.Result.Texts()
		if len(texts) == 0 {
			b.WriteString("(nothing: the result has no text block. structuredContent does not reach a model whose host passes on only content.)")
		}
		for i, t := range texts {
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(t)
		}
		resp.Body = b.String()
	}
	return req, resp
}
