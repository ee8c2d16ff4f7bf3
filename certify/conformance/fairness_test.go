package conformance

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairhold/fairhold/fairness/beacon"
	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/vectors"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// go test ./certify/conformance -run TestFairnessVectorsReproducible -update
// rewrites vectors/fairness/*.json from the specs below.
var update = flag.Bool("update", false, "rewrite vectors/fairness/*.json from the generator")

const vectorDir = "../../vectors/fairness"

// Reference values (/work/shared/reference/README.md §3 and §4).
const (
	stakeSeed        = "18e93f4a7b5b58d2569765766d1b6c3296bbd8430d6f20249044d72f14720159"
	quicknetSig1000  = "b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39"
	quicknetRand1000 = "fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd"
	defaultPrev1000  = "af0d93299a363735fe847f5ea241442c65843dc1bd3a7b79646b3b10072e908bf034d35cd69d378e3341f139100cd4cd03030399864ef8803a5a4f5e64fccc20bbae36d1ca22a6ddc43d2630c41105e90598fab11e5c7456df3925d4b577b113"
	defaultSig1000   = "99bf96de133c3d3937293cfca10c8152b18ab2d034ccecf115658db324d2edc00a16a2044cd04a8a38e2a307e5ecff3511315be8d282079faf24098f283e0ed2c199663b334d2e84c55c032fe469b212c5c2087ebb83a5b25155c3283f5b79ac"
	defaultRand1000  = "a40d3e0e7e3c71f28b7da2fd339f47f0bcf10910309f5253d7c323ec8cea3212"
	workedSeed       = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
)

// seedFor derives a fixed server seed from a label, so that the generator
// is reproducible: SHA-256("fairhold vectors/" + label).
func seedFor(label string) seed.Seed {
	return seed.Seed(sha256.Sum256([]byte("fairhold vectors/" + label)))
}

func commitHex(s string) string {
	b, _ := hex.DecodeString(s)
	c := sha256.Sum256(b)
	return hex.EncodeToString(c[:])
}

func flipNibble(s string, i int) string {
	b := []byte(s)
	if b[i] == '0' {
		b[i] = '1'
	} else {
		b[i] = '0'
	}
	return string(b)
}

func roundTime(chainName string, round uint64) time.Time {
	c, err := beacon.Lookup(chainName)
	if err != nil {
		panic(err)
	}
	return c.RoundTime(round)
}

// base returns a fairhold/v1 casino-holdem vector with a commitment.
func base(id, desc, label string, nonce uint64, clientSeeds ...string) vectors.FairnessVector {
	s := seedFor(label).Hex()
	return vectors.FairnessVector{
		ID: id, Description: desc, Expect: vectors.FairnessSuccess,
		Scheme: scheme.FairholdV1Name, Game: "casino-holdem", Hands: 1,
		ServerSeed: s, ClientSeeds: clientSeeds, Nonce: strconv.FormatUint(nonce, 10),
		Commitment: commitHex(s), Count: 9,
	}
}

func fail(v vectors.FairnessVector, failures ...string) vectors.FairnessVector {
	v.Expect, v.Failures = vectors.FairnessFailure, failures
	return v
}

func malformedV(v vectors.FairnessVector, field string) vectors.FairnessVector {
	v.Expect, v.Field = vectors.FairnessMalformed, field
	return v
}

// dealNames deals v's cards with the implementation (for claimed cards).
func dealNames(v vectors.FairnessVector) []string {
	d, err := Derive(v)
	if err != nil || d == nil {
		panic(fmt.Sprintf("%s: %v", v.ID, err))
	}
	return slices.Clone(d.Cards)
}

