package quiz

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

// Drills generates practice items from the lab's live scenarios. Every
// key comes from the engine at generation time (sim/rules for classify and
// next-action, sim/grade for spot-the-defects), never from stored answers.
func Drills(ctx context.Context, c *scenarios.Catalog) ([]*Item, error) {
	tools := mockTools()
	var out []*Item
	for _, s := range c.Scenarios {
		revs := []rules.Revision{s.Revision()}
		for rev := range s.Revisions {
			if rev != s.Revision() {
				revs = append(revs, rev)
			}
		}
		slices.Sort(revs[1:])
		for i, rev := range revs {
			ex, err := s.Exchange(ctx, mockserver.StyleGood, rev)
			if err != nil {
				return nil, fmt.Errorf("drill %s: %w", s.ID, err)
			}
			id := "drill/classify/" + s.ID
			if i > 0 {
				id += "@" + string(rev)
			}
			it, err := classifyDrill(s, ex, id)
			if err != nil {
				return nil, err
			}
			out = append(out, it)
			if i == 0 {
				out = append(out, nextActionDrill(s, ex))
			}
		}
		truth := s.SituationAt(s.Revision())
		if truth.Layer == rules.LayerProtocol {
			continue // no style changes a protocol-layer answer
		}
		for _, st := range s.Styles {
			if st == mockserver.StyleGood {
				continue
			}
			ex, err := s.Exchange(ctx, st, s.Revision())
			if err != nil {
				return nil, fmt.Errorf("drill %s/%s: %w", s.ID, st, err)
			}
			if it := defectsDrill(s, st, ex, truth, tools); it != nil {
				out = append(out, it)
			}
			if st == s.BadStyle() {
				// Reading a badly written envelope: what does it say,
				// whatever really happened?
				it, err := classifyDrill(s, ex, "drill/classify/"+s.ID+"/"+string(st))
				if err != nil {
					return nil, err
				}
				it.Difficulty = 2
				it.After = "The wire says what it says: classify the envelope, not what you know happened. A response that states less than the truth is exactly the defect of its style."
				out = append(out, it)
			}
		}
	}
	return out, nil
}

func mockTools() []grade.Tool {
	var out []grade.Tool
	for _, t := range mockserver.New(mockserver.Options{}).Tools() {
		out = append(out, grade.Tool{Name: t.Name, InputSchema: t.RawInputSchema, OutputSchema: t.RawOutputSchema})
	}
	return out
}

func callText(s *scenarios.Scenario) string {
	if s.Call.Raw != "" {
		return "a hand-written request: " + s.Call.Raw
	}
	args, _ := json.Marshal(s.Call.Arguments)
	return fmt.Sprintf("tools/call %s %s", s.Call.Tool, args)
}

func situation(s *scenarios.Scenario) string {
	return strings.Join(strings.Fields(s.Situation), " ")
}

