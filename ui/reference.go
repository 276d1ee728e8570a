package ui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/styles"
)

// reference is the lesson rules as tables, in one scrollable page. Rule,
// category and action text comes from sim/rules; the rest is written here.
type reference struct {
	c            *common.Common
	vp           viewport.Model
	w, h         int
	builtW       int
	sections     []int // line of each section heading
	sectionNames []string
	next         key.Binding
	prev         key.Binding
}

func newReference(c *common.Common) *reference {
	vp := viewport.New(0, 0)
	vp.KeyMap = viewport.KeyMap{}
	return &reference{
		c: c, vp: vp, builtW: -1,
		next: key.NewBinding(key.WithKeys("tab", "]"), key.WithHelp("tab", "next section")),
		prev: key.NewBinding(key.WithKeys("shift+tab", "["), key.WithHelp("shift+tab", "previous section")),
	}
}

func (m *reference) Init() tea.Cmd { return nil }

func (m *reference) Crumb() string { return "Reference" }

func (m *reference) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.vp.Width, m.vp.Height = m.w, max(m.h-1, 0)
	if m.builtW != m.w {
		content, sections, names := buildReference(m.c.Styles, max(m.w, 20))
		m.vp.SetContent(content)
		m.sections, m.sectionNames = sections, names
		m.builtW = m.w
	}
	m.vp.SetYOffset(m.vp.YOffset)
}

func (m *reference) ShortHelp() []key.Binding {
	return []key.Binding{m.c.Nav.Down, m.c.Nav.Up, m.c.Nav.PageDown, m.next}
}

func (m *reference) FullHelp() [][]key.Binding {
	n := m.c.Nav
	return [][]key.Binding{{n.Up, n.Down, n.PageUp, n.PageDown}, {n.Top, n.Bottom, m.next, m.prev}}
}

func (m *reference) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	if pane.ScrollViewport(&m.vp, m.c.Nav, k) {
		return m, nil
	}
	switch {
	case key.Matches(k, m.next):
		for _, l := range m.sections {
			if l > m.vp.YOffset {
				m.vp.SetYOffset(l)
				break
			}
		}
	case key.Matches(k, m.prev):
		target := 0
		for _, l := range m.sections {
			if l < m.vp.YOffset {
				target = l
			}
		}
		m.vp.SetYOffset(target)
	}
	return m, nil
}

func (m *reference) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.h == 1 {
		return m.footer()
	}
	return m.vp.View() + "\n" + m.footer()
}

// footer names the section in view and the scroll position.
func (m *reference) footer() string {
	st := m.c.Styles
	total := m.vp.TotalLineCount()
	last := min(m.vp.YOffset+m.vp.Height, total)
	pos := fmt.Sprintf("lines %d-%d of %d", min(m.vp.YOffset+1, total), last, total)
	sec := "Reference"
	for i, l := range m.sections {
		if l <= m.vp.YOffset && i < len(m.sectionNames) {
			sec = m.sectionNames[i]
		}
	}
	left := st.Muted.Render("── " + sec)
	return common.JoinEnds(left, st.Muted.Render(pos+" ──"), m.w)
}

// refDoc accumulates the page and remembers where sections start.
type refDoc struct {
	st       *styles.Styles
	w        int
	lines    []string
	sections []int
	names    []string
}

func (d *refDoc) add(s string) { d.lines = append(d.lines, strings.Split(s, "\n")...) }

// rpcCode matches a JSON-RPC error code such as -32602.
var rpcCode = regexp.MustCompile(`-(32[0-9]{3})\b`)

// keepCodes joins the minus sign of JSON-RPC codes to their digits with a
// non-breaking hyphen (U+2011), so wrapping never splits -32602 in two.
// The Reference is read, never copied, so the substitution is safe.
func keepCodes(s string) string { return rpcCode.ReplaceAllString(s, "\u2011$1") }

func (d *refDoc) heading(n int, title string) {
	if len(d.lines) > 0 {
		d.add("")
	}
	d.sections = append(d.sections, len(d.lines))
	d.names = append(d.names, fmt.Sprintf("§%d %s", n, title))
	d.add(d.st.Heading.Render(fmt.Sprintf("§%d  %s", n, title)))
	d.add(d.st.Muted.Render(strings.Repeat("─", min(d.w, 72))))
}

