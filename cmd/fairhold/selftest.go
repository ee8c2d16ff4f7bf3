package main

import (
	"github.com/spf13/cobra"
)

// newSelftestCmd is filled in by the evaluator work (issue 2).
func newSelftestCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "selftest",
		Short: "Check this machine: enumerate every 5- and 7-card hand and compare with published counts",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usageErrorf("selftest: not built yet")
		},
	}
}
