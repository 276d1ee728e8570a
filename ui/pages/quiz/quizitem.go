package quiz

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	qz "github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/jsonview"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/keymap"
)

// question shows one question or drill: the stem, the exhibit (the raw
// envelope of a drill, highlighted, in its own scrollable pane), then
// each part's prompt with lettered choices. While answering, the learner
// moves a cursor and picks; once revealed, every choice is marked (✓
// correct, ✗ wrong · your pick, – wrong option, ✓ correct · you missed it)
// and carries its explanation.
//
// Wide (at least wideAt cells, with an exhibit) the exhibit sits on
// the right; narrower it is a box inside the scrolling column, between
// the stem and the parts.
//
// The focus goes in the order of the screen: the exhibit (a drill's
// response, read before anything is answered), then each part. An item
// with an exhibit opens with the focus on it; tab goes on to part 1,
// part 2, ... and back to the exhibit, shift+tab the other way, and the
// help names where tab goes next. A choice key picks in the part the
// focus last left (part 1 at first) and takes the focus there.
type question struct {
	c    *common.Common
	keys KeyMap
	it   *qz.Item

	// changed is set by Update when the last key changed the answer.
	changed bool

	chosen [][]bool
	cursor []int
	part   int  // the part letters and the cursor act on
	onEx   bool // the exhibit has the focus (tab)
	// exBig: narrow, the focused exhibit box takes the column. Not while
	// the item opens with the focus on it (the stem stays on screen);
	// from the first tab, click or scroll into it.
	exBig bool

	locked   bool // nothing can change (revealed, or a submitted exam)
	revealed bool
	reserved string // letters the screen keeps for itself (exam: "fs")
	// reservedWhy says what the reserved letters do, for the help
	// ("f flags and s submits").
	reservedWhy string

	ex *pane.Model // nil without an exhibit

	w, h  int
	wide  bool
	colW  int
	exH   int // narrow: rows of the exhibit box in the column
	lines []string
	exAt  int    // narrow: first line of the exhibit box (-1: none)
	spans []span // per part: prompt line, first and last line of each choice
	after int    // line of the takeaway, -1 without one
	off   int    // first column line shown
}

// span locates a part in the column: its prompt and each choice's lines.
type span struct {
	prompt  int
	choices [][2]int
}

// wideAt is the width from which the exhibit goes beside the question.
const wideAt = 110

func newQuestion(c *common.Common, it *qz.Item, reserved string) *question {
	q := &question{c: c, keys: DefaultKeyMap(), it: it, reserved: reserved, exAt: -1, after: -1}
	q.chosen = make([][]bool, len(it.Parts))
	q.cursor = make([]int, len(it.Parts))
	for i, p := range it.Parts {
		q.chosen[i] = make([]bool, len(p.Choices))
	}
	if strings.TrimSpace(it.Exhibit) != "" {
		q.ex = pane.New(c)
		d := jsonview.JSON(it.Exhibit)
		title := it.ExhibitTitle
		if title == "" {
			title = "Exhibit"
		}
		q.ex.SetContent(title, it.Exhibit, func(w int) string { return d.Render(w, c.Styles) })
		q.onEx = true // first in the screen's order: the focus starts there
		q.setFocus()
	}
	return q
}

// SetAnswer restores the picks from a recorded answer.
func (q *question) SetAnswer(a qz.Answer) {
	for i := range q.chosen {
		clear(q.chosen[i])
		if i < len(a) {
			for _, j := range a[i] {
				if j >= 0 && j < len(q.chosen[i]) {
					q.chosen[i][j] = true
				}
			}
		}
	}
	q.rebuild()
}

// Answer is the picks as the engine wants them.
func (q *question) Answer() qz.Answer {
	a := make(qz.Answer, len(q.chosen))
	for i, cs := range q.chosen {
		a[i] = []int{}
		for j, on := range cs {
			if on {
				a[i] = append(a[i], j)
			}
		}
	}
	return a
}

// firstEmpty is the first part with nothing picked, or -1.
func (q *question) firstEmpty() int {
	for i, cs := range q.chosen {
		empty := true
		for _, on := range cs {
			empty = empty && !on
		}
		if empty {
			return i
		}
	}
	return -1
}

