package ui

import (
	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/ui/styles"
)

// buildReference renders the embedded Reference page at width w with
// lipgloss's default renderer (the tests' Ascii profile) and returns it
// with the line and name of each section.
func buildReference(st *styles.Styles, w int) (string, []int, []string) {
	ref, err := scenarios.DefaultReference()
	if err != nil {
		panic(err)
	}
	return referencePage(referenceDoc(nil, st, ref), w)
}
