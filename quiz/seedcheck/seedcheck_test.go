package seedcheck

import (
	"os"
	"path/filepath"
	"testing"
)

const fingerprints = "testdata/seed-shingles.txt"

// TestFingerprintsMatchSeeds regenerates the fingerprints from the seed
// lessons when they are beside the repository (../shared/seeds) and fails
// if the committed file is stale. Where the seeds are absent (a clean CI
// clone) the committed fingerprints are used as they are.
func TestFingerprintsMatchSeeds(t *testing.T) {
	seeds := filepath.Join("..", "..", "..", "shared", "seeds")
	if _, err := os.Stat(seeds); err != nil {
		t.Skipf("seed lessons not beside the repository (%v); using the committed fingerprints", err)
	}
	tmp := filepath.Join(t.TempDir(), "f.txt")
	if err := WriteHashes(seeds, tmp); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(tmp)
	got, err := os.ReadFile(fingerprints)
	if err != nil || string(got) != string(want) {
		if os.Getenv("UPDATE_SEEDS") != "" {
			_ = os.WriteFile(fingerprints, want, 0o644)
			return
		}
		t.Fatalf("testdata/seed-shingles.txt is missing or stale; run UPDATE_SEEDS=1 go test ./quiz/seedcheck")
	}
}

func TestCopiedFindsAnEightWordRun(t *testing.T) {
	seeds := Shingles("The quick brown fox jumps over the lazy dog every single day.")
	if got := Copied("Yesterday the quick brown fox jumps over the lazy dog again.", seeds); len(got) == 0 {
		t.Fatal("an eight-word run shared with the seed was not found")
	}
	if got := Copied("The quick brown fox jumps over a sleepy cat.", seeds); len(got) != 0 {
		t.Fatalf("a seven-word overlap counted as a copy: %v", got)
	}
	if got := Copied("THE QUICK, brown fox -- jumps over the lazy dog!", seeds); len(got) == 0 {
		t.Fatal("case and punctuation hid a copy")
	}
}
