package scenarios

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	yamlv3 "gopkg.in/yaml.v3"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/errorlab/errorlab/assets"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// Problem is one thing wrong in a content file, at a position.
type Problem struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Msg)
}

// LoadError lists every problem found; when it is returned nothing was
// loaded.
type LoadError struct{ Problems []Problem }

func (e *LoadError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Catalog is a validated set of scenarios.
type Catalog struct {
	Scenarios []*Scenario
	// Reference is the rules Reference a content directory gave (its
	// reference/ folder); nil means the embedded one, DefaultReference.
	Reference *Reference
	byID      map[string]*Scenario
}

// Get returns the scenario with that id.
func (c *Catalog) Get(id string) (*Scenario, bool) {
	s, found := c.byID[id]
	return s, found
}

// IDs lists every id in catalogue order.
func (c *Catalog) IDs() []string {
	out := make([]string, len(c.Scenarios))
	for i, s := range c.Scenarios {
		out[i] = s.ID
	}
	return out
}

// Closest returns up to n ids nearest to id by edit distance, for "did you
// mean" messages.
func (c *Catalog) Closest(id string, n int) []string { return ClosestIDs(id, c.IDs(), n) }

// ClosestIDs returns up to n of ids nearest to id, the way
// [Catalog.Closest] ranks scenario ids, for "did you mean" messages about
// other kinds of content.
func ClosestIDs(id string, ids []string, n int) []string {
	type cand struct {
		id string
		d  int
	}
	var cs []cand
	want := strings.ToLower(id)
	words := strings.FieldsFunc(want, func(r rune) bool { return r == '-' || r == '_' || r == ' ' })
	for _, x := range ids {
		d := distance(want, x)
		if strings.Contains(x, want) && want != "" {
			d = 0
		}
		// Words the id shares with the query count for more than spelling.
		for _, w := range words {
			if len(w) > 2 && strings.Contains(x, w) {
				d -= 2 * len(w)
			}
		}
		cs = append(cs, cand{x, d})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].id)
	}
	return out
}

// Next returns the scenario after id in catalogue order, wrapping.
func (c *Catalog) Next(id string) *Scenario {
	for i, s := range c.Scenarios {
		if s.ID == id {
			return c.Scenarios[(i+1)%len(c.Scenarios)]
		}
	}
	return c.Scenarios[0]
}

func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// embeddedLabel prefixes the built-in files' names in problems.
const embeddedLabel = "embedded:scenarios"

// Default loads the built-in catalogue embedded in the binary. Every file
// is decoded strictly and its fields and names are checked, which loading
// needs; the checks an outside file also gets ([CheckYAMLText] for hostile
// text, and each scenario run against the engine under every revision)
// are not repeated at every start. The embedded files cannot change after
// the build, so `go test` runs them once: TestEmbeddedCatalogIsValid loads
// the same files with [LoadFS].
func Default() (*Catalog, error) {
	sub, err := fs.Sub(assets.FS, "scenarios")
	if err != nil {
		return nil, err
	}
	return loadFS(sub, embeddedLabel, false)
}

// Load returns the built-in catalogue, overlaid with the scenarios of dir
// when dir is not empty: a scenario in dir replaces the built-in one with
// the same id, and new ids are added. A reference/ folder in dir replaces
// the Reference (see LoadReferenceDir); dir may hold only that, or only
// a walkthroughs/ folder (package walkthrough reads it). If
// anything in dir is wrong, nothing is loaded and the error lists every
// problem as file:line:col.
func Load(dir string) (*Catalog, error) {
	base, err := Default()
	if err != nil || dir == "" {
		return base, err
	}
	if err := IsContentDir(dir); err != nil {
		return nil, err
	}
	extra, err := loadContentDir(dir)
	if err != nil {
		return nil, err
	}
	merged := &Catalog{byID: map[string]*Scenario{}, Reference: extra.Reference}
	for _, s := range Overlay(base.Scenarios, extra.Scenarios, func(s *Scenario) string { return s.ID }) {
		merged.add(s)
	}
	merged.sortByTopic()
	return merged, nil
}

func (c *Catalog) add(s *Scenario) {
	c.Scenarios = append(c.Scenarios, s)
	c.byID[s.ID] = s
}

