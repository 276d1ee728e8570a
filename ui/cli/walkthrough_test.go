package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/scenarios/walkthrough"
)

// tinyWalkthrough is a valid walkthrough file for the content tests.
const tinyWalkthrough = `id: tiny-one
title: A tiny walkthrough
summary: One call and a takeaway.
minutes: 5
topics: ["§4"]
steps:
  - kind: live_call
    scenario: email-with-no-account
    expect: {layer: success, empty: true}
  - kind: takeaway
    text: Empty is not an error.
`

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWalkthroughList(t *testing.T) {
	code, out, errOut := run(t, "walkthrough")
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	if !strings.HasPrefix(out, "ID ") || !regexp.MustCompile(`(?m)^empty-is-not-an-error +20 +13 +empty §4 +Empty is not an error$`).MatchString(out) {
		t.Errorf("table:\n%s", out)
	}
	if n := strings.Count(out, "\n"); n != 6 {
		t.Errorf("%d lines, want a header and 5 walkthroughs:\n%s", n, out)
	}
	code, out, _ = run(t, "walkthrough", "--json")
	var entries []WalkthroughEntry
	if code != ExitOK || json.Unmarshal([]byte(out), &entries) != nil || len(entries) != 5 {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
	e := entries[0]
	if e.ID != "four-failures-one-afternoon" || e.Minutes != 25 || e.Steps != 14 || len(e.Topics) == 0 || e.Summary == "" || e.Title == "" {
		t.Errorf("first entry %+v", e)
	}
	if _, again, _ := run(t, "walkthroughs", "list", "--json"); again != out {
		t.Error("walkthroughs list --json differs from walkthrough --json")
	}
}

// --export md writes the handout: on stdout by default, or to -o FILE.
func TestWalkthroughExport(t *testing.T) {
	c, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	b, err := quiz.DefaultBank()
	if err != nil {
		t.Fatal(err)
	}
	set, err := walkthrough.Default(c, b)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := set.Get("three-false-rows")
	var want bytes.Buffer
	if err := walkthrough.Handout(&want, w, c, b); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "walkthrough", "three-false-rows", "--export", "md")
	if code != ExitOK || errOut != "" || out != want.String() {
		t.Errorf("stdout export: exit %d, stderr %q, same %v", code, errOut, out == want.String())
	}
	file := filepath.Join(t.TempDir(), "handout.md")
	code, out, errOut = run(t, "walkthrough", "three-false-rows", "--export", "md", "-o", file)
	got, err := os.ReadFile(file)
	if code != ExitOK || out != "" || err != nil || string(got) != want.String() || !strings.Contains(errOut, file) {
		t.Errorf("-o export: exit %d, stdout %q, stderr %q, file %v", code, out, errOut, err)
	}
	code, _, errOut = run(t, "walkthrough", "three-false-rows", "--export", "md", "-o", filepath.Join(t.TempDir(), "no", "such", "dir", "x.md"))
	if code != ExitFailure || !strings.Contains(errOut, "cannot write the handout") {
		t.Errorf("unwritable -o: exit %d, %s", code, errOut)
	}
}

