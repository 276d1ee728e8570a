package cli

import (
	"github.com/spf13/cobra"

	"github.com/errorlab/errorlab/quiz"
)

// reportCmd is `errorlab report [--format md|json]`: progress for a
// teacher, read without changing the state directory. The JSON shape is
// quiz.Summary's.
func (a *app) reportCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Export progress for a teacher (per topic, exam history, missed questions)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "md" && format != "json" {
				return usagef("unknown --format %q: use md or json", format)
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
	return cmd
}
