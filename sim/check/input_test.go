package check

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
)

const bareOK = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Order ORD-4471 shipped."}]}}`

func inputError(t *testing.T, in []byte) *InputError {
	t.Helper()
	_, err := Parse(in, "f.json", "")
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("want an InputError, got %v", err)
	}
	return ie
}

// A pretty-printed document with one syntax error is one problem, at the
// line and column of the error, not a message per line.
func TestPrettyDocumentWithAnError(t *testing.T) {
	in := "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {\n    \"content\": [ {\"type\": \"text\", \"text\": \"hi\"}, ],\n    \"isError\": true\n  }\n}\n"
	ie := inputError(t, []byte(in))
	if len(ie.Problems) != 1 {
		t.Fatalf("%d problems, want 1: %v", len(ie.Problems), ie.Problems)
	}
	if p := ie.Problems[0]; !strings.HasPrefix(p, "f.json:5:50: not JSON") || !strings.Contains(p, "comma") {
		t.Errorf("problem %q; want f.json:5:50 and the trailing comma named", p)
	}
	// A cut-off document says so.
	ie = inputError(t, []byte("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n"))
	if len(ie.Problems) != 1 || !strings.Contains(ie.Problems[0], "ends inside a value") {
		t.Errorf("cut-off document: %v", ie.Problems)
	}
	// JSON lines keep a message per bad line.
	ie = inputError(t, []byte(bareOK+"\nnope\n"+bareOK+"\n{\"a\":\n"))
	if len(ie.Problems) != 2 || !strings.HasPrefix(ie.Problems[0], "f.json:2:") || !strings.HasPrefix(ie.Problems[1], "f.json:4:") {
		t.Errorf("JSON lines: %v", ie.Problems)
	}
}

// A UTF-8 byte order mark is read past; UTF-16 is named plainly.
func TestByteOrderMarks(t *testing.T) {
	items, err := Parse(append([]byte{0xEF, 0xBB, 0xBF}, bareOK...), "bom.json", "")
	if err != nil || len(items) != 1 {
		t.Fatalf("UTF-8 with a BOM: %v", err)
	}
	var u16 bytes.Buffer
	u16.Write([]byte{0xFF, 0xFE})
	for _, r := range bareOK {
		u16.Write([]byte{byte(r), 0})
	}
	ie := inputError(t, u16.Bytes())
	if !strings.Contains(ie.Error(), "UTF-16") || !strings.Contains(ie.Error(), "iconv") || strings.Contains(ie.Error(), "invalid character") {
		t.Errorf("UTF-16: %v", ie)
	}
	ie = inputError(t, u16.Bytes()[2:]) // without its BOM
	if !strings.Contains(ie.Error(), "UTF-16") {
		t.Errorf("UTF-16 without a BOM: %v", ie)
	}
}

// Each element of a JSON array is at the line it starts on.
func TestArrayElementLines(t *testing.T) {
	in := "[\n  " + bareOK + ",\n\n  " + bareOK + ",\n  " + bareOK + "\n]\n"
	items, err := Parse([]byte(in), "arr.json", "")
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, it := range items {
		lines = append(lines, it.Line)
	}
	if len(lines) != 3 || lines[0] != 2 || lines[1] != 4 || lines[2] != 5 {
		t.Errorf("lines %v, want [2 4 5]", lines)
	}
	if items[1].Source != "arr.json:4" {
		t.Errorf("source %q", items[1].Source)
	}
}

