package common

import (
	"fmt"
	"strings"

	"github.com/errorlab/errorlab/scenarios"
)

// UnknownScenario is the status line's sentence for an id the catalogue
// does not hold: `no scenario "x"; did you mean a, b, c?` (the three
// closest ids, when there are any).
func UnknownScenario(cat *scenarios.Catalog, id string) string {
	msg := fmt.Sprintf("no scenario %q", id)
	if len(cat.Scenarios) > 0 {
		msg += "; did you mean " + strings.Join(cat.Closest(id, 3), ", ") + "?"
	}
	return msg
}
