// Package mockserver is errorlab's embedded MCP server: a small
// customer-support back office (get_customer, customer_lookup,
// lookup_order, process_refund, escalate_to_human, search_support_tickets)
// built on mcp-go, with failure injection per tool, the good and bad
// response styles of the lessons, and the input-validation layer of each
// spec revision (LESSON-RULES §1).
//
// The lab, the simulated agents, `errorlab serve` and the tests all use it
// as it is. It practises what it teaches: no stack trace or internal detail
// reaches a tool result unless the raw_exception style asks for exactly
// that anti-pattern; details of unexpected faults go to Options.Log under a
// correlationId.
package mockserver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/errorlab/errorlab/sim/rules"
)

// Name and Version identify the mock server in serverInfo.
const (
	Name    = "errorlab-mock"
	Version = "0.1.0"
)

// Options configure a Server.
type Options struct {
	// Style is how failures are written (default StyleGood).
	Style Style
	// Revision is the spec revision assumed for requests whose revision the
	// server cannot learn from an initialize handshake or from _meta
	// (default rules.DefaultRevision).
	Revision rules.Revision
	// Faults injects failures by tool name; the key "*" applies to every tool
	// without its own entry.
	Faults map[string]Fault
	// Sequence injects failures call by call: the nth call of a tool (the
	// first is 1) gets Sequence[tool][n-1]; calls past the end of a tool's
	// list get Faults as usual. `errorlab serve --script` fills it.
	Sequence map[string][]Fault
	// FailureModes adds the practice argument failure_mode to every tool
	// (the lesson's build exercise): the declarations list each mode and
	// what it teaches, and a call that names a mode fails that way (see
	// FailureModeNames). customer_lookup keeps its own modes as they are.
	FailureModes bool
	// Newest is the newest revision the server offers ("" offers every
	// revision mcp-go knows): initialize answers at most this revision and
	// server/discover lists only the revisions up to it, so a client
	// settles on it or older. `errorlab serve --spec` sets it.
	Newest rules.Revision
	// Clock gives the server's time in seconds, read when a call's context
	// carries no virtual time (WithVirtualTime): with it, a rate limit
	// holds until its retryAfterSeconds have passed on this clock. nil
	// means calls without virtual time are timeless.
	Clock func() float64
	// Log receives what must never reach a tool result: the detail behind a
	// correlationId, recovered panics. Default: discarded.
	Log io.Writer
	// RandomCorrelationIDs gives every incident a correlationId of its own,
	// random (crypto/rand): two sessions or two processes never share one,
	// as a real server's would not (LESSON-RULES §6: the id finds the
	// detail in the server's log). Off, ids are derived from the tool, the
	// arguments and the attempt, so the lab's transcripts, goldens and
	// replays are the same on every run. `errorlab serve` sets it.
	RandomCorrelationIDs bool
}

// Server is one mock MCP server. It is safe for concurrent use, but a
// stdio session (ServeStdio) needs a Server of its own.
type Server struct {
	opts      Options
	mcp       *server.MCPServer
	validator *inputValidator
	log       *log.Logger

	mu           sync.Mutex
	attemptsBy   map[string]int
	limitedUntil map[string]float64 // virtual time a rate limit lifts, by tool
	serial       int
	negotiated   rules.Revision
	timedOut     map[string]bool // failure_mode timeout: calls (tool+arguments) that timed out once
}

var sharedValidator = sync.OnceValue(newInputValidator)