// classifyDrill asks for the layer, category and isRetryable of the good
// response, keyed by rules.Classify.
func classifyDrill(s *scenarios.Scenario, ex wire.Exchange, id string) (*Item, error) {
	cl, err := ex.Classify()
	if err != nil {
		return nil, fmt.Errorf("drill %s: %w", s.ID, err)
	}
	layer := Part{Prompt: "Which layer reported this?", Choices: []Choice{
		{Text: "A protocol error (a JSON-RPC error member; no tool result)", Correct: cl.Layer == rules.LayerProtocol},
		{Text: "A tool execution error (a result with isError: true)", Correct: cl.Layer == rules.LayerExecution},
		{Text: "A success (a result without isError)", Correct: cl.Layer == rules.LayerSuccess},
	}}
	protocolWhy := fmt.Sprintf("The response carries an error member (code %d) and no result: no tool ran (§1).", cl.ProtocolCode)
	if s.SituationAt(ex.Revision).Layer == rules.LayerExecution {
		// The tool did run: its handler failed (a Go error or a panic)
		// and mcp-go sent -32603 in place of a result (§1's anti-pattern).
		protocolWhy = fmt.Sprintf("The response carries an error member (code %d) and no result, although the tool ran: its handler returned a Go error (or panicked), which became a protocol error, so the model gets nothing it can act on. The fix is an isError result written on purpose (§1).", cl.ProtocolCode)
	}
	layerWhy := map[rules.Layer]string{
		rules.LayerProtocol:  protocolWhy,
		rules.LayerExecution: "The response is a normal result with isError: true: the tool ran and failed (§1).",
		rules.LayerSuccess:   "The response is a result without isError: the call succeeded" + map[bool]string{true: ", and it matched nothing (§4).", false: "."}[cl.Empty],
	}
	// A wrong choice says what its own layer would look like, so three
	// choices never share one sentence.
	layerLooks := []string{"an error member with a code and no result", "a result with isError: true", "a result without isError"}
	for i := range layer.Choices {
		if layer.Choices[i].Correct {
			layer.Choices[i].Explanation = layerWhy[cl.Layer]
		} else {
			layer.Choices[i].Explanation = fmt.Sprintf("Not this one: that would be %s. %s", layerLooks[i], layerWhy[cl.Layer])
		}
	}
	cat := Part{Prompt: "Which errorCategory does it state?"}
	for _, c := range rules.Categories {
		ch := Choice{Text: string(c), Correct: cl.ErrorCategory == c}
		if ch.Correct {
			ch.Explanation = rules.CategoryRule(c).Statement
		} else {
			ch.Explanation = fmt.Sprintf("Not %s. %s", c, catWhy(cl))
		}
		cat.Choices = append(cat.Choices, ch)
	}
	none := Choice{Text: "None: no category applies or none is stated", Correct: cl.ErrorCategory == ""}
	none.Explanation = catWhy(cl)
	cat.Choices = append(cat.Choices, none)

	retry := Part{Prompt: "What does it say about isRetryable?"}
	stated := cl.IsRetryable != nil
	retry.Choices = []Choice{
		{Text: "true: resending the same call can work", Correct: stated && *cl.IsRetryable},
		{Text: "false: not this call again", Correct: stated && !*cl.IsRetryable},
		{Text: "Nothing: the response carries no isRetryable", Correct: !stated},
	}
	rw := retryWhy(cl)
	retryLooks := []string{"isRetryable: true in the result", "isRetryable: false in the result", "a response with no isRetryable"}
	for i := range retry.Choices {
		if retry.Choices[i].Correct {
			retry.Choices[i].Explanation = rw
		} else {
			retry.Choices[i].Explanation = fmt.Sprintf("Not this one: that needs %s. %s", retryLooks[i], rw)
		}
	}
	stem := fmt.Sprintf("%s\n\nThe agent sent %s under spec %s. Classify the response.", situation(s), callText(s), ex.Revision)
	return &Item{ID: id, Kind: KindClassify, Topic: s.Topic, Rule: s.Section, Difficulty: 1, Stem: stem,
		Exhibit: wire.Pretty(ex.Response), ExhibitTitle: "Response (server → client)", Parts: []Part{layer, cat, retry},
		Scenario: s.ID, After: styleFree(s.Takeaway)}, nil
}

func catWhy(cl rules.Classification) string {
	switch {
	case cl.Layer == rules.LayerProtocol:
		return "A protocol error has no tool result, so it carries no errorCategory: categories describe tool execution errors."
	case cl.Layer == rules.LayerSuccess:
		return "A success carries no errorCategory."
	case cl.ErrorCategory == "":
		return "The result states no errorCategory at all."
	}
	return fmt.Sprintf("structuredContent says errorCategory %q.", cl.ErrorCategory)
}

func retryWhy(cl rules.Classification) string {
	if cl.IsRetryable == nil {
		if cl.Layer == rules.LayerExecution {
			return "The result carries no isRetryable, so the agent cannot tell whether resending could work."
		}
		return "Only tool execution errors carry isRetryable; this response is not one."
	}
	if *cl.IsRetryable {
		return "isRetryable is true: only transient failures are, because the same call can succeed after a wait (§2)."
	}
	return "isRetryable is false: the identical call would fail the same way. That means \"not this call again\", not \"give up\" (§2)."
}

// nextActionDrill asks for the recovery action, scored by the scenario's
// rules (acceptable actions count as right).
func nextActionDrill(s *scenarios.Scenario, ex wire.Exchange) *Item {
	rev := ex.Revision
	p := Part{Prompt: "What should the agent do next?"}
	for _, a := range rules.Actions {
		v := s.Score(rev, a)
		// The scenario's own feedback is written for the lab, where the
		// response styles are on screen; a drill shows only the good
		// response, so feedback that talks about styles gives way to the
		// rule's reason.
		expl := styleFree(v.Feedback)
		if expl == "" {
			expl = v.Why
		}
		p.Choices = append(p.Choices, Choice{
			Text:        a.Title() + ": " + a.Description(),
			Explanation: expl + " (" + v.Rule.Ref() + ")",
			Correct:     v.Grade.Correct(),
		})
	}
	stem := fmt.Sprintf("%s\n\nThe agent sent %s and got the response shown. What should it do next?", situation(s), callText(s))
	return &Item{ID: "drill/next/" + s.ID, Kind: KindNextAction, Topic: s.Topic, Rule: "§8", Difficulty: 2, Stem: stem,
		Exhibit: wire.Pretty(ex.Response), ExhibitTitle: "Response (server → client)", Parts: []Part{anyOf(p)}, Scenario: s.ID, After: styleFree(s.Takeaway)}
}

