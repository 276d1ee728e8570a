package check

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
)

const fixtures = "../grade/testdata/public-cases"

// TestPublicCasesThroughTheReader: every public fixture read as a file,
// the way `errorlab check FILE` reads it, gets the verdict it expects.
func TestPublicCasesThroughTheReader(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "*.json"))
	if len(files) < 10 {
		t.Fatalf("found %d fixtures", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		items, err := Parse(b, filepath.Base(f), "")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(items) != 1 {
			t.Fatalf("%s: %d items", f, len(items))
		}
		var want struct{ Expect, Spec string }
		_ = json.Unmarshal(b, &want)
		if string(items[0].Spec) != want.Spec {
			t.Errorf("%s: spec %s, the file says %s", f, items[0].Spec, want.Spec)
		}
		got := GradeItem(items[0]).Report.Verdict
		ok := map[string]bool{"clean": got == grade.Clean, "warn": got == grade.Warn, "fail": got == grade.Fail, "finding": got != grade.Clean}[want.Expect]
		if !ok {
			t.Errorf("%s: want %s, got %s", f, want.Expect, got)
		}
	}
}

func TestReadForms(t *testing.T) {
	bare := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}`
	pair := `{"request":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}},"response":` + bare + `,"note":"ignored"}`
	logLines := strings.Join([]string{
		`{"time":"2026-09-18T10:00:00.1Z","session":"s1","spec":"2025-06-18","request":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}},"response":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18"}}}`,
		`{"time":"2026-09-18T10:00:00.2Z","session":"s1","spec":"2025-06-18","request":{"jsonrpc":"2.0","method":"notifications/initialized"},"response":null}`,
		`{"time":"2026-09-18T10:00:00.3Z","session":"s1","spec":"2025-06-18","request":{"jsonrpc":"2.0","id":1,"method":"tools/list"},"response":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"},"outputSchema":{"type":"object","required":["said"]}}]}}}`,
		`{"time":"2026-09-18T10:00:00.4Z","session":"s1","spec":"2025-06-18","extra":1,"request":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}},"response":{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}}`,
		``,
	}, "\n")
	cases := []struct {
		name, in string
		n        int
		check    func(t *testing.T, items []Item)
	}{
		{"bare response", bare, 1, nil},
		{"bare response, pretty", "\n\n{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {\"content\": []}\n}\n", 1, func(t *testing.T, items []Item) {
			if items[0].Line != 3 {
				t.Errorf("line %d, want 3", items[0].Line)
			}
		}},
		{"pair with other keys", pair, 1, func(t *testing.T, items []Item) {
			if items[0].Label != "tools/call echo" {
				t.Errorf("label %q", items[0].Label)
			}
		}},
		{"JSON lines", bare + "\n" + pair + "\n", 2, nil},
		{"array", "[" + bare + "," + pair + "]", 2, nil},
		{"strings holding the exact bytes", `{"request":` + quote(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`) + `,"response":` + quote(bare) + `}`, 1, nil},
		{"serve log", logLines, 3, func(t *testing.T, items []Item) {
			last := items[2]
			if last.Spec != rules.Rev20250618 || len(last.Tools) != 1 || last.Source != "in:4" {
				t.Errorf("the log's call: spec %s, %d tools, source %s", last.Spec, len(last.Tools), last.Source)
			}
			// The tools/list of the log gives the call its outputSchema.
			if rep := GradeItem(last).Report; !rep.Has(grade.DefectMissingStructured) {
				t.Errorf("the tools listed in the log were not used: %+v", rep.Findings)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			items, err := Read(strings.NewReader(c.in), "in", "")
			if err != nil {
				t.Fatal(err)
			}
			if len(items) != c.n {
				t.Fatalf("%d items, want %d", len(items), c.n)
			}
			if c.check != nil {
				c.check(t, items)
			}
		})
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestBadInputSaysWhatAndWhere: every problem named with its line, none lost.
func TestBadInputSaysWhatAndWhere(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5)
	cases := []struct{ name, in, want string }{
		{"empty", "  \n", "it is empty"},
		{"not JSON", "hello\n", "in:1: not JSON"},
		{"two bad lines", `{"jsonrpc":"2.0","id":1,"result":{}}` + "\nnope\n{\"a\":1}\n", "in:2: not JSON"},
		{"an object that is neither", `{"a":1}`, "neither \"response\""},
		{"unknown spec", `{"spec":"2024-01-01","response":{"jsonrpc":"2.0","id":1,"result":{}}}`, "unknown spec revision"},
		{"too deep", deep, fmt.Sprintf("at most %d", MaxDepth)},
		{"a number", "42", "a number, not an object"},
		{"only notifications", `{"request":{"jsonrpc":"2.0","method":"notifications/initialized"},"response":null}`, "no response to grade"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.in), "in", "")
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("want an InputError, got %v", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
		})
	}
	// Every problem is listed.
	_, err := Read(strings.NewReader("x\ny\n{\"a\":1}\n"), "in", "")
	for _, want := range []string{"in:1:", "in:2:", "in:3:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q missing from %v", want, err)
		}
	}
}

func TestSizeLimits(t *testing.T) {
	big := bytes.Repeat([]byte(" "), MaxInputBytes+1)
	_, err := Read(bytes.NewReader(big), "big", "")
	if err == nil || !strings.Contains(err.Error(), "larger than 64 MiB") {
		t.Errorf("oversized input: %v", err)
	}
	line := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("a", MaxRecordBytes) + `"}]}}`
	_, err = Read(strings.NewReader(line+"\n"+line+"\n"), "long", "")
	if err == nil || !strings.Contains(err.Error(), "longer than 4 MiB") {
		t.Errorf("oversized line: %v", err)
	}
}

// TestInvalidUTF8 is graded, not refused: a server that sends it has a
// defect to report, and every output format stays valid UTF-8.
func TestInvalidUTF8(t *testing.T) {
	in := "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"bad \xff\xfe bytes\"}],\"isError\":true}}"
	items, err := Parse([]byte(in), "u", "")
	if err != nil {
		t.Fatal(err)
	}
	res := GradeAll(items)
	if !hasID(res[0].Report, grade.CheckUTF8) {
		t.Errorf("invalid UTF-8 not reported: %+v", res[0].Report.Findings)
	}
	for name, write := range writers {
		var b bytes.Buffer
		if err := write(&b, res, Run{Version: "test"}); err != nil {
			t.Fatal(err)
		}
		if !utf8Valid(b.Bytes()) {
			t.Errorf("%s output is not valid UTF-8", name)
		}
	}
}

var writers = map[string]func(*bytes.Buffer, []Result, Run) error{
	"json":  func(b *bytes.Buffer, r []Result, run Run) error { return WriteJSON(b, r, run) },
	"junit": func(b *bytes.Buffer, r []Result, run Run) error { return WriteJUnit(b, r, run) },
	"sarif": func(b *bytes.Buffer, r []Result, run Run) error { return WriteSARIF(b, r, run) },
}

func hasID(rep grade.Report, id grade.CheckID) bool {
	for _, f := range rep.Findings {
		if f.ID == id {
			return true
		}
	}
	return false
}

func utf8Valid(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }

// fixtureResults grades every public fixture.
func fixtureResults(t testing.TB) []Result {
	files, _ := filepath.Glob(filepath.Join(fixtures, "*.json"))
	var out []Result
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		items, err := Parse(b, "fixtures/"+filepath.Base(f), "")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, GradeAll(items)...)
	}
	return out
}

