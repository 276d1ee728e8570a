package classroom_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"github.com/errorlab/errorlab/ui/pages/walkthrough/link"
)

const down = "\x1b[B"

// A session of the class runs on the server as the user who started it:
// it must start no process, open no port, connect to no address the
// student types and write nowhere but the student's own folder. Every
// path that would is closed, and says so on the student's screen.
func TestClassSessionsTouchNothingOnTheHost(t *testing.T) {
	f := start(t, nil)

	// Home → Check a server: not opened; typing a command and enter
	// runs nothing.
	ana := f.connect(t, "ana", anyone())
	ana.must(home)
	ana.must("not available in a class")
	mark := ana.size()
	ana.press(strings.Repeat(down, 5) + "\r")
	must(t, ana.waitFor("Not available in a class: run errorlab check", mark, 10*time.Second))
	if strings.Contains(ana.text(), "Give the command that starts") {
		t.Fatal("a student's Home opened Check a server")
	}

	// Home → Serve: no port opened.
	mark = ana.size()
	ana.press(down + "\r")
	must(t, ana.waitFor("Not available in a class: run errorlab serve", mark, 10*time.Second))
	if strings.Contains(ana.text(), "serving on") || strings.Contains(ana.text(), "127.0.0.1:8765") {
		t.Fatal("a student's Serve started a server")
	}
}

// The room's projector runs `errorlab walkthrough NAME` on the server's
// machine as the same user: a student's presenter view must not link to
// it (l), nor drive or blank it.
func TestStudentCannotLinkToTheRoomsWalkthrough(t *testing.T) {
	rt := t.TempDir()
	must(t, os.Chmod(rt, 0o700))
	t.Setenv("XDG_RUNTIME_DIR", rt)
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	f := start(t, nil)
	opts, _ := content()
	var rooms []*link.Link
	for _, w := range opts.Walkthroughs.Walkthroughs {
		l, err := link.Host(link.SocketPath(w.ID), link.State{Walkthrough: w.ID, Content: w.Digest()})
		must(t, err)
		t.Cleanup(func() { _ = l.Close() })
		rooms = append(rooms, l)
	}
	ana := f.connect(t, "ana", anyone())
	ana.must(home)
	ana.press(strings.Repeat(down, 4) + "\r")
	ana.must("enter present")
	ana.press("p")
	ana.must("Next · 2/")
	ana.must("Not available in a class: this view links to no other")
	ana.press("l")
	ana.press("b")
	ana.press(" ")
	time.Sleep(500 * time.Millisecond)
	for _, l := range rooms {
		if n := l.Peers(); n != 0 {
			t.Fatalf("a student's presenter view linked to the room's %s", l.Current().Walkthrough)
		}
		if s := l.Current(); s.Blank != "" || s.Step != 0 || s.Part != 0 {
			t.Fatalf("a student moved the room's walkthrough: %+v", s)
		}
	}
	if strings.Contains(ana.text(), "linked to the audience") {
		t.Fatal("the student's screen says it linked")
	}
}

// w writes the exchange into the student's own folder on the server,
// and says so; nothing lands in the server's working directory.
func TestStudentWritesOnlyIntoTheirFolder(t *testing.T) {
	f := start(t, nil)
	wd, err := os.Getwd()
	must(t, err)
	before, _ := filepath.Glob(filepath.Join(wd, "*.json"))
	ana := f.connect(t, "ana", anyone())
	ana.must(home)
	ana.press("\r")
	ana.must("errorlab › Lab")
	ana.must("enter open")
	ana.press("\r")
	ana.must("errorlab › Lab › ")
	mark := ana.size()
	ana.press("\r")
	must(t, ana.waitFor("attempt 1", mark, 10*time.Second))
	mark = ana.size()
	ana.press("w")
	must(t, ana.waitFor("in your folder on the class's server", mark, 10*time.Second))
	files, _ := filepath.Glob(filepath.Join(f.dir, "students", "ana", "*.json"))
	var written []string
	for _, p := range files {
		if filepath.Base(p) != "progress.json" {
			written = append(written, p)
		}
	}
	if len(written) != 1 {
		t.Fatalf("the student's folder holds %v, want the one exchange written", files)
	}
	after, _ := filepath.Glob(filepath.Join(wd, "*.json"))
	if len(after) != len(before) {
		t.Fatalf("w wrote into the server's working directory: %v", after)
	}
}
