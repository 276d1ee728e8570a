package quiz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/errorlab/errorlab/sim/rules"
)

// member is one value of a JSON object or array in a progress file: its
// key (or index), its bytes and the line of the file it starts on.
type member struct {
	key   string
	index int
	raw   json.RawMessage
	start int // byte offset in the file
	line  int
}

// members walks the JSON object or array raw, which starts at byte base
// of data, and returns its members in order. ok is false when raw is
// neither (a number, text, true, false or null).
func members(data []byte, raw json.RawMessage, base int) (out []member, array, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, false, false
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim || (d != '{' && d != '[') {
		return nil, false, false
	}
	array = d == '['
	_ = eachMember(dec, data, base, array, func(m member) { out = append(out, m) })
	return out, array, true
}

// eachMember reads the members of the object (or, when array, the array)
// whose opening token dec has just read, handing each complete one to
// each in order; dec's input starts at byte base of data. It stops at the
// first member that cannot be read and returns that error; the closing
// token is left for the caller.
func eachMember(dec *json.Decoder, data []byte, base int, array bool, each func(member)) error {
	for i := 0; dec.More(); i++ {
		m := member{index: i}
		if !array {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			m.key, _ = k.(string)
		}
		if err := dec.Decode(&m.raw); err != nil {
			return err
		}
		m.start = base + int(dec.InputOffset()) - len(m.raw)
		m.line = lineAt(data, m.start)
		each(m)
	}
	return nil
}

// lineAt is the line of data that byte off is on, counting from 1.
func lineAt(data []byte, off int) int {
	return 1 + bytes.Count(data[:min(max(off, 0), len(data))], []byte("\n"))
}

// tokenKind names the kind of the JSON value a json.Decoder token opens,
// in rules.JSONKind's words.
func tokenKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return "an object"
	case string:
		return "a string"
	case bool:
		return "a boolean" // as rules.JSONKind says
	case nil:
		return "null"
	}
	return "a number"
}

// salvage reads a progress file token by token, so that one bad value,
// or a file cut off part-way, costs only what it must: every record read
// whole and sensible before the cut is kept.
type salvage struct {
	data []byte
	dec  *json.Decoder
	p    *Progress
	// dropped and repaired say, one entry each, what was left out and
	// what was mended: "what (line N): why".
	dropped, repaired []string
	// cut says why reading stopped before the end of the file ("" when
	// it did not).
	cut string
	// What was found at the top level: the schemaVersion's bytes and
	// line, the sections seen, and whether any other field was there.
	version     json.RawMessage
	versionLine int
	seen        []string
	unknown     bool
}

func (r *salvage) drop(what string, line int, why string) {
	r.dropped = append(r.dropped, fmt.Sprintf("%s (line %d): %s", what, line, why))
}

func (r *salvage) repair(what string, line int, why string) {
	r.repaired = append(r.repaired, fmt.Sprintf("%s (line %d): %s", what, line, why))
}

// valueStart is where the value after a key that ends at off begins.
func (r *salvage) valueStart(off int) int {
	for off < len(r.data) && strings.IndexByte(" \t\r\n:", r.data[off]) >= 0 {
		off++
	}
	return off
}

// stop records why reading stopped at err: the file ends part-way, or
// it is not JSON from some point on.
func (r *salvage) stop(err error) {
	if r.cut != "" {
		return
	}
	var whole json.RawMessage
	var se *json.SyntaxError
	switch werr := json.Unmarshal(r.data, &whole); {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || (werr != nil && werr.Error() == "unexpected end of JSON input"):
		r.cut = fmt.Sprintf("it ends part-way at line %d (truncated, as a crash or a full disk leaves it)", lineAt(r.data, len(bytes.TrimRight(r.data, " \t\r\n"))))
	case errors.As(werr, &se):
		r.cut = fmt.Sprintf("it is not valid JSON from line %d on (%s)", lineAt(r.data, int(se.Offset)-1), se.Error())
	default:
		r.cut = fmt.Sprintf("it could not be read past line %d (%v)", lineAt(r.data, int(r.dec.InputOffset())), err)
	}
}