// LoadFS reads every *.yaml and *.yml file at the top of fsys, validates
// each scenario (structure, names, and agreement with the engine), and
// returns the catalogue sorted by topic then file name. label prefixes
// file names in problems.
func LoadFS(fsys fs.FS, label string) (*Catalog, error) {
	return loadFS(fsys, label, true)
}

// loadFS is [LoadFS]. With full false (the embedded files, see [Default])
// it skips [CheckYAMLText] and the engine run.
func loadFS(fsys fs.FS, label string, full bool) (*Catalog, error) {
	files, err := ContentFiles(fsys)
	if err != nil {
		return nil, fmt.Errorf("cannot read the directory %s: %w", label, err)
	}
	if len(files) == 0 {
		return nil, &LoadError{[]Problem{{File: label, Msg: noScenarioFiles}}}
	}
	// The files are decoded (and checked) side by side, a worker per CPU:
	// the YAML decoder is the cost of a start. They are added in order.
	loaded := make([]loadedFile, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := range next {
				loaded[i] = loadFile(fsys, files[i], path.Join(label, files[i]), full)
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	c := &Catalog{byID: map[string]*Scenario{}}
	var problems []Problem
	firstFile := map[string]string{}
	for _, f := range loaded {
		if len(f.problems) > 0 {
			problems = append(problems, f.problems...)
			continue
		}
		s := f.scenario
		if prev, dup := firstFile[s.ID]; dup {
			p := at(f.file, f.data, "$.id", fmt.Sprintf("duplicate scenario id %q (first defined in %s)", s.ID, prev))
			problems = append(problems, p)
			continue
		}
		firstFile[s.ID] = f.file
		c.add(s)
	}
	if len(problems) > 0 {
		return nil, &LoadError{problems}
	}
	c.sortByTopic()
	return c, nil
}

// loadedFile is one content file read and decoded: its scenario, or the
// problems that stop it loading.
type loadedFile struct {
	file     string
	data     []byte
	scenario *Scenario
	problems []Problem
}

// loadFile reads, checks and decodes the file name of fsys; file is its
// name in problems. With full it also gets [CheckYAMLText] and the engine
// run.
func loadFile(fsys fs.FS, name, file string, full bool) loadedFile {
	f := loadedFile{file: file}
	f.data, f.problems = readChecked(fsys, name, file, full)
	if len(f.problems) > 0 {
		return f
	}
	f.scenario, f.problems = parseScenario(file, f.data, full)
	return f
}

// sortByTopic orders scenarios by topic (Topics order), keeping file order
// within a topic.
func (c *Catalog) sortByTopic() {
	order := map[string]int{}
	for i, t := range Topics {
		order[t.ID] = i
	}
	sort.SliceStable(c.Scenarios, func(i, j int) bool {
		return order[c.Scenarios[i].Topic] < order[c.Scenarios[j].Topic]
	})
}

// IsContentDir says, in words for a content author, why dir cannot hold
// content files (it is missing, unreadable, or a file); nil when it can.
func IsContentDir(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("cannot %s %s: %v", pe.Op, dir, pe.Err)
		}
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is not a directory: point at a directory of *.yaml files", dir)
	}
	return nil
}

// noScenarioFiles is the problem of a content directory with no scenarios.
const noScenarioFiles = "no *.yaml scenario files here"