// fairnessSpecs lists every vector: inputs and the intended outcome. The
// generator adds the derived "expected" values.
func fairnessSpecs() []vectors.FairnessVector {
	var vs []vectors.FairnessVector
	add := func(v vectors.FairnessVector) { vs = append(vs, v) }

	// --- fairhold/v1, Casino Hold'em (single box) ---
	w := base("v1-worked-example", "the worked example of docs/fairness.md: seed 00..1f, one client seed, nonce 1", "", 1, "player-seed-1")
	w.ServerSeed, w.Commitment = workedSeed, commitHex(workedSeed)
	add(w)
	for i, n := range []uint64{0, 2, 4294967295, 4294967296, 18446744073709551615} {
		add(base(fmt.Sprintf("v1-casino-nonce-%d", n), fmt.Sprintf("casino-holdem, nonce %d (fixed-width big-endian in the message; no 32-bit wrap)", n), "casino-nonce", n, "client-"+strconv.Itoa(i)))
	}
	add(base("v1-casino-client-seed-unicode", "a client seed with multi-byte UTF-8 characters: its length prefix counts bytes", "unicode", 7, "ace ♠ 🂡 ünïcödé"))
	add(base("v1-casino-client-seed-256-bytes", "the longest client seed, 256 bytes (the HMAC message spans several SHA-256 blocks)", "long", 8, strings.Repeat("0123456789abcdef", 16)))
	add(base("v1-casino-client-seed-hex64", "a 64-hex-character client seed, as browsers generate", "hex64", 9, "3f9a1c0e5b7d2468ace013579bdf02468ace013579bdf02468ace013579bdf0a"))
	add(base("v1-casino-client-seed-one-byte", "the shortest client seed, one byte", "short", 10, "x"))
	for _, n := range []int{1, 2, 13, 51, 52} {
		v := base(fmt.Sprintf("v1-deck-%d-cards", n), fmt.Sprintf("the first %d cards of the shuffle, no game layout (a prefix of the full 52-card shuffle with the same inputs)", n), "deck", 3, "deck-client")
		v.Game, v.Hands, v.Count = "", 0, n
		add(v)
	}
	// --- live-casino-holdem, 1..6 boxes ---
	for b := 1; b <= 6; b++ {
		seeds := make([]string, b)
		for i := range seeds {
			seeds[i] = fmt.Sprintf("box-%d-player", i+1)
		}
		v := base(fmt.Sprintf("v1-live-%d-boxes", b), fmt.Sprintf("live-casino-holdem with %d boxes: boxes 1..%d two cards each, dealer, flop, turn, river; client seeds in box order", b, b), "live", 11, seeds...)
		v.Game, v.Hands, v.Count = "live-casino-holdem", b, 2*b+7
		add(v)
	}
	sw := base("v1-live-6-boxes-seat-order-swapped", "as v1-live-6-boxes with boxes 1 and 2's client seeds swapped: seat order changes the deck", "live", 11,
		"box-2-player", "box-1-player", "box-3-player", "box-4-player", "box-5-player", "box-6-player")
	sw.Game, sw.Hands, sw.Count = "live-casino-holdem", 6, 19
	add(sw)
	// --- double-holdem, 2..10 seats, dealt from the left of the button ---
	for s := 2; s <= 10; s++ {
		seats := make([]int, s)
		seeds := make([]string, s)
		for i := range seats {
			seats[i] = i + 1
			seeds[i] = fmt.Sprintf("seat-%d", i+1)
		}
		button := 1 + (s % len(seats))
		v := base(fmt.Sprintf("v1-double-%d-seats", s), fmt.Sprintf("double-holdem with %d seated players (seats 1..%d, button on seat %d): 3 hole cards per player starting left of the button, then the board; client seeds in seat order", s, s, button), "double", 21, seeds...)
		v.Game, v.Hands, v.Count, v.Seats, v.Button = "double-holdem", s, 3*s+5, seats, button
		add(v)
	}
	gap := base("v1-double-gapped-seats", "double-holdem with seats 2, 5, 7, 9 occupied and the button on seat 9: dealing starts at seat 2 (wrapping past seat 10)", "double-gap", 22, "s2", "s5", "s7", "s9")
	gap.Game, gap.Hands, gap.Count, gap.Seats, gap.Button = "double-holdem", 4, 17, []int{2, 5, 7, 9}, 9
	add(gap)
	// --- claimed cards ---
	cc := base("v1-claimed-cards-match", "the operator's claimed cards equal the deal", "claims", 5, "claims-client")
	cc.Cards = dealNames(cc)
	add(cc)
	swp := cc
	swp.ID, swp.Description = "v1-claimed-cards-swapped", "two claimed cards exchanged (the player's first card and the dealer's first card): the cards check fails"
	swp.Cards = slices.Clone(cc.Cards)
	swp.Cards[0], swp.Cards[2] = swp.Cards[2], swp.Cards[0]
	add(fail(swp, check.Cards))
	wrong := cc
	wrong.ID, wrong.Description = "v1-claimed-river-replaced", "the claimed river replaced by a card that was not dealt: the cards check fails"
	wrong.Cards = slices.Clone(cc.Cards)
	for _, r := range "AKQJT98765432" {
		for _, su := range "shdc" {
			c := string(r) + string(su)
			if !slices.Contains(wrong.Cards, c) && wrong.Cards[8] == cc.Cards[8] {
				wrong.Cards[8] = c
			}
		}
	}
	add(fail(wrong, check.Cards))
	other := cc
	other.ID, other.Description = "v1-claimed-cards-other-nonce", "claimed cards dealt with nonce 6 presented for nonce 5: the cards check fails"
	o6 := cc
	o6.Nonce, o6.Cards = "6", nil
	other.Cards = dealNames(o6)
	add(fail(other, check.Cards))
	// --- commitments ---
	wc := base("v1-commitment-wrong", "the published commitment has its last byte changed", "commit", 1, "c")
	wc.Commitment = flipNibble(wc.Commitment, 63)
	add(fail(wc, check.Commitment))
	oc := base("v1-commitment-other-seed", "the published commitment is that of another seed", "commit", 1, "c")
	oc.Commitment = commitHex(seedFor("another").Hex())
	add(fail(oc, check.Commitment))
	hx := base("v1-commitment-of-hex-text", "a commitment computed over the seed's hex text instead of its 32 bytes does not verify", "commit", 1, "c")
	t := sha256.Sum256([]byte(hx.ServerSeed))
	hx.Commitment = hex.EncodeToString(t[:])
	add(fail(hx, check.Commitment))
	// --- nonces ---
	nu := base("v1-nonce-fresh", "the nonce is not among the nonces already used with this seed", "nonces", 4, "n")
	nu.UsedNonces = []string{"1", "2", "3"}
	add(nu)
	nr := base("v1-nonce-reused", "the nonce was already used with this server seed and client input: the same deck would be dealt twice", "nonces", 2, "n")
	nr.UsedNonces = []string{"1", "2", "3"}
	add(fail(nr, check.NonceUnused))
	// --- hash chains ---
	ch := chain.FromLast(seedFor("chain"), 5)
	for _, i := range []int{1, 3, 5} {
		v := base(fmt.Sprintf("v1-chain-link-%d", i), fmt.Sprintf("round %d of a 5-link chain: SHA-256 applied %d times to the revealed link gives the anchor", i, i), "", uint64(i), "chain-client")
		v.ServerSeed, v.Commitment = ch.Links[i].Hex(), ""
		v.Chain = &vectors.ChainClaim{Anchor: ch.Anchor().Hex(), Steps: steps(uint64(i))}
		add(v)
	}
	cs := base("v1-chain-search", "a chain link whose distance is not stated: found by walking at most max_steps hashes", "", 4, "chain-client")
	cs.ServerSeed, cs.Commitment = ch.Links[4].Hex(), ""
	cs.Chain = &vectors.ChainClaim{Anchor: ch.Anchor().Hex(), MaxSteps: 10}
	add(cs)
	cl := base("v1-chain-last-verified", "a link checked against the last verified link (round 3's link) instead of the anchor: one step", "", 4, "chain-client")
	cl.ServerSeed, cl.Commitment = ch.Links[4].Hex(), ""
	cl.Chain = &vectors.ChainClaim{Anchor: ch.Links[3].Hex(), Steps: steps(1)}
	add(cl)
	cb := cs
	cb.ID, cb.Description = "v1-chain-broken-link", "a revealed link with one nibble changed does not hash to the anchor"
	cb.ServerSeed = flipNibble(ch.Links[4].Hex(), 10)
	cb.Chain = &vectors.ChainClaim{Anchor: ch.Anchor().Hex(), MaxSteps: 10}
	add(fail(cb, check.Chain))
	cw := cs
	cw.ID, cw.Description = "v1-chain-wrong-distance", "round 4's link claimed at distance 3: the walk must stop at exactly the stated distance"
	cw.Chain = &vectors.ChainClaim{Anchor: ch.Anchor().Hex(), Steps: steps(3)}
	add(fail(cw, check.Chain))
	cbnd := cs
	cbnd.ID, cbnd.Description = "v1-chain-beyond-bound", "round 4's link with a bound of 3 steps: not found within the bound"
	cbnd.Chain = &vectors.ChainClaim{Anchor: ch.Anchor().Hex(), MaxSteps: 3}
	add(fail(cbnd, check.Chain))
	// --- drand beacons ---
	qt := roundTime(beacon.Quicknet, 1000)
	qb := base("v1-beacon-quicknet-1000", "drand quicknet round 1000 mixed into the stream; the commitment was published 60 s before the round", "beacon", 1, "beacon-client")
	qb.CommittedAt = qt.Add(-time.Minute).Format(time.RFC3339)
	qb.Beacon = &vectors.BeaconClaim{Chain: beacon.Quicknet, Round: 1000, Signature: quicknetSig1000}
	add(qb)
	dt := roundTime(beacon.Default, 1000)
	db := base("v1-beacon-default-1000", "drand default-chain round 1000 (chained: the previous signature is part of the message)", "beacon", 1, "beacon-client")
	db.CommittedAt = dt.Add(-time.Minute).Format(time.RFC3339)
	db.Beacon = &vectors.BeaconClaim{Chain: beacon.Default, Round: 1000, Signature: defaultSig1000, PreviousSignature: defaultPrev1000}
	add(db)
	qc := qb
	qc.ID, qc.Description = "v1-beacon-quicknet-claimed-cards", "quicknet round 1000 mixed in, with the operator's claimed cards"
	qc.Cards = dealNames(qb)
	add(qc)
	qi := qc
	qi.ID, qi.Description = "v1-beacon-quicknet-bad-signature", "the quicknet signature with one nibble changed: the beacon does not verify, so the cards cannot be derived"
	qi.Beacon = &vectors.BeaconClaim{Chain: beacon.Quicknet, Round: 1000, Signature: flipNibble(quicknetSig1000, 40)}
	add(fail(qi, check.BeaconSignature, check.Cards))
	di := db
	di.ID, di.Description = "v1-beacon-default-bad-signature", "the default-chain signature with one nibble changed"
	di.Beacon = &vectors.BeaconClaim{Chain: beacon.Default, Round: 1000, Signature: flipNibble(defaultSig1000, 100), PreviousSignature: defaultPrev1000}
	add(fail(di, check.BeaconSignature))
	dp := db
	dp.ID, dp.Description = "v1-beacon-default-bad-previous", "the default chain's previous signature with one nibble changed: the signed message differs"
	dp.Beacon = &vectors.BeaconClaim{Chain: beacon.Default, Round: 1000, Signature: defaultSig1000, PreviousSignature: flipNibble(defaultPrev1000, 7)}
	add(fail(dp, check.BeaconSignature))
	qr := qb
	qr.ID, qr.Description = "v1-beacon-wrong-round", "quicknet round 1000's signature claimed for round 1001"
	qr.Beacon = &vectors.BeaconClaim{Chain: beacon.Quicknet, Round: 1001, Signature: quicknetSig1000}
	add(fail(qr, check.BeaconSignature))
	qe := qb
	qe.ID, qe.Description = "v1-beacon-before-commitment", "the beacon round was published before the commitment: the operator could have chosen its seed knowing the beacon"
	qe.CommittedAt = qt.Add(time.Second).Format(time.RFC3339)
	add(fail(qe, check.BeaconAfterCommitment))
	// --- stake-compat ---
	st := vectors.FairnessVector{
		ID: "stake-reference", Description: "the published Stake-family vector (reference README §3): ten draws Qd Ks 6d Qh 2h 4s 8h 5d 9c 7h",
		Expect: vectors.FairnessSuccess, Scheme: scheme.StakeCompatName,
		ServerSeed: stakeSeed, ClientSeeds: []string{"bb62964774"}, Nonce: "1", Count: 10,
		Cards: []string{"Qd", "Ks", "6d", "Qh", "2h", "4s", "8h", "5d", "9c", "7h"},
	}
	add(st)
	for _, n := range []uint64{2, 3} {
		v := st
		v.ID, v.Description, v.Nonce, v.Cards = fmt.Sprintf("stake-nonce-%d", n), fmt.Sprintf("stake-compat, nonce %d, 8 draws (one HMAC block)", n), strconv.FormatUint(n, 10), nil
		v.Count = 8
		v.Expect = vectors.FairnessSuccess
		if rep := hasRepeat(dealNames(v)); rep {
			v = fail(v, check.NoRepeatedCards)
		}
		add(v)
	}
	// The first nonce whose 9 draws (a Casino Hold'em round) repeat a card.
	for n := uint64(1); ; n++ {
		v := st
		v.Nonce, v.Cards, v.Count = strconv.FormatUint(n, 10), nil, 9
		if hasRepeat(dealNames(v)) {
			v.ID, v.Description = "stake-repeated-card", fmt.Sprintf("stake-compat, nonce %d: the 9 draws of a Casino Hold'em round repeat a card (drawing with replacement)", n)
			add(fail(v, check.NoRepeatedCards))
			break
		}
	}
	s52 := st
	s52.ID, s52.Description, s52.Cards, s52.Count = "stake-52-draws", "52 draws with replacement cannot be a deck: cards repeat", nil, 52
	add(fail(s52, check.NoRepeatedCards))
	sws := st
	sws.ID, sws.Description = "stake-reference-swapped", "the reference vector with its first two cards exchanged"
	sws.Cards = slices.Clone(st.Cards)
	sws.Cards[0], sws.Cards[1] = sws.Cards[1], sws.Cards[0]
	add(fail(sws, check.Cards))
	// --- malformed input ---
	m := func(id, desc, field string, edit func(*vectors.FairnessVector)) {
		v := base(id, desc, "malformed", 1, "m")
		edit(&v)
		add(malformedV(v, field))
	}
	m("malformed-seed-31-bytes", "a 31-byte server seed", "server_seed", func(v *vectors.FairnessVector) { v.ServerSeed = v.ServerSeed[:62] })
	m("malformed-seed-odd-hex", "a server seed with 63 hex digits", "server_seed", func(v *vectors.FairnessVector) { v.ServerSeed = v.ServerSeed[:63] })
	m("malformed-seed-not-hex", "a server seed with a non-hex character", "server_seed", func(v *vectors.FairnessVector) { v.ServerSeed = "zz" + v.ServerSeed[2:] })
	m("malformed-commitment-short", "a 31-byte commitment", "commitment", func(v *vectors.FairnessVector) { v.Commitment = v.Commitment[:62] })
	m("malformed-nonce-negative", `nonce "-1"`, "nonce", func(v *vectors.FairnessVector) { v.Nonce = "-1" })
	m("malformed-nonce-overflow", "nonce 2^64, one past the largest uint64", "nonce", func(v *vectors.FairnessVector) { v.Nonce = "18446744073709551616" })
	m("malformed-nonce-leading-zero", `nonce "01": one text form per value`, "nonce", func(v *vectors.FairnessVector) { v.Nonce = "01" })
	m("malformed-scheme-unknown", "an unknown scheme name", "scheme", func(v *vectors.FairnessVector) { v.Scheme = "fairhold/v0" })
	m("malformed-claimed-duplicate", "a claimed card list with a duplicate (one deck has each card once)", "claimed_cards", func(v *vectors.FairnessVector) {
		v.Cards = []string{"As", "Kd", "As"}
	})
	m("malformed-claimed-unknown-card", "a claimed card that does not exist", "claimed_cards", func(v *vectors.FairnessVector) { v.Cards = []string{"As", "1x"} })
	m("malformed-no-client-seed", "no client seed", "client_seeds", func(v *vectors.FairnessVector) { v.ClientSeeds = []string{} })
	m("malformed-empty-client-seed", "an empty client seed", "client_seeds", func(v *vectors.FairnessVector) { v.ClientSeeds = []string{""} })
	m("malformed-count-53", "53 cards from one deck", "count", func(v *vectors.FairnessVector) { v.Game, v.Hands, v.Count = "", 0, 53 })
	m("malformed-game-unknown", "an unknown game", "game", func(v *vectors.FairnessVector) { v.Game = "texas-holdem" })
	m("malformed-live-7-boxes", "live-casino-holdem with 7 boxes (at most 6)", "game", func(v *vectors.FairnessVector) {
		v.Game, v.Hands, v.Count = "live-casino-holdem", 7, 21
	})
	m("malformed-beacon-short-signature", "a quicknet signature of 47 bytes", "beacon", func(v *vectors.FairnessVector) {
		v.Beacon = &vectors.BeaconClaim{Chain: beacon.Quicknet, Round: 1000, Signature: quicknetSig1000[:94]}
	})
	m("malformed-beacon-unknown-chain", "an unknown drand chain", "beacon_chain", func(v *vectors.FairnessVector) {
		v.Beacon = &vectors.BeaconClaim{Chain: "mainnet", Round: 1000, Signature: quicknetSig1000}
	})
	m("malformed-stake-two-client-seeds", "stake-compat takes one client seed", "client_seeds", func(v *vectors.FairnessVector) {
		v.Scheme, v.Game, v.Hands, v.Commitment, v.ClientSeeds = scheme.StakeCompatName, "", 0, "", []string{"a", "b"}
	})
	m("malformed-beacon-round-zero", "drand round 0 (rounds start at 1)", "beacon_round", func(v *vectors.FairnessVector) {
		v.Beacon = &vectors.BeaconClaim{Chain: beacon.Quicknet, Round: 0, Signature: quicknetSig1000}
	})
	m("malformed-beacon-round-overflow", "drand round 2^64-1, whose publication time overflows (it must not pass as published in the past)", "beacon_round", func(v *vectors.FairnessVector) {
		v.Beacon = &vectors.BeaconClaim{Chain: beacon.Quicknet, Round: 1<<64 - 1, Signature: quicknetSig1000}
		v.CommittedAt = "2023-08-23T15:00:00Z"
	})
	m("malformed-beacon-default-no-previous", "a default-chain round without the previous round's signature it is chained to", "beacon_previous_signature", func(v *vectors.FairnessVector) {
		v.Beacon = &vectors.BeaconClaim{Chain: beacon.Default, Round: 1000, Signature: defaultSig1000}
	})
	m("malformed-chain-steps-beyond-bound", "a chain distance above the 10,000,000-step bound", "chain_steps", func(v *vectors.FairnessVector) {
		v.Chain = &vectors.ChainClaim{Anchor: v.Commitment, Steps: steps(1 << 40)}
	})
	m("malformed-chain-max-steps-negative", "a negative search bound", "chain_max_steps", func(v *vectors.FairnessVector) {
		v.Chain = &vectors.ChainClaim{Anchor: v.Commitment, MaxSteps: -1}
	})
	m("malformed-stake-beacon", "stake-compat mixes in no beacon", "beacon", func(v *vectors.FairnessVector) {
		v.Scheme, v.Game, v.Hands, v.Commitment = scheme.StakeCompatName, "", 0, ""
		v.Beacon = &vectors.BeaconClaim{Chain: beacon.Quicknet, Round: 1000, Signature: quicknetSig1000}
	})
	return append(vs, edgeSpecs()...)
}

