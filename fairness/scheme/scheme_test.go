package scheme

import (
	"encoding/hex"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// canonical names, index = 4*rank + suit (docs/fairness.md).
func cardName(c uint8) string {
	return string("23456789TJQKA"[c/4]) + string("cdhs"[c%4])
}

func names(cs []uint8) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = cardName(c)
	}
	return out
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

// The Stake-family vector of /work/shared/reference/README.md §3.
func TestStakeCompatReferenceVector(t *testing.T) {
	s, err := Lookup(StakeCompatName)
	require.NoError(t, err)
	cards, err := s.Deal(Input{
		ServerSeed:  mustHex(t, "18e93f4a7b5b58d2569765766d1b6c3296bbd8430d6f20249044d72f14720159"),
		ClientSeeds: []string{"bb62964774"},
		Nonce:       1,
	}, 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"Qd", "Ks", "6d", "Qh", "2h", "4s", "8h", "5d", "9c", "7h"}, names(cards))
}

func TestStakeCompatCardOrder(t *testing.T) {
	// The operator's order is 2d 2h 2s 2c 3d ... Ad Ah As Ac.
	want := []string{}
	for _, r := range "23456789TJQKA" {
		for _, s := range "dhsc" {
			want = append(want, string(r)+string(s))
		}
	}
	got := make([]string, DeckSize)
	seen := map[uint8]bool{}
	for k := range uint8(DeckSize) {
		c := StakeCompatCard(k)
		got[k] = cardName(c)
		seen[c] = true
	}
	assert.Equal(t, want, got)
	assert.Len(t, seen, DeckSize)
}

func TestStakeCompatIndexCounts(t *testing.T) {
	c := StakeCompatIndexCounts()
	var sum uint64
	hist := map[uint64]int{}
	for _, v := range c {
		sum += v
		hist[v]++
	}
	assert.Equal(t, uint64(1)<<32, sum)
	// 2^32 = 52*82595524 + 48 (reference §3: bias about 1.2e-8).
	assert.Equal(t, map[uint64]int{82595524: 4, 82595525: 48}, hist)
	// The boundary of each index k: the first word mapping to k, and the
	// word before it mapping to k-1.
	var lo uint64
	for k := uint64(0); k < 52; k++ {
		assert.Equal(t, k, (lo*52)>>32, "k=%d", k)
		if k > 0 {
			assert.Equal(t, k-1, ((lo-1)*52)>>32, "k=%d", k)
		}
		lo += c[k]
	}
	assert.Equal(t, uint64(1)<<32, lo)
	p := StakeCompat{}.Properties()
	assert.True(t, p.WithReplacement)
	assert.False(t, p.Unbiased)
	assert.Contains(t, p.Notes[1], "1.2e-08")
}

func TestLookup(t *testing.T) {
	assert.Equal(t, []string{"fairhold/v1", "stake-compat"}, Names())
	for _, n := range Names() {
		s, err := Lookup(n)
		require.NoError(t, err)
		assert.Equal(t, n, s.Name())
	}
	_, err := Lookup("fairhold/v2")
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrUnknown))
	assert.Contains(t, err.Error(), `"fairhold/v2"`)
}

func TestFairholdV1PermutationPrefix(t *testing.T) {
	s := FairholdV1{}
	in := Input{ServerSeed: make([]byte, 32), ClientSeeds: []string{"a", "b"}, Nonce: 7}
	full, err := s.Deal(in, 52)
	require.NoError(t, err)
	sorted := slices.Clone(full)
	slices.Sort(sorted)
	for i, c := range sorted {
		require.Equal(t, uint8(i), c)
	}
	for _, n := range []int{0, 1, 9, 17, 51} {
		got, err := s.Deal(in, n)
		require.NoError(t, err)
		assert.Equal(t, full[:n], got, "n=%d", n)
	}
}