// FocusPart moves the focus to part i and scrolls to it.
func (q *question) FocusPart(i int) {
	if i < 0 || i >= len(q.it.Parts) {
		return
	}
	q.part, q.onEx, q.exBig = i, false, false
	q.setFocus()
	q.layout()
	q.follow()
}

// Reveal marks every choice and shows the explanations; the item is then
// read-only.
func (q *question) Reveal() {
	q.revealed, q.locked = true, true
	q.onEx, q.exBig = false, false
	q.setFocus()
	q.layout()
	if len(q.spans) > 0 {
		q.off = q.spans[0].prompt
		q.clampOff()
	}
}

// Lock stops changes without revealing (a submitted exam).
func (q *question) Lock() {
	q.locked = true
	q.rebuild()
}

func (q *question) setFocus() {
	if q.ex != nil {
		q.ex.SetFocused(q.onEx)
	}
}

// targets is how many places tab visits: the exhibit and the parts.
func (q *question) targets() int {
	n := len(q.it.Parts)
	if q.ex != nil {
		n++
	}
	return n
}

func (q *question) SetSize(w, h int) {
	q.w, q.h = max(w, 0), max(h, 0)
	q.layout()
}

// layout places the exhibit (beside or inside the column) and rebuilds.
func (q *question) layout() {
	q.wide = q.ex != nil && q.w >= wideAt
	q.colW = q.w
	if q.ex != nil {
		if q.wide {
			exW := min(max(q.w*45/100, 40), 72)
			q.colW = q.w - exW - 1
			q.ex.SetSize(exW, q.h)
			q.ex.SetSize(exW, min(q.ex.Viewport().TotalLineCount()+2, q.h))
		} else {
			q.ex.SetSize(q.w, max(q.h, 3))
			total := q.ex.Viewport().TotalLineCount() + 2
			// A short stem leaves room: the box takes it, up to 3/5 of
			// the height (or 12 rows on a short screen), keeping the
			// first part's prompt, its first choice and the "more
			// lines" hint on screen.
			tw := q.textW()
			room := q.h - len(paragraphs(q.it.Stem, tw)) - 2 - 1 - 1
			if len(q.it.Parts) > 0 {
				room -= len(q.promptLines(0, q.it.Parts[0], tw))
			}
			q.exH = min(total, max(5, q.h*2/5, min(room, max(q.h*3/5, 12))))
			if q.onEx && q.exBig {
				q.exH = min(total, max(q.h-2, 3))
			}
			q.ex.SetSize(q.w, q.exH)
		}
	}
	q.rebuild()
}

// textW is the width the column's text wraps to.
func (q *question) textW() int { return max(min(q.colW-1, 100), 10) }

// rebuild renders the column's lines for the current state.
func (q *question) rebuild() {
	st := q.c.Styles
	tw := q.textW()
	var lines []string
	for _, l := range paragraphs(q.it.Stem, tw) {
		lines = append(lines, " "+l)
	}
	q.exAt = -1
	if q.ex != nil && !q.wide {
		lines = append(lines, "")
		q.exAt = len(lines)
		for range q.exH {
			lines = append(lines, "")
		}
	}
	q.spans = make([]span, len(q.it.Parts))
	for i, p := range q.it.Parts {
		lines = append(lines, "")
		q.spans[i].prompt = len(lines)
		lines = append(lines, q.promptLines(i, p, tw)...)
		q.spans[i].choices = make([][2]int, len(p.Choices))
		for j := range p.Choices {
			first := len(lines)
			lines = append(lines, q.choiceLines(i, j, tw)...)
			q.spans[i].choices[j] = [2]int{first, len(lines) - 1}
		}
	}
	q.after = -1
	if q.revealed {
		if after := strings.TrimSpace(q.it.After); after != "" {
			lines = append(lines, "")
			q.after = len(lines)
			lines = append(lines, hang(" "+st.Heading.Render("Takeaway")+" ", common.Sanitize(after), tw+1, st.Plain)...)
		}
		if q.it.Rule != "" {
			lines = append(lines, " "+st.Muted.Render("LESSON-RULES "+q.it.Rule))
		}
	}
	q.lines = lines
	q.clampOff()
}

