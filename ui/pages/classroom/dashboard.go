package classroom

import (
	"fmt"
	"net"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/errorlab/errorlab/quiz"
	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/classroom/room"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/components/pane"
	"github.com/errorlab/errorlab/ui/components/topicbars"
)

// DashboardKeyMap is the teacher's keys.
type DashboardKeyMap struct {
	Ask         key.Binding // a question of the bank
	Scenario    key.Binding // a lab scenario
	Walkthrough key.Binding // a walkthrough in class mode
	Step        key.Binding // a step of the walkthrough running
	Next        key.Binding // the next step
	Prev        key.Binding // the previous step
	Reveal      key.Binding
	Export      key.Binding
	Clear       key.Binding // let the students roam
	Focus       key.Binding // the next box to scroll
	Send        key.Binding // in a picker: send the room there
}

// DefaultDashboardKeyMap returns the teacher's letters.
func DefaultDashboardKeyMap() DashboardKeyMap {
	return DashboardKeyMap{
		Ask:         key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "ask a question")),
		Scenario:    key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "send a lab scenario")),
		Walkthrough: key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "teach a walkthrough")),
		Step:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "go to a step")),
		Next:        key.NewBinding(key.WithKeys("right", " ", "n"), key.WithHelp("→/space", "next step")),
		Prev:        key.NewBinding(key.WithKeys("left", "p"), key.WithHelp("←", "previous step")),
		Reveal:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reveal the answer")),
		Export:      key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export the session")),
		Clear:       key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "free the room")),
		Focus:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "box to scroll")),
		Send:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send the room there")),
	}
}

// DashboardOptions configure the teacher's dashboard.
type DashboardOptions struct {
	// Host: the dashboard runs on the server's own terminal (`errorlab
	// classroom --teacher-console`), so quitting it ends the class; q
	// asks first.
	Host bool
	// ExportDir is where e writes the session (class-ID.md and .json).
	ExportDir string
}

// Dashboard is the teacher's screen: who is connected and where each
// student is, the room's item (a question, a scenario, a walkthrough
// step) with the answers as a live tally, and the keys that send the
// room somewhere, reveal the answer and export the session.
type Dashboard struct {
	// KeyMap is the dashboard's keys.
	KeyMap DashboardKeyMap

	c    *common.Common
	hub  *room.Hub
	opts DashboardOptions

	watch <-chan struct{}
	stop  func()
	snap  room.Snapshot
	// snapAt is when snap was taken, by the dashboard's clock: the idle
	// column adds the snapshot's age to the room's idle times.
	snapAt time.Time

	now, people, log *pane.Model
	bars             *topicbars.Model
	focus            int
	picker           *picker
	asking           bool

	w, h    int
	beside  bool
	tickGen int
	clock   func() time.Time
}

// picker is the list the teacher chooses from (a question, a scenario,
// a walkthrough, a step).
type picker struct {
	kind  string // question, scenario, walkthrough, step
	title string
	list  list.Model
}

// pick is one entry of a picker.
type pick struct {
	title, desc, filter string
	send                func() error
}

func (p pick) Title() string       { return p.title }
func (p pick) Description() string { return p.desc }
func (p pick) FilterValue() string { return p.filter }

// NewDashboard returns the teacher's dashboard on hub.
func NewDashboard(c *common.Common, hub *room.Hub, o DashboardOptions) *Dashboard {
	d := &Dashboard{KeyMap: DefaultDashboardKeyMap(), c: c, hub: hub, opts: o,
		now: pane.New(c), people: pane.New(c), log: pane.New(c), bars: topicbars.New(c), clock: time.Now}
	d.bars.MaxBar = 40
	d.now.SetFocused(true)
	d.takeSnapshot()
	d.rebuild()
	return d
}

// takeSnapshot reads the room.
func (d *Dashboard) takeSnapshot() {
	d.snap, d.snapAt = d.hub.Snapshot(), d.clock()
}

// watchRoom: the dashboard waits on the room for changes (false: the
// tests deliver room.ChangedMsg themselves).
var watchRoom = true