// A record's members of the wrong type are named in the record's terms.
func TestRecordMemberTypes(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"response":` + bareOK + `,"tools":"nope"}`, `"tools" is a string; it must be an array of tools/list entries`},
		{`{"response":` + bareOK + `,"tools":["nope"]}`, `"tools" holds a string; each entry must be a tools/list entry`},
		{`{"response":` + bareOK + `,"spec":2025}`, `"spec" is a number; it must be a string such as "2025-11-25"`},
	}
	for _, c := range cases {
		ie := inputError(t, []byte(c.in))
		if !strings.Contains(ie.Error(), c.want) || strings.Contains(ie.Error(), "Go struct") {
			t.Errorf("%s: %v", c.in, ie)
		}
	}
}

// A record's "expected" (the shape of `errorlab scenarios show --json`)
// is the truth the grader needs to see a failure passed off as empty.
func TestExpectedIsTheTruth(t *testing.T) {
	resp := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"resultCount\":0,\"customers\":[],\"summary\":\"0 customers match; the search ran.\"}"}],"structuredContent":{"resultCount":0,"customers":[],"summary":"0 customers match; the search ran."}}}`
	rec := `{"request":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"customer_lookup","arguments":{}}},"response":` + resp +
		`,"classification":{"layer":"success","empty":true},"expected":{"layer":"execution","errorCategory":"transient","isRetryable":true}}`
	items, err := Parse([]byte(rec), "s.json", "")
	if err != nil {
		t.Fatal(err)
	}
	if tr := items[0].Truth; tr == nil || tr.Layer != rules.LayerExecution || tr.Category != rules.Transient {
		t.Fatalf("truth %+v", items[0].Truth)
	}
	if rep := GradeItem(items[0]).Report; !rep.Has(grade.DefectHiddenFailure) {
		t.Errorf("no hidden failure with the truth known: %+v", rep.Findings)
	}
	// "expected" in another shape is ignored, as other keys are.
	items, err = Parse([]byte(`{"response":`+resp+`,"expected":"fail"}`), "s.json", "")
	if err != nil || items[0].Truth != nil {
		t.Errorf("a string expected: %v %+v", err, items[0].Truth)
	}
	ie := inputError(t, []byte(`{"response":`+resp+`,"expected":{"layer":"sideways"}}`))
	if !strings.Contains(ie.Error(), "layer") {
		t.Errorf("a bad layer: %v", ie)
	}
}

// Over MaxRecords responses is refused, whether as JSON lines or in an
// array.
func TestTooManyRecords(t *testing.T) {
	lines := bytes.Repeat([]byte(bareOK+"\n"), MaxRecords+1)
	if ie := inputError(t, lines); !strings.Contains(ie.Error(), "more than 100000 responses") {
		t.Errorf("JSON lines: %v", ie)
	}
	small := `{"id":1,"result":{}}`
	arr := "[" + strings.Repeat(small+",", MaxRecords) + small + "]"
	if ie := inputError(t, []byte(arr)); !strings.Contains(ie.Error(), "more than 100000 responses") {
		t.Errorf("array: %v", ie)
	}
}

// Nesting too deep is said in the same words however deep it goes and
// wherever it is: 129 levels inside structuredContent, 200,000 brackets
// at the top (past encoding/json's own limit), in a file or in JSON lines.
func TestTooDeepSaidTheSameWay(t *testing.T) {
	inner := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}],"structuredContent":{"a":` + strings.Repeat("[", 130) + strings.Repeat("]", 130) + `}}}`
	for name, in := range map[string]string{
		"129 levels in structuredContent": inner,
		"200,000 brackets":                strings.Repeat("[", 200000),
		"200,000 brackets as JSON lines":  bareOK + "\n" + strings.Repeat("[", 200000) + "\n",
		"5,000 levels, closed":            strings.Repeat("[", 5000) + strings.Repeat("]", 5000),
	} {
		ie := inputError(t, []byte(in))
		found := false
		for _, p := range ie.Problems {
			if strings.Contains(p, "nests more than 128 levels deep; errorlab check reads at most 128") {
				found = true
			}
			if strings.Contains(p, "exceeded max depth") {
				t.Errorf("%s: %q", name, p)
			}
		}
		if !found {
			t.Errorf("%s: %v", name, ie.Problems)
		}
	}
}