func steps(n uint64) *uint64 { return &n }

// edgeSpecs are the vectors of the edges docs/fairness.md settles
// (section 20, "Edge cases"): each rule has at least one.
func edgeSpecs() []vectors.FairnessVector {
	var vs []vectors.FairnessVector
	add := func(v vectors.FairnessVector) { vs = append(vs, v) }
	m := func(id, desc, field string, edit func(*vectors.FairnessVector)) {
		v := base(id, desc, "edges", 1, "e")
		edit(&v)
		add(malformedV(v, field))
	}
	// Chain distance 0.
	ch := chain.FromLast(seedFor("chain"), 5)
	z := base("v1-chain-distance-0", "the revealed server seed is the anchor itself (distance 0): the anchor is public, so it is no round's link and the chain check fails", "", 1, "chain-client")
	z.ServerSeed, z.Commitment = ch.Anchor().Hex(), ""
	z.Chain = &vectors.ChainClaim{Anchor: ch.Anchor().Hex(), MaxSteps: 10}
	add(fail(z, check.Chain))
	m("malformed-chain-steps-zero", `a stated chain distance of 0 ("steps": 0): malformed, not a search`, "chain_steps", func(v *vectors.FairnessVector) {
		v.Chain = &vectors.ChainClaim{Anchor: v.Commitment, Steps: steps(0)}
	})
	// stake-compat client seeds: exactly one, 1..256 bytes of UTF-8.
	st := vectors.FairnessVector{
		Expect: vectors.FairnessSuccess, Scheme: scheme.StakeCompatName,
		ServerSeed: stakeSeed, ClientSeeds: []string{"bb62964774"}, Nonce: "1", Count: 8,
	}
	st256 := st
	st256.ID, st256.Description = "stake-client-seed-256-bytes", "stake-compat with the longest client seed, 256 bytes"
	st256.ClientSeeds = []string{strings.Repeat("0123456789abcdef", 16)}
	st256.Expect = outcome(st256)
	if st256.Expect == vectors.FairnessFailure {
		st256.Failures = []string{check.NoRepeatedCards}
	}
	add(st256)
	stc := st
	stc.ID, stc.Description = "stake-client-seed-colon", `stake-compat with a client seed holding colons ("a:1:2"): allowed, the message is "a:1:2:1:0" (the last two fields are always the nonce and the block number)`
	stc.ClientSeeds = []string{"a:1:2"}
	stc.Expect = outcome(stc)
	if stc.Expect == vectors.FairnessFailure {
		stc.Failures = []string{check.NoRepeatedCards}
	}
	add(stc)
	for _, e := range []struct{ id, desc, seed string }{
		{"malformed-stake-empty-client-seed", "stake-compat with an empty client seed (1..256 bytes)", ""},
		{"malformed-stake-client-seed-257-bytes", "stake-compat with a 257-byte client seed (1..256 bytes)", strings.Repeat("x", 257)},
		{"malformed-stake-client-seed-lone-surrogate", `stake-compat with a client seed holding an unpaired surrogate escape ("\udc00"): not UTF-8`, "a\xed\xb0\x80"},
	} {
		v := st
		v.ID, v.Description, v.ClientSeeds = e.id, e.desc, []string{e.seed}
		add(malformedV(v, "client_seeds"))
	}
	ns := st
	ns.ID, ns.Description, ns.ClientSeeds = "malformed-stake-no-client-seed", "stake-compat without a client seed (exactly one)", []string{}
	add(malformedV(ns, "client_seeds"))
	// Non-UTF-8 client seeds (fairhold/v1).
	m("malformed-client-seed-lone-surrogate", `a client seed holding an unpaired surrogate escape ("\ud800"), which is not UTF-8: rejected, not replaced by U+FFFD`, "client_seeds", func(v *vectors.FairnessVector) {
		v.ClientSeeds = []string{"seed-\xed\xa0\x80"}
	})
	m("malformed-client-seed-257-bytes", "a 257-byte client seed (1..256 bytes)", "client_seeds", func(v *vectors.FairnessVector) {
		v.ClientSeeds = []string{strings.Repeat("x", 257)}
	})
	m("malformed-17-client-seeds", "17 client seeds (1..16)", "client_seeds", func(v *vectors.FairnessVector) {
		v.ClientSeeds = strings.Split("abcdefghijklmnopq", "")
	})
	// The smallest card count, and a count that is not the game's.
	m("malformed-count-0", "no cards to deal (count 0): the smallest count is 1", "count", func(v *vectors.FairnessVector) { v.Game, v.Hands, v.Count = "", 0, 0 })
	m("malformed-count-not-the-games", "casino-holdem with count 8: with a game, count is the game's count (9)", "count", func(v *vectors.FairnessVector) { v.Count = 8 })
	m("malformed-claimed-more-than-count", "10 claimed cards for a round that deals 9", "claimed_cards", func(v *vectors.FairnessVector) {
		v.Cards = []string{"2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc"}
	})
	s1 := base("stake-1-draw", "stake-compat, the smallest count: one draw", "", 1, "")
	s1.Scheme, s1.Game, s1.Hands, s1.Commitment, s1.ServerSeed, s1.ClientSeeds, s1.Count = scheme.StakeCompatName, "", 0, "", stakeSeed, []string{"bb62964774"}, 1
	s1.Cards = []string{"Qd"}
	add(s1)
	// Double Hold'em seat lists.
	dbl := func(v *vectors.FairnessVector) {
		v.Game, v.Hands, v.Count, v.Seats, v.Button = "double-holdem", 4, 17, []int{2, 5, 7, 9}, 9
		v.ClientSeeds = []string{"s2", "s5", "s7", "s9"}
	}
	m("malformed-double-seats-unsorted", "double-holdem seats listed as 5, 2, 9, 7: seats are listed in increasing order, the order of the client seeds", "seats", func(v *vectors.FairnessVector) {
		dbl(v)
		v.Seats = []int{5, 2, 9, 7}
	})
	m("malformed-double-seats-repeated", "double-holdem with seat 5 listed twice", "seats", func(v *vectors.FairnessVector) {
		dbl(v)
		v.Seats = []int{2, 5, 5, 9}
	})
	m("malformed-double-no-seats", "double-holdem without seats", "seats", func(v *vectors.FairnessVector) {
		dbl(v)
		v.Seats, v.Button = nil, 0
	})
	m("malformed-double-no-button", "double-holdem without a button (absent or 0)", "button", func(v *vectors.FairnessVector) {
		dbl(v)
		v.Button = 0
	})
	m("malformed-double-button-unoccupied", "double-holdem with the button on seat 3, which is empty", "button", func(v *vectors.FairnessVector) {
		dbl(v)
		v.Button = 3
	})
	m("malformed-seats-without-double", "seats given for casino-holdem, which has none", "seats", func(v *vectors.FairnessVector) {
		v.Seats, v.Button = []int{1, 2}, 1
	})
	// Times with fractional seconds and offsets; the round is quicknet
	// 1000, published at 2023-08-23T15:59:24Z.
	qt := roundTime(beacon.Quicknet, 1000)
	beaconAt := func(id, desc, at string) vectors.FairnessVector {
		v := base(id, desc, "beacon", 1, "beacon-client")
		v.CommittedAt = at
		v.Beacon = &vectors.BeaconClaim{Chain: beacon.Quicknet, Round: 1000, Signature: quicknetSig1000}
		return v
	}
	add(beaconAt("v1-beacon-committed-fractional", "committed_at with a fraction, half a second before the beacon round: the fraction is kept (the round is published after it)",
		qt.Add(-500*time.Millisecond).UTC().Format(time.RFC3339Nano)))
	add(fail(beaconAt("v1-beacon-committed-fractional-after", "committed_at one millisecond after the beacon round's publication: the round was not published after the commitment",
		qt.Add(time.Millisecond).UTC().Format(time.RFC3339Nano)), check.BeaconAfterCommitment))
	add(fail(beaconAt("v1-beacon-committed-at-round-time", "committed_at equal to the beacon round's publication time: not after it (strictly later is required)",
		qt.UTC().Format(time.RFC3339)), check.BeaconAfterCommitment))
	add(beaconAt("v1-beacon-committed-offset", "committed_at with a +02:00 offset and nine fraction digits, 1 ns before the beacon round",
		qt.Add(-time.Nanosecond).In(time.FixedZone("", 2*3600)).Format(time.RFC3339Nano)))
	for _, e := range []struct{ id, desc, at string }{
		{"malformed-committed-at-no-zone", "committed_at without Z or an offset", "2023-08-23T15:59:00"},
		{"malformed-committed-at-ten-fraction-digits", "committed_at with ten fraction digits (1..9)", "2023-08-23T15:59:00.1234567891Z"},
		{"malformed-committed-at-lower-case", "committed_at with a lower-case t and z", "2023-08-23t15:59:00z"},
		{"malformed-committed-at-comma", "committed_at with a comma before the fraction", "2023-08-23T15:59:00,5Z"},
		{"malformed-committed-at-leap-second", "committed_at with second 60", "2016-12-31T23:59:60Z"},
	} {
		add(malformedV(beaconAt(e.id, e.desc, e.at), "committed_at"))
	}
	// A partial claim: every check passes, the verdict is "partial".
	p := base("v1-claimed-cards-partial", "the first 4 of the 9 cards claimed (player and dealer): every check passes; the verdict is partial, naming the checked positions", "claims", 5, "claims-client")
	p.Cards = dealNames(p)[:4]
	add(p)
	return vs
}

