package walkthrough

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/errorlab/errorlab/sim/wire"
)

// Part is what one click of a live call reveals.
type Part string

// The parts, in the order they are revealed.
const (
	// PartRequest is the whole request.
	PartRequest Part = "request"
	// PartLayer is the response's layer: its error member (a protocol
	// error, with its code) or its result member.
	PartLayer Part = "layer"
	// PartIsError is the result's isError member (a protocol error has no
	// result, so no such part).
	PartIsError Part = "isError"
	// PartField is one member of the object that carries the detail: each
	// structuredContent field of a result in turn, or code, message and
	// data of a protocol error.
	PartField Part = "field"
	// PartContent is one content block of a result that has no
	// structuredContent (a generic "Operation failed", an "ERROR: ..." sent
	// as a success): it takes the fields' place.
	PartContent Part = "content"
)

// Side says which envelope a part is in.
type Side string

// The two envelopes of an exchange.
const (
	SideRequest  Side = "request"
	SideResponse Side = "response"
)

// Span is a byte range [Start, End) of a text.
type Span struct{ Start, End int }

// Lines is a range of lines [From, To), counted from 0, of a text split
// on "\n": the lines to highlight are lines[From:To].
type Lines struct{ From, To int }

// Reveal is one part of a live call, with where it is in the envelope
// text so a screen can highlight it: Raw in the exact bytes of its side
// (ex.Request or ex.Response), Pretty and Lines in wire.Pretty of those
// bytes (what the lab's panes show). Each range covers the member from
// its key to the end of its value.
type Reveal struct {
	Part Part
	Side Side
	// Label is what the part says, in a few words: "protocol error -32602",
	// "isError: true", "errorCategory: transient".
	Label string
	// Path is the member's JSON path: "$" (the request), "$.error",
	// "$.result.isError", "$.result.structuredContent.errorCategory".
	Path string
	// Name is the member's name ("errorCategory"), "" for the request.
	Name string
	// Value is the member's value exactly as sent; Text is the same value
	// as text (a string without its quotes).
	Value json.RawMessage
	Text  string
	// Absent marks an isError that the result leaves out (so the result
	// counts as a success); it has no position.
	Absent bool
	Raw    Span
	Pretty Span
	Lines  Lines
}

