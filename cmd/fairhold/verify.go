package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/card"
)

type verifyFlags struct {
	round        roundFlags
	commitment   string
	committedAt  string
	anchor       string
	steps        uint64
	maxSteps     int
	usedNonces   string
	cards        string
	allowPartial bool
	asJSON       bool
	roundFile    string
	profile      string
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
  cards                    --cards (in dealing order) equal the scheme's deal;
                           a mismatch names the position and both cards, as in
                           "river: Qd claimed, Qc dealt"
  no-repeated-cards        stake-compat: no card was drawn twice
  payout                   --round: the returns the record logs (Double Hold'em:
                           the stacks after the hand) are the rules'; a difference
                           names the bet and both amounts, as in "box 1 ANTE: the
                           rules pay EUR 32.00, the log says EUR 31.99"

--round FILE takes the round from a round record instead of the flags: one
JSON round of docs/log-format.md, as one line of a JSON Lines log or a
player's copy of the round ("-" reads standard input). Its seeds, nonce,
beacon and commitment (a hash chain's round, chain_index set: its chain
anchor) are checked, its logged cards are the claimed cards (in dealing
order, up to the first card it does not log), and it is settled under
--profile (default: the profile it names, else its game's built-in one)
as "fairhold settle" settles it, with the cards the seeds deal (the logged
ones when the cards check fails: docs/fairness.md section 14.2); the flags
that describe a round cannot be given with it. With --link it prints the
round's link to the verifier page instead.

When a check fails, "hint:" lines name the usual copying mistakes that
explain it, before anyone speaks of cheating ("hints" in --json,
docs/fairness.md section 14.1): the hashed server seed (the commitment)
given as the server seed, or the two swapped; a client seed with a stray
space or line break; one seed split in two; the nonce off by one; the
other scheme. A hint is "likely" when the input so corrected passes. When
every card differs and no correction explains it, the hint lists those
causes.

--cards takes every notation of docs/cards.md ("As Kd", "as,kd", "AsKd10h",
"A♠K♦"). When the round deals cards (--game, or --count), fewer cards than it
deals, none included, is a partial claim: the first positions are checked, the
rest are listed as not checked, and the verdict is "partial", which exits 3
unless --allow-partial; more cards than the round deals is a usage error.
Without --game and --count the round deals exactly the cards claimed: none
without --cards, and then the other checks alone give "verified".

Nothing binds the server seed without --commitment or --chain-anchor: the
operator could have chosen it after seeing the client seeds, so cards that
follow from it prove nothing. Such a round cannot be checked, whatever its
checks say: the verdict is "partial" ("unbound" in --json names what is
missing) and it exits 3, with or without --allow-partial.

The verdict is "verified", "partial" or "failed" ("verdict" in --json,
docs/fairness.md section 19).

Exit codes: 0 verified (or partial with --allow-partial, when a commitment
or chain anchor binds the seed), 3 a check failed (the payout included), a
partial claim or a seed nothing binds, 2 malformed input (the message names
the flag, or the --round file and its field), 1 a --round file that cannot
be read.`,
		Example: `  # the commitment alone (nothing dealt): verified
  fairhold verify --server-seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
    --commitment 630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd \
    --client-seed player-seed-1 --nonce 1 --json
  # the commitment and a game, but no --cards: partial (exit 0 with --allow-partial)
  fairhold verify --server-seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
    --commitment 630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd \
    --client-seed player-seed-1 --nonce 1 --game casino-holdem --allow-partial
  # a round record from the casino's history: its fairness and its payout
  fairhold verify --round docs/examples/player-round.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runVerify(cmd, &v) },
	}
	v.round.register(cmd)
	f := cmd.Flags()
	// --server-seed and --nonce are required without --round only: a round
	// file gives them (runVerify says when they are missing).
	for _, name := range []string{"server-seed", "nonce"} {
		_ = f.SetAnnotation(name, cobra.BashCompOneRequiredFlag, []string{"false"})
	}
	f.StringVar(&v.roundFile, "round", "", "a round record, one JSON round of docs/log-format.md (- for stdin): verify its fairness and its payout instead of the round's flags")
	f.StringVar(&v.profile, "profile", "", "with --round: the rules profile to settle under, a built-in name or a JSON file (default: the round's profile, else its game's)")
	f.StringVar(&v.commitment, "commitment", "", "the published commitment, 64 hex digits")
	f.StringVar(&v.committedAt, "committed-at", "", "when the commitment was published (RFC 3339), to check that the beacon came later")
	f.StringVar(&v.anchor, "chain-anchor", "", "the chain's anchor or the last verified link, 64 hex digits")
	f.Uint64Var(&v.steps, "chain-steps", 0, "exact number of hashes from the link to the anchor, 1..10000000 (default: search)")
	f.IntVar(&v.maxSteps, "chain-max-steps", check.DefaultMaxSteps, "bound on the search for the anchor, 1..10000000")
	f.StringVar(&v.usedNonces, "used-nonces", "", "comma-separated nonces already used with this server seed")
	f.StringVar(&v.cards, "cards", "", `the claimed cards in dealing order, e.g. "As Kd 7c ..."`)
	f.BoolVar(&v.allowPartial, "allow-partial", false, "exit 0 for a partial claim (fewer --cards than the round deals, or none) whose cards match")
	f.BoolVar(&v.asJSON, "json", false, "print JSON")
	addVerifyLinkFlags(cmd)
	return cmd
}

