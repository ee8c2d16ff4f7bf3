package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

// faultsManifest is the file in the output directory that lists the
// injected faults, one JSON object a line: round_id, fault, code.
const faultsManifest = "faults.jsonl"

type simulateOptions struct {
	game       string
	rounds     int64
	out        string
	seed       uint64
	players    int
	faults     string
	format     string
	profile    string
	listFaults bool
	asJSON     bool
	rowGroup   int
	optimal    string
}

type faultListing struct {
	Name        string   `json:"name"`
	Games       []string `json:"games"`
	Finding     string   `json:"finding"`
	Description string   `json:"description"`
}

func newSimulateCmd() *cobra.Command {
	var o simulateOptions
	cmd := &cobra.Command{
		Use:   "simulate --game GAME --rounds N --out DIR [--seed S] [--players P] [--faults NAME[:RATE],...]",
		Short: "Simulate a provably-fair operator's round logs, honest or with injected faults",
		Long: `Simulate an operator of casino-holdem, live-casino-holdem or double-holdem and
write its round log to DIR: Parquet parts (part-00000.rounds.parquet and the child
tables, docs/log-format.md) or, with --format jsonl, part-00000.rounds.jsonl. The operator is
honest: server seeds committed before use and revealed after, hash chains on the
live table, per-player client seeds and nonces, bets auto-adjusted to the table
limits, settlement by the rules profile, wallets with balances, occasional void
rounds. The same --seed gives the same files, byte for byte.

Casino Hold'em players follow one of the strategies always-call, basic (call
with a pair or better, an ace or a king, or four to a flush) and random (fold a
quarter of the time). With --optimal-strategy FILE, a strategy file written by
'fairhold math GAME --strategy-out FILE' for the same rules profile, a quarter
of the players follow the exact optimal strategy instead of the basic one.

--faults injects faults from the catalogue (--list-faults) at a rate per round
(per seed session for the session faults; default 0.01). Every injected fault
is listed in DIR/faults.jsonl (round_id, fault, code): the findings a replay
must report.`,
		Example: `  fairhold simulate --game casino-holdem --rounds 100000 --out day1
  fairhold simulate --game double-holdem --rounds 5000 --out dh --faults dh-pot-wrong-winner:0.02,cards-mismatch
  fairhold simulate --list-faults --json
  fairhold math casino-holdem --strategy-out strategy.parquet   # exit 3: a published claim fails
  fairhold simulate --game casino-holdem --rounds 100000 --out day1 --optimal-strategy strategy.parquet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.listFaults {
				return listFaults(cmd, o.asJSON)
			}
			return runSimulate(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.game, "game", "", "casino-holdem, live-casino-holdem or double-holdem")
	f.Int64Var(&o.rounds, "rounds", 0, "number of rounds (hands) to simulate")
	f.StringVar(&o.out, "out", "", "output directory (created if needed)")
	f.Uint64Var(&o.seed, "seed", 1, "simulation seed: the same seed gives the same log")
	f.IntVar(&o.players, "players", 0, "players: casino-holdem players taking turns, live-casino-holdem player pool, double-holdem seats (2..10); 0 = default")
	f.StringVar(&o.faults, "faults", "", "faults to inject, NAME[:RATE],... (see --list-faults)")
	f.StringVar(&o.format, "format", "parquet", "parquet or jsonl")
	f.StringVar(&o.profile, "profile", "", "rules profile, a built-in name or a JSON file (default: the built-in profile of the game)")
	f.IntVar(&o.rowGroup, "row-group", roundlog.DefaultRowGroupRounds, "rounds per Parquet row group at most (a row group also ends when a child table reaches 65,536 rows)")
	f.StringVar(&o.optimal, "optimal-strategy", "", "Casino Hold'em: a strategy `FILE` written by 'fairhold math --strategy-out' for the same profile; a quarter of the players follow it")
	f.BoolVar(&o.listFaults, "list-faults", false, "list the fault catalogue and exit")
	f.BoolVar(&o.asJSON, "json", false, "with --list-faults: print JSON")
	return cmd
}

func listFaults(cmd *cobra.Command, asJSON bool) error {
	fs := sim.Faults()
	out := make([]faultListing, len(fs))
	for i, f := range fs {
		out[i] = faultListing{Name: f.Name, Games: f.Games, Finding: string(f.Finding), Description: f.Description}
	}
	if asJSON {
		return writeJSON(cmd.OutOrStdout(), out)
	}
	w := cmd.OutOrStdout()
	for _, f := range out {
		fmt.Fprintf(w, "%s -> %s %v\n    %s\n", f.Name, f.Finding, f.Games, f.Description)
	}
	return nil
}

func runSimulate(cmd *cobra.Command, o simulateOptions) error {
	switch {
	case o.game == "":
		return usageErrorf("--game is required (casino-holdem, live-casino-holdem or double-holdem)")
	case o.out == "":
		return usageErrorf("--out is required")
	case o.rounds <= 0:
		return usageErrorf("--rounds %d: want a positive number", o.rounds)
	case o.format != "parquet" && o.format != "jsonl":
		return usageErrorf("--format %q: want parquet or jsonl", o.format)
	case o.rowGroup <= 0:
		return usageErrorf("--row-group %d: want a positive number", o.rowGroup)
	}
	faults, err := sim.ParseFaults(o.faults)
	if err != nil {
		return usageError(err)
	}
	cfg := sim.Config{Game: o.game, Rounds: o.rounds, Seed: o.seed, Players: o.players, Faults: faults}
	if o.profile != "" {
		p, err := profile.Load(o.profile)
		if err != nil {
			return usageError(err)
		}
		cfg.Profile = p
	}
	if o.optimal != "" {
		if cfg.Optimal, err = loadOptimal(o.optimal, o.game, cfg.Profile); err != nil {
			return usageError(err)
		}
	}
	s, err := sim.New(cfg)
	if err != nil {
		if errors.Is(err, sim.ErrConfig) {
			return usageError(err)
		}
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("failed to create %s: %w", o.out, err)
	}

	var write func(*round.Round) error
	var closeLog func() error
	if o.format == "parquet" {
		w, err := roundlog.NewParquetWriter(o.out, roundlog.Options{RowGroupRounds: o.rowGroup})
		if err != nil {
			return err
		}
		write, closeLog = w.Write, w.Close
	} else {
		f, err := os.Create(filepath.Join(o.out, "part-00000.rounds.jsonl"))
		if err != nil {
			return fmt.Errorf("failed to create the log: %w", err)
		}
		w, err := roundlog.NewJSONLWriter(f)
		if err != nil {
			f.Close()
			return err
		}
		write = w.Write
		closeLog = func() error { return errors.Join(w.Close(), f.Close()) }
	}
	mf, err := os.Create(filepath.Join(o.out, faultsManifest))
	if err != nil {
		closeLog()
		return fmt.Errorf("failed to create the fault manifest: %w", err)
	}
	mw := bufio.NewWriter(mf)
	enc := json.NewEncoder(mw)

	bar := newProgress(cmd.ErrOrStderr(), "simulate", o.rounds)
	// The simulator runs ahead of the writer on its own goroutine; the
	// order of the rounds is kept, so the output does not depend on it.
	batches := make(chan simBatch, 4)
	stop := make(chan struct{})
	go produceRounds(s, batches, stop)
	var injected int
	var werr error
	for b := range batches {
		werr = b.err
		for i := 0; werr == nil && i < len(b.rounds); i++ {
			werr = write(b.rounds[i])
		}
		for i := 0; werr == nil && i < len(b.inj); i++ {
			werr = enc.Encode(b.inj[i])
			injected++
		}
		if werr != nil {
			close(stop)
			for range batches {
			}
			break
		}
		bar.Add(int64(len(b.rounds)))
	}
	if werr != nil {
		bar.Done()
		closeLog()
		mf.Close()
		return werr
	}
	bar.Done()
	if err := errors.Join(closeLog(), mw.Flush(), mf.Close()); err != nil {
		return fmt.Errorf("failed to finish the log: %w", err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "simulated %d %s rounds into %s (%s, seed %d, profile %s); %d faults injected, listed in %s\n",
		o.rounds, o.game, o.out, o.format, o.seed, s.Profile().Name, injected, filepath.Join(o.out, faultsManifest))
	return nil
}

// simBatch is a run of simulated rounds and the faults injected into them.
type simBatch struct {
	rounds []*round.Round
	inj    []sim.Injection
	err    error
}

// produceRounds plays every round of s in batches until done or stopped.
func produceRounds(s *sim.Simulator, out chan<- simBatch, stop <-chan struct{}) {
	defer close(out)
	for !s.Done() {
		var b simBatch
		for len(b.rounds) < 1024 && !s.Done() {
			r, inj, err := s.Next()
			if err != nil {
				b.err = err
				break
			}
			b.rounds = append(b.rounds, r)
			b.inj = append(b.inj, inj...)
		}
		select {
		case out <- b:
		case <-stop:
			return
		}
		if b.err != nil {
			return
		}
	}
}

// loadOptimal reads a strategy file for the simulator and checks that it
// decides every state and was computed for the profile simulated (the
// built-in profile of game when p is nil).
func loadOptimal(path, game string, p *profile.Profile) (*exact.Decisions, error) {
	if game != round.CasinoHoldem && game != round.LiveCasinoHoldem {
		return nil, fmt.Errorf("--optimal-strategy: %s has no call/fold strategy (casino-holdem and live-casino-holdem do)", game)
	}
	if p == nil {
		var err error
		if p, err = profile.Builtin(game); err != nil {
			return nil, err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--optimal-strategy: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("--optimal-strategy: %w", err)
	}
	d, meta, err := exact.ReadDecisions(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if h := meta[exact.MetaProfileHash]; h != p.Hash() {
		return nil, fmt.Errorf("%s: strategy for profile %q (sha256 %.16s), but the simulation uses %s (sha256 %.16s): write one with 'fairhold math %s --strategy-out'",
			path, meta[exact.MetaProfile], h, p.Name, p.Hash(), game)
	}
	if !d.Complete() {
		return nil, fmt.Errorf("%s: decides %d of the 25,989,600 (hole, flop) states: want a whole strategy, not a partial run", path, d.States())
	}
	return d, nil
}