// para wraps text to the page width with an optional bold lead-in.
func (d *refDoc) para(lead, text string) {
	s := keepCodes(text)
	if lead != "" {
		s = lead + " " + s
	}
	wrapped := ansi.Wrap(s, d.w, "")
	if lead != "" && strings.HasPrefix(wrapped, lead) {
		wrapped = d.st.Bold.Render(lead) + wrapped[len(lead):]
	}
	d.add(wrapped)
}

func (d *refDoc) bullet(text string) {
	w := max(d.w-2, 1)
	lines := strings.Split(ansi.Wrap(keepCodes(text), w, ""), "\n")
	for i, l := range lines {
		if i == 0 {
			d.add(d.st.Accent.Render("•") + " " + l)
		} else {
			d.add("  " + l)
		}
	}
}

// table draws a bordered table exactly d.w cells wide. Cells wrap at
// spaces only: a column is never narrower than its longest word (an
// identifier such as explain_alternative or requiresUserAction stays
// whole) while the columns' longest words fit side by side; the room left
// goes where it saves the most rows. When the longest words do not fit
// side by side, the table becomes one column of "header: text" lines.
func (d *refDoc) table(headers []string, rows [][]string) {
	st := d.st
	if !tableFits(headers, rows, d.w) && len(headers) > 1 {
		// Too narrow for the columns' longest words side by side: one
		// column, each row's cells as "header: text" lines.
		var one [][]string
		for _, r := range rows {
			var parts []string
			for j, c := range r {
				if j < len(headers) && headers[j] != "" {
					c = headers[j] + ": " + c
				}
				parts = append(parts, c)
			}
			one = append(one, []string{strings.Join(parts, "\n")})
		}
		var names []string
		for _, h := range headers {
			if h != "" {
				names = append(names, h)
			}
		}
		headers, rows = []string{strings.Join(names, " · ")}, one
	}
	all := append([][]string{headers}, rows...)
	n := len(headers)
	cells := make([][]string, len(all))
	for i, r := range all {
		cells[i] = make([]string, n)
		for j := range n {
			if j < len(r) {
				cells[i][j] = keepCodes(r[j])
			}
		}
	}
	widths := tableWidths(cells, d.w)
	border := func(l, mid, r string) string {
		var b strings.Builder
		b.WriteString(l)
		for j, cw := range widths {
			if j > 0 {
				b.WriteString(mid)
			}
			b.WriteString(strings.Repeat("─", cw+2))
		}
		b.WriteString(r)
		return st.TableBorder.Render(b.String())
	}
	bar := st.TableBorder.Render("│")
	head, body := st.TableHeader.UnsetPadding(), st.TableCell.UnsetPadding()
	out := []string{border("╭", "┬", "╮")}
	for i, r := range cells {
		if i > 0 {
			out = append(out, border("├", "┼", "┤"))
		}
		cs := body
		if i == 0 {
			cs = head
		}
		wrapped := make([][]string, n)
		h := 1
		for j, c := range r {
			wrapped[j] = cellLines(c, widths[j])
			h = max(h, len(wrapped[j]))
		}
		for k := range h {
			var b strings.Builder
			b.WriteString(bar)
			for j := range n {
				l := ""
				if k < len(wrapped[j]) {
					l = wrapped[j][k]
				}
				b.WriteString(" " + cs.Render(l) + strings.Repeat(" ", widths[j]-ansi.StringWidth(l)) + " " + bar)
			}
			out = append(out, b.String())
		}
	}
	out = append(out, border("╰", "┴", "╯"))
	d.add(strings.Join(out, "\n"))
}

// cellLines wraps a cell's text to w cells at spaces, keeping its line
// breaks; a word wider than w is cut.
func cellLines(text string, w int) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		if strings.TrimSpace(para) == "" {
			out = append(out, "")
			continue
		}
		out = append(out, common.WrapWords(para, max(w, 1))...)
	}
	return out
}

