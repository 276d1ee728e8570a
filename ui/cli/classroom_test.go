package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui/classroom"
	"github.com/errorlab/errorlab/ui/classroom/room"
)

func TestClassroomUsageErrors(t *testing.T) {
	keys := filepath.Join(t.TempDir(), "keys")
	writeFile(t, keys, "not a key\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--listen", "0.0.0.0:0"}, "--allow-remote"},
		{[]string{"--listen", "nonsense"}, "is not host:port"},
		{[]string{"--listen", "127.0.0.1:0", "--teacher-keys", keys}, keys + ":1: not a public key"},
		{[]string{"--listen", "127.0.0.1:0", "--student-keys", filepath.Join(t.TempDir(), "missing")}, "--student-keys"},
		{[]string{"--max-sessions", "0"}, "--max-sessions must be at least 1"},
		{[]string{"--idle-timeout", "-1s"}, "--idle-timeout"},
		{[]string{"--teacher-console"}, "stdout is not a terminal"},
	} {
		code, _, errOut := run(t, append([]string{"classroom"}, c.args...)...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("classroom %v: exit %d, %q; want exit 2 saying %q", c.args, code, errOut, c.want)
		}
	}
	if code, _, errOut := run(t, "report", "--session", "x"); code != ExitUsage || !strings.Contains(errOut, "--class") {
		t.Errorf("report --session without --class: exit %d, %s", code, errOut)
	}
	if code, _, errOut := run(t, "report", "--class"); code != ExitUsage || !strings.Contains(errOut, "no class session") {
		t.Errorf("report --class before any class: exit %d, %s", code, errOut)
	}
}

// A class runs headless, prints how to join, records the session, and
// `report --class` prints and exports it.
func TestClassroomRunsAndReports(t *testing.T) {
	state := t.TempDir()
	bank, err := quiz.DefaultBank()
	if err != nil {
		t.Fatal(err)
	}
	q, _ := bank.Get("empty-which-mistake-is-worse")
	old := classroomStarted
	t.Cleanup(func() { classroomStarted = old })
	classroomStarted = func(s *classroom.Server) {
		h := s.Hub()
		if err := h.Send(room.AskQuestion(q)); err != nil {
			t.Error(err)
		}
		for i, name := range []string{"ann", "bo"} {
			m, err := h.Join(name, room.Student, "test")
			if err != nil {
				t.Error(err)
				continue
			}
			_ = m.Room().Answer("question:"+q.ID, []int{i})
			m.Leave("left", "")
		}
		if err := h.Reveal(); err != nil {
			t.Error(err)
		}
		if err := s.Close(time.Second); err != nil {
			t.Error(err)
		}
	}
	code, out, errOut := runEnv(t, "", state, "classroom", "--listen", "127.0.0.1:0")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"listening on 127.0.0.1:", "students:  ssh -p ", "NAME@127.0.0.1", "host key:", "created", "the class ended (2 students, 1 question asked)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the banner lacks %q:\n%s", want, out)
		}
	}
	if st, err := os.Stat(filepath.Join(state, "classroom", "host_ed25519")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("host key: %v %v", st, err)
	}
	code, md, errOut := runEnv(t, "", state, "report", "--class")
	if code != ExitOK || !strings.Contains(md, "# Class session") || !strings.Contains(md, "| ann | A | ✗ | 0 |") || !strings.Contains(md, "2 of 2 answered · revealed") {
		t.Fatalf("report --class: exit %d %s\n%s", code, errOut, md)
	}
	code, js, _ := runEnv(t, "", state, "report", "--class", "--format", "json")
	var rec room.Record
	if code != ExitOK || json.Unmarshal([]byte(js), &rec) != nil || len(rec.Questions) != 1 || rec.Questions[0].Answered != 2 {
		t.Fatalf("report --class --format json: exit %d\n%s", code, js)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if code, _, errOut := runEnv(t, "", state, "report", "--class", "--session", rec.Session, "--out", dir); code != ExitOK || !strings.Contains(errOut, "class-"+rec.Session+".md") {
		t.Fatalf("report --class --out: exit %d %s", code, errOut)
	}
	for _, ext := range []string{".md", ".json"} {
		if _, err := os.Stat(filepath.Join(dir, "class-"+rec.Session+ext)); err != nil {
			t.Error(err)
		}
	}
	if code, _, errOut := runEnv(t, "", state, "report", "--class", "--session", "20000101-000000"); code != ExitFailure || !strings.Contains(errOut, rec.Session) {
		t.Errorf("an unknown session: exit %d, %s", code, errOut)
	}
}

// `report --class` reads a session file anyone who can write the state
// directory could have edited: a tampered session id cannot move the
// export out of --out, and a name with escape codes is not printed raw.
// `report --help` names the flags' values.
func TestReportClassTamperedFile(t *testing.T) {
	state := t.TempDir()
	sd := filepath.Join(state, "classroom", "sessions")
	if err := os.MkdirAll(sd, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(sd, "20250131-140000.json"), `{"version":2,"session":"../../../x","started":"2025-01-31T14:00:00Z","updated":"2025-01-31T14:00:00Z",
"students":[{"name":"ev\u001b[2J\u001b]0;pwned\u0007il","firstSeen":"2025-01-31T14:00:00Z","sessions":1}],"questions":[]}`)
	out := filepath.Join(t.TempDir(), "a", "b", "c")
	code, _, errOut := runEnv(t, "", state, "report", "--class", "--out", out)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, ext := range []string{".md", ".json"} {
		if _, err := os.Stat(filepath.Join(out, "class-20250131-140000"+ext)); err != nil {
			t.Errorf("the export is not in --out: %v (%s)", err, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "..", "..", "..", "x.md")); err == nil {
		t.Error("the tampered session id moved the export")
	}
	code, md, _ := runEnv(t, "", state, "report", "--class")
	if code != ExitOK || strings.ContainsAny(md, "\x1b\x07") {
		t.Errorf("report --class printed control characters from the file:\n%q", md)
	}
	_, help, _ := run(t, "report", "--help")
	if line := lineWith(help, "--class"); strings.Contains(line, "--class errorlab") {
		t.Errorf("report --help: %q", line)
	}
}

func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
