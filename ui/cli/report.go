package cli

import (
	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/quiz"
)

// reportCmd is `errorlab report [--format md|json]`: progress for a
// teacher, read without changing the state directory. The JSON shape is
// quiz.Summary's. With --class, a class session's answers and tallies
// instead (room.Record's shape).
func (a *app) reportCmd() *cobra.Command {
	var format, session, out string
	var class bool
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Export progress for a teacher (per topic, exam history, missed questions)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "md" && format != "json" {
				return usagef("unknown --format %q: use md or json", format)
			}
			if class {
				return a.reportClass(session, format, out)
			}
			if session != "" || out != "" {
				return usagef("--session and --out go with --class")
			}
			prog, err := quiz.ReadProgress(a.stateDir)
			if err != nil {
				return err
			}
			pool, c, err := a.pool()
			if err != nil {
				return err
			}
			sum := quiz.Summarize(pool, prog)
			sum.Scenarios = len(c.Scenarios)
			if format == "json" {
				return sum.WriteJSON(a.Stdout)
			}
			return sum.WriteMarkdown(a.Stdout)
		},
	}
	cmd.Flags().StringVar(&format, "format", "md", "md or json")
	cmd.Flags().BoolVar(&class, "class", false, "a class session of errorlab classroom: every answer by student and poll, the tally of each")
	cmd.Flags().StringVar(&session, "session", "", "with --class, the session's `ID` (default: the latest)")
	cmd.Flags().StringVar(&out, "out", "", "with --class, write class-ID.md and class-ID.json into this `DIR` instead of printing")
	return cmd
}
