package mockserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// catalog loads the built-in scenarios; the tests iterate over whatever
// valid scenarios exist.
func catalog(t *testing.T) *scenarios.Catalog {
	t.Helper()
	c, err := scenarios.Default()
	if err != nil {
		t.Fatalf("the built-in scenarios do not load:\n%v", err)
	}
	if len(c.Scenarios) == 0 {
		t.Fatal("no scenarios")
	}
	return c
}

// outputSchemas compiles every tool's declared outputSchema, as tools/list
// sends it.
var outputSchemas = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	out := map[string]*jsonschema.Schema{}
	for _, tool := range mockserver.New(mockserver.Options{}).Tools() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.RawOutputSchema))
		if err != nil {
			return nil, err
		}
		c := jsonschema.NewCompiler()
		url := "mem:///" + tool.Name + "/output.json"
		if err := c.AddResource(url, doc); err != nil {
			return nil, err
		}
		sch, err := c.Compile(url)
		if err != nil {
			return nil, err
		}
		out[tool.Name] = sch
	}
	return out, nil
})

func inputSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for _, tool := range mockserver.New(mockserver.Options{}).Tools() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.RawInputSchema))
		if err != nil {
			t.Fatalf("%s inputSchema: %v", tool.Name, err)
		}
		c := jsonschema.NewCompiler()
		url := "mem:///" + tool.Name + "/input.json"
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = c.MustCompile(url)
	}
	return out
}

// validate checks raw JSON against a compiled schema.
func validate(sch *jsonschema.Schema, raw []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// exchange makes one call on a fresh server and in-process session.
func exchange(t *testing.T, opts mockserver.Options, rev rules.Revision, call wire.Call) wire.Exchange {
	t.Helper()
	ctx := context.Background()
	sess, err := wire.Open(ctx, mockserver.New(opts), rev)
	if err != nil {
		t.Fatalf("open %s: %v", rev, err)
	}
	defer sess.Close()
	ex, err := sess.Call(ctx, call)
	if err != nil {
		t.Fatalf("call %+v: %v", call, err)
	}
	return ex
}

func parse(t *testing.T, response []byte) rules.Envelope {
	t.Helper()
	env, err := rules.ParseEnvelope(response)
	if err != nil {
		t.Fatalf("response is not a JSON-RPC response: %v\n%s", err, response)
	}
	return env
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// resultMembers returns the raw members of the response's result object.
func resultMembers(response []byte) map[string]json.RawMessage {
	var top struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	_ = json.Unmarshal(response, &top)
	return top.Result
}

// requestMeta returns params._meta of a request.
func requestMeta(request []byte) map[string]any {
	var top struct {
		Params struct {
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	_ = json.Unmarshal(request, &top)
	return top.Params.Meta
}

// visibleText is everything of a response a client, a host or a model can
// read: text blocks, structuredContent, the error message and data.
func visibleText(env rules.Envelope) []string {
	var out []string
	if env.Error != nil {
		out = append(out, env.Error.Message, string(env.Error.Data))
	}
	if env.Result != nil {
		out = append(out, env.Result.Texts()...)
		if len(env.Result.StructuredContent) > 0 {
			var v any
			_ = json.Unmarshal(env.Result.StructuredContent, &v)
			out = append(out, flatten(v)...)
		}
	}
	return out
}

// flatten lists the strings inside decoded JSON.
func flatten(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, flatten(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return nil
}

func leaksIn(env rules.Envelope) []string {
	var out []string
	for _, s := range visibleText(env) {
		out = append(out, rules.Leaks(s)...)
	}
	return out
}

// internalsMarkers are what a raw exception shows when it leaks internals
// (LESSON-RULES §6), spotted here without asking rules.Leaks.
var internalsMarkers = []string{
	"Traceback", `File "`, "/srv/", ".py:", ".go:", "Bearer ", "token=", "api_key", "postgresql://",
	".internal", "SELECT ", "INSERT ", "UPDATE ", " 10.", "(10.",
}

func showsInternals(text string) []string {
	var out []string
	for _, m := range internalsMarkers {
		if strings.Contains(text, m) {
			out = append(out, m)
		}
	}
	return out
}

// lockedBuffer is a log sink safe for the stdio server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