// tableWidths shares a table's text room (w less a border and a space
// each side of every cell) among its columns so the table is exactly w
// wide. Each column needs its longest word and would like its longest
// line. When every column can have its longest line, the spare room is
// shared in proportion to those lines; when not, each column gets its
// longest word and fitColumns spends the rest where it saves the most
// rows; when even the longest words do not fit (table draws such a table
// as one column first), the room is shared in proportion to them and
// words are cut.
func tableWidths(cells [][]string, w int) []int {
	n := 0
	if len(cells) > 0 {
		n = len(cells[0])
	}
	if n == 0 {
		return nil
	}
	room := w - 3*n - 1
	minW, natW := columnNeeds(cells, n)
	sum := func(xs []int) int {
		t := 0
		for _, x := range xs {
			t += x
		}
		return t
	}
	var base, weight []int
	switch {
	case sum(natW) <= room:
		base, weight = natW, natW
	case sum(minW) <= room:
		base = fitColumns(cells, minW, natW, room)
		weight = make([]int, n)
		for j := range n {
			weight[j] = natW[j] - base[j]
		}
	default:
		base, weight = make([]int, n), minW
	}
	return shareRoom(base, weight, max(room, n))
}

// fitColumns widens columns from their longest words (minW) towards
// their longest lines (natW) within room, a few cells at a time, each time
// where the table loses the most rows per cell given (then the most
// wrapped lines in its cells: "protocol error" on one line rather than
// two). It stops when no widening within room shortens anything.
func fitColumns(cells [][]string, minW, natW []int, room int) []int {
	n := len(minW)
	widths := slices.Clone(minW)
	// The first column names the rows ("protocol error", "what
	// happened"): it starts with up to a quarter of the room, so a short
	// label reads on one line.
	total := 0
	for _, x := range minW {
		total += x
	}
	if n > 1 {
		widths[0] = max(minW[0], min(natW[0], room/4, room-(total-minW[0])))
		total += widths[0] - minW[0]
	}
	// A header reads on one line when the room allows.
	for j := range n {
		if hw := ansi.StringWidth(strings.Join(strings.Fields(cells[0][j]), " ")); hw > widths[j] && total+hw-widths[j] <= room {
			total += hw - widths[j]
			widths[j] = hw
		}
	}
	type key struct{ col, w int }
	memo := map[key][]int{}
	linesAt := func(j, w int) []int {
		k := key{j, w}
		if ls, ok := memo[k]; ok {
			return ls
		}
		ls := make([]int, len(cells))
		for i, r := range cells {
			ls[i] = len(cellLines(r[j], w))
		}
		memo[k] = ls
		return ls
	}
	// cost is the table's rows, then the lines of all its cells.
	cost := func(ws []int) int {
		rows, lines := 0, 0
		per := make([][]int, n)
		for j := range n {
			per[j] = linesAt(j, ws[j])
		}
		for i := range cells {
			h := 0
			for j := range n {
				h = max(h, per[j][i])
				lines += per[j][i]
			}
			rows += h
		}
		return rows*1000 + lines
	}
	left := room
	for _, x := range widths {
		left -= x
	}
	cur := cost(widths)
	for left > 0 {
		bestJ, bestK, bestGain := -1, 0, 0
		for j := range n {
			for k := 1; k <= left && widths[j]+k <= natW[j]; k++ {
				ws := slices.Clone(widths)
				ws[j] += k
				if gain := cur - cost(ws); gain > 0 {
					// gain per cell, compared without division.
					if bestJ < 0 || gain*bestK > bestGain*k {
						bestJ, bestK, bestGain = j, k, gain
					}
					break
				}
			}
		}
		if bestJ < 0 {
			break
		}
		widths[bestJ] += bestK
		left -= bestK
		cur -= bestGain
	}
	return widths
}

// tableFits reports whether a table's columns can sit side by side at
// width w with no word cut.
func tableFits(headers []string, rows [][]string, w int) bool {
	cells := append([][]string{headers}, rows...)
	minW, _ := columnNeeds(cells, len(headers))
	room := w - 3*len(headers) - 1
	for _, x := range minW {
		room -= x
	}
	return room >= 0
}

