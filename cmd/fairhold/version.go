package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is the release version; set with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func newVersionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the fairhold version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rev := ""
			if bi, ok := debug.ReadBuildInfo(); ok {
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" {
						rev = s.Value
					}
				}
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), map[string]string{
					"version": version, "go": runtime.Version(), "revision": rev,
				})
			}
			fmt.Fprintf(cmd.OutOrStdout(), "fairhold %s (%s", version, runtime.Version())
			if rev != "" {
				fmt.Fprintf(cmd.OutOrStdout(), ", %s", rev)
			}
			fmt.Fprintln(cmd.OutOrStdout(), ")")
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
