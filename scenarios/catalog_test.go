package scenarios

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/errorlab/errorlab/assets"
)

// TestEmbeddedCatalogIsValid checks the built-in scenarios the way an
// instructor's --content is checked, and the way errorlab used to check
// them at every start: every file parses, names are valid, and each
// scenario's good-style response and best action agree with sim/rules
// under every revision. Default does not run the engine, so this test is
// what stops a bad embedded file.
func TestEmbeddedCatalogIsValid(t *testing.T) {
	sub, err := fs.Sub(assets.FS, "scenarios")
	if err != nil {
		t.Fatal(err)
	}
	checked, err := LoadFS(sub, embeddedLabel)
	if err != nil {
		t.Fatalf("built-in scenarios are not valid:\n%v", err)
	}
	if len(checked.Scenarios) == 0 {
		t.Fatal("no scenarios loaded")
	}
	c, err := Default()
	if err != nil {
		t.Fatalf("built-in scenarios do not load:\n%v", err)
	}
	if !slices.Equal(c.IDs(), checked.IDs()) {
		t.Fatalf("Default loads %v, the checked load %v", c.IDs(), checked.IDs())
	}
}

// TestDefaultLeavesTheEngineToTheTests shows the split: a file whose
// structure is sound but which the engine contradicts loads without the
// engine and is refused with it, at the line that is wrong.
func TestDefaultLeavesTheEngineToTheTests(t *testing.T) {
	sub, err := fs.Sub(assets.FS, "scenarios")
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(sub, "refund-past-return-window.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The refund refusal is a business error. Calling it transient (and
	// so retryable) is consistent on paper; only the engine's response
	// says otherwise.
	bad := []byte(strings.Replace(string(data), "errorCategory: business\n  isRetryable: false", "errorCategory: transient\n  isRetryable: true", 1))
	if string(bad) == string(data) {
		t.Fatal("the fixture no longer says errorCategory: business, isRetryable: false")
	}
	fsys := fstest.MapFS{"refund.yaml": {Data: bad}}
	if _, err := loadFS(fsys, "test", false); err != nil {
		t.Fatalf("without the engine the file should load: %v", err)
	}
	_, err = LoadFS(fsys, "test")
	var le *LoadError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "test/refund.yaml:") || !strings.Contains(err.Error(), "errorCategory") {
		t.Fatalf("with the engine the file should be refused at a line: %v", err)
	}
}
