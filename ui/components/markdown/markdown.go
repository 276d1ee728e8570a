// Package markdown renders Markdown for a terminal at a given width: the
// prose with charmbracelet/glamour, the tables with lipgloss/table, both in
// the session's colour profile. A Renderer holds a document made of
// sections (the Reference's §1–§9), renders it once per width and caches
// the result, so a screen's View only slices lines.
//
// Nothing here reads package-level lipgloss or termenv state: the colour
// profile and background come from the *lipgloss.Renderer handed in, so
// two SSH sessions get their own colours. Under the Ascii profile (NO_COLOR,
// a dumb terminal, the tests) the prose uses glamour's ascii style.
package markdown

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/charmbracelet/glamour"
	gansi "github.com/charmbracelet/glamour/ansi"
	gstyles "github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/errorlab/errorlab/ui/styles"
	"github.com/muesli/termenv"
)

// MinWidth is the narrowest width rendered; a smaller one renders at it.
const MinWidth = 20

// Styles draw the tables; the prose takes glamour's style for the profile.
type Styles struct {
	// TableHeader draws the first row of a table, TableCell the others;
	// TableBorder the lines between cells.
	TableHeader, TableCell, TableBorder lipgloss.Style
	// Theme picks glamour's style for the prose: dark or light as the
	// theme says, mono without colour, high-contrast with the body in the
	// terminal's brightest (or darkest) colour; auto ("") follows the
	// background. The Ascii profile (NO_COLOR) is colourless whatever the
	// theme.
	Theme styles.Theme
}

// DefaultStyles builds the table styles from r: a bold header and faint
// borders, plain text under the Ascii profile.
func DefaultStyles(r *lipgloss.Renderer) Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	return Styles{
		TableHeader: r.NewStyle().Bold(true),
		TableCell:   r.NewStyle(),
		TableBorder: r.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#B0B0B0", Dark: "#4A4A4A"}),
	}
}

// Section is one part of a document: its name (what a footer shows, e.g.
// "§1 Two layers of failure") and its Markdown.
type Section struct {
	Name     string
	Markdown string
}

// Document is a document rendered at one width.
type Document struct {
	// Text is the rendered document, lines joined with "\n"; no line is
	// wider than Width cells.
	Text  string
	Width int
	// Starts holds the line (0-based) where each section starts, in
	// section order; Names the sections' names.
	Starts []int
	Names  []string
}

// Lines is the number of lines in the document.
func (d Document) Lines() int {
	if d.Text == "" {
		return 0
	}
	return strings.Count(d.Text, "\n") + 1
}

// Renderer renders a document of sections at any width, caching each
// width it has rendered. It is safe for concurrent use.
type Renderer struct {
	r        *lipgloss.Renderer
	st       Styles
	sections []Section

	mu      sync.Mutex
	cache   map[int]Document
	renders int // how many times the document was rendered, for tests
}

// cacheWidths bounds the cache: a resized terminal asks for a few widths.
const cacheWidths = 8

// New returns a Renderer for the sections, drawing with r (nil: lipgloss's
// default renderer) and st.
func New(r *lipgloss.Renderer, st Styles, sections ...Section) *Renderer {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	return &Renderer{r: r, st: st, sections: sections, cache: map[int]Document{}}
}

// Render returns the document at width w (at least MinWidth), from the
// cache when it has been rendered at w before.
func (m *Renderer) Render(w int) (Document, error) {
	w = max(w, MinWidth)
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, ok := m.cache[w]; ok {
		return d, nil
	}
	d, err := renderSections(m.r, m.st, m.sections, w)
	if err != nil {
		return Document{}, err
	}
	m.renders++
	if len(m.cache) >= cacheWidths {
		clear(m.cache)
	}
	m.cache[w] = d
	return d, nil
}

// renderSections renders the sections side by side (a worker per CPU,
// each with its own glamour: a glamour renderer is not safe to share) and
// joins them with a blank line.
func renderSections(r *lipgloss.Renderer, st Styles, sections []Section, w int) (Document, error) {
	outs := make([][]string, len(sections))
	errs := make([]error, len(sections))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(sections)) {
		wg.Go(func() {
			gl := newGlamour(r, st.Theme)
			for i := range next {
				outs[i], errs[i] = render(gl, r, st, sections[i].Markdown, w)
			}
		})
	}
	for i := range sections {
		next <- i
	}
	close(next)
	wg.Wait()

	d := Document{Width: w}
	var lines []string
	for i, s := range sections {
		if errs[i] != nil {
			return Document{}, fmt.Errorf("%s: %w", s.Name, errs[i])
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		d.Starts = append(d.Starts, len(lines))
		d.Names = append(d.Names, s.Name)
		lines = append(lines, outs[i]...)
	}
	d.Text = strings.Join(lines, "\n")
	return d, nil
}