// tickEvery is how often the idle times are redrawn (0: never; tests).
var tickEvery = 5 * time.Second

// tickMsg comes back to the dashboard that asked.
type tickMsg struct {
	owner *Dashboard
	gen   int
}

// Init implements tea.Model.
func (d *Dashboard) Init() tea.Cmd { return nil }

// Activate implements common.Activator: the dashboard starts hearing
// the room's changes (once) and its clock ticks for the idle times.
func (d *Dashboard) Activate() tea.Cmd {
	d.takeSnapshot()
	d.rebuild()
	var cmds []tea.Cmd
	if d.watch == nil && watchRoom {
		d.watch, d.stop = d.hub.Watch()
		cmds = append(cmds, room.WaitChange(d.watch))
	}
	d.tickGen++
	return tea.Batch(append(cmds, d.tick())...)
}

func (d *Dashboard) tick() tea.Cmd {
	if tickEvery <= 0 {
		return nil
	}
	owner, gen := d, d.tickGen
	return tea.Tick(tickEvery, func(time.Time) tea.Msg { return tickMsg{owner: owner, gen: gen} })
}

// Close implements common.Closer: the dashboard stops watching.
func (d *Dashboard) Close() {
	if d.stop != nil {
		d.stop()
	}
}

// Crumb implements common.Screen.
func (d *Dashboard) Crumb() string { return "Classroom" }

// Capturing implements common.InputCapturer: while the picker's filter
// is typed, every key goes to it.
// So does every key while it asks whether to end the class.
func (d *Dashboard) Capturing() bool {
	return d.asking || (d.picker != nil && d.picker.list.FilterState() == list.Filtering)
}

// Back implements common.BackHandler: esc closes the picker (or clears
// its filter) before it leaves the dashboard.
func (d *Dashboard) Back() bool {
	if d.asking {
		d.asking = false
		return true
	}
	if d.picker == nil {
		return false
	}
	if d.picker.list.FilterState() != list.Unfiltered {
		d.picker.list.ResetFilter()
		return true
	}
	d.picker = nil
	d.layout()
	return true
}

// GuardQuit implements common.QuitGuard: on the server's own terminal,
// q ends the class for everyone, so it asks first.
func (d *Dashboard) GuardQuit() bool {
	if !d.opts.Host || d.asking {
		return false
	}
	d.asking = true
	return true
}

// ShortHelp implements help.KeyMap.
func (d *Dashboard) ShortHelp() []key.Binding {
	k := d.KeyMap
	if d.picker != nil {
		return []key.Binding{k.Send, d.c.Nav.Up, d.c.Nav.Down, key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter"))}
	}
	out := []key.Binding{k.Ask, k.Scenario, k.Walkthrough}
	if d.walkthrough() != nil {
		out = append(out, k.Next, k.Prev, k.Step)
	}
	return append(out, k.Reveal, k.Export, k.Clear)
}

// FullHelp implements help.KeyMap.
func (d *Dashboard) FullHelp() [][]key.Binding {
	k := d.KeyMap
	return [][]key.Binding{
		{k.Ask, k.Scenario, k.Walkthrough, k.Step, k.Next, k.Prev},
		{k.Reveal, k.Export, k.Clear},
		{k.Focus, d.c.Nav.Up, d.c.Nav.Down, d.c.Nav.PageUp, d.c.Nav.PageDown},
	}
}

// Update implements tea.Model.
func (d *Dashboard) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case room.ChangedMsg:
		d.takeSnapshot()
		d.layout()
		if d.watch == nil {
			return d, nil
		}
		return d, room.WaitChange(d.watch)
	case tickMsg:
		if msg.owner == d && msg.gen == d.tickGen {
			// A key does not wake the dashboard (it would redraw on every
			// student's key): the tick reads the room again, so the idle
			// column shows the students' last keys.
			d.takeSnapshot()
			d.rebuildPeople()
			return d, d.tick()
		}
	case tea.KeyMsg:
		return d, d.key(msg)
	case tea.MouseMsg:
		d.mouse(msg)
	default:
		if d.picker != nil {
			var cmd tea.Cmd
			d.picker.list, cmd = d.picker.list.Update(msg)
			return d, cmd
		}
	}
	return d, nil
}

