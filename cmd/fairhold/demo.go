package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
)

type demoOptions struct {
	rounds  int64
	seed    uint64
	workers int
	keep    string
	decks   int
	asJSON  bool
}

// demoStep is one step of the demonstration: the fairhold command line it
// ran, whether it gave the expected result, and what it found.
type demoStep struct {
	Who     string `json:"who"` // operator, regulator, player, lab
	Command string `json:"command"`
	OK      bool   `json:"ok"`
	Detail  string `json:"detail"`
}

type demoReport struct {
	OK    bool       `json:"ok"`
	Steps []demoStep `json:"steps"`
}

func newDemoCmd() *cobra.Command {
	var o demoOptions
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the whole toolkit end to end on built-in defaults (the main job)",
		Long: `Run the whole toolkit end to end on built-in defaults, with the same commands a
user runs, and check that each gives the expected result:

  1. operator:  simulate an honest day of play of each game (fairhold simulate)
  2. regulator: replay each log; an honest log must give no findings (fairhold replay)
  3. operator:  simulate each game again with every fault of the catalogue injected
  4. regulator: replay; every injected fault must be reported with its catalogued
                code, and nothing else; then the same for the dataset faults
                (parts deleted, truncated, altered or added after the
                operator wrote the dataset's manifest)
  5. player:    take one logged round and verify it from its revealed seed, then
                verify a tampered copy, which must fail (fairhold verify)
  6. lab:       the machine self-check and the deck battery (fairhold selftest,
                fairhold stats)

The logs go to a temporary directory, removed afterwards (--keep DIR keeps
them). Exit 0 when every step gave the expected result, 3 otherwise.`,
		Example: `  fairhold demo
  fairhold demo --rounds 100000 --keep demo-logs --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runDemo(cmd, o) },
	}
	f := cmd.Flags()
	f.Int64Var(&o.rounds, "rounds", 20000, "rounds simulated per game and log")
	f.Uint64Var(&o.seed, "seed", 1, "simulation seed")
	f.IntVar(&o.workers, "workers", 0, "replay workers (0: one per CPU)")
	f.IntVar(&o.decks, "decks", 100000, "decks for the statistical battery")
	f.StringVar(&o.keep, "keep", "", "write the logs to this directory and keep them")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	return cmd
}

// The rates of the injected faults: per round, and per seed session for the
// faults that break a whole session (a session is 100 rounds).
const (
	demoRoundFaultRate   = "0.002"
	demoSessionFaultRate = "0.1"
	// void-wins is found by a test over a table's voids: 0.02 voids about
	// 400 won rounds of 20,000 (80 of 4,000), far more than the test's 20.
	demoVoidWinsRate = "0.02"
)

func runDemo(cmd *cobra.Command, o demoOptions) error {
	if o.rounds <= 0 {
		return usageErrorf("--rounds %d: want a positive number", o.rounds)
	}
	if o.decks < 5000 {
		return usageErrorf("--decks %d: want at least 5000 (the battery's minimum)", o.decks)
	}
	if o.workers < 0 {
		return usageErrorf("--workers %d: want 0 or more", o.workers)
	}
	dir := o.keep
	if dir == "" {
		tmp, err := os.MkdirTemp("", "fairhold-demo-")
		if err != nil {
			return fmt.Errorf("failed to create a temporary directory: %w", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("failed to create %s: %w", dir, err)
	}

	w := cmd.OutOrStdout()
	rep := &demoReport{OK: true}
	add := func(s demoStep) {
		rep.Steps = append(rep.Steps, s)
		rep.OK = rep.OK && s.OK
		if !o.asJSON {
			mark := "ok  "
			if !s.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(w, "%s %-9s $ fairhold %s\n          %s\n", mark, s.Who, s.Command, s.Detail)
		}
	}
	rounds := strconv.FormatInt(o.rounds, 10)
	seed := strconv.FormatUint(o.seed, 10)
	workers := strconv.Itoa(o.workers)
	games := []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem}

	// 1-2. Honest logs replay clean.
	for _, game := range games {
		out := filepath.Join(dir, game+"-honest")
		if !demoSimulate(add, "--game", game, "--rounds", rounds, "--seed", seed, "--out", out) {
			continue
		}
		args := []string{"replay", out, "--json"}
		if o.workers > 0 {
			args = append(args, "--workers", workers)
		}
		res := runSub(args...)
		sum, err := parseReplaySummary(res.stdout)
		step := demoStep{Who: "regulator", Command: strings.Join(args, " ")}
		switch {
		case err != nil:
			step.Detail = fmt.Sprintf("exit %d: %v %s", res.code, err, firstLine(res.stderr))
		case res.code != exitOK || len(sum.Findings) > 0:
			step.Detail = fmt.Sprintf("exit %d: an honest log gave findings %v", res.code, sum.Findings)
		default:
			step.OK = true
			step.Detail = fmt.Sprintf("%d rounds re-dealt and re-settled, no findings", sum.Rounds)
		}
		add(step)
	}

	// 3-4. Faulty logs: every injected fault is found, and nothing else.
	for _, game := range games {
		var spec []string
		for _, f := range sim.Faults() {
			for _, g := range f.Games {
				if g == game {
					rate := demoRoundFaultRate
					if f.Kind() == "session" {
						rate = demoSessionFaultRate
					}
					if f.Name == sim.FaultVoidWins {
						rate = demoVoidWinsRate
					}
					spec = append(spec, f.Name+":"+rate)
				}
			}
		}
		out := filepath.Join(dir, game+"-faulty")
		if !demoSimulate(add, "--game", game, "--rounds", rounds, "--seed", seed, "--out", out, "--faults", strings.Join(spec, ",")) {
			continue
		}
		findingsFile := filepath.Join(out, "findings.jsonl")
		args := []string{"replay", out, "--json", "--findings", findingsFile}
		if o.workers > 0 {
			args = append(args, "--workers", workers)
		}
		res := runSub(args...)
		step := demoStep{Who: "regulator", Command: strings.Join(args, " ")}
		step.OK, step.Detail = compareFindings(res, filepath.Join(out, faultsManifest), findingsFile, len(spec))
		add(step)
	}

	// The dataset faults, in a casino-holdem log of 4 parts.
	if o.rounds >= 8 {
		var names []string
		for _, f := range sim.DatasetFaults() {
			names = append(names, f.Name)
		}
		out := filepath.Join(dir, "dataset-faulty")
		if demoSimulate(add, "--game", round.CasinoHoldem, "--rounds", rounds, "--seed", seed, "--out", out,
			"--part-rounds", strconv.FormatInt((o.rounds+3)/4, 10), "--faults", strings.Join(names, ",")) {
			findingsFile := filepath.Join(out, "findings.jsonl")
			args := []string{"replay", out, "--json", "--findings", findingsFile}
			if o.workers > 0 {
				args = append(args, "--workers", workers)
			}
			res := runSub(args...)
			step := demoStep{Who: "regulator", Command: strings.Join(args, " ")}
			step.OK, step.Detail = compareFindings(res, filepath.Join(out, faultsManifest), findingsFile, len(names))
			add(step)
		}
	}

	// 5. A player verifies one logged round, and a tampered copy fails.
	demoPlayer(add, filepath.Join(dir, "player"), seed)

	// 6. The lab's checks.
	res := runSub("selftest", "--json")
	var st struct {
		OK        bool `json:"ok"`
		Evaluator struct {
			Hands7   uint64  `json:"hands7"`
			Seconds7 float64 `json:"seconds7"`
		} `json:"evaluator"`
	}
	step := demoStep{Who: "lab", Command: "selftest"}
	if err := json.Unmarshal([]byte(res.stdout), &st); err != nil {
		step.Detail = fmt.Sprintf("exit %d: %v %s", res.code, err, firstLine(res.stderr))
	} else {
		step.OK = res.code == exitOK && st.OK
		step.Detail = fmt.Sprintf("%d seven-card hands enumerated in %.2f s; every count equals the published figure: %v",
			st.Evaluator.Hands7, st.Evaluator.Seconds7, st.OK)
	}
	add(step)

	statsArgs := []string{"stats", "--scheme", "fairhold/v1", "--decks", strconv.Itoa(o.decks), "--seed", seed, "--json"}
	res = runSub(statsArgs...)
	var sr struct {
		Pass  bool              `json:"pass"`
		Tests []json.RawMessage `json:"tests"`
	}
	step = demoStep{Who: "lab", Command: strings.Join(statsArgs, " ")}
	if err := json.Unmarshal([]byte(res.stdout), &sr); err != nil {
		step.Detail = fmt.Sprintf("exit %d: %v %s", res.code, err, firstLine(res.stderr))
	} else {
		step.OK = res.code == exitOK && sr.Pass
		step.Detail = fmt.Sprintf("%d statistical tests on %d decks, battery passed: %v", len(sr.Tests), o.decks, sr.Pass)
	}
	add(step)

	if o.asJSON {
		if err := writeJSON(w, rep); err != nil {
			return err
		}
	} else {
		verdict := "every step gave the expected result"
		if !rep.OK {
			verdict = "some steps did not give the expected result"
		}
		fmt.Fprintf(w, "\ndemo: %s", verdict)
		if o.keep != "" {
			fmt.Fprintf(w, "; logs kept in %s", o.keep)
		}
		fmt.Fprintln(w)
	}
	if !rep.OK {
		return errVerificationFailed
	}
	return nil
}

// subResult is what a fairhold command run in-process printed and returned.
type subResult struct {
	stdout, stderr string
	code           int
}

// runSub runs one fairhold command line in-process, on a fresh command tree.
func runSub(args ...string) subResult {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return subResult{stdout: out.String(), stderr: errb.String(), code: code}
}

// demoSimulate runs `fairhold simulate` and records the step; it reports
// whether the log was written.
func demoSimulate(add func(demoStep), args ...string) bool {
	args = append([]string{"simulate"}, args...)
	res := runSub(args...)
	step := demoStep{Who: "operator", Command: strings.Join(args, " "), OK: res.code == exitOK}
	if step.OK {
		step.Detail = firstLine(res.stdout)
	} else {
		step.Detail = fmt.Sprintf("exit %d: %s", res.code, firstLine(res.stderr))
	}
	if len(step.Command) > 160 {
		step.Command = step.Command[:157] + "..."
	}
	add(step)
	return step.OK
}

type replaySummary struct {
	Rounds   int64            `json:"rounds"`
	Findings map[string]int64 `json:"findings"`
}

func parseReplaySummary(s string) (replaySummary, error) {
	var sum replaySummary
	if err := json.Unmarshal([]byte(s), &sum); err != nil {
		return sum, fmt.Errorf("replay summary: %w", err)
	}
	return sum, nil
}

// compareFindings checks a replay of a faulty log: exit 3, and the set of
// (round, code) findings equal to the injected set in the manifest.
func compareFindings(res subResult, manifest, findingsFile string, kinds int) (bool, string) {
	sum, err := parseReplaySummary(res.stdout)
	if err != nil {
		return false, fmt.Sprintf("exit %d: %v %s", res.code, err, firstLine(res.stderr))
	}
	injected, err := readRoundCodes(manifest)
	if err != nil {
		return false, err.Error()
	}
	found, err := readRoundCodes(findingsFile)
	if err != nil {
		return false, err.Error()
	}
	var missed, extra []string
	for k := range injected {
		if !found[k] {
			missed = append(missed, k)
		}
	}
	for k := range found {
		if !injected[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missed)
	sort.Strings(extra)
	codes := map[string]bool{}
	for k := range injected {
		codes[k[strings.IndexByte(k, ' ')+1:]] = true
	}
	ok := res.code == exitVerified && len(missed) == 0 && len(extra) == 0 && len(injected) > 0
	detail := fmt.Sprintf("%d rounds; %d faults injected (%d kinds of %d asked) -> %d findings; missed %d, unexpected %d",
		sum.Rounds, len(injected), len(codes), kinds, len(found), len(missed), len(extra))
	if len(missed) > 0 {
		detail += fmt.Sprintf("; first missed: %s", missed[0])
	}
	if len(extra) > 0 {
		detail += fmt.Sprintf("; first unexpected: %s", extra[0])
	}
	return ok, detail
}

// readRoundCodes reads a JSON Lines file of objects with "round_id" and
// "code" into a set of "round_id code" keys.
func readRoundCodes(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("failed to open %s: %w", path, err)
	}
	defer f.Close()
	set := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var rec struct {
			RoundID string `json:"round_id"`
			Code    string `json:"code"`
			Table   string `json:"table"` // an injection reported per table: the finding names no round
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if rec.Table != "" {
			rec.RoundID = ""
		}
		set[rec.RoundID+" "+rec.Code] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	return set, nil
}

// demoPlayer simulates one round as JSON Lines, verifies it as its player
// would, then verifies a copy with two cards swapped.
func demoPlayer(add func(demoStep), out, seed string) {
	if !demoSimulate(add, "--game", round.CasinoHoldem, "--rounds", "1", "--seed", seed, "--out", out, "--format", "jsonl") {
		return
	}
	r, err := firstRound(filepath.Join(out, "rounds", "part-00000.jsonl"))
	if err != nil || len(r.Boxes) != 1 || len(r.Fairness.ClientSeeds) != 1 {
		add(demoStep{Who: "player", Command: "verify", Detail: fmt.Sprintf("cannot read the logged round: %v", err)})
		return
	}
	// Dealing order of casino-holdem: player, dealer, flop, turn, river.
	cards := append(append(append([]string{}, r.Boxes[0].Cards...), r.Dealer...), r.Board...)
	verify := func(cards []string, want int, what string) {
		args := []string{"verify", "--game", round.CasinoHoldem,
			"--server-seed", r.Fairness.ServerSeed, "--commitment", r.Fairness.Commitment,
			"--client-seed", r.Fairness.ClientSeeds[0], "--nonce", strconv.FormatUint(r.Fairness.Nonce, 10),
			"--cards", strings.Join(cards, " ")}
		res := runSub(args...)
		add(demoStep{Who: "player", Command: strings.Join(args[:3], " ") + " ... --cards \"" + strings.Join(cards, " ") + "\"",
			OK: res.code == want, Detail: fmt.Sprintf("%s: exit %d (want %d)", what, res.code, want)})
	}
	verify(cards, exitOK, fmt.Sprintf("round %s: seed matches its commitment and re-deals the logged cards", r.RoundID))
	tampered := append([]string{}, cards...)
	tampered[0], tampered[len(tampered)-1] = tampered[len(tampered)-1], tampered[0]
	verify(tampered, exitVerified, "the same round with the player's first card and the river swapped is rejected")
}

func firstRound(path string) (*round.Round, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	for {
		var r round.Round
		if err := dec.Decode(&r); err != nil {
			if err == io.EOF {
				return nil, fmt.Errorf("%s: no round", path)
			}
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if r.RoundID != "" {
			return &r, nil
		}
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
