package check

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/fairhold/fairhold/fairness/scheme"
)

// Kinds of [Hint], in the order [Hints] reports them.
const (
	// HintHashedServerSeed: the server seed given is the commitment, the
	// hashed server seed shown before the round, not the seed revealed
	// after it.
	HintHashedServerSeed = "hashed-server-seed"
	// HintSwappedSeeds: the server seed given is the SHA-256 of the
	// commitment given: the two fields are swapped.
	HintSwappedSeeds = "swapped-seeds"
	// HintClientSeedWhiteSpace: a client seed has white space at either
	// end (or inside); confirmed when the seed without it deals the
	// claimed cards.
	HintClientSeedWhiteSpace = "client-seed-white-space"
	// HintClientSeedSplit: several client seeds given, and one seed made
	// of them (a line break split it) deals the claimed cards.
	HintClientSeedSplit = "client-seed-split"
	// HintNonceOffByOne: the nonce one less or one more deals the claimed
	// cards.
	HintNonceOffByOne = "nonce-off-by-one"
	// HintScheme: the other scheme deals the claimed cards.
	HintScheme = "scheme"
	// HintEveryCardDiffers: every claimed card differs from the deal (all
	// but one, at most): another deck altogether, what a copying mistake
	// gives; no correction tried above explains it.
	HintEveryCardDiffers = "every-card-differs"
)

// Hint is a likely copying mistake that would explain a failed check
// (docs/fairness.md, "Hints"): the usual mistakes are told apart from a
// deal that does not check out before anyone speaks of cheating.
type Hint struct {
	// Kind is one of the Hint* constants.
	Kind string `json:"kind"`
	// Check is the failed check the hint explains ("commitment", "cards").
	Check string `json:"check"`
	// Confirmed is true when the input, corrected as Text says, passes
	// that check: the commitment matches, or every claimed card is dealt.
	Confirmed bool `json:"confirmed"`
	// Text says what was likely mistaken and what to do, in one or two
	// sentences. It never contains the server seed.
	Text string `json:"text"`
}

// Hints returns the likely copying mistakes that explain the failed checks
// of r, the result of [Run] for c: nil when nothing failed. The
// corrections tried are, each alone: the server seed and the commitment
// (the hashed seed pasted as the seed, or the two swapped); every client
// seed without white space at its ends, or without any; several client
// seeds joined into one (a line break splits a pasted seed); the nonce one
// less and one more; the other scheme. A correction under which every
// claimed card is dealt gives a confirmed hint. When none does and every
// claimed card differs (all but one, at most, of two or more), the hint
// names the usual causes.
func Hints(c Claim, r Result) []Hint {
	failed := map[string]bool{}
	for _, it := range r.Checks {
		if !it.OK {
			failed[it.Name] = true
		}
	}
	if len(failed) == 0 {
		return nil
	}
	var out []Hint
	if failed[Commitment] && len(c.ServerSeed) == seed32 && len(c.Commitment) == seed32 {
		if bytes.Equal(c.ServerSeed, c.Commitment) {
			out = append(out, Hint{Kind: HintHashedServerSeed, Check: Commitment, Confirmed: true,
				Text: "The server seed given is the commitment itself: the hashed server seed the casino shows before the round. " +
					"Give the server seed the casino reveals after the round (its SHA-256 is the commitment): this is a copying mistake, and the round is not checked until then."})
		} else if h := sha256.Sum256(c.Commitment); bytes.Equal(h[:], c.ServerSeed) {
			out = append(out, Hint{Kind: HintSwappedSeeds, Check: Commitment, Confirmed: true,
				Text: "The server seed given is the SHA-256 of the commitment given: the two look swapped. " +
					"The server seed is the one revealed after the round, the commitment its hash published before; swap them and check again."})
		}
	}
	if failed[Cards] {
		out = append(out, cardHints(c, r)...)
	}
	return out
}

// seed32 is the length of a server seed and of a commitment.
const seed32 = 32

