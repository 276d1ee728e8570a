// Package verdict is the verdict panel: how a recovery action was graded
// (✓ Correct, ✓ Acceptable or ✗ Not the best move, with the choice), the
// LESSON-RULES rule the grade rests on, what a bad response style on
// screen failed to tell, the scenario's feedback, the rules' reason, the
// revision note, what to tell the customer (on the best answer only) and
// the takeaway. Its key g asks the root to open the Reference at the
// rule's section.
package verdict

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/styles"
)

// Content is what the panel shows. Only Verdict is required; an empty
// field is left out.
type Content struct {
	// Verdict is the grade, the action, the rule and the rules' reason.
	Verdict rules.Verdict
	// What names the choice after the grade; "" is the action as
	// "1 Resend the same call (retry_same)".
	What string
	// Feedback is the scenario's own words on this choice ("Here:").
	Feedback string
	// Note is the revision's note, when the answer depends on it.
	Note string
	// Caveat is set when a bad response style is on screen.
	Caveat *Caveat
	// Customer is what the best move tells the customer; it shows with
	// the best grade only, so it never follows a wrong answer.
	Customer string
	// Takeaway is the scenario's one-line lesson.
	Takeaway string
}

// Of is the content of a scenario's verdict: the rules' verdict, the
// scenario's feedback and the revision note.
func Of(v scenarios.Verdict) Content {
	return Content{Verdict: v.Verdict, Feedback: v.Feedback, Note: v.Note}
}

// Caveat is what the verdict adds under a bad response style: it is
// graded on what really happened, and the response on screen does not
// say it (or says it only where some clients never look).
type Caveat struct {
	Style mockserver.Style
	// Truth is what really happened, in words ("a transient error
	// (isRetryable true)").
	Truth string
	// Gap is what the response fails to tell; "" when it tells it.
	Gap string
	// Textless is set when it tells it only in structuredContent.
	Textless bool
	// Findings are the grader's errors and warnings on the response.
	Findings []grade.Finding
}

// KeyMap is the panel's keys.
type KeyMap struct {
	// Reference opens the Reference at the section of the verdict's rule.
	Reference key.Binding
}

// DefaultKeyMap returns g for the Reference.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Reference: key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "rule in the Reference")),
	}
}

// Styles draw the panel.
type Styles struct {
	// The grade's lead ("✓ Correct:"), drawn bold.
	Best, Acceptable, Wrong lipgloss.Style
	// Label is "Rule:", "Why:", "Here:" ...
	Label lipgloss.Style
	Rule  lipgloss.Style
	Text  lipgloss.Style
	// Warning draws the caveat's lead and a warning finding's ⚠, Error an
	// error finding's ✗.
	Warning, Error lipgloss.Style
}

// DefaultStyles takes the panel's styles from a session's styles.
func DefaultStyles(st *styles.Styles) Styles {
	return Styles{
		Best: st.OK, Acceptable: st.Warn, Wrong: st.Bad,
		Label: st.Bold, Rule: st.Accent, Text: st.Plain,
		Warning: st.Warn, Error: st.Bad,
	}
}

// Model is the verdict panel. It keeps no scroll position: a page that
// shows it in a pane scrolls the pane, and View shows the first lines
// that fit.
type Model struct {
	// KeyMap starts as DefaultKeyMap.
	KeyMap KeyMap
	// Styles start from the session's.
	Styles Styles

	content Content
	set     bool
	w, h    int
}

// New returns an empty panel with c's styles.
func New(c *common.Common) *Model {
	return &Model{KeyMap: DefaultKeyMap(), Styles: DefaultStyles(c.Styles)}
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// SetSize sets the area View draws in.
func (m *Model) SetSize(w, h int) { m.w, m.h = max(w, 0), max(h, 0) }

// SetContent shows a verdict.
func (m *Model) SetContent(c Content) { m.content, m.set = c, true }

// Clear removes the verdict: the panel is empty and g does nothing.
func (m *Model) Clear() { m.content, m.set = Content{}, false }

// Content is the verdict shown; ok is false when there is none.
func (m *Model) Content() (c Content, ok bool) { return m.content, m.set }

// sectionRef matches a LESSON-RULES section as the rules give it.
var sectionRef = regexp.MustCompile(`^§[0-9]+$`)

// Section is the LESSON-RULES section of the verdict's rule ("§2"), or ""
// when there is no verdict or the rule is unknown ("§?").
func (m *Model) Section() string {
	if !m.set || !sectionRef.MatchString(m.content.Verdict.Rule.Section) {
		return ""
	}
	return m.content.Verdict.Rule.Section
}

// Update sends common.OpenReferenceMsg with the rule's section for the
// Reference key, while a verdict is shown; anything else is ignored.
func (m *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && m.set && key.Matches(k, m.KeyMap.Reference) {
		return m, common.Send(common.OpenReferenceMsg{Section: m.Section()})
	}
	return m, nil
}

// ReferenceKey is the Reference binding with a help text naming the
// section ("read §2"), disabled while no verdict is shown. long is the
// full help's wording ("read §2 in the Reference").
func (m *Model) ReferenceKey(long bool) key.Binding {
	b := m.KeyMap.Reference
	sec := m.Section()
	desc := "read " + sec
	switch {
	case sec == "" && long:
		desc = "open the Reference"
	case sec == "":
		desc = "Reference"
	case long:
		desc += " in the Reference"
	}
	b.SetHelp(b.Help().Key, desc)
	b.SetEnabled(m.set && b.Enabled())
	return b
}

// ShortHelp implements help.KeyMap.
func (m *Model) ShortHelp() []key.Binding { return []key.Binding{m.ReferenceKey(false)} }

// FullHelp implements help.KeyMap.
func (m *Model) FullHelp() [][]key.Binding { return [][]key.Binding{{m.ReferenceKey(true)}} }

// View draws the verdict at its width, cut to its height.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 || !m.set {
		return ""
	}
	lines := m.Lines(m.w)
	if len(lines) > m.h {
		lines = lines[:m.h]
	}
	return strings.Join(lines, "\n")
}

