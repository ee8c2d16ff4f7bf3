package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/cmd/fairhold/internal/pageround"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/vectors"
)

// Links to the players' verifier page (docs/verifier-page.md, section 5):
// `fairhold verify --link` and `fairhold replay --explain ROUND_ID` print a
// URL of the page whose fragment carries the round; with --json, a
// pageLinkResult.

// defaultPageURL is where `fairhold serve` serves the page by default.
const defaultPageURL = "http://127.0.0.1:8080/"

// addVerifyLinkFlags adds --link and --page-url to verify.
func addVerifyLinkFlags(cmd *cobra.Command) {
	cmd.Flags().Bool("link", false, "print a link to the verifier page that checks this round (docs/verifier-page.md) instead of verifying")
	cmd.Flags().String("page-url", defaultPageURL, "with --link: the verifier page's address (fairhold serve's, or a saved copy's file:// URL)")
}

// pageLinkResult is what `verify --link --json` and `replay --explain
// --json` print (docs/report-format.md, section 12).
type pageLinkResult struct {
	// Link is the verifier page's URL, the round in its fragment.
	Link string `json:"link"`
	// RoundID is the logged round's id (replay --explain); verify's claim
	// has none.
	RoundID string `json:"round_id,omitempty"`
	// Unbound is check.UnboundReason when nothing binds the round's
	// server seed (no commitment, no chain anchor): the page says it
	// cannot check the round. Empty otherwise.
	Unbound string `json:"unbound,omitempty"`
}

// verifyLink prints the page link of verify's flags when --link is given;
// done is true when it did, or when a flag of the link was given without
// --link (a usage error).
func verifyLink(cmd *cobra.Command) (done bool, err error) {
	f := cmd.Flags()
	if on, _ := f.GetBool("link"); !on {
		if f.Changed("page-url") {
			return true, usageErrorf("--page-url is the address of --link's page: give --link too")
		}
		return false, nil
	}
	str := func(name string) string {
		if fl := f.Lookup(name); fl != nil {
			return fl.Value.String()
		}
		return ""
	}
	if f.Changed("round") {
		// The link of a round record, as replay --explain makes it.
		for _, name := range verifyRoundExcludes {
			if f.Changed(name) {
				return true, usageErrorf("--round and --%s: the round file gives the round; give one or the other", name)
			}
		}
		name := str("round")
		rec, err := readRoundRecord(cmd, name)
		if err != nil {
			return true, err
		}
		r, err := recordRound(name, rec)
		if err != nil {
			return true, err
		}
		return true, printPageLink(cmd, str("page-url"), r, rec.RoundID)
	}
	seeds, _ := f.GetStringArray("client-seed")
	r := pageround.Round{
		Scheme: str("scheme"), Game: str("game"), ServerSeed: str("server-seed"), ClientSeeds: seeds,
		Nonce: str("nonce"), Commitment: str("commitment"), CommittedAt: str("committed-at"),
	}
	atoi := func(name string) (int, error) {
		n, err := strconv.Atoi(str(name))
		if err != nil {
			return 0, usageErrorf("--%s: %v", name, err)
		}
		return n, nil
	}
	switch r.Game {
	case "":
		if r.Count, err = atoi("count"); err != nil {
			return true, err
		}
	case "live-casino-holdem":
		if r.Hands, err = atoi("boxes"); err != nil {
			return true, err
		}
	case "double-holdem":
		seats, err := parseSeats(str("seats"))
		if err != nil {
			return true, err
		}
		r.Seats = seats
		if r.Button, err = atoi("button"); err != nil {
			return true, err
		}
	}
	if a := str("chain-anchor"); a != "" {
		var steps *uint64
		if f.Changed("chain-steps") {
			n, _ := f.GetUint64("chain-steps")
			steps = &n
		}
		maxSteps := 0
		if f.Changed("chain-max-steps") {
			maxSteps, _ = f.GetInt("chain-max-steps")
		}
		r.Chain = pageround.ChainClaim(a, steps, maxSteps)
	}
	if sig := str("beacon-signature"); sig != "" || f.Changed("beacon-round") {
		rd, _ := f.GetUint64("beacon-round")
		r.Beacon = &vectors.BeaconClaim{Chain: str("beacon-chain"), Round: rd, Signature: sig, PreviousSignature: str("beacon-previous-signature")}
	}
	if u := str("used-nonces"); u != "" {
		for _, s := range strings.Split(u, ",") {
			r.UsedNonces = append(r.UsedNonces, strings.TrimSpace(s))
		}
	}
	if cs := str("cards"); cs != "" {
		if r.Cards, err = cardNamesOf(cs); err != nil {
			return true, err
		}
	}
	return true, printPageLink(cmd, str("page-url"), r, "")
}