// decodeProgress reads a progress file's bytes. A file that is not a
// JSON object, of a newer schema, or neither holding a valid
// schemaVersion nor recognisably errorlab's is a *corruptError with
// nothing salvaged. Otherwise every lab scenario record, answer record
// and exam is read on its own, up to where the file ends or stops being
// JSON: those that read and hold sensible values are kept, a bad value
// an exam can do without is mended, and when anything was left out,
// mended or cut off the result is a *corruptError whose salvaged
// progress holds what was kept, and which says what was not.
func decodeProgress(data []byte) (*Progress, error) {
	r := &salvage{data: data, dec: json.NewDecoder(bytes.NewReader(data)), p: newProgress()}
	tok, err := r.dec.Token()
	if err != nil {
		if len(bytes.TrimSpace(data)) == 0 {
			return nil, &corruptError{err: errors.New("it is empty (as a crash or a full disk can leave it)")}
		}
		var whole json.RawMessage
		return nil, &corruptError{err: errors.New(jsonProblem(json.Unmarshal(data, &whole)))}
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, &corruptError{err: fmt.Errorf("it holds %s, not the object a progress file is", rules.JSONKind(bytes.TrimSpace(data)))}
	}
	r.top()
	version, err := r.readVersion()
	if err != nil {
		return nil, err
	}
	r.p.SchemaVersion = version
	if len(r.dropped) > 0 || len(r.repaired) > 0 || r.cut != "" {
		why := slices.Concat(r.dropped, r.repaired)
		if r.cut != "" {
			why = slices.Insert(why, 0, r.cut)
		}
		return nil, &corruptError{err: errors.New(strings.Join(why, "; ")), salvaged: r.p, dropped: r.dropped, repaired: r.repaired, cut: r.cut}
	}
	return r.p, nil
}

// top reads the fields of the top-level object, until its end or until
// the file stops being readable.
func (r *salvage) top() {
	dec := r.dec
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			r.stop(err)
			return
		}
		key, _ := kt.(string)
		start := r.valueStart(int(dec.InputOffset()))
		switch key {
		case "schemaVersion":
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				r.stop(err)
				return
			}
			r.version, r.versionLine = raw, lineAt(r.data, start)
		case "scenarios":
			r.seen = append(r.seen, key)
			if !r.section(key, start, "every lab scenario record", '{', r.scenario) {
				return
			}
		case "items":
			r.seen = append(r.seen, key)
			if !r.section(key, start, "every answer to a question or drill", '{', r.item) {
				return
			}
		case "exams":
			r.seen = append(r.seen, key)
			r.p.Exams = nil // a repeated key: the last wins, as in encoding/json
			if !r.section(key, start, "every mock exam", '[', r.exam) {
				return
			}
		default:
			r.unknown = true
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				r.stop(err)
				return
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		r.stop(err)
		return
	}
	if _, err := dec.Token(); err != io.EOF {
		r.cut = fmt.Sprintf("it has more after its end, on line %d, which was left out", lineAt(r.data, int(dec.InputOffset())))
	}
}

// section reads one of the top-level collections member by member,
// handing each complete one to each; a collection of the wrong kind is
// dropped whole. It returns false when the file could not be read on.
func (r *salvage) section(name string, start int, what string, want json.Delim, each func(member)) bool {
	dec := r.dec
	tok, err := dec.Token()
	if err != nil {
		r.stop(err)
		return false
	}
	if tok == nil {
		return true // null: none kept
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		if ok && !r.skip() {
			return false
		}
		wantWord := "an object"
		if want == '[' {
			wantWord = "a list"
		}
		r.drop(what, lineAt(r.data, start), fmt.Sprintf("the field %q holds %s where progress keeps %s", name, tokenKind(tok), wantWord))
		return true
	}
	if err := eachMember(dec, r.data, 0, want == '[', each); err != nil {
		r.stop(err)
		return false
	}
	if _, err := dec.Token(); err != nil { // the closing brace or bracket
		r.stop(err)
		return false
	}
	return true
}

