package scenarios

import (
	"testing"
)

// TestEmbeddedCatalogIsValid loads the built-in scenarios the way errorlab
// does at start: every file parses, names are valid, and each scenario's
// good-style response and best action agree with sim/rules under every
// revision.
func TestEmbeddedCatalogIsValid(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatalf("built-in scenarios do not load:\n%v", err)
	}
	if len(c.Scenarios) == 0 {
		t.Fatal("no scenarios loaded")
	}
}
