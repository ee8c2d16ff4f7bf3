package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/fairness/beacon"
	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/card"
)

// roundFlags are the inputs of one round, shared by deal and verify.
type roundFlags struct {
	scheme      string
	game        string
	serverSeed  string
	clientSeeds []string
	nonce       string
	boxes       int
	seats       string
	button      int
	count       int

	beaconChain string
	beaconRound uint64
	beaconSig   string
	beaconPrev  string
}

func (r *roundFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&r.scheme, "scheme", scheme.FairholdV1Name, "provably-fair scheme: "+strings.Join(scheme.Names(), ", "))
	f.StringVar(&r.game, "game", "", "game whose dealing order to use: "+strings.Join(layout.Games(), ", ")+" (default: the raw sequence, with --count)")
	f.StringVar(&r.serverSeed, "server-seed", "", "the revealed server seed or chain link, 64 hex digits")
	f.StringArrayVar(&r.clientSeeds, "client-seed", nil, "a client seed; repeat in seat order for a multi-player table")
	f.StringVar(&r.nonce, "nonce", "", "the round's nonce, a decimal integer 0..2^64-1")
	f.IntVar(&r.boxes, "boxes", 1, "live-casino-holdem: number of boxes in play, 1..6")
	f.StringVar(&r.seats, "seats", "", `double-holdem: occupied seat numbers in increasing order, e.g. "1,3,4,7"`)
	f.IntVar(&r.button, "button", 0, "double-holdem: the button's seat (dealing starts left of it)")
	f.IntVar(&r.count, "count", 0, "number of cards to deal without a game layout")
	f.StringVar(&r.beaconChain, "beacon-chain", beacon.Quicknet, "drand chain of the beacon: quicknet or default")
	f.Uint64Var(&r.beaconRound, "beacon-round", 0, "drand round mixed into the stream")
	f.StringVar(&r.beaconSig, "beacon-signature", "", "the drand round's signature, hex")
	f.StringVar(&r.beaconPrev, "beacon-previous-signature", "", "default chain: the previous round's signature, hex")
	_ = cmd.MarkFlagRequired("server-seed")
	_ = cmd.MarkFlagRequired("nonce")
}

// parsedRound is a round's inputs, parsed.
type parsedRound struct {
	scheme scheme.Scheme
	layout *layout.Layout
	seats  []int // double-holdem: seat numbers in dealing order
	claim  check.Claim
}

// parseHexFlag decodes a hex flag value; want < 0 accepts any length. The
// error names the flag and never repeats the value, which may be secret.
func parseHexFlag(flag, s string, want int) ([]byte, error) {
	b, err := seed.DecodeHex(s, want)
	if err != nil {
		return nil, usageErrorf("--%s: %v", flag, err)
	}
	return b, nil
}

// parseNonce parses a decimal uint64 in canonical form.
func parseNonce(flag, s string) (uint64, error) {
	n, err := scheme.ParseNonce(s)
	if err != nil {
		return 0, usageErrorf("--%s: %v", flag, err)
	}
	return n, nil
}