// New builds a server with every tool registered.
func New(opts Options) *Server {
	if opts.Style == "" {
		opts.Style = StyleGood
	}
	if opts.Revision == "" {
		opts.Revision = rules.DefaultRevision
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	s := &Server{
		opts:         opts,
		validator:    sharedValidator(),
		log:          log.New(opts.Log, "errorlab-mock ", log.LstdFlags|log.LUTC),
		attemptsBy:   map[string]int{},
		limitedUntil: map[string]float64{},
		timedOut:     map[string]bool{},
	}
	if opts.FailureModes {
		s.validator = sharedModesValidator()
	}
	sopts := []server.ServerOption{
		server.WithToolCapabilities(false),
		// Outermost: mcp-go's own recovery, which turns a panic into a
		// -32603 carrying the panic text. Only the bad styles reach it.
		server.WithRecovery(),
		server.WithToolHandlerMiddleware(s.recoverPanics),
	}
	// initialize answers a revision the lab teaches (mcp-go would echo
	// 2024-11-05 or 2025-03-26, and assume 2025-03-26 when none is asked):
	// the one asked when it is offered, else the newest offered one a
	// handshake can settle on (answerVersion). mcp-go's session is told
	// too, so the transport's header checks hold the client to it.
	hooks := &server.Hooks{}
	hooks.AddAfterInitialize(func(ctx context.Context, _ any, req *mcp.InitializeRequest, res *mcp.InitializeResult) {
		if res == nil || req == nil {
			return
		}
		v := string(s.answerVersion(req.Params.ProtocolVersion))
		if res.ProtocolVersion == v {
			return
		}
		res.ProtocolVersion = v
		if vs, ok := server.ClientSessionFromContext(ctx).(interface{ SetProtocolVersion(string) }); ok {
			vs.SetProtocolVersion(v)
		}
	})
	sopts = append(sopts, server.WithHooks(hooks))
	s.mcp = server.NewMCPServer(Name, Version, sopts...)
	for _, t := range tools {
		s.mcp.AddTool(s.declare(t), s.handler(t))
	}
	return s
}

// OfferedVersions lists the protocol versions the server offers, newest
// first: the revisions the lab teaches (rules.Revisions: 2026-07-28,
// 2025-11-25, 2025-06-18), up to Options.Newest. Older ones (2025-03-26,
// 2024-11-05) are not offered: an initialize asking for one is answered
// with answerVersion's, and server/discover and the -32022 error list
// only these.
func (s *Server) OfferedVersions() []string {
	var out []string
	for _, r := range slices.Backward(rules.Revisions) {
		if s.opts.Newest == "" || r <= s.opts.Newest {
			out = append(out, string(r))
		}
	}
	return out
}

// answerVersion is the revision initialize answers when asked for asked
// (MCP's version negotiation, 2025-11-25 lifecycle: the version asked when
// the server supports it, else another it supports, the latest): asked
// when it is an offered revision with a handshake, else the newest
// offered one with a handshake (2025-11-25, or Options.Newest when that
// is 2025-06-18). 2026-07-28 has no handshake; an initialize asking for
// it, or for nothing, gets the newest handshake revision too.
func (s *Server) answerVersion(asked string) rules.Revision {
	newest := rules.Rev20251125
	if s.opts.Newest != "" && s.opts.Newest < newest {
		newest = s.opts.Newest
	}
	if r, err := rules.ParseRevision(asked); err == nil && r <= newest {
		return r
	}
	return newest
}

// offering tells mcp-go's server/discover (and stdio's version checks)
// the versions the server offers (OfferedVersions).
func (s *Server) offering(ctx context.Context) context.Context {
	return server.WithSupportedProtocolVersions(ctx, s.OfferedVersions())
}

// MCPServer is the underlying mcp-go server.
func (s *Server) MCPServer() *server.MCPServer { return s.mcp }

// Options returns the options the server was built with, defaults filled.
func (s *Server) Options() Options { return s.opts }

// Tools returns the tool declarations in tools/list order (mcp-go sorts
// them by name).
func (s *Server) Tools() []mcp.Tool {
	out := make([]mcp.Tool, 0, len(tools))
	for _, name := range ToolNames() {
		t, _ := specFor(name)
		out = append(out, s.declare(t))
	}
	return out
}

// ToolNames lists the tools in tools/list order (by name).
func ToolNames() []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.name
	}
	sort.Strings(out)
	return out
}

// HasTool reports whether the mock server offers a tool of that name.
func HasTool(name string) bool { _, found := specFor(name); return found }

// ReadOnly reports whether a tool only reads (a lookup or a search) rather
// than changing something (a refund, an escalation).
func ReadOnly(name string) bool { t, _ := specFor(name); return t.readOnly }

// ExampleArguments returns a valid example call's arguments for a tool.
func ExampleArguments(name string) map[string]any {
	t, _ := specFor(name)
	return t.example
}

// Attempts returns how many calls the server has received for a tool.
func (s *Server) Attempts(tool string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attemptsBy[tool]
}

func (s *Server) attempts(tool string) int { return s.Attempts(tool) }

func (s *Server) nextAttempt(tool string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attemptsBy[tool]++
	return s.attemptsBy[tool]
}

func (s *Server) nextSerial() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.serial++
	return s.serial
}