// ValidateDir checks every scenario file in dir on its own (no overlay),
// and its reference/ folder if it has one, and returns the problems, empty
// when all is well, with the number of scenarios.
func ValidateDir(dir string) ([]Problem, int, error) {
	if err := IsContentDir(dir); err != nil {
		return nil, 0, err
	}
	c, err := loadContentDir(dir)
	var le *LoadError
	if errors.As(err, &le) {
		return le.Problems, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	return nil, len(c.Scenarios), nil
}

// parseScenario decodes one file strictly and validates it; with engine,
// a scenario whose structure is sound is also checked against the engine.
//
// Without engine (the embedded files, which go test checks in full) the
// file is decoded by yaml.v3, several times faster than goccy/go-yaml on
// these files; a file it refuses is decoded again by goccy/go-yaml for a
// located message. TestFastDecodeMatches keeps the two decoders agreeing
// on every embedded file.
func parseScenario(file string, data []byte, engine bool) (*Scenario, []Problem) {
	var s Scenario
	if engine || !fastDecode(data, &s) {
		s = Scenario{}
		if err := yaml.UnmarshalWithOptions(data, &s, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
			return nil, []Problem{yamlProblem(file, err)}
		}
	}
	s.File = file
	ps := validate(file, data, &s)
	if engine && len(ps) == 0 {
		ps = checkAgainstEngine(file, data, &s)
	}
	return &s, ps
}

func yamlProblem(file string, err error) Problem {
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil {
		pos := ye.GetToken().Position
		return Problem{File: file, Line: pos.Line, Column: pos.Column, Msg: YAMLMessage(err)}
	}
	return Problem{File: file, Msg: YAMLMessage(err)}
}

// at locates a YAML path in the file for a problem; an unknown path falls
// back to line 1.
func at(file string, data []byte, p, msg string) Problem {
	line, col := Locate(data, p)
	return Problem{File: file, Line: line, Column: col, Msg: msg}
}

// Locate returns the line and column of a YAML path ("$.call.raw",
// "$[3].options[1]") in a content file, falling back to the nearest parent
// that exists, and to 1:1.
func Locate(data []byte, p string) (int, int) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return 1, 1
	}
	for p != "$" && p != "" {
		yp, err := yaml.PathString(p)
		if err == nil {
			if n, err := yp.FilterFile(f); err == nil && n != nil {
				return position(n)
			}
		}
		i := strings.LastIndexAny(p, ".[")
		if i <= 0 {
			break
		}
		p = p[:i]
	}
	return 1, 1
}

func position(n ast.Node) (int, int) {
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 1, 1
	}
	return tk.Position.Line, tk.Position.Column
}

var sectionPattern = regexp.MustCompile(`^§[1-9]( §[1-9])*$`)

// sentences counts the sentences of a paragraph: runs ending in . ? or !
// followed by a space or the end.
func sentences(text string) int {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return 0
	}
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if (c == '.' || c == '?' || c == '!') && (i+1 == len(text) || text[i+1] == ' ') {
			before := strings.ToLower(text[max(0, i-3) : i+1])
			if strings.HasSuffix(before, "e.g.") || strings.HasSuffix(before, "i.e.") || strings.HasSuffix(before, "vs.") {
				continue
			}
			n++
		}
	}
	if !strings.ContainsAny(text[len(text)-1:], ".?!") {
		n++
	}
	return n
}