// outcome is success, or failure when the stake-compat draws repeat.
func outcome(v vectors.FairnessVector) string {
	if hasRepeat(dealNames(v)) {
		return vectors.FairnessFailure
	}
	return vectors.FairnessSuccess
}

func hasRepeat(cs []string) bool {
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c] {
			return true
		}
		seen[c] = true
	}
	return false
}

// generate fills in the derived values and checks that every spec has the
// intended outcome.
func generate(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, v := range fairnessSpecs() {
		if v.Expect != vectors.FairnessMalformed {
			d, err := Derive(v)
			require.NoError(t, err, v.ID)
			v.Expected = d
		}
		require.NoError(t, RunFairness(v), "spec %s does not have its intended outcome", v.ID)
		b, err := v.Marshal()
		require.NoError(t, err)
		_, dup := out[v.ID]
		require.False(t, dup, "duplicate id %s", v.ID)
		out[v.ID+".json"] = b
	}
	return out
}

func TestFairnessVectorsReproducible(t *testing.T) {
	gen := generate(t)
	if *update {
		old, err := filepath.Glob(filepath.Join(vectorDir, "*.json"))
		require.NoError(t, err)
		for _, f := range old {
			require.NoError(t, os.Remove(f))
		}
		for name, b := range gen {
			require.NoError(t, os.WriteFile(filepath.Join(vectorDir, name), b, 0o644))
		}
		return
	}
	files, err := filepath.Glob(filepath.Join(vectorDir, "*.json"))
	require.NoError(t, err)
	assert.Len(t, files, len(gen), "run with -update to regenerate")
	for name, want := range gen {
		got, err := os.ReadFile(filepath.Join(vectorDir, name))
		if assert.NoError(t, err, "run with -update to regenerate") {
			assert.Equal(t, string(want), string(got), "%s differs from the generator; run with -update", name)
		}
	}
}