// Reveals splits an exchange into the parts a live call reveals one click
// at a time, in order: the request; the response's layer; isError; then
// each structuredContent field in the order it was sent (for a protocol
// error, the error's code, message and data; for a result without
// structuredContent, its content blocks). A response that is not a
// JSON-RPC object gives one layer part covering all of it.
func Reveals(ex wire.Exchange) []Reveal {
	reqPretty := wire.Pretty(ex.Request)
	out := []Reveal{{
		Part: PartRequest, Side: SideRequest, Label: "request: " + requestLabel(ex), Path: "$",
		Value: json.RawMessage(ex.Request), Text: string(ex.Request),
		Raw: Span{0, len(ex.Request)}, Pretty: Span{0, len(reqPretty)}, Lines: Lines{0, lineCount(reqPretty)},
	}}
	pretty := wire.Pretty(ex.Response)
	raw, err1 := scan(ex.Response)
	pm, err2 := scan([]byte(pretty))
	if err1 != nil || err2 != nil || !bytes.HasPrefix(bytes.TrimSpace(ex.Response), []byte("{")) {
		return append(out, Reveal{Part: PartLayer, Side: SideResponse, Label: "a response that is not a JSON-RPC object", Path: "$",
			Value: json.RawMessage(ex.Response), Text: string(ex.Response),
			Raw: Span{0, len(ex.Response)}, Pretty: Span{0, len(pretty)}, Lines: Lines{0, lineCount(pretty)}})
	}
	at := func(part Part, path, label string) Reveal {
		m, pm := raw[path], pm[path]
		r := Reveal{Part: part, Side: SideResponse, Label: label, Path: path, Name: m.name,
			Value: json.RawMessage(ex.Response[m.value.Start:m.value.End]),
			Raw:   m.member, Pretty: pm.member,
			Lines: Lines{lineOf(pretty, pm.member.Start), lineOf(pretty, pm.member.End-1) + 1}}
		r.Text = valueText(r.Value)
		return r
	}
	if _, ok := raw["$.error"]; ok && !isNull(raw, ex.Response, "$.error") {
		code := "?"
		if _, ok := raw["$.error.code"]; ok {
			code = valueText(slice(ex.Response, raw["$.error.code"].value))
		}
		out = append(out, at(PartLayer, "$.error", "protocol error "+code+": no tool ran"))
		for _, p := range raw.children("$.error") {
			out = append(out, at(PartField, p, raw[p].name+": "+short(valueText(slice(ex.Response, raw[p].value)))))
		}
		return out
	}
	if _, ok := raw["$.result"]; !ok {
		return append(out, at(PartLayer, "$", "a response with neither result nor error"))
	}
	out = append(out, at(PartLayer, "$.result", "result: the tool ran"))
	if _, ok := raw["$.result.isError"]; ok {
		r := at(PartIsError, "$.result.isError", "")
		r.Label = "isError: " + r.Text
		out = append(out, r)
	} else {
		out = append(out, Reveal{Part: PartIsError, Side: SideResponse, Label: "isError absent: the result counts as a success",
			Path: "$.result.isError", Name: "isError", Absent: true})
	}
	const sc = "$.result.structuredContent"
	if _, ok := raw[sc]; ok && !isNull(raw, ex.Response, sc) {
		kids := raw.children(sc)
		if len(kids) == 0 {
			return append(out, at(PartField, sc, "structuredContent: "+short(valueText(slice(ex.Response, raw[sc].value)))))
		}
		for _, p := range kids {
			out = append(out, at(PartField, p, raw[p].name+": "+short(valueText(slice(ex.Response, raw[p].value)))))
		}
		return out
	}
	for _, p := range raw.children("$.result.content") {
		label := "content block"
		if _, ok := raw[p+".text"]; ok {
			label = "text: " + short(valueText(slice(ex.Response, raw[p+".text"].value)))
		}
		out = append(out, at(PartContent, p, label))
	}
	return out
}

// requestLabel names the call a request makes.
func requestLabel(ex wire.Exchange) string {
	if ex.Call.Raw != "" {
		return "hand-written bytes"
	}
	return "tools/call " + ex.Call.Tool
}

// short keeps a label to one line of a projector.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}

func slice(b []byte, s Span) json.RawMessage { return json.RawMessage(b[s.Start:s.End]) }

// valueText is a JSON value as text: a string's contents, anything else
// as written.
func valueText(v json.RawMessage) string {
	var s string
	if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

func isNull(m members, data []byte, p string) bool {
	return string(slice(data, m[p].value)) == "null"
}

func lineOf(text string, off int) int {
	if off < 0 {
		return 0
	}
	return strings.Count(text[:min(off, len(text))], "\n")
}

func lineCount(text string) int { return strings.Count(text, "\n") + 1 }

// member is where one JSON value sits in a text: member runs from its key
// (or, for an array element or the root, its value) to the value's end.
type member struct {
	name   string
	parent string
	member Span
	value  Span
}

// members maps JSON paths ("$.result.content[0].text") to positions.
type members map[string]member

// children lists the paths directly under p, in the order they appear.
func (m members) children(p string) []string {
	var out []string
	for k, v := range m {
		if v.parent == p && k != p {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return m[out[i]].member.Start < m[out[j]].member.Start })
	return out
}

// scan finds the position of every value in a JSON text.
func scan(data []byte) (members, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	out := members{}
	// next is the offset of the next token: the decoder's offset past
	// white space and the separators it consumes itself.
	next := func() int {
		off := int(dec.InputOffset())
		for off < len(data) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
			off++
		}
		return off
	}
	var walk func(parent, path, name string, from int) error
	walk = func(parent, path, name string, from int) error {
		start := next()
		if from < 0 {
			from = start
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				ks := next()
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				if err := walk(path, path+"."+k, k, ks); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(path, fmt.Sprintf("%s[%d]", path, i), "", -1); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
		}
		end := int(dec.InputOffset())
		out[path] = member{name: name, parent: parent, member: Span{from, end}, value: Span{start, end}}
		return nil
	}
	if err := walk("", "$", "", -1); err != nil {
		return nil, err
	}
	return out, nil
}
