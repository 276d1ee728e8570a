package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/errorlab/errorlab/ui/common"
)

// maxExportSuffix bounds the search for a free file name.
const maxExportSuffix = 999

// createFresh creates dir/name, or dir/name-2.json, -3, ... if it exists,
// never replacing a file, and returns the open file and its path.
func createFresh(dir, name string) (*os.File, string, error) {
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	for n := 1; n <= maxExportSuffix; n++ {
		candidate := name
		if n > 1 {
			candidate = fmt.Sprintf("%s-%d%s", base, n, ext)
		}
		path, err := filepath.Abs(filepath.Join(dir, candidate))
		if err != nil {
			return nil, "", err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			return f, path, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, "", err
		}
	}
	return nil, "", fmt.Errorf("%s and %d numbered copies already exist in %s", name, maxExportSuffix-1, dir)
}

type exportDoneMsg struct {
	path string
	err  error
	side common.SideNote // which of two sides was written, when it is not plain
	// class: written in a class over SSH, into the student's folder on
	// the class's server, which the student cannot open themselves.
	class bool
}

func (m exportDoneMsg) status() common.Status {
	if m.err != nil {
		return common.Status{Kind: common.StatusError, Text: "could not write the exchange: " + m.err.Error()}
	}
	if m.class {
		return common.Status{Kind: common.StatusOK, Text: "saved in your folder on the class's server (ask the teacher for it; y copies it to your own clipboard): " + filepath.Base(m.path)}
	}
	if m.side.What != "" {
		return common.Status{Kind: common.StatusOK, Text: fmt.Sprintf("wrote the %s to %s (%s)", m.side.What, m.path, m.side.Note)}
	}
	return common.Status{Kind: common.StatusOK, Text: "wrote " + m.path}
}

// writeExport classifies and writes rec as indented JSON to dir/name in a
// command, off the UI loop.
func writeExport(dir, name string, rec common.ExportRecord, side common.SideNote) tea.Cmd {
	return func() tea.Msg {
		if dir == "" {
			dir = "."
		}
		b, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return exportDoneMsg{err: err}
		}
		f, path, err := createFresh(dir, name)
		if err != nil {
			return exportDoneMsg{err: err}
		}
		_, err = f.Write(append(b, '\n'))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(path) // a half-written file would mislead
			return exportDoneMsg{err: fmt.Errorf("writing %s: %w", path, err)}
		}
		return exportDoneMsg{path: path, side: side}
	}
}

func (a *App) write() tea.Cmd {
	es, ok := a.top().(common.ExportSource)
	if !ok {
		a.c.SetStatus(common.StatusWarn, "nothing to write here: open a scenario and make the call first")
		return nil
	}
	rec, name, ok, reason := es.ExportRecord()
	if !ok {
		a.c.SetStatus(common.StatusWarn, "%s", reason)
		return nil
	}
	if err := a.c.Allowed(common.WriteFile); err != nil {
		a.c.SetStatus(common.StatusWarn, "%v", err)
		return nil
	}
	cmd := writeExport(a.c.ExportDir, name, rec, common.SideOf(a.top()))
	if a.c.Confined() {
		// A class: the file stays in the student's own folder on the
		// class's server; say so, and how to get the exchange at home.
		inner := cmd
		cmd = func() tea.Msg {
			msg := inner().(exportDoneMsg)
			msg.class = true
			return msg
		}
	}
	return common.Safe("writing the exchange", cmd)
}

type clipDoneMsg struct {
	label string
	n     int
	err   error
	note  string // how the side copied sits among two, when it is not plain
}

func (m clipDoneMsg) status() common.Status {
	if m.err != nil {
		return common.Status{Kind: common.StatusError, Text: "could not copy: " + m.err.Error()}
	}
	if m.note != "" {
		return common.Status{Kind: common.StatusOK, Text: fmt.Sprintf("copied the %s (%s) · %d bytes via OSC 52", m.label, m.note, m.n)}
	}
	return common.Status{Kind: common.StatusOK, Text: fmt.Sprintf("copied the %s (%d bytes) to the clipboard with OSC 52", m.label, m.n)}
}

// errWriter remembers the first write error, which termenv's Copy drops.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

// copyOSC52 writes text as an OSC 52 clipboard sequence to w (os.Stdout
// when nil), in a command. termenv wraps it for screen/tmux when TERM
// says so.
func copyOSC52(w io.Writer, text, label, note string) tea.Cmd {
	return func() tea.Msg {
		if w == nil {
			w = os.Stdout
		}
		ew := &errWriter{w: w}
		termenv.NewOutput(ew, termenv.WithProfile(termenv.Ascii)).Copy(text)
		return clipDoneMsg{label: label, n: len(text), err: ew.err, note: note}
	}
}

func (a *App) copy() tea.Cmd {
	cs, ok := a.top().(common.ClipSource)
	if !ok {
		a.c.SetStatus(common.StatusWarn, "nothing to copy here: open a scenario and make the call first")
		return nil
	}
	text, label, ok, reason := cs.ClipText()
	if !ok {
		a.c.SetStatus(common.StatusWarn, "%s", reason)
		return nil
	}
	if strings.TrimSpace(text) == "" {
		a.c.SetStatus(common.StatusWarn, "the %s is empty", label)
		return nil
	}
	return common.Safe("copying", copyOSC52(a.c.Clipboard, text, label, common.SideOf(a.top()).Note))
}