// promptLines is a part's prompt: numbered when there are several parts,
// with "choose all that apply" on a multi-select part and, revealed, the
// part's verdict.
func (q *question) promptLines(i int, p qz.Part, tw int) []string {
	st := q.c.Styles
	prompt := strings.TrimSpace(p.Prompt)
	n := len(q.it.Parts)
	if n == 1 && !(p.AnyOf && q.revealed) {
		// A lone part whose prompt the stem already asks needs no line.
		stem := strings.ToLower(strings.Join(strings.Fields(q.it.Stem), " "))
		pr := strings.ToLower(prompt)
		if (pr == "" && !p.Multi) || (pr != "" && strings.Contains(stem, pr)) || (p.Multi && strings.Contains(stem, "all that apply")) {
			return nil
		}
	}
	if prompt == "" {
		prompt = "Choose one answer."
		if p.Multi {
			prompt = "Choose all that apply."
		}
	}
	if n > 1 {
		prompt = fmt.Sprintf("%d. %s", i+1, prompt)
	}
	hint := ""
	switch {
	case p.Multi && !strings.Contains(strings.ToLower(prompt), "all that apply"):
		hint = "choose all that apply"
	case p.AnyOf && q.revealed:
		hint = "any ✓ choice is a right answer"
	case p.Multi:
	default:
		if n > 1 {
			hint = "one answer"
		}
	}
	lead := " "
	ps := st.Bold
	switch {
	case q.revealed:
		if p.Check(q.Answer()[i]) {
			lead += st.OK.Render("✓") + " "
		} else {
			lead += st.Bad.Render("✗") + " "
		}
	case !q.locked && !q.onEx && i == q.part && n > 1:
		lead += st.Cursor.Render("▸") + " "
		ps = st.Cursor
	}
	text := prompt
	if hint != "" {
		text += " (" + hint + ")"
	}
	return hang(lead, common.Sanitize(text), tw+1, ps)
}

// choiceLines is one choice: cursor or mark, the pick box, the letter, the
// text; revealed, the verdict tag and the explanation below it.
func (q *question) choiceLines(i, j int, tw int) []string {
	st := q.c.Styles
	p := q.it.Parts[i]
	ch := p.Choices[j]
	on := q.chosen[i][j]
	box := "( )"
	if on {
		box = "(•)"
	}
	if p.Multi {
		box = "[ ]"
		if on {
			box = "[x]"
		}
	}
	mark := " "
	textSt := st.Plain
	switch {
	case q.revealed && ch.Correct && !on:
		// A right answer the learner did not pick: marked, but not green,
		// so it does not read as a success.
		mark = st.Warn.Render("✓")
	case q.revealed && ch.Correct:
		mark = st.OK.Render("✓")
	case q.revealed && on:
		mark = st.Bad.Render("✗")
	case !q.locked && !q.onEx && i == q.part && j == q.cursor[i]:
		mark = st.Cursor.Render("▸")
		textSt = st.Selected
	}
	boxSt := st.Muted
	if on {
		boxSt = st.Accent
	}
	lead := "  " + mark + " " + boxSt.Render(box) + " " + st.Bold.Render(qz.Letter(j)) + "  "
	out := hang(lead, common.Sanitize(strings.TrimSpace(ch.Text)), tw+1, textSt)
	if !q.revealed {
		return out
	}
	var tag string
	tagSt := st.Bad
	switch {
	case ch.Correct && on:
		tag, tagSt = "✓ correct · your pick", st.OK
	case ch.Correct:
		tag, tagSt = "✓ correct · you missed it", st.Warn
	case on:
		tag = "✗ wrong · your pick"
	default:
		// Not a mistake of the learner's: ✗ would read as one.
		tag, tagSt = "– wrong option", st.Muted
	}
	// The tag already says right or wrong: an explanation that opens
	// with "Right." or "Wrong." would say it twice.
	words := common.WrongWords
	if ch.Correct {
		words = common.RightWords
	}
	expl := common.StripVerdict(strings.TrimSpace(ch.Explanation), words...)
	if expl == "" {
		expl = "(no explanation given)"
	}
	// A dash, not a colon, between the tag and the explanation: after
	// "your pick:" a new user read the explanation as the pick itself.
	const indent, sep = 11, " — "
	body := wrap(tag+sep+strings.Join(strings.Fields(common.Sanitize(expl)), " "), max(tw+1-indent, 10))
	for k, l := range body {
		if k == 0 && strings.HasPrefix(l, tag) {
			rest := strings.TrimPrefix(l[len(tag):], strings.TrimRight(sep, " "))
			if len(rest) < len(l[len(tag):]) { // the dash is on this line
				l = tagSt.Render(tag) + st.Muted.Render(strings.TrimRight(sep, " ")) + rest
			} else {
				l = tagSt.Render(tag) + l[len(tag):]
			}
		}
		body[k] = strings.Repeat(" ", indent) + l
	}
	return append(out, body...)
}