func (d *Dashboard) key(k tea.KeyMsg) tea.Cmd {
	if d.asking {
		d.asking = false
		if s := k.String(); s == "y" || s == "q" {
			return tea.Quit
		}
		return nil
	}
	if d.picker != nil {
		return d.pickerKey(k)
	}
	km := d.KeyMap
	switch {
	case key.Matches(k, km.Focus):
		d.focus = (d.focus + 1) % 3
		d.applyFocus()
		return nil
	case !key.Matches(k, km.Ask, km.Scenario, km.Walkthrough, km.Step, km.Next, km.Prev, km.Reveal, km.Export, km.Clear):
		d.boxes()[d.focus].Scroll(d.c.Nav, k)
		return nil
	}
	defer d.refresh() // the teacher's own move shows at once
	switch {
	case key.Matches(k, km.Ask):
		d.openQuestions()
	case key.Matches(k, km.Scenario):
		d.openScenarios()
	case key.Matches(k, km.Walkthrough):
		d.openWalkthroughs()
	case key.Matches(k, km.Step):
		d.openSteps()
	case key.Matches(k, km.Next):
		d.stepBy(1)
	case key.Matches(k, km.Prev):
		d.stepBy(-1)
	case key.Matches(k, km.Reveal):
		d.reveal()
	case key.Matches(k, km.Export):
		d.export()
	case key.Matches(k, km.Clear):
		d.hub.Clear()
		d.c.SetStatus(common.StatusOK, "the room is free: every student's screen is let go, they roam the app; a, l or t sends them somewhere again")
	}
	return nil
}

// refresh reads the room again and redraws.
func (d *Dashboard) refresh() {
	d.takeSnapshot()
	d.layout()
}

func (d *Dashboard) boxes() [3]*pane.Model { return [3]*pane.Model{d.now, d.people, d.log} }

func (d *Dashboard) applyFocus() {
	for i, b := range d.boxes() {
		b.SetFocused(i == d.focus)
	}
}

func (d *Dashboard) mouse(e tea.MouseMsg) {
	if d.picker != nil {
		return
	}
	for i, b := range d.boxes() {
		x, y := d.origin(i)
		if e.X >= x && e.Y >= y && b.Contains(e.X-x, e.Y-y) {
			if e.Action == tea.MouseActionPress && e.Button == tea.MouseButtonLeft {
				d.focus = i
				d.applyFocus()
				return
			}
			b.Wheel(e)
			return
		}
	}
}

// walkthrough is the walkthrough the room is on (nil when it is not on
// a step).
func (d *Dashboard) walkthrough() *wt.Walkthrough {
	it := d.snap.Item
	if it == nil || it.Kind != common.RoomStep {
		return nil
	}
	set, err := d.c.WalkthroughSet()
	if err != nil {
		return nil
	}
	w, _ := set.Get(it.Walkthrough)
	return w
}

func (d *Dashboard) bank() *quiz.Bank {
	if d.c.Bank != nil {
		return d.c.Bank
	}
	b, _ := quiz.DefaultBank()
	return b
}

// send moves the room and says so.
func (d *Dashboard) send(a room.Ask) error {
	if err := d.hub.Send(a); err != nil {
		return err
	}
	what := "every screen is there"
	if a.Item.Key != "" {
		what = "the tally fills as they answer; r reveals the answer"
	}
	d.c.SetStatus(common.StatusOK, "sent the room to %s: %s", a.Title, what)
	return nil
}

func (d *Dashboard) sendStep(w *wt.Walkthrough, i int) error {
	a, err := room.AskStep(w, i, d.c.Catalog, d.bank())
	if err != nil {
		return err
	}
	return d.send(a)
}

