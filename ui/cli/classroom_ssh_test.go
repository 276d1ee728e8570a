package cli

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui/classroom"
	"github.com/errorlab/errorlab/ui/classroom/room"
)

// sshTerm is one SSH client session with a 100x30 terminal, as a
// student's or the teacher's ssh opens it: what the server sent, and
// its keyboard (each press one write: one packet).
type sshTerm struct {
	sess    *gossh.Session
	client  *gossh.Client
	in      io.WriteCloser
	mu      sync.Mutex
	out     bytes.Buffer
	changed chan struct{}
}

func dialTerm(t *testing.T, srv *classroom.Server, user string, auth gossh.AuthMethod) (*sshTerm, error) {
	hostPub, _, _ := srv.HostKey()
	c, err := gossh.Dial("tcp", srv.Addr().String(), &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{auth},
		HostKeyCallback: gossh.FixedHostKey(hostPub), Timeout: 10 * time.Second})
	if err != nil {
		return nil, err
	}
	sess, err := c.NewSession()
	if err == nil {
		err = sess.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{})
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	tm := &sshTerm{sess: sess, client: c, in: in, changed: make(chan struct{}, 1)}
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			if n > 0 {
				chunk := buf[:n]
				// Answer the queries a terminal answers: background colour,
				// device attributes.
				if bytes.Contains(chunk, []byte("\x1b]11;?")) {
					_, _ = in.Write([]byte("\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\"))
				}
				if bytes.Contains(chunk, []byte("\x1b[c")) {
					_, _ = in.Write([]byte("\x1b[?62;22c"))
				}
				tm.mu.Lock()
				tm.out.Write(chunk)
				tm.mu.Unlock()
				select {
				case tm.changed <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	if err := sess.Shell(); err != nil {
		c.Close()
		return nil, err
	}
	t.Cleanup(tm.close)
	return tm, nil
}

func (tm *sshTerm) close() { _ = tm.sess.Close(); _ = tm.client.Close() }

func (tm *sshTerm) mark() int { tm.mu.Lock(); defer tm.mu.Unlock(); return tm.out.Len() }

func (tm *sshTerm) text(from int) string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return ansi.Strip(string(tm.out.Bytes()[min(from, tm.out.Len()):]))
}

// waitFor waits until the text that came after mark holds s.
func (tm *sshTerm) waitFor(s string, mark int) error {
	deadline := time.After(20 * time.Second)
	for !strings.Contains(tm.text(mark), s) {
		select {
		case <-tm.changed:
		case <-deadline:
			got := tm.text(mark)
			return fmt.Errorf("no %q; the end of what came:\n%s", s, got[max(len(got)-1200, 0):])
		}
	}
	return nil
}

func (tm *sshTerm) press(keys string) { _, _ = tm.in.Write([]byte(keys)) }

// Students with hostile SSH user names answer a lab poll over SSH, each
// typing a burst of digits in one packet; the teacher's dashboard
// exports the session. Every place a student's name shows (the
// dashboard, the log, the session file, the e export, the students/
// folders, `report --class` in Markdown and JSON) names them alike, and
// every count of the poll is of their first digits.
func TestClassNamesAndFirstChoiceEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("a class over SSH")
	}
	state := t.TempDir()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	teacherKey, _ := gossh.NewSignerFromKey(priv)
	keys := filepath.Join(t.TempDir(), "teacher_keys")
	writeFile(t, keys, string(gossh.MarshalAuthorizedKey(teacherKey.PublicKey())))
	cat, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := cat.Get("refund-past-return-window")

	// Who logs in, and the keys each types at once after the call.
	students := []struct{ user, burst string }{
		{"../../x", "12"},
		{strings.Repeat("z", 3000), "1928374655"},
		{"Zoë\u202eevil", "21"},
		{"\x1b[2J\x1b]0;pwned\x07evil\x1b[31m", "98"},
		{"ana", "9"},
	}
	want := map[string]string{} // safe name → its first digit
	var names []string
	for _, s := range students {
		safe, _ := room.SafeName(s.user)
		want[safe] = s.burst[:1]
		names = append(names, safe)
	}
	slices.Sort(names)
	wantCounts := make([]int, 9)
	for _, s := range students {
		wantCounts[s.burst[0]-'1']++
	}

	var dashNames []string
	var dashCounts []int
	var dashScreen string
	old := classroomStarted
	t.Cleanup(func() { classroomStarted = old })
	classroomStarted = func(srv *classroom.Server) {
		defer func() {
			if err := srv.Close(3 * time.Second); err != nil {
				t.Error(err)
			}
		}()
		hub := srv.Hub()
		anyone := gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })
		terms := make([]*sshTerm, len(students))
		for i, s := range students {
			tm, err := dialTerm(t, srv, s.user, anyone)
			if err == nil {
				err = tm.waitFor("Learn how MCP tools should report failure", 0)
			}
			if err != nil {
				t.Errorf("student %d: %v", i, err)
				return
			}
			terms[i] = tm
		}
		lab := room.AskScenario(sc)
		if err := hub.Send(lab); err != nil {
			t.Error(err)
			return
		}
		var wg sync.WaitGroup
		for i, tm := range terms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := tm.waitFor("Headphones returned", 0)
				if err == nil {
					m := tm.mark()
					tm.press("\r")
					err = tm.waitFor("attempt 1", m)
				}
				if err == nil {
					m := tm.mark()
					tm.press(students[i].burst) // one write: one packet
					err = tm.waitFor("is in", m)
				}
				if err != nil {
					t.Errorf("student %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		teacher, err := dialTerm(t, srv, "teacher", gossh.PublicKeys(teacherKey))
		if err == nil {
			err = teacher.waitFor(fmt.Sprintf("%d of %d answered", len(students), len(students)), 0)
		}
		if err == nil {
			m := teacher.mark()
			teacher.press("e")
			err = teacher.waitFor("wrote ", m)
		}
		if err != nil {
			t.Errorf("teacher: %v", err)
			return
		}
		dashScreen = teacher.text(0)
		// What the dashboard draws: its snapshot of the room.
		snap := hub.Snapshot()
		for _, m := range snap.Members {
			if m.Role == room.Student {
				dashNames = append(dashNames, m.Name)
			}
		}
		slices.Sort(dashNames)
		if snap.Ask != nil {
			dashCounts = snap.Ask.Counts
		}
	}
	code, _, log := runEnv(t, "", state, "classroom", "--listen", "127.0.0.1:0", "--teacher-keys", keys)
	if code != ExitOK || t.Failed() {
		t.Fatalf("classroom: exit %d\n%s", code, log)
	}

	// The dashboard: its students, its screen, its tally.
	if !slices.Equal(dashNames, names) {
		t.Errorf("the dashboard's students %q, want %q", dashNames, names)
	}
	for _, n := range names {
		if !strings.Contains(dashScreen, n[:min(len(n), 6)]) {
			t.Errorf("the teacher's screen does not show %q", n)
		}
	}
	if !slices.Equal(dashCounts, wantCounts) {
		t.Errorf("the dashboard's tally %v, want %v (each student's first digit)", dashCounts, wantCounts)
	}
	// The log.
	for _, n := range names {
		if !strings.Contains(log, n+" joined as student") {
			t.Errorf("the log does not say %s joined:\n%s", n, log)
		}
	}
	// The students/ folders.
	entries, err := os.ReadDir(filepath.Join(state, "classroom", "students"))
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, e := range entries {
		folders = append(folders, e.Name())
	}
	if !slices.Equal(folders, names) {
		t.Errorf("the students/ folders %q, want %q", folders, names)
	}
	// The session file, the e export and report --class in JSON.
	sessions, _ := filepath.Glob(filepath.Join(state, "classroom", "sessions", "*.json"))
	exports, _ := filepath.Glob(filepath.Join(state, "classroom", "exports", "class-*.json"))
	if len(sessions) != 1 || len(exports) != 1 {
		t.Fatalf("sessions %q, exports %q: want one of each", sessions, exports)
	}
	_, reportJSON, errOut := runEnv(t, "", state, "report", "--class", "--format", "json")
	for what, data := range map[string][]byte{"the session file": readFile(t, sessions[0]), "the e export": readFile(t, exports[0]), "report --class --format json": []byte(reportJSON)} {
		var rec room.Record
		if err := json.Unmarshal(data, &rec); err != nil || len(rec.Questions) != 1 {
			t.Errorf("%s: %v %s\n%s", what, err, errOut, data)
			continue
		}
		var got []string
		for _, s := range rec.Students {
			got = append(got, s.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, names) {
			t.Errorf("%s names the students %q, want %q", what, got, names)
		}
		q := rec.Questions[0]
		var counts []int
		for _, o := range q.Options {
			counts = append(counts, o.Count)
		}
		if q.Answered != len(students) || !slices.Equal(counts, wantCounts) {
			t.Errorf("%s: %d answered, tally %v; want %d, %v", what, q.Answered, counts, len(students), wantCounts)
		}
		for _, a := range q.Answers {
			if first, ok := want[a.Student]; !ok || len(a.Choice) != 1 || a.Choice[0] != first || a.Changes != 0 {
				t.Errorf("%s: %q answered %v (changed %d), want %s", what, a.Student, a.Choice, a.Changes, first)
			}
		}
	}
	// report --class in Markdown, and the e export's Markdown.
	_, md, _ := runEnv(t, "", state, "report", "--class")
	exportMD := string(readFile(t, strings.TrimSuffix(exports[0], ".json")+".md"))
	for _, n := range names {
		row := fmt.Sprintf("| %s | %s | ", n, want[n])
		if !strings.Contains(md, row) || !strings.Contains(exportMD, row) {
			t.Errorf("report --class or the e export has no row %q:\n%s", row, md)
		}
	}
	for _, bad := range []string{"\x1b", "\u202e", "../", "zzzzzzzzzzzzzzzzzzzzzz"} {
		if strings.Contains(md, bad) || strings.Contains(reportJSON, bad) {
			t.Errorf("%q reached the report", bad)
		}
	}
	if strings.ContainsAny(log, "\x1b\u202e") {
		t.Errorf("the log holds an escape or a bidi override:\n%q", log)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
