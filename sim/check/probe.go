package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
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

// HandshakeTimeout is the least time the MCP handshake (initialize) is
// waited for, whatever --timeout says: it includes the server's start.
const HandshakeTimeout = 30 * time.Second

// HandshakeWait is how long a live check waits for the server's start and
// the handshake when each call may take callTimeout: the longer of the two.
func HandshakeWait(callTimeout time.Duration) time.Duration {
	return max(callTimeout, HandshakeTimeout)
}

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
	// Spec is the revision the answers were graded under: the one the
	// handshake settled on (Options.Spec when the server accepted it).
	Spec rules.Revision
	// SpecNote, when the server did not accept the revision asked for,
	// says so and which one the answers were graded under.
	SpecNote string
	// Stopped, when the server stopped answering, says after which call;
	// the calls after it were not made.
	Stopped string
	// Notes are probes the plan could not make, and why (a maximum no
	// number can exceed).
	Notes []string
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
// the server sent, under the revision the handshake settled on. The error
// is for a server that could not be reached, refused the handshake or
// broke the connection before any call (said in plain words: what the
// server did, its stderr), and for arguments that do not fit the server's
// tools (an *ArgsError); answers that break the rules are findings, and a
// server that stops answering midway ends the probe with the answers so
// far (Outcome.Stopped). Cancelling ctx stops the server's process group
// before Live returns.
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
	if err := checkArgsShape(opts); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c, err := open(ctx, t)
	if err != nil {
		return nil, err
	}
	defer func() { _ = c.close() }()
	c.timeout = opts.CallTimeout
	out := &Outcome{Spec: opts.Spec}
	cl := client.NewClient(c.tr, client.WithProtocolVersion(string(opts.Spec)))
	if err := c.tr.Start(ctx); err != nil {
		return nil, c.failure(ctx, "its start", err)
	}
	// The handshake waits at least HandshakeTimeout: a server started
	// with npx or an interpreter can take seconds to come up on a busy
	// machine, and --timeout bounds the calls, not the start.
	c.timeout = HandshakeWait(opts.CallTimeout)
	hctx, hcancel := context.WithTimeout(ctx, c.timeout)
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = string(opts.Spec)
	init.Params.ClientInfo = mcp.Implementation{Name: ClientName, Version: "1"}
	res, err := cl.Initialize(hctx, init)
	hcancel()
	if err != nil {
		return nil, c.failure(ctx, "the MCP handshake (initialize)", err)
	}
	c.timeout = opts.CallTimeout
	out.Protocol = res.ProtocolVersion
	out.Server = strings.TrimSpace(res.ServerInfo.Name + " " + res.ServerInfo.Version)
	out.Spec, out.SpecNote = gradedRevision(opts.Spec, res.ProtocolVersion)
	tools, listed, err := listTools(ctx, cl, c, opts.CallTimeout)
	if err != nil {
		return nil, c.failure(ctx, "tools/list", err)
	}
	out.Tools = tools
	gradeTools := make([]grade.Tool, len(tools))
	for i, tl := range tools {
		gradeTools[i] = tl.Tool
	}
	if listed != nil {
		listed.Tools, listed.Spec = gradeTools, out.Spec
		if r := GradeItem(*listed); len(r.Report.Findings) > 0 {
			out.Results = append(out.Results, r)
		}
	}
	examples, err := parseArgs(opts, tools)
	if err != nil {
		return nil, err
	}
	var plan []Probe
	if opts.Probe {
		plan, out.Skipped, out.Notes = Plan(tools, opts, examples)
	} else {
		args := map[string]any{}
		what := "--tool " + opts.Tool
		if ex := examples[opts.Tool]; len(ex) > 0 {
			args, what = ex[0], what+" --args"
		}
		plan = []Probe{{What: what, Tool: opts.Tool, Args: args}}
	}
	unanswered := 0
	for i, p := range plan {
		if opts.Progress != nil {
			opts.Progress(i, len(plan), p.label())
		}
		req, resp, err := send(ctx, cl, c, p, opts.CallTimeout, i)
		source := p.What
		if opts.Probe {
			source = fmt.Sprintf("probe %d: %s", i+1, p.What)
		}
		it := Item{Source: source, Label: Label(req), Request: req, Response: resp, Tools: gradeTools, Spec: out.Spec}
		if req == nil {
			it.Label = p.wireLabel()
		}
		if err != nil && !json.Valid(resp) {
			// No JSON-RPC answer came: nothing, or what the server sent
			// instead. A server whose process ended, three calls in a row
			// unanswered, or a cancelled run, means the server is gone:
			// stop, and keep what was answered.
			if ctx.Err() != nil {
				return out, c.failure(ctx, fmt.Sprintf("call %d of %d (%s)", i+1, len(plan), p.label()), err)
			}
			if ended := c.ended(err); ended != "" && resp == nil {
				it.Ended = ended
				it.Source += " (the server exited before answering)"
				out.Results = append(out.Results, GradeItem(it))
				out.Stopped = fmt.Sprintf("%s exited (%s) during call %d of %d (%s) without answering it", t.Label(), ended, i+1, len(plan), p.label())
				if i+1 < len(plan) {
					out.Stopped += fmt.Sprintf(", so the last %d calls were not made", len(plan)-i-1)
				}
				if s := c.stderr.String(); s != "" {
					out.Stopped += "; its stderr ended with:\n" + s
				}
				break
			}
			unanswered++
			if resp == nil {
				it.Waited = opts.CallTimeout
				it.Source += fmt.Sprintf(" (no answer within %s)", opts.CallTimeout)
			} else {
				it.Source += fmt.Sprintf(" (no JSON-RPC answer within %s)", opts.CallTimeout)
			}
			out.Results = append(out.Results, GradeItem(it))
			if unanswered == 3 && i+1 < len(plan) {
				out.Stopped = fmt.Sprintf("%s stopped answering: %d calls in a row got no answer within %s, so the last %d of %d calls were not made%s",
					t.Label(), unanswered, opts.CallTimeout, len(plan)-i-1, len(plan), stderrNote(c))
				break
			}
			continue
		}
		unanswered = 0
		out.Results = append(out.Results, GradeItem(it))
	}
	out.Notes = append(out.Notes, lateAnswers(c.rec.Transcript(), out.Results, opts.CallTimeout)...)
	if opts.Progress != nil {
		opts.Progress(len(plan), len(plan), "done")
	}
	if stray := c.strayOutput(out.Results); len(stray) > 0 {
		out.Results = append(out.Results, GradeItem(Item{Source: "lines on stdout that are not JSON-RPC", Label: "stdout", Spec: out.Spec, Stray: stray}))
	}
	out.Transcript = c.rec.Transcript()
	return out, nil
}