// parseSeats parses a comma-separated list of seat numbers.
func parseSeats(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, usageErrorf("--seats: %q is not a seat number", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func (r *roundFlags) parse(cmd *cobra.Command) (parsedRound, error) {
	var p parsedRound
	var err error
	if p.scheme, err = scheme.Lookup(r.scheme); err != nil {
		return p, usageErrorf("--scheme: %v", err)
	}
	c := check.Claim{Scheme: r.scheme, ClientSeeds: r.clientSeeds}
	if c.ServerSeed, err = parseHexFlag("server-seed", r.serverSeed, scheme.SeedSize); err != nil {
		return p, err
	}
	if len(r.clientSeeds) == 0 {
		return p, usageErrorf("--client-seed: give at least one client seed")
	}
	if c.Nonce, err = parseNonce("nonce", r.nonce); err != nil {
		return p, err
	}
	if r.game != layout.DoubleHoldem && (r.seats != "" || cmd.Flags().Changed("button")) {
		return p, usageErrorf("--seats/--button: only double-holdem has seats and a button")
	}
	if r.game != "" {
		hands := 1
		switch r.game {
		case layout.LiveCasinoHoldem:
			hands = r.boxes
		case layout.DoubleHoldem:
			if r.seats == "" {
				return p, usageErrorf("--seats: double-holdem needs the occupied seats and --button")
			}
			seats, err := parseSeats(r.seats)
			if err != nil {
				return p, err
			}
			if p.seats, err = layout.SeatOrder(seats, r.button); err != nil {
				var te *layout.TableError
				if errors.As(err, &te) {
					return p, usageErrorf("--%s: %s", te.Field, te.Reason)
				}
				return p, usageErrorf("--seats/--button: %v", err)
			}
			hands = len(seats)
		}
		l, err := layout.For(r.game, hands)
		if err != nil {
			return p, usageErrorf("--game: %v", err)
		}
		p.layout = &l
		c.Count = l.Count
		if cmd.Flags().Changed("count") && r.count != l.Count {
			return p, usageErrorf("--count: %s deals %d cards, got --count %d", r.game, l.Count, r.count)
		}
		c.Layout, c.Seats = &l, p.seats
	} else {
		if !cmd.Flags().Changed("count") {
			return p, usageErrorf("--game or --count: give a game layout or the number of cards to deal")
		}
		if r.count < 0 {
			return p, usageErrorf("--count: %d cards, want at least 0", r.count)
		}
		c.Count = r.count
	}
	if r.beaconSig != "" || cmd.Flags().Changed("beacon-round") {
		b := &check.Beacon{Chain: r.beaconChain, Round: r.beaconRound}
		if b.Signature, err = parseHexFlag("beacon-signature", r.beaconSig, -1); err != nil {
			return p, err
		}
		if r.beaconPrev != "" {
			if b.PreviousSignature, err = parseHexFlag("beacon-previous-signature", r.beaconPrev, -1); err != nil {
				return p, err
			}
		}
		c.Beacon = b
	}
	p.claim = c
	return p, nil
}

// malformedFlag turns a check.MalformedError into a usage error naming the
// flag.
func malformedFlag(err error) error {
	var me *check.MalformedError
	if !errors.As(err, &me) {
		return err
	}
	flag := map[string]string{
		"scheme": "scheme", "server_seed": "server-seed", "client_seeds": "client-seed",
		"commitment": "commitment", "chain_anchor": "chain-anchor", "beacon": "beacon-signature",
		"beacon_chain": "beacon-chain", "count": "count", "claimed_cards": "cards",
		"chain_steps": "chain-steps", "chain_max_steps": "chain-max-steps", "beacon_round": "beacon-round",
		"beacon_previous_signature": "beacon-previous-signature",
	}[me.Field]
	if flag == "" {
		flag = me.Field
	}
	return usageErrorf("--%s: %s", flag, me.Reason)
}

func cardNames(idx []uint8) []string {
	out := make([]string, len(idx))
	for i, c := range idx {
		out[i] = card.Card(c).String()
	}
	return out
}

// splitCards arranges dealt cards by the round's layout.
func splitCards(p parsedRound, dealt []uint8) (layout.Deal, error) {
	return layout.NewDeal(p.layout, p.seats, cardNames(dealt))
}

// writeDealText prints d for people, one position a line.
func writeDealText(w *strings.Builder, d layout.Deal) {
	line := func(name string, cs ...string) { fmt.Fprintf(w, "%-8s %s\n", name+":", strings.Join(cs, " ")) }
	if d.Draws != nil {
		line("draws", d.Draws...)
		return
	}
	if d.Player != nil {
		line("player", d.Player...)
	}
	for i, b := range d.Boxes {
		line(fmt.Sprintf("box %d", i+1), b...)
	}
	for _, s := range d.Seats {
		line(fmt.Sprintf("seat %d", s.Seat), s.Cards...)
	}
	if d.Dealer != nil {
		line("dealer", d.Dealer...)
	}
	line("flop", d.Flop...)
	line("turn", d.Turn)
	line("river", d.River)
}

func newDealCmd() *cobra.Command {
	var r roundFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "deal",
		Short: "Deal a round's cards from its revealed seeds",
		Long: `Deal the cards of one round from its revealed server seed, client seeds, nonce
and (optionally) drand beacon, under a provably-fair scheme (docs/fairness.md).

With --game the cards are arranged by the game's dealing order: casino-holdem
(player, dealer, flop, turn, river), live-casino-holdem (--boxes 1..6, then
dealer and board) or double-holdem (--seats and --button: three hole cards per
seat starting left of the button, then the board). Without --game, --count K
prints the first K cards in order as "draws" (stake-compat draws with
replacement).

A beacon given with --beacon-round and --beacon-signature is verified first;
an invalid beacon exits with status 3.`,
		Example: `  fairhold deal --game casino-holdem --server-seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f --client-seed player-seed-1 --nonce 1 --json
  fairhold deal --scheme stake-compat --server-seed 18e93f4a7b5b58d2569765766d1b6c3296bbd8430d6f20249044d72f14720159 --client-seed bb62964774 --nonce 1 --count 10`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := r.parse(cmd)
			if err != nil {
				return err
			}
			if p.claim.Count < 1 {
				// Dealing nothing would leave nothing to print.
				return usageErrorf("--count: 0 cards, want at least 1")
			}
			res, err := check.Run(p.claim)
			if err != nil {
				return malformedFlag(err)
			}
			if res.Dealt == nil {
				// Only a beacon that does not verify leaves the cards underivable.
				for _, c := range res.Checks {
					if !c.OK {
						fmt.Fprintf(cmd.ErrOrStderr(), "fairhold: %s: %s\n", c.Name, c.Detail)
					}
				}
				return errVerificationFailed
			}
			cards, err := splitCards(p, res.Dealt)
			if err != nil {
				return err
			}
			out := check.Dealt{Scheme: p.scheme.Name(), Game: r.game, Nonce: p.claim.Nonce, Cards: cards, Notes: p.scheme.Properties().Notes}
			if res.Randomness != nil {
				out.BeaconRandomness = hex.EncodeToString(res.Randomness)
			}
			if asJSON {
				return writeResult(cmd.OutOrStdout(), verdictOK, out)
			}
			var b strings.Builder
			writeDealText(&b, cards)
			if out.BeaconRandomness != "" {
				fmt.Fprintf(&b, "beacon randomness: %s\n", out.BeaconRandomness)
			}
			for _, n := range out.Notes {
				fmt.Fprintf(&b, "note: %s\n", n)
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), b.String())
			return err
		},
	}
	r.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
