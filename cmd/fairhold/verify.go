package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/card"
)

type verifyFlags struct {
	round       roundFlags
	commitment  string
	committedAt string
	anchor      string
	steps       uint64
	maxSteps    int
	usedNonces  string
	cards       string
	asJSON      bool
}

func newVerifyCmd() *cobra.Command {
	var v verifyFlags
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Verify a round: commitment, chain link, beacon, nonce and cards",
		Long: `Verify one provably-fair round from its revealed seeds. Every check whose inputs
are given is run and reported:

  commitment               SHA-256 of the server seed's 32 bytes equals --commitment
  chain                    the server seed (a chain link) hashes to --chain-anchor in
                           --chain-steps steps, or within --chain-max-steps
  beacon-signature         the drand round's BLS signature verifies
  beacon-after-commitment  the drand round was published after --committed-at
  nonce-unused             the nonce is not among --used-nonces
  cards                    --cards (in dealing order) equal the scheme's deal
  no-repeated-cards        stake-compat: no card was drawn twice

Exit codes: 0 every check passed, 3 a check failed, 2 malformed input (the
message names the flag).`,
		Example: `  fairhold verify --server-seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
    --commitment 630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd \
    --client-seed player-seed-1 --nonce 1 --game casino-holdem --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runVerify(cmd, &v) },
	}
	v.round.register(cmd)
	f := cmd.Flags()
	f.StringVar(&v.commitment, "commitment", "", "the published commitment, 64 hex digits")
	f.StringVar(&v.committedAt, "committed-at", "", "when the commitment was published (RFC 3339), to check that the beacon came later")
	f.StringVar(&v.anchor, "chain-anchor", "", "the chain's anchor or the last verified link, 64 hex digits")
	f.Uint64Var(&v.steps, "chain-steps", 0, "exact number of hashes from the link to the anchor, 1..10000000 (default: search)")
	f.IntVar(&v.maxSteps, "chain-max-steps", check.DefaultMaxSteps, "bound on the search for the anchor, 1..10000000")
	f.StringVar(&v.usedNonces, "used-nonces", "", "comma-separated nonces already used with this server seed")
	f.StringVar(&v.cards, "cards", "", `the claimed cards in dealing order, e.g. "As Kd 7c ..."`)
	f.BoolVar(&v.asJSON, "json", false, "print JSON")
	addVerifyLinkFlags(cmd)
	return cmd
}

func runVerify(cmd *cobra.Command, v *verifyFlags) error {
	if done, err := verifyLink(cmd); done {
		return err
	}
	f := cmd.Flags()
	if !f.Changed("game") && !f.Changed("count") {
		// Without a game layout, the claimed cards say how many to deal;
		// malformed input is reported by the parsing below.
		n := 0
		if s, err := scheme.Lookup(v.round.scheme); err == nil && v.cards != "" {
			if cs, err := parseClaimedCards(v.cards, s.Properties().WithReplacement); err == nil {
				n = len(cs)
			}
		}
		_ = f.Set("count", strconv.Itoa(n))
	}
	p, err := v.round.parse(cmd)
	if err != nil {
		return err
	}
	c := p.claim
	if v.commitment != "" {
		if c.Commitment, err = parseHexFlag("commitment", v.commitment, seed.Size); err != nil {
			return err
		}
	}
	if v.committedAt != "" {
		if c.CommittedAt, err = time.Parse(time.RFC3339, v.committedAt); err != nil {
			return usageErrorf("--committed-at: want an RFC 3339 time such as 2026-01-02T15:04:05Z")
		}
	}
	if v.anchor != "" {
		if c.ChainAnchor, err = parseHexFlag("chain-anchor", v.anchor, seed.Size); err != nil {
			return err
		}
		c.ChainSteps, c.MaxSteps = v.steps, v.maxSteps
	}
	if v.usedNonces != "" {
		for _, s := range strings.Split(v.usedNonces, ",") {
			n, err := parseNonce("used-nonces", strings.TrimSpace(s))
			if err != nil {
				return err
			}
			c.UsedNonces = append(c.UsedNonces, n)
		}
	}
	if v.cards != "" {
		if c.Cards, err = parseClaimedCards(v.cards, p.scheme.Properties().WithReplacement); err != nil {
			return err
		}
		if len(c.Cards) > c.Count {
			return usageErrorf("--cards: %d cards, but the round deals %d", len(c.Cards), c.Count)
		}
	}
	if c.Commitment == nil && c.ChainAnchor == nil && c.Beacon == nil && c.UsedNonces == nil && c.Cards == nil {
		return usageErrorf("nothing to verify: give --commitment, --chain-anchor, --beacon-signature, --used-nonces or --cards")
	}
	res, err := check.Run(c)
	if err != nil {
		return malformedFlag(err)
	}
	out := check.Verdict{Verified: res.Verified, Scheme: p.scheme.Name(), Checks: res.Checks, Notes: p.scheme.Properties().Notes}
	if res.Dealt != nil && c.Count > 0 {
		cards, err := splitCards(p, res.Dealt)
		if err != nil {
			return err
		}
		out.Cards = &cards
	}
	if v.asJSON {
		if err := writeJSON(cmd.OutOrStdout(), out); err != nil {
			return err
		}
	} else {
		var b strings.Builder
		for _, ch := range out.Checks {
			status := "ok  "
			if !ch.OK {
				status = "FAIL"
			}
			fmt.Fprintf(&b, "%s  %-24s %s\n", status, ch.Name, ch.Detail)
		}
		for _, n := range out.Notes {
			fmt.Fprintf(&b, "note: %s\n", n)
		}
		if out.Verified {
			b.WriteString("verified\n")
		} else {
			b.WriteString("NOT verified\n")
		}
		if _, err := fmt.Fprint(cmd.OutOrStdout(), b.String()); err != nil {
			return err
		}
	}
	if !out.Verified {
		return errVerificationFailed
	}
	return nil
}

// parseClaimedCards parses a card list. A repeated card is malformed,
// except for schemes that draw with replacement.
func parseClaimedCards(s string, withReplacement bool) ([]uint8, error) {
	var cs []card.Card
	if withReplacement {
		for _, f := range strings.Fields(strings.ReplaceAll(s, ",", " ")) {
			c, err := card.Parse(f)
			if err != nil {
				return nil, usageErrorf("--cards: %v", err)
			}
			cs = append(cs, c)
		}
	} else {
		var err error
		if cs, err = card.ParseList(s); err != nil {
			return nil, usageErrorf("--cards: %v", err)
		}
	}
	out := make([]uint8, len(cs))
	for i, c := range cs {
		out[i] = uint8(c)
	}
	return out, nil
}
