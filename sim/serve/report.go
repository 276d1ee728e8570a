package serve

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// Report is what `errorlab serve --report FILE` writes when the server
// stops: what was served and every client session's card.
type Report struct {
	Started time.Time        `json:"started"`
	Ended   time.Time        `json:"ended"`
	Listen  string           `json:"listen"`
	Serving string           `json:"serving"`
	Style   mockserver.Style `json:"style"`
	// Spec is the newest revision offered; "" when every one was.
	Spec     rules.Revision `json:"spec,omitempty"`
	Sessions []Card         `json:"sessions"`
}

// WriteJSON writes the report as one indented JSON object.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteMarkdown writes the report for a person: one section per client
// session, a table of the failures served and the client's moves, and
// the reason behind each verdict.
func (r Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# errorlab serve: how the clients recovered\n\n")
	fmt.Fprintf(&b, "- Served: %s\n", r.Serving)
	fmt.Fprintf(&b, "- Style: %s\n", r.Style)
	if r.Spec != "" {
		fmt.Fprintf(&b, "- Newest revision offered: %s\n", r.Spec)
	}
	fmt.Fprintf(&b, "- Listening: %s, from %s to %s\n", r.Listen, r.Started.Format(time.RFC3339), r.Ended.Format(time.RFC3339))
	if len(r.Sessions) == 0 {
		b.WriteString("\nNo client made a call.\n")
	}
	for _, c := range r.Sessions {
		b.WriteString("\n")
		writeCardMarkdown(&b, c)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeCardMarkdown(b *strings.Builder, c Card) {
	client := c.Client
	if client == "" {
		client = "an unnamed client"
	}
	fmt.Fprintf(b, "## %s (session %s, %s, spec %s)\n\n", mdText(client), c.Session, c.Transport, c.Spec)
	fmt.Fprintf(b, "%s.", c.Summary())
	if len(c.Waits) > 0 {
		ws := make([]string, len(c.Waits))
		for i, w := range c.Waits {
			ws[i] = fmt.Sprintf("%.1f s", w)
		}
		fmt.Fprintf(b, " Waits before resends: %s.", strings.Join(ws, ", "))
	}
	b.WriteString("\n")
	if len(c.Entries) == 0 {
		return
	}
	b.WriteString("\n| # | call | served | the client's move | verdict | rule |\n|---|---|---|---|---|---|\n")
	for _, e := range c.Entries {
		fmt.Fprintf(b, "| %d | `%s %s` | %s | %s | %s | %s |\n", e.Seq, e.Tool, mdCode(string(e.Arguments)), mdText(e.Served), mdText(moveText(e)), verdictText(e), mdText(e.Rule))
	}
	b.WriteString("\n")
	for _, e := range c.Entries {
		if e.Pending || e.Why == "" {
			continue
		}
		fmt.Fprintf(b, "- #%d %s: %s", e.Seq, e.Tool, mdText(e.Why))
		if e.Feedback != "" {
			fmt.Fprintf(b, " %s", mdText(strings.TrimSpace(e.Feedback)))
		}
		b.WriteString("\n")
	}
}

// moveText is the client's move in words, with the wait.
func moveText(e Entry) string {
	if e.CutOff {
		return "pending (server stopped): no call before the server stopped, too soon to read as a stop"
	}
	if e.Pending {
		return "no call yet"
	}
	s := e.Reading
	if e.Wasted {
		s += " (wasted)"
	}
	return s
}

// verdictText is the grade with a symbol that reads without colour.
func verdictText(e Entry) string {
	if e.Action == e.BestAction && e.Grade != rules.GradeBest && e.WaitOK != nil && !*e.WaitOK {
		sym := "◑ acceptable"
		if e.Grade == rules.GradeWrong {
			sym = "✗ wrong"
		}
		return sym + " (" + string(e.Action) + ", too soon)"
	}
	switch e.Grade {
	case rules.GradeBest:
		return "✓ best (" + string(e.Action) + ")"
	case rules.GradeAcceptable:
		return "◑ acceptable (" + string(e.Action) + "; best " + string(e.BestAction) + ")"
	case rules.GradeWrong:
		return "✗ wrong (" + string(e.Action) + "; best " + string(e.BestAction) + ")"
	}
	return "… waiting"
}

// mdText keeps a table cell on one line and its pipes literal.
func mdText(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

func mdCode(s string) string {
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "`", "'"), "|", `\|`)
}
