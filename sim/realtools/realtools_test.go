package realtools

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// isNumber is the smallest real package the installer can fetch.
var isNumber = Package{"is-number", "7.0.0"}

// TestInstallOnceSideBySide installs a real package from four goroutines
// at once into a fresh folder: one install happens, every caller gets the
// same prefix with the package in it, and a second call reuses it.
func TestInstallOnceSideBySide(t *testing.T) {
	t.Setenv(DirEnv, t.TempDir())
	var wg sync.WaitGroup
	prefixes := make([]string, 4)
	for i := range prefixes {
		wg.Go(func() { prefixes[i] = Install(t, isNumber) })
	}
	wg.Wait()
	for _, p := range prefixes {
		if p != prefixes[0] {
			t.Fatalf("prefixes differ: %q", prefixes)
		}
	}
	pkg := filepath.Join(prefixes[0], "node_modules", "is-number", "package.json")
	if _, err := os.Stat(pkg); err != nil {
		t.Fatalf("the package is not installed: %v", err)
	}
	// A reuse must not reinstall: remove a file npm wrote and see it stay gone.
	lock := filepath.Join(prefixes[0], "node_modules", ".package-lock.json")
	_ = os.Remove(lock)
	Install(t, isNumber)
	if _, err := os.Stat(lock); err == nil {
		t.Fatal("the second Install ran npm again instead of reusing the stamp")
	}
}

// TestHalfInstallRedone: a folder without the stamp (an install killed
// half-way) is installed again.
func TestHalfInstallRedone(t *testing.T) {
	t.Setenv(DirEnv, t.TempDir())
	prefix := filepath.Join(Dir(), folderName(isNumber))
	junk := filepath.Join(prefix, "node_modules", "junk")
	if err := os.MkdirAll(junk, 0o755); err != nil {
		t.Fatal(err)
	}
	Install(t, isNumber)
	if _, err := os.Stat(junk); err == nil {
		t.Fatal("a half-finished install was kept")
	}
	if _, err := os.Stat(filepath.Join(prefix, "node_modules", "is-number")); err != nil {
		t.Fatalf("not installed after a half-finished one: %v", err)
	}
}

func TestFolderName(t *testing.T) {
	if got := folderName(Inspector); got != "modelcontextprotocol__inspector@2.12.0" {
		t.Fatalf("folderName(Inspector) = %q", got)
	}
}

// TestMissingNPMSkipsOrFails runs a subtest with no npm on PATH: it is
// skipped by default and fails under ERRORLAB_REAL_TOOLS=require.
func TestMissingNPMSkipsOrFails(t *testing.T) {
	t.Setenv(DirEnv, t.TempDir())
	t.Setenv("PATH", t.TempDir())
	for _, mode := range []string{"", "require"} {
		t.Setenv(RequireEnv, mode)
		ft := &fakeTB{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Install(ft, isNumber)
		}()
		<-done
		switch {
		case mode == "require" && !ft.failed:
			t.Errorf("with %s=require a missing npm did not fail the test", RequireEnv)
		case mode == "" && !ft.skipped:
			t.Errorf("without %s a missing npm did not skip the test", RequireEnv)
		}
	}
}

// fakeTB records Fatalf and Skipf and stops the goroutine as the real ones do.
type fakeTB struct {
	testing.TB
	failed, skipped bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Fatalf(string, ...any) { f.failed = true; runtimeGoexit() }
func (f *fakeTB) Skipf(string, ...any)  { f.skipped = true; runtimeGoexit() }

func runtimeGoexit() { runtime.Goexit() }