// stepBy moves the walkthrough running by n steps.
func (d *Dashboard) stepBy(n int) {
	w := d.walkthrough()
	if w == nil {
		d.c.SetStatus(common.StatusInfo, "no walkthrough is running: t teaches one")
		return
	}
	i := d.snap.Item.Step + n
	if i < 0 || i >= len(w.Steps) {
		d.c.SetStatus(common.StatusInfo, "%s has steps 1 to %d: this is step %d", w.Title, len(w.Steps), d.snap.Item.Step+1)
		return
	}
	if err := d.sendStep(w, i); err != nil {
		d.c.SetStatus(common.StatusError, "step %d could not be sent: %v", i+1, err)
	}
}

func (d *Dashboard) reveal() {
	if err := d.hub.Reveal(); err != nil {
		d.c.SetStatus(common.StatusWarn, "%v", err)
		return
	}
	d.c.SetStatus(common.StatusOK, "the answer is on every student's screen; answers are closed")
}

func (d *Dashboard) export() {
	md, js, err := d.hub.Export(d.opts.ExportDir)
	if err != nil {
		d.c.SetStatus(common.StatusError, "the session was not exported: %v", err)
		return
	}
	d.c.SetStatus(common.StatusOK, "wrote %s and %s (errorlab report --class prints it again)", md, filepath.Base(js))
}

// Pickers.

func (d *Dashboard) openPicker(kind, title string, items []pick) {
	li := make([]list.Item, len(items))
	for i, it := range items {
		li[i] = it
	}
	del := list.NewDefaultDelegate()
	del.Styles = itemStyles(d.c)
	l := list.New(li, del, 0, 0)
	l.Title = title
	l.Styles = listStyles(d.c)
	l.SetShowHelp(false)
	l.SetStatusBarItemName("entry", "entries")
	l.DisableQuitKeybindings()
	// A steady cursor: a blinking one redraws the teacher's screen (over
	// SSH too) twice a second for nothing.
	_ = l.FilterInput.Cursor.SetMode(cursor.CursorStatic)
	d.picker = &picker{kind: kind, title: title, list: l}
	d.layout()
}

func (d *Dashboard) pickerKey(k tea.KeyMsg) tea.Cmd {
	p := d.picker
	if p.list.FilterState() != list.Filtering && key.Matches(k, d.KeyMap.Send) {
		it, ok := p.list.SelectedItem().(pick)
		if !ok {
			return nil
		}
		if err := it.send(); err != nil {
			d.c.SetStatus(common.StatusError, "%v", err)
			return nil
		}
		d.picker = nil
		d.layout()
		d.refresh()
		return nil
	}
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(k)
	return cmd
}

func (d *Dashboard) openQuestions() {
	b := d.bank()
	if b == nil || len(b.Questions) == 0 {
		d.c.SetStatus(common.StatusError, "there is no question bank to ask from")
		return
	}
	var items []pick
	for _, q := range b.Questions {
		// No id on the teacher's screen: it can give the answer away on a
		// projector (the filter still finds it).
		items = append(items, pick{
			title:  d.askedBefore(common.QuestionKey(q.ID)) + fmt.Sprintf("%s · %s", quiz.TopicTitle(q.Topic), room.StemStart(q.Stem, 60)),
			desc:   common.OneLineText(q.Stem),
			filter: q.ID + " " + q.Topic + " " + q.Stem,
			send:   func() error { return d.send(room.AskQuestion(q)) },
		})
	}
	d.openPicker("question", "Ask the room a question · enter sends · / filters · esc closes", items)
}

func (d *Dashboard) openScenarios() {
	var items []pick
	for _, sc := range d.c.Catalog.Scenarios {
		items = append(items, pick{
			title:  d.askedBefore(common.ScenarioKey(sc.ID)) + fmt.Sprintf("%s · %s", sc.ID, common.OneLineText(sc.Title)),
			desc:   common.OneLineText(sc.Situation),
			filter: sc.ID + " " + sc.Title + " " + sc.Topic,
			send:   func() error { return d.send(room.AskScenario(sc)) },
		})
	}
	if len(items) == 0 {
		d.c.SetStatus(common.StatusError, "there are no scenarios to send")
		return
	}
	d.openPicker("scenario", "Send the room to a lab scenario (their choice of action is the answer) · enter sends", items)
}