// columnNeeds is each column's longest word and longest line.
func columnNeeds(cells [][]string, n int) (minW, natW []int) {
	minW, natW = make([]int, n), make([]int, n)
	for _, r := range cells {
		for j, c := range r[:min(len(r), n)] {
			for _, para := range strings.Split(c, "\n") {
				natW[j] = max(natW[j], ansi.StringWidth(strings.Join(strings.Fields(para), " ")))
				for _, word := range strings.Fields(para) {
					minW[j] = max(minW[j], ansi.StringWidth(word))
				}
			}
		}
	}
	for j := range n {
		minW[j], natW[j] = max(minW[j], 1), max(natW[j], minW[j], 1)
	}
	return minW, natW
}

// shareRoom gives each column its base plus a share of what is left of
// room in proportion to weight, rounding so the widths add up to room
// exactly (largest remainders first), and at least one cell each.
func shareRoom(base, weight []int, room int) []int {
	n := len(base)
	out := slices.Clone(base)
	left, total := room, 0
	for j := range n {
		left -= base[j]
		total += weight[j]
	}
	if total == 0 {
		weight = slices.Repeat([]int{1}, n)
		total = n
	}
	type rem struct{ j, r int }
	var rems []rem
	given := 0
	for j := range n {
		share := left * weight[j] / total
		out[j] += share
		given += share
		rems = append(rems, rem{j, left * weight[j] % total})
	}
	slices.SortStableFunc(rems, func(a, b rem) int { return b.r - a.r })
	for k := 0; k < left-given; k++ {
		out[rems[k%n].j]++
	}
	for j := range n {
		out[j] = max(out[j], 1)
	}
	return out
}

func (d *refDoc) rule(id string) string {
	r := rules.Lookup(id)
	return r.Statement
}