// TestSARIFValidates checks the SARIF log against the SARIF 2.1.0 schema
// and the members GitHub code scanning reads.
func TestSARIFValidates(t *testing.T) {
	c := jsonschema.NewCompiler()
	f, err := os.Open("testdata/sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("mem:///sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem:///sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range []Run{{Version: "1.2.3"}, {Version: "1.2.3", Target: "npx -y @modelcontextprotocol/server-filesystem /tmp"}} {
		results := fixtureResults(t)
		if run.Target != "" {
			for i := range results {
				results[i].File, results[i].Line = "", 0
			}
		}
		var b bytes.Buffer
		if err := WriteSARIF(&b, results, run); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Fatalf("the SARIF log breaks the SARIF 2.1.0 schema: %v", err)
		}
		var log struct {
			Version string
			Runs    []struct {
				Tool struct {
					Driver struct {
						Name  string
						Rules []struct{ ID string }
					}
				}
				Results []struct {
					RuleID    string
					Level     string
					Message   struct{ Text string }
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           struct{ StartLine int }
						}
					}
				}
			}
		}
		if err := json.Unmarshal(b.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		r := log.Runs[0]
		if log.Version != "2.1.0" || r.Tool.Driver.Name != "errorlab" || len(r.Tool.Driver.Rules) != len(grade.Checks()) {
			t.Fatalf("version %q, driver %q with %d rules", log.Version, r.Tool.Driver.Name, len(r.Tool.Driver.Rules))
		}
		if len(r.Results) == 0 {
			t.Fatal("no results from the faulty fixtures")
		}
		for _, res := range r.Results {
			loc := res.Locations
			if res.RuleID == "" || res.Message.Text == "" || len(loc) == 0 || loc[0].PhysicalLocation.ArtifactLocation.URI == "" || loc[0].PhysicalLocation.Region.StartLine < 1 {
				t.Fatalf("a result lacks what code scanning needs: %+v", res)
			}
		}
	}
}

