package scenarios

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
)

// MaxContentFileBytes caps one scenario or question file. Content files
// are a few kilobytes; anything near this is a mistake or an attack.
const MaxContentFileBytes = 1 << 20

// ReadContentFile reads one content file from fsys safely: regular files
// only (no FIFO, device or link to one), at most MaxContentFileBytes.
func ReadContentFile(fsys fs.FS, name string) ([]byte, error) {
	return readContentFile(fsys, name, MaxContentFileBytes, "*.yaml")
}

// readContentFile reads a regular file of at most limit bytes; kind names
// the files expected ("*.yaml") in the message for anything else.
func readContentFile(fsys fs.FS, name string, limit int64, kind string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, friendlyFSError(err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s); content must be plain %s files", info.Mode().Type(), kind)
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("file is %d bytes; content files are limited to %d", info.Size(), limit)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, friendlyFSError(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, friendlyFSError(err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("file grew past %d bytes while reading", limit)
	}
	return data, nil
}

func friendlyFSError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot %s: %v", pe.Op, pe.Err)
	}
	return err
}

// ContentProblem is a problem found by CheckYAMLText, at a position.
type ContentProblem struct {
	Line, Column int
	Msg          string
}

// MaxNesting bounds how deeply a content file may nest flow collections
// ([ and {) or indentation. Real content nests a few levels; a hostile
// file nesting thousands costs the YAML parser gigabytes.
const MaxNesting = 64

// forbiddenRune reports characters content text may never hold: control
// codes (they drive the learner's terminal: clear it, retitle it, set the
// clipboard) and the invisible bidirectional overrides that make text read
// differently from what it says. Newlines and tabs are fine.
func forbiddenRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case unicode.IsControl(r), r == '\u2028', r == '\u2029':
		return true
	case r >= '\u202A' && r <= '\u202E', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// CheckYAMLText rejects what content files must never hold: invalid
// UTF-8, control characters whether written raw or as YAML escapes ("\e",
// "\x1b", "\u009b"), nesting deeper than MaxNesting, and YAML anchors,
// aliases and merge keys (a few hundred bytes of nested aliases expand to
// gigabytes). Cheap checks run first, so hostile input costs little.
func CheckYAMLText(data []byte) []ContentProblem {
	if out := checkRawText(data); len(out) > 0 {
		return out
	}
	if p, deep := tooDeep(data); deep {
		return []ContentProblem{p}
	}
	for _, tk := range lexer.Tokenize(string(data)) {
		switch tk.Type {
		case token.AnchorType, token.AliasType, token.MergeKeyType:
			pos := tk.Position
			return []ContentProblem{{pos.Line, pos.Column, "YAML anchors, aliases and merge keys are not allowed in content files: write each value out"}}
		}
	}
	return decodedText(data)
}

// checkRawText finds, as written, what no content text may hold: invalid
// UTF-8 and the characters forbiddenRune names (a carriage return is
// fine: files may end lines with CRLF). It stops at five problems.
func checkRawText(data []byte) []ContentProblem {
	var out []ContentProblem
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, ContentProblem{line, col, fmt.Sprintf("invalid UTF-8 byte 0x%02x", data[i])})
		case r == '\n':
			line, col = line+1, 0
		case r != '\r' && forbiddenRune(r):
			out = append(out, ContentProblem{line, col, fmt.Sprintf("control character U+%04X: content text may not contain terminal control codes", r)})
		}
		if len(out) >= 5 {
			return out
		}
		i += size
		col++
	}
	return out
}

// tooDeep finds flow nesting ([ and {, counted everywhere, quoted or not,
// so no stray quote can hide a bomb) or indentation past MaxNesting.
func tooDeep(data []byte) (ContentProblem, bool) {
	depth, line, col, indent := 0, 1, 0, 0
	lineStart := true
	for _, c := range data {
		col++
		switch {
		case c == '\n':
			line, col, indent, lineStart = line+1, 0, 0, true
			continue
		case lineStart && c == ' ':
			indent++
			if indent > 2*MaxNesting {
				return ContentProblem{line, col, fmt.Sprintf("indented more than %d levels: content files are never nested this deep", MaxNesting)}, true
			}
			continue
		}
		lineStart = false
		switch c {
		case '[', '{':
			depth++
			if depth > MaxNesting {
				return ContentProblem{line, col, fmt.Sprintf("brackets nested more than %d deep: content files are never nested this deep", MaxNesting)}, true
			}
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return ContentProblem{}, false
}

// decodedText decodes the file generically and checks every string for
// forbidden characters written as escapes, reporting the value's position.
func decodedText(data []byte) []ContentProblem {
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil // the strict decode that follows reports syntax errors
	}
	var out []ContentProblem
	var walk func(v any, path string)
	walk = func(v any, path string) {
		if len(out) >= 5 {
			return
		}
		switch x := v.(type) {
		case string:
			for _, r := range x {
				if forbiddenRune(r) {
					line, col := Locate(data, path)
					out = append(out, ContentProblem{line, col, fmt.Sprintf("%s holds the character U+%04X (written as an escape): content text may not contain terminal control codes", strings.TrimPrefix(path, "$."), r)})
					return
				}
			}
		case map[string]any:
			for k, e := range x {
				walk(k, path)
				walk(e, path+"."+k)
			}
		case []any:
			for i, e := range x {
				walk(e, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
	walk(doc, "$")
	return out
}

// YAMLMessage turns a decoder message into one a content author can act
// on, without Go type names.
func YAMLMessage(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		field := "this value"
		if key := keyOf(te.Token); key != "" {
			field = key
		} else if te.StructFieldName != nil {
			name := *te.StructFieldName
			if i := strings.LastIndex(name, "."); i >= 0 {
				name = name[i+1:]
			}
			field = lowerFirst(name)
		}
		return fmt.Sprintf("%s has the wrong type: expected %s, found %s", field, kindName(te.DstType), kindName(te.SrcType))
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		m := strings.TrimSpace(ye.GetMessage())
		if i := strings.Index(m, "\n"); i > 0 {
			m = m[:i]
		}
		return m
	}
	return err.Error()
}

// keyOf is the mapping key written just before the value token tok
// ("retryAfterSeconds" for the "ten" of "retryAfterSeconds: ten"), or ""
// when tok is not a mapping's value. The decoder's StructFieldName names
// only the outermost field of a nested value ("steps" for a step's
// field), so the key as written is the better name.
func keyOf(tok *token.Token) string {
	if tok == nil || tok.Prev == nil || tok.Prev.Type != token.MappingValueType || tok.Prev.Prev == nil {
		return ""
	}
	k := tok.Prev.Prev
	switch k.Type {
	case token.StringType, token.SingleQuoteType, token.DoubleQuoteType:
		return k.Value
	}
	return ""
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func kindName(t reflect.Type) string {
	if t == nil {
		return "nothing"
	}
	switch t.Kind() {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping (key: value lines)"
	case reflect.Pointer:
		return kindName(t.Elem())
	case reflect.Interface:
		return "a value"
	}
	return t.Kind().String()
}