// faultFor is the fault injected into attempt n of a tool: its entry in
// Options.Sequence, else its entry in Options.Faults, else Faults["*"].
func (s *Server) faultFor(tool string, attempt int) Fault {
	if seq := s.opts.Sequence[tool]; attempt >= 1 && attempt <= len(seq) {
		return seq[attempt-1]
	}
	if f, found := s.opts.Faults[tool]; found {
		return f
	}
	return s.opts.Faults["*"]
}

// declare is a tool's declaration as this server lists it: with the
// failure_mode practice argument when Options.FailureModes is on.
func (s *Server) declare(t toolSpec) mcp.Tool {
	description, schema := t.description, t.inputSchema
	if s.opts.FailureModes {
		description, schema = t.withModes()
	}
	tool := mcp.NewToolWithRawSchema(t.name, description, json.RawMessage(schema))
	tool.OutputSchema = mcp.ToolOutputSchema{}
	tool.RawOutputSchema = t.outputSchema()
	tool.Annotations = mcp.ToolAnnotation{
		Title:           t.title,
		ReadOnlyHint:    mcp.ToBoolPtr(t.readOnly),
		DestructiveHint: mcp.ToBoolPtr(t.name == "process_refund"),
		IdempotentHint:  mcp.ToBoolPtr(t.readOnly),
		OpenWorldHint:   mcp.ToBoolPtr(false),
	}
	return tool
}

// handler wraps a tool's domain logic with argument validation, fault
// injection and the response style.
func (s *Server) handler(t toolSpec) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		attempt := s.nextAttempt(t.name)
		style := s.opts.Style

		if errs := s.validator.checkValue(t.name, req.Params.Arguments); errs != nil {
			return schemaFailure(t.name, errs, t.example).render(style)
		}
		args, _ := req.Params.Arguments.(map[string]any)
		if args == nil {
			args = map[string]any{}
		}

		f := s.faultFor(t.name, attempt)
		fires := s.rateLimited(ctx, t.name, f, attempt)
		if mode, practised := s.practiceMode(t, args); practised {
			args = withoutMode(args)
			f, fires = mode, s.modeFires(ctx, t.name, mode, argsKey(args))
		}
		if fires {
			switch f.Kind {
			case FaultPanic:
				panic(fmt.Sprintf("%s: nil order record at /srv/support-tools/handlers.go:132", t.name))
			case FaultGoError:
				if style != StyleGood {
					s.log.Printf("%s attempt %d: handler returned an error", t.name, attempt)
					return nil, fmt.Errorf("%s: upstream call failed", t.name)
				}
				fl := s.incident(injected(t.name, f, attempt, nil, argsKey(args)))
				s.log.Printf("%s %s: handler error written as a sanitized result", t.name, fl.payload.CorrelationID)
				return fl.render(StyleGood)
			case FaultEmpty:
				if t.empty != nil {
					return structured(t.empty(args), false), nil
				}
			default:
				var emptyShape any
				if t.empty != nil {
					emptyShape = t.empty(args)
				}
				fl := s.incident(injected(t.name, f, attempt, emptyShape, argsKey(args)))
				if fl.payload.ErrorCategory == rules.Validation && fl.payload.ExampleArguments == nil {
					fl.payload.ExampleArguments = t.exampleBesides(args)
				}
				if fl.payload.CorrelationID != "" {
					s.log.Printf("%s %s: injected %s", t.name, fl.payload.CorrelationID, f.Kind)
				}
				return fl.render(style)
			}
		}

		out := t.run(s, args)
		if out.fail != nil {
			return out.fail.render(style)
		}
		return structured(out.success, false), nil
	}
}

type virtualTimeKey struct{}

// now is the time of a call: its virtual time (WithVirtualTime), else
// Options.Clock; timed is false when there is neither.
func (s *Server) now(ctx context.Context) (seconds float64, timed bool) {
	if v, ok := ctx.Value(virtualTimeKey{}).(float64); ok {
		return v, true
	}
	if s.opts.Clock != nil {
		return s.opts.Clock(), true
	}
	return 0, false
}

// WithVirtualTime tells the server the caller's virtual time in seconds
// (the simulated agents' clock), so a rate limit can be enforced in time:
// a resend before retryAfterSeconds have passed is refused again, whatever
// the attempt count.
func WithVirtualTime(ctx context.Context, seconds float64) context.Context {
	return context.WithValue(ctx, virtualTimeKey{}, seconds)
}

