package scenarios

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"

	"github.com/goccy/go-yaml"
)

// The helpers here let other content loaders (walkthroughs) read their
// files the way scenario files are read: the same safe read, the same
// hostile-text checks, the same strict decode and the same file:line:col
// problems.

// WalkthroughsDir is the folder of a content directory that holds
// classroom walkthroughs (package walkthrough reads it); a content
// directory may hold only that.
const WalkthroughsDir = "walkthroughs"

func hasWalkthroughs(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, WalkthroughsDir))
	return err == nil && info.IsDir()
}

// ContentFiles lists the *.yaml and *.yml files at the top of fsys, sorted
// by name.
func ContentFiles(fsys fs.FS) ([]string, error) { return filesWithExt(fsys, ".yaml", ".yml") }

// filesWithExt lists the files at the top of fsys whose extension is one
// of exts, sorted by name.
func filesWithExt(fsys fs.FS, exts ...string) ([]string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, friendlyFSError(err)
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && slices.Contains(exts, path.Ext(e.Name())) {
			files = append(files, e.Name())
		}
	}
	sort.Strings(files)
	return files, nil
}

// DecodeContentFile reads the file name of fsys with [ReadContentFile],
// runs [CheckYAMLText] on it when check is true (everything but the
// embedded files, which `go test` checks), and decodes it strictly into v:
// unknown fields and duplicate keys are errors. file names the file in
// problems. It returns the bytes read (for [ProblemAt]) and the problems;
// when there are any, v must not be used.
func DecodeContentFile(fsys fs.FS, name, file string, check bool, v any) ([]byte, []Problem) {
	data, ps := readChecked(fsys, name, file, check)
	if len(ps) > 0 {
		return data, ps
	}
	if err := yaml.UnmarshalWithOptions(data, v, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
		return data, []Problem{yamlProblem(file, err)}
	}
	return data, nil
}

// readChecked reads the file name of fsys with [ReadContentFile] and, when
// check is true, runs [CheckYAMLText] on it; file names the file in
// problems.
func readChecked(fsys fs.FS, name, file string, check bool) ([]byte, []Problem) {
	data, err := ReadContentFile(fsys, name)
	if err != nil {
		return nil, []Problem{{File: file, Msg: err.Error()}}
	}
	if !check {
		return data, nil
	}
	var ps []Problem
	for _, cp := range CheckYAMLText(data) {
		ps = append(ps, Problem{File: file, Line: cp.Line, Column: cp.Column, Msg: cp.Msg})
	}
	return data, ps
}

// ProblemAt is a problem located at a YAML path of a content file
// ("$.steps[3].scenario"), or at the nearest parent that exists (see
// [Locate]).
func ProblemAt(file string, data []byte, yamlPath, msg string, a ...any) Problem {
	return at(file, data, yamlPath, fmt.Sprintf(msg, a...))
}

// Overlay lays extra over base, as every --content overlay does: an item
// of extra replaces the item of base with the same id, in base's place,
// and the other items of extra follow in their order.
func Overlay[T any](base, extra []T, id func(T) string) []T {
	byID := make(map[string]T, len(extra))
	for _, x := range extra {
		byID[id(x)] = x
	}
	out := make([]T, 0, len(base)+len(extra))
	seen := make(map[string]bool, len(base))
	for _, x := range base {
		if repl, ok := byID[id(x)]; ok {
			x = repl
		}
		out, seen[id(x)] = append(out, x), true
	}
	for _, x := range extra {
		if !seen[id(x)] {
			out, seen[id(x)] = append(out, x), true
		}
	}
	return out
}
