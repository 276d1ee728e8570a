package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// inputValidator checks tools/call arguments against each tool's declared
// inputSchema and says, in words a model can act on, what was wrong. mcp-go
// has its own validator, but its messages print Go structs
// ("&{Missing:[order_id]}"), so the mock server validates here.
type inputValidator struct {
	schemas map[string]*jsonschema.Schema
}

func newInputValidator() *inputValidator {
	return newInputValidatorFrom(func(t toolSpec) string { return t.inputSchema })
}

// newInputValidatorFrom compiles the inputSchema schemaOf gives each tool.
func newInputValidatorFrom(schemaOf func(toolSpec) string) *inputValidator {
	v := &inputValidator{schemas: map[string]*jsonschema.Schema{}}
	for _, t := range tools {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schemaOf(t)))
		if err != nil {
			panic(fmt.Sprintf("mockserver: tool %s inputSchema is not JSON: %v", t.name, err))
		}
		c := jsonschema.NewCompiler()
		url := "mem:///tools/" + t.name + "/input.json"
		if err := c.AddResource(url, doc); err != nil {
			panic(err)
		}
		v.schemas[t.name] = c.MustCompile(url)
	}
	return v
}

// check returns the field errors of args (a JSON object or nil) for tool,
// or nil when they conform. An unknown tool returns nil: that is the
// protocol layer's business.
func (v *inputValidator) check(tool string, args json.RawMessage) []FieldError {
	sch, found := v.schemas[tool]
	if !found {
		return nil
	}
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = json.RawMessage(`{}`)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return []FieldError{{Field: "arguments", Expected: "a JSON object"}}
	}
	return validateInstance(sch, inst)
}

// checkValue is check for arguments already decoded from JSON (maps,
// slices, float64...), as mcp-go hands them to a tool handler.
func (v *inputValidator) checkValue(tool string, args any) []FieldError {
	sch, found := v.schemas[tool]
	if !found {
		return nil
	}
	if args == nil {
		args = map[string]any{}
	}
	return validateInstance(sch, args)
}

func validateInstance(sch *jsonschema.Schema, inst any) []FieldError {
	err := sch.Validate(inst)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return []FieldError{{Field: "arguments", Expected: "arguments that match the inputSchema"}}
	}
	var out []FieldError
	collect(verr, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

func collect(e *jsonschema.ValidationError, out *[]FieldError) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	field := strings.Join(e.InstanceLocation, ".")
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			*out = append(*out, FieldError{Field: join(field, m), Expected: "a value (required)"})
		}
	case *kind.Type:
		*out = append(*out, FieldError{Field: orRoot(field), Expected: article(strings.Join(k.Want, " or ")), Received: article(k.Got)})
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		*out = append(*out, FieldError{Field: field, Expected: "one of " + strings.Join(want, ", "), Received: k.Got})
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			*out = append(*out, FieldError{Field: join(field, p), Expected: "no such argument (not in the inputSchema)"})
		}
	default:
		*out = append(*out, FieldError{Field: orRoot(field), Expected: fmt.Sprint(e.ErrorKind)})
	}
}

// article puts "a" or "an" before a JSON type name: "an object", "an
// integer", "a string".
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

func orRoot(f string) string {
	if f == "" {
		return "arguments"
	}
	return f
}

// sentence renders field errors as one sentence: "amount must be a number
// (received a string); confirmedByUser is missing".
func sentence(errs []FieldError) string {
	parts := make([]string, len(errs))
	for i, e := range errs {
		switch {
		case e.Expected == "a value (required)":
			parts[i] = e.Field + " is required but missing"
		case strings.HasPrefix(e.Expected, "no such argument"):
			parts[i] = e.Field + " is not an argument of this tool"
		case e.Received != nil:
			parts[i] = fmt.Sprintf("%s must be %s (received %v)", e.Field, e.Expected, e.Received)
		default:
			parts[i] = e.Field + " must be " + e.Expected
		}
	}
	return strings.Join(parts, "; ")
}

// schemaFailure is the tool execution error for arguments that break the
// inputSchema, the SEP-1303 reading of 2025-11-25 and later.
func schemaFailure(tool string, errs []FieldError, example map[string]any) failure {
	return failure{
		payload: ErrorPayload{
			ErrorCategory:    "validation",
			Description:      fmt.Sprintf("The arguments do not match the inputSchema of %s: %s. Send a new call shaped like exampleArguments.", tool, sentence(errs)),
			Code:             "INVALID_ARGUMENTS",
			FieldErrors:      errs,
			ExampleArguments: example,
		},
		errorText: "ERROR: invalid arguments",
		exception: fmt.Sprintf("TypeError: %s() got an unexpected argument shape", tool),
	}
}
