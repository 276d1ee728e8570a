package check_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/check/checktest"
	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/internal/uitest"
	checkpage "github.com/errorlab/errorlab/ui/pages/check"
)

// serverCommand is this test binary as a checktest server in mode, as the
// learner would type its command.
func serverCommand(t *testing.T, mode string) string {
	t.Helper()
	t.Setenv(checktest.ModeEnv, mode)
	return "'" + os.Args[0] + "'"
}

// newCheckPage returns the Check a server page at w×h on its input, as
// itself (for Back and Close) and as the model the tests drive.
func newCheckPage(t *testing.T, w, h int) (*checkpage.Model, tea.Model) {
	t.Helper()
	m := checkpage.New(common.New(nil, uitest.SubsetCatalog(t, uitest.TimeoutID), nil))
	m.SetSize(w, h)
	return m, m
}

// startProbe types the command of a checktest server in mode and presses
// enter; it returns the running probe's first command, not yet run.
func startProbe(t *testing.T, model tea.Model, mode string) (tea.Model, tea.Cmd) {
	t.Helper()
	model, _ = uitest.Drive(model, typeText(serverCommand(t, mode))...)
	return model.Update(uitest.Press("enter"))
}

// runUntil feeds the probe's messages back to model until done holds for
// its view; past the deadline, or with no command left, it fails with
// failure and the view.
func runUntil(t *testing.T, model tea.Model, cmd tea.Cmd, deadline time.Time, done func(view string) bool, failure string) (tea.Model, tea.Cmd) {
	t.Helper()
	for !done(model.View()) {
		if cmd == nil || time.Now().After(deadline) {
			t.Fatalf("%s:\n%s", failure, model.View())
		}
		model, cmd = model.Update(cmd())
	}
	return model, cmd
}

// running reports a process that exists and is not a zombie.
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// probing starts a probe of a server that never finishes its handshake
// (and has a child process), and returns the screen while it runs and the
// server's process ids.
func probing(t *testing.T) (tea.Model, []int) {
	t.Helper()
	pids := filepath.Join(t.TempDir(), "pids")
	t.Setenv(checktest.PIDsEnv, pids)
	m := openCheck(t)
	m, _ = startProbe(t, m, checktest.HangInit) // its messages are not waited for
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(pids)
		if f := strings.Fields(string(b)); len(f) == 2 {
			var out []int
			for _, s := range f {
				n, _ := strconv.Atoi(s)
				out = append(out, n)
			}
			return m, out
		}
	}
	t.Fatal("the server did not start")
	return nil, nil
}