func (d *Dashboard) openWalkthroughs() {
	set, err := d.c.WalkthroughSet()
	if err != nil {
		d.c.SetStatus(common.StatusError, "the walkthroughs did not load: %v", err)
		return
	}
	var items []pick
	for _, w := range set.Walkthroughs {
		items = append(items, pick{
			title:  fmt.Sprintf("%s · %d steps · %d min", common.OneLineText(w.Title), len(w.Steps), w.Minutes),
			desc:   common.OneLineText(w.Summary),
			filter: w.ID + " " + w.Title,
			send:   func() error { return d.sendStep(w, 0) },
		})
	}
	d.openPicker("walkthrough", "Teach a walkthrough in class mode: every screen follows you · enter starts at step 1", items)
}

func (d *Dashboard) openSteps() {
	w := d.walkthrough()
	if w == nil {
		d.c.SetStatus(common.StatusInfo, "no walkthrough is running: t teaches one")
		return
	}
	var items []pick
	for i, st := range w.Steps {
		mark := ""
		if st.Kind == wt.KindQuestion {
			mark = d.askedBefore(common.StepKey(w.ID, i))
		}
		items = append(items, pick{
			title:  mark + fmt.Sprintf("%d. %s", i+1, common.OneLineText(st.Heading(d.c.Catalog))),
			desc:   string(st.Kind) + " · " + d.stepText(st),
			filter: fmt.Sprint(i+1) + " " + st.Heading(d.c.Catalog),
			send:   func() error { return d.sendStep(w, i) },
		})
	}
	d.openPicker("step", "Send the room to a step of "+common.OneLineText(w.Title)+" · enter sends", items)
	d.picker.list.Select(d.snap.Item.Step)
}

// askedBefore marks a picker's entry the room was asked before: each
// send is a new poll, with its own tally.
func (d *Dashboard) askedBefore(key string) string {
	switch n := d.hub.Asked(key); n {
	case 0:
		return ""
	case 1:
		return "↻ asked before · "
	default:
		return fmt.Sprintf("↻ asked %d× · ", n)
	}
}

// stepText is a step's words for the step picker: its text, or for a
// question the question's stem.
func (d *Dashboard) stepText(st *wt.Step) string {
	if st.Kind == wt.KindQuestion {
		if st.Inline != nil {
			return common.OneLineText(st.Inline.Stem)
		}
		if b := d.bank(); b != nil {
			if q, ok := b.Get(st.Question); ok {
				return common.OneLineText(q.Stem)
			}
		}
		return st.Question
	}
	return common.OneLineText(st.Text)
}

// Layout and drawing.

// SetSize implements common.Screen.
func (d *Dashboard) SetSize(w, h int) {
	d.w, d.h = max(w, 0), max(h, 0)
	d.layout()
}

// logHeight is the log box's height.
func (d *Dashboard) logHeight() int { return min(max(d.h/5, 4), 8) }

func (d *Dashboard) layout() {
	w, h := d.w, max(d.h-1, 0)
	d.beside = w >= 100
	lh := d.logHeight()
	top := max(h-lh, 0)
	if d.beside {
		lw := w * 3 / 5
		d.now.SetSize(lw, top)
		d.people.SetSize(w-lw, top)
	} else {
		// Stacked: the students' box takes the rows its list needs, up
		// to two fifths; the room's item (the tally) the rest.
		ph := max(min(len(d.snap.Members)+4, top*2/5), min(4, top))
		d.now.SetSize(w, top-ph)
		d.people.SetSize(w, ph)
	}
	d.log.SetSize(w, lh)
	if d.picker != nil {
		d.picker.list.SetSize(w, h)
	}
	d.rebuild()
}

