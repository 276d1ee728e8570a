package quiz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
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
	for i := 0; dec.More(); i++ {
		m := member{index: i}
		if !array {
			k, err := dec.Token()
			if err != nil {
				return out, array, true
			}
			m.key, _ = k.(string)
		}
		if err := dec.Decode(&m.raw); err != nil {
			return out, array, true
		}
		m.start = base + int(dec.InputOffset()) - len(m.raw)
		m.line = 1 + bytes.Count(data[:max(m.start, 0)], []byte("\n"))
		out = append(out, m)
	}
	return out, array, true
}

// rawKind names the kind of a JSON value, for "holds an array where
// progress keeps an object".
func rawKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a bool"
	case 'n':
		return "null"
	}
	return "a number"
}

// decodeProgress reads a progress file's bytes. A file that is not
// JSON, not an object, without a valid schemaVersion or of a newer
// schema is a *corruptError with nothing salvaged. Otherwise every lab
// scenario record, answer record and exam is read on its own: those that
// read and hold sensible values are kept, and when some do not, the
// result is a *corruptError whose salvaged progress holds the rest and
// whose dropped names each part left out (where in the file, and why).
func decodeProgress(data []byte) (*Progress, error) {
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		return nil, &corruptError{err: errors.New(jsonProblem(err))}
	}
	top, array, ok := members(data, bytes.TrimSpace(data), len(data)-len(bytes.TrimLeft(data, " \t\r\n")))
	if !ok || array {
		return nil, &corruptError{err: fmt.Errorf("it holds %s, not the object a progress file is", rawKind(data))}
	}
	fields := map[string]member{}
	for _, m := range top {
		fields[m.key] = m // a repeated key: the last wins, as in encoding/json
	}
	version := 0
	if v, ok := fields["schemaVersion"]; ok {
		_ = json.Unmarshal(v.raw, &version)
	}
	switch {
	case version > SchemaVersion:
		return nil, &corruptError{err: fmt.Errorf("a newer errorlab wrote it (schemaVersion %d; this one reads %d)", version, SchemaVersion), newer: true}
	case version <= 0:
		return nil, &corruptError{err: errors.New("it has no valid schemaVersion, so it is not an errorlab progress file")}
	}
	p := newProgress()
	var dropped []string
	drop := func(what string, line int, why string) {
		dropped = append(dropped, fmt.Sprintf("%s (line %d): %s", what, line, why))
	}
	// section reads one of the top-level collections member by member;
	// a collection of the wrong kind is dropped whole.
	section := func(name, what string, wantArray bool, each func(member)) {
		f, ok := fields[name]
		if !ok || string(bytes.TrimSpace(f.raw)) == "null" {
			return
		}
		ms, arr, ok := members(data, f.raw, f.start)
		if !ok || arr != wantArray {
			want := "an object"
			if wantArray {
				want = "a list"
			}
			drop(what, f.line, fmt.Sprintf("the field %q holds %s where progress keeps %s", name, rawKind(f.raw), want))
			return
		}
		for _, m := range ms {
			each(m)
		}
	}
	section("scenarios", "every lab scenario record", false, func(m member) {
		var r ScenarioRecord
		what := fmt.Sprintf("the record of lab scenario %q", m.key)
		if why := readRecord(m.raw, &r); why != "" {
			drop(what, m.line, why)
			return
		}
		if r.Attempts < 0 {
			drop(what, m.line, fmt.Sprintf("it counts %d attempts", r.Attempts))
			return
		}
		p.Scenarios[m.key] = r
	})
	section("items", "every answer to a question or drill", false, func(m member) {
		// Not the id: a question's id can give its answer away.
		var r ItemRecord
		what := "the answers to one question or drill"
		if why := readRecord(m.raw, &r); why != "" {
			drop(what, m.line, why)
			return
		}
		if why := r.problem(); why != "" {
			drop(what, m.line, why)
			return
		}
		p.Items[m.key] = r
	})
	section("exams", "every mock exam", true, func(m member) {
		var r ExamRecord
		what := fmt.Sprintf("mock exam #%d", m.index+1)
		var at struct {
			At time.Time `json:"at"`
		}
		if json.Unmarshal(m.raw, &at) == nil && !at.At.IsZero() {
			what = "the mock exam of " + at.At.UTC().Format("2006-01-02 15:04") + " UTC"
		}
		if why := readRecord(m.raw, &r); why != "" {
			drop(what, m.line, why)
			return
		}
		if why := r.problem(); why != "" {
			drop(what, m.line, why)
			return
		}
		p.Exams = append(p.Exams, r)
	})
	p.SchemaVersion = version
	if len(dropped) > 0 {
		return nil, &corruptError{err: errors.New(strings.Join(dropped, "; ")), salvaged: p, dropped: dropped}
	}
	return p, nil
}

// readRecord decodes one record into v and says in plain words why it
// could not ("" when it could); a record must be a JSON object (null is
// not one).
func readRecord(raw json.RawMessage, v any) string {
	if k := rawKind(raw); k != "an object" {
		return fmt.Sprintf("it holds %s where progress keeps an object", k)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return jsonProblem(err)
	}
	return ""
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