// skip reads past the rest of an object or array whose opening token
// was just read; false when the file could not be read on.
func (r *salvage) skip() bool {
	for depth := 1; depth > 0; {
		tok, err := r.dec.Token()
		if err != nil {
			r.stop(err)
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return true
}

// readVersion decides which version the file is. A number is that
// version; text holding a number is read as it, and said so. A file
// with no valid schemaVersion that holds errorlab's sections and nothing
// else is read as this version, and said so. Anything else is not a
// progress file errorlab can read (nothing is salvaged).
func (r *salvage) readVersion() (int, error) {
	version, asText := 0, ""
	if r.version != nil {
		var f float64
		if json.Unmarshal(r.version, &f) == nil && f == float64(int(f)) {
			version = int(f)
		} else if json.Unmarshal(r.version, &asText) == nil {
			if n, err := strconv.Atoi(strings.TrimSpace(asText)); err == nil {
				version = n
			}
		}
	}
	if version > SchemaVersion {
		return 0, &corruptError{err: fmt.Errorf("a newer errorlab wrote it (schemaVersion %d; this one reads %d)", version, SchemaVersion), newer: true}
	}
	if version > 0 {
		if asText != "" {
			r.repair("its schemaVersion", r.versionLine, fmt.Sprintf("it holds the text %q where progress keeps a number; read as version %d", asText, version))
		}
		return version, nil
	}
	if len(r.seen) == 0 || r.unknown {
		if r.cut != "" {
			return 0, &corruptError{err: errors.New(r.cut)}
		}
		return 0, &corruptError{err: errors.New("it has no valid schemaVersion, so it is not an errorlab progress file")}
	}
	what := "it has no schemaVersion"
	if r.version != nil {
		what = fmt.Sprintf("it has no valid schemaVersion (it holds %s)", compactRaw(r.version))
	}
	why := fmt.Sprintf("%s, but its other fields (%s) are errorlab's; read as version %d", what, quoteAll(r.seen), SchemaVersion)
	if r.version == nil {
		r.repaired = append(r.repaired, "the file as a whole: "+why)
	} else {
		r.repair("its schemaVersion", r.versionLine, why)
	}
	return SchemaVersion, nil
}

// compactRaw is a JSON value on one line, shortened when long.
func compactRaw(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return rules.JSONKind(raw)
	}
	s := b.String()
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// fieldLine is the line of a record's field named by a decoding error
// (its first part: "box" of "box", "byTopic" of "byTopic.x"), or the
// record's own line when it is not found.
func (r *salvage) fieldLine(m member, field string) int {
	field, _, _ = strings.Cut(field, ".")
	if fields, array, ok := members(r.data, m.raw, m.start); ok && !array {
		for _, f := range slices.Backward(fields) {
			if f.key == field {
				return f.line
			}
		}
	}
	return m.line
}

// record decodes one record into v and says in plain words why it could
// not ("" when it could), with the line of the field at fault; a record
// must be a JSON object (null is not one).
func (r *salvage) record(m member, v any) (why string, line int) {
	if k := rules.JSONKind(m.raw); k != "an object" {
		return fmt.Sprintf("it holds %s where progress keeps an object", k), m.line
	}
	if err := json.Unmarshal(m.raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return jsonProblem(err), r.fieldLine(m, te.Field)
		}
		return jsonProblem(err), m.line
	}
	return "", m.line
}

func (r *salvage) scenario(m member) {
	var rec ScenarioRecord
	what := fmt.Sprintf("the record of lab scenario %q", m.key)
	if why, line := r.record(m, &rec); why != "" {
		r.drop(what, line, why)
		return
	}
	if rec.Attempts < 0 {
		r.drop(what, r.fieldLine(m, "attempts"), fmt.Sprintf("it counts %d attempts", rec.Attempts))
		return
	}
	r.p.Scenarios[m.key] = rec
}

func (r *salvage) item(m member) {
	// Not the id: a question's id can give its answer away.
	var rec ItemRecord
	what := "the answers to one question or drill"
	if why, line := r.record(m, &rec); why != "" {
		r.drop(what, line, why)
		return
	}
	if why := rec.problem(); why != "" {
		r.drop(what, m.line, why)
		return
	}
	r.p.Items[m.key] = rec
}

// exam reads one mock exam field by field. A field that does not read
// costs only itself where the exam can do without it or work it out
// again (a flag is cleared, the score recounted from the answers missed,
// the time taken forgotten); only an exam whose date cannot be read, or
// whose score cannot be worked out, is left out.
func (r *salvage) exam(m member) {
	what := fmt.Sprintf("mock exam #%d", m.index+1)
	var at struct {
		At time.Time `json:"at"`
	}
	if json.Unmarshal(m.raw, &at) == nil && !at.At.IsZero() {
		what = "the mock exam of " + at.At.UTC().Format("2006-01-02 15:04") + " UTC"
	}
	fields, array, ok := members(r.data, m.raw, m.start)
	if !ok || array {
		r.drop(what, m.line, fmt.Sprintf("it holds %s where progress keeps an object", rules.JSONKind(m.raw)))
		return
	}
	var e ExamRecord
	type repair struct {
		line int
		why  string
	}
	var repaired []repair
	fix := func(line int, why string) { repaired = append(repaired, repair{line, why}) }
	// Values worked out again from the others, once all are read: the
	// number of questions, then the score, then passed or not.
	var recount [3]func()
	noReplay, lost, lostLine := false, "", 0
	for _, f := range fields {
		key, _ := json.Marshal(f.key) // a JSON string, whatever the key holds
		err := json.Unmarshal(fmt.Appendf(nil, "{%s:%s}", key, f.raw), &e)
		if err == nil {
			continue
		}
		why, line := jsonProblem(err), f.line
		switch f.key {
		case "flags":
			e.Flags = nil
			els, array, ok := members(r.data, f.raw, f.start)
			if !ok || !array {
				fix(line, why+"; its flags were cleared")
				break
			}
			for i, el := range els {
				var b bool
				if json.Unmarshal(el.raw, &b) != nil {
					fix(el.line, fmt.Sprintf("the flag of its question %d holds %s where progress keeps true or false; that flag was cleared", i+1, rules.JSONKind(el.raw)))
				}
				e.Flags = append(e.Flags, b)
			}
		case "questions":
			recount[0] = func() {
				e.Questions = len(e.Items)
				if e.Questions == 0 {
					for _, n := range e.ByTopic {
						e.Questions += n[1]
					}
				}
				if e.Questions == 0 {
					lost, lostLine = why+", and its questions are not there to count", line
					return
				}
				fix(line, fmt.Sprintf("%s; recounted from its questions as %d", why, e.Questions))
			}
		case "correct":
			recount[1] = func() {
				e.Correct = e.Questions - len(e.Missed)
				fix(line, fmt.Sprintf("%s; recounted from its answers as %d of %d", why, e.Correct, e.Questions))
			}
		case "passed":
			recount[2] = func() {
				if e.PassMark <= 0 || e.PassMark > 1 {
					e.PassMark = DefaultPassMark // a missing pass line would pass anything
				}
				e.Passed = e.Questions > 0 && float64(e.Correct)/float64(e.Questions) >= e.PassMark
				fix(line, fmt.Sprintf("%s; worked out again from its score as %v", why, e.Passed))
			}
		case "passMark":
			e.PassMark = DefaultPassMark
			fix(line, fmt.Sprintf("%s; set to the usual %.0f%%", why, 100*DefaultPassMark))
		case "seconds":
			e.Seconds = 0
			fix(line, why+"; the time it took was left out")
		case "limit":
			e.Limit = 0
			fix(line, why+"; the time it allowed was left out")
		case "seed":
			e.Seed = 0
			fix(line, why+"; that value was left out")
		case "timedOut":
			e.TimedOut = false
			fix(line, why+"; that value was left out")
		case "missed":
			e.Missed = nil
			if els, array, ok := members(r.data, f.raw, f.start); ok && array {
				for _, el := range els {
					var id string
					if json.Unmarshal(el.raw, &id) == nil {
						e.Missed = append(e.Missed, id)
					}
				}
			}
			fix(line, why+"; what did not read was left out of its list of questions missed")
		case "byTopic":
			e.ByTopic = nil
			fix(line, why+"; its score by topic was left out")
		case "items", "answers":
			e.Items, e.Answers = nil, nil
			fix(line, why+"; its questions and answers were left out, so it can no longer be walked again (its score is kept)")
			noReplay = true
		default: // "at": an exam with no date cannot be placed
			if k := rules.JSONKind(f.raw); k != "a string" {
				why = fmt.Sprintf("the field %q holds %s where progress keeps a date", f.key, k)
			} else if f.key == "at" {
				why = fmt.Sprintf("its date %s is not a date errorlab can read", f.raw)
			}
			r.drop(what, line, why)
			return
		}
	}
	if noReplay {
		e.Items, e.Answers, e.Flags = nil, nil, nil
	}
	for _, f := range recount {
		if f != nil && lost == "" {
			f()
		}
	}
	if lost != "" {
		r.drop(what, lostLine, lost)
		return
	}
	if why := e.problem(); why != "" {
		r.drop(what, m.line, why)
		return
	}
	// In the order of the file, however they were found.
	slices.SortStableFunc(repaired, func(a, b repair) int { return a.line - b.line })
	for _, f := range repaired {
		r.repair(what, f.line, f.why)
	}
	r.p.Exams = append(r.p.Exams, e)
}

// knownTopic reports whether id is one of Topics.
func knownTopic(id string) bool {
	return slices.ContainsFunc(Topics, func(t Topic) bool { return t.ID == id })
}

// problem says what is wrong with an answer record read from a file,
// "" when nothing is.
func (r ItemRecord) problem() string {
	switch {
	case r.Topic != "" && !knownTopic(r.Topic):
		return fmt.Sprintf("its topic %q is not one of errorlab's topics", r.Topic)
	case r.Box < 0 || r.Box > Mastered:
		return fmt.Sprintf("its box %d is not one of the boxes 1 to %d", r.Box, Mastered)
	case r.Streak < 0 || r.Right < 0 || r.Wrong < 0:
		return "it counts fewer than no answers"
	}
	return ""
}

// problem says what is wrong with an exam record read from a file, ""
// when nothing is.
func (e ExamRecord) problem() string {
	for t := range e.ByTopic {
		if !knownTopic(t) {
			return fmt.Sprintf("its score by topic names %q, which is not one of errorlab's topics", t)
		}
	}
	switch {
	case e.Questions < 0 || e.Correct < 0 || e.Correct > e.Questions:
		return fmt.Sprintf("its score %d of %d is not a score", e.Correct, e.Questions)
	case e.PassMark < 0 || e.PassMark > 1:
		return fmt.Sprintf("its pass line %g is not a fraction from 0 to 1", e.PassMark)
	}
	return ""
}
