// Package checktest is a misbehaving MCP server over stdio for the tests
// of `errorlab check`: each mode is one way real servers were seen to
// misbehave (a banner on stdout, HTML for an answer, a call that never
// returns, a tool whose inputSchema is `true`, a server that settles on
// an older revision than asked). A test binary becomes the server when
// its TestMain calls Serving first and the variable ModeEnv names a mode,
// so a test can start it as a real process (`--server os.Args[0]`).
package checktest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"time"
)

// ModeEnv names the environment variable that makes a test binary serve.
const ModeEnv = "ERRORLAB_CHECKTEST_SERVER"

// PIDsEnv names a file the server writes its process id and its child's
// to (mode "hang-init" starts a child), one per line.
const PIDsEnv = "ERRORLAB_CHECKTEST_PIDS"

// The modes.
const (
	// OK answers like a well-behaved server with one tool, lookup_order.
	OK = "ok"
	// Banner writes a line that is not JSON-RPC on stdout first.
	Banner = "banner"
	// GarbageList answers tools/list with "<html>500</html>".
	GarbageList = "garbage-list"
	// HangCall never answers a tools/call of a tool it has.
	HangCall = "hang-call"
	// HangInit never answers initialize, and starts a child process that
	// sleeps (so that a test can see the whole process group stopped).
	HangInit = "hang-init"
	// SchemaTrue lists a tool whose inputSchema is true beside lookup_order.
	SchemaTrue = "schema-true"
	// OldSpec refuses server/discover (-32601) and settles on 2025-11-25
	// whatever initialize asks for.
	OldSpec = "old-spec"
	// ErrorAsSuccess answers every call of lookup_order with
	// {"status":"error","message":"order not found"} and no isError.
	ErrorAsSuccess = "error-as-success"
	// AnswerLate answers each tools/call of lookup_order only when the
	// next request comes, with the held call's own id: every answer comes
	// after the client gave up on it, while it waits for another call.
	AnswerLate = "answer-late"
	// ExitOnCall exits with status 3 on the second tools/call of
	// lookup_order, after a line on stderr, without answering it.
	ExitOnCall = "exit-on-call"
)

// Serving makes the process the server when ModeEnv is set, and exits
// when stdin closes; it returns false (doing nothing) otherwise. Call it
// first in TestMain.
func Serving() bool {
	mode := os.Getenv(ModeEnv)
	if mode == "" {
		return false
	}
	if mode == HangInit {
		child := exec.Command("sleep", "600")
		_ = child.Start()
		if f := os.Getenv(PIDsEnv); f != "" && child.Process != nil {
			_ = os.WriteFile(f, []byte(fmt.Sprintf("%d\n%d\n", os.Getpid(), child.Process.Pid)), 0o644)
		}
	}
	Serve(mode, os.Stdin, os.Stdout)
	os.Exit(0)
	return true
}

var lookupOrder = map[string]any{"name": "lookup_order", "description": "Look up an order by its id.",
	"inputSchema": map[string]any{"type": "object", "required": []string{"order_id"},
		"properties": map[string]any{"order_id": map[string]any{"type": "string", "pattern": "^ORD-[0-9]{4}$"},
			"qty": map[string]any{"type": "integer", "minimum": 1, "maximum": 9}}}}

// Serve answers JSON-RPC requests read from in, one per line, on out, in
// the given mode, until in ends.
func Serve(mode string, in io.Reader, out io.Writer) {
	w := bufio.NewWriter(out)
	send := func(v any) {
		if s, ok := v.(string); ok {
			_, _ = w.WriteString(s + "\n")
		} else {
			b, _ := json.Marshal(v)
			_, _ = w.Write(append(b, '\n'))
		}
		_ = w.Flush()
	}
	if mode == Banner {
		send("Starting fake server v1.0 ...")
	}
	tools := []any{lookupOrder}
	if mode == SchemaTrue {
		tools = append(tools, map[string]any{"name": "t3", "inputSchema": true})
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 8<<20)
	var held func() // AnswerLate: the answer to the call held back
	calls := 0
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string         `json:"protocolVersion"`
				Name            string         `json:"name"`
				Arguments       map[string]any `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || len(m.ID) == 0 {
			continue // a notification, or not JSON
		}
		if held != nil {
			held()
			held = nil
		}
		reply := func(result any) { send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}) }
		fail := func(code int, msg string) {
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": code, "message": msg}})
		}
		switch m.Method {
		case "server/discover":
			fail(-32601, "Method not found: server/discover")
		case "initialize":
			if mode == HangInit {
				time.Sleep(time.Hour)
			}
			v := m.Params.ProtocolVersion
			if mode == OldSpec {
				v = "2025-11-25"
			}
			reply(map[string]any{"protocolVersion": v, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "checktest-" + mode, "version": "1"}})
		case "tools/list":
			if mode == GarbageList {
				send("<html>500</html>")
				continue
			}
			reply(map[string]any{"tools": tools})
		case "tools/call":
			if m.Params.Name == "lookup_order" {
				calls++
				switch {
				case mode == ExitOnCall && calls == 2:
					fmt.Fprintln(os.Stderr, "fatal: the order store closed")
					os.Exit(3)
				case mode == AnswerLate:
					name, args := m.Params.Name, m.Params.Arguments
					held = func() { call(mode, name, args, reply, fail) }
					continue
				case mode == ErrorAsSuccess:
					reply(map[string]any{"content": []any{map[string]any{"type": "text", "text": `{"status":"error","message":"order not found"}`}}})
					continue
				}
			}
			call(mode, m.Params.Name, m.Params.Arguments, reply, fail)
		default:
			fail(-32601, "Method not found: "+m.Method)
		}
	}
}

func call(mode, name string, args map[string]any, reply func(any), fail func(int, string)) {
	if name != "lookup_order" && !(mode == SchemaTrue && name == "t3") {
		fail(-32602, "Unknown tool: "+name)
		return
	}
	if mode == HangCall {
		time.Sleep(time.Hour)
	}
	result := func(sc map[string]any, isError bool) {
		b, _ := json.Marshal(sc)
		reply(map[string]any{"content": []any{map[string]any{"type": "text", "text": string(b)}}, "structuredContent": sc, "isError": isError})
	}
	id, _ := args["order_id"].(string)
	if len(id) != 8 || id[:4] != "ORD-" {
		result(map[string]any{"errorCategory": "validation", "isRetryable": false,
			"description": "order_id must look like ORD-1234 (ORD- then four digits); got " + strconv.Quote(fmt.Sprint(args["order_id"])) + ". Example: ORD-4471.",
			"fieldErrors": []any{map[string]any{"field": "order_id", "expected": "ORD-1234"}}, "exampleArguments": map[string]any{"order_id": "ORD-4471"}}, true)
		return
	}
	if q, ok := args["qty"]; ok {
		if n, isNum := q.(float64); !isNum || n < 1 || n > 9 || n != float64(int(n)) {
			result(map[string]any{"errorCategory": "validation", "isRetryable": false,
				"description": "qty must be a whole number from 1 to 9. Example: 2.", "fieldErrors": []any{map[string]any{"field": "qty"}}}, true)
			return
		}
	}
	result(map[string]any{"resultCount": 1, "order": map[string]any{"id": id, "status": "shipped"}}, false)
}