// rateLimited reports whether the fault fires on this attempt, holding a
// rate limit until its retryAfterSeconds have passed in virtual time.
func (s *Server) rateLimited(ctx context.Context, tool string, f Fault, attempt int) bool {
	active := f.active(attempt)
	now, timed := s.now(ctx)
	if f.Kind != FaultRateLimit || !timed {
		return active
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	until, limited := s.limitedUntil[tool]
	if limited && now < until {
		return true
	}
	if active {
		wait := f.RetryAfterSeconds
		if wait <= 0 {
			wait = 5
		}
		s.limitedUntil[tool] = now + float64(wait)
	}
	return active
}

// recoverPanics turns a panicking tool handler into a sanitized internal
// error result with a correlationId (LESSON-RULES §6, §9). The panic value
// and stack go to the log, never to the result. In a bad style the panic
// is passed on to mcp-go's WithRecovery, which answers -32603 with the
// panic's text: the wrong layer and a leak, as an unguarded server would.
func (s *Server) recoverPanics(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (result *mcp.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				if s.opts.Style != StyleGood {
					s.log.Printf("%s: panic left to mcp-go's recovery (%s style): %v", req.Params.Name, s.opts.Style, r)
					panic(r)
				}
				args, _ := req.Params.Arguments.(map[string]any)
				if s.opts.FailureModes {
					args = withoutMode(args) // the lab's call: the same correlationId
				}
				corr := s.correlationID(correlationID(req.Params.Name+"/panic"+argsKey(args), s.Attempts(req.Params.Name)))
				s.log.Printf("%s %s: recovered panic: %v", req.Params.Name, corr, r)
				result, err = internalFault(req.Params.Name, corr).render(StyleGood)
			}
		}()
		return next(ctx, req)
	}
}

// argsKey is the arguments as JSON (sorted keys), to tell one call's
// failure from another's.
func argsKey(args map[string]any) string {
	b, _ := json.Marshal(args)
	return string(b)
}

// parseErrorReply is what mcp-go's stdio server writes for a line that is
// not JSON; HandleMessage returns the same bytes so the lab shows the wire.
var parseErrorReply = mustMarshal(mcp.JSONRPCError{
	JSONRPC: mcp.JSONRPC_VERSION,
	ID:      mcp.NewRequestId(nil),
	Error:   mcp.NewJSONRPCErrorDetails(mcp.PARSE_ERROR, "Parse error", nil),
})

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// HandleMessage answers one JSON-RPC message with the exact bytes the stdio
// transport would write for it (without the trailing newline), or nil for
// a notification. Preflight answers first (malformed JSON, a batch, params
// of the wrong shape, and under 2025-06-18 arguments that break a tool's
// inputSchema: LESSON-RULES §1); mcp-go answers the rest.
func (s *Server) HandleMessage(ctx context.Context, raw []byte) []byte {
	if reply := s.Preflight(raw); reply != nil {
		return reply
	}
	resp := s.mcp.HandleMessage(s.offering(ctx), json.RawMessage(raw))
	if resp == nil {
		return nil
	}
	return mustMarshal(resp)
}

type requestHead struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Name            string          `json:"name"`
		Arguments       json.RawMessage `json:"arguments"`
		Meta            map[string]any  `json:"_meta"`
	} `json:"params"`
}

