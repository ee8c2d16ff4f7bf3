package check

import (
	"crypto/sha256"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
)

// hintClaim is a Casino Hold'em claim of a random seed, its commitment
// and every card its seeds deal.
func hintClaim(t *testing.T, rng *rand.Rand, sch string) Claim {
	t.Helper()
	sd := make([]byte, 32)
	for i := range sd {
		sd[i] = byte(rng.Uint32())
	}
	commit := sha256.Sum256(sd)
	l, err := layout.For(layout.CasinoHoldem, 1)
	require.NoError(t, err)
	c := Claim{Scheme: sch, ServerSeed: sd, ClientSeeds: []string{"lucky-" + string(rune('a'+rng.IntN(26)))}, Nonce: 1 + rng.Uint64N(1000),
		Commitment: commit[:], Count: l.Count, Layout: &l}
	s, err := scheme.Lookup(sch)
	require.NoError(t, err)
	c.Cards, err = s.Deal(scheme.Input{ServerSeed: sd, ClientSeeds: c.ClientSeeds, Nonce: c.Nonce}, c.Count)
	require.NoError(t, err)
	return c
}

// verdictOf runs c and returns its verdict.
func verdictOf(t *testing.T, c Claim) Verdict {
	t.Helper()
	r, err := Run(c)
	require.NoError(t, err)
	v, err := NewVerdict(c, r)
	require.NoError(t, err)
	return v
}

func kinds(hs []Hint) []string {
	var out []string
	for _, h := range hs {
		k := h.Kind
		if h.Confirmed {
			k += "!"
		}
		out = append(out, k)
	}
	return out
}

// Each usual copying mistake, made on an honest round, is named by a hint
// that is confirmed: the corrected input passes. The honest round has none.
func TestHintsName(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	for _, sch := range []string{scheme.FairholdV1Name, scheme.StakeCompatName} {
		honest := hintClaim(t, rng, sch)
		v := verdictOf(t, honest)
		require.Equal(t, VerdictVerified, v.Verdict)
		assert.Nil(t, v.Hints)

		// The hashed server seed pasted as the server seed.
		c := honest
		c.ServerSeed = slices.Clone(c.Commitment)
		v = verdictOf(t, c)
		require.Equal(t, VerdictFailed, v.Verdict)
		assert.Equal(t, HintHashedServerSeed+"!", kinds(v.Hints)[0], sch)
		assert.Contains(t, v.Hints[0].Text, "hashed server seed")

		// The seed and the commitment swapped.
		c = honest
		c.ServerSeed, c.Commitment = slices.Clone(honest.Commitment), slices.Clone(honest.ServerSeed)
		v = verdictOf(t, c)
		assert.Equal(t, HintSwappedSeeds+"!", kinds(v.Hints)[0], sch)

		// A stray space, a trailing line break, a line break inside.
		for _, bad := range []string{honest.ClientSeeds[0] + " ", " " + honest.ClientSeeds[0] + "\n"} {
			c = honest
			c.ClientSeeds = []string{bad}
			v = verdictOf(t, c)
			require.Equal(t, VerdictFailed, v.Verdict)
			assert.Equal(t, []string{HintClientSeedWhiteSpace + "!"}, kinds(v.Hints), "%s %q", sch, bad)
			assert.Contains(t, v.Hints[0].Text, `as "`+honest.ClientSeeds[0]+`"`)
		}
		c = honest
		c.ClientSeeds = []string{honest.ClientSeeds[0][:3] + "\n" + honest.ClientSeeds[0][3:]}
		v = verdictOf(t, c)
		assert.Equal(t, []string{HintClientSeedWhiteSpace + "!"}, kinds(v.Hints), sch)

		// The nonce off by one, either way.
		for _, d := range []int{-1, 1} {
			c = honest
			c.Nonce = uint64(int(honest.Nonce) + d)
			v = verdictOf(t, c)
			require.Equal(t, VerdictFailed, v.Verdict)
			assert.Equal(t, []string{HintNonceOffByOne + "!"}, kinds(v.Hints), "%s nonce %+d", sch, d)
			assert.Contains(t, v.Hints[0].Text, "nonce")
		}

		// The other scheme.
		c = honest
		c.Scheme = map[string]string{scheme.FairholdV1Name: scheme.StakeCompatName, scheme.StakeCompatName: scheme.FairholdV1Name}[sch]
		v = verdictOf(t, c)
		require.Equal(t, VerdictFailed, v.Verdict)
		assert.Contains(t, kinds(v.Hints), HintScheme+"!", sch)
	}

	// One seed split in two by a line break (fairhold/v1 takes several).
	honest := hintClaim(t, rng, scheme.FairholdV1Name)
	c := honest
	s := honest.ClientSeeds[0]
	c.ClientSeeds = []string{s[:2], s[2:]}
	assert.Equal(t, []string{HintClientSeedSplit + "!"}, kinds(verdictOf(t, c).Hints))
}

// A deal that differs with no usual mistake to explain it: every card
// differs, the hint names the usual causes, unconfirmed; a card or two
// replaced (what a changed deal looks like) gives no hint.
func TestHintsUnconfirmed(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 2))
	honest := hintClaim(t, rng, scheme.FairholdV1Name)
	c := honest
	c.ClientSeeds = []string{"someone-else"}
	v := verdictOf(t, c)
	require.Equal(t, VerdictFailed, v.Verdict)
	require.GreaterOrEqual(t, len(v.Mismatches), len(c.Cards)-1)
	assert.Equal(t, []string{HintEveryCardDiffers}, kinds(v.Hints))
	assert.Contains(t, v.Hints[0].Text, "copying mistake")
	assert.Contains(t, v.Hints[0].Text, "nonce")

	// A space that is not the mistake: named, not confirmed.
	c.ClientSeeds = []string{"someone else "}
	assert.Equal(t, []string{HintClientSeedWhiteSpace, HintEveryCardDiffers}, kinds(verdictOf(t, c).Hints))

	c = honest
	c.Cards = slices.Clone(honest.Cards)
	c.Cards[8] = c.Cards[0] // the river replaced by a card already dealt
	c.Cards[0] = honest.Cards[8]
	v = verdictOf(t, c)
	require.Equal(t, VerdictFailed, v.Verdict)
	assert.Empty(t, v.Hints, "two cards swapped: no copying mistake explains it")

	// A wrong commitment that is neither the seed's hash pasted nor
	// swapped: no hint.
	c = honest
	c.Commitment = make([]byte, 32)
	v = verdictOf(t, c)
	require.Equal(t, VerdictFailed, v.Verdict)
	assert.Empty(t, v.Hints)
}
