package beacon

import (
	"encoding/hex"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Vectors from /work/shared/reference/README.md §4.
const (
	quicknetSig1000  = "b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39"
	quicknetRand1000 = "fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd"
	defaultPrev1000  = "af0d93299a363735fe847f5ea241442c65843dc1bd3a7b79646b3b10072e908bf034d35cd69d378e3341f139100cd4cd03030399864ef8803a5a4f5e64fccc20bbae36d1ca22a6ddc43d2630c41105e90598fab11e5c7456df3925d4b577b113"
	defaultSig1000   = "99bf96de133c3d3937293cfca10c8152b18ab2d034ccecf115658db324d2edc00a16a2044cd04a8a38e2a307e5ecff3511315be8d282079faf24098f283e0ed2c199663b334d2e84c55c032fe469b212c5c2087ebb83a5b25155c3283f5b79ac"
	defaultRand1000  = "a40d3e0e7e3c71f28b7da2fd339f47f0bcf10910309f5253d7c323ec8cea3212"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

// flipNibble changes the hex digit at i.
func flipNibble(s string, i int) string {
	b := []byte(s)
	if b[i] == '0' {
		b[i] = '1'
	} else {
		b[i] = '0'
	}
	return string(b)
}

func TestVerifyReferenceRounds(t *testing.T) {
	tests := []struct {
		chain, sig, prev, rand string
	}{
		{Quicknet, quicknetSig1000, "", quicknetRand1000},
		{Default, defaultSig1000, defaultPrev1000, defaultRand1000},
	}
	for _, tt := range tests {
		t.Run(tt.chain, func(t *testing.T) {
			c, err := Lookup(tt.chain)
			require.NoError(t, err)
			var prev []byte
			if tt.prev != "" {
				prev = unhex(t, tt.prev)
			}
			r, err := c.Verify(1000, unhex(t, tt.sig), prev)
			require.NoError(t, err)
			assert.Equal(t, tt.rand, hex.EncodeToString(r[:]))

			// Wrong round.
			_, err = c.Verify(1001, unhex(t, tt.sig), prev)
			assert.ErrorIs(t, err, ErrInvalid)
			// One nibble changed, at several places.
			for _, i := range []int{2, len(tt.sig) / 2, len(tt.sig) - 1} {
				_, err = c.Verify(1000, unhex(t, flipNibble(tt.sig, i)), prev)
				assert.Error(t, err, "nibble %d", i)
			}
			if tt.prev != "" {
				_, err = c.Verify(1000, unhex(t, tt.sig), unhex(t, flipNibble(tt.prev, 10)))
				assert.ErrorIs(t, err, ErrInvalid)
				_, err = c.Verify(1000, unhex(t, tt.sig), nil)
				assert.ErrorIs(t, err, ErrInput)
			}
			_, err = c.Verify(1000, unhex(t, tt.sig)[1:], prev)
			assert.ErrorIs(t, err, ErrInput)
			_, err = c.Verify(0, unhex(t, tt.sig), prev)
			assert.ErrorIs(t, err, ErrInput)
		})
	}
}

func TestRoundTimes(t *testing.T) {
	q, err := Lookup(Quicknet)
	require.NoError(t, err)
	d, err := Lookup(Default)
	require.NoError(t, err)
	assert.Equal(t, int64(1692803367), q.RoundTime(1).Unix())
	assert.Equal(t, int64(1692803367+999*3), q.RoundTime(1000).Unix())
	assert.Equal(t, int64(1595431050+999*30), d.RoundTime(1000).Unix())
	for _, c := range []Chain{q, d} {
		for _, r := range []uint64{1, 2, 1000, 123456} {
			tr := c.RoundTime(r)
			assert.Equal(t, r, c.RoundAt(tr), "%s %d", c.Name, r)
			assert.Equal(t, r, c.RoundAt(tr.Add(time.Duration(c.Period)*time.Second-time.Second)))
			assert.Equal(t, r-1, c.RoundAt(tr.Add(-time.Second)))
			assert.True(t, c.PublishedAfter(r, tr.Add(-time.Second)))
			assert.False(t, c.PublishedAfter(r, tr))
		}
		assert.Equal(t, uint64(0), c.RoundAt(time.Unix(c.Genesis-1, 0)))
	}
	_, err = Lookup("mainnet")
	assert.ErrorIs(t, err, ErrUnknownChain)
}

func BenchmarkVerifyQuicknet(b *testing.B) {
	c, _ := Lookup(Quicknet)
	sig := unhex(b, quicknetSig1000)
	for b.Loop() {
		if _, err := c.Verify(1000, sig, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestMaxRound(t *testing.T) {
	for _, name := range Names() {
		c, err := Lookup(name)
		require.NoError(t, err)
		last := c.MaxRound()
		// The last round is published in the year 9999, the next after it.
		assert.Equal(t, 9999, c.RoundTime(last).Year(), name)
		assert.Greater(t, c.RoundTime(last).Unix()+c.Period, int64(lastTime), name)
		assert.NoError(t, c.CheckRound(last), name)
		for _, r := range []uint64{0, last + 1, 1<<63 + 1, 1<<64 - 1} {
			assert.ErrorIs(t, c.CheckRound(r), ErrInput, "%s round %d", name, r)
			_, err := c.Verify(r, make([]byte, c.SigSize), make([]byte, c.SigSize))
			assert.ErrorIs(t, err, ErrInput, "%s round %d", name, r)
			// A round whose time would overflow int64 must not look as if
			// it had been published before a commitment in 2020.
			if r > 0 {
				assert.False(t, c.PublishedAfter(r, time.Unix(1577836800, 0)), "%s round %d", name, r)
				assert.False(t, c.RoundTime(r).Before(c.RoundTime(last)), "%s round %d clamps", name, r)
			}
		}
	}
}

// FuzzVerify: arbitrary signatures, previous signatures and rounds never
// panic Verify (the bytes reach circl's point decoding), and only the
// reference round's own signature verifies.
func FuzzVerify(f *testing.F) {
	f.Add(false, uint64(1000), unhex(f, quicknetSig1000), []byte(nil))
	f.Add(true, uint64(1000), unhex(f, defaultSig1000), unhex(f, defaultPrev1000))
	f.Fuzz(func(t *testing.T, def bool, round uint64, sig, prev []byte) {
		name, want := Quicknet, quicknetSig1000
		if def {
			name, want = Default, defaultSig1000
		}
		c, err := Lookup(name)
		require.NoError(t, err)
		if _, err := c.Verify(round, sig, prev); err == nil {
			require.Equal(t, uint64(1000), round)
			require.Equal(t, want, hex.EncodeToString(sig))
		}
	})
}
