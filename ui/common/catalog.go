package common

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/serve"
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

// ServeScenario is what the serve engine is told of a lab scenario
// (`errorlab serve --scenario ID`, and a replay of its log): the call it
// makes and its feedback for each recovery action. nil for nil.
func ServeScenario(sc *scenarios.Scenario) *serve.Scenario {
	if sc == nil {
		return nil
	}
	return &serve.Scenario{ID: sc.ID, Title: sc.Title, Situation: strings.TrimSpace(sc.Situation),
		Tool: sc.Call.Tool, Arguments: sc.Call.Arguments, Raw: sc.Call.Raw, Feedback: sc.Feedback}
}

// ReadReplay reads the exchange log at path (`errorlab serve --log`) for
// the watch screen's replay (serve.ReadLog), finding the scenario it names
// in cat. A path starting with ~/ is in the home directory. Errors: the
// file cannot be opened (the os error), or a *serve.LogError naming each
// bad line as PATH:LINE.
func ReadReplay(path string, cat *scenarios.Catalog) (*serve.Server, error) {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, rest)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return serve.ReadLog(f, path, serve.ReplayOptions{Scenario: func(id string) *serve.Scenario {
		if cat == nil {
			return nil
		}
		sc, _ := cat.Get(id)
		return ServeScenario(sc)
	}})
}
