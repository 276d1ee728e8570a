package link

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
)

// The wire: JSON lines. Each side first sends a hello line,
//
//	{"hello":"errorlab-walkthrough-link","version":1,"role":"audience","walkthrough":"ID","content":"DIGEST"}
//
// (the presenter's has "role":"presenter", and may add "resume": a State),
// then one
// State per line. A line that is not valid JSON, not a State, or longer
// than MaxLine ends the connection.
const (
	protocolName    = "errorlab-walkthrough-link"
	protocolVersion = 1

	roleAudience  = "audience"
	rolePresenter = "presenter"
)

// MaxLine is the longest line, its newline included, either side reads
// from the other.
const MaxLine = 4 << 10

type hello struct {
	Hello       string `json:"hello"`
	Version     int    `json:"version"`
	Role        string `json:"role"`
	Walkthrough string `json:"walkthrough,omitempty"`
	// Content is the version of the walkthrough the view holds
	// (State.Content); Resume is a presenter's state after driving alone
	// (JoinOptions.Resume). Older builds send neither.
	Content string `json:"content,omitempty"`
	Resume  *State `json:"resume,omitempty"`
}

func writeHello(c net.Conn, h hello) error {
	h.Hello, h.Version = protocolName, protocolVersion
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	_, err = c.Write(append(b, '\n'))
	return err
}

// readHello reads the other side's hello, which must come from a view of
// the role want speaking this version of the protocol. A connection
// closed before its first byte is errSilent.
func readHello(r *bufio.Reader, want string) (hello, error) {
	line, err := readLine(r)
	if errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) {
		// Gone before a word, as an audience view probing whether the
		// socket is live does.
		return hello{}, errSilent
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return hello{}, fmt.Errorf("no hello within %v", handshakeTimeout)
	}
	if err != nil {
		return hello{}, err
	}
	var h hello
	if json.Unmarshal(line, &h) != nil || h.Hello != protocolName {
		return hello{}, fmt.Errorf("%w: the other end does not speak the walkthrough link protocol", errMalformed)
	}
	if h.Version != protocolVersion {
		return hello{}, fmt.Errorf("the other end speaks version %d of the walkthrough link protocol and this build speaks %d; run the same errorlab in both terminals", h.Version, protocolVersion)
	}
	if h.Role != want {
		return hello{}, fmt.Errorf("the other end is a %q view, not the %s view expected", h.Role, want)
	}
	return h, nil
}

// readLine reads one line, without its newline and surrounding blanks.
// A line longer than MaxLine is errTooLong; a last line cut off by the
// end of the stream is io.ErrUnexpectedEOF.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	switch {
	case err == nil:
		return bytes.TrimSpace(line), nil
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, errTooLong
	case errors.Is(err, io.EOF) && len(line) > 0:
		return nil, io.ErrUnexpectedEOF
	}
	return nil, err
}

// decodeState reads one State line; every fault is errMalformed.
func decodeState(line []byte) (State, error) {
	var s State
	if err := json.Unmarshal(line, &s); err != nil {
		return State{}, fmt.Errorf("%w (%v)", errMalformed, err)
	}
	if err := s.check(); err != nil {
		return State{}, fmt.Errorf("%w (%v)", errMalformed, err)
	}
	if s.Seq == 0 {
		return State{}, fmt.Errorf("%w (a state without a seq)", errMalformed)
	}
	return s, nil
}

// check reports what makes s no state of a presentation (Seq aside).
func (s State) check() error {
	switch {
	case s.Walkthrough == "":
		return errors.New("the state names no walkthrough")
	case s.Step < 0:
		return fmt.Errorf("step %d is before the first step", s.Step)
	case s.Part < 0:
		return fmt.Errorf("part %d is before the first part", s.Part)
	}
	switch s.Blank {
	case "", "black", "white":
		return nil
	}
	return fmt.Errorf("blank %q is neither black nor white", s.Blank)
}