// viewH is the rows of the column left for text: one row goes to the
// "more below" hint when the column overflows.
func (q *question) viewH() int {
	if len(q.lines) > q.h {
		return max(q.h-1, 1)
	}
	return q.h
}

func (q *question) clampOff() {
	q.off = max(min(q.off, len(q.lines)-q.viewH()), 0)
}

// scrollTo makes lines first..last visible, the smallest move that does.
func (q *question) scrollTo(first, last int) {
	vh := q.viewH()
	switch {
	case last-first+1 > vh || first < q.off:
		q.off = first
	case last >= q.off+vh:
		q.off = last - vh + 1
	}
	q.clampOff()
}

// follow scrolls to what has the focus: the exhibit box, or the cursor's
// choice with its part's prompt when both fit.
func (q *question) follow() {
	if q.onEx {
		if q.exAt >= 0 {
			q.scrollTo(max(q.exAt-1, 0), q.exAt+q.exH-1)
		}
		return
	}
	if q.part >= len(q.spans) || q.locked || q.choices() == 0 {
		return
	}
	sp := q.spans[q.part]
	c := sp.choices[q.cursor[q.part]]
	if c[1]-sp.prompt+1 <= q.viewH() {
		q.scrollTo(sp.prompt, c[1])
	} else {
		q.scrollTo(c[0], c[1])
	}
}

func (q *question) Init() tea.Cmd { return nil }

// Update handles the item's keys (choosing, moving, tab, scrolling) and
// the mouse (mouse.go). Afterwards changed says whether the answer
// changed.
func (q *question) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	q.changed = false
	switch msg := msg.(type) {
	case tea.KeyMsg:
		_, q.changed = q.key(msg, q.keys, q.c.Nav)
	case tea.MouseMsg:
		q.mouse(msg)
	}
	return q, nil
}

// ShortHelp is the item's own keys right now; screens add theirs.
func (q *question) ShortHelp() []key.Binding {
	k := q.keys
	var bs []key.Binding
	if q.locked {
		bs = append(bs, k.Scroll)
	} else {
		choose := "choose"
		if q.onEx && len(q.it.Parts) > 1 {
			choose = fmt.Sprintf("choose in part %d", q.part+1)
		}
		bs = append(bs, withHelp(k.Choose, q.chooseKeys(), choose))
		if q.multi() {
			bs = append(bs, withHelp(k.Toggle, "space", "toggle"))
		}
		if q.onEx {
			bs = append(bs, withHelp(k.Scroll, "↑/↓", "scroll the "+q.exName()))
		}
	}
	if q.targets() > 1 && (!q.locked || q.ex != nil) {
		bs = append(bs, withHelp(k.Part, "tab", q.tabHelp()))
	}
	return bs
}

