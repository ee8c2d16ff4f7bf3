package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// exitCodesHelp is the table of exit codes, in the root help and the
// README.
const exitCodesHelp = `Exit codes, the same in every command:
  0  ok: done, verified, certified, no findings
  1  error: an input file that does not exist or cannot be read, an output
     that cannot be written, any other I/O failure
  2  usage: bad flags or arguments, an unknown command or help topic, an
     unknown completion shell, malformed input (a file or value whose content
     is wrong: the file, row and field are named)
  3  verification failed, findings present, a check or certification failed,
     or a partial claim without --allow-partial

With --json every command prints one JSON object whose "verdict" is one of
ok, verified, partial, failed, findings (exit 0 or 3) or error (exit 1 or 2,
with "error" and "exit_code").`

// newRootCmd builds the fairhold command tree. Every subcommand is built by
// its own constructor; nothing is registered globally.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "fairhold",
		Short: "Provably-fair audit and certification toolkit for casino Hold'em games",
		Long: `fairhold re-derives the cards of provably-fair casino Hold'em rounds from their
seeds, re-settles logged rounds under declared rules, and runs the certification
suites test labs use (test vectors, shuffle statistics, exact game mathematics).

` + exitCodesHelp,
		Version:       buildVersion().String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("{{.Version}}\n")
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
		// Operators.
		newCommitlogCmd(), newReceiptsCmd(),
		newVersionCmd(),
		newServeCmd(),
		newGendocsCmd(),
	)
	root.SetHelpCommand(newHelpCmd())
	root.InitDefaultCompletionCmd()
	finishTree(root)
	return root
}

// longCommands are the commands that may run for minutes: they take
// --progress.
var longCommands = []string{
	"demo", "replay", "simulate", "math", "stats", "stats nist", "certify",
}

// finishTree applies the rules every command follows: a group of commands
// refuses an unknown subcommand (exit 2) instead of printing its help; the
// completion command refuses an unknown shell; long commands take
// --progress; flags and arguments complete their values.
func finishTree(root *cobra.Command) {
	for _, path := range longCommands {
		if c, _, err := root.Find(strings.Fields(path)); err == nil && c != root && c.Flags().Lookup("progress") == nil {
			addProgressFlag(c)
		}
	}
	walk(root, func(c *cobra.Command) {
		if c != root && !c.Runnable() && c.HasSubCommands() {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					if cmd.Name() == "completion" {
						return usageErrorf("completion: unknown shell %q, want bash, zsh, fish or powershell", args[0])
					}
					return usageErrorf("unknown command %q for %q", args[0], cmd.CommandPath())
				}
				return cmd.Help()
			}
		}
	})
	registerCompletions(root)
}

// walk calls f on c and every command below it.
func walk(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, s := range c.Commands() {
		walk(s, f)
	}
}

// newHelpCmd is the help command; unlike cobra's, an unknown topic is a
// usage error (exit 2).
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help prints the help of any command: fairhold help [path to command].",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil || cmd == nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []string
			for _, s := range cmd.Commands() {
				if s.IsAvailableCommand() && strings.HasPrefix(s.Name(), toComplete) {
					out = append(out, s.Name()+"\t"+s.Short)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || cmd == nil || len(rest) > 0 {
				return usageErrorf("help: unknown command %q; see 'fairhold help'", strings.Join(args, " "))
			}
			cmd.InitDefaultHelpFlag()
			cmd.InitDefaultVersionFlag()
			return cmd.Help()
		},
	}
}
