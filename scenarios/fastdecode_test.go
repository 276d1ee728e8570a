package scenarios

import (
	"io/fs"
	"reflect"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/errorlab/errorlab/assets"
)

// The embedded files are decoded at start by yaml.v3, the overlays by
// goccy/go-yaml: on every embedded file both give the same Scenario.
func TestFastDecodeMatches(t *testing.T) {
	sub, err := fs.Sub(assets.FS, "scenarios")
	if err != nil {
		t.Fatal(err)
	}
	files, err := ContentFiles(sub)
	if err != nil || len(files) == 0 {
		t.Fatalf("no embedded scenarios: %v", err)
	}
	for _, name := range files {
		data, err := fs.ReadFile(sub, name)
		if err != nil {
			t.Fatal(err)
		}
		var fast, slow Scenario
		if !fastDecode(data, &fast) {
			t.Errorf("%s: yaml.v3 refuses a file the tests accept", name)
			continue
		}
		if err := yaml.UnmarshalWithOptions(data, &slow, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: yaml.v3 and goccy/go-yaml decode it differently:\nyaml.v3: %+v\ngoccy:   %+v", name, fast, slow)
		}
	}
}

// A field no Scenario has is refused by the fast decoder too, so the
// slower one reports it with its place.
func TestFastDecodeRefusesUnknownFields(t *testing.T) {
	var s Scenario
	if fastDecode([]byte("id: x\ncolour: blue\n"), &s) {
		t.Error("yaml.v3 accepted an unknown field")
	}
}