var styleWords = regexp.MustCompile(`(?i)\b(style|styles|error_as_success|empty_success|structured_only|protocol_error|raw_exception)\b`)

// styleFree returns text that does not talk about response styles, or "".
func styleFree(text string) string {
	text = strings.TrimSpace(text)
	if styleWords.MatchString(text) {
		return ""
	}
	return text
}

// anyOf marks a part where any one correct choice is a right answer.
func anyOf(p Part) Part {
	p.AnyOf = true
	return p
}

// distractors are defects offered as wrong choices in spot-the-defects.
var distractors = []grade.Defect{
	grade.DefectWrongLayer, grade.DefectNoCategory, grade.DefectLeak, grade.DefectErrorAsSuccess,
	grade.DefectNoTextBlock, grade.DefectGenericMessage, grade.DefectWrongRetryable, grade.DefectRawException,
	grade.DefectHiddenFailure, grade.DefectSchemaMismatch,
}

// defectsDrill shows a bad-style response; the defects are what sim/grade
// finds (errors and warnings), plus distractors.
func defectsDrill(s *scenarios.Scenario, st mockserver.Style, ex wire.Exchange, truth rules.Situation, tools []grade.Tool) *Item {
	rep := grade.Grade(grade.Input{Request: ex.Request, Response: ex.Response, Tools: tools, Spec: ex.Revision, Truth: &truth})
	found := map[grade.Defect]string{}
	var order []grade.Defect
	for _, f := range rep.Findings {
		if f.Severity == grade.SevNote {
			continue
		}
		if _, dup := found[f.Defect]; !dup {
			order = append(order, f.Defect)
			found[f.Defect] = f.Message + " (" + rules.Lookup(f.Rule).Ref() + ")"
		}
	}
	if len(order) == 0 {
		return nil
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(s.ID + string(st)))
	r := rand.New(rand.NewPCG(h.Sum64(), 7))
	cands := slices.Clone(distractors)
	r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	choices := slices.Clone(order)
	implied := map[grade.Defect]bool{}
	for _, d := range order {
		for _, rel := range grade.Related[d] {
			implied[rel] = true
		}
	}
	for _, d := range cands {
		if len(choices) >= max(5, len(order)+2) {
			break
		}
		if _, real := found[d]; !real && !implied[d] {
			choices = append(choices, d)
		}
	}
	r.Shuffle(len(choices), func(i, j int) { choices[i], choices[j] = choices[j], choices[i] })
	p := Part{Prompt: "Mark every defect of this response.", Multi: true}
	for _, d := range choices {
		msg, real := found[d]
		c := Choice{Text: grade.DefectText[d], Correct: real}
		if real {
			c.Explanation = "Yes: " + msg
		} else {
			c.Explanation = "Not here: if it were, " + grade.DefectLook[d] + "."
		}
		p.Choices = append(p.Choices, c)
	}
	topic, rule := "metadata", "§3"
	switch {
	case st == mockserver.StyleEmptySuccess:
		topic, rule = "empty", "§4"
	case st == mockserver.StyleRawException:
		topic, rule = "safety", "§6"
	case st == mockserver.StyleProtocolError:
		topic, rule = "layers", "§1"
	}
	if _, leak := found[grade.DefectLeak]; leak {
		topic, rule = "safety", "§6"
	}
	stem := fmt.Sprintf("%s\n\nThe agent sent %s, and the server answered with the response shown. What is wrong with this response?", situation(s), callText(s))
	return &Item{ID: "drill/defects/" + s.ID + "/" + string(st), Kind: KindSpotDefects, Topic: topic, Rule: rule, Difficulty: 2,
		Stem: stem, Exhibit: wire.Pretty(ex.Response), ExhibitTitle: "Response (server → client)", Parts: []Part{p}, Scenario: s.ID, After: styleFree(s.Takeaway)}
}