// cardHints are the hints for a failed cards check.
func cardHints(c Claim, r Result) []Hint {
	n := len(c.Cards)
	if n == 0 || r.Dealt == nil {
		return nil // no claim, or the cards could not be derived (the beacon failed)
	}
	s, err := scheme.Lookup(c.Scheme)
	if err != nil {
		return nil
	}
	// deals reports whether the corrected input deals the claimed cards.
	deals := func(sc scheme.Scheme, seeds []string, nonce uint64) bool {
		got, err := sc.Deal(scheme.Input{ServerSeed: c.ServerSeed, ClientSeeds: seeds, Nonce: nonce, Beacon: r.Randomness}, n)
		return err == nil && bytes.Equal(got, c.Cards)
	}
	var out []Hint
	confirmed := func(kind, text string) {
		out = append(out, Hint{Kind: kind, Check: Cards, Confirmed: true, Text: text})
	}

	// A client seed with white space: without it at the ends, then
	// without any.
	trimmed, bare := make([]string, len(c.ClientSeeds)), make([]string, len(c.ClientSeeds))
	var spaced []int
	for i, cs := range c.ClientSeeds {
		trimmed[i] = strings.TrimSpace(cs)
		bare[i] = strings.Join(strings.FieldsFunc(cs, unicode.IsSpace), "")
		if bare[i] != cs {
			spaced = append(spaced, i)
		}
	}
	if len(spaced) > 0 {
		var fixed []string
		for _, i := range spaced {
			fixed = append(fixed, fmt.Sprintf("client seed %d as %q instead of %q", i+1, trimmed[i], c.ClientSeeds[i]))
		}
		switch {
		case !slices.Equal(trimmed, c.ClientSeeds) && deals(s, trimmed, c.Nonce):
			confirmed(HintClientSeedWhiteSpace, fmt.Sprintf("With %s (white space at its ends removed), every card claimed is dealt: "+
				"the space or line break was most likely copied by mistake. White space is part of a client seed; give the seed exactly as the casino shows it.",
				strings.Join(fixed, ", ")))
		case !slices.Equal(bare, trimmed) && deals(s, bare, c.Nonce):
			var q []string
			for _, i := range spaced {
				q = append(q, fmt.Sprintf("client seed %d as %q", i+1, bare[i]))
			}
			confirmed(HintClientSeedWhiteSpace, fmt.Sprintf("With %s (its white space removed), every card claimed is dealt: "+
				"a space or line break was most likely copied into the seed by mistake.", strings.Join(q, ", ")))
		default:
			for _, i := range spaced {
				out = append(out, Hint{Kind: HintClientSeedWhiteSpace, Check: Cards,
					Text: fmt.Sprintf("Client seed %d (%q) has white space, which is part of the seed and changes the deck: was it meant to be %q?",
						i+1, c.ClientSeeds[i], bare[i])})
			}
		}
	}
	// Several seeds that were one, split by a line break.
	if len(c.ClientSeeds) > 1 {
		for _, sep := range []string{"", " "} {
			joined := strings.Join(c.ClientSeeds, sep)
			if deals(s, []string{joined}, c.Nonce) {
				confirmed(HintClientSeedSplit, fmt.Sprintf("With the %d client seeds as one, %q, every card claimed is dealt: "+
					"a line break most likely split one seed into several.", len(c.ClientSeeds), joined))
				break
			}
		}
	}
	// The nonce off by one.
	for _, d := range []int{-1, 1} {
		nonce := c.Nonce + uint64(d)
		if (d < 0 && c.Nonce == 0) || (d > 0 && nonce == 0) {
			continue
		}
		if deals(s, c.ClientSeeds, nonce) {
			confirmed(HintNonceOffByOne, fmt.Sprintf("With nonce %d instead of %d, every card claimed is dealt: the nonce is most likely off by one "+
				"(casinos count rounds from 0 or from 1, and some show the next round's nonce). Check the nonce of this round.", nonce, c.Nonce))
		}
	}
	// The other scheme.
	for _, name := range scheme.Names() {
		other, err := scheme.Lookup(name)
		if err != nil || name == c.Scheme || (r.Randomness != nil && !other.Properties().Beacon) {
			continue
		}
		if deals(other, c.ClientSeeds, c.Nonce) {
			confirmed(HintScheme, fmt.Sprintf("With the scheme %s instead of %s, every card claimed is dealt: the casino most likely uses %s. Check the round under it.",
				name, c.Scheme, name))
		}
	}
	for _, h := range out {
		if h.Confirmed {
			return out
		}
	}
	if diff := len(r.Mismatches); n >= 2 && diff >= n-1 {
		what := fmt.Sprintf("None of the %d cards claimed is", n)
		if diff < n {
			what = fmt.Sprintf("Only one of the %d cards claimed is", n)
		}
		out = append(out, Hint{Kind: HintEveryCardDiffers, Check: Cards,
			Text: what + " where the seeds deal it: the seeds given deal another deck altogether, which is what a copying mistake gives. " +
				"Before suspecting the casino, check the nonce (off by one?), each client seed (a space or line break at either end is part of it), " +
				"that the server seed is the one revealed after the round and not its hash, and the scheme."})
	}
	return out
}
