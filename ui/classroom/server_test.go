package classroom_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	gossh "golang.org/x/crypto/ssh"

	wt "github.com/errorlab/errorlab/scenarios/walkthrough"
	"github.com/errorlab/errorlab/ui/classroom"
	"github.com/errorlab/errorlab/ui/classroom/room"
	"github.com/errorlab/errorlab/ui/common"
)

func TestMain(m *testing.M) {
	// The server's own (default) renderer must not colour what the
	// sessions' renderers draw; each session has its own.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

const home = "Learn how MCP tools should report failure"

// askQuestion sends the room to a bank question and returns it.
func askQuestion(tb testing.TB, f *fixture, id string) room.Ask {
	tb.Helper()
	opts, _ := content()
	q, ok := opts.Bank.Get(id)
	if !ok {
		tb.Fatalf("no question %s", id)
	}
	a := room.AskQuestion(q)
	must(tb, f.srv.Hub().Send(a))
	return a
}

// Thirty students connect at once, each gets the app on a screen of
// their own, answers the room's question (and changes the answer), and
// disconnects; the tally counts every student exactly once, with their
// last answer, and the teacher's dashboard shows it.
func TestThirtyStudents(t *testing.T) {
	f := start(t, nil)
	a := askQuestion(t, f, "empty-which-mistake-is-worse")
	stem := a.Stem[:30]
	const n = 30
	var wg sync.WaitGroup
	errs := make(chan error, n)
	terms := make([]*term, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("student%02d", i)
			tm, err := f.dial(t, name, anyone())
			if err != nil {
				errs <- fmt.Errorf("%s: %v", name, err)
				return
			}
			terms[i] = tm
			if err := tm.waitFor(stem, 0, 30*time.Second); err != nil {
				errs <- fmt.Errorf("%s did not get the question: %v", name, err)
				return
			}
			// A first answer, then the one that counts.
			mark := tm.size()
			tm.press(string(rune('a' + (i+1)%4)))
			if err := tm.waitFor("Your answer:", mark, 20*time.Second); err != nil {
				errs <- fmt.Errorf("%s: %v", name, err)
				return
			}
			mark = tm.size()
			tm.press(string(rune('a' + i%4)))
			if err := tm.waitFor("Your answer: "+string(rune('A'+i%4)), mark, 20*time.Second); err != nil {
				errs <- fmt.Errorf("%s: %v", name, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.FailNow()
	}
	counts, answered := f.srv.Hub().Tally(a.Item.Key)
	if answered != n || !slices.Equal(counts, []int{8, 8, 7, 7}) {
		t.Fatalf("tally %v from %d answers, want [8 8 7 7] from %d", counts, answered, n)
	}
	teacher := f.connect(t, "teacher", withKey(f.teacher))
	teacher.must("30 students connected")
	teacher.must("30 of 30 answered")

	// All at once, every student makes a live call in the lab and
	// chooses an action, then follows a walkthrough's live call: the
	// sessions share the catalogue, the bank and the walkthroughs.
	opts, _ := content()
	sc, _ := opts.Catalog.Get("refund-past-return-window")
	lab := room.AskScenario(sc)
	must(t, f.srv.Hub().Send(lab))
	w, _ := opts.Walkthroughs.Get("empty-is-not-an-error")
	live := slices.IndexFunc(w.Steps, func(st *wt.Step) bool { return st.Kind == wt.KindLiveCall })
	step, err := room.AskStep(w, live, opts.Catalog, opts.Bank)
	must(t, err)
	errs = make(chan error, 2*n)
	var moved sync.WaitGroup
	moved.Add(n)
	for i, tm := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok := func(err error) bool {
				if err != nil {
					errs <- fmt.Errorf("student %d: %v", i, err)
				}
				return err == nil
			}
			done := false
			defer func() {
				if !done {
					moved.Done()
				}
			}()
			if !ok(tm.waitFor("Headphones returned", 0, 20*time.Second)) {
				return
			}
			mark := tm.size()
			tm.press("\r")
			if !ok(tm.waitFor("attempt 1", mark, 20*time.Second)) {
				return
			}
			mark = tm.size()
			tm.press(fmt.Sprint(i%9 + 1))
			// A class poll: the choice is in, the verdict waits.
			if !ok(tm.waitFor("is in", mark, 20*time.Second)) {
				return
			}
			mark = tm.size()
			done = true
			moved.Done()
			ok(tm.waitFor(fmt.Sprintf("%d/%d · live call", live+1, len(w.Steps)), mark, 30*time.Second))
		}()
	}
	moved.Wait()
	must(t, f.srv.Hub().Send(step))
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if counts, answered := f.srv.Hub().Tally(lab.Item.Key); answered != n || counts[0] != 4 || counts[8] != 3 {
		t.Errorf("the scenario's tally %v from %d, want every student once (4 chose 1, 3 chose 9)", counts, answered)
	}
	for i, tm := range terms {
		tm.close()
		if err := tm.ended(5 * time.Second); err != nil {
			t.Errorf("student %d: %v", i, err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for f.srv.Hub().Snapshot().Students > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	snap := f.srv.Hub().Snapshot()
	if snap.Students != 0 {
		t.Errorf("%d students still in the room after they disconnected", snap.Students)
	}
	joined, left := 0, 0
	for _, e := range snap.Events {
		switch {
		case e.Kind == "joined" && strings.HasPrefix(e.Name, "student"):
			joined++
		case e.Kind == "left" && strings.HasPrefix(e.Name, "student"):
			left++
		}
	}
	if joined != n || left != n {
		t.Errorf("the log has %d joins and %d departures, want %d of each", joined, left, n)
	}
	if counts, answered := f.srv.Hub().Tally(a.Item.Key); answered != n || !slices.Equal(counts, []int{8, 8, 7, 7}) {
		t.Errorf("after they left the tally is %v from %d", counts, answered)
	}
	for i := range n {
		if st, err := os.Stat(filepath.Join(f.dir, "students", fmt.Sprintf("student%02d", i))); err != nil || !st.IsDir() {
			t.Errorf("student %d has no folder of their own: %v", i, err)
		}
	}
}

// panicky is a test app that panics on "!" (in Update) and "@" (in a
// command), as a bug in one session might.
type panicky struct{ tea.Model }

func (p panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch k.String() {
		case "!":
			panic("a bug in the student's session")
		case "@":
			return p, tea.Batch(nil, func() tea.Msg { panic("a bug in a command") })
		}
	}
	m, cmd := p.Model.Update(msg)
	return panicky{m}, cmd
}

// A panic in one student's session ends that session only: the others
// keep working and their answers count, and the teacher sees the crash
// in the room's log.
func TestPanicEndsOnlyThatSession(t *testing.T) {
	f := start(t, nil)
	classroom.SetWrapModel(f.srv, func(name string, m tea.Model) tea.Model {
		if strings.HasPrefix(name, "crash") {
			return panicky{m}
		}
		return m
	})
	classroom.SetBeforeProgram(f.srv, func(name string) {
		if name == "boom" {
			panic("a bug while the session starts")
		}
	})
	ann := f.connect(t, "ann", anyone())
	crash := f.connect(t, "crash", anyone())
	crash2 := f.connect(t, "crash2", anyone())
	ann.must(home)
	crash.must(home)
	crash2.must(home)

	crash.press("!")
	crash2.press("@")
	for _, c := range []*term{crash, crash2} {
		if err := c.waitFor("errorlab stopped on an internal error", 0, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		if err := c.ended(5 * time.Second); err != nil {
			t.Fatal(err)
		}
	}
	boom, err := f.dial(t, "boom", anyone())
	must(t, err)
	if err := boom.waitFor("errorlab stopped on an internal error", 0, 10*time.Second); err != nil {
		t.Fatal(err)
	}

	// The others carry on: ann gets the question and answers it.
	a := askQuestion(t, f, "empty-which-mistake-is-worse")
	ann.must(a.Stem[:30])
	ann.press("b")
	ann.must("Your answer: B")
	if counts, answered := f.srv.Hub().Tally(a.Item.Key); answered != 1 || counts[1] != 1 {
		t.Fatalf("tally %v from %d after the crashes", counts, answered)
	}
	crashes := map[string]bool{}
	for _, e := range f.srv.Hub().Snapshot().Events {
		if e.Kind == "crashed" {
			crashes[e.Name] = true
		}
	}
	for _, n := range []string{"crash", "crash2", "boom"} {
		if !crashes[n] {
			t.Errorf("the room's log does not show %s's crash: %v", n, crashes)
		}
	}
	teacher := f.connect(t, "teacher", withKey(f.teacher))
	teacher.must("the session crashed")
}

// failingSigner offers a public key it cannot sign with: a client that
// knows the teacher's public key (it is public) but not the private one.
type failingSigner struct{ pub gossh.PublicKey }

func (s failingSigner) PublicKey() gossh.PublicKey { return s.pub }
func (failingSigner) Sign(io.Reader, []byte) (*gossh.Signature, error) {
	return nil, fmt.Errorf("no private key")
}

// Only the teacher's key opens the dashboard: a student who logs in as
// "teacher", one who offers a key of their own, and one who offers the
// teacher's public key without its private half are all students.
func TestTeacherNameIsNotEnough(t *testing.T) {
	f := start(t, nil)
	other, _ := keyPair(t)
	for name, auth := range map[string][]gossh.AuthMethod{
		"by name":           anyone(),
		"with another key":  append(withKey(other), anyone()...),
		"with the pub only": append([]gossh.AuthMethod{gossh.PublicKeysCallback(func() ([]gossh.Signer, error) { return []gossh.Signer{signerOf(f.teacher.PublicKey())}, nil })}, anyone()...),
	} {
		t.Run(name, func(t *testing.T) {
			tm := f.connect(t, "teacher", auth)
			tm.must(home)
			if strings.Contains(tm.text(), "students connected") {
				t.Fatal("a student got the dashboard")
			}
		})
	}
	real := f.connect(t, "anyone-at-all", withKey(f.teacher))
	real.must("students connected")
	var roles []string
	for _, m := range f.srv.Hub().Snapshot().Members {
		roles = append(roles, m.Name+":"+m.Role.String())
	}
	if !slices.Contains(roles, "anyone-at-all:teacher") || slices.Contains(roles, "teacher:teacher") {
		t.Errorf("roles in the room: %v", roles)
	}
}

func signerOf(pub gossh.PublicKey) gossh.Signer { return failingSigner{pub} }

// Hostile user names are mapped to safe names: no file outside the
// class's folder, no terminal codes on the teacher's screen.
func TestHostileNames(t *testing.T) {
	f := start(t, nil)
	names := []string{
		"../../x",
		"\x1b[2J\x1b]0;pwned\x07evil\x1b[31m",
		strings.Repeat("long", 10<<10/4),
		"a/b/../../../../etc",
		"..",
	}
	for _, n := range names {
		tm := f.connect(t, n, anyone())
		tm.must(home)
		tm.must("cannot be used as it is")
		if strings.Contains(tm.raw(), "\x1b]0;pwned") {
			t.Errorf("the student's own screen echoed the name's escape codes")
		}
	}
	teacher := f.connect(t, "teacher", withKey(f.teacher))
	teacher.must(fmt.Sprintf("%d students connected", len(names)))
	raw, text := teacher.raw(), teacher.text()
	for _, bad := range []string{"\x1b]0;pwned", "../../x", "/etc", "longlonglonglonglonglonglonglonglonglonglonglong"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the teacher's screen received %q", bad)
		}
	}
	for _, n := range names[:2] {
		// The name column cuts long names (…): the safe name's start.
		if safe, _ := room.SafeName(n); !strings.Contains(text, safe[:6]) {
			t.Errorf("the teacher's screen does not name %q as %s", n, safe)
		}
	}
	// Everything written is inside the class's folder, one safe name a
	// student.
	parent := filepath.Dir(f.dir)
	entries, err := os.ReadDir(parent)
	must(t, err)
	for _, e := range entries {
		if e.Name() != "classroom" && e.Name() != "teacher_keys" {
			t.Errorf("a file outside the class's folder: %s", e.Name())
		}
	}
	students, err := os.ReadDir(filepath.Join(f.dir, "students"))
	must(t, err)
	for _, e := range students {
		safe, mapped := room.SafeName(e.Name())
		if len(e.Name()) > 27 || (!mapped && safe != e.Name()) || strings.ContainsAny(e.Name(), "/\\\x1b") {
			t.Errorf("an unsafe student folder: %q", e.Name())
		}
	}
	if len(students) != len(names) {
		t.Errorf("%d student folders for %d names", len(students), len(names))
	}
}

// Who gets in: keys, a password, the room's size.
func TestWhoGetsIn(t *testing.T) {
	t.Run("student keys", func(t *testing.T) {
		listed, line := keyPair(t)
		stranger, _ := keyPair(t)
		f := start(t, func(c *classroom.Config) {
			p := filepath.Join(t.TempDir(), "students")
			// The key binds the name at the end of its line.
			must(t, os.WriteFile(p, []byte("# the class\n\n"+strings.TrimSpace(string(line))+" ann\n"), 0o600))
			c.StudentKeys = p
		})
		if _, err := f.dial(t, "ann", anyone()); err == nil {
			t.Error("a student without a listed key got in")
		}
		if _, err := f.dial(t, "ann", withKey(stranger)); err == nil {
			t.Error("a key not in --student-keys got in")
		}
		f.connect(t, "ann", withKey(listed)).must(home)
		f.connect(t, "teacher", withKey(f.teacher)).must("1 student connected")
	})
	t.Run("password", func(t *testing.T) {
		f := start(t, func(c *classroom.Config) { c.Password = "s3cret" })
		if _, err := f.dial(t, "ann", []gossh.AuthMethod{gossh.Password("wrong")}); err == nil {
			t.Error("a wrong password got in")
		}
		if _, err := f.dial(t, "ann", anyone()); err == nil {
			t.Error("no password got in")
		}
		f.connect(t, "ann", []gossh.AuthMethod{gossh.Password("s3cret")}).must(home)
		kbd := gossh.KeyboardInteractive(func(_, _ string, qs []string, _ []bool) ([]string, error) {
			return []string{"s3cret"}, nil
		})
		f.connect(t, "bo", []gossh.AuthMethod{kbd}).must(home)
	})
	t.Run("full room", func(t *testing.T) {
		f := start(t, func(c *classroom.Config) { c.MaxSessions = 2 })
		f.connect(t, "teacher", withKey(f.teacher)).must("students connected")
		ann := f.connect(t, "ann", anyone())
		ann.must(home)
		f.connect(t, "bo", anyone()).must(home)
		third := f.connect(t, "cy", anyone())
		third.must("the room is full (2 sessions at once)")
		f.connect(t, "teacher", withKey(f.teacher)).must("2 students connected")
		// A place comes free when a student leaves; the teachers' two
		// sessions never took one.
		ann.close()
		must(t, ann.ended(5*time.Second))
		deadline := time.Now().Add(5 * time.Second)
		for f.srv.Hub().Snapshot().Students > 1 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		f.connect(t, "cy", anyone()).must(home)
	})
}

// An idle student's session closes after the idle timeout; one who
// types stays.
func TestIdleTimeout(t *testing.T) {
	f := start(t, func(c *classroom.Config) { c.IdleTimeout = 1500 * time.Millisecond })
	idle := f.connect(t, "idle", anyone())
	busy := f.connect(t, "busy", anyone())
	idle.must(home)
	busy.must(home)
	stop := time.After(2500 * time.Millisecond)
	tick := time.NewTicker(300 * time.Millisecond)
	defer tick.Stop()
loop:
	for {
		select {
		case <-tick.C:
			busy.press("j")
		case <-stop:
			break loop
		}
	}
	if err := idle.waitFor("closed after 1.5s without a key", 0, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := idle.ended(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	select {
	case <-busy.done:
		t.Fatal("the busy student's session was closed")
	default:
	}
	found := false
	for _, e := range f.srv.Hub().Snapshot().Events {
		found = found || (e.Kind == "idle" && e.Name == "idle")
	}
	if !found {
		t.Error("the room's log does not say the idle session was closed")
	}
}

// A student's progress is theirs, kept under the state directory: it
// survives a reconnect, and the room's question comes back with their
// answer.
func TestReconnectKeepsProgress(t *testing.T) {
	f := start(t, nil)
	opts, _ := content()
	sc, ok := opts.Catalog.Get("refund-past-return-window")
	if !ok {
		t.Skip("no refund-past-return-window scenario")
	}
	a := room.AskScenario(sc)
	must(t, f.srv.Hub().Send(a))
	ann := f.connect(t, "ann", anyone())
	ann.must("Headphones returned")
	ann.press("\r")
	ann.must("attempt 1")
	ann.press(fmt.Sprint(common.ActionIndex(sc.BestAction) + 1))
	ann.must("is in")
	// The poll's verdict, and the progress it makes, wait for the reveal.
	must(t, f.srv.Hub().Reveal())
	ann.must("your choice")
	ann.close()
	_ = ann.ended(5 * time.Second)
	again := f.connect(t, "ann", anyone())
	again.must("✓ 1 · ◑ 0")
	if counts, n := f.srv.Hub().Tally(a.Item.Key); n != 1 || counts[common.ActionIndex(sc.BestAction)] != 1 {
		t.Errorf("tally %v from %d", counts, n)
	}
}

// The host key is made on the first start (0600) and the same key
// serves the next; a key others can read is refused. A non-loopback
// address needs AllowRemote and warns.
func TestHostKeyAndListen(t *testing.T) {
	opts, err := content()
	must(t, err)
	dir := filepath.Join(t.TempDir(), "c")
	cfg := classroom.Config{Listen: "127.0.0.1:0", Dir: dir, App: opts}
	s1, err := classroom.New(cfg)
	must(t, err)
	pub1, path, created := s1.HostKey()
	must(t, s1.Close(time.Second))
	st, err := os.Stat(path)
	must(t, err)
	if !created || st.Mode().Perm() != 0o600 {
		t.Fatalf("host key created=%v mode %v, want created 0600", created, st.Mode().Perm())
	}
	s2, err := classroom.New(cfg)
	must(t, err)
	pub2, _, created2 := s2.HostKey()
	must(t, s2.Close(time.Second))
	if created2 || string(pub1.Marshal()) != string(pub2.Marshal()) {
		t.Fatal("the second start did not reuse the host key")
	}
	must(t, os.Chmod(path, 0o644))
	if _, err := classroom.New(cfg); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a readable host key: %v", err)
	}
	must(t, os.Chmod(path, 0o600))

	remote := cfg
	remote.Listen = "0.0.0.0:0"
	if _, err := classroom.New(remote); err == nil || !strings.Contains(err.Error(), "--allow-remote") {
		t.Errorf("0.0.0.0 without AllowRemote: %v", err)
	}
	remote.AllowRemote = true
	s3, err := classroom.New(remote)
	must(t, err)
	defer s3.Close(time.Second)
	if w := s3.Warnings(); len(w) != 1 || !strings.Contains(w[0], "beyond this machine") {
		t.Errorf("warnings: %v", w)
	}
	bad := cfg
	bad.TeacherKeys = filepath.Join(t.TempDir(), "keys")
	must(t, os.WriteFile(bad.TeacherKeys, []byte("ssh-ed25519 AAAA-not-base64 x\n"), 0o600))
	if _, err := classroom.New(bad); err == nil || !strings.Contains(err.Error(), ":1: not a public key") {
		t.Errorf("a broken key file: %v", err)
	}
}

// Each session draws with a renderer of its own: a student whose client
// asks for the mono theme gets no colour, another student's screen keeps
// its colours.
func TestThemePerSession(t *testing.T) {
	f := start(t, nil)
	mono, err := f.dialEnv(t, "mono", anyone(), map[string]string{classroom.ThemeEnv: "mono"})
	must(t, err)
	plain := f.connect(t, "colour", anyone())
	mono.must(home)
	plain.must(home)
	if strings.Contains(mono.raw(), "\x1b[38;") {
		t.Error("the mono session got colours")
	}
	if !strings.Contains(plain.raw(), "\x1b[38;") {
		t.Error("the other session got no colours")
	}
}

// In a class every session runs in one process: a student's walkthrough
// views link to no other session (one student's presenter view never
// drives another's screen).
func TestWalkthroughsDoNotLinkSessions(t *testing.T) {
	f := start(t, nil)
	room1 := f.connect(t, "audience", anyone())
	pres := f.connect(t, "presenter", anyone())
	room1.must(home)
	pres.must(home)
	room1.press(strings.Repeat("\x1b[B", 4) + "\r")
	room1.must("enter present")
	room1.press("\r")
	room1.must("step 1 of")
	pres.press(strings.Repeat("\x1b[B", 4) + "\r")
	pres.must("enter present")
	pres.press("p")
	pres.must("links to no other")
	// A link, when there is one, comes within a moment of the view.
	if err := pres.waitFor("linked to the audience", 0, 2*time.Second); err == nil {
		t.Fatal("a student's presenter view linked to another student's screen")
	}
}
