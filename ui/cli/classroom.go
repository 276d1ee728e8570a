package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	gossh "golang.org/x/crypto/ssh"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/classroom"
	"github.com/errorlab/errorlab/ui/classroom/room"
	"github.com/errorlab/errorlab/ui/common"
	classpage "github.com/errorlab/errorlab/ui/pages/classroom"
)

// classroomStarted, when set (tests), is handed the running class; the
// command returns when the class is closed.
var classroomStarted func(*classroom.Server)

// classDir is the class's folder in the state directory.
func (a *app) classDir() string {
	dir := a.stateDir
	if dir == "" {
		dir = quiz.DefaultDir()
	}
	return filepath.Join(dir, "classroom")
}

// classroomCmd is `errorlab classroom`: a class over SSH.
func (a *app) classroomCmd() *cobra.Command {
	var cfg classroom.Config
	var console bool
	cmd := &cobra.Command{
		Use:   "classroom",
		Short: "Run a class over SSH: every student in their own errorlab, the teacher sees the room answer",
		Long: "Starts an SSH server. Each student connects with `ssh -p PORT NAME@HOST` and gets the whole\n" +
			"app in a session of their own, their progress kept under the state directory (it survives a\n" +
			"reconnect). The teacher's dashboard shows who is connected and where, sends the room to a question,\n" +
			"a lab scenario or a walkthrough step, draws the answers as a live tally, reveals the answer on\n" +
			"every screen and exports the session (`errorlab report --class` prints it later).\n\n" +
			"The teacher is whoever logs in with a key listed in --teacher-keys (authorized_keys format); a user\n" +
			"name alone is never enough. --teacher-console shows the dashboard in this terminal instead.\n" +
			"Students: anyone by default (on the loopback address); --student-keys FILE (each key binds the name\n" +
			"at the end of its line) or --password restricts them. One session a name. Listening beyond loopback\n" +
			"needs --allow-remote.\n\n" +
			"Every session runs on this machine as you, for someone at another keyboard, so a class session\n" +
			"cannot touch this machine: no Check a server (no command run, no URL opened), no Serve (no port),\n" +
			"no link between walkthrough views, and w writes only into the student's own folder.",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return a.classroom(cfg, console) },
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Listen, "listen", classroom.DefaultListen, "host:port to listen on (a loopback address unless --allow-remote)")
	f.StringVar(&cfg.HostKey, "host-key", "", "the server's host key, created (mode 0600) on the first start (default: STATE/classroom/host_ed25519)")
	f.StringVar(&cfg.TeacherKeys, "teacher-keys", "", "authorized_keys file: a login with one of its keys gets the teacher's dashboard")
	f.StringVar(&cfg.StudentKeys, "student-keys", "", "authorized_keys file: only these keys get in as students")
	f.StringVar(&cfg.Password, "password", "", "students must give this password (other users of this machine can see it in the process list)")
	f.BoolVar(&cfg.AllowRemote, "allow-remote", false, "allow --listen on an address other machines can reach")
	f.IntVar(&cfg.MaxSessions, "max-sessions", classroom.DefaultMaxSessions, "students' sessions at once (the teacher's do not count)")
	f.DurationVar(&cfg.IdleTimeout, "idle-timeout", classroom.DefaultIdleTimeout, "close a student's session after this long without a key (0 never)")
	f.BoolVar(&console, "teacher-console", false, "show the teacher's dashboard in this terminal (quitting it ends the class)")
	return cmd
}