func TestFairholdV1InputBinding(t *testing.T) {
	base := Input{ServerSeed: mustHex(t, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"), ClientSeeds: []string{"ab", "c"}, Nonce: 1}
	deal := func(in Input) []uint8 {
		c, err := FairholdV1{}.Deal(in, 52)
		require.NoError(t, err)
		return c
	}
	ref := deal(base)
	variants := map[string]Input{
		"seed boundary moved": {ServerSeed: base.ServerSeed, ClientSeeds: []string{"a", "bc"}, Nonce: 1},
		"seeds joined":        {ServerSeed: base.ServerSeed, ClientSeeds: []string{"abc"}, Nonce: 1},
		"seat order":          {ServerSeed: base.ServerSeed, ClientSeeds: []string{"c", "ab"}, Nonce: 1},
		"nonce":               {ServerSeed: base.ServerSeed, ClientSeeds: base.ClientSeeds, Nonce: 2},
		"beacon":              {ServerSeed: base.ServerSeed, ClientSeeds: base.ClientSeeds, Nonce: 1, Beacon: make([]byte, 32)},
	}
	for name, in := range variants {
		assert.NotEqual(t, ref, deal(in), name)
	}
}

func TestDealErrors(t *testing.T) {
	seed := make([]byte, 32)
	tests := []struct {
		name   string
		scheme Scheme
		in     Input
		n      int
	}{
		{"v1 short seed", FairholdV1{}, Input{ServerSeed: seed[:31], ClientSeeds: []string{"x"}}, 9},
		{"v1 no client seed", FairholdV1{}, Input{ServerSeed: seed}, 9},
		{"v1 empty client seed", FairholdV1{}, Input{ServerSeed: seed, ClientSeeds: []string{""}}, 9},
		{"v1 bad utf8", FairholdV1{}, Input{ServerSeed: seed, ClientSeeds: []string{"\xff"}}, 9},
		{"v1 beacon 31", FairholdV1{}, Input{ServerSeed: seed, ClientSeeds: []string{"x"}, Beacon: seed[:31]}, 9},
		{"v1 53 cards", FairholdV1{}, Input{ServerSeed: seed, ClientSeeds: []string{"x"}}, 53},
		{"v1 negative", FairholdV1{}, Input{ServerSeed: seed, ClientSeeds: []string{"x"}}, -1},
		{"stake two seeds", StakeCompat{}, Input{ServerSeed: seed, ClientSeeds: []string{"x", "y"}}, 9},
		{"stake beacon", StakeCompat{}, Input{ServerSeed: seed, ClientSeeds: []string{"x"}, Beacon: seed}, 9},
		{"stake short seed", StakeCompat{}, Input{ServerSeed: seed[:31], ClientSeeds: []string{"x"}}, 9},
		{"stake no client seed", StakeCompat{}, Input{ServerSeed: seed}, 9},
		{"stake empty client seed", StakeCompat{}, Input{ServerSeed: seed, ClientSeeds: []string{""}}, 9},
		{"stake 257-byte client seed", StakeCompat{}, Input{ServerSeed: seed, ClientSeeds: []string{strings.Repeat("x", 257)}}, 9},
		{"stake bad utf8", StakeCompat{}, Input{ServerSeed: seed, ClientSeeds: []string{"ab\xff"}}, 9},
		{"stake lone surrogate (WTF-8)", StakeCompat{}, Input{ServerSeed: seed, ClientSeeds: []string{"\xed\xa0\x80"}}, 9},
		{"v1 lone surrogate (WTF-8)", FairholdV1{}, Input{ServerSeed: seed, ClientSeeds: []string{"\xed\xa0\x80"}}, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.scheme.Deal(tt.in, tt.n)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInput)
		})
	}
	// The limits' edges are accepted: 256 bytes, a colon.
	for _, c := range []string{strings.Repeat("x", 256), "a:1", "ü"} {
		_, err := StakeCompat{}.Deal(Input{ServerSeed: seed, ClientSeeds: []string{c}, Nonce: 1}, 9)
		assert.NoError(t, err, c)
	}
}

func FuzzParseNonce(f *testing.F) {
	for _, s := range []string{"0", "1", "-1", "01", "18446744073709551615", "18446744073709551616", " 1", "+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseNonce(s)
		if err != nil {
			return
		}
		assert.Equal(t, s, strconv.FormatUint(n, 10))
	})
}

// A rekeyed fairhold/v1 dealer deals as a dealer prepared for the new
// seed, without allocating; a seed of the wrong length leaves it as it was.
func TestFairholdV1Rekey(t *testing.T) {
	a, b := make([]byte, SeedSize), make([]byte, SeedSize)
	for i := range a {
		a[i], b[i] = byte(i), byte(200-i)
	}
	d, err := FairholdV1{}.Prepare(a)
	require.NoError(t, err)
	fresh, err := FairholdV1{}.Prepare(b)
	require.NoError(t, err)
	want, err := fresh.Deal(nil, []string{"c1", "c2"}, 7, nil, 19)
	require.NoError(t, err)
	before, err := d.Deal(nil, []string{"c1", "c2"}, 7, nil, 19)
	require.NoError(t, err)
	require.NotEqual(t, want, before)

	r, ok := d.(Rekeyer)
	require.True(t, ok)
	require.NoError(t, r.Rekey(b))
	got, err := d.Deal(nil, []string{"c1", "c2"}, 7, nil, 19)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	require.ErrorIs(t, r.Rekey(b[:31]), ErrInput)
	got, err = d.Deal(got[:0], []string{"c1", "c2"}, 7, nil, 19)
	require.NoError(t, err)
	assert.Equal(t, want, got, "unchanged by the failed rekey")

	buf, clients := make([]uint8, 0, 19), []string{"c1", "c2"}
	allocs := testing.AllocsPerRun(100, func() {
		_ = r.Rekey(a)
		buf, _ = d.Deal(buf[:0], clients, 7, nil, 19)
	})
	if !raceEnabled {
		assert.Zero(t, allocs)
	}
}
