// Package seedcheck finds sentences copied from the source lessons. The
// product must write every question, explanation and scenario anew: a run
// of Window words shared with a seed lesson is a copy.
//
// The seeds themselves live outside the repository (../shared/seeds); the
// repository keeps only hashes of their word runs (testdata/seed-shingles.txt),
// so the check runs anywhere, CI included, without the seed text.
package seedcheck

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// Window is the length of a copied run, in words.
const Window = 8

// Words lowercases text and splits it into words of letters and digits;
// punctuation and markup separate words.
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '£'
	})
}

// Hash identifies one run of words.
func Hash(run []string) uint64 {
	h := fnv.New64a()
	for _, w := range run {
		_, _ = io.WriteString(h, w)
		_, _ = h.Write([]byte{0})
	}
	return h.Sum64()
}

// Shingles returns the hashes of every Window-word run of text.
func Shingles(text string) map[uint64]bool {
	w := Words(text)
	out := map[uint64]bool{}
	for i := 0; i+Window <= len(w); i++ {
		out[Hash(w[i:i+Window])] = true
	}
	return out
}

// Copied returns the Window-word runs of text whose hash is in seeds.
func Copied(text string, seeds map[uint64]bool) []string {
	w := Words(text)
	var out []string
	for i := 0; i+Window <= len(w); i++ {
		if seeds[Hash(w[i:i+Window])] {
			out = append(out, strings.Join(w[i:i+Window], " "))
		}
	}
	return out
}

// ReadHashes reads a fingerprint file: one hex hash per line.
func ReadHashes(path string) (map[uint64]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[uint64]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var h uint64
		if _, err := fmt.Sscanf(sc.Text(), "%x", &h); err == nil {
			out[h] = true
		}
	}
	return out, sc.Err()
}

// WriteHashes writes the fingerprints of every seed file in dir.
func WriteHashes(dir, path string) error {
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) == 0 {
		return fmt.Errorf("no seed files in %s", dir)
	}
	all := map[uint64]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		for h := range Shingles(string(b)) {
			all[h] = true
		}
	}
	keys := make([]uint64, 0, len(all))
	for h := range all {
		keys = append(keys, h)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	var b strings.Builder
	for _, h := range keys {
		fmt.Fprintf(&b, "%016x\n", h)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