// Every way out of a running probe stops the server's process group: q
// and ctrl+c end the app, whose Close returns once the server is gone;
// esc stops the probe and the server soon after.
func TestLeavingAProbeStopsTheServer(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c", "esc"} {
		t.Run(k, func(t *testing.T) {
			m, pids := probing(t)
			if !strings.Contains(m.View(), "Probing") {
				t.Fatalf("not probing:\n%s", m.View())
			}
			m, cmd := m.Update(uitest.Press(k))
			if k != "esc" {
				if cmd == nil || cmd() != tea.Quit() {
					t.Fatalf("%s did not quit", k)
				}
				m.(interface{ Close() }).Close() // what ui.Run does when the program ends
			}
			// esc stops the server in the background; Close returns once
			// the group was sent SIGKILL, and a killed process may take a
			// moment to die on a busy machine.
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && (running(pids[0]) || running(pids[1])); {
				time.Sleep(20 * time.Millisecond)
			}
			for _, pid := range pids {
				if running(pid) {
					t.Errorf("process %d still runs after %s", pid, k)
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		})
	}
}

// While a probe runs, the help bar names esc once.
func TestProbingHelpNamesEscOnce(t *testing.T) {
	m, _ := probing(t)
	defer m.(interface{ Close() }).Close()
	v := m.View()
	if n := strings.Count(v, "esc"); n != 2 || !strings.Contains(v, "esc stop") || strings.Contains(v, "esc back") {
		t.Errorf("esc in the help bar: %d times\n%s", n, v)
	}
}

// A server that did not accept the revision asked for is said so on the
// results, at 80 columns too.
func TestSpecNotAcceptedIsShown(t *testing.T) {
	m := openCheck(t)
	m, _ = uitest.Drive(m, uitest.Press("tab")) // 2026-07-28
	m, _ = uitest.Drive(m, typeText(serverCommand(t, checktest.OldSpec))...)
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	for _, size := range []tea.WindowSizeMsg{uitest.Size120, {Width: 80, Height: 24}} {
		m, _ = uitest.Drive(m, size)
		v := m.View()
		if !strings.Contains(v, "⚠ the server did not accept spec 2026-07-28: graded under 2025-11-25") || !strings.Contains(v, "graded under 2025-11-25") {
			t.Errorf("%dx%d: the spec note is not shown:\n%s", size.Width, size.Height, v)
		}
		if strings.Contains(v, "result-type") {
			t.Errorf("%dx%d: graded under 2026-07-28 after all:\n%s", size.Width, size.Height, v)
		}
	}
}

// c in the lab passes the scenario's truth: an empty success hiding an
// unreachable database is a hidden failure.
func TestLabCKnowsTheTruth(t *testing.T) {
	const id = "customer-db-unreachable"
	m, _ := uitest.Drive(ui.New(ui.Options{Catalog: uitest.SubsetCatalog(t, id), ScenarioID: id}), uitest.Size120)
	m, _ = uitest.Drive(m, uitest.Press("s"), uitest.Press("enter"), uitest.Press("c"))
	if !strings.Contains(m.View(), id+" · "+mockserver.StyleEmptySuccess.Label()) {
		t.Fatalf("not the empty-success style:\n%s", m.View())
	}
	v := m.View()
	if !strings.Contains(v, "empty.hidden-failure") || strings.Contains(v, "✓ no finding") {
		t.Fatalf("c does not show the hidden failure:\n%s", v)
	}
}

// esc during a probe keeps the calls already answered: the probe stops
// (and the server with it), and the results view shows the answers so
// far with a line saying the probe was stopped.
func TestEscKeepsTheAnswersSoFar(t *testing.T) {
	m, model := newCheckPage(t, 120, 40)
	model, cmd := startProbe(t, model, checktest.HangCall)
	// Run the probe's messages until lookup_order's first call hangs (the
	// unknown tool and the unknown method were answered).
	deadline := time.Now().Add(20 * time.Second)
	model, cmd = runUntil(t, model, cmd, deadline, func(v string) bool { return strings.Contains(v, "lookup_order") }, "the probe did not reach lookup_order")
	if !m.Back() {
		t.Fatal("esc was not taken while probing")
	}
	model, _ = runUntil(t, model, cmd, deadline, func(v string) bool { return !strings.Contains(v, "Probing") }, "the probe did not stop")
	v := model.View()
	for _, want := range []string{"Responses · 2", "errorlab_probe_no_such_tool", "you stopped the probe: the 2 responses answered before are shown"} {
		if !strings.Contains(uitest.Flat(v), uitest.Flat(want)) {
			t.Errorf("the results lack %q:\n%s", want, v)
		}
	}
}

// ctrl+t on the input sets how long each call may take, and the probe
// keeps to it: a server that never answers a call is given up on after
// the chosen 10 s, not the default 30 s.
func TestCallTimeoutIsTheLearnersChoice(t *testing.T) {
	_, model := newCheckPage(t, 120, 40)
	if !strings.Contains(model.View(), "each call may take up to 30 s") {
		t.Fatalf("the input does not say how long a call may take:\n%s", model.View())
	}
	model, _ = uitest.Drive(model, uitest.Press("ctrl+t"), uitest.Press("ctrl+t"), uitest.Press("ctrl+t"))
	if !strings.Contains(model.View(), "each call may take up to 10 s") {
		t.Fatalf("ctrl+t ×3 did not step 30 → 60 → 120 → 10 s:\n%s", model.View())
	}
	model, cmd := startProbe(t, model, checktest.HangCall)
	model, _ = runUntil(t, model, cmd, time.Now().Add(90*time.Second), func(v string) bool { return !strings.Contains(v, "Probing") }, "the probe did not end")
	model, _ = uitest.Drive(model, uitest.Press("down"), uitest.Press("down"))
	if v := uitest.Flat(model.View()); !strings.Contains(v, "noanswercamewithin10s") || strings.Contains(v, "within30s") {
		t.Fatalf("the hung call was not given up on after 10 s:\n%s", model.View())
	}
}

// A new probe clears the status a failed one left: "the probe did not
// finish: see the message under the input" must not stand under a probe
// that is running (and has no input on screen).
func TestNewProbeClearsTheOldFailure(t *testing.T) {
	m := openCheck(t)
	m, _ = uitest.Drive(m, typeText("no-such-program-errorlab")...)
	m, _ = uitest.Drive(m, uitest.Press("enter"))
	if !strings.Contains(m.View(), "the probe did not finish") {
		t.Fatalf("the failed probe is not reported:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("ctrl+u"))
	m, _ = startProbe(t, m, checktest.HangInit) // its messages are not waited for
	v := m.View()
	if !strings.Contains(v, "Probing") || strings.Contains(v, "the probe did not finish") {
		t.Fatalf("the running probe shows the old failure:\n%s", v)
	}
	m.(interface{ Close() }).Close()
}

// While a server is slow to start (no progress comes), the probe still
// shows how long it has waited, so a learner can tell slow from stuck.
func TestSlowStartShowsTheElapsedTime(t *testing.T) {
	m, model := newCheckPage(t, 80, 24)
	model, cmd := startProbe(t, model, checktest.HangInit)
	defer m.Close()
	if v := model.View(); !strings.Contains(v, "starting the server and the handshake · 0s of at most 30s") {
		t.Fatalf("the probe does not show its elapsed time:\n%s", v)
	}
	runUntil(t, model, cmd, time.Now().Add(20*time.Second), func(v string) bool { return strings.Contains(v, "handshake · 2s of at most 30s") }, "the elapsed time did not move while the server was silent")
}