// FullHelp lists every key of the item.
func (q *question) FullHelp() [][]key.Binding {
	k, nav := q.keys, q.c.Nav
	// The same keys as the short help names (chooseKeys), so the two
	// never disagree ("a-d/1-4" there, "1-9" here, a new user noticed).
	choose := withHelp(k.Choose, q.chooseKeys(), "choose in the focused part")
	if q.reserved != "" {
		why := q.reservedWhy
		if why == "" {
			why = "not " + strings.Join(strings.Split(q.reserved, ""), ", ")
		}
		choose = withHelp(k.Choose, q.chooseKeys(), "choose (letters too, but "+why+")")
	}
	return [][]key.Binding{{choose,
		withHelp(k.Toggle, "space", "pick/toggle at the cursor"), withHelp(nav.Up, "↑/↓", "move the cursor (scroll once shown)"),
		withHelp(k.Part, "tab", "move the focus: "+q.focusOrder()), withHelp(k.PartRev, "shift+tab", "move the focus back"),
		withHelp(nav.PageDown, "pgup/pgdn", "scroll"), withHelp(nav.Top, "home/end", "top/bottom")}}
}

// exName is what the exhibit is called in the help: the first word of
// its title ("response" for a drill's "Response (server → client)").
func (q *question) exName() string {
	if q.ex == nil {
		return "exhibit"
	}
	if f := strings.Fields(q.ex.Title()); len(f) > 0 {
		return strings.ToLower(f[0])
	}
	return "exhibit"
}

// focusOrder is the order tab visits: "response, part 1, 2, 3".
func (q *question) focusOrder() string {
	var stops []string
	if q.ex != nil {
		stops = append(stops, q.exName())
	}
	switch n := len(q.it.Parts); {
	case n == 1 && q.ex != nil:
		stops = append(stops, "choices")
	case n > 1:
		stops = append(stops, "part 1")
		for i := 2; i <= n; i++ {
			stops = append(stops, fmt.Sprint(i))
		}
	}
	if len(stops) < 2 {
		return "nothing else to focus"
	}
	return strings.Join(stops, ", ")
}

// stop is where the focus is: 0 the exhibit (when there is one), then
// the parts in order.
func (q *question) stop() int {
	if q.ex == nil {
		return q.part
	}
	if q.onEx {
		return 0
	}
	return q.part + 1
}

// tabHelp says where tab takes the focus next: "to part 2", "to the
// response", "to the choices".
func (q *question) tabHelp() string {
	n := q.targets()
	next := (q.stop() + 1) % n
	switch {
	case q.ex != nil && next == 0:
		return "to the " + q.exName()
	case q.ex != nil:
		next--
	}
	if len(q.it.Parts) == 1 {
		if q.locked {
			return "to the question"
		}
		return "to the choices"
	}
	return fmt.Sprintf("to part %d", next+1)
}

// chooseKeys is "a-d/1-4" for the focused part; when the screen keeps
// one of those letters (an exam's f), "1-6 (a-e too)".
func (q *question) chooseKeys() string {
	n := min(q.choices(), 9)
	if n <= 1 {
		return "a/1"
	}
	free := n // letters a.. usable before the first reserved one
	for j := range n {
		if strings.ContainsRune(q.reserved, rune('a'+j)) {
			free = j
			break
		}
	}
	if free < n {
		if free <= 1 {
			return fmt.Sprintf("1-%d", n)
		}
		return fmt.Sprintf("1-%d (a-%s too)", n, strings.ToLower(qz.Letter(free-1)))
	}
	return fmt.Sprintf("a-%s/1-%d", strings.ToLower(qz.Letter(n-1)), n)
}

