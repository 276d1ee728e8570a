package classroom

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// A session's terminal. The colours of a student's screen depend on
// their terminal's background, which only the terminal can say (an
// OSC 11 query, answered on the keyboard's input). wish's renderer asks
// and waits for the answer before the first frame, reading the session's
// input with a reader that cannot be interrupted: a client that never
// answers (a plain pipe, some terminals, an emulator behind a
// multiplexer) saw a blank screen until it typed something, and the
// query's reader then swallowed those keys. Here the session's input is
// read by one goroutine of our own: the background is asked for with a
// short wait (queryWait; no answer means dark), and the answers to the
// query, whenever they come, are taken out of what reaches the app.

// queryWait is how long a new session waits for its terminal to say its
// background before the first frame (then it assumes dark).
var queryWait = 400 * time.Millisecond

// replyWindow is how long after the query a late answer is still taken
// out of the input.
const replyWindow = 5 * time.Second

// sessionInput is the app's keyboard: the session's input, less the
// terminal's answers to the background query.
type sessionInput struct {
	pr *io.PipeReader
	pw *io.PipeWriter
	bg chan string // the OSC 11 answer's colour ("rgb:1e1e/1e1e/1e1e"), once

	mu      sync.Mutex
	filter  bool      // still looking for the answers
	until   time.Time // when to stop looking
	gotBG   bool
	gotDA   bool
	pending []byte // the start of an answer split across reads
}

// newSessionInput starts reading in; the reader ends when in does.
func newSessionInput(in io.Reader) *sessionInput {
	pr, pw := io.Pipe()
	si := &sessionInput{pr: pr, pw: pw, bg: make(chan string, 1)}
	go si.run(in)
	return si
}

// Read implements io.Reader for the app.
func (si *sessionInput) Read(p []byte) (int, error) { return si.pr.Read(p) }

// Close stops the app's reads.
func (si *sessionInput) Close() error { return si.pr.Close() }

// expect starts taking the answers to the background query out of the
// input (for replyWindow).
func (si *sessionInput) expect() {
	si.mu.Lock()
	si.filter, si.until = true, time.Now().Add(replyWindow)
	si.mu.Unlock()
}

func (si *sessionInput) run(in io.Reader) {
	buf := make([]byte, 4096)
	for {
		n, err := in.Read(buf)
		if n > 0 {
			out := si.strip(buf[:n])
			if len(out) > 0 {
				if _, werr := si.pw.Write(out); werr != nil {
					return // the app has stopped reading
				}
			}
		}
		if err != nil {
			si.mu.Lock()
			rest := si.pending
			si.pending = nil
			si.mu.Unlock()
			if len(rest) > 0 {
				_, _ = si.pw.Write(rest)
			}
			_ = si.pw.CloseWithError(err)
			return
		}
	}
}

// strip takes the answers to the query (OSC 11 and the DA1 that follows
// it) out of chunk while they are expected, and returns the rest.
func (si *sessionInput) strip(chunk []byte) []byte {
	si.mu.Lock()
	defer si.mu.Unlock()
	if !si.filter {
		return chunk
	}
	data := append(si.pending, chunk...)
	si.pending = nil
	var out []byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, 0x1b)
		if i < 0 {
			out = append(out, data...)
			break
		}
		out = append(out, data[:i]...)
		data = data[i:]
		n, complete, bg := reply(data)
		switch {
		case n > 0 && complete:
			if bg != "" && !si.gotBG {
				si.gotBG = true
				si.bg <- bg
			} else if bg == "" {
				si.gotDA = true
			}
			data = data[n:]
		case n > 0: // the start of an answer: the rest comes in the next read
			si.pending = append([]byte(nil), data...)
			data = nil
		default:
			out = append(out, data[0])
			data = data[1:]
		}
	}
	if (si.gotBG && si.gotDA) || time.Now().After(si.until) {
		si.filter = false
		out = append(out, si.pending...)
		si.pending = nil
	}
	return out
}

