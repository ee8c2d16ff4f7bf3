package main

import (
	"github.com/spf13/cobra"
)

// newRootCmd builds the fairhold command tree. Every subcommand is built by
// its own constructor; nothing is registered globally.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "fairhold",
		Short: "Provably-fair audit and certification toolkit for casino Hold'em games",
		Long: `fairhold re-derives the cards of provably-fair casino Hold'em rounds from their
seeds, re-settles logged rounds under declared rules, and runs the certification
suites test labs use (test vectors, shuffle statistics, exact game mathematics).

Exit codes: 0 ok, 1 error, 2 usage, 3 verification failed or findings present.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError(err) })
	root.AddCommand(
		newDemoCmd(),
		// Players.
		newSeedCmd(), newDealCmd(), newVerifyCmd(), newBeaconCmd(),
		newEvalCmd(), newSettleCmd(),
		// Regulators.
		newSimulateCmd(), newReplayCmd(), newMergeCmd(), newProfileCmd(),
		// Test labs.
		newSelftestCmd(), newStatsCmd(), newMathCmd(),
		newCertifyCmd(), newVectorsCmd(), newKeysCmd(), newReportCmd(),
		newVersionCmd(),
	)
	return root
}