// TestFairnessVectors runs every embedded vector, one parallel subtest per
// file.
func TestFairnessVectors(t *testing.T) {
	vs, err := vectors.Fairness()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(vs), 50)
	for _, v := range vs {
		t.Run(v.ID, func(t *testing.T) {
			t.Parallel()
			assert.NoError(t, RunFairness(v))
		})
	}
}

// A "success" vector with fewer claimed cards than it deals, none
// included, still expects success (every check passes), and its verdict
// is "partial" with every position left out unchecked; so is one whose
// server seed nothing binds (no commitment, no chain), every card claimed
// or not (docs/fairness.md section 14; vectors/README.md).
func TestFairnessSuccessWithoutCardsIsPartial(t *testing.T) {
	vs, err := vectors.Fairness()
	require.NoError(t, err)
	none, some, all, unbound := 0, 0, 0, 0
	for _, v := range vs {
		if v.Expect != vectors.FairnessSuccess {
			continue
		}
		c, err := FairnessClaim(v)
		require.NoError(t, err, v.ID)
		r, err := check.Run(c)
		require.NoError(t, err, v.ID)
		require.True(t, r.Verified, v.ID)
		switch {
		case len(c.Cards) == 0:
			none++
			assert.Equal(t, check.VerdictPartial, r.Verdict(), v.ID)
			assert.Nil(t, r.Checked, v.ID)
			assert.Len(t, r.Unchecked, c.Count, v.ID)
			for _, it := range r.Checks {
				assert.NotEqual(t, check.Cards, it.Name, v.ID)
			}
		case len(c.Cards) < c.Count:
			some++
			assert.Equal(t, check.VerdictPartial, r.Verdict(), v.ID)
			assert.Len(t, r.Unchecked, c.Count-len(c.Cards), v.ID)
		case c.Commitment == nil && c.ChainAnchor == nil:
			// Every card claimed, but nothing binds the seed: partial
			// (docs/fairness.md section 14).
			unbound++
			assert.True(t, r.Unbound, v.ID)
			assert.Equal(t, check.VerdictPartial, r.Verdict(), v.ID)
			assert.Nil(t, r.Unchecked, v.ID)
		default:
			all++
			assert.Equal(t, check.VerdictVerified, r.Verdict(), v.ID)
			assert.Nil(t, r.Unchecked, v.ID)
		}
	}
	assert.Positive(t, none)
	assert.Positive(t, some)
	assert.Positive(t, all)
	assert.Positive(t, unbound)
}