// Lines is the verdict at width w, nil when there is none: the grade with
// its symbol, the rule, the caveat, the feedback, the reason, the
// revision note, the customer message and the takeaway.
func (m *Model) Lines(w int) []string {
	if !m.set {
		return nil
	}
	st, c, v := m.Styles, m.content, m.content.Verdict
	head, gs := "✗ Not the best move", st.Wrong
	switch v.Grade {
	case rules.GradeBest:
		head, gs = "✓ Correct", st.Best
	case rules.GradeAcceptable:
		head, gs = "✓ Acceptable", st.Acceptable
	}
	what := c.What
	if what == "" {
		what = fmt.Sprintf("%d %s (%s)", slices.Index(rules.Actions, v.Action)+1, v.Action.Title(), v.Action)
	}
	var out []string
	out = append(out, common.WrapLead(gs.Bold(true), head+":", what, w, st.Text)...)
	out = append(out, common.WrapLead(st.Label, "Rule:", v.Rule.Ref(), w, st.Rule)...)
	if cv := c.Caveat; cv != nil {
		out = append(out, m.caveatLines(*cv, w)...)
	}
	if fb := strings.TrimSpace(common.StripVerdict(oneLine(c.Feedback), gradeWords(v.Grade)...)); fb != "" {
		// The feedback is written against the good response; under a
		// style that hides the failure, say so rather than seem to quote
		// the response on screen.
		lead := "Here:"
		if c.Caveat != nil && c.Caveat.Gap != "" {
			lead = "Here (as the good response tells it):"
		}
		out = append(out, common.WrapLead(st.Label, lead, common.StyleWords(oneLine(fb)), w, st.Text)...)
	}
	if v.Why != "" {
		out = append(out, common.WrapLead(st.Label, "Why:", common.StyleWords(v.Why), w, st.Text)...)
	}
	if c.Note != "" {
		out = append(out, common.WrapLead(st.Label, "Revision note:", common.StyleWords(oneLine(c.Note)), w, st.Text)...)
	}
	if cm := oneLine(c.Customer); cm != "" && v.Grade == rules.GradeBest {
		out = append(out, common.WrapLead(st.Label, "Tell the customer:", "“"+cm+"”", w, st.Text)...)
	}
	if tk := oneLine(c.Takeaway); tk != "" {
		out = append(out, common.WrapLead(st.Label, "Takeaway:", common.StyleWords(tk), w, st.Text)...)
	}
	return out
}

// oneLine folds text's whitespace into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// gradeWords are the verdict words the grade line already says, which
// the feedback need not repeat.
func gradeWords(g rules.Grade) []string {
	switch g {
	case rules.GradeBest:
		return common.BestWords
	case rules.GradeAcceptable:
		return common.AcceptableWords
	}
	return common.WrongWords
}

// caveatLines says, under a bad style, that the verdict is graded on what
// really happened, what the response on screen fails to tell, and the
// grader's findings on it.
func (m *Model) caveatLines(cv Caveat, w int) []string {
	st := m.Styles
	label := cv.Style.Label()
	var text string
	switch {
	case cv.Gap != "":
		text = fmt.Sprintf("%s. The %s response on screen does not tell the agent this: %s. A real agent reading only it could not have known. That is this style's defect.", cv.Truth, label, cv.Gap)
	case cv.Textless:
		text = fmt.Sprintf("%s. The %s response on screen says this only in structuredContent, with no text block: an agent whose client reads only the text content could not have known. That is this style's defect.", cv.Truth, label)
	default:
		text = fmt.Sprintf("%s. The %s response on screen says this, but with defects the good style avoids:", cv.Truth, label)
	}
	text = strings.ToUpper(text[:1]) + text[1:]
	out := common.WrapLead(st.Warning.Bold(true), "⚠ Graded on what really happened.", text, w, st.Text)
	for _, f := range cv.Findings {
		sym, ss := "⚠", st.Warning
		if f.Severity == grade.SevError {
			sym, ss = "✗", st.Error
		}
		what := grade.DefectText[f.Defect]
		if what == "" {
			what = f.Message
		}
		body := what + " · " + rules.Lookup(f.Rule).Ref()
		for i, l := range strings.Split(ansi.Wrap(body, max(w-4, 1), ""), "\n") {
			if i == 0 {
				out = append(out, "  "+ss.Render(sym)+" "+st.Text.Render(l))
				continue
			}
			out = append(out, "    "+st.Text.Render(l))
		}
	}
	return out
}
