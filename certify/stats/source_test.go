package stats

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/stream"
)

func TestStreamSequence(t *testing.T) {
	a := make([]byte, 100)
	b := make([]byte, 100)
	require.NoError(t, StreamSequence(1, 0, a))
	require.NoError(t, StreamSequence(1, 0, b))
	assert.Equal(t, a, b)
	// It is the fairhold/v1 stream of the documented round.
	ss := serverSeed(1, clientNIST, 0)
	prefix, err := scheme.FairholdV1Prefix(nil, []string{clientNIST}, 0, nil)
	require.NoError(t, err)
	want := make([]byte, 100)
	_, _ = stream.NewKey(ss[:]).Stream(prefix).Read(want)
	assert.Equal(t, want, a)
	require.NoError(t, StreamSequence(1, 1, b))
	assert.NotEqual(t, a, b)
	require.NoError(t, StreamSequence(2, 0, b))
	assert.NotEqual(t, a, b)
}

// TestSchemeSourceDeals checks deck i is the documented fairhold/v1 round
// and small decks are permutations of n cards.
func TestSchemeSourceDeals(t *testing.T) {
	sch := mustScheme(t, scheme.FairholdV1Name)
	d, err := SchemeSource{Scheme: sch, Seed: 9}.NewDealer()
	require.NoError(t, err)
	var deck [DeckSize]uint8
	i := uint64(NoncesPerSeed + 5)
	_, err = d.Deck(i, &deck)
	require.NoError(t, err)
	ss := serverSeed(9, clientDeck, 1)
	want, err := sch.Deal(scheme.Input{ServerSeed: ss[:], ClientSeeds: []string{clientDeck}, Nonce: 5}, DeckSize)
	require.NoError(t, err)
	assert.Equal(t, want, deck[:])
	for _, n := range smallSizes {
		buf := make([]uint8, n)
		require.NoError(t, d.Small(3, buf))
		assert.True(t, distinct(buf))
		for _, c := range buf {
			assert.Less(t, int(c), n)
		}
	}
	sd, err := SchemeSource{Scheme: mustScheme(t, scheme.StakeCompatName)}.NewDealer()
	require.NoError(t, err)
	assert.ErrorIs(t, sd.Small(0, make([]uint8, 3)), ErrNoSmall)
}