// The done-when figures, straight from the reference README.
func TestFairnessReferenceFigures(t *testing.T) {
	vs, err := vectors.Fairness()
	require.NoError(t, err)
	byID := map[string]vectors.FairnessVector{}
	for _, v := range vs {
		byID[v.ID] = v
	}
	st := byID["stake-reference"]
	require.NotNil(t, st.Expected)
	assert.Equal(t, []string{"Qd", "Ks", "6d", "Qh", "2h", "4s", "8h", "5d", "9c", "7h"}, st.Expected.Cards)
	assert.Equal(t, "c590d171e39b70404ee1fff2ce09c3e1090688e1320a9cd27f58b1ac3dfa8c92", st.Expected.Block0)
	assert.Equal(t, quicknetRand1000, byID["v1-beacon-quicknet-1000"].Expected.BeaconRandomness)
	assert.Equal(t, defaultRand1000, byID["v1-beacon-default-1000"].Expected.BeaconRandomness)
	// Prefixes of one shuffle agree.
	full := byID["v1-deck-52-cards"].Expected.Indices
	for _, n := range []int{1, 2, 13, 51} {
		assert.Equal(t, full[:n], byID[fmt.Sprintf("v1-deck-%d-cards", n)].Expected.Indices)
	}
}

// A vector altered in any way the runner checks is caught.
func TestRunFairnessDetectsTampering(t *testing.T) {
	vs, err := vectors.Fairness()
	require.NoError(t, err)
	for _, v := range vs {
		if v.Expected == nil {
			continue
		}
		e := *v.Expected
		e.Indices = slices.Clone(e.Indices)
		e.Indices[0] = (e.Indices[0] + 1) % 52
		w := v
		w.Expected = &e
		assert.ErrorIs(t, RunFairness(w), ErrMismatch, v.ID)
	}
	for _, v := range vs {
		if v.Expect == vectors.FairnessMalformed {
			w := v
			w.Field = "other"
			assert.ErrorIs(t, RunFairness(w), ErrMismatch, v.ID)
		}
	}
}