var idPattern = func(id string) bool {
	if id == "" || id[0] < 'a' || id[0] > 'z' {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// validate checks structure and names; [checkAgainstEngine] does the
// rest.
func validate(file string, data []byte, s *Scenario) []Problem {
	var ps []Problem
	bad := func(p, msg string, a ...any) { ps = append(ps, at(file, data, p, fmt.Sprintf(msg, a...))) }

	if !idPattern(s.ID) {
		bad("$.id", "id %q must start with a letter and hold only lower-case letters, digits and dashes, e.g. refund-window", s.ID)
	}
	if strings.TrimSpace(s.Title) == "" {
		bad("$.title", "title is missing")
	}
	if _, found := TopicByID(s.Topic); !found {
		names := make([]string, len(Topics))
		for i, t := range Topics {
			names[i] = t.ID
		}
		bad("$.topic", "unknown topic %q: use one of %s", s.Topic, strings.Join(names, ", "))
	}
	if !sectionPattern.MatchString(s.Section) {
		bad("$.section", "section %q must name LESSON-RULES sections §1 to §9, e.g. \"§2\" or \"§3 §6\"", s.Section)
	}
	if n := sentences(s.Situation); n < 2 || n > 4 {
		bad("$.situation", "situation must be two or three sentences about the customer (found %d)", n)
	}
	s.Call.Raw = strings.TrimSpace(s.Call.Raw)
	if strings.ContainsAny(s.Call.Raw, "\r\n") {
		bad("$.call.raw", "raw request bytes must be one line: on stdio a newline ends a JSON-RPC message")
	}
	switch {
	case s.Call.Raw == "" && s.Call.Tool == "":
		bad("$.call", "call needs a tool (with arguments) or raw request bytes")
	case s.Call.Raw != "" && s.Call.Tool != "":
		bad("$.call", "call has both tool and raw: give one")
	}
	if s.Failure.Kind != "" {
		if _, err := mockserver.ParseFaultKind(string(s.Failure.Kind)); err != nil {
			bad("$.failure.kind", "%v", err)
		}
	}
	if s.Spec != "" {
		if _, err := rules.ParseRevision(string(s.Spec)); err != nil {
			bad("$.spec", "%v", err)
		}
	}
	if len(s.Styles) == 0 || s.Styles[0] != mockserver.StyleGood {
		bad("$.styles", "styles must start with good (the recommended response), then any bad styles")
	}
	seen := map[mockserver.Style]bool{}
	for i, st := range s.Styles {
		if _, err := mockserver.ParseStyle(string(st)); err != nil {
			bad(fmt.Sprintf("$.styles[%d]", i), "%v", err)
		}
		if seen[st] {
			bad(fmt.Sprintf("$.styles[%d]", i), "style %s is listed twice", st)
		}
		seen[st] = true
	}
	if s.OpenStyle != "" && !s.HasStyle(s.OpenStyle) {
		bad("$.openStyle", "openStyle %s is not one of the scenario's styles", s.OpenStyle)
	}
	checkExpected(bad, "$.expected", s.Expected)
	checkActions(bad, "$", s.BestAction, s.AcceptableActions)
	for _, a := range rules.Actions {
		if strings.TrimSpace(s.Feedback[a]) == "" {
			bad("$.feedback", "feedback for %s is missing: every action of LESSON-RULES §8 needs a sentence", a)
		}
	}
	for a := range s.Feedback {
		if !a.Valid() {
			bad("$.feedback."+string(a), "feedback for unknown action %q", a)
		}
	}
	for rev, o := range s.Revisions {
		if _, err := rules.ParseRevision(string(rev)); err != nil {
			bad("$.revisions", "%v", err)
			continue
		}
		p := fmt.Sprintf("$.revisions.%s", rev)
		if o.Expected != nil {
			checkExpected(bad, p+".expected", *o.Expected)
		}
		if o.BestAction != "" {
			checkActions(bad, p, o.BestAction, o.AcceptableActions)
		}
	}
	return ps
}

func checkExpected(bad func(string, string, ...any), p string, e Expected) {
	switch e.Layer {
	case rules.LayerProtocol, rules.LayerExecution, rules.LayerSuccess:
	default:
		bad(p+".layer", "layer %q must be protocol, execution or success", e.Layer)
	}
	if e.ErrorCategory != "" && !e.ErrorCategory.Valid() {
		bad(p+".errorCategory", "errorCategory %q must be transient, validation, business or permission", e.ErrorCategory)
	}
	if e.Layer == rules.LayerExecution && e.ErrorCategory == "" {
		bad(p, "an execution error needs an errorCategory")
	}
	if e.Layer == rules.LayerExecution && e.ErrorCategory.Valid() && e.IsRetryable != nil && *e.IsRetryable != e.ErrorCategory.Retryable() {
		bad(p+".isRetryable", "isRetryable %v contradicts LESSON-RULES §2: %s is %v", *e.IsRetryable, e.ErrorCategory, e.ErrorCategory.Retryable())
	}
}

func checkActions(bad func(string, string, ...any), p string, best rules.Action, ok []rules.Action) {
	if _, err := rules.ParseAction(string(best)); err != nil {
		bad(p+".bestAction", "%v", err)
	}
	for i, a := range ok {
		if _, err := rules.ParseAction(string(a)); err != nil {
			bad(fmt.Sprintf("%s.acceptableActions[%d]", p, i), "%v", err)
		}
	}
}

// checkAgainstEngine makes the call in the good style under each revision
// and compares what comes back, and what the rules recommend, with what
// the file says.
func checkAgainstEngine(file string, data []byte, s *Scenario) []Problem {
	var ps []Problem
	for _, rev := range rules.Revisions {
		truth := s.TruthAt(rev)
		exprPath := "$.expected"
		actPath := "$"
		if o, found := s.Revisions[rev]; found {
			if o.Expected != nil {
				exprPath = fmt.Sprintf("$.revisions.%s.expected", rev)
			}
			if o.BestAction != "" {
				actPath = fmt.Sprintf("$.revisions.%s", rev)
			}
		}
		ex, err := s.Exchange(context.Background(), mockserver.StyleGood, rev)
		if err != nil {
			ps = append(ps, at(file, data, "$.call", fmt.Sprintf("under %s the call failed to run: %v", rev, err)))
			continue
		}
		got, err := ex.Classify()
		if err != nil {
			ps = append(ps, at(file, data, "$.call", fmt.Sprintf("under %s the response is unreadable: %v", rev, err)))
			continue
		}
		if msg := compare(truth.Expected, got); msg != "" {
			ps = append(ps, at(file, data, exprPath, fmt.Sprintf("under %s the good-style response %s", rev, msg)))
			continue
		}
		rec, recOK := rules.Recommend(s.SituationAt(rev))
		if !recOK {
			ps = append(ps, at(file, data, exprPath, "the expected outcome is a plain success: a scenario needs a failure or an empty result"))
			continue
		}
		if truth.Best != rec.Best {
			ps = append(ps, at(file, data, actPath+".bestAction",
				fmt.Sprintf("under %s bestAction %s disagrees with LESSON-RULES (%s): the rules give %s", rev, truth.Best, rec.Rule.Ref(), rec.Best)))
		}
		for _, a := range truth.Acceptable {
			if !slices.Contains(rec.Acceptable, a) {
				ps = append(ps, at(file, data, actPath+".acceptableActions",
					fmt.Sprintf("under %s %s is not acceptable by LESSON-RULES (%s)", rev, a, rec.Rule.Ref())))
			}
		}
	}
	return dedupe(ps)
}

// compare describes how got differs from want, or "" if it matches.
func compare(want Expected, got rules.Classification) string {
	var diffs []string
	if got.Layer != want.Layer {
		diffs = append(diffs, fmt.Sprintf("is on the %s layer, not %s", got.Layer, want.Layer))
	}
	if got.ErrorCategory != want.ErrorCategory {
		diffs = append(diffs, fmt.Sprintf("has errorCategory %q, not %q", got.ErrorCategory, want.ErrorCategory))
	}
	if want.IsRetryable != nil && (got.IsRetryable == nil || *got.IsRetryable != *want.IsRetryable) {
		diffs = append(diffs, fmt.Sprintf("has isRetryable %s, not %v", boolText(got.IsRetryable), *want.IsRetryable))
	}
	if got.Empty != want.Empty {
		diffs = append(diffs, fmt.Sprintf("has empty %v, not %v", got.Empty, want.Empty))
	}
	if want.ProtocolCode != 0 && got.ProtocolCode != want.ProtocolCode {
		diffs = append(diffs, fmt.Sprintf("has code %d, not %d", got.ProtocolCode, want.ProtocolCode))
	}
	if got.Meta.RequiresUserAction != want.RequiresUserAction {
		diffs = append(diffs, fmt.Sprintf("has requiresUserAction %v, not %v", got.Meta.RequiresUserAction, want.RequiresUserAction))
	}
	return strings.Join(diffs, "; ")
}

func boolText(b *bool) string {
	if b == nil {
		return "absent"
	}
	return fmt.Sprint(*b)
}

func dedupe(ps []Problem) []Problem {
	var out []Problem
	seen := map[string]bool{}
	for _, p := range ps {
		k := p.String()
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// fastDecode decodes data into s with yaml.v3, unknown fields refused,
// with goccy/go-yaml's number types (goccyNumbers), and reports whether
// it succeeded.
func fastDecode(data []byte, s *Scenario) bool {
	dec := yamlv3.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	return dec.Decode(s) == nil && goccyNumbers(s)
}

// goccyNumbers gives the untyped values yaml.v3 decoded (call arguments
// and corrections) the number types goccy/go-yaml gives them: uint64 for
// a whole number from 0 up, int64 below. It reports false for a value it
// does not know, so the file is decoded again by goccy/go-yaml.
func goccyNumbers(s *Scenario) bool {
	return anyNumbers(s.Call.Arguments) && anyNumbers(s.Correction)
}

func anyNumbers(m map[string]any) bool {
	for k, v := range m {
		nv, ok := goccyValue(v)
		if !ok {
			return false
		}
		m[k] = nv
	}
	return true
}

func goccyValue(v any) (any, bool) {
	switch v := v.(type) {
	case int:
		if v >= 0 {
			return uint64(v), true
		}
		return int64(v), true
	case string, bool, float64, nil:
		return v, true
	case map[string]any:
		return v, anyNumbers(v)
	case []any:
		for i, e := range v {
			ne, ok := goccyValue(e)
			if !ok {
				return nil, false
			}
			v[i] = ne
		}
		return v, true
	}
	return nil, false
}
