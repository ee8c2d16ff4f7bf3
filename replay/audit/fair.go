package audit

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"time"

	drand "github.com/fairhold/fairhold/fairness/beacon"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// Dealers re-derives the cards of rounds from their seeds (the fairness
// scheme, docs/fairness.md). Implementations must be safe for concurrent
// use; the Dealers they return need not be.
type Dealers interface {
	// Prepare returns a Dealer for one scheme and one revealed server seed
	// (or chain link), doing once whatever is per seed (the HMAC key
	// state). It fails for an unknown scheme or a malformed seed.
	Prepare(scheme string, serverSeed []byte) (Dealer, error)
	// Beacon verifies a drand beacon and returns its randomness (what the
	// scheme mixes in) and when the round was published. It fails when the
	// signature does not verify or the chain is unknown.
	Beacon(chain string, round uint64, signature, previous []byte) (randomness []byte, published time.Time, err error)
}

// Dealer deals the rounds of one server seed.
type Dealer interface {
	// Deal writes the first len(dst) cards of the round with these client
	// seeds, nonce and beacon randomness (nil for none), as card indices
	// in the game's dealing order.
	Deal(dst []uint8, clientSeeds []string, nonce uint64, beacon []byte) error
}

// step is one hash-chain step, and the commitment of a single seed: the
// SHA-256 of the seed's 32 bytes.
func step(b [32]byte) [32]byte { return sha256.Sum256(b[:]) }

// short writes the first 16 hex digits of a digest: enough to tell
// digests apart in a report, too few to matter if the digest is a link.
func short(b []byte) string {
	if len(b) > 8 {
		b = b[:8]
	}
	return hex.EncodeToString(b) + "…"
}

// decode32 decodes 64 hex digits.
func decode32(s string) ([32]byte, error) {
	var b [32]byte
	if len(s) != 64 {
		return b, fmt.Errorf("%d hex digits, want 64", len(s))
	}
	if _, err := hex.Decode(b[:], []byte(s)); err != nil {
		return b, fmt.Errorf("not hex")
	}
	return b, nil
}

// checkTimes checks the commitment and reveal times against the round's
// time, and records them in t.
func (c *Checker) checkTimes(r *round.Round, t *Trace, e *emitter) {
	f := &r.Fairness
	var err error
	c.committedAt = 0
	if t.Time, err = c.day.parse(r.Time); err != nil {
		e.add(finding.InputDamaged, "time", "RFC 3339 UTC time", quote(r.Time), err.Error())
		return
	}
	t.TimeOK = true
	if f.CommittedAt != "" {
		at, err := c.seed(f.ServerSeed, f.ChainIndex > 0).times.parse(f.CommittedAt)
		switch {
		case err != nil:
			e.add(finding.InputDamaged, "fairness.committed_at", "RFC 3339 UTC time", quote(f.CommittedAt), err.Error())
		case at > t.Time:
			e.add(finding.CommitmentLate, "fairness.committed_at", "at or before "+r.Time+" (round time)", f.CommittedAt, "")
		default:
			c.committedAt = at
		}
	}
	if f.RevealedAt != "" {
		at, err := c.seed(f.ServerSeed, f.ChainIndex > 0).times.parse(f.RevealedAt)
		t.reveal, t.revealOK, t.revealBad = at, err == nil, err != nil
		switch {
		case err != nil:
			e.add(finding.InputDamaged, "fairness.revealed_at", "RFC 3339 UTC time", quote(f.RevealedAt), err.Error())
		case at < t.Time:
			e.add(finding.SeedRevealedEarly, "fairness.revealed_at", "at or after "+r.Time+" (round time)", f.RevealedAt, "")
		}
	}
}

