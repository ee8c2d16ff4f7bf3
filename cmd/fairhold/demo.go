package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/certify/demo"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
)

type demoOptions struct {
	rounds  int64
	seed    uint64
	workers int
	out     string
	keep    string // deprecated alias of out
	decks   int
	noMath  bool
	asJSON  bool
}

// demoDefaultOut is where the demo writes unless --out.
const demoDefaultOut = "fairhold-demo"

func newDemoCmd() *cobra.Command {
	var o demoOptions
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the whole toolkit end to end on built-in defaults, ending in a certificate (the main job)",
		Long: `Run the whole toolkit end to end on built-in defaults, with the same commands a
user runs, and check that each gives the expected result:

  1. operator:  simulate a clean day of play of each game (fairhold simulate)
  2. regulator: replay each log; a clean log must give no findings (fairhold replay)
  3. operator:  simulate each game again with every fault of the catalogue injected
  4. regulator: replay; every injected fault must be reported with its catalogued
                code, and nothing else; then the same for the dataset faults
                (parts deleted, truncated, altered or added after the
                operator wrote the dataset's manifest)
  5. player:    take one logged round and verify it from its revealed seed, then
                verify a tampered copy, which must fail (fairhold verify)
  6. lab:       the machine self-check (fairhold selftest)
  7. lab:       certify the clean and the faulty Casino Hold'em operators
                (fairhold vectors, keys new, certify, report verify): the
                engine's answers to the test vectors, the scheme's deck
                battery (--decks decks), the logged cards, the published RTP
                over every deal, the replay and the logged returns against
                the exact expectation of every decision. The clean operator
                must be certified; the faulty one refused for exactly its
                injected faults: the replay finds exactly their codes, and
                every requirement that fails is one an injected fault explains.

The reports are signed with a demo key (Ed25519) generated in the output
directory: it shows how a report is signed and verified, and certifies
nothing to anyone else. The demo's suite is the built-in casino-holdem suite
without the operator's decks and raw-bytes requirements (a simulated operator
has none) and without the AA Bonus claim under the optimal strategy: the
profile publishes 90.9%, the rules give 90.78% (docs/math.md), so every
operator on that profile fails it. The screen ends with the verdicts and the
path of each HTML report.

Everything is written to --out (default ./fairhold-demo): the logs, the key,
the suites and the reports. A directory a previous demo wrote is reused (the
demo's own files in it replaced); any other non-empty directory is refused.
The exact solution of the game takes most of the run (about 20 s on 2 cores);
--no-math leaves the claims and the return checks out.

--json prints the result as JSON (certify/demo.Report). Progress goes to
stderr when it is a terminal (not with --json), and with --progress as a
line per step when it is not.

Exit codes: 0 every step gave the expected result, 3 one did not, 1 an
error, 2 usage.`,
		Example: `  fairhold demo
  fairhold demo --out /tmp/demo --rounds 100000 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("keep") && !cmd.Flags().Changed("out") {
				o.out = o.keep
			}
			return runDemo(cmd, o)
		},
	}
	f := cmd.Flags()
	f.Int64Var(&o.rounds, "rounds", 20000, "rounds simulated per game and log (at least 6000: the log battery needs 5000)")
	f.Uint64Var(&o.seed, "seed", 1, "simulation seed")
	f.IntVar(&o.workers, "workers", 0, "worker goroutines of the replays and the certification (0: one per CPU)")
	f.IntVar(&o.decks, "decks", demoDefaultDecks, "decks of the scheme's statistical battery in the certification")
	f.StringVar(&o.out, "out", demoDefaultOut, "write the logs, the demo key, the suites and the reports to this directory")
	f.StringVar(&o.keep, "keep", "", "the same as --out")
	_ = f.MarkDeprecated("keep", "use --out: the demo keeps its outputs")
	f.BoolVar(&o.noMath, "no-math", false, "leave the exact mathematics out of the certification (the published RTP claims and the return checks)")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	return cmd
}

// demoDefaultDecks sizes the deck battery so that the whole demo takes
// about a minute on 2 cores.
const demoDefaultDecks = 10_000_000

// demoMinRounds is the least --rounds: the log battery of the
// certification needs 5,000 rounds, and some are voided or faulty.
const demoMinRounds = 6000

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
	if o.rounds < demoMinRounds {
		return usageErrorf("--rounds %d: want at least %d (the certification's log battery needs 5000 rounds)", o.rounds, demoMinRounds)
	}
	if o.decks < 5000 || int64(o.decks) > 1<<32-1 {
		return usageErrorf("--decks %d: want 5000 (the battery's minimum) to 4294967295", o.decks)
	}
	if o.workers < 0 {
		return usageErrorf("--workers %d: want 0 or more", o.workers)
	}
	if o.out == "" {
		return usageErrorf("--out: empty directory name")
	}
	dir := o.out
	if err := checkOutputDir("--out", dir); err != nil {
		return err
	}
	if err := prepareDemoDir(dir); err != nil {
		return err
	}
	logs := filepath.Join(dir, "logs")
	findingsDir := filepath.Join(dir, "findings")
	if err := os.MkdirAll(findingsDir, 0o755); err != nil {
		return fmt.Errorf("failed to create %s: %w", findingsDir, err)
	}

	w := cmd.OutOrStdout()
	status := newStatusLine(cmd.ErrOrStderr(), progressModeOf(cmd))
	defer status.clear()
	rep := &demo.Report{OK: true, Out: dir}
	add := func(s demo.Step) {
		status.clear()
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
	sub := func(what string, args ...string) subResult {
		status.show(what)
		return runSub(args...)
	}
	rounds := strconv.FormatInt(o.rounds, 10)
	seed := strconv.FormatUint(o.seed, 10)
	workers := strconv.Itoa(o.workers)
	games := []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem}
	simulated := map[string]bool{}

	// 0. The operator's key, which signs its logs' manifests; the
	// regulator and the lab are given its public half.
	opKey, opPub := filepath.Join(dir, demoOperatorKey+".key"), filepath.Join(dir, demoOperatorKey+".pub")
	{
		args := []string{"keys", "new", "--out", filepath.Join(dir, demoOperatorKey)}
		res := sub("generating the operator's key", args...)
		add(demo.Step{Who: "operator", Command: strings.Join(args, " "), OK: res.code == exitOK,
			Detail: orExit(res, "an Ed25519 key pair: the operator signs each day's manifest with it and publishes its public half")})
	}

	// 1-2. Clean logs replay clean.
	for _, game := range games {
		out := filepath.Join(logs, game+"-clean")
		status.show("simulating a clean day of " + game)
		if !demoSimulate(add, "--game", game, "--rounds", rounds, "--seed", seed, "--out", out, "--manifest-key", opKey) {
			continue
		}
		simulated[out] = true
		args := []string{"replay", out, "--json", "--manifest-key", opPub}
		if o.workers > 0 {
			args = append(args, "--workers", workers)
		}
		res := sub("replaying the clean "+game+" log", args...)
		sum, err := parseReplaySummary(res.stdout)
		step := demo.Step{Who: "regulator", Command: strings.Join(args, " ")}
		switch {
		case err != nil:
			step.Detail = fmt.Sprintf("exit %d: %v %s", res.code, err, firstLine(res.stderr))
		case res.code != exitOK || len(sum.Findings) > 0:
			step.Detail = fmt.Sprintf("exit %d: a clean log gave findings %v", res.code, sum.Findings)
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
		out := filepath.Join(logs, game+"-faulty")
		status.show("simulating a faulty day of " + game)
		if !demoSimulate(add, "--game", game, "--rounds", rounds, "--seed", seed, "--out", out, "--faults", strings.Join(spec, ","), "--manifest-key", opKey) {
			continue
		}
		simulated[out] = true
		findingsFile := filepath.Join(findingsDir, game+"-faulty.jsonl")
		args := []string{"replay", out, "--json", "--findings", findingsFile, "--manifest-key", opPub}
		if o.workers > 0 {
			args = append(args, "--workers", workers)
		}
		res := sub("replaying the faulty "+game+" log", args...)
		step := demo.Step{Who: "regulator", Command: strings.Join(args, " ")}
		step.OK, step.Detail = compareFindings(res, filepath.Join(out, faultsManifest), findingsFile, len(spec))
		add(step)
	}

	// The dataset faults, in a casino-holdem log of 4 parts.
	{
		var names []string
		for _, f := range sim.DatasetFaults() {
			names = append(names, f.Name)
		}
		out := filepath.Join(logs, "dataset-faulty")
		status.show("simulating a dataset altered after its manifest")
		if demoSimulate(add, "--game", round.CasinoHoldem, "--rounds", rounds, "--seed", seed, "--out", out,
			"--part-rounds", strconv.FormatInt((o.rounds+3)/4, 10), "--faults", strings.Join(names, ",")) {
			findingsFile := filepath.Join(findingsDir, "dataset-faulty.jsonl")
			args := []string{"replay", out, "--json", "--findings", findingsFile}
			if o.workers > 0 {
				args = append(args, "--workers", workers)
			}
			res := sub("replaying the altered dataset", args...)
			step := demo.Step{Who: "regulator", Command: strings.Join(args, " ")}
			step.OK, step.Detail = compareFindings(res, filepath.Join(out, faultsManifest), findingsFile, len(names))
			add(step)
		}
	}

	// The commitment log: a casino-holdem log whose commitments were
	// published to a witnessed log, with the log's cheats (a commitment
	// published after its session began, one picked from a pool, one bound
	// to another player, one never published, the log rewritten under a
	// kept checkpoint), each found against the log and its evidence.
	{
		var names []string
		for _, f := range sim.LogFaults() {
			names = append(names, f.Name+":"+demoSessionFaultRate)
		}
		out := filepath.Join(logs, "commitments-faulty")
		cl := filepath.Join(logs, "commitments-faulty.log")
		status.show("simulating a day with its commitment log, and the log's cheats")
		if demoSimulate(add, "--game", round.CasinoHoldem, "--rounds", rounds, "--seed", seed, "--out", out,
			"--commitment-log", cl, "--faults", strings.Join(names, ",")) {
			findingsFile := filepath.Join(findingsDir, "commitments-faulty.jsonl")
			args := []string{"replay", out, "--json", "--findings", findingsFile, "--commitment-log", cl,
				"--log-key", cl + ".pub.pem", "--witness-key", cl + ".witness", "--log-checkpoint", cl + ".kept-checkpoint"}
			if o.workers > 0 {
				args = append(args, "--workers", workers)
			}
			res := sub("replaying it against its commitment log", args...)
			step := demo.Step{Who: "regulator", Command: strings.Join(args, " ")}
			step.OK, step.Detail = compareFindings(res, filepath.Join(out, faultsManifest), findingsFile, len(names))
			add(step)
		}
	}

	// 5. A player verifies one logged round, and a tampered copy fails.
	status.show("a player checks one round")
	demoPlayer(add, filepath.Join(logs, "player"), seed)

	// 6. The lab's self-check.
	res := sub("enumerating every 5- and 7-card hand", "selftest", "--json")
	var st struct {
		OK        bool `json:"ok"`
		Evaluator struct {
			Hands7   uint64  `json:"hands7"`
			Seconds7 float64 `json:"seconds7"`
		} `json:"evaluator"`
	}
	step := demo.Step{Who: "lab", Command: "selftest"}
	if err := json.Unmarshal([]byte(res.stdout), &st); err != nil {
		step.Detail = fmt.Sprintf("exit %d: %v %s", res.code, err, firstLine(res.stderr))
	} else {
		step.OK = res.code == exitOK && st.OK
		step.Detail = fmt.Sprintf("%d seven-card hands enumerated in %.2f s; every count equals the published figure: %v",
			st.Evaluator.Hands7, st.Evaluator.Seconds7, st.OK)
	}
	add(step)

	// 7. The certifications.
	demoCertify(rep, add, sub, demoCertifyOptions{
		dir: dir, seed: seed, decks: uint64(o.decks), noMath: o.noMath, workers: o.workers,
		opPub:  opPub,
		clean:  filepath.Join(logs, round.CasinoHoldem+"-clean"),
		faulty: filepath.Join(logs, round.CasinoHoldem+"-faulty"),
		have:   simulated,
	})
	status.clear()

	if o.asJSON {
		if err := writeResult(w, verdictOf(rep.OK, verdictOK), rep); err != nil {
			return err
		}
	} else if err := printDemoVerdict(w, rep); err != nil {
		return err
	}
	if !rep.OK {
		var failed []string
		for _, s := range rep.Steps {
			if !s.OK {
				failed = append(failed, s.Who+" "+firstWords(s.Command, 2))
			}
		}
		return &exitErr{code: exitVerified, err: fmt.Errorf("demo: %d steps did not give the expected result: %s", len(failed), strings.Join(failed, "; "))}
	}
	return nil
}

// demoMarker marks a directory the demo wrote; demoOutputs are the
// entries it writes there, removed before it writes them again.
const demoMarker = ".fairhold-demo"

var demoOutputs = []string{"logs", "findings", "vectors", demoKeyName + ".key", demoKeyName + ".pub", demoOperatorKey + ".key", demoOperatorKey + ".pub",
	"clean-operator.json", "faulty-operator.json", "clean-operator", "faulty-operator"}

// demoKeyName is the demo key's file prefix in the output directory;
// demoOperatorKey the simulated operator's, which signs its manifests.
const (
	demoKeyName     = "demo-key"
	demoOperatorKey = "operator-key"
)

// prepareDemoDir makes dir ready for the demo's outputs: created when
// missing; when a previous demo wrote it (its marker file is there), the
// demo's own entries are removed and anything else is left; any other
// non-empty directory is refused.
func prepareDemoDir(dir string) error {
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("failed to create %s: %w", dir, err)
		}
	case err != nil:
		if fi, serr := os.Stat(dir); serr == nil && !fi.IsDir() {
			return usageErrorf("--out %s: not a directory", dir)
		}
		return fmt.Errorf("failed to read %s: %w", dir, err)
	case len(ents) > 0 && !fileExists(filepath.Join(dir, demoMarker)):
		return usageErrorf("--out %s: not empty, and not written by fairhold demo; refusing to write into it (give a new directory, or remove it)", dir)
	default:
		for _, name := range demoOutputs {
			if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("failed to remove the previous demo's %s: %w", filepath.Join(dir, name), err)
			}
		}
	}
	marker := []byte("Written by fairhold demo. Running it again with this directory as --out replaces\nthe files it wrote here: " + strings.Join(demoOutputs, ", ") + ".\n")
	if err := os.WriteFile(filepath.Join(dir, demoMarker), marker, 0o644); err != nil {
		return fmt.Errorf("failed to write %s: %w", filepath.Join(dir, demoMarker), err)
	}
	return nil
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// statusLine shows what the demo is doing on stderr: on one line redrawn
// in place on a terminal (progressBar), one line per step with --progress
// elsewhere (progressLines), or not at all.
type statusLine struct {
	w     io.Writer
	lines bool
}

func newStatusLine(w io.Writer, mode progressMode) *statusLine {
	switch mode {
	case progressBar:
		return &statusLine{w: w}
	case progressLines:
		return &statusLine{w: w, lines: true}
	}
	return &statusLine{}
}

func (s *statusLine) show(msg string) {
	if s.w == nil {
		return
	}
	if s.lines {
		fmt.Fprintf(s.w, "demo: %s\n", msg)
		return
	}
	if len(msg) > 110 {
		msg = msg[:107] + "..."
	}
	fmt.Fprintf(s.w, "\r\033[K... %s", msg)
}

func (s *statusLine) clear() {
	if s.w != nil && !s.lines {
		fmt.Fprint(s.w, "\r\033[K")
	}
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
func demoSimulate(add func(demo.Step), args ...string) bool {
	args = append([]string{"simulate"}, args...)
	res := runSub(args...)
	step := demo.Step{Who: "operator", Command: strings.Join(args, " "), OK: res.code == exitOK}
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
func demoPlayer(add func(demo.Step), out, seed string) {
	if !demoSimulate(add, "--game", round.CasinoHoldem, "--rounds", "1", "--seed", seed, "--out", out, "--format", "jsonl") {
		return
	}
	r, err := firstRound(filepath.Join(out, "rounds", "part-00000.jsonl"))
	if err != nil || len(r.Boxes) != 1 || len(r.Fairness.ClientSeeds) != 1 {
		add(demo.Step{Who: "player", Command: "verify", Detail: fmt.Sprintf("cannot read the logged round: %v", err)})
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
		add(demo.Step{Who: "player", Command: strings.Join(args[:3], " ") + " ... --cards \"" + strings.Join(cards, " ") + "\"",
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
