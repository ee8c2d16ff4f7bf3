package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/certify/strategy"
	"github.com/fairhold/fairhold/certify/suite"
	"github.com/fairhold/fairhold/fairness/beacon"
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/replayer"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
)

// completeFrom completes a value from a fixed list; with files, file names
// are offered too (a profile or strategy is a built-in name or a file).
func completeFrom(list func() []string, files bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, v := range list() {
			if strings.HasPrefix(v, toComplete) {
				out = append(out, v)
			}
		}
		if files {
			return out, cobra.ShellCompDirectiveDefault
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// faultNames lists the simulator's faults: round, session, log and dataset.
func faultNames() []string {
	var out []string
	for _, f := range append(sim.Faults(), sim.LogFaults()...) {
		out = append(out, f.Name)
	}
	for _, f := range sim.DatasetFaults() {
		out = append(out, f.Name)
	}
	return out
}

// completeFaults completes the last item of a comma-separated list of
// fault names, NAME[:RATE],...
func completeFaults(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	done, last := "", toComplete
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		done, last = toComplete[:i+1], toComplete[i+1:]
	}
	var out []string
	for _, n := range faultNames() {
		if strings.HasPrefix(n, last) {
			out = append(out, done+n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

func mathGames() []string { return []string{round.CasinoHoldem, round.LiveCasinoHoldem} }

func simulateGames() []string {
	return []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem}
}

// registerCompletions gives every flag and argument whose values are known
// its completion: games, schemes, profiles, fault names, beacon chains,
// suites, strategies. It goes by flag name over the whole tree, so a
// command added later completes its --game or --profile too.
func registerCompletions(root *cobra.Command) {
	byFlag := map[string]cobra.CompletionFunc{
		"scheme":          completeFrom(scheme.Names, false),
		"profile":         completeFrom(profile.Names, true),
		"faults":          completeFaults,
		"beacon-chain":    completeFrom(beacon.Names, false),
		"suite":           completeFrom(suite.Names, false),
		"findings-format": completeFrom(func() []string { return replayer.FindingsFormats }, false),
	}
	walk(root, func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), root.Name()+" ")
		flags := map[string]cobra.CompletionFunc{}
		for k, v := range byFlag {
			flags[k] = v
		}
		switch path {
		case "simulate":
			flags["game"] = completeFrom(simulateGames, false)
			flags["format"] = completeFrom(func() []string { return []string{"parquet", "jsonl"} }, false)
		case "beacon verify":
			flags["chain"] = completeFrom(beacon.Names, false)
		case "math":
			flags["strategy"] = completeFrom(strategy.Names, true)
			c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return completeFrom(mathGames, false)(cmd, args, toComplete)
			}
		case "profile show", "profile check":
			c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return completeFrom(profile.Names, true)(cmd, args, toComplete)
			}
		default:
			flags["game"] = completeFrom(layout.Games, false)
		}
		for name, fn := range flags {
			if c.Flags().Lookup(name) == nil {
				continue
			}
			if _, ok := c.GetFlagCompletionFunc(name); ok {
				continue
			}
			_ = c.RegisterFlagCompletionFunc(name, fn)
		}
	})
}