func FuzzParseCards(f *testing.F) {
	f.Add("As Kd 2c")
	f.Add("As As")
	f.Add("10h ♠A")
	f.Fuzz(func(t *testing.T, s string) {
		names := strings.Fields(s)
		cs, err := ParseCards(names, false)
		if err != nil {
			var me *check.MalformedError
			assert.True(t, errors.As(err, &me))
			return
		}
		seen := map[uint8]bool{}
		for _, c := range cs {
			assert.Less(t, c, uint8(52))
			assert.False(t, seen[c])
			seen[c] = true
		}
	})
}

// The worked example of docs/fairness.md agrees with the implementation.
func TestFairnessDocWorkedExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/fairness.md")
	require.NoError(t, err)
	vs, err := vectors.Fairness()
	require.NoError(t, err)
	var w vectors.FairnessVector
	for _, v := range vs {
		if v.ID == "v1-worked-example" {
			w = v
		}
	}
	require.NotNil(t, w.Expected)
	l := w.Expected.Layout
	text := string(doc)
	for _, s := range []string{
		w.ServerSeed, w.Commitment, w.Expected.Prefix, w.Expected.Block0,
		fmt.Sprintf("player %s, dealer %s, flop %s, turn %s, river %s",
			strings.Join(l.Hands[0], " "), strings.Join(l.Dealer, " "), strings.Join(l.Flop, " "), l.Turn, l.River),
		`--cards "` + strings.Join(w.Expected.Cards, " ") + `"`,
	} {
		assert.Contains(t, text, s)
	}
}