// key handles a key; changed reports an answer change.
func (q *question) key(k tea.KeyMsg, keys KeyMap, nav keymap.Nav) (handled, changed bool) {
	switch {
	case key.Matches(k, keys.Part), key.Matches(k, keys.PartRev):
		// The screen's order: the exhibit first, then the parts.
		n := q.targets()
		if n <= 1 {
			return true, false
		}
		cur := q.stop()
		if key.Matches(k, keys.Part) {
			cur = (cur + 1) % n
		} else {
			cur = (cur + n - 1) % n
		}
		q.onEx = q.ex != nil && cur == 0
		if !q.onEx {
			if q.ex != nil {
				cur--
			}
			q.part = cur
		}
		q.exBig = q.onEx
		q.setFocus()
		q.layout() // the exhibit box grows when focused (narrow)
		if q.locked && !q.onEx && q.part < len(q.spans) {
			q.scrollTo(q.spans[q.part].prompt, q.spans[q.part].prompt)
		} else {
			q.follow()
		}
		return true, false
	}
	// A choice key first: "g" picks choice G, even where it would
	// scroll the exhibit to its top.
	if !q.locked {
		if j, ok := q.choiceKey(k); ok {
			if q.onEx {
				// A choice made from the exhibit takes the focus to
				// its part, so the next tab goes on to the next part.
				q.onEx, q.exBig = false, false
				q.setFocus()
				q.layout()
			}
			q.cursor[q.part] = j
			q.pick(q.part, j)
			return true, true
		}
	}
	if q.onEx && q.ex != nil {
		if q.ex.Scroll(nav, k) { // space pages down too
			if !q.exBig {
				// Reading on from where the item opened: the box
				// takes the column, as after tab.
				q.exBig = true
				q.layout()
				q.follow()
			}
			return true, false
		}
	}
	if !q.locked && !q.onEx {
		switch {
		case key.Matches(k, nav.Up):
			q.moveCursor(-1)
			return true, false
		case key.Matches(k, nav.Down):
			q.moveCursor(1)
			return true, false
		case k.String() == " " && q.choices() > 0:
			q.pick(q.part, q.cursor[q.part])
			return true, true
		}
	}
	// Scrolling the column.
	vh := q.viewH()
	switch {
	case key.Matches(k, nav.Up):
		q.off--
	case key.Matches(k, nav.Down):
		q.off++
	case key.Matches(k, nav.PageUp):
		q.off -= max(vh-1, 1)
	case key.Matches(k, nav.PageDown):
		q.off += max(vh-1, 1)
	case k.String() == "home" || (q.locked && k.String() == "g"):
		q.off = 0
	case k.String() == "end" || (q.locked && k.String() == "G"):
		q.off = len(q.lines)
	default:
		return false, false
	}
	q.clampOff()
	return true, false
}

// choiceKey maps a letter (a-z, unless the screen keeps it) or a digit
// (1-9) to a choice of the focused part.
func (q *question) choiceKey(k tea.KeyMsg) (int, bool) {
	if k.Type != tea.KeyRunes || len(k.Runes) != 1 || k.Alt {
		return 0, false
	}
	r := k.Runes[0]
	n := q.choices()
	switch {
	case r >= '1' && r <= '9':
		if j := int(r - '1'); j < n {
			return j, true
		}
	case r >= 'a' && r <= 'z' && !strings.ContainsRune(q.reserved, r):
		if j := int(r - 'a'); j < n {
			return j, true
		}
	}
	return 0, false
}

// moveCursor walks the choices; past a part's end it goes on to the next
// part's choices.
func (q *question) moveCursor(d int) {
	if q.choices() == 0 {
		return
	}
	c := q.cursor[q.part] + d
	switch {
	case c < 0:
		if q.part == 0 {
			q.off = 0 // show the stem above the first choice
			return
		}
		q.part--
		q.cursor[q.part] = len(q.it.Parts[q.part].Choices) - 1
	case c >= len(q.it.Parts[q.part].Choices):
		if q.part == len(q.it.Parts)-1 {
			q.scrollTo(len(q.lines)-1, len(q.lines)-1)
			return
		}
		q.part++
		q.cursor[q.part] = 0
	default:
		q.cursor[q.part] = c
	}
	q.rebuild()
	q.follow()
}

// pick selects choice j of part i (a single-choice part keeps one pick; a
// multi-select part toggles).
func (q *question) pick(i, j int) {
	if q.it.Parts[i].Multi {
		q.chosen[i][j] = !q.chosen[i][j]
	} else {
		clear(q.chosen[i])
		q.chosen[i][j] = true
	}
	q.rebuild()
	q.follow()
}

