package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"github.com/errorlab/errorlab/ui"
	"github.com/errorlab/errorlab/ui/styles"
)

// runWith runs errorlab with args in a terminal-less recorder and
// returns the exit code, stderr and the options the TUI got.
func runWith(t *testing.T, args ...string) (int, string, *ui.Options) {
	t.Helper()
	var out, errb bytes.Buffer
	var got *ui.Options
	env := Env{Stdout: &out, Stderr: &errb, IsTerminal: func() bool { return true },
		RunTUI: func(o ui.Options) error { got = &o; return nil }}
	code := Run(env, append([]string{"--state-dir", t.TempDir()}, args...))
	return code, errb.String(), got
}

// withConfig points XDG_CONFIG_HOME at a temp dir holding body as the
// config file ("" for no file).
func withConfig(t *testing.T, body string) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	if body != "" {
		if err := os.MkdirAll(filepath.Join(dir, "errorlab"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "errorlab", "config.yaml"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// --theme beats ERRORLAB_THEME, which beats the config file.
func TestThemePrecedence(t *testing.T) {
	withConfig(t, "theme: mono\n")
	t.Setenv(ThemeEnv, "")
	if _, _, o := runWith(t); o == nil || o.Theme != styles.ThemeMono {
		t.Fatalf("config file: got %+v, want mono", o)
	}
	t.Setenv(ThemeEnv, "light")
	if _, _, o := runWith(t); o == nil || o.Theme != styles.ThemeLight {
		t.Fatalf("env over config: got %+v, want light", o)
	}
	if _, _, o := runWith(t, "--theme", "high-contrast"); o == nil || o.Theme != styles.ThemeHighContrast {
		t.Fatalf("flag over env: got %+v, want high-contrast", o)
	}
	if _, _, o := runWith(t, "lab", "--theme", "dark"); o == nil || o.Theme != styles.ThemeDark {
		t.Fatalf("flag on a subcommand: got %+v, want dark", o)
	}
}

// A bad theme is a usage error on every command, and says where it came
// from and what the themes are.
func TestBadThemeRefused(t *testing.T) {
	withConfig(t, "")
	t.Setenv(ThemeEnv, "")
	for _, args := range [][]string{{"--theme", "neon"}, {"scenarios", "list", "--theme", "neon"}} {
		code, stderr, o := runWith(t, args...)
		if code != ExitUsage || o != nil || !strings.Contains(stderr, `--theme: unknown theme "neon"`) || !strings.Contains(stderr, "high-contrast") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	t.Setenv(ThemeEnv, "sepia")
	if code, stderr, _ := runWith(t, "scenarios", "list"); code != ExitUsage || !strings.Contains(stderr, ThemeEnv) {
		t.Errorf("env: exit %d, stderr %q", code, stderr)
	}
	t.Setenv(ThemeEnv, "")
	withConfig(t, "colour: blue\n")
	if code, stderr, _ := runWith(t, "scenarios", "list"); code != ExitUsage || !strings.Contains(stderr, "config.yaml") {
		t.Errorf("config with an unknown key: exit %d, stderr %q", code, stderr)
	}
}