// The Python verifier printed in docs/fairness.md §13 reproduces every
// fairhold/v1 vector: the document alone is enough to re-implement the
// scheme. Skipped when python3 is not installed.
func TestFairnessDocPythonVerifier(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	doc, err := os.ReadFile("../../docs/fairness.md")
	require.NoError(t, err)
	sec := string(doc)[strings.Index(string(doc), "## 13."):]
	start := strings.Index(sec, "```python\n")
	require.GreaterOrEqual(t, start, 0)
	code := sec[start+len("```python\n"):]
	code = code[:strings.Index(code, "```")]
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "fairhold_v1.py"), []byte(code), 0o644))
	harness := `
import json, glob, sys, hashlib
sys.path.insert(0, sys.argv[1])
from fairhold_v1 import deal, name, prefix
n = 0
for f in sorted(glob.glob(sys.argv[2] + "/v1-*.json")):
    v = json.load(open(f))
    if v.get("expected") is None:
        continue
    beacon = hashlib.sha256(bytes.fromhex(v["beacon"]["signature"])).digest() if "beacon" in v else b""
    got = deal(bytes.fromhex(v["server_seed"]), v["client_seeds"], int(v["nonce"]), v["count"], beacon)
    assert [name(c) for c in got] == v["expected"]["cards"], f
    assert prefix(v["client_seeds"], int(v["nonce"]), beacon).hex() == v["expected"]["prefix"], f
    n += 1
print(n)
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "harness.py"), []byte(harness), 0o644))
	abs, err := filepath.Abs(vectorDir)
	require.NoError(t, err)
	out, err := exec.Command(py, filepath.Join(dir, "harness.py"), dir, abs).CombinedOutput()
	require.NoError(t, err, string(out))
	// The snippet prints the worked example on import, then the harness
	// prints how many vectors it checked.
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, 2, string(out))
	assert.Equal(t, "['3s', '8h', '4h', 'Th', 'Tc', '4s', '3d', '5d', 'Qc']", lines[0])
	n, err := strconv.Atoi(lines[1])
	require.NoError(t, err, string(out))
	assert.GreaterOrEqual(t, n, 40, "fairhold/v1 vectors checked by the Python verifier")
}

// docs/fairness.md names vectors: each exists, and each edge vector of
// the generator is named in the document (section 20 states its rule).
func TestFairnessDocNamesVectors(t *testing.T) {
	doc, err := os.ReadFile("../../docs/fairness.md")
	require.NoError(t, err)
	vs, err := vectors.Fairness()
	require.NoError(t, err)
	ids := map[string]bool{}
	for _, v := range vs {
		ids[v.ID] = true
	}
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`((?:v1|stake|malformed)-[a-z0-9-]*[a-z0-9])`").FindAllStringSubmatch(string(doc), -1) {
		if m[1] == "stake-compat" {
			continue // the scheme's name
		}
		named[m[1]] = true
		assert.True(t, ids[m[1]], "docs/fairness.md names vector %s, which does not exist", m[1])
	}
	for _, v := range edgeSpecs() {
		if !named[v.ID] && !strings.HasPrefix(v.ID, "malformed-committed-at-") {
			t.Errorf("edge vector %s is not named in docs/fairness.md", v.ID)
		}
	}
	// The position words of section 11.1 are those of layout.Position.
	for _, w := range []string{"player, first hole card", "box B, second hole card", "seat S, third hole card", "dealer, second card",
		"flop, third card", "`turn`", "`river`", "`card 1`", "river: Qd claimed, Qc dealt"} {
		assert.Contains(t, string(doc), w)
	}
}