// View is the column (and, wide, the exhibit beside it), exactly h rows.
func (q *question) View() string {
	if q.w <= 0 || q.h <= 0 {
		return ""
	}
	var exLines []string
	if q.exAt >= 0 {
		exLines = strings.Split(q.ex.View(), "\n")
	}
	vh := q.viewH()
	rows := make([]string, 0, q.h)
	for i := q.off; i < q.off+vh; i++ {
		l := ""
		switch {
		case q.exAt >= 0 && i >= q.exAt && i < q.exAt+q.exH:
			if k := i - q.exAt; k < len(exLines) {
				l = exLines[k]
			}
		case i < len(q.lines):
			l = q.lines[i]
		}
		rows = append(rows, l)
	}
	if vh < q.h {
		below := len(q.lines) - q.off - vh
		hint := ""
		switch {
		case q.onEx && !q.wide && q.exBig:
			hint = " ↑/↓ pgup/pgdn scroll the " + q.exName() + " · tab " + q.tabHelp()
		case q.onEx && !q.wide && below > 0:
			// As the item opens: what is below, and the key to it.
			hint = fmt.Sprintf(" ↓ %s below · tab %s", common.Plural(below, "more line"), q.tabHelp())
		case below > 0:
			hint = fmt.Sprintf(" ↓ %s below · pgdn", common.Plural(below, "more line"))
		case q.off > 0:
			hint = " ↑ pgup for the lines above"
		}
		rows = append(rows, q.c.Styles.Muted.Render(hint))
	}
	if !q.wide {
		for i, l := range rows {
			rows[i] = fit(l, q.w)
		}
		return strings.Join(rows, "\n")
	}
	exRows := strings.Split(q.ex.View(), "\n")
	for i, l := range rows {
		r := ""
		if i < len(exRows) {
			r = exRows[i]
		}
		rows[i] = pad(l, q.colW) + " " + r
	}
	return strings.Join(rows, "\n")
}

// multi reports whether the focused part is multi-select.
func (q *question) multi() bool { return q.part < len(q.it.Parts) && q.it.Parts[q.part].Multi }

// choices is the number of choices of the focused part.
func (q *question) choices() int {
	if q.part >= len(q.it.Parts) {
		return 0
	}
	return len(q.it.Parts[q.part].Choices)
}

// wrap wraps plain text to w cells, keeping paragraph breaks: at spaces,
// and inside inline JSON (a call's arguments in a drill's stem) between
// its tokens, as the JSON panes do, never inside a key or a value.
func wrap(text string, w int) []string {
	w = max(w, 1)
	var out []string
	for _, para := range strings.Split(text, "\n") {
		para = strings.TrimRight(para, " ")
		if para == "" {
			out = append(out, "")
			continue
		}
		out = append(out, jsonview.WrapText(para, w)...)
	}
	return out
}

// paragraphs wraps a stem: single line breaks fold, blank lines stay.
func paragraphs(text string, w int) []string {
	text = common.Sanitize(strings.TrimSpace(text))
	var out []string
	for i, para := range strings.Split(text, "\n\n") {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, wrap(strings.Join(strings.Fields(para), " "), w)...)
	}
	return out
}

// hang renders lead (already styled) then text in st, wrapped to w
// cells, continuation rows indented to the lead's width.
func hang(lead, text string, w int, st lipgloss.Style) []string {
	lw := ansi.StringWidth(lead)
	room := max(w-lw, 8)
	var out []string
	for i, l := range wrap(text, room) {
		if i == 0 {
			out = append(out, lead+st.Render(l))
			continue
		}
		out = append(out, strings.Repeat(" ", lw)+st.Render(l))
	}
	if len(out) == 0 {
		out = []string{lead}
	}
	return out
}

// pad pads or cuts a styled line to exactly w cells.
func pad(s string, w int) string {
	lw := ansi.StringWidth(s)
	switch {
	case lw > w:
		return ansi.Truncate(s, w, "")
	case lw < w:
		return s + strings.Repeat(" ", w-lw)
	}
	return s
}

// fit cuts a styled line to at most w cells.
func fit(s string, w int) string {
	if ansi.StringWidth(s) > w {
		return ansi.Truncate(s, max(w, 0), "")
	}
	return s
}
