package wire

import "io"

// Recorder records the JSON-RPC messages of a conversation with any MCP
// server, byte for byte, in wire order: `errorlab check` taps a real
// server's pipes or HTTP bodies with it. Session uses the same recorder.
type Recorder struct{ rec recorder }

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{} }

// Tap returns a writer that records each complete newline-delimited
// message written through it as coming from dir, then forwards the bytes
// to w (nil: nowhere).
func (r *Recorder) Tap(dir Direction, w io.WriteCloser) io.WriteCloser {
	if w == nil {
		w = nopWriteCloser{io.Discard}
	}
	return &tap{rec: &r.rec, dir: dir, w: w}
}

// Add records one whole message.
func (r *Recorder) Add(dir Direction, b []byte) { r.rec.add(dir, b) }

// Len is the number of messages so far: a mark for Pair.
func (r *Recorder) Len() int { return r.rec.len() }

// Transcript returns every message so far, in wire order.
func (r *Recorder) Transcript() []Message { return r.rec.snapshot() }

// Pair finds, from message number from on, the last client request with
// this method and the server message answering its id (nil when none).
func (r *Recorder) Pair(from int, method string) (req, resp []byte) { return r.rec.pair(from, method) }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