// reply reads an answer to the query at the start of data (which starts
// with ESC): its length and, for OSC 11, the colour. n is 0 when data
// does not start like an answer; complete is false when it does but
// ends first. A lone ESC (the esc key) is never held back.
func reply(data []byte) (n int, complete bool, bg string) {
	const osc, da = "\x1b]11;", "\x1b[?"
	switch {
	case len(data) < 2:
		return 0, false, ""
	case bytes.HasPrefix(data, []byte(osc)):
		for i := len(osc); i < len(data) && i < 64; i++ {
			switch {
			case data[i] == 0x07:
				return i + 1, true, string(data[len(osc):i])
			case data[i] == 0x1b && i+1 < len(data) && data[i+1] == '\\':
				return i + 2, true, string(data[len(osc):i])
			case data[i] == 0x1b && i+1 == len(data):
				return len(data), false, ""
			}
		}
		if len(data) < 64 {
			return len(data), false, ""
		}
		return 0, false, ""
	case bytes.HasPrefix([]byte(osc), data):
		return len(data), false, ""
	case bytes.HasPrefix(data, []byte(da)):
		for i := len(da); i < len(data) && i < 32; i++ {
			c := data[i]
			if c == 'c' {
				return i + 1, true, ""
			}
			if (c < '0' || c > '9') && c != ';' {
				return 0, false, ""
			}
		}
		if len(data) < 32 {
			return len(data), false, ""
		}
		return 0, false, ""
	case bytes.HasPrefix([]byte(da), data):
		return len(data), false, ""
	}
	return 0, false, ""
}

// sessionRenderer is the session's own renderer: its colour profile from
// the client's TERM and environment (NO_COLOR too), its background from
// the terminal's answer, asked for here and waited for at most
// queryWait (no answer: dark). A session without a terminal, or a dumb
// one, draws without colour.
func sessionRenderer(sess ssh.Session, in *sessionInput) *lipgloss.Renderer {
	pty, _, ok := sess.Pty()
	if !ok || pty.Term == "" || pty.Term == "dumb" {
		return lipgloss.NewRenderer(sess, termenv.WithProfile(termenv.Ascii))
	}
	env := environ(append(sess.Environ(), "TERM="+pty.Term))
	r := lipgloss.NewRenderer(sess, termenv.WithEnvironment(env), termenv.WithUnsafe(), termenv.WithColorCache(true))
	dark := true
	in.expect()
	if _, err := io.WriteString(sess, ansi.RequestBackgroundColor+ansi.RequestPrimaryDeviceAttributes); err == nil {
		select {
		case bg := <-in.bg:
			if l, ok := lightness(bg); ok {
				dark = l < 0.5
			}
		case <-time.After(queryWait):
		}
	}
	r.SetHasDarkBackground(dark)
	return r
}

// lightness is the HSL lightness (0 to 1) of an xterm colour answer
// ("rgb:RRRR/GGGG/BBBB", one to four hex digits a component).
func lightness(s string) (float64, bool) {
	s, ok := strings.CutPrefix(s, "rgb:")
	parts := strings.Split(s, "/")
	if !ok || len(parts) != 3 {
		return 0, false
	}
	lo, hi := 1.0, 0.0
	for _, p := range parts {
		if len(p) < 1 || len(p) > 4 {
			return 0, false
		}
		v, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return 0, false
		}
		f := float64(v) / float64(uint64(1)<<(4*len(p))-1)
		lo, hi = min(lo, f), max(hi, f)
	}
	return (lo + hi) / 2, true
}

// environ is an SSH session's environment for termenv.
type environ []string

func (e environ) Environ() []string { return e }

func (e environ) Getenv(k string) string {
	for _, v := range e {
		if val, ok := strings.CutPrefix(v, k+"="); ok {
			return val
		}
	}
	return ""
}