// Usage problems exit 2 with a message that says what to do.
func TestWalkthroughUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"walkthrough", "empty-not-error"}, `no walkthrough "empty-not-error". Closest ids: empty-is-not-an-error`},
		{[]string{"walkthrough", "empty-is-not-an-error"}, "presenting a walkthrough is a full-screen terminal program and stdout is not a terminal"},
		{[]string{"walkthrough", "empty-is-not-an-error", "--presenter", "--export", "md"}, "--presenter presents the walkthrough and --export writes it"},
		{[]string{"walkthrough", "empty-is-not-an-error", "--export", "pdf"}, `unknown export format "pdf": use --export md`},
		{[]string{"walkthrough", "empty-is-not-an-error", "-o", "x.md"}, "-o names the file for --export"},
		{[]string{"walkthrough", "empty-is-not-an-error", "--json"}, "--json lists the walkthroughs"},
		{[]string{"walkthrough", "--export", "md"}, "--export and -o need a walkthrough NAME"},
		{[]string{"walkthrough", "--presenter"}, "--presenter needs a walkthrough NAME"},
		{[]string{"walkthrough", "a", "b"}, "accepts at most 1 arg"},
		{[]string{"walkthroughs", "validate"}, "needs one directory"},
	}
	for _, c := range cases {
		code, out, errOut := run(t, c.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
}

// walkthroughs validate DIR reports file:line:col and exits 2, like
// scenarios validate; a valid directory is counted.
func TestWalkthroughsValidate(t *testing.T) {
	root := t.TempDir()
	// At the root of a content directory, where --content does not look
	// for walkthroughs: validate agrees with --content and says where.
	writeFile(t, filepath.Join(root, "tiny.yaml"), tinyWalkthrough)
	if code, out, _ := run(t, "walkthroughs", "validate", root); code != ExitUsage || !strings.Contains(out, filepath.Join(root, "walkthroughs")+"/*.yaml") {
		t.Errorf("a walkthrough at the root: exit %d, %q", code, out)
	}
	if code, _, _ := run(t, "--content", root, "walkthrough"); code != ExitUsage {
		t.Errorf("--content with a walkthrough at the root: exit %d", code)
	}
	// The --content layout validates, from the content directory or its
	// walkthroughs directory.
	writeFile(t, filepath.Join(root, "walkthroughs", "tiny.yaml"), tinyWalkthrough)
	if err := os.Remove(filepath.Join(root, "tiny.yaml")); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run(t, "walkthroughs", "validate", root); code != ExitOK {
		t.Errorf("the --content layout: exit %d, %q, %q", code, out, errOut)
	}
	dir := filepath.Join(root, "walkthroughs")
	code, out, errOut := run(t, "walkthroughs", "validate", dir)
	if code != ExitOK || errOut != "" || out != "1 walkthrough in "+dir+" is valid\n" {
		t.Errorf("valid: exit %d, %q, %q", code, out, errOut)
	}
	writeFile(t, filepath.Join(dir, "tiny.yaml"), strings.Replace(tinyWalkthrough, "email-with-no-account", "email-with-no-acount", 1))
	code, out, errOut = run(t, "walkthroughs", "validate", dir)
	wantLine := filepath.Join(dir, "tiny.yaml") + `:8:15: unknown scenario "email-with-no-acount" (closest: email-with-no-account`
	if code != ExitUsage || !strings.HasPrefix(out, wantLine) || !strings.Contains(errOut, "1 problem in "+dir+"; nothing there would load") {
		t.Errorf("broken: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if code, _, errOut := run(t, "walkthroughs", "validate", filepath.Join(dir, "missing")); code != ExitUsage || !strings.Contains(errOut, filepath.Join(dir, "missing")) {
		t.Errorf("missing dir: exit %d, %s", code, errOut)
	}
}

// --content DIR adds walkthroughs from DIR/walkthroughs (a content dir
// may hold only those); a broken one stops the command with exit 2.
func TestWalkthroughContentOverlay(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "walkthroughs", "tiny.yaml"), tinyWalkthrough)
	code, out, errOut := run(t, "--content", dir, "walkthrough")
	if code != ExitOK || !strings.Contains(out, "tiny-one") || strings.Count(out, "\n") != 7 {
		t.Errorf("overlay list: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = run(t, "--content", dir, "walkthrough", "tiny-one", "--export", "md")
	if code != ExitOK || !strings.HasPrefix(out, "# A tiny walkthrough\n") || !strings.Contains(out, "```json\n") {
		t.Errorf("overlay export: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, "--content", dir, "scenarios", "list"); code != ExitOK {
		t.Errorf("a content dir holding only walkthroughs breaks scenarios list: exit %d", code)
	}
	writeFile(t, filepath.Join(dir, "walkthroughs", "tiny.yaml"), strings.Replace(tinyWalkthrough, "minutes: 5", "minutes: lots", 1))
	code, out, errOut = run(t, "--content", dir, "walkthrough")
	if code != ExitUsage || out != "" || !strings.Contains(errOut, "tiny.yaml:4:10: minutes has the wrong type") || !strings.Contains(errOut, "none were loaded") {
		t.Errorf("broken overlay: exit %d\n%s", code, errOut)
	}
}

// walkthrough NAME presents it: the TUI starts on the audience view, or
// with --presenter on the presenter view, with the walkthroughs loaded
// (--content's too) and the theme.
func TestWalkthroughPresents(t *testing.T) {
	code, errOut, got := runWith(t, "walkthrough", "three-false-rows", "--theme", "light")
	if code != ExitOK || got == nil {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	if got.WalkthroughID != "three-false-rows" || got.Presenter || got.Walkthroughs == nil || got.Catalog == nil || got.Bank == nil || got.Theme != "light" {
		t.Errorf("options %+v", *got)
	}
	code, errOut, got = runWith(t, "walkthrough", "three-false-rows", "--presenter")
	if code != ExitOK || got == nil || !got.Presenter || got.WalkthroughID != "three-false-rows" {
		t.Errorf("--presenter: exit %d, %s, %+v", code, errOut, got)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "walkthroughs", "tiny.yaml"), tinyWalkthrough)
	code, errOut, got = runWith(t, "--content", dir, "walkthrough", "tiny-one")
	if code != ExitOK || got == nil {
		t.Fatalf("--content: exit %d, %s", code, errOut)
	}
	if _, ok := got.Walkthroughs.Get("tiny-one"); !ok {
		t.Error("--content's walkthrough is not among those the TUI got")
	}
	if code, errOut, got = runWith(t, "walkthrough", "no-such-one"); code != ExitUsage || got != nil || !strings.Contains(errOut, `no walkthrough "no-such-one"`) {
		t.Errorf("unknown: exit %d, %s", code, errOut)
	}
}