// gradedRevision is the revision to grade under when opts asked for
// asked and the handshake settled on negotiated, and a note when they
// differ: the server's answers follow the revision it negotiated, not the
// one it was asked for. A revision older than errorlab's oldest is graded
// under 2025-06-18, whose error rules the older ones share.
func gradedRevision(asked rules.Revision, negotiated string) (rules.Revision, string) {
	if negotiated == "" || negotiated == string(asked) {
		return asked, ""
	}
	if r, err := rules.ParseRevision(negotiated); err == nil {
		return r, fmt.Sprintf("the server did not accept spec %s: it settled on %s, so its answers are graded under %s", asked, negotiated, r)
	}
	if negotiated < string(rules.Revisions[0]) {
		return rules.Revisions[0], fmt.Sprintf("the server did not accept spec %s: it settled on %s, older than errorlab knows, so its answers are graded under %s (the same error rules)", asked, negotiated, rules.Revisions[0])
	}
	return asked, fmt.Sprintf("the server settled on spec %s, which errorlab does not know: its answers are graded under %s", negotiated, asked)
}

// lateAnswers notes each call graded as unanswered whose answer (its own
// id) came later, after the client had given up on it: such an answer is
// never taken for another call's.
func lateAnswers(msgs []wire.Message, results []Result, timeout time.Duration) []string {
	var notes []string
	for _, r := range results {
		if r.Waited == 0 || len(r.Request) == 0 {
			continue
		}
		id := wire.Message{Dir: wire.ClientToServer, Bytes: r.Request}.ID()
		for _, m := range msgs {
			if m.Dir == wire.ServerToClient && m.Method() == "" && m.ID() == id && json.Valid(m.Bytes) {
				notes = append(notes, fmt.Sprintf("%s: the answer (id %s) came after the %s timeout; it was not taken for another call's", r.Source, id, timeout))
				break
			}
		}
	}
	return notes
}