func TestJUnitAndJSON(t *testing.T) {
	results := fixtureResults(t)
	var x bytes.Buffer
	if err := WriteJUnit(&x, results, Run{}); err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suite    []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(x.Bytes(), &suites); err != nil {
		t.Fatal(err)
	}
	s := Summarize(results)
	if suites.Tests != len(results) || suites.Failures != s.Fail {
		t.Errorf("junit: %d tests, %d failures; want %d, %d", suites.Tests, suites.Failures, len(results), s.Fail)
	}
	var j bytes.Buffer
	if err := WriteJSON(&j, results, Run{Version: "v"}); err != nil {
		t.Fatal(err)
	}
	var rep JSONReport
	if err := json.Unmarshal(j.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Summary != s || len(rep.Responses) != len(results) || !rep.Failed || rep.FailOn != grade.SevError {
		t.Errorf("json summary %+v failed %v", rep.Summary, rep.Failed)
	}
	// --fail-on warn fails a run with a warning and no error.
	warnOnly := []Result{GradeItem(Item{Response: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[]"}]}}`)})}
	if Failed(warnOnly, grade.SevError) || !Failed(warnOnly, grade.SevWarning) {
		t.Errorf("fail-on: a warning-only run failed=%v under error, %v under warning", Failed(warnOnly, grade.SevError), Failed(warnOnly, grade.SevWarning))
	}
}

// TestWriteJSONStreams: the report written response by response is the
// same document as the whole report encoded at once.
func TestWriteJSONStreams(t *testing.T) {
	for _, results := range [][]Result{fixtureResults(t), nil} {
		var whole bytes.Buffer
		enc := json.NewEncoder(&whole)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(NewJSONReport(results, Run{Version: "test"})); err != nil {
			t.Fatal(err)
		}
		var streamed bytes.Buffer
		if err := WriteJSON(&streamed, results, Run{Version: "test"}); err != nil {
			t.Fatal(err)
		}
		if whole.String() != streamed.String() {
			t.Errorf("streamed JSON differs:\n%s\nwant:\n%s", streamed.String(), whole.String())
		}
	}
}

// TestSARIFLocations: an absolute input path is a file:// URI; a live
// server's URI is cut at a word's end and differs from another server's,
// as do the fingerprints; the elements of an array keep their lines.
func TestSARIFLocations(t *testing.T) {
	type loc struct {
		URI  string
		Line int
		FP   string
	}
	locations := func(results []Result, run Run) []loc {
		var b bytes.Buffer
		if err := WriteSARIF(&b, results, run); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           struct{ StartLine int }
						}
					}
					PartialFingerprints map[string]string
				}
			}
		}
		if err := json.Unmarshal(b.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		var out []loc
		for _, r := range log.Runs[0].Results {
			p := r.Locations[0].PhysicalLocation
			out = append(out, loc{p.ArtifactLocation.URI, p.Region.StartLine, r.PartialFingerprints["errorlabFinding/v1"]})
		}
		return out
	}
	bad := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Operation failed"}],"isError":true}}`
	items, err := Parse([]byte("[\n"+bad+",\n"+bad+"\n]\n"), "/tmp/x/logs/responses.json", "")
	if err != nil {
		t.Fatal(err)
	}
	got := locations(GradeAll(items), Run{})
	if got[0].URI != "file:///tmp/x/logs/responses.json" || got[0].Line != 2 || got[len(got)-1].Line != 3 {
		t.Errorf("file locations %+v", got)
	}
	live := GradeAll([]Item{{Response: []byte(bad), Label: "tools/call x"}})
	long := "node /tmp/errorlab-realtools/modelcontextprotocol__server-filesystem@2026.8.31/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js "
	a, b := locations(live, Run{Target: long + "/srv/root-a"}), locations(live, Run{Target: long + "/srv/root-b"})
	if a[0].URI == b[0].URI || a[0].FP == b[0].FP {
		t.Errorf("two servers share a URI or fingerprint: %+v %+v", a[0], b[0])
	}
	slugPart := a[0].URI[:strings.LastIndexByte(a[0].URI, '-')]
	whole := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(long+"/srv/root-a"), "-"), "-.")
	if rest, ok := strings.CutPrefix(whole, slugPart); !ok || rest == "" || (rest[0] != '-' && rest[0] != '.') || len(slugPart) > maxSlug {
		t.Errorf("the URI is cut mid-word: %s (of %s)", a[0].URI, whole)
	}
	if again := locations(live, Run{Target: long + "/srv/root-a"}); again[0] != a[0] {
		t.Errorf("the same server's location changed between runs: %+v %+v", again[0], a[0])
	}
}