// correlationID is det, the deterministic id of an incident, or, with
// Options.RandomCorrelationIDs, a random one in the same shape
// ("corr-" and 8 hex digits).
func (s *Server) correlationID(det string) string {
	if !s.opts.RandomCorrelationIDs || det == "" {
		return det
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "corr-" + hex.EncodeToString(b[:])
}

// incident is fl with its correlationId made the incident's own (see
// correlationID), wherever fl's texts quote it.
func (s *Server) incident(fl failure) failure {
	old := fl.payload.CorrelationID
	corr := s.correlationID(old)
	if corr == old {
		return fl
	}
	fl.payload.CorrelationID = corr
	fl.payload.Description = strings.ReplaceAll(fl.payload.Description, old, corr)
	fl.payload.CustomerMessage = strings.ReplaceAll(fl.payload.CustomerMessage, old, corr)
	fl.errorText = strings.ReplaceAll(fl.errorText, old, corr)
	fl.exception = strings.ReplaceAll(fl.exception, old, corr)
	return fl
}

// ObserveInitialize records the revision an initialize in raw settles on
// (the one its answer will carry), as Preflight does, for a transport
// that reads requests before the engine does (stdio's log, which records
// a notification as it arrives). Other requests are ignored.
func (s *Server) ObserveInitialize(raw []byte) {
	var h requestHead
	if json.Unmarshal(raw, &h) == nil {
		s.observeHead(h)
	}
}

func (s *Server) observeHead(h requestHead) {
	if h.Method != string(mcp.MethodInitialize) {
		return
	}
	r := s.answerVersion(h.Params.ProtocolVersion) // what initialize answers, whatever was asked
	s.mu.Lock()
	s.negotiated = r
	s.mu.Unlock()
}

// RevisionOf returns the revision a request is served under: the one its
// _meta declares (2026-07-28), else the one negotiated by initialize, else
// Options.Revision.
func (s *Server) RevisionOf(raw []byte) rules.Revision {
	var h requestHead
	if len(raw) > 0 { // nil: no request to read, only the session's revision
		_ = json.Unmarshal(raw, &h)
	}
	return s.revisionOfHead(h)
}

func (s *Server) revisionOfHead(h requestHead) rules.Revision {
	if v, isStr := h.Params.Meta[mcp.MetaKeyProtocolVersion].(string); isStr {
		if r, err := rules.ParseRevision(v); err == nil {
			return r
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.negotiated != "" {
		return s.negotiated
	}
	return s.opts.Revision
}

// preflightHead is the 2025-06-18 input-validation layer: a tools/call
// whose arguments break the tool's inputSchema is a -32602 protocol error.
// Later revisions let the call through and the handler answers isError.
func (s *Server) preflightHead(h requestHead) []byte {
	if h.Method != string(mcp.MethodToolsCall) || len(h.ID) == 0 {
		return nil
	}
	if s.revisionOfHead(h).InputSchemaLayer() != rules.LayerProtocol || !HasTool(h.Params.Name) {
		return nil
	}
	errs := s.validator.check(h.Params.Name, h.Params.Arguments)
	if errs == nil {
		return nil
	}
	var id any
	_ = json.Unmarshal(h.ID, &id)
	return mustMarshal(mcp.JSONRPCError{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(id),
		Error: mcp.NewJSONRPCErrorDetails(mcp.INVALID_PARAMS,
			fmt.Sprintf("Invalid arguments for tool %s: %s", h.Params.Name, sentence(errs)), nil),
	})
}

// stdioDrain bounds how long the end of a stdio session waits for the
// answers to requests still being served.
const stdioDrain = 10 * time.Second

// stdioMu serialises stdio sessions in one process: mcp-go's stdio server
// keeps its session in a package-level variable.
var stdioMu sync.Mutex

// ServeStdio serves newline-delimited JSON-RPC on r and w with mcp-go's
// stdio server until r ends or ctx is cancelled, with Preflight in front
// of it. A message over MaxMessageBytes is read to its end, dropped and
// answered with OversizeReply; serving goes on. When r ends, the requests
// already read are answered before it returns (up to 10 s). Only one
// ServeStdio runs at a time in a process; a second waits for the first.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	stdioMu.Lock()
	defer stdioMu.Unlock()

	waits := newReplyWait()
	out := &lockedWriter{w: &answerTap{w: w, rw: waits}}
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(r, 64*1024)
		for {
			line, err := readMessage(br, MaxMessageBytes)
			if errors.Is(err, errTooLong) {
				_, _ = out.Write(append(append([]byte(nil), oversizeReply...), '\n'))
				continue
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
					waits.wait(ctx, stdioDrain) // answer what was asked before the input ended
				}
				_ = pw.CloseWithError(err)
				return
			}
			line = bytes.TrimSpace(line)
			if len(line) == 0 {
				continue
			}
			if reply := s.Preflight(line); reply != nil {
				_, _ = out.Write(append(append([]byte(nil), reply...), '\n'))
				continue
			}
			waits.expect(line)
			if _, err := pw.Write(append(line, '\n')); err != nil {
				return
			}
		}
	}()
	stdio := server.NewStdioServer(s.mcp)
	stdio.SetErrorLogger(s.log)
	err := stdio.Listen(s.offering(ctx), pr, out)
	_ = pr.Close()
	if err == io.EOF || err == context.Canceled {
		return nil
	}
	return err
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// exampleBesides is the tool's example call, or its other example when
// args (failure_mode already removed) are the example itself: a refused
// call's exampleArguments must differ from it.
func (t toolSpec) exampleBesides(args map[string]any) map[string]any {
	got, err1 := json.Marshal(args)
	ex, err2 := json.Marshal(t.example)
	if err1 == nil && err2 == nil && bytes.Equal(got, ex) && t.otherExample != nil {
		return t.otherExample
	}
	return t.example
}
