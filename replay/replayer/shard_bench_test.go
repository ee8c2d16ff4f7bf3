package replayer

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/require"
)

// BenchmarkMerge1000Parts merges the 1,000 parts of a dataset of 1,000
// rounds files (100,000 Casino Hold'em rounds at two tables) replayed as
// 1,000 shards: the target of issue 19 is under 5 seconds. The shards are
// written once, in this process, before the timer starts. Run:
//
//	go test ./replay/replayer -run '^$' -bench BenchmarkMerge1000Parts -benchtime 3x
func BenchmarkMerge1000Parts(b *testing.B) {
	const parts, perPart = 1000, 100
	rs := simLog(b, sim.Config{Game: gameCH, Rounds: parts * perPart, Seed: 31, Players: 3})
	multiTable(rs)
	dir := writeDataset(b, rs, perPart, perPart)
	rs = nil

	ds, err := roundlog.Open(dir)
	require.NoError(b, err)
	mans := LoadManifests([]string{dir}, nil)
	pd := b.TempDir()
	paths := make([]string, parts)
	start := time.Now()
	for i := range parts {
		paths[i] = filepath.Join(pd, fmt.Sprintf("part-%04d.fhpart", i))
		require.NoError(b, replayShardFile(ds, Options{Workers: 1, Config: rulesConfig(b, nil), Manifests: mans}, ShardSpec{i, parts}, PartMeta{Tool: "bench", Inputs: []string{dir}}, paths[i]))
	}
	require.NoError(b, ds.Close())
	b.Logf("1,000 shards written in %.1f s", time.Since(start).Seconds())
	b.ResetTimer()
	for range b.N {
		ps, err := OpenParts(paths, MergeCheck{})
		require.NoError(b, err)
		var n int
		s, err := ps.Merge(Options{Findings: func(*finding.Finding) error { n++; return nil }})
		require.NoError(b, err)
		require.Equal(b, int64(parts*perPart), s.Rounds)
		require.Zero(b, n)
		require.Empty(b, ps.Fallback, "the boundary state completed, no trace read")
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/merge")
}

// BenchmarkShards compares one shard with one worker against two shards of
// one worker each running at once (two processes' worth of work on two
// cores) over the same dataset, and reports the speed-up of the shards'
// phase and of shards plus merge. FAIRHOLD_SHARD_BENCH_DIR names the
// dataset (for example 4,000,000 rounds written by 'fairhold simulate
// --part-rounds 250000'); without it, a 200,000-round two-table dataset is
// made. Run:
//
//	FAIRHOLD_SHARD_BENCH_DIR=/tmp/b4m go test ./replay/replayer -run '^$' -bench BenchmarkShards -benchtime 1x -timeout 60m
func BenchmarkShards(b *testing.B) {
	dir := os.Getenv("FAIRHOLD_SHARD_BENCH_DIR")
	if dir == "" {
		rs := simLog(b, sim.Config{Game: gameCH, Rounds: 200_000, Seed: 32, Players: 3})
		multiTable(rs)
		dir = writeDataset(b, rs, 10_000, 25_000)
	}
	pd := b.TempDir()
	shards := func(n int) (shardSec, mergeSec float64) {
		b.Helper()
		start := time.Now()
		var wg sync.WaitGroup
		paths := make([]string, n)
		errs := make([]error, n)
		for i := range n {
			paths[i] = filepath.Join(pd, fmt.Sprintf("n%d-%d.fhpart", n, i))
			wg.Add(1)
			go func() {
				defer wg.Done()
				ds, err := roundlog.Open(dir)
				if err != nil {
					errs[i] = err
					return
				}
				defer ds.Close()
				errs[i] = replayShardFile(ds, Options{Workers: 1, Config: rulesConfig(b, nil), Manifests: LoadManifests([]string{dir}, nil)},
					ShardSpec{i, n}, PartMeta{Tool: "bench", Inputs: []string{dir}}, paths[i])
			}()
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(b, err)
		}
		shardSec = time.Since(start).Seconds()
		start = time.Now()
		ps, err := OpenParts(paths, MergeCheck{})
		require.NoError(b, err)
		_, err = ps.Merge(Options{})
		require.NoError(b, err)
		return shardSec, time.Since(start).Seconds()
	}
	for range b.N {
		s1, m1 := shards(1)
		s2, m2 := shards(2)
		b.Logf("1 shard: %.2f s + merge %.2f s; 2 shards: %.2f s + merge %.2f s; speed-up %.2fx (shards), %.2fx (with the merge)",
			s1, m1, s2, m2, s1/s2, (s1+m1)/(s2+m2))
		b.ReportMetric(s1/s2, "speedup-shards")
		b.ReportMetric((s1+m1)/(s2+m2), "speedup-total")
	}
}