func (a *app) classroom(cfg classroom.Config, console bool) error {
	if cfg.MaxSessions < 1 {
		return usagef("--max-sessions must be at least 1, not %d", cfg.MaxSessions)
	}
	if cfg.IdleTimeout < 0 {
		return usagef("--idle-timeout must be 0 (never) or more, not %v", cfg.IdleTimeout)
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = -1 // 0 on the command line: never (0 in Config is the default)
	}
	if console && !a.IsTerminal() {
		return usagef("--teacher-console draws the dashboard in this terminal, and stdout is not a terminal; leave it out to run the class headless")
	}
	theme, err := a.resolveTheme()
	if err != nil {
		return err
	}
	set, c, b, err := a.walkthroughs()
	if err != nil {
		return err
	}
	cfg.App = ui.Options{Catalog: c, Bank: b, Walkthroughs: set, Theme: theme}
	cfg.Dir = a.classDir()

	var logFile *os.File
	cfg.Log = a.Stderr
	if console {
		// The dashboard owns this terminal: the class's log goes to a file.
		if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
			return fmt.Errorf("the class's folder %s: %w", cfg.Dir, err)
		}
		logFile, err = os.OpenFile(filepath.Join(cfg.Dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("the class's log: %w", err)
		}
		defer logFile.Close()
		cfg.Log = logFile
	}
	srv, err := classroom.New(cfg)
	var ce *classroom.ConfigError
	switch {
	case errors.As(err, &ce):
		return UsageError{err}
	case err != nil:
		return err
	}
	for _, w := range srv.Warnings() {
		fmt.Fprintln(a.Stderr, "errorlab: warning:", w)
	}
	a.classBanner(srv, cfg, console)

	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	if classroomStarted != nil {
		classroomStarted(srv)
	}
	if console {
		err = a.RunTUI(ui.Options{Catalog: c, Bank: b, Walkthroughs: set, Theme: theme, Progress: ui.NewMemoryProgress(),
			Teacher: &ui.TeacherStart{Hub: srv.Hub(), Opts: classpage.DashboardOptions{Host: true, ExportDir: filepath.Join(cfg.Dir, "exports")}}})
		cerr := srv.Close(3 * time.Second)
		<-served
		a.classEnded(srv)
		if err != nil {
			return err
		}
		return cerr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case <-ctx.Done():
		fmt.Fprintln(a.Stderr, "errorlab: ending the class…")
		err = srv.Close(3 * time.Second)
		<-served
	case err = <-served:
		_ = srv.Close(3 * time.Second)
	}
	a.classEnded(srv)
	return err
}

// classBanner says how to join, who is the teacher, where things are.
func (a *app) classBanner(srv *classroom.Server, cfg classroom.Config, console bool) {
	out := a.Stdout
	addr := srv.Addr().String()
	host, port, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "THIS-MACHINE"
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	pub, keyPath, created := srv.HostKey()
	fmt.Fprintf(out, "errorlab classroom: class %s listening on %s\n", srv.Hub().ID(), addr)
	fmt.Fprintf(out, "  students:  ssh -p %s NAME@%s\n", port, host)
	who := "anyone who can reach the port"
	switch {
	case cfg.StudentKeys != "" && cfg.Password != "":
		who = "keys in " + cfg.StudentKeys + " (each as its own name), or the password"
	case cfg.StudentKeys != "":
		who = "only keys in " + cfg.StudentKeys + ", each as the name it binds"
	case cfg.Password != "":
		who = "anyone with the password"
	}
	fmt.Fprintf(out, "             (%s)\n", who)
	switch {
	case srv.Teachers():
		fmt.Fprintf(out, "  teacher:   ssh -p %s -i YOUR-KEY you@%s   (a key in %s)\n", port, host, cfg.TeacherKeys)
	case console:
		fmt.Fprintln(out, "  teacher:   this terminal (--teacher-console)")
	default:
		fmt.Fprintln(out, "  teacher:   no --teacher-keys and no --teacher-console: no one sees the dashboard")
	}
	state := "reused"
	if created {
		state = "created"
	}
	fmt.Fprintf(out, "  host key:  %s (%s, %s)\n", keyPath, gossh.FingerprintSHA256(pub), state)
	fmt.Fprintf(out, "  progress:  %s\n", filepath.Join(filepath.Dir(keyPath), "students", "NAME"))
	if rp := srv.Hub().RecordPath(); rp != "" {
		fmt.Fprintf(out, "  record:    %s (errorlab report --class)\n", rp)
	}
	if console {
		fmt.Fprintf(out, "  log:       %s\n", filepath.Join(a.classDir(), "server.log"))
	} else {
		fmt.Fprintln(out, "Ctrl+C ends the class. The log follows.")
	}
}

// classEnded says what the class left behind.
func (a *app) classEnded(srv *classroom.Server) {
	rec := srv.Hub().Record()
	fmt.Fprintf(a.Stdout, "errorlab classroom: the class ended (%s, %s asked). `errorlab report --class` prints it; %s\n",
		common.Plural(len(rec.Students), "student"), common.Plural(len(rec.Questions), "question"), srv.Hub().RecordPath())
}

// reportClass is `errorlab report --class`: a class session's answers
// and tallies, to stdout as md or json, or into out as both.
func (a *app) reportClass(id, format, out string) error {
	rec, err := room.ReadRecord(a.classDir(), id)
	if err != nil {
		if errors.Is(err, room.ErrNoSessions) {
			return usagef("%v", err)
		}
		return err
	}
	if out != "" {
		md, js, err := rec.Export(out)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.Stderr, "wrote %s and %s\n", md, js)
		return nil
	}
	if format == "json" {
		return rec.WriteJSON(a.Stdout)
	}
	return rec.WriteMarkdown(a.Stdout)
}