// buildReference renders the whole page for a width and returns it with
// the line number of each section heading.
func buildReference(st *styles.Styles, w int) (string, []int, []string) {
	d := &refDoc{st: st, w: w}
	d.add(st.Title.Render("Reference: the lesson rules"))
	d.para("", "What errorlab scores against, section by section. tab jumps to the next section; the rule names (§2 Transient errors, ...) are the ones the lab's verdicts cite.")

	// §1
	d.heading(1, "Two layers of failure")
	d.table([]string{"layer", "on the wire", "happens when", "who deals with it"}, [][]string{
		{"protocol error", "a JSON-RPC error object {code, message, data?} and no result",
			"the call could not be made at all: bad JSON -32700, not a request -32600, no such method -32601, unknown tool or params that break the request schema -32602, a server fault outside any tool -32603",
			"the client or host; the model gets no tool result. Fix the client, the tool name or the schema"},
		{"tool execution error", "a normal result with isError: true, a text block, optionally structuredContent",
			"the tool exists and ran, then failed: upstream down, bad data, a policy refused",
			"the model: it reads the result and picks the next move"},
	})
	d.para("Anti-pattern:", d.rule(rules.RuleGoError))
	d.add("")
	for i, l := range strings.Split(ansi.Wrap("Spec revisions (each lab screen says which one it follows; r switches)", d.w, ""), "\n") {
		if i == 0 && strings.HasPrefix(l, "Spec revisions") {
			l = st.Bold.Render("Spec revisions") + st.Muted.Render(l[len("Spec revisions"):])
		} else {
			l = st.Muted.Render(l)
		}
		d.add(l)
	}
	d.table([]string{"revision", "arguments that fail inputSchema", "what else changed"}, [][]string{
		{string(rules.Rev20250618), "protocol error -32602 (how the original lessons read the spec)", "initialize handshake; the baseline"},
		{string(rules.Rev20251125), "tool execution error, isError: true, so the model can correct itself (SEP-1303)", "unknown tool stays -32602"},
		{string(rules.Rev20260728), "as 2025-11-25", "stateless: server/discover replaces initialize, every request carries _meta (protocolVersion, clientCapabilities, clientInfo), every result carries resultType: \"complete\""},
	})
	d.para("Unknown tool:", d.rule(rules.RuleUnknownTool))

	// §2
	d.heading(2, "Four categories")
	causes := map[rules.Category]string{
		rules.Transient:  "timeout, overloaded or unavailable service, rate limit (with a retry-after), network blip",
		rules.Validation: "malformed id (ORD-4471x), missing field, wrong date format, value out of range, start after end",
		rules.Business:   "refund above the automatic limit, past the return window, cancelling what already shipped",
		rules.Permission: "missing role or scope, staff-only records, a service account without access, an expired credential",
	}
	var catRows [][]string
	for _, c := range rules.Categories {
		next := ""
		if rec, ok := rules.Recommend(rules.Situation{Layer: rules.LayerExecution, Category: c}); ok {
			next = rec.Best.Title() + ": " + rec.Best.Description()
		}
		if w >= 100 {
			catRows = append(catRows, []string{string(c), causes[c], fmt.Sprint(c.Retryable()), next})
		} else {
			catRows = append(catRows, []string{string(c) + "\n\nisRetryable:\n" + fmt.Sprint(c.Retryable()), causes[c], next})
		}
	}
	if w >= 100 {
		d.table([]string{"errorCategory", "typical causes", "isRetryable", "next move"}, catRows)
	} else {
		d.table([]string{"errorCategory", "typical causes", "next move"}, catRows)
	}
	d.para("isRetryable:", d.rule(rules.RuleRetryableMeaning))
	d.para("Two readings:", "some course material marks validation errors retryable, meaning \"retry once the input is fixed\". errorlab's answer key says false: resending the same call cannot work. An expired token is a permission error that may succeed after a refresh, never by repeating the call blindly. A timeout on a call with side effects (a refund) is transient, but check state or use an idempotency key before resending.")

	// §3
	d.heading(3, "Structured metadata")
	d.para("", d.rule(rules.RuleMetadataFields))
	meta := [][]string{
		{"errorCategory", "transient, validation, business or permission", "every error (canonical)"},
		{"isRetryable", "would the identical call work later?", "every error (canonical)"},
		{"description", "what went wrong and what to try next, for the model", "every error (canonical)"},
		{"code", "a stable name such as REFUND_WINDOW_EXCEEDED", "useful everywhere"},
		{"customerMessage", "words the agent can pass on to the customer", "business refusals"},
		{"retryAfterSeconds", "how long to wait", "rate limits"},
		{"fieldErrors, exampleArguments", "which argument, what was expected, a corrected call", "validation"},
		{"correlationId", "a handle for the server log; no internals", "unexpected faults"},
		{"requiresUserAction", "the user must confirm first", "unconfirmed destructive actions"},
		{"partialResults, attempted", "what was obtained and what was tried", "a subagent reporting upward"},
	}
	if metaHead := []string{"field", "what it carries", "when"}; tableFits(metaHead, meta, w) {
		d.table(metaHead, meta)
	} else {
		// Too narrow for three columns with whole names: "when" joins
		// the description.
		var two [][]string
		for _, r := range meta {
			two = append(two, []string{r[0], r[1] + "\n\nwhen: " + r[2]})
		}
		d.table([]string{"field", "what it carries"}, two)
	}
	d.para("Where it goes:", d.rule(rules.RuleMetadataMirror)+" "+d.rule(rules.RuleOutputSchema))
	d.para("Other spellings a grader accepts:", "category, retriable or retryable, recoverable, automatic_retry_allowed, message, suggested_action, and an {ok, data, error} envelope. They are recognised and flagged as non-canonical.")
	d.bullet(rules.Lookup(rules.RuleGenericMessage).Title + ": " + d.rule(rules.RuleGenericMessage))
	d.bullet(rules.Lookup(rules.RuleRawException).Title + ": " + d.rule(rules.RuleRawException))
	d.bullet(rules.Lookup(rules.RuleErrorAsSuccess).Title + ": " + d.rule(rules.RuleErrorAsSuccess))

	// §4
	d.heading(4, "Empty result or access failure")
	d.table([]string{"", "valid empty result", "access failure"}, [][]string{
		{"what happened", "the query ran; nothing matched", "the source could not be reached; nobody knows"},
		{"isError", "absent or false", "true"},
		{"metadata", "resultCount: 0", "errorCategory transient, isRetryable true"},
		{"the text says", "0 matches, and that the query ran", "the query did not run"},
		{"the agent", "accepts it, does not retry, tells the user there is no match", "retries with backoff, then reports"},
		{"if mislabelled", "reported as a failure: wasted retries, \"I couldn't check\"", "reported as empty: a confident wrong answer (worse)"},
	})
	d.para("By contract:", d.rule(rules.RuleEmptyContract))

	// §5
	d.heading(5, "Recovery across agents")
	for _, id := range []string{rules.RuleRecoverLocally, rules.RuleReportUpward, rules.RuleNoSuppression} {
		r := rules.Lookup(id)
		d.bullet(r.Title + ": " + r.Statement)
	}
	d.para("The coordinator then:", "carries on with the partial data, tries another route, asks the user, or escalates.")

	// §6
	d.heading(6, "Safe to show the model")
	d.para("", d.rule(rules.RuleSafeToShow))
	d.table([]string{"never in an error result", "instead"}, [][]string{
		{"stack traces, exception dumps", "a generic message and a correlationId; the detail goes to the server log"},
		{"SQL, internal host names, IP addresses", "the name of the service that failed (\"the order database\")"},
		{"tokens, keys, request headers", "nothing: credentials never leave the server"},
		{"sensitive customer data, full policy internals", "the part of the rule the customer needs (customerMessage)"},
	})
	d.para("But:", d.rule(rules.RuleActionable))

	// §7
	d.heading(7, "One flag, several spellings")
	d.table([]string{"where", "the error flag"}, [][]string{
		{"MCP CallToolResult", "isError: true"},
		{"Messages API tool_result block", "is_error: true"},
		{"Agent SDK, Python @tool return dict", "\"is_error\": True"},
		{"Agent SDK, TypeScript tool() helper", "isError: true"},
	})
	d.para("Note:", "the Agent SDK's in-process server catches an exception and returns an error result holding the raw exception text. The loop survives; the model learns nothing it can act on.")

	// §8
	d.heading(8, "Recovery actions")
	var actRows [][]string
	for i, a := range rules.Actions {
		actRows = append(actRows, []string{fmt.Sprint(i + 1), string(a), a.Title(), a.Description()})
	}
	d.table([]string{"key", "action", "title", "what the agent does"}, actRows)
	d.para("", "Each lab scenario names a best action and any acceptable ones; every other choice is answered with the rule it breaks.")

	// §9
	d.heading(9, "Decision table")
	dec := [][]string{
		{"unknown tool name", "JSON-RPC error -32602", rules.Lookup(rules.RuleUnknownTool).Ref()},
		{"request is not a valid tools/call", "JSON-RPC error", rules.Lookup(rules.RuleProtocolLayer).Ref()},
		{"a required business field is missing", "isError: true, validation, naming the field, with an example", rules.Lookup(rules.RuleValidation).Ref()},
		{"a date in the wrong format", "isError: true, validation, the expected format and a corrected example", rules.Lookup(rules.RuleValidation).Ref()},
		{"the caller lacks permission", "isError: true, permission, no automatic retry", rules.Lookup(rules.RulePermission).Ref()},
		{"destructive action not confirmed", "isError: true with requiresUserAction, no automatic retry", rules.Lookup(rules.RuleConfirmation).Ref()},
		{"upstream rate limit", "isError: true, transient, retryAfterSeconds when known", rules.Lookup(rules.RuleRateLimit).Ref()},
		{"upstream timeout", "isError: true, transient, retry guidance, correlationId", rules.Lookup(rules.RuleTransient).Ref()},
		{"some sources answered, some did not", "success with warnings and the partial results, or isError: true if the task cannot be done", rules.Lookup(rules.RulePartialSources).Ref()},
		{"unexpected exception", "sanitized isError: true with a correlationId", rules.Lookup(rules.RuleUnexpectedFault).Ref()},
		{"success with structuredContent and an outputSchema", "the content conforms to the schema", rules.Lookup(rules.RuleSchemaConformance).Ref()},
	}
	d.table([]string{"situation", "right response", "rule"}, dec)

	// Every rule, from the one source.
	if len(d.lines) > 0 {
		d.add("")
	}
	d.sections = append(d.sections, len(d.lines))
	d.names = append(d.names, "Every rule")
	d.add(st.Heading.Render("Every rule the lab cites"))
	d.add(st.Muted.Render(strings.Repeat("─", min(d.w, 72))))
	var all [][]string
	for _, r := range rules.AllRules() {
		all = append(all, []string{r.Ref(), r.Statement})
	}
	d.table([]string{"rule", "statement"}, all)
	return strings.Join(d.lines, "\n"), d.sections, d.names
}
