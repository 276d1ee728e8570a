package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

// The start-up benchmarks run the real binary, built once into a
// temporary directory, the way a person or a script starts it:
//
//	go test -run '^$' -bench Startup .
//
// list-vs-version reports the wall time of `errorlab scenarios list --json`
// against `errorlab --version` as a ratio (target: at most 2), the two run
// alternately so a busy machine slows both alike. first-frame-120x40 starts
// the TUI in a 120x40 pseudo-terminal and reports the milliseconds from
// the program's start to the home screen's first frame (target: 60 ms).

// baselineArgs is the command the list is measured against.
var baselineArgs = []string{"--version"}

func BenchmarkStartup(b *testing.B) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go command to build errorlab with:", err)
	}
	bin := filepath.Join(b.TempDir(), "errorlab")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	state := b.TempDir()
	list := []string{"scenarios", "list", "--json"}

	b.Run("version", func(b *testing.B) {
		for b.Loop() {
			runBinary(b, bin, state, baselineArgs...)
		}
	})
	b.Run("scenarios-list-json", func(b *testing.B) {
		for b.Loop() {
			runBinary(b, bin, state, list...)
		}
	})
	b.Run("list-vs-version", func(b *testing.B) {
		var base, listed []time.Duration
		for b.Loop() {
			base = append(base, runBinary(b, bin, state, baselineArgs...))
			listed = append(listed, runBinary(b, bin, state, list...))
		}
		bm, lm := median(base), median(listed)
		b.ReportMetric(0, "ns/op")
		b.ReportMetric(ms(bm), "version-ms")
		b.ReportMetric(ms(lm), "list-ms")
		b.ReportMetric(float64(lm)/float64(bm), "ratio")
	})
	b.Run("first-frame-120x40", func(b *testing.B) {
		if p, t, err := pty.Open(); err != nil {
			b.Skip("cannot open a pseudo-terminal:", err)
		} else {
			_ = t.Close()
			_ = p.Close()
		}
		var frames []time.Duration
		for b.Loop() {
			frames = append(frames, firstFrame(b, bin, state))
		}
		b.ReportMetric(0, "ns/op")
		b.ReportMetric(ms(median(frames)), "ms-to-first-frame")
	})
}

// runBinary runs errorlab with args, its output thrown away, and returns
// the wall time from start to exit. It fails unless errorlab exits 0.
func runBinary(b *testing.B, bin, state string, args ...string) time.Duration {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		b.Fatalf("errorlab %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return d
}

// Terminal queries a real terminal answers: the background colour (OSC
// 11, which lipgloss asks for adaptive colours) and the cursor position
// (which termenv asks right after it, to learn whether OSC 11 is known).
var answers = []struct{ query, reply string }{
	{"\x1b]11;?", "\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\"},
	{"\x1b[6n", "\x1b[1;1R"},
}

// firstFrame starts the TUI in a 120x40 pseudo-terminal, plays the
// terminal's part, and returns the time from the program's start until
// the home screen is on it. It then presses q and waits for the exit.
func firstFrame(b *testing.B, bin, state string) time.Duration {
	b.Helper()
	cmd := exec.Command(bin, "--state-dir", state)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+state)
	start := time.Now()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		b.Skip("cannot start errorlab in a pseudo-terminal:", err)
	}
	defer tty.Close()

	var (
		mu     sync.Mutex
		screen bytes.Buffer
	)
	shown := make(chan time.Duration, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		answered := make([]int, len(answers))
		buf := make([]byte, 32<<10)
		seen := false
		for {
			n, err := tty.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			raw := screen.Bytes()
			for i, a := range answers {
				for c := bytes.Count(raw, []byte(a.query)); answered[i] < c; answered[i]++ {
					_, _ = tty.WriteString(a.reply)
				}
			}
			if !seen && homeShown(ansi.Strip(string(raw))) {
				seen = true
				shown <- time.Since(start)
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	var d time.Duration
	select {
	case d = <-shown:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		mu.Lock()
		defer mu.Unlock()
		b.Fatalf("no home screen after 10 s; the terminal shows:\n%s", ansi.Strip(screen.String()))
	}
	if _, err := tty.WriteString("q"); err != nil {
		b.Fatalf("pressing q: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			b.Fatalf("errorlab exited %d after q", ee.ExitCode())
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		b.Fatal("errorlab did not quit on q within 10 s")
	}
	_ = tty.Close()
	<-done
	return d
}

// homeShown reports whether the text on the terminal holds the whole home
// screen: the header, the menu's first and last entries and the key help
// at the foot.
func homeShown(text string) bool {
	for _, s := range []string{"errorlab", "Lab", "Practice & exam", "Serve", "q quit"} {
		if !strings.Contains(text, s) {
			return false
		}
	}
	return true
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
