package common

import "errors"

// HostAction is something a session can do on the machine errorlab runs
// on, beyond drawing its own screen: each one acts as the user who
// started errorlab.
type HostAction int

// The host actions a page may ask for (Common.Allowed).
const (
	// RunProgram starts a process: Check a server's command.
	RunProgram HostAction = iota
	// OpenURL connects to an address the learner typed: Check a
	// server's URL.
	OpenURL
	// OpenPort listens on a port: Home → Serve.
	OpenPort
	// LinkViews links walkthrough views through the socket folder that
	// every errorlab of the same user shares (the presenter and audience
	// views).
	LinkViews
	// WriteFile writes a file the learner asked for (w, an exchange):
	// only into Common.ExportDir, and in a confined session only when
	// that is the session's own folder.
	WriteFile
)

// ErrConfined is what every refusal of Common.Allowed wraps.
var ErrConfined = errors.New("not available in a class")

// Confine makes the session one that may touch nothing on the host but
// its own folder: a session of a class over SSH (a student's, or the
// teacher's), which runs on the class's server as the user who started
// it, on behalf of someone at another keyboard. From then on Allowed
// refuses every HostAction but WriteFile into dir (the student's folder;
// "" refuses writing too), and ExportDir is dir. It is the one switch
// every page consults; `errorlab classroom` sets it on every session.
func (c *Common) Confine(dir string) {
	c.confined = true
	c.ExportDir = dir
}

// Confined reports whether the session is confined (Confine).
func (c *Common) Confined() bool { return c.confined }

// Refusal is Allowed's answer for an action a confined session may not
// take; Text is the sentence for the screen.
type Refusal struct{ Text string }

func (r *Refusal) Error() string { return r.Text }

// Unwrap makes errors.Is(err, ErrConfined) true.
func (r *Refusal) Unwrap() error { return ErrConfined }

// Allowed says whether the session may do a on the host: nil, or a
// *Refusal (wrapping ErrConfined) whose text is the sentence to show on
// the screen: that it is not available and where to do it instead first
// (a status line at 80 columns shows that much), then why.
func (c *Common) Allowed(a HostAction) error {
	if !c.confined {
		return nil
	}
	switch a {
	case RunProgram, OpenURL:
		return &Refusal{"Not available in a class: run errorlab check on your own machine. (Here it would run the command, or open the URL, on the class's server.)"}
	case OpenPort:
		return &Refusal{"Not available in a class: run errorlab serve on your own machine. (Here it would open a port on the class's server.)"}
	case LinkViews:
		return &Refusal{"Not available in a class: this view links to no other and drives no other screen. (Run errorlab walkthrough on your own machine to link two views.)"}
	case WriteFile:
		if c.ExportDir != "" {
			return nil
		}
		return &Refusal{"Not available in a class: w writes no file here; y copies to your own clipboard instead."}
	}
	return &Refusal{"This is not available in a class."}
}
