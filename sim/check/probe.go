package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// ClientName identifies errorlab's probe in clientInfo.
const ClientName = "errorlab-check"

// DefaultCallTimeout bounds each call of a live check.
const DefaultCallTimeout = 30 * time.Second

// unknownToolName and unknownMethod are what the probe sends to learn how
// a server answers a tool and a method it does not have.
const (
	unknownToolName = "errorlab_probe_no_such_tool"
	unknownMethod   = "errorlab/no-such-method"
)

// Options configure a live check.
type Options struct {
	// Spec is the revision the answers are graded under (default
	// 2025-11-25); the handshake asks for it too.
	Spec rules.Revision
	// Probe calls every tool the ways of Plan; otherwise Tool is called
	// once with Args.
	Probe bool
	// Tool names the tool to call (or, with Probe, the only tool to probe).
	Tool string
	// Args is a JSON object. Without Probe: Tool's arguments. With Probe:
	// example arguments to call as well, by tool name ({"NAME": {…}} or
	// {"NAME": [{…}, …]}), or, when Tool is set, that tool's arguments.
	Args json.RawMessage
	// AllowDestructive lets the probe call tools whose annotations say
	// destructiveHint: true.
	AllowDestructive bool
	// CallTimeout bounds each call (default DefaultCallTimeout).
	CallTimeout time.Duration
	// Progress, when set, is told before each call: done of total calls
	// made, and what is being sent.
	Progress func(done, total int, what string)
}

// ToolInfo is a tool as tools/list described it.
type ToolInfo struct {
	grade.Tool
	// Destructive: the annotations say destructiveHint: true.
	Destructive bool
	// TaskRequired: execution.taskSupport is "required", so a plain
	// tools/call (all the probe makes) is refused whatever its arguments.
	TaskRequired bool
}

// Outcome is what a live check found.
type Outcome struct {
	// Protocol is the revision the handshake settled on.
	Protocol string
	// Server is the server's name and version from the handshake.
	Server string
	Tools  []ToolInfo
	// Results are the graded answers, in the order the calls were made.
	Results []Result
	// Skipped says which tools were not called and why.
	Skipped []string
	// Transcript is every message of the conversation, in wire order.
	Transcript []wire.Message
}

// Probe is one call the probe makes.
type Probe struct {
	// What says what was sent, e.g. "order_id missing".
	What string
	Tool string
	Args map[string]any
	// Method, when set, is sent instead of a tools/call.
	Method string
}

