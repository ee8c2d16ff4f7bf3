package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/cmd/fairhold/internal/pageround"
	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/settle"
)

// verifyRoundExcludes are verify's flags that describe the round: --round
// gives it instead.
var verifyRoundExcludes = []string{
	"scheme", "game", "server-seed", "client-seed", "nonce", "boxes", "seats", "button", "count",
	"beacon-chain", "beacon-round", "beacon-signature", "beacon-previous-signature",
	"commitment", "committed-at", "chain-anchor", "chain-steps", "chain-max-steps", "used-nonces", "cards",
}

// roundVerdict is the JSON of `fairhold verify --round FILE --json`: the
// round's id, verify's verdict over its fairness and payout checks, and
// its settlement with the payout's mismatches.
type roundVerdict struct {
	// RoundID is the record's round_id.
	RoundID string `json:"round_id"`
	check.Verdict
	// Settlement is the record settled with the cards the seeds deal.
	Settlement *settle.Result `json:"settlement"`
	// PayoutMismatches are the logged amounts that are not the rules'.
	PayoutMismatches []settle.Diff `json:"payout_mismatches"`
}

// readRoundRecord reads --round's record: one JSON round, from a file or
// ("-") standard input.
func readRoundRecord(cmd *cobra.Command, name string) (*round.Round, error) {
	b, name, err := readFileOrStdin(cmd, name)
	if err != nil {
		return nil, err // an error of the environment: exit 1
	}
	rec, err := pageround.ParseRecord(b)
	if err != nil {
		return nil, usageErrorf("--round %s: %v", name, strings.TrimPrefix(err.Error(), "round: "))
	}
	return rec, nil
}

// recordRound is the page's round of a record (its fairness, its logged
// cards as the claim), or a usage error naming the file.
func recordRound(name string, rec *round.Round) (pageround.Round, error) {
	r, err := pageround.FromRecord(rec)
	if err != nil {
		return r, usageErrorf("--round %s: %s", name, strings.TrimPrefix(err.Error(), "round: "))
	}
	return r, nil
}

// runVerifyRound is `fairhold verify --round FILE`: the record's fairness
// checks as the page runs them (pageround.Verify, the same code), then its
// payout check.
func runVerifyRound(cmd *cobra.Command, v *verifyFlags) error {
	f := cmd.Flags()
	for _, name := range verifyRoundExcludes {
		if f.Changed(name) {
			return usageErrorf("--round and --%s: the round file gives the round; give one or the other", name)
		}
	}
	if v.roundFile == "" {
		return usageErrorf("--round: want a file name (or - for standard input), got an empty one")
	}
	name := v.roundFile
	if name == "-" {
		name = "stdin"
	}
	rec, err := readRoundRecord(cmd, v.roundFile)
	if err != nil {
		return err
	}
	r, err := recordRound(name, rec)
	if err != nil {
		return err
	}
	vd := pageround.Verify(r)
	if vd.Result == "error" {
		field := vd.Field
		if field == "" {
			field = "fairness"
		} else {
			field = "fairness." + field
		}
		return usageErrorf("--round %s: %s: %s", name, field, strings.TrimPrefix(vd.Error, vd.Field+": "))
	}
	profArg := v.profile
	if profArg == "" {
		profArg = rec.Profile
	}
	if profArg == "" {
		profArg = rec.Game
	}
	p, err := profile.Load(profArg)
	if err != nil {
		return usageErrorf("--round %s: profile: %v", name, err)
	}
	if h := p.Hash(); rec.ProfileHash != "" && rec.ProfileHash != h {
		fmt.Fprintf(cmd.ErrOrStderr(), "fairhold: note: the round was logged under profile hash %s; settling under %s\n", rec.ProfileHash, h)
	}
	pay, err := pageround.SettlePayout(p, rec, pageround.PayoutDeal(vd))
	var ue *settle.UnsettledError
	switch {
	case errors.As(err, &ue):
		return usageErrorf("--round %s: %v", name, ue.Err)
	case err != nil:
		return fmt.Errorf("--round %s: %w", name, err)
	}
	out := vd.Verdict
	out.Checks = append(out.Checks, pay.Check)
	if !pay.Check.OK {
		out.Verdict, out.Verified = check.VerdictFailed, false
	}
	head := fmt.Sprintf("round %s  game %s  profile %s\n", rec.RoundID, rec.Game, p.Name)
	return reportVerdict(cmd, v, out, roundVerdict{RoundID: rec.RoundID, Verdict: out, Settlement: pay.Settlement, PayoutMismatches: pay.Mismatches}, head)
}

// readFileOrStdin reads the file name, or standard input for "-", and
// returns its bytes and the name to give in messages ("stdin" for "-").
func readFileOrStdin(cmd *cobra.Command, name string) ([]byte, string, error) {
	if name == "-" {
		b, err := io.ReadAll(cmd.InOrStdin())
		return b, "stdin", err
	}
	b, err := os.ReadFile(name)
	return b, name, err
}