// wireLabel is what Label says of the probe's request: "tools/call NAME"
// or the method.
func (p Probe) wireLabel() string {
	if p.Method != "" {
		return p.Method
	}
	return "tools/call " + p.Tool
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
// the first response the server sent after it whose id is no other
// request's (a response with a wrong id is still the answer, and the
// grader says the id is wrong; a late answer to an earlier call, which
// carries that call's id, is not).
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
	sent := map[string]bool{}
	for _, m := range msgs {
		if m.Dir == wire.ClientToServer && m.Method() != "" {
			sent[m.ID()] = true
		}
	}
	var first []byte
	for _, m := range msgs[at+1:] {
		if m.Dir != wire.ServerToClient || m.Method() != "" {
			continue
		}
		mid := m.ID()
		if mid == id {
			return req, m.Bytes
		}
		if first == nil && !(sent[mid] && mid != "") {
			first = m.Bytes
		}
	}
	return req, first
}

// listTools pages through tools/list and reads each tool's schemas from
// the raw bytes: an SDK's structs would turn a null outputSchema into
// something else, drop members, or refuse the whole list over one tool
// whose inputSchema is not an object. It returns the first page's
// exchange as an Item for the grader (which reports such declarations).
func listTools(ctx context.Context, cl *client.Client, c *conn, timeout time.Duration) ([]ToolInfo, *Item, error) {
	var out []ToolInfo
	var first *Item
	var cursor mcp.Cursor
	for page := 0; page < 100; page++ {
		lctx, cancel := context.WithTimeout(ctx, timeout)
		mark := c.rec.Len()
		req := mcp.ListToolsRequest{}
		req.Params.Cursor = cursor
		_, err := cl.ListTools(lctx, req)
		cancel()
		reqBytes, resp := answer(c.rec.Transcript(), mark, "tools/list")
		var body struct {
			Result *struct {
				Tools      []json.RawMessage `json:"tools"`
				NextCursor string            `json:"nextCursor"`
			} `json:"result"`
			Error *rules.ProtocolError `json:"error"`
		}
		if resp == nil || json.Unmarshal(resp, &body) != nil {
			if err == nil {
				err = errors.New("no answer recorded")
			}
			return nil, nil, err
		}
		if body.Error != nil {
			return nil, nil, fmt.Errorf("tools/list was answered with JSON-RPC error %d: %s", body.Error.Code, clipText(body.Error.Message, 200))
		}
		if body.Result == nil {
			return nil, nil, fmt.Errorf("the tools/list answer has no result: %s", clipText(string(resp), 200))
		}
		if first == nil {
			first = &Item{Source: "tools/list", Label: "tools/list", Request: reqBytes, Response: resp}
		}
		for _, raw := range body.Result.Tools {
			var t struct {
				grade.Tool
				Annotations struct {
					DestructiveHint *bool `json:"destructiveHint"`
				} `json:"annotations"`
				Execution struct {
					TaskSupport string `json:"taskSupport"`
				} `json:"execution"`
			}
			if json.Unmarshal(raw, &t) != nil {
				// Not a tool object, or members of the wrong type: try the
				// name and schemas alone; the grader reports the entry.
				t.Annotations.DestructiveHint, t.Execution.TaskSupport = nil, ""
				if json.Unmarshal(raw, &t.Tool) != nil || t.Name == "" {
					continue
				}
			}
			// The spec's default for destructiveHint is true, but only for a
			// tool that is not read-only; the probe skips only tools that say so.
			out = append(out, ToolInfo{Tool: t.Tool, Destructive: t.Annotations.DestructiveHint != nil && *t.Annotations.DestructiveHint,
				TaskRequired: t.Execution.TaskSupport == "required"})
		}
		if body.Result.NextCursor == "" {
			return out, first, nil
		}
		cursor = mcp.Cursor(body.Result.NextCursor)
	}
	return out, first, errors.New("more than 100 pages of tools")
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// ArgsError is a --tool or --args that does not fit the server's tools: a
// tool name tools/list does not have (Known lists the names it has), or
// arguments of the wrong shape. The command line makes it a usage error.
type ArgsError struct {
	// Flag is "--tool" or "--args".
	Flag string
	// Name is the unknown tool name, "" for a shape problem.
	Name string
	// Known are the tools tools/list gave.
	Known []string
	// Msg says what is wrong when Name is "".
	Msg string
}

func (e *ArgsError) Error() string {
	if e.Name == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s %q: the server has no tool of that name (tools/list gives %s)", e.Flag, e.Name, someNames(e.Known))
}

// someNames lists names for a message: all of a few, the count of many.
func someNames(names []string) string {
	switch {
	case len(names) == 0:
		return "no tools"
	case len(names) <= 8:
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%d tools: %s, …", len(names), strings.Join(names[:8], ", "))
}

// checkArgsShape refuses --args that is not a JSON object, before any
// server is started.
func checkArgsShape(opts Options) error {
	raw := bytes.TrimSpace(opts.Args)
	if len(raw) == 0 {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		if opts.Tool != "" && !opts.Probe {
			return &ArgsError{Flag: "--args", Msg: fmt.Sprintf("--args must be a JSON object of %s's arguments, e.g. --args '{\"path\": \"notes.txt\"}'", opts.Tool)}
		}
		return &ArgsError{Flag: "--args", Msg: "with --probe, --args is a JSON object of examples by tool name, e.g. --args '{\"read_text_file\": {\"path\": \"notes.txt\"}}'"}
	}
	return nil
}

// parseArgs reads --args into example arguments by tool name, once the
// tools are known. --args is a tool's own arguments ({"path": …}) or
// examples by tool name ({"read_text_file": {"path": …}} or an array of
// such objects): by name when every key names a tool and each value is an
// object or an array, or when its only key is --tool's name and that tool
// takes no argument of that name. A name that is no tool is an *ArgsError,
// as is --tool naming no tool.
func parseArgs(opts Options, tools []ToolInfo) (map[string][]map[string]any, error) {
	names := make([]string, len(tools))
	props := map[string]map[string]bool{}
	for i, t := range tools {
		names[i] = t.Name
		var sch struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		_ = json.Unmarshal(t.DeclaredInputSchema(), &sch)
		props[t.Name] = map[string]bool{}
		for k := range sch.Properties {
			props[t.Name][k] = true
		}
	}
	if opts.Tool != "" && !slices.Contains(names, opts.Tool) {
		return nil, &ArgsError{Flag: "--tool", Name: opts.Tool, Known: names}
	}
	out := map[string][]map[string]any{}
	raw := bytes.TrimSpace(opts.Args)
	if len(raw) == 0 {
		return out, nil
	}
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(raw, &obj)
	byName := len(obj) > 0
	for k, v := range obj {
		v = bytes.TrimSpace(v)
		if props[k] == nil || len(v) == 0 || (v[0] != '{' && v[0] != '[') {
			byName = false
		}
	}
	if opts.Tool != "" && len(obj) == 1 && obj[opts.Tool] != nil && !props[opts.Tool][opts.Tool] {
		byName = true
	}
	if !byName && opts.Tool != "" {
		var args map[string]any
		_ = json.Unmarshal(raw, &args)
		out[opts.Tool] = []map[string]any{args}
		return out, nil
	}
	for name, v := range obj {
		if props[name] == nil {
			return nil, &ArgsError{Flag: "--args", Name: name, Known: names}
		}
		if opts.Tool != "" && name != opts.Tool {
			return nil, &ArgsError{Flag: "--args", Msg: fmt.Sprintf("--args gives examples for %s, but --tool %s probes only that tool", name, opts.Tool)}
		}
		v = bytes.TrimSpace(v)
		var one map[string]any
		var many []map[string]any
		switch {
		case len(v) > 0 && v[0] == '{' && json.Unmarshal(v, &one) == nil:
			out[name] = []map[string]any{one}
		case len(v) > 0 && v[0] == '[' && json.Unmarshal(v, &many) == nil:
			out[name] = many
		default:
			return nil, &ArgsError{Flag: "--args", Msg: fmt.Sprintf("--args: the examples for %q must be an object of arguments or an array of them", name)}
		}
	}
	return out, nil
}

// Plan lists the probe's calls for these tools: one unknown tool and one
// unknown method for the server, then for each tool required arguments
// missing, a wrong type, a value out of range where the inputSchema gives
// ranges, and the examples given. Tools with destructiveHint: true are
// skipped (and named in skipped) unless opts.AllowDestructive; notes name
// the probes that could not be made (a range no JSON number can leave).
func Plan(tools []ToolInfo, opts Options, examples map[string][]map[string]any) (plan []Probe, skipped, notes []string) {
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
		probes, note := toolProbes(t.Tool, examples[t.Name])
		plan = append(plan, probes...)
		if note != "" {
			notes = append(notes, t.Name+": "+note)
		}
	}
	return plan, skipped, notes
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

// outOfRange is a value just outside a range the schema gives. note says
// why there is none when the schema gives a range no JSON number can
// leave (a maximum of 1.7976931348623157e308).
func (p schemaProp) outOfRange() (v any, what, note string) {
	if p.Maximum != nil {
		if x, ok := beyond(*p.Maximum, 1); ok {
			return x, fmt.Sprintf("above the maximum %v", *p.Maximum), ""
		}
		note = fmt.Sprintf("no JSON number is above the maximum %v", *p.Maximum)
	}
	if p.Minimum != nil {
		if x, ok := beyond(*p.Minimum, -1); ok {
			return x, fmt.Sprintf("below the minimum %v", *p.Minimum), ""
		}
		note = fmt.Sprintf("no JSON number is below the minimum %v", *p.Minimum)
	}
	switch {
	case isNum(p.ExclMax):
		return p.ExclMax.(float64), fmt.Sprintf("at the exclusive maximum %v", p.ExclMax), ""
	case isNum(p.ExclMin):
		return p.ExclMin.(float64), fmt.Sprintf("at the exclusive minimum %v", p.ExclMin), ""
	case p.MaxLength != nil && *p.MaxLength < 1<<16:
		return strings.Repeat("x", *p.MaxLength+1), fmt.Sprintf("longer than maxLength %d", *p.MaxLength), ""
	case p.MinLength != nil && *p.MinLength > 0:
		return strings.Repeat("x", *p.MinLength-1), fmt.Sprintf("shorter than minLength %d", *p.MinLength), ""
	case p.MaxItems != nil && *p.MaxItems < 1<<10:
		return make([]any, *p.MaxItems+1), fmt.Sprintf("more items than maxItems %d", *p.MaxItems), ""
	case p.MinItems != nil && *p.MinItems > 0:
		return []any{}, fmt.Sprintf("fewer items than minItems %d", *p.MinItems), ""
	}
	return nil, "", note
}

// beyond is a number really past bound in direction dir (+1 above, -1
// below): bound±1 where that differs from bound, else the next float64
// (for 1e308, bound+1 is bound itself); ok is false when that is not a
// finite number JSON can carry.
func beyond(bound float64, dir float64) (float64, bool) {
	if x := bound + dir; x != bound && !math.IsInf(x, 0) {
		return x, true
	}
	x := math.Nextafter(bound, math.Inf(int(dir)))
	return x, !math.IsInf(x, 0) && x != bound
}

func isNum(v any) bool { _, ok := v.(float64); return ok }

// toolProbes are the calls that try one tool, and a note on a probe that
// could not be made.
func toolProbes(t grade.Tool, examples []map[string]any) ([]Probe, string) {
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
	note := ""
	for _, n := range names {
		v, what, why := sch.Properties[n].outOfRange()
		if what != "" {
			out = append(out, Probe{What: n + " " + what, Tool: t.Name, Args: with(n, v)})
			note = ""
			break
		}
		if why != "" && note == "" {
			note = fmt.Sprintf("no out-of-range call: %s for %s", why, n)
		}
	}
	for i, ex := range examples {
		out = append(out, Probe{What: fmt.Sprintf("example %d from --args", i+1), Tool: t.Name, Args: ex})
	}
	return out, note
}
