package common

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/errorlab/errorlab/sim/grade"
	"github.com/errorlab/errorlab/sim/rules"
)

// Messages a page sends to the root model, which owns the screen stack.
// A page never builds another page: it asks the root with one of these.
type (
	// OpenLabMsg opens the lab list (from Home).
	OpenLabMsg struct{}
	// OpenReferenceMsg opens the rules Reference; Section, when set, is the
	// LESSON-RULES section to show first ("§4").
	OpenReferenceMsg struct{ Section string }
	// OpenScenarioMsg opens the scenario screen on scenario ID.
	OpenScenarioMsg struct{ ID string }
	// ReplaceScenarioMsg swaps the current scenario screen for another
	// (n: next scenario), keeping the stack depth.
	ReplaceScenarioMsg struct{ ID string }
	// OpenAgentPickerMsg opens the list of scenarios the agents can play.
	OpenAgentPickerMsg struct{}
	// OpenAgentsMsg opens the agents screen on a scenario or a series;
	// FromScenario is set when it is opened from that scenario's screen,
	// Rev is the spec revision to play ("" = the scenario's own).
	OpenAgentsMsg struct {
		ID           string
		FromScenario bool
		Rev          rules.Revision
	}
	// OpenExerciseMsg opens the propagation exercise of a scenario.
	OpenExerciseMsg struct{ ID string }
	// OpenQuizMsg opens the practice & exam menu (from Home).
	OpenQuizMsg struct{}
	// OpenWalkthroughsMsg opens the list of classroom walkthroughs (Home's
	// Present).
	OpenWalkthroughsMsg struct{}
	// OpenServeMsg opens the serve screen (Home's Serve): the mock server
	// over HTTP for the learner's own client, watched live.
	OpenServeMsg struct{}
	// OpenWalkthroughMsg presents walkthrough ID: the audience view (the
	// room's screen, which hosts the link), or with Presenter the
	// presenter view (notes, the next step, the timer) joined to it.
	OpenWalkthroughMsg struct {
		ID        string
		Presenter bool
	}
	// OpenCheckMsg opens Check a server (from Home).
	OpenCheckMsg struct{}
	// OpenFindingsMsg opens the Check screen on one exchange (the lab's
	// c): what `errorlab check` finds in Response, graded under Spec with
	// Tools. Title names the exchange. Truth, when known (a scenario's),
	// is what really happened on the call: it lets the grader see a
	// failure passed off as a plausible empty result.
	OpenFindingsMsg struct {
		Title             string
		Spec              rules.Revision
		Request, Response []byte
		Tools             []grade.Tool
		Truth             *rules.Situation
	}
	// NavMsg moves within a page's own screens (the quiz menu, a session,
	// its results): push Push, after dropping the top one when Replace is
	// set, or go back one screen when Pop is set.
	NavMsg struct {
		Push    Screen
		Replace bool
		Pop     bool
	}
)

// AgentsTimeout bounds the computation of the simulated agents' runs when
// a screen opens.
const AgentsTimeout = 30 * time.Second

// Send is a command that delivers msg.
func Send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// PanicMsg reports a panic inside a command, which would otherwise end
// the program. What is the sentence for the status line.
type PanicMsg struct{ What string }

// Safe wraps a command so that a panic in the engine becomes a PanicMsg
// (an error in the status line) instead of killing the program. what
// names the work ("the call").
func Safe(what string, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = PanicMsg{What: fmt.Sprintf("%s failed unexpectedly: %v", what, r)}
			}
		}()
		return cmd()
	}
}