// origin is where box i's top left corner is in the dashboard.
func (d *Dashboard) origin(i int) (int, int) {
	switch i {
	case 1:
		if d.beside {
			return d.now.Width(), 1
		}
		return 0, 1 + d.now.Height()
	case 2:
		return 0, 1 + d.h - 1 - d.log.Height()
	}
	return 0, 1
}

func (d *Dashboard) rebuild() {
	d.rebuildNow()
	d.rebuildPeople()
	d.rebuildLog()
}

// tallyRows are the current question's bars: one per option, with its
// count, the answer marked once revealed.
func (d *Dashboard) tallyRows(a *room.AskView) []topicbars.Row {
	var rows []topicbars.Row
	for i, o := range a.Options {
		r := topicbars.Row{Title: a.Labels[i] + " " + o, Numbers: fmt.Sprintf("%3d", a.Counts[i])}
		if a.Answered > 0 {
			r.Fraction = float64(a.Counts[i]) / float64(a.Answered)
		}
		if a.Revealed {
			switch a.Grade([]int{i}) {
			case rules.GradeBest:
				r.Mark = topicbars.Pass
			case rules.GradeAcceptable:
				r.Mark = topicbars.Partial
			}
			if a.Multi && slices.Contains(a.Correct, i) {
				r.Mark = topicbars.Pass // one of the options of the answer
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func (d *Dashboard) rebuildNow() {
	st := d.c.Styles
	s := d.snap
	if s.Item == nil {
		d.now.SetBuild("Now · the room is free", "", func(w int) string {
			out := common.WrapLines(st.Plain, "Students roam the app on their own. Send the whole room somewhere:", w)
			for _, k := range [][2]string{
				{" a ", "ask a question of the bank"},
				{" l ", "open a lab scenario on every screen: the action each student chooses is their answer"},
				{" t ", "teach a walkthrough in class mode: every screen follows your steps"},
			} {
				out = append(out, "")
				out = append(out, common.HangLead(st.ChipKey, k[0], " "+k[1], w, st.Plain, 4)...)
			}
			return strings.Join(out, "\n")
		})
		return
	}
	it := *s.Item
	a := s.Ask
	title := "Now"
	switch it.Kind {
	case common.RoomQuestion:
		title = "Now · a question to the room"
	case common.RoomScenario:
		title = "Now · a lab scenario"
	case common.RoomStep:
		title = fmt.Sprintf("Now · class mode · step %d", it.Step+1)
	}
	var head room.Ask
	if a != nil {
		head = a.Ask
	} else if it.Kind == common.RoomStep {
		if w := d.walkthrough(); w != nil {
			head, _ = room.AskStep(w, it.Step, d.c.Catalog, nil)
		}
	}
	if a != nil {
		d.bars.SetRows(d.tallyRows(a))
		d.bars.SetHeading("", "count")
	}
	connected := s.Students
	d.now.SetBuild(title, "", func(w int) string {
		out := common.WrapLines(st.Title, common.Sanitize(head.Title), w)
		stem := func() {
			if head.Stem != "" {
				out = append(out, "")
				out = append(out, common.WrapLines(st.Plain, common.Sanitize(head.Stem), w)...)
			}
		}
		if a == nil {
			stem()
			out = append(out, "", st.Muted.Render("This step asks nothing: every screen shows it whole."))
			if it.Kind == common.RoomStep {
				out = append(out, st.Muted.Render("→ next step · ← previous · s picks a step"))
			}
			return strings.Join(out, "\n")
		}
		// The tally first, so it shows on a small screen; the question
		// after it.
		state := st.Accent.Render("? answers open · r reveals the answer on every screen")
		if a.Revealed {
			state = st.OK.Render("✓ revealed: the answer is on every screen · " + strings.Join(labelsOf(a.Labels, a.Correct), ", "))
		}
		head := fmt.Sprintf("%d of %d answered", a.Answered, a.Eligible)
		if a.Time > 1 {
			head += fmt.Sprintf(" · asked again (%s time): a new poll", ordinal(a.Time))
		}
		out = append(out, common.WrapLines(st.Bold, head, w)...)
		out = append(out, state)
		d.bars.SetSize(w, 0)
		out = append(out, d.bars.Lines()...)
		how := "Each student counts once: a changed answer replaces their earlier one."
		if a.FirstCounts {
			how = "Each student counts once, with their first choice; their screen keeps the verdict until you reveal."
		}
		out = append(out, common.WrapLines(st.Muted, how+" Counted against the "+common.Plural(a.Eligible, "student")+" connected while it was open ("+fmt.Sprint(connected)+" now).", w)...)
		stem()
		return strings.Join(out, "\n")
	})
}

// ordinal is "2nd", "3rd", "11th".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

func labelsOf(labels []string, idx []int) []string {
	var out []string
	for _, i := range idx {
		if i >= 0 && i < len(labels) {
			out = append(out, labels[i])
		}
	}
	return out
}

func (d *Dashboard) rebuildPeople() {
	st := d.c.Styles
	s := d.snap
	age := max(d.clock().Sub(d.snapAt), 0) // since the snapshot, whose idle times are the room's
	a := s.Ask
	title := fmt.Sprintf("Students · %d connected", s.Students)
	d.people.SetBuild(title, "", func(w int) string {
		if len(s.Members) == 0 {
			text := "No one is connected yet. Students join with " + connectHint(s.Listen) + "."
			if s.HostKey != "" {
				text += " The first time, ssh shows the server's key: it should be " + s.HostKey + "."
			}
			return strings.Join(common.WrapLines(st.Muted, text, w), "\n")
		}
		ansW := 0
		if a != nil {
			ansW = 7
		}
		idleW := 6
		// A long name is cut (…) before it squeezes the other columns:
		// the name takes at most maxNameCells, and leaves "where" at
		// least minWhereCells.
		nameW := 4
		for _, m := range s.Members {
			nameW = max(nameW, min(ansi.StringWidth(m.Name), maxNameCells))
		}
		nameW = max(min(nameW, (w-ansW-idleW-3)*2/5), 4)
		whereW := max(w-nameW-ansW-idleW-3, 1)
		var out []string
		head := common.PadRight("name", nameW) + " " + common.PadRight("where", whereW)
		if ansW > 0 {
			head += " " + common.PadRight("answer", ansW)
		}
		head += " " + common.PadLeft("idle", idleW)
		changed := false
		out = append(out, st.Muted.Render(ansi.Truncate(head, w, "")))
		for _, m := range s.Members {
			name := ansi.Truncate(m.Name, nameW, "…")
			where := m.Where
			if m.Role == room.Teacher {
				where = "the dashboard (teacher)"
			} else if where == "" {
				where = "starting…"
			}
			line := st.Bold.Render(common.PadRight(name, nameW)) + " " + common.PadRight(ansi.Truncate(where, whereW, "…"), whereW)
			if ansW > 0 {
				cell := "—"
				if m.Role == room.Teacher {
					cell = ""
				} else if len(m.Answer) > 0 {
					cell = strings.Join(labelsOf(a.Labels, m.Answer), ",")
					if m.Changes > 0 {
						cell += "*"
						changed = true
					}
				}
				cs := st.Muted
				if cell != "—" && cell != "" {
					cs = st.Accent
					if a.Revealed {
						// The room's verdict (Ask.Grade, as the record has
						// it); the mark reads without colour.
						cell += " " + room.GradeMark(m.Grade)
						switch m.Grade {
						case rules.GradeBest:
							cs = st.OK
						case rules.GradeAcceptable:
							cs = st.Warn
						default:
							cs = st.Bad
						}
					}
				}
				line += " " + cs.Render(common.PadRight(ansi.Truncate(cell, ansW, ""), ansW))
			}
			line += " " + st.Muted.Render(common.PadLeft(idle(m.Idle+age), idleW))
			out = append(out, line)
		}
		if changed {
			out = append(out, "", st.Muted.Render("* changed their answer (the last one counts)"))
		}
		return strings.Join(out, "\n")
	})
}

// maxNameCells is the widest the students' box's name column gets; it
// also takes at most two fifths of what the answer and idle columns
// leave, so "where" keeps the rest.
const maxNameCells = 16

// idle is "12s", "4m", "1h".
func idle(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(int(d.Seconds()), 0))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}

func (d *Dashboard) rebuildLog() {
	st := d.c.Styles
	evs := d.snap.Events
	title := fmt.Sprintf("Log · %d", len(evs))
	if d.snap.HostKey != "" {
		// Students check it against what ssh shows them the first time.
		title += " · host key " + d.snap.HostKey
	}
	d.log.SetBuild(title, "", func(w int) string {
		out := make([]string, 0, len(evs))
		for _, e := range evs {
			sym, s := "•", st.Muted
			switch e.Kind {
			case "joined":
				sym, s = "+", st.Plain
			case "crashed":
				sym, s = "⚠", st.Warn
			case "idle":
				sym, s = "⏱", st.Muted
			case "refused":
				sym, s = "✗", st.Warn
			}
			out = append(out, ansi.Truncate(st.Muted.Render(e.At.Format("15:04:05"))+" "+s.Render(sym+" "+common.Sanitize(e.Text)), w, "…"))
		}
		if len(out) == 0 {
			out = append(out, st.Muted.Render("Nothing yet: joins, departures and crashes show here."))
		}
		return strings.Join(out, "\n")
	})
	d.log.Viewport().GotoBottom()
}

// connectHint is how a student joins: `ssh -p PORT NAME@HOST`.
func connectHint(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "ssh"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "THIS-HOST"
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return fmt.Sprintf("`ssh -p %s NAME@%s`", port, host)
}

// View implements tea.Model.
func (d *Dashboard) View() string {
	if d.w <= 0 || d.h <= 0 {
		return ""
	}
	st := d.c.Styles
	s := d.snap
	top := st.Bold.Render(fmt.Sprintf("● %s connected", common.Plural(s.Students, "student"))) +
		st.Muted.Render(fmt.Sprintf(" · join with %s · session %s", connectHint(s.Listen), s.Session))
	if d.asking {
		top = st.Warn.Render("⚠ end the class? every student's session closes · q again (or y) ends it · any other key stays")
	}
	lines := []string{ansi.Truncate(top, d.w, "…")}
	if d.picker != nil {
		lines = append(lines, strings.Split(d.picker.list.View(), "\n")...)
		return strings.Join(common.FitLines(lines, d.w, d.h), "\n")
	}
	if d.beside {
		lines = append(lines, strings.Split(common.JoinColumns(d.now.View(), d.people.View()), "\n")...)
	} else {
		lines = append(lines, strings.Split(d.now.View(), "\n")...)
		lines = append(lines, strings.Split(d.people.View(), "\n")...)
	}
	lines = append(lines, strings.Split(d.log.View(), "\n")...)
	return strings.Join(common.FitLines(lines, d.w, d.h), "\n")
}

// Snapshot is the room as the dashboard last drew it.
func (d *Dashboard) Snapshot() room.Snapshot { return d.snap }

// listStyles and itemStyles are bubbles list's styles drawn with the
// session's renderer (its colour profile and background, NO_COLOR), the
// title in the session's heading style.
func listStyles(c *common.Common) list.Styles {
	s := list.DefaultStyles()
	rebind(&s, c.R)
	s.Title = c.Styles.Heading
	return s
}

func itemStyles(c *common.Common) list.DefaultItemStyles {
	s := list.NewDefaultItemStyles()
	rebind(&s, c.R)
	return s
}

// rebind points every lipgloss.Style field of the struct *p at r.
func rebind(p any, r *lipgloss.Renderer) {
	if r == nil {
		return
	}
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.CanSet() {
			if s, ok := f.Interface().(lipgloss.Style); ok {
				f.Set(reflect.ValueOf(s.Renderer(r)))
			}
		}
	}
}
