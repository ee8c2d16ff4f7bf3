package replayer

import (
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

// Inflated round counts in a manifest (issue 24). The counts a manifest
// lists weigh the parts in the shards' assignment; they are the
// operator's word and may hold any int64.

// inflations are round counts of the 7 parts of a dataset of 100 rounds
// each, as a manifest could list them.
var inflations = []struct {
	name   string
	rounds [7]int64
}{
	{"sum exactly 2^63", [7]int64{100, 100, 100, math.MaxInt64 - 599, 100, 100, 100}},
	{"sum past 2^63", [7]int64{100, 100, 100, math.MaxInt64, 100, 100, 100}},
	{"sum near 2^66", [7]int64{math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64}},
	{"one part 2^62", [7]int64{100, 100, 100, 1 << 62, 100, 100, 100}},
	{"one part a million", [7]int64{100, 100, 100, 1_000_000, 100, 100, 100}},
	{"first and last inflated", [7]int64{1 << 61, 100, 100, 100, 100, 100, 3 << 61}},
}

// wantShards is the assignment's contract (docs/sharding.md), computed
// with exact rationals: the file whose weight's middle falls at w of the
// total W goes to shard floor(w x n / W).
func wantShards(weights []int64, n int) []int {
	total := new(big.Rat)
	for _, w := range weights {
		total.Add(total, new(big.Rat).SetInt64(w))
	}
	at := new(big.Rat)
	var out []int
	for _, w := range weights {
		mid := new(big.Rat).Add(at, new(big.Rat).SetFrac64(w, 2))
		q := new(big.Rat).Mul(mid, new(big.Rat).SetInt64(int64(n)))
		q.Quo(q, total)
		s := new(big.Int).Quo(q.Num(), q.Denom()) // floor: q >= 0
		out = append(out, min(n-1, int(s.Int64())))
		at.Add(at, new(big.Rat).SetInt64(w))
	}
	return out
}

// TestAssignExactForAnyCounts: whatever counts a manifest's parts list
// (here given to Assign as loaded, unchecked), every rounds file is
// assigned exactly once, the shards take contiguous ranges of the input
// in order, and each file goes where the contract's exact arithmetic
// puts it. A sum of exactly 2^63 divided by zero and killed every shard.
func TestAssignExactForAnyCounts(t *testing.T) {
	rs := simLog(t, sim.Config{Game: gameCH, Rounds: 700, Seed: 28, Players: 3})
	dir := writeDataset(t, rs, 50, 100)
	ds, err := roundlog.Open(dir)
	require.NoError(t, err)
	defer ds.Close()
	clean := LoadManifests([]string{dir}, nil)
	require.NoError(t, clean[0].Err)
	for _, tc := range inflations {
		t.Run(tc.name, func(t *testing.T) {
			m := *clean[0].Loaded.Manifest
			m.Parts = slices.Clone(m.Parts)
			var paths []string
			for i := range m.Parts {
				m.Parts[i].Rounds = tc.rounds[i]
				paths = append(paths, filepath.Join(dir, filepath.FromSlash(m.Parts[i].Files[0].Path)))
			}
			dms := []DatasetManifest{{Path: dir, Loaded: &manifest.Loaded{Manifest: &m}}}
			for n := 1; n <= 9; n++ {
				var as []Assigned
				require.NotPanics(t, func() { as = Assign(ds, dms, n) }, "%d shards", n)
				require.Len(t, as, 7)
				got := map[string]Assigned{}
				for _, a := range as {
					got[a.Path] = a
				}
				require.Len(t, got, 7, "each file once")
				var shards []int
				for i, p := range paths {
					a, ok := got[p]
					require.True(t, ok, "%s assigned", p)
					assert.Equal(t, tc.rounds[i], a.Rounds)
					require.True(t, a.Shard >= 0 && a.Shard < n, "shard %d of %d", a.Shard, n)
					shards = append(shards, a.Shard)
				}
				assert.True(t, slices.IsSorted(shards), "%d shards: contiguous ranges in input order, got %v", n, shards)
				assert.Equal(t, wantShards(tc.rounds[:], n), shards, "%d shards", n)
			}
		})
	}
}

// inflate rewrites dir's manifest.json with the parts' round counts (and
// their rounds files' rows, which must equal them), unsigned; with
// bytes, the rounds files' sizes are inflated to 2^63-1 too.
func inflate(t *testing.T, dir string, rounds [7]int64, bytes bool) {
	t.Helper()
	fn := filepath.Join(dir, manifest.FileName)
	b, err := os.ReadFile(fn)
	require.NoError(t, err)
	var m manifest.Manifest
	require.NoError(t, json.Unmarshal(b, &m))
	require.Len(t, m.Parts, 7)
	for i := range m.Parts {
		m.Parts[i].Rounds = rounds[i]
		m.Parts[i].Files[0].Rows = rounds[i]
		if bytes && rounds[i] != 100 {
			m.Parts[i].Files[0].Bytes = math.MaxInt64
		}
	}
	b, err = json.MarshalIndent(&m, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(fn, b, 0o644))
}

// TestManifestImplausibleCounts: a manifest whose counts add up past
// int64, or that lists more rounds for a part than its files have bytes,
// is MANIFEST_INVALID, in the unsharded replay and in every sharding of
// it alike (no shard dies); a count that is wrong but plausible is the
// part's PART_TRUNCATED.
func TestManifestImplausibleCounts(t *testing.T) {
	rs := simLog(t, sim.Config{Game: gameCH, Rounds: 700, Seed: 28, Players: 3})
	type tc struct {
		name   string
		rounds [7]int64
		bytes  bool
		want   []finding.Code
		reason string
	}
	var cases []tc
	for _, c := range inflations {
		cases = append(cases, tc{c.name, c.rounds, false, []finding.Code{finding.ManifestInvalid}, `^parts\[\d\]: rounds \d+: not plausible for the part's files of \d+ bytes`})
	}
	cases = append(cases,
		tc{"sum exactly 2^63, sizes inflated", inflations[0].rounds, true, []finding.Code{finding.ManifestInvalid}, `^parts\[6\]\.rounds 100: the parts' rounds add up past 2\^63-1 \(9223372036854775708 before it\)`},
		tc{"sum near 2^66, sizes inflated", inflations[2].rounds, true, []finding.Code{finding.ManifestInvalid}, `^parts\[1\]\.rounds 9223372036854775807: the parts' rounds add up past 2\^63-1`},
		// Plausible for the sizes listed, which the files do not have
		// (PART_ALTERED is not reported again for a part PART_TRUNCATED).
		tc{"one part 2^62, size inflated", inflations[3].rounds, true, []finding.Code{finding.PartTruncated}, ""},
		// Plausible, and wrong.
		tc{"one part 150", [7]int64{100, 100, 100, 150, 100, 100, 100}, false, []finding.Code{finding.PartTruncated}, ""},
	)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeDataset(t, rs, 50, 100)
			inflate(t, dir, tc.rounds, tc.bytes)
			var fs []finding.Finding
			require.NotPanics(t, func() { fs = requireShardedSame(t, []string{dir}, nil, []int{2, 3, 7}) })
			var codes []finding.Code
			for _, f := range fs {
				codes = append(codes, f.Code)
			}
			slices.Sort(codes)
			require.Equal(t, tc.want, codes)
			if tc.reason != "" {
				assert.Regexp(t, tc.reason, fs[0].Actual)
				assert.Equal(t, filepath.Join(dir, manifest.FileName), fs[0].File)
			}
		})
	}
}