// cardNamesOf parses a card list in any notation of docs/cards.md into
// canonical names; a repeated card is kept (stake-compat deals with
// replacement; the page reports it).
func cardNamesOf(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Fields(strings.NewReplacer(",", " ", ";", " ").Replace(s)) {
		cs, err := card.ParseList(f)
		if err != nil {
			return nil, usageErrorf("--cards: %v", err)
		}
		out = append(out, card.Strings(cs)...)
	}
	return out, nil
}

// printPageLink checks that the page can read r and prints its link: the
// URL alone, or with --json a pageLinkResult with roundID. When nothing
// binds the round's server seed, the page will say it cannot check the
// round: a note on stderr says so (and, with --json, "unbound").
func printPageLink(cmd *cobra.Command, base string, r pageround.Round, roundID string) error {
	v := pageround.Verify(r)
	if v.Result == "error" {
		return usageErrorf("the round cannot be checked: %s", v.Error)
	}
	link, err := pageround.Link(base, r)
	if err != nil {
		return err
	}
	if v.Unbound != "" {
		hint := "give --commitment, or --chain-anchor"
		if roundID != "" {
			hint = "the log records none"
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "fairhold: note: the page will say it cannot check this round: %s (%s)\n", v.Unbound, hint)
	}
	w := cmd.OutOrStdout()
	if asJSON, _ := cmd.Flags().GetBool("json"); asJSON {
		return writeResult(w, verdictOK, pageLinkResult{Link: link, RoundID: roundID, Unbound: v.Unbound})
	}
	_, err = fmt.Fprintln(w, link)
	return err
}

// addReplayExplainFlags adds --explain and --page-url to replay.
func addReplayExplainFlags(cmd *cobra.Command) {
	cmd.Flags().String("explain", "", "print a link to the verifier page that checks round ROUND_ID of the logs (docs/verifier-page.md) instead of replaying (not with --"+
		strings.Join(explainExcludes, ", --")+")")
	cmd.Flags().String("page-url", defaultPageURL, "with --explain: the verifier page's address")
}

// explainExcludes are replay's flags that --explain, which replays
// nothing, cannot honour: a usage error with it rather than ignored.
var explainExcludes = []string{"shard", "shard-from-env", "part-out", "findings", "findings-format", "memprofile", "manifest-key"}

// replayExplain prints the page link of the logged round --explain names;
// done is true when --explain was given, or when a flag of the link was
// given without it (a usage error).
func replayExplain(cmd *cobra.Command, paths []string) (done bool, err error) {
	f := cmd.Flags()
	if !f.Changed("explain") {
		if f.Changed("page-url") {
			return true, usageErrorf("--page-url is the address of --explain's page: give --explain ROUND_ID too")
		}
		return false, nil
	}
	id, _ := f.GetString("explain")
	if id == "" {
		return true, usageErrorf("--explain: want a round id, got an empty one")
	}
	for _, name := range explainExcludes {
		if f.Changed(name) {
			return true, usageErrorf("--explain and --%s: --explain prints the link of one round instead of replaying; give one or the other", name)
		}
	}
	base, _ := f.GetString("page-url")
	ds, err := roundlog.Open(paths...)
	if err != nil {
		return true, err
	}
	errFound := errors.New("found")
	var rec *roundlog.Record
	for i := range ds.Units() {
		_, err := ds.ReadUnit(i, func(r *roundlog.Record) error {
			if r.Round.RoundID == id {
				c := *r
				rec = &c
				return errFound
			}
			return nil
		})
		if errors.Is(err, errFound) {
			break
		}
		if err != nil {
			return true, err
		}
	}
	if rec == nil {
		return true, usageErrorf("--explain: no round %q in %s", id, strings.Join(paths, " "))
	}
	r, err := pageround.FromRecord(&rec.Round)
	if err != nil {
		return true, usageErrorf("--explain: %s row %d: %v", rec.File, rec.Row, err)
	}
	return true, printPageLink(cmd, base, r, rec.Round.RoundID)
}
