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

var schemaCache = struct {
	sync.Mutex
	m map[string]*jsonschema.Schema // nil value: the schema does not compile
}{m: map[string]*jsonschema.Schema{}}

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
func compile(schema []byte) *jsonschema.Schema {
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

func compileNew(schema []byte) (sch *jsonschema.Schema) {
	defer func() {
		if recover() != nil {
			sch = nil // the validator's own bug must not take the grader down
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
	sch, err = c.Compile("mem:///schema.json")
	if err != nil {
		return nil
	}
	return sch
}

// validate checks a JSON value against a compiled schema and returns ""
// when it conforms, else the most specific reason, in one line.
func validate(sch *jsonschema.Schema, value []byte) (reason string) {
	defer func() {
		if recover() != nil {
			reason = ""
		}
	}()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return "not JSON"
	}
	if err := sch.Validate(inst); err != nil {
		msg := err.Error()
		if i := strings.LastIndex(msg, "\n"); i > 0 {
			msg = strings.TrimSpace(msg[i:])
		}
		return clip(strings.TrimPrefix(msg, "- "), 200)
	}
	return ""
}
