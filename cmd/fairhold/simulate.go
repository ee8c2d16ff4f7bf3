package main

import (
	"bufio"
	"cmp"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

// faultsManifest is the file in the output directory that lists the
// injected faults, one JSON object a line: round_id, fault, code (and file,
// for a dataset fault).
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
	partRounds int64
	optimal    string
	key        string

	commitLog, logKey, logOrigin string
}

func newSimulateCmd() *cobra.Command {
	var o simulateOptions
	cmd := &cobra.Command{
		Use:   "simulate --game GAME --rounds N --out DIR [--seed S] [--players P] [--faults NAME[:RATE],...]",
		Short: "Simulate a provably-fair operator's round logs, honest or with injected faults",
		Long: `Simulate an operator of casino-holdem, live-casino-holdem or double-holdem and
write its round log to DIR, one folder per table: Parquet parts
(DIR/rounds/part-00000.parquet, DIR/boxes/part-00000.parquet, ...; docs/log-format.md)
or, with --format jsonl, DIR/rounds/part-00000.jsonl; a new part every --part-rounds
rounds. Last, DIR/manifest.json lists every part with its SHA-256, rows, first and
last round and time range, signed with --manifest-key (DIR/manifest.json.sig). Every
file is written under a temporary name and renamed once whole. The operator is
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
(per seed session for the session faults; default 0.01). The dataset faults
(part-missing, part-altered, part-truncated, part-extra) are applied once, to
the files, after the manifest is written. Every injected fault is listed in
DIR/faults.jsonl (round_id, fault, code; file for a dataset fault): the
findings a replay must report.`,
		Example: `  fairhold simulate --game casino-holdem --rounds 100000 --out day1
  fairhold simulate --game double-holdem --rounds 5000 --out dh --faults dh-pot-wrong-winner:0.02,cards-mismatch
  fairhold simulate --game casino-holdem --rounds 30000 --out day2 --part-rounds 10000 --faults part-missing,part-altered
  fairhold simulate --game casino-holdem --rounds 100000 --out day3 --manifest-key operator.pem
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
	f.StringVar(&o.out, "out", "", "output directory (created if needed; use a new or empty one: parts of an earlier run left in it are not in the new manifest)")
	f.Uint64Var(&o.seed, "seed", 1, "simulation seed: the same seed gives the same log")
	f.IntVar(&o.players, "players", 0, "players: casino-holdem players taking turns, live-casino-holdem player pool, double-holdem seats (2..10); 0 = default")
	f.StringVar(&o.faults, "faults", "", "faults to inject, NAME[:RATE],... (see --list-faults)")
	f.StringVar(&o.format, "format", "parquet", "parquet or jsonl")
	f.StringVar(&o.profile, "profile", "", "rules profile, a built-in name or a JSON file (default: the built-in profile of the game)")
	f.IntVar(&o.rowGroup, "row-group", roundlog.DefaultRowGroupRounds, "rounds per Parquet row group at most (a row group also ends when a child table reaches 65,536 rows)")
	f.Int64Var(&o.partRounds, "part-rounds", roundlog.DefaultFileRounds, "rounds per part at most (a Parquet part also ends at 256 row groups)")
	f.StringVar(&o.key, "manifest-key", "", "sign the manifest with the Ed25519 private key in `PRIV.pem` (PEM PKCS #8), writing DIR/manifest.json.sig")
	f.StringVar(&o.commitLog, "commitment-log", "", "publish the sessions' commitments to a commitment log in `LOGDIR`, with a simulated witness's cosigned checkpoints (LOGDIR/evidence/); writes LOGDIR.pub.pem (the log's key), LOGDIR.witness (the witness's verifier key) and LOGDIR.kept-checkpoint (the log at half its entries, as an auditor kept it)")
	f.StringVar(&o.logKey, "log-key", "", "with --commitment-log: sign the log with the Ed25519 private key in `PRIV.pem` (default: a key derived from --seed, not a secret)")
	f.StringVar(&o.logOrigin, "log-origin", "", "with --commitment-log: the log's origin (default "+sim.DefaultLogOrigin+")")
	f.StringVar(&o.optimal, "optimal-strategy", "", "Casino Hold'em: a strategy `FILE` written by 'fairhold math --strategy-out' for the same profile; a quarter of the players follow it")
	f.BoolVar(&o.listFaults, "list-faults", false, "list the fault catalogue and exit")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	return cmd
}

// faultList is the JSON of simulate --list-faults --json.
type faultList struct {
	Faults []sim.CatalogueEntry `json:"faults"`
}

// simulateResult is the JSON of simulate --json.
type simulateResult struct {
	Game      string `json:"game"`
	Profile   string `json:"profile"`
	Rounds    int64  `json:"rounds"`
	Seed      uint64 `json:"seed"`
	Format    string `json:"format"`
	Out       string `json:"out"`
	Parts     int    `json:"parts"`
	Manifest  string `json:"manifest"`
	Signed    bool   `json:"signed"`
	Faults    int    `json:"faults"`
	FaultList string `json:"fault_list"`
	// CommitmentLog is the commitment log written (--commitment-log).
	CommitmentLog *simulatedLog `json:"commitment_log,omitempty"`
}

// simulatedLog is the commitment log of simulate --json.
type simulatedLog struct {
	Dir            string `json:"dir"`
	Origin         string `json:"origin"`
	Entries        int    `json:"entries"`
	Timed          int    `json:"timed_checkpoints"`
	PublicKey      string `json:"public_key"`
	WitnessKey     string `json:"witness_key"`
	KeptCheckpoint string `json:"kept_checkpoint"`
}

func listFaults(cmd *cobra.Command, asJSON bool) error {
	out := sim.Catalogue()
	if asJSON {
		return writeResult(cmd.OutOrStdout(), verdictOK, faultList{Faults: out})
	}
	w := cmd.OutOrStdout()
	for _, f := range out {
		kind := ""
		if f.Kind == "dataset" {
			kind = " (dataset fault: applied once, to the files, after the manifest)"
		}
		fmt.Fprintf(w, "%s -> %s %v%s\n    %s\n", f.Name, f.Finding, f.Games, kind, f.Description)
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
	case o.partRounds <= 0:
		return usageErrorf("--part-rounds %d: want a positive number", o.partRounds)
	}
	if err := checkOutputDir("--out", o.out); err != nil {
		return err
	}
	faults, err := sim.ParseFaults(o.faults)
	if err != nil {
		return usageError(err)
	}
	faults, datasetFaults := sim.SplitDatasetFaults(faults)
	if err := checkDatasetFaults(datasetFaults, o.rounds, o.partRounds); err != nil {
		return err
	}
	var key ed25519.PrivateKey
	if o.key != "" {
		if key, err = manifest.LoadPrivateKey(o.key); err != nil {
			return usageError(fmt.Errorf("--manifest-key: %w", err))
		}
	}
	cfg := sim.Config{Game: o.game, Rounds: o.rounds, Seed: o.seed, Players: o.players, Faults: faults}
	switch {
	case o.commitLog != "":
		if err := checkOutputDir("--commitment-log", o.commitLog); err != nil {
			return err
		}
		cfg.Log = &sim.LogConfig{Dir: o.commitLog, Origin: o.logOrigin, KeptCheckpoint: o.commitLog + ".kept-checkpoint"}
		if o.logKey != "" {
			if cfg.Log.Key, err = manifest.LoadPrivateKey(o.logKey); err != nil {
				return usageError(fmt.Errorf("--log-key: %w", err))
			}
		}
	case o.logKey != "" || o.logOrigin != "":
		return usageErrorf("--log-key and --log-origin need --commitment-log LOGDIR")
	}
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

	opts := roundlog.Options{RowGroupRounds: o.rowGroup, FileRounds: o.partRounds}
	var w datasetWriter
	if o.format == "parquet" {
		pw, err := roundlog.NewParquetWriter(o.out, opts)
		if err != nil {
			return err
		}
		w = pw
	} else {
		w = roundlog.NewJSONLDatasetWriter(o.out, opts)
	}
	bar := newProgress(cmd, "simulate", o.rounds)
	// The simulator runs ahead of the writer on its own goroutine; the
	// order of the rounds is kept, so the output does not depend on it.
	batches := make(chan simBatch, 4)
	stop := make(chan struct{})
	go produceRounds(s, batches, stop)
	// The round faults injected, by the index of their round: a dataset
	// fault may remove rounds, and their faults with them.
	var injected []indexedInjection
	var written int64
	var werr error
	for b := range batches {
		werr = b.err
		for i := 0; werr == nil && i < len(b.rounds); i++ {
			werr = w.Write(b.rounds[i])
		}
		for i := range b.inj {
			injected = append(injected, indexedInjection{written + int64(b.injAt[i]), b.inj[i]})
		}
		written += int64(len(b.rounds))
		if werr != nil {
			close(stop)
			for range batches {
			}
			break
		}
		bar.Add(int64(len(b.rounds)))
	}
	bar.Done()
	if werr != nil {
		w.Abort()
		return werr
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("failed to finish the log: %w", err)
	}
	// The manifest last: it lists the parts as written.
	m := manifest.New()
	// The simulator's currency (EUR unless set) has 2 decimals.
	m.Currencies = map[string]int{cmp.Or(cfg.Currency, "EUR"): 2}
	m.Parts = w.Parts()
	if _, err := manifest.Write(o.out, m, key); err != nil {
		return err
	}
	// Then the dataset faults, to the files: the manifest stays honest.
	df := datasetFaulter{dir: o.out, format: o.format, opts: opts, cfg: cfg, parts: m.Parts}
	inj, err := df.apply(datasetFaults)
	if err != nil {
		return err
	}
	var logRes *sim.LogResult
	if cfg.Log != nil {
		quietTessera()
		if logRes, err = s.WriteCommitLog(cmd.Context()); err != nil {
			return fmt.Errorf("commitment log: %w", err)
		}
		pub, err := manifest.MarshalPublicKey(logRes.Public)
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.commitLog+".pub.pem", pub, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(o.commitLog+".witness", []byte(logRes.WitnessKey+"\n"), 0o644); err != nil {
			return err
		}
		for _, in := range logRes.Injections {
			injected = append(injected, indexedInjection{-1, in})
		}
	}
	n, err := writeFaultList(filepath.Join(o.out, faultsManifest), injected, df.removed, inj)
	if err != nil {
		return err
	}
	if o.asJSON {
		res := simulateResult{
			Game: o.game, Profile: s.Profile().Name, Rounds: o.rounds, Seed: o.seed, Format: o.format, Out: o.out,
			Parts: len(m.Parts), Manifest: filepath.Join(o.out, manifest.FileName), Signed: key != nil,
			Faults: n, FaultList: filepath.Join(o.out, faultsManifest),
		}
		if logRes != nil {
			res.CommitmentLog = &simulatedLog{Dir: logRes.Dir, Origin: cmp.Or(o.logOrigin, sim.DefaultLogOrigin), Entries: logRes.Entries, Timed: logRes.Timed,
				PublicKey: o.commitLog + ".pub.pem", WitnessKey: logRes.WitnessKey, KeptCheckpoint: logRes.KeptCheckpoint}
		}
		return writeResult(cmd.OutOrStdout(), verdictOK, res)
	}
	signed := ""
	if key != nil {
		signed = ", signed"
	}
	parts := "1 part"
	if len(m.Parts) != 1 {
		parts = fmt.Sprintf("%d parts", len(m.Parts))
	}
	fmt.Fprintf(cmd.OutOrStdout(), "simulated %d %s rounds into %s (%s, %s, seed %d, profile %s; manifest%s); %d faults injected, listed in %s\n",
		o.rounds, o.game, o.out, o.format, parts, o.seed, s.Profile().Name, signed, n, filepath.Join(o.out, faultsManifest))
	if logRes != nil {
		fmt.Fprintf(cmd.OutOrStdout(), "commitment log %s: %d entries, %d timed checkpoints; key %s.pub.pem, witness %s.witness, kept checkpoint %s\n",
			logRes.Dir, logRes.Entries, logRes.Timed, o.commitLog, o.commitLog, logRes.KeptCheckpoint)
	}
	return nil
}

// indexedInjection is a round fault and the index of its round in the
// simulation.
type indexedInjection struct {
	round int64
	inj   sim.Injection
}

// writeFaultList writes faults.jsonl: the round faults of the rounds that
// are still in the dataset (not in a range of removed), then the dataset
// faults. It returns the number of faults listed.
func writeFaultList(path string, rounds []indexedInjection, removed [][2]int64, dataset []sim.DatasetInjection) (int, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return 0, fmt.Errorf("failed to create the fault list: %w", err)
	}
	defer f.Abort()
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	n := 0
	for _, in := range rounds {
		if slices.ContainsFunc(removed, func(r [2]int64) bool { return r[0] <= in.round && in.round < r[1] }) {
			continue
		}
		if err := enc.Encode(&in.inj); err != nil {
			return 0, err
		}
		n++
	}
	for i := range dataset {
		if err := enc.Encode(&dataset[i]); err != nil {
			return 0, err
		}
		n++
	}
	if err := bw.Flush(); err != nil {
		return 0, fmt.Errorf("failed to write %s: %w", path, err)
	}
	return n, f.Commit()
}

// datasetWriter writes simulated rounds as the parts of a dataset:
// *roundlog.ParquetWriter, *roundlog.JSONLDatasetWriter.
type datasetWriter interface {
	Write(*round.Round) error
	Close() error
	Abort()
	Parts() []manifest.Part
}

// simBatch is a run of simulated rounds and the faults injected into them.
type simBatch struct {
	rounds []*round.Round
	inj    []sim.Injection
	injAt  []int // the index in rounds of each injection's round
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
			for _, in := range inj {
				b.inj = append(b.inj, in)
				b.injAt = append(b.injAt, len(b.rounds)-1)
			}
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
