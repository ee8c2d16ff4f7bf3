package audit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitID(t *testing.T) {
	for _, tc := range []struct {
		id, prefix string
		width      int
		n          uint64
		ok         bool
	}{
		{"rng-1-10297", "rng-1-", 5, 10297, true},
		{"42", "", 2, 42, true},
		{"r0", "r", 1, 0, true},
		{"0", "", 1, 0, true},
		{"r007", "r", 3, 7, true}, // zero-padded: width 3, not the id "r7"
		{"r00", "r", 2, 0, true},
		{"round", "", 0, 0, false},
		{"", "", 0, 0, false},
		{"r999999999999999999", "r", 18, 999999999999999999, true},
		{"r000000000000000001", "r", 18, 1, true},
		{"r1000000000000000000", "", 0, 0, false}, // 19 digits
		{"a1b", "", 0, 0, false},
	} {
		prefix, width, n, ok := splitID(tc.id)
		assert.Equal(t, tc.ok, ok, tc.id)
		if tc.ok {
			assert.Equal(t, tc.prefix, prefix, tc.id)
			assert.Equal(t, tc.width, width, tc.id)
			assert.Equal(t, tc.n, n, tc.id)
			assert.Equal(t, tc.id, string(appendID(nil, prefix, width, n)), "the split prints back to the id")
		}
	}
}

// TestIDSetMatchesAMap feeds the id set ids of every shape (tables
// counting up, out of order and repeated, numbers that are not runs,
// ids that are not numbered, more prefixes than kept as runs) and checks
// each answer against a plain set of the texts.
func TestIDSetMatchesAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var ids []string
	for n := 1; n <= 3000; n++ { // two tables counting up, interleaved
		ids = append(ids, fmt.Sprintf("live-1-%d", n), fmt.Sprintf("live-2-%d", n))
	}
	for range 2000 { // repeats and near misses of those
		ids = append(ids, fmt.Sprintf("live-%d-%d", 1+rng.IntN(3), rng.IntN(3200)))
	}
	for range 500 { // numbers far apart: the prefix moves to the fingerprints
		ids = append(ids, fmt.Sprintf("sparse-%d", rng.Uint64N(1e12)))
	}
	ids = append(ids, "sparse-5", "sparse-5", "sparse-05", "0", "00", "0", "007", "7", "07", "007")
	for n := 1; n <= 2000; n++ { // zero-padded, overflowing its width, and again unpadded
		ids = append(ids, fmt.Sprintf("pad-%03d", n), fmt.Sprintf("pad-%d", n%150))
	}
	for range 300 { // zero-padded numbers far apart: moved, and printed back padded
		ids = append(ids, fmt.Sprintf("sp-%08d", rng.IntN(1e6)))
	}
	// The first of those moved ids again: found among the fingerprints
	// only if they were printed back exactly.
	for _, id := range slices.Clone(ids) {
		if strings.HasPrefix(id, "sparse-") && len(id) >= 18 || strings.HasPrefix(id, "sp-") {
			ids = append(ids, id)
		}
	}
	for range 1000 { // not numbered
		ids = append(ids, fmt.Sprintf("%x-x", rng.Uint64N(5000)))
	}
	for k := range maxIDPrefixes + 100 { // more prefixes than kept as runs
		ids = append(ids, fmt.Sprintf("t%dx%d", k, 1), fmt.Sprintf("t%dx%d", k, 2), fmt.Sprintf("t%dx%d", k%50, 1))
	}
	for n := 1; n <= 100; n++ { // a late table still counting up, then its first ids again
		ids = append(ids, fmt.Sprintf("late-%d", n))
	}
	ids = append(ids, "late-1", "late-100", "late-101")

	var s idSet
	s.reserve(int64(len(ids)))
	seen := map[string]bool{}
	for i, id := range ids {
		var tr traceRound
		tr.RoundID = id
		tr.setID(id)
		require.Equal(t, !seen[id], s.add(&tr), "id %d %q", i, id)
		seen[id] = true
	}
	assert.Len(t, s.runs, maxIDPrefixes)
	live := s.runs[prefixKey("live-1-", 4)]
	assert.False(t, live.moved)
	assert.Equal(t, uint64(1000), live.runs[0].lo)
	assert.GreaterOrEqual(t, live.runs[0].hi, uint64(3000))
	assert.True(t, s.runs[prefixKey("sparse-", 11)].moved || s.runs[prefixKey("sparse-", 12)].moved)
	assert.Equal(t, []nonceRange{{1, 2}}, s.runs[prefixKey("t0x", 1)].runs)
	assert.True(t, s.runs[prefixKey("sp-", 8)].moved)
	assert.Equal(t, []nonceRange{{1, 999}}, s.runs[prefixKey("pad-", 3)].runs)
}

// prefixKey is the key setID gives the ids of prefix and width.
func prefixKey(prefix string, width int) uint64 {
	var tr traceRound
	tr.setID(string(appendID(nil, prefix, width, 0)))
	return tr.idPrefix
}

// TestIDSetNumberedIDsTakeNoFingerprints checks that a table numbering
// its rounds in order costs one run, not a fingerprint a round.
func TestIDSetNumberedIDsTakeNoFingerprints(t *testing.T) {
	var s idSet
	s.reserve(100_000)
	for n := range 100_000 {
		var tr traceRound
		id := "rng-1-" + strconv.Itoa(n+1)
		tr.RoundID = id
		tr.setID(id)
		require.True(t, s.add(&tr))
	}
	assert.Empty(t, s.fps.slots)
	for width, run := range map[int]nonceRange{1: {1, 9}, 2: {10, 99}, 3: {100, 999}, 4: {1000, 9999}, 5: {10000, 99999}, 6: {100000, 100000}} {
		assert.Equal(t, []nonceRange{run}, s.runs[prefixKey("rng-1-", width)].runs, "width %d", width)
	}
}