// Live connects to the target, performs the handshake, lists the tools
// and makes the calls opts asks for, grading every answer from the bytes
// the server sent. The error is for a server that could not be reached,
// refused the handshake, or broke the connection; answers that break the
// rules are findings, not errors.
func Live(ctx context.Context, t Target, opts Options) (*Outcome, error) {
	if opts.Spec == "" {
		opts.Spec = rules.DefaultRevision
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if !opts.Probe && opts.Tool == "" {
		return nil, errors.New("say what to call: --tool NAME (with --args JSON), or --probe to try every tool")
	}
	examples, err := parseArgs(opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c, err := open(ctx, t)
	if err != nil {
		return nil, err
	}
	defer func() { _ = c.close() }()
	out := &Outcome{}
	cl := client.NewClient(c.tr, client.WithProtocolVersion(string(opts.Spec)))
	if err := c.tr.Start(ctx); err != nil {
		return nil, fmt.Errorf("cannot talk to %s: %v", t.Label(), err)
	}
	hctx, hcancel := context.WithTimeout(ctx, opts.CallTimeout)
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = string(opts.Spec)
	init.Params.ClientInfo = mcp.Implementation{Name: ClientName, Version: "1"}
	res, err := cl.Initialize(hctx, init)
	hcancel()
	if err != nil {
		return nil, fmt.Errorf("%s did not complete the MCP handshake: %v%s", t.Label(), err, stderrNote(c))
	}
	out.Protocol = res.ProtocolVersion
	out.Server = strings.TrimSpace(res.ServerInfo.Name + " " + res.ServerInfo.Version)
	tools, err := listTools(ctx, cl, c.rec, opts.CallTimeout)
	if err != nil {
		return nil, fmt.Errorf("%s: tools/list failed: %v%s", t.Label(), err, stderrNote(c))
	}
	out.Tools = tools
	var plan []Probe
	if opts.Probe {
		plan, out.Skipped = Plan(tools, opts, examples)
	} else {
		args := map[string]any{}
		if ex := examples[opts.Tool]; len(ex) > 0 {
			args = ex[0]
		}
		plan = []Probe{{What: "the call asked for", Tool: opts.Tool, Args: args}}
	}
	gradeTools := make([]grade.Tool, len(tools))
	for i, tl := range tools {
		gradeTools[i] = tl.Tool
	}
	unanswered := 0
	for i, p := range plan {
		if opts.Progress != nil {
			opts.Progress(i, len(plan), p.label())
		}
		req, resp, err := send(ctx, cl, c, p, opts.CallTimeout, i)
		it := Item{Source: fmt.Sprintf("probe %d: %s", i+1, p.What), Label: Label(req), Request: req, Response: resp,
			Tools: gradeTools, Spec: opts.Spec}
		if resp == nil {
			// No JSON-RPC answer came (a timeout, an HTTP error without a
			// body): graded as the empty answer it is. Three in a row, or
			// a cancelled run, means the server is gone.
			unanswered++
			if unanswered == 3 || ctx.Err() != nil {
				return out, fmt.Errorf("%s stopped answering (%s): %v%s", t.Label(), p.label(), err, stderrNote(c))
			}
			it.Source += fmt.Sprintf(" (no answer: %v)", err)
			if req == nil {
				it.Label = p.label()
			}
		} else {
			unanswered = 0
		}
		out.Results = append(out.Results, GradeItem(it))
	}
	if opts.Progress != nil {
		opts.Progress(len(plan), len(plan), "done")
	}
	out.Transcript = c.rec.Transcript()
	return out, nil
}

func (p Probe) label() string {
	if p.Method != "" {
		return p.Method + ": " + p.What
	}
	return p.Tool + ": " + p.What
}

// stderrNote says how the server's process ended, if it did, and what
// its stderr ended with, for an error message.
func stderrNote(c *conn) string {
	var note string
	if c.exit != nil {
		time.Sleep(50 * time.Millisecond) // a process that is exiting has its status a moment later
		if e := c.exit(); e != "" {
			note = " (the server's process ended: " + e + ")"
		}
	}
	if s := c.stderr.String(); s != "" {
		note += "\nthe server's stderr ended with:\n" + s
	}
	return note
}

// send makes one probe call and returns the exact request and response
// bytes. A response that does not come is an error with resp nil.
func send(ctx context.Context, cl *client.Client, c *conn, p Probe, timeout time.Duration, n int) (req, resp []byte, err error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	mark := c.rec.Len()
	method := "tools/call"
	if p.Method != "" {
		method = p.Method
		_, err = c.tr.SendRequest(cctx, transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION,
			ID: mcp.NewRequestId(fmt.Sprintf("errorlab-probe-%d", n+1)), Method: p.Method, Params: map[string]any{}})
	} else {
		r := mcp.CallToolRequest{}
		r.Params.Name = p.Tool
		r.Params.Arguments = p.Args
		_, err = cl.CallTool(cctx, r)
	}
	req, resp = answer(c.rec.Transcript(), mark, method)
	if resp == nil && err == nil {
		err = errors.New("no answer recorded")
	}
	return req, resp, err
}

// answer finds, from message mark on, the last request with method and
// the server's answer to it: the message with its id or, failing that,
// the first response the server sent after it (a response with a wrong id
// is still the answer, and the grader says the id is wrong).
func answer(msgs []wire.Message, mark int, method string) (req, resp []byte) {
	at := -1
	for i := len(msgs) - 1; i >= mark && i >= 0; i-- {
		if msgs[i].Dir == wire.ClientToServer && msgs[i].Method() == method {
			at, req = i, msgs[i].Bytes
			break
		}
	}
	if at < 0 {
		return nil, nil
	}
	id := msgs[at].ID()
	var first []byte
	for _, m := range msgs[at+1:] {
		if m.Dir != wire.ServerToClient || m.Method() != "" {
			continue
		}
		if m.ID() == id {
			return req, m.Bytes
		}
		if first == nil {
			first = m.Bytes
		}
	}
	return req, first
}

// listTools pages through tools/list and reads each tool's schemas from
// the raw bytes (an SDK's structs would turn a null outputSchema into
// something else, or drop members).
func listTools(ctx context.Context, cl *client.Client, rec *wire.Recorder, timeout time.Duration) ([]ToolInfo, error) {
	var out []ToolInfo
	var cursor mcp.Cursor
	for page := 0; page < 100; page++ {
		lctx, cancel := context.WithTimeout(ctx, timeout)
		mark := rec.Len()
		req := mcp.ListToolsRequest{}
		req.Params.Cursor = cursor
		_, err := cl.ListTools(lctx, req)
		cancel()
		if err != nil {
			return nil, err
		}
		_, resp := answer(rec.Transcript(), mark, "tools/list")
		var body struct {
			Result struct {
				Tools []struct {
					grade.Tool
					Annotations struct {
						DestructiveHint *bool `json:"destructiveHint"`
					} `json:"annotations"`
					Execution struct {
						TaskSupport string `json:"taskSupport"`
					} `json:"execution"`
				} `json:"tools"`
				NextCursor string `json:"nextCursor"`
			} `json:"result"`
		}
		if err := json.Unmarshal(resp, &body); err != nil {
			return nil, fmt.Errorf("unreadable tools/list answer: %v", err)
		}
		for _, t := range body.Result.Tools {
			// The spec's default for destructiveHint is true, but only for a
			// tool that is not read-only; the probe skips only tools that say so.
			out = append(out, ToolInfo{Tool: t.Tool, Destructive: t.Annotations.DestructiveHint != nil && *t.Annotations.DestructiveHint,
				TaskRequired: t.Execution.TaskSupport == "required"})
		}
		if body.Result.NextCursor == "" {
			return out, nil
		}
		cursor = mcp.Cursor(body.Result.NextCursor)
	}
	return out, errors.New("more than 100 pages of tools")
}

// parseArgs reads --args into example arguments by tool name.
func parseArgs(opts Options) (map[string][]map[string]any, error) {
	out := map[string][]map[string]any{}
	raw := bytes.TrimSpace(opts.Args)
	if len(raw) == 0 {
		return out, nil
	}
	if opts.Tool != "" {
		var args map[string]any
		if err := json.Unmarshal(raw, &args); err != nil || args == nil {
			return nil, fmt.Errorf("--args must be a JSON object of %s's arguments, e.g. --args '{\"path\": \"notes.txt\"}'", opts.Tool)
		}
		out[opts.Tool] = []map[string]any{args}
		return out, nil
	}
	var byTool map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byTool); err != nil || byTool == nil {
		return nil, errors.New("with --probe and no --tool, --args is a JSON object of examples by tool name, e.g. --args '{\"read_text_file\": {\"path\": \"notes.txt\"}}'")
	}
	for name, v := range byTool {
		v = bytes.TrimSpace(v)
		var one map[string]any
		var many []map[string]any
		switch {
		case len(v) > 0 && v[0] == '{' && json.Unmarshal(v, &one) == nil:
			out[name] = []map[string]any{one}
		case len(v) > 0 && v[0] == '[' && json.Unmarshal(v, &many) == nil:
			out[name] = many
		default:
			return nil, fmt.Errorf("--args: the examples for %q must be an object of arguments or an array of them", name)
		}
	}
	return out, nil
}

