package grade

import (
	"bytes"
	"errors"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// maxCachedSchemas bounds the compiled-schema cache; it is emptied when
// full, so hostile input that declares endless schemas costs memory once.
const maxCachedSchemas = 512

// compiled is an outputSchema or inputSchema ready to validate with: full
// reports every error; quick is {"not": schema}, which the validator
// checks stopping at the first error (a large instance with an error in
// every item would otherwise take seconds).
type compiled struct {
	full, quick *jsonschema.Schema
}

var schemaCache = struct {
	sync.Mutex
	m map[string]*compiled // nil value: the schema does not compile
}{m: map[string]*compiled{}}

// noLoader refuses every $ref outside the schema document: a schema
// read from a server or a file must not make the grader open local files
// or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, errors.New("schemas may not refer to other documents (" + url + ")")
}

// compile returns the compiled schema, or nil when schema is empty or is
// not a JSON Schema the validator accepts (the grader then judges no
// schema conformance rather than guessing).
func compile(schema []byte) *compiled {
	if len(schema) == 0 {
		return nil
	}
	key := string(schema)
	schemaCache.Lock()
	sch, ok := schemaCache.m[key]
	schemaCache.Unlock()
	if ok {
		return sch
	}
	sch = compileNew(schema)
	schemaCache.Lock()
	if len(schemaCache.m) >= maxCachedSchemas {
		clear(schemaCache.m)
	}
	schemaCache.m[key] = sch
	schemaCache.Unlock()
	return sch
}

func compileNew(schema []byte) (out *compiled) {
	defer func() {
		if recover() != nil {
			out = nil // the validator's own bug must not take the grader down
		}
	}()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	if err := c.AddResource("mem:///schema.json", doc); err != nil {
		return nil
	}
	if err := c.AddResource("mem:///quick.json", map[string]any{"not": map[string]any{"$ref": "mem:///schema.json"}}); err != nil {
		return nil
	}
	full, err := c.Compile("mem:///schema.json")
	if err != nil {
		return nil
	}
	quick, err := c.Compile("mem:///quick.json")
	if err != nil {
		return nil
	}
	return &compiled{full: full, quick: quick}
}

// maxDetailedValidation bounds the instance whose every schema error is
// collected to name the most specific one.
const maxDetailedValidation = 64 << 10

// maxValidatedBytes bounds the structuredContent checked against a schema
// at all (schema.not-checked notes a larger one).
const maxValidatedBytes = 128 << 10

// maxValidatedValues bounds the values of an instance the validator
// visits: longer arrays are cut to fit (the validator reports every
// failing item, so an array of failures costs per item).
const maxValidatedValues = 8000

// prune cuts arrays so that at most *budget values are visited in all.
func prune(v any, budget *int) any {
	*budget--
	switch x := v.(type) {
	case []any:
		out := x[:0:0]
		for _, e := range x {
			if *budget <= 0 {
				break
			}
			out = append(out, prune(e, budget))
		}
		return out
	case map[string]any:
		for k, e := range x {
			x[k] = prune(e, budget)
		}
	}
	return v
}

// validate checks a JSON value against a compiled schema and returns ""
// when it conforms, else the most specific reason, in one line.
func validate(sch *compiled, value []byte) (reason string) {
	defer func() {
		if recover() != nil {
			reason = ""
		}
	}()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return "not JSON"
	}
	budget := maxValidatedValues
	inst = prune(inst, &budget)
	if sch.quick.Validate(inst) != nil {
		return "" // not(schema) failed: the instance conforms
	}
	if len(value) > maxDetailedValidation {
		return "it does not conform (too large to say where)"
	}
	if err := sch.full.Validate(inst); err != nil {
		msg := err.Error()
		if i := strings.LastIndex(msg, "\n"); i > 0 {
			msg = strings.TrimSpace(msg[i:])
		}
		return clip(strings.TrimPrefix(msg, "- "), 200)
	}
	return ""
}