// Render renders one piece of Markdown at width w (at least MinWidth).
func Render(r *lipgloss.Renderer, st Styles, md string, w int) (string, error) {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	w = max(w, MinWidth)
	lines, err := render(newGlamour(r, st.Theme), r, st, md, w)
	return strings.Join(lines, "\n"), err
}

// glamourAt makes glamour renderers for r's profile and background, one
// per wrap width, with no document margin: the screen decides margins.
type glamourAt func(wrap int) (*glamour.TermRenderer, error)

func newGlamour(r *lipgloss.Renderer, theme styles.Theme) glamourAt {
	profile := r.ColorProfile()
	dark := r.HasDarkBackground()
	switch theme {
	case styles.ThemeDark:
		dark = true
	case styles.ThemeLight:
		dark = false
	}
	var cfg gansi.StyleConfig
	switch {
	case profile == termenv.Ascii || theme == styles.ThemeMono:
		cfg = gstyles.ASCIIStyleConfig
	case dark:
		cfg = gstyles.DarkStyleConfig
	default:
		cfg = gstyles.LightStyleConfig
	}
	if theme == styles.ThemeHighContrast && profile != termenv.Ascii {
		body := "16"
		if dark {
			body = "231"
		}
		cfg.Document.Color = &body
	}
	zero := uint(0)
	cfg.Document.Margin = &zero
	made := map[int]*glamour.TermRenderer{}
	return func(wrap int) (*glamour.TermRenderer, error) {
		if tr, ok := made[wrap]; ok {
			return tr, nil
		}
		tr, err := glamour.NewTermRenderer(
			glamour.WithStyles(cfg),
			glamour.WithColorProfile(profile),
			glamour.WithWordWrap(wrap),
		)
		made[wrap] = tr
		return tr, err
	}
}

// render turns md into lines at most w wide: the tables are taken out and
// drawn with lipgloss/table, glamour renders the rest, and each table goes
// back where it stood. Blank lines at either end are dropped.
//
// glamour wraps a tight list with x/ansi's Wordwrap, which lets a line
// ending in punctuation (",", ".", "...") run a cell or more past the
// width; when that happens the prose is wrapped again that much narrower,
// and a line still too wide (a word longer than the width) is cut.
func render(gl glamourAt, r *lipgloss.Renderer, st Styles, md string, w int) ([]string, error) {
	src, tables := extractTables(keepWords(joinItemLines(md)))
	var prose []string
	for wrap, try := w, 0; ; try++ {
		tr, err := gl(wrap)
		if err != nil {
			return nil, err
		}
		out, err := tr.Render(src)
		if err != nil {
			return nil, err
		}
		prose = strings.Split(out, "\n")
		widest := 0
		for _, l := range prose {
			widest = max(widest, ansi.StringWidth(l))
		}
		if widest <= w || try == 3 || wrap <= MinWidth {
			break
		}
		wrap = max(wrap-(widest-w), MinWidth)
	}
	var lines []string
	for _, l := range prose {
		plain := strings.TrimSpace(ansi.Strip(l))
		switch i, ok := tableAt(plain, len(tables)); {
		case ok:
			lines = append(lines, strings.Split(drawTable(r, st, tables[i], w), "\n")...)
		case plain == "":
			lines = append(lines, "")
		case ansi.StringWidth(l) > w:
			lines = append(lines, strings.Split(ansi.Hardwrap(l, w, true), "\n")...)
		default:
			lines = append(lines, trimPadding(l))
		}
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines, nil
}

// trimPadding drops the spaces glamour pads a line with to the full width
// (each one wrapped in its own colour sequence when in colour).
func trimPadding(l string) string {
	plain := ansi.Strip(l)
	pad := len(plain) - len(strings.TrimRight(plain, " "))
	if pad == 0 {
		return l
	}
	l = ansi.Truncate(l, ansi.StringWidth(plain)-pad, "")
	if strings.Contains(l, "\x1b[") {
		l += "\x1b[0m"
	}
	return l
}