// Plan lists the probe's calls for these tools: one unknown tool and one
// unknown method for the server, then for each tool required arguments
// missing, a wrong type, a value out of range where the inputSchema gives
// ranges, and the examples given. Tools with destructiveHint: true are
// skipped (and named in skipped) unless opts.AllowDestructive.
func Plan(tools []ToolInfo, opts Options, examples map[string][]map[string]any) (plan []Probe, skipped []string) {
	plan = append(plan,
		Probe{What: "unknown tool", Tool: unknownToolName, Args: map[string]any{}},
		Probe{What: "unknown method", Method: unknownMethod})
	for _, t := range tools {
		if opts.Tool != "" && t.Name != opts.Tool {
			continue
		}
		if t.Destructive && !opts.AllowDestructive {
			skipped = append(skipped, fmt.Sprintf("%s: its annotations say destructiveHint: true (--allow-destructive calls it)", t.Name))
			continue
		}
		if t.TaskRequired {
			skipped = append(skipped, fmt.Sprintf("%s: it runs only as a task (execution.taskSupport: required), which the probe does not use", t.Name))
			continue
		}
		plan = append(plan, toolProbes(t.Tool, examples[t.Name])...)
	}
	if opts.Tool != "" && len(plan) == 2 && len(skipped) == 0 {
		skipped = append(skipped, fmt.Sprintf("%s: tools/list has no tool of that name", opts.Tool))
	}
	return plan, skipped
}

// schemaProp is the part of a property's JSON Schema the probe reads.
type schemaProp struct {
	Type      any       `json:"type"`
	Enum      []any     `json:"enum"`
	Default   any       `json:"default"`
	Examples  []any     `json:"examples"`
	Minimum   *float64  `json:"minimum"`
	Maximum   *float64  `json:"maximum"`
	ExclMin   any       `json:"exclusiveMinimum"`
	ExclMax   any       `json:"exclusiveMaximum"`
	MinLength *int      `json:"minLength"`
	MaxLength *int      `json:"maxLength"`
	MinItems  *int      `json:"minItems"`
	MaxItems  *int      `json:"maxItems"`
	Items     *struct{} `json:"items"`
}