func runVerify(cmd *cobra.Command, v *verifyFlags) error {
	if done, err := verifyLink(cmd); done {
		return err
	}
	f := cmd.Flags()
	if f.Changed("round") {
		return runVerifyRound(cmd, v)
	}
	if f.Changed("profile") {
		return usageErrorf("--profile is the rules profile of --round's record: give --round too")
	}
	var missing []string
	for _, name := range []string{"nonce", "server-seed"} {
		if !f.Changed(name) {
			missing = append(missing, strconv.Quote(name))
		}
	}
	if len(missing) > 0 {
		return usageErrorf("required flag(s) %s not set (or give --round FILE)", strings.Join(missing, ", "))
	}
	if f.Changed("count") && v.round.count < 1 {
		return usageErrorf("--count: %d cards, want at least 1", v.round.count)
	}
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
		if c.CommittedAt, err = check.ParseTime(v.committedAt); err != nil {
			return usageErrorf("--committed-at: %v", err)
		}
	}
	if f.Changed("chain-steps") && v.steps == 0 {
		return usageErrorf("--chain-steps: 0 steps, want 1..%d: a link is never its own anchor (leave --chain-steps out to search)", chain.MaxLength)
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
	if f.Changed("cards") {
		if c.Cards, err = parseClaimedCards(v.cards, p.scheme.Properties().WithReplacement); err != nil {
			return err
		}
		if len(c.Cards) > c.Count {
			return usageErrorf("--cards: %d cards claimed, but the round deals %d", len(c.Cards), c.Count)
		}
	}
	if c.Commitment == nil && c.ChainAnchor == nil && c.Beacon == nil && c.UsedNonces == nil && c.Cards == nil {
		return usageErrorf("nothing to verify: give --commitment, --chain-anchor, --beacon-signature, --used-nonces or --cards")
	}
	res, err := check.Run(c)
	if err != nil {
		return malformedFlag(err)
	}
	out, err := check.NewVerdict(c, res)
	if err != nil {
		return err
	}
	return reportVerdict(cmd, v, out, out, "")
}

// reportVerdict prints out (with --json, result: out or a value that
// holds it) and returns verify's exit: 3 for a failed check, a partial
// claim without --allow-partial or a seed nothing binds. head, when not
// empty, is a first line of the text.
func reportVerdict(cmd *cobra.Command, v *verifyFlags, out check.Verdict, result any, head string) error {
	if v.asJSON {
		if err := writeResult(cmd.OutOrStdout(), verdictOf(out.Verified, verdictVerified), result); err != nil {
			return err
		}
	} else {
		var b strings.Builder
		b.WriteString(head)
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
		// The likely copying mistakes, before the verdict.
		for _, h := range out.Hints {
			likely := ""
			if h.Confirmed {
				likely = " (likely)"
			}
			fmt.Fprintf(&b, "hint%s: %s\n", likely, h.Text)
		}
		cardsPartial := len(out.UncheckedPositions) > 0
		switch {
		case out.Verdict == check.VerdictVerified:
			b.WriteString("verified\n")
		case out.Verdict == check.VerdictPartial && cardsPartial && out.Claimed == 0:
			fmt.Fprintf(&b, "partial: none of the %d cards claimed; not checked: %s\n",
				out.Count, strings.Join(out.UncheckedPositions, "; "))
		case out.Verdict == check.VerdictPartial && cardsPartial:
			fmt.Fprintf(&b, "partial: %d of the %d cards claimed and checked (%s); not checked: %s\n",
				out.Claimed, out.Count, strings.Join(out.CheckedPositions, "; "), strings.Join(out.UncheckedPositions, "; "))
		case out.Verdict == check.VerdictFailed:
			b.WriteString("NOT verified\n")
		}
		if out.Verdict == check.VerdictPartial && out.Unbound != "" {
			fmt.Fprintf(&b, "cannot check: %s\n", out.Unbound)
		}
		if _, err := fmt.Fprint(cmd.OutOrStdout(), b.String()); err != nil {
			return err
		}
	}
	switch {
	case out.Verdict == check.VerdictFailed:
		return errVerificationFailed
	case out.Verdict == check.VerdictPartial && out.Unbound != "":
		// --allow-partial accepts fewer cards, never a seed nothing binds.
		return &exitErr{code: exitVerified, err: errUnbound}
	case out.Verdict == check.VerdictPartial && !v.allowPartial && v.roundFile != "":
		return &exitErr{code: exitVerified, err: fmt.Errorf("partial: the record logs %d of the %d cards the round deals; --allow-partial accepts it", out.Claimed, out.Count)}
	case out.Verdict == check.VerdictPartial && !v.allowPartial:
		if out.Claimed == 0 {
			return &exitErr{code: exitVerified, err: fmt.Errorf("partial claim: none of the %d cards the round deals (give --cards); --allow-partial accepts it", out.Count)}
		}
		return &exitErr{code: exitVerified, err: fmt.Errorf("partial claim: %d of the %d cards the round deals; --allow-partial accepts it", out.Claimed, out.Count)}
	}
	return nil
}

// errUnbound is verify's error for a round whose server seed nothing
// binds (check.Result.Unbound): it cannot be checked, with or without
// --allow-partial.
var errUnbound = errors.New("cannot check: nothing binds the server seed: give --commitment (or --chain-anchor, the hash chain's anchor)")

// parseClaimedCards parses a card list in any notation of docs/cards.md. A
// repeated card is malformed, except for schemes that draw with
// replacement.
func parseClaimedCards(s string, withReplacement bool) ([]uint8, error) {
	parse := card.ParseList
	if withReplacement {
		parse = card.ParseSequence
	}
	cs, err := parse(s)
	if err != nil {
		return nil, usageErrorf("--cards: %v", err)
	}
	if len(cs) == 0 {
		return nil, usageErrorf("--cards: no cards")
	}
	out := make([]uint8, len(cs))
	for i, c := range cs {
		out[i] = uint8(c)
	}
	return out, nil
}
