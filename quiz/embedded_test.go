package quiz

import (
	"io/fs"
	"slices"
	"testing"

	"github.com/errorlab/errorlab/assets"
	"github.com/errorlab/errorlab/scenarios"
)

// TestEmbeddedBankIsValid checks the built-in questions the way an
// instructor's --questions files are checked: the hostile-text checks,
// every question's fields, and every cited scenario present. DefaultBank
// skips the hostile-text checks at start, so this test is what stops a
// bad embedded file.
func TestEmbeddedBankIsValid(t *testing.T) {
	sub, err := fs.Sub(assets.FS, "questions")
	if err != nil {
		t.Fatal(err)
	}
	checked, err := LoadBank(sub, embeddedLabel)
	if err != nil {
		t.Fatalf("built-in questions are not valid:\n%v", err)
	}
	c, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	if ps := ScenarioRefs(checked, c); len(ps) > 0 {
		t.Fatalf("built-in questions cite missing scenarios: %v", ps)
	}
	b := bank(t)
	ids := func(b *Bank) []string {
		var out []string
		for _, q := range b.Questions {
			out = append(out, q.ID)
		}
		return out
	}
	if !slices.Equal(ids(b), ids(checked)) {
		t.Fatalf("DefaultBank loads %d questions, the checked load %d", len(b.Questions), len(checked.Questions))
	}
}
