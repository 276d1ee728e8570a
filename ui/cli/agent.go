package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/scenarios"
	"github.com/errorlab/errorlab/sim/agent"
	"github.com/errorlab/errorlab/sim/rules"
)

// agentCmd is `errorlab agent`: a simulated agent plays a scenario (or the
// four-failures series) on a virtual clock. The JSON of --json is
// agent.Run, or agent.CoordinatorRun with --coordinator.
func (a *app) agentCmd() *cobra.Command {
	var id, kindFlag string
	var coordinator, asJSON bool
	cmd := &cobra.Command{
		Use:   "agent --scenario ID (--agent naive|informed | --coordinator)",
		Short: "Play a scenario with a simulated agent on a virtual clock",
		Long: "Runs a simulated agent through a scenario: every tool call is a real tools/call to the\n" +
			"mock server; waits cost no real time. --agent informed reads the error metadata and follows\n" +
			"the lesson rules; --agent naive resends every failure. --coordinator plays the scenario as a\n" +
			"subagent job and prints the one report the subagent sends upward.\n" +
			"The scenario id four-failures runs the lessons' four failures of one afternoon in a row.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if strings.TrimSpace(id) == "" {
				return usagef("--scenario is required (see `errorlab scenarios list`, or use %s)", scenarios.Afternoon.ID)
			}
			if coordinator && cmd.Flags().Changed("agent") {
				return usagef("--coordinator plays the subagent and its coordinator; leave out --agent")
			}
			if coordinator && id == scenarios.Afternoon.ID {
				return usagef("%s is a series of four scenarios; --coordinator plays one scenario as a subagent job (try staff-record-denied)", id)
			}
			c, err := a.catalog()
			if err != nil {
				return err
			}
			if coordinator {
				return a.coordinate(c, id, asJSON)
			}
			kind, err := agent.ParseKind(kindFlag)
			if err != nil {
				return UsageError{err}
			}
			run, err := play(c, id, kind)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.Stdout, run)
			}
			printRun(a.Stdout, run)
			return nil
		},
	}
	cmd.Flags().StringVar(&id, "scenario", "", "scenario id, or "+scenarios.Afternoon.ID)
	cmd.Flags().StringVar(&kindFlag, "agent", "informed", "naive or informed")
	cmd.Flags().BoolVar(&coordinator, "coordinator", false, "play the scenario as a subagent job and show its report")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

// play runs the agent through scenario id, or through the series.
func play(c *scenarios.Catalog, id string, kind agent.Kind) (*agent.Run, error) {
	ctx := context.Background()
	if id == scenarios.Afternoon.ID {
		_, tasks, err := c.SeriesTasks(id)
		if err != nil {
			return nil, err
		}
		return agent.PlaySeries(ctx, id, tasks, kind)
	}
	s, found := c.Get(id)
	if !found {
		return nil, unknownScenario(c, id)
	}
	return agent.Play(ctx, s.Task(), kind)
}

// coordinate plays scenario id as a subagent job and prints what the
// subagent did, its one report and the coordinator's answer.
func (a *app) coordinate(c *scenarios.Catalog, id string, asJSON bool) error {
	s, found := c.Get(id)
	if !found {
		return unknownScenario(c, id)
	}
	d, err := s.Delegation()
	if err != nil {
		return UsageError{err}
	}
	cr, err := agent.Delegate(context.Background(), d)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(a.Stdout, cr)
	}
	printSteps(a.Stdout, cr.Subagent)
	fmt.Fprintf(a.Stdout, "\nthe one report sent to the coordinator:\n")
	_ = writeJSON(a.Stdout, cr.Report)
	action := string(cr.CoordinatorAction)
	if action == "" {
		action = "answer from the results"
	}
	fmt.Fprintf(a.Stdout, "coordinator (%s): %s\nwhy: %s\n", action, cr.CoordinatorSays, cr.Why)
	return nil
}

// printRun writes a run as a readable timeline, with a heading per task
// for a series, then the sums and the verdict.
func printRun(w io.Writer, r *agent.Run) {
	if len(r.Parts) > 0 {
		fmt.Fprintf(w, "%s agent · %s\n", r.Agent, r.Scenario)
		for i, p := range r.Parts {
			fmt.Fprintf(w, "\n── %d/%d %s · style %s · %s\n", i+1, len(r.Parts), p.Scenario, p.Style, p.Verdict)
			printStepList(w, p.Steps)
		}
		fmt.Fprintln(w)
	} else {
		printSteps(w, r)
	}
	fmt.Fprintf(w, "calls %d · %.1f virtual seconds · verdict: %s\n", r.Calls, r.VirtualSeconds, r.Verdict)
	if r.Why != "" {
		fmt.Fprintf(w, "why: %s\n", r.Why)
	}
}

// printSteps writes a run's heading and steps.
func printSteps(w io.Writer, r *agent.Run) {
	who := string(r.Agent) + " agent"
	if r.Agent == "subagent" {
		who = "subagent"
	}
	fmt.Fprintf(w, "%s · %s · style %s\n", who, r.Scenario, r.Style)
	printStepList(w, r.Steps)
}

func printStepList(w io.Writer, steps []agent.Step) {
	for _, st := range steps {
		switch st.Kind {
		case agent.StepCall, agent.StepEscalate:
			what := st.Tool
			if st.Exchange != nil && st.Exchange.Call.Raw != "" {
				what = "hand-written bytes " + string(st.Exchange.Request)
			} else {
				args, _ := json.Marshal(st.Arguments)
				what += " " + string(args)
			}
			fmt.Fprintf(w, "  t=%6.1fs  %-8s %s  → %s\n", st.T, st.Kind, what, outcomeText(st))
		case agent.StepWait:
			fmt.Fprintf(w, "  t=%6.1fs  %-8s %gs  (%s)\n", st.T, st.Kind, st.Seconds, st.Text)
		case agent.StepMessage:
			fmt.Fprintf(w, "  t=%6.1fs  %-8s to %s: %s\n", st.T, st.Kind, st.To, st.Text)
		}
	}
}

func outcomeText(st agent.Step) string {
	switch {
	case st.Protocol != 0:
		return fmt.Sprintf("protocol error %d", st.Protocol)
	case st.Outcome == nil:
		return "?"
	case st.Outcome.Layer == rules.LayerExecution:
		cat := string(st.Outcome.ErrorCategory)
		if cat == "" {
			cat = "no category"
		}
		return "isError true (" + cat + ")"
	case st.Outcome.Empty:
		return "success, empty"
	}
	return "success"
}
