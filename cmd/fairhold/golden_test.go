package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden from the commands' output")

// Fields whose value is not a function of the input: the time taken, and
// fresh random secrets. The golden files hold a placeholder in their place;
// every other byte is compared.
var (
	secondsField = regexp.MustCompile(`("seconds7?": )[0-9.e+-]+`)
	hex64        = regexp.MustCompile(`\b[0-9a-f]{64}\b`)
)

// goldenCase is one command line whose --json output (or, with file, the
// file it writes) is kept in testdata/golden/NAME.json.
type goldenCase struct {
	name  string
	args  []string
	code  int
	file  string     // a file under $DIR to compare instead of stdout
	fresh bool       // random output: every 64-digit hex string is masked
	long  bool       // skipped with -short
	setup [][]string // command lines run first, in the same $DIR
}

// TestGoldenJSON keeps the --json output of every command byte for byte:
// the output a report embeds and a user's scripts read does not change
// shape when the types behind it move. Rewrite with -update.
func TestGoldenJSON(t *testing.T) {
	double, _ := vectorRound(t, "double-three-way-all-in-side-pot")
	casino, _ := vectorRound(t, "casino-bonus-pair-of-aces")
	keysNew := []string{"keys", "new", "--out", "$DIR/release"}
	cases := []goldenCase{
		{name: "beacon-verify", args: []string{"beacon", "verify", "--chain", "quicknet", "--round", "1000", "--signature", quicknetSig, "--json"}},
		{name: "beacon-verify-invalid", args: []string{"beacon", "verify", "--chain", "quicknet", "--round", "1000", "--signature", flip(quicknetSig, 9), "--json"}, code: exitVerified},
		{name: "deal-draws", args: []string{"deal", "--scheme", "stake-compat", "--server-seed", stakeSeed, "--client-seed", "bb62964774", "--nonce", "1", "--count", "10", "--json"}},
		{name: "deal-casino", args: []string{"deal", "--game", "casino-holdem", "--server-seed", workedSeed, "--client-seed", "player-seed-1", "--nonce", "1", "--json"}},
		{name: "deal-live", args: []string{"deal", "--game", "live-casino-holdem", "--boxes", "3", "--server-seed", workedSeed, "--client-seed", "a", "--client-seed", "b", "--nonce", "7", "--json"}},
		{name: "deal-double", args: []string{"deal", "--game", "double-holdem", "--seats", "1,3,4,7", "--button", "4", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "2", "--json"}},
		{name: "deal-beacon", args: []string{"deal", "--game", "casino-holdem", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "1",
			"--beacon-chain", "quicknet", "--beacon-round", "1000", "--beacon-signature", quicknetSig, "--json"}},
		{name: "verify", args: verifyArgs("--commitment", workedCommitment, "--used-nonces", "0,2", "--beacon-round", "1000", "--beacon-signature", quicknetSig,
			"--committed-at", "2023-08-23T15:59:00Z"), code: exitVerified}, // no --cards: partial
		{name: "verify-no-game", args: []string{"verify", "--server-seed", workedSeed, "--client-seed", "player-seed-1", "--nonce", "1",
			"--commitment", workedCommitment, "--json"}}, // nothing dealt: verified
		{name: "verify-failed", args: verifyArgs("--commitment", flip(workedCommitment, 5), "--cards", "As Ks Qs Js Ts 9s 8s"), code: exitVerified},
		{name: "verify-stake", args: []string{"verify", "--scheme", "stake-compat", "--server-seed", stakeSeed, "--client-seed", "bb62964774", "--nonce", "1",
			"--commitment", stakeCommitment, "--cards", "Qd Ks 6d Qh 2h 4s 8h 5d 9c 7h", "--json"}},
		{name: "verify-unbound", args: verifyArgs("--cards", workedCards), code: exitVerified}, // nothing binds the seed: partial
		{name: "verify-link", args: verifyArgs("--commitment", workedCommitment, "--cards", "3s 8h 4h", "--link", "--page-url", "https://verify.example/")},
		{name: "eval", args: []string{"eval", "Ah Ad 7c 7d 2s 3h 9c", "--json"}},
		{name: "math-partial", args: []string{"math", "casino-holdem", "--json", "--max-flop-classes", "1"}},
		{name: "math-live-partial", args: []string{"math", "live-casino-holdem", "--json", "--max-flop-classes", "1", "--strategy", "simple", "--bonus-ratio", "1/2"}},
		{name: "profile-show-casino", args: []string{"profile", "show", "casino-holdem", "--json"}},
		{name: "profile-show-double", args: []string{"profile", "show", "double-holdem", "--json"}},
		{name: "seed-new", args: []string{"seed", "new", "--json"}, fresh: true},
		{name: "seed-new-chain", args: []string{"seed", "new", "--chain", "3", "--json"}, fresh: true},
		{name: "seed-new-out", args: []string{"seed", "new", "--chain", "3", "--out", "$DIR/t.chain", "--json"}, fresh: true},
		{name: "selftest", args: []string{"selftest", "--json", "--workers", "2"}, long: true},
		{name: "settle-casino", args: []string{"settle", "--profile", "casino-holdem", casino, "--json"}},
		{name: "settle-double", args: []string{"settle", "--profile", "double-holdem", double, "--json"}},
		{name: "simulate-list-faults", args: []string{"simulate", "--list-faults", "--json"}},
		{name: "simulate", args: []string{"simulate", "--game", "casino-holdem", "--rounds", "50", "--seed", "3", "--format", "jsonl", "--out", "$DIR/day", "--json"}},
		{name: "profile-check", args: []string{"profile", "check", "live-casino-holdem", "--json"}},
		{name: "error-missing-file", args: []string{"settle", "$DIR/no-such-round.json", "--json"}, code: exitError},
		{name: "error-usage", args: []string{"eval", "As", "Ks", "--json"}, code: exitUsage},
		{name: "keys-sign", setup: [][]string{keysNew},
			args: []string{"keys", "sign", "$DIR/release.pub", "--key", "$DIR/release.key", "--json"}, fresh: true},
		{name: "keys-verify", setup: [][]string{keysNew, {"keys", "sign", "$DIR/release.pub", "--key", "$DIR/release.key"}},
			args: []string{"keys", "verify", "$DIR/release.pub", "--key", "$DIR/release.pub", "--json"}, fresh: true},
		{name: "keys-verify-failed", setup: [][]string{keysNew},
			args: []string{"keys", "verify", "$DIR/release.key", "--key", "$DIR/release.pub", "--sig", "$DIR/release.pub", "--json"}, code: exitVerified, fresh: true},
		{name: "simulate-faults-jsonl", args: []string{"simulate", "--game", "casino-holdem", "--rounds", "400", "--part-rounds", "100",
			"--seed", "4", "--format", "jsonl", "--out", "$DIR/day", "--faults", "part-missing,part-truncated,part-extra,balance-off-by-one:0.05"}, file: "day/faults.jsonl"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("slow")
			}
			dir := t.TempDir()
			inDir := func(in []string) []string {
				out := make([]string, len(in))
				for i, a := range in {
					out[i] = strings.ReplaceAll(a, "$DIR", dir)
				}
				return out
			}
			for _, line := range tc.setup {
				_, stderr, code := runCLI(inDir(line)...)
				require.Equal(t, exitOK, code, stderr)
			}
			args := inDir(tc.args)
			out, stderr, code := runCLI(args...)
			require.Equal(t, tc.code, code, stderr)
			if tc.file != "" {
				b, err := os.ReadFile(filepath.Join(dir, tc.file))
				require.NoError(t, err)
				out = string(b)
			}
			out = strings.ReplaceAll(out, dir, "$DIR")
			out = secondsField.ReplaceAllString(out, "${1}0")
			if tc.fresh {
				out = hex64.ReplaceAllString(out, "<64 hex digits>")
			}
			path := filepath.Join("testdata", "golden", tc.name+".json")
			if *updateGolden {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run with -update to write the golden file")
			assert.Equal(t, string(want), out)
		})
	}
}
