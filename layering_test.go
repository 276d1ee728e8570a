package main

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// listedPackage is what `go list -json` says of one package.
type listedPackage struct {
	ImportPath string
	Imports    []string // direct imports
	Deps       []string // every package it depends on, transitively
}

const module = "github.com/errorlab/errorlab"

// packages lists every package of the module with its imports, the way
// the go command sees them (tests' imports are not counted).
func packages(t *testing.T) []listedPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []listedPackage
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

// under reports whether path is dir or inside it (dir relative to the module).
func under(path, dir string) bool {
	full := module + "/" + dir
	return path == full || strings.HasPrefix(path, full+"/")
}

// layerRules are the import rules of DESIGN.md and issue 7, each a check
// of one import from one package; deps says whether every transitive
// dependency is checked or only the direct imports.
var layerRules = []struct {
	name string
	deps bool
	bad  func(from, to string) bool
}{
	{"a page imports another page", false, func(from, to string) bool {
		return under(from, "ui/pages") && under(to, "ui/pages") && pageOf(from) != pageOf(to)
	}},
	{"a page imports the root ui package or the command line", false, func(from, to string) bool {
		return under(from, "ui/pages") && (to == module+"/ui" || under(to, "ui/cli"))
	}},
	{"a component imports a page, the root ui package or the command line", true, func(from, to string) bool {
		return under(from, "ui/components") && (under(to, "ui/pages") || to == module+"/ui" || under(to, "ui/cli"))
	}},
	{"ui/common, ui/styles or ui/keymap import a component or a page", true, func(from, to string) bool {
		low := under(from, "ui/common") || under(from, "ui/styles") || under(from, "ui/keymap")
		return low && (under(to, "ui/components") || under(to, "ui/pages") || to == module+"/ui")
	}},
	{"the engine (sim/) imports ui, scenarios, quiz or assets", true, func(from, to string) bool {
		return under(from, "sim") && (under(to, "ui") || under(to, "scenarios") || under(to, "quiz") || under(to, "assets"))
	}},
	{"sim/rules imports another package of errorlab", true, func(from, to string) bool {
		return under(from, "sim/rules") && strings.HasPrefix(to, module+"/")
	}},
	{"something outside ui (but main) imports ui", true, func(from, to string) bool {
		return from != module && !under(from, "ui") && under(to, "ui")
	}},
}

// pageOf is the page a package under ui/pages belongs to ("scenario").
func pageOf(path string) string {
	rest := strings.TrimPrefix(path, module+"/ui/pages/")
	p, _, _ := strings.Cut(rest, "/")
	return p
}

// Layering is a test, not a convention: pages never import each other,
// components never import pages, and the engine knows nothing of the
// terminal, the content or the quiz.
func TestLayering(t *testing.T) {
	pkgs := packages(t)
	pages := 0
	for _, p := range pkgs {
		if under(p.ImportPath, "ui/pages") {
			pages++
		}
		for _, r := range layerRules {
			list := p.Imports
			if r.deps {
				list = p.Deps
			}
			for _, to := range list {
				if r.bad(p.ImportPath, to) {
					t.Errorf("%s: %s imports %s", r.name, p.ImportPath, to)
				}
			}
		}
	}
	if pages == 0 {
		t.Error("no package under ui/pages: the layering rules check nothing")
	}
}

// The rules themselves catch what they are meant to catch.
func TestLayerRulesCatchViolations(t *testing.T) {
	cases := []struct{ from, to, rule string }{
		{"ui/pages/agents", "ui/pages/scenario", "a page imports another page"},
		{"ui/pages/agents", "ui", "a page imports the root ui package or the command line"},
		{"ui/components/pane", "ui/pages/home", "a component imports a page, the root ui package or the command line"},
		{"ui/common", "ui/components/pane", "ui/common, ui/styles or ui/keymap import a component or a page"},
		{"sim/agent", "scenarios", "the engine (sim/) imports ui, scenarios, quiz or assets"},
		{"sim/grade", "ui/common", "the engine (sim/) imports ui, scenarios, quiz or assets"},
		{"sim/rules", "sim/wire", "sim/rules imports another package of errorlab"},
		{"quiz", "ui/common", "something outside ui (but main) imports ui"},
	}
	for _, c := range cases {
		hit := false
		for _, r := range layerRules {
			if r.name == c.rule && r.bad(module+"/"+c.from, strings.TrimSuffix(module+"/"+c.to, "/")) {
				hit = true
			}
		}
		if !hit {
			t.Errorf("%s → %s is not caught by %q", c.from, c.to, c.rule)
		}
	}
	for _, ok := range [][2]string{{"ui/pages/quiz", "ui/pages/quiz/internal"}, {"ui/pages/scenario", "ui/components/verdict"}, {"ui/cli", "ui"}, {"sim/agent", "sim/rules"}} {
		for _, r := range layerRules {
			if r.bad(module+"/"+ok[0], module+"/"+ok[1]) {
				t.Errorf("%s → %s is allowed, but %q rejects it", ok[0], ok[1], r.name)
			}
		}
	}
}