func (p schemaProp) typ() string {
	switch t := p.Type.(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				return s
			}
		}
	}
	if len(p.Enum) > 0 {
		switch p.Enum[0].(type) {
		case float64:
			return "number"
		case bool:
			return "boolean"
		}
		return "string"
	}
	return ""
}

// sample is a plausible valid value for a property.
func (p schemaProp) sample() any {
	switch {
	case len(p.Examples) > 0:
		return p.Examples[0]
	case len(p.Enum) > 0:
		return p.Enum[0]
	case p.Default != nil:
		return p.Default
	}
	switch p.typ() {
	case "integer", "number":
		if p.Minimum != nil {
			return *p.Minimum
		}
		return 1
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	return "errorlab-probe"
}

// wrong is a value of another type than the property's.
func (p schemaProp) wrong() (any, string) {
	switch p.typ() {
	case "string":
		return 12345, "a number for a string"
	case "integer", "number":
		return "not-a-number", "a string for a number"
	case "boolean":
		return "yes", "a string for a boolean"
	case "array":
		return "not-an-array", "a string for an array"
	case "object":
		return "not-an-object", "a string for an object"
	}
	return nil, ""
}

// outOfRange is a value just outside a range the schema gives.
func (p schemaProp) outOfRange() (any, string) {
	switch {
	case p.Maximum != nil:
		return *p.Maximum + 1, fmt.Sprintf("above the maximum %v", *p.Maximum)
	case p.Minimum != nil:
		return *p.Minimum - 1, fmt.Sprintf("below the minimum %v", *p.Minimum)
	case isNum(p.ExclMax):
		return p.ExclMax.(float64), fmt.Sprintf("at the exclusive maximum %v", p.ExclMax)
	case isNum(p.ExclMin):
		return p.ExclMin.(float64), fmt.Sprintf("at the exclusive minimum %v", p.ExclMin)
	case p.MaxLength != nil && *p.MaxLength < 1<<16:
		return strings.Repeat("x", *p.MaxLength+1), fmt.Sprintf("longer than maxLength %d", *p.MaxLength)
	case p.MinLength != nil && *p.MinLength > 0:
		return strings.Repeat("x", *p.MinLength-1), fmt.Sprintf("shorter than minLength %d", *p.MinLength)
	case p.MaxItems != nil && *p.MaxItems < 1<<10:
		return make([]any, *p.MaxItems+1), fmt.Sprintf("more items than maxItems %d", *p.MaxItems)
	case p.MinItems != nil && *p.MinItems > 0:
		return []any{}, fmt.Sprintf("fewer items than minItems %d", *p.MinItems)
	}
	return nil, ""
}

func isNum(v any) bool { _, ok := v.(float64); return ok }

// toolProbes are the calls that try one tool.
func toolProbes(t grade.Tool, examples []map[string]any) []Probe {
	var sch struct {
		Properties map[string]schemaProp `json:"properties"`
		Required   []string              `json:"required"`
	}
	_ = json.Unmarshal(t.DeclaredInputSchema(), &sch)
	names := make([]string, 0, len(sch.Properties))
	for n := range sch.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	// Required first, so a wrong type lands on an argument the tool reads.
	sort.SliceStable(names, func(i, j int) bool {
		return slices.Contains(sch.Required, names[i]) && !slices.Contains(sch.Required, names[j])
	})
	base := map[string]any{}
	if len(examples) > 0 {
		for k, v := range examples[0] {
			base[k] = v
		}
	}
	for _, n := range sch.Required {
		if _, ok := base[n]; !ok {
			if p, ok := sch.Properties[n]; ok {
				base[n] = p.sample()
			} else {
				base[n] = "errorlab-probe"
			}
		}
	}
	with := func(name string, v any) map[string]any {
		m := make(map[string]any, len(base)+1)
		for k, x := range base {
			m[k] = x
		}
		m[name] = v
		return m
	}
	var out []Probe
	if len(sch.Required) > 0 {
		args := map[string]any{}
		for k, v := range base {
			if !slices.Contains(sch.Required, k) {
				args[k] = v
			}
		}
		out = append(out, Probe{What: strings.Join(sch.Required, ", ") + " missing", Tool: t.Name, Args: args})
	}
	for _, n := range names {
		if v, what := sch.Properties[n].wrong(); what != "" {
			out = append(out, Probe{What: n + ": " + what, Tool: t.Name, Args: with(n, v)})
			break
		}
	}
	for _, n := range names {
		if v, what := sch.Properties[n].outOfRange(); what != "" {
			out = append(out, Probe{What: n + " " + what, Tool: t.Name, Args: with(n, v)})
			break
		}
	}
	for i, ex := range examples {
		out = append(out, Probe{What: fmt.Sprintf("example %d from --args", i+1), Tool: t.Name, Args: ex})
	}
	return out
}