// checkSeed checks the revealed seed against the commitment (or the
// chain's anchor for the first link), verifies the beacon, and re-deals the
// round's cards into c.dealt. It reports whether c.dealt holds the cards.
func (c *Checker) checkSeed(r *round.Round, t *Trace, e *emitter) bool {
	f := &r.Fairness
	se := c.seed(f.ServerSeed, f.ChainIndex > 0)
	if se.err != nil {
		e.add(finding.InputDamaged, "fairness.server_seed", "64 hex digits", fmt.Sprintf("%d characters", len(f.ServerSeed)), se.err.Error())
		return false
	}
	if f.Commitment != se.commitText {
		se.commitText = strings.Clone(f.Commitment)
		se.commit, se.commitErr = decode32(f.Commitment)
		se.commitOK = se.commitErr == nil && subtle.ConstantTimeCompare(se.commit[:], se.step[:]) == 1
	}
	if se.commitErr != nil {
		e.add(finding.InputDamaged, "fairness.commitment", "64 hex digits", quote(f.Commitment), se.commitErr.Error())
		return false
	}
	t.seedFP = binary.LittleEndian.Uint64(se.step[:8]) // SHA-256: uniform
	if f.ChainIndex > 0 {
		t.chainIndex, t.link = f.ChainIndex, chainLink{seed: se.bytes, step: se.step, anchor: se.commit}
	}
	t.Nonce = f.Nonce
	if f.ChainIndex > 0 && f.Nonce != 0 {
		// Every link deals one round, so the nonce has nothing to count:
		// a nonce free per round would let the operator, who sees the link
		// and the client seeds, choose among decks (docs/fairness.md 5).
		e.add(finding.ChainNonceNotZero, "fairness.nonce", "0 (a hash-chain round's nonce)", strconv.FormatUint(f.Nonce, 10), fmt.Sprintf("chain index %d", f.ChainIndex))
	}
	if len(f.ClientSeeds) == 1 {
		// One client seed per seed session is the usual case.
		if !se.clientOK || se.client != f.ClientSeeds[0] {
			se.client, se.clientFP, se.clientOK = strings.Clone(f.ClientSeeds[0]), clientFingerprint(f.ClientSeeds), true
		}
		t.ClientFP = se.clientFP
	} else {
		t.ClientFP = clientFingerprint(f.ClientSeeds)
	}
	t.SeedOK = true
	// A single seed's commitment is SHA-256(seed); the first link of a
	// chain hashes to the chain's anchor, which is the commitment. Later
	// links are checked against the previous link by the Ledger.
	if f.ChainIndex <= 1 && !se.commitOK {
		code, what := finding.SeedCommitmentMismatch, "commitment"
		if f.ChainIndex == 1 {
			code, what = finding.ChainLinkBroken, "chain anchor"
		}
		e.add(code, "fairness.server_seed", "SHA-256(seed) = "+what+" "+shortHex(f.Commitment), "SHA-256(seed) = "+short(se.step[:]), "")
	}

	var beacon []byte
	if f.BeaconRound != 0 || f.BeaconSignature != "" {
		sig, err1 := hex.DecodeString(f.BeaconSignature)
		prev, err2 := hex.DecodeString(f.BeaconPreviousSignature)
		if err1 != nil || err2 != nil {
			e.add(finding.InputDamaged, "fairness.beacon_signature", "hex", "not hex", "")
			return false
		}
		bkey := f.BeaconChain + "\x00" + strconv.FormatUint(f.BeaconRound, 10) + "\x00" + f.BeaconSignature + "\x00" + f.BeaconPreviousSignature
		if bkey != c.beaconKey {
			c.beaconKey = bkey
			c.beaconRnd, c.beaconAt, c.beaconErr = c.cfg.Dealers.Beacon(f.BeaconChain, f.BeaconRound, sig, prev)
		}
		rnd, published, err := c.beaconRnd, c.beaconAt, c.beaconErr
		if err != nil {
			e.add(finding.BeaconInvalid, "fairness.beacon_signature", fmt.Sprintf("a valid %s signature for round %d", f.BeaconChain, f.BeaconRound), "does not verify", err.Error())
			return false
		}
		switch {
		case c.committedAt != 0 && published.UnixMicro() <= c.committedAt:
			e.add(finding.BeaconTooEarly, "fairness.beacon_round", "published after "+f.CommittedAt+" (commitment)", "published "+published.UTC().Format(time.RFC3339), "")
		case c.committedAt != 0:
			// The rule that fixes the beacon's round (docs/fairness.md 7):
			// the first round the chain publishes after the commitment. Any
			// other round is one the operator could choose among.
			// It is, when the round before it was published at or before
			// the commitment.
			if ch, err := drand.Lookup(f.BeaconChain); err == nil && published.Unix()-ch.Period > time.UnixMicro(c.committedAt).Unix() {
				want := ch.RoundAt(time.UnixMicro(c.committedAt)) + 1
				e.add(finding.BeaconRoundChosen, "fairness.beacon_round", fmt.Sprintf("%d (the first %s round published after the commitment, %s)", want, f.BeaconChain, f.CommittedAt), strconv.FormatUint(f.BeaconRound, 10), "published "+published.UTC().Format(time.RFC3339))
			}
		}
		if t.TimeOK && published.UnixMicro() > t.Time {
			e.add(finding.BeaconAfterRound, "fairness.beacon_round", "published at or before "+r.Time+" (round time)", "published "+published.UTC().Format(time.RFC3339), "the deck depends on a beacon not yet published when the round was dealt")
		}
		beacon = rnd
	}

	n := dealCount(r)
	if n == 0 || n > len(c.dealt) {
		return false
	}
	if f.Scheme != se.scheme {
		c.prepare(se, f.Scheme)
	}
	if se.dealerErr != nil {
		e.add(finding.InputDamaged, "fairness.scheme", "a known scheme", quote(f.Scheme), se.dealerErr.Error())
		return false
	}
	if err := se.dealer.Deal(c.dealt[:n], f.ClientSeeds, f.Nonce, beacon); err != nil {
		e.add(finding.InputDamaged, "fairness", "dealable fairness fields", "cannot deal", err.Error())
		return false
	}
	return true
}

// dealCount is the number of cards the round's game layout deals.
func dealCount(r *round.Round) int {
	switch r.Game {
	case round.CasinoHoldem, round.LiveCasinoHoldem:
		return 2*len(r.Boxes) + 2 + 5
	case round.DoubleHoldem:
		if r.Double == nil {
			return 0
		}
		return 3*len(r.Double.Seats) + 5
	}
	return 0
}

// clientFingerprint hashes the client seeds, length-prefixed, to 64 bits
// with a key chosen at start-up.
func clientFingerprint(ss []string) uint64 {
	var h maphash.Hash
	h.SetSeed(fpSeed)
	var n [8]byte
	for _, s := range ss {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.WriteString(s)
	}
	return h.Sum64()
}

func shortHex(s string) string {
	if len(s) > 16 {
		return s[:16] + "…"
	}
	return s
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// compareCards reports the first of want and got that differ, as a
// finding on field.
func compareCards(e *emitter, field string, want []uint8, got []card.Card) bool {
	for i := range got {
		if uint8(got[i]) != want[i] {
			w := make([]card.Card, len(want))
			for j, x := range want {
				w[j] = card.Card(x)
			}
			e.add(finding.CardsMismatch, field, card.Format(w), card.Format(got), "")
			return false
		}
	}
	return true
}

// fpSeed keys the fingerprints of client input: an operator who chooses
// client seeds cannot make two collide.
var fpSeed = maphash.MakeSeed()
