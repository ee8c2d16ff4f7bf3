package replayer

import (
	"encoding/hex"
	"fmt"
	"github.com/fairhold/fairhold/replay/finding"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/stretchr/testify/require"
)

const benchRounds = 200_000

var (
	benchOnce   sync.Once
	benchDir    string
	benchRsOnce sync.Once
	benchRs     []round.Round
)

// TestMain removes the benchmark dataset after the run.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(filepath.Dir(benchDir))
	}
	os.Exit(code)
}

// benchDataDir writes benchRounds clean single-box Casino Hold'em rounds
// as Parquet (row groups of 10,000) once per test binary and returns the
// directory. The rounds are not kept: held in memory (over 200 MB of
// pointers), they made every collection during a replay benchmark scan
// them, a cost of the benchmark rather than of the replay.
func benchDataDir(b *testing.B) string {
	benchOnce.Do(func() {
		rs := genRounds(b, benchRounds, 100)
		// Kept for the whole test binary (b.TempDir would be removed after
		// the benchmark's first run); TestMain removes it.
		d, err := os.MkdirTemp("", "fairhold-replay-bench-")
		require.NoError(b, err)
		benchDir = filepath.Join(d, "pq")
		writeParquet(b, benchDir, rs, 10_000)
	})
	return benchDir
}

// benchData is benchDataDir and the same rounds, generated again
// (genRounds is deterministic) and kept for the benchmarks that use them.
func benchData(b *testing.B) (string, []round.Round) {
	dir := benchDataDir(b)
	benchRsOnce.Do(func() { benchRs = genRounds(b, benchRounds, 100) })
	return dir, benchRs
}

// BenchmarkReplayParquet replays the Parquet dataset end to end with 2
// workers; rounds/s is the figure of docs/replay.md, cpu-ms/op the
// process's CPU time per replay (steadier than rounds/s on a shared
// machine).
func BenchmarkReplayParquet(b *testing.B) {
	dir := benchDataDir(b)
	cfg := config(b)
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		s, err := Run([]string{dir}, Options{Workers: 2, Config: cfg})
		require.NoError(b, err)
		require.Zero(b, s.FindingsTotal())
	}
	b.ReportMetric(float64(benchRounds)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
	b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
}

// memDataset serves rounds held in memory in units of memUnit rounds: the
// replay without reading Parquet.
type memDataset struct{ rs []round.Round }

const memUnit = 10_000

func (m memDataset) Units() []roundlog.Unit {
	var us []roundlog.Unit
	for i := 0; i < len(m.rs); i += memUnit {
		us = append(us, roundlog.Unit{File: "mem", RowGroup: len(us), FirstRow: int64(i), Rounds: int64(min(memUnit, len(m.rs)-i))})
	}
	return us
}

func (memDataset) Damage() []*roundlog.DamageError { return nil }

func (m memDataset) ReadUnit(i int, fn func(*roundlog.Record) error) ([]*roundlog.DamageError, error) {
	var rec roundlog.Record
	for k := i * memUnit; k < min((i+1)*memUnit, len(m.rs)); k++ {
		rec = roundlog.Record{Round: m.rs[k], File: "mem", RowGroup: i, Row: int64(k)}
		if err := fn(&rec); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// BenchmarkReplayMemory replays the same rounds from memory with 2
// workers: every check and the Ledger, without reading. Its rounds/s
// against BenchmarkDealFloor's is the least ratio to the floor that a
// faster reader could give.
func BenchmarkReplayMemory(b *testing.B) {
	_, orig := benchData(b)
	// Texts that repeat share their bytes, as the Parquet reader's
	// dictionaries and time cache make them (a check compares a text with
	// its cached copy by pointer first).
	rs := slices.Clone(orig)
	texts := map[string]string{}
	intern := func(ss ...*string) {
		for _, s := range ss {
			if t, ok := texts[*s]; ok {
				*s = t
			} else {
				texts[*s] = *s
			}
		}
	}
	for i := range rs {
		r := &rs[i]
		f := &r.Fairness
		intern(&r.Game, &r.TableID, &r.Currency, &r.Profile, &r.ProfileHash,
			&f.Scheme, &f.Commitment, &f.CommittedAt, &f.ServerSeed, &f.RevealedAt)
		f.ClientSeeds = slices.Clone(f.ClientSeeds)
		r.Dealer, r.Board, r.Boxes = slices.Clone(r.Dealer), slices.Clone(r.Board), slices.Clone(r.Boxes)
		for k := range f.ClientSeeds {
			intern(&f.ClientSeeds[k])
		}
		for k := range r.Dealer {
			intern(&r.Dealer[k])
		}
		for k := range r.Board {
			intern(&r.Board[k])
		}
		for k := range r.Boxes {
			x := &r.Boxes[k]
			x.Cards = slices.Clone(x.Cards)
			intern(&x.PlayerID, &x.Decision, &x.Cards[0], &x.Cards[1])
		}
	}
	cfg := config(b)
	b.ResetTimer()
	for range b.N {
		s, err := Replay(memDataset{rs}, Options{Workers: 2, Config: cfg})
		require.NoError(b, err)
		require.Zero(b, s.FindingsTotal())
		require.EqualValues(b, len(rs), s.Rounds)
	}
	b.ReportMetric(float64(len(rs))*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkDealFloor re-derives the same rounds' cards alone, in 2
// goroutines, with one prepared dealer per server seed: the cryptographic
// floor of a replay.
func BenchmarkDealFloor(b *testing.B) {
	_, rs := benchData(b)
	type job struct {
		seed   []byte
		client []string
		nonce  uint64
	}
	jobs := make([]job, len(rs))
	for i := range rs {
		s, err := hex.DecodeString(rs[i].Fairness.ServerSeed)
		require.NoError(b, err)
		jobs[i] = job{s, rs[i].Fairness.ClientSeeds, rs[i].Fairness.Nonce}
	}
	sch, err := scheme.Lookup(scheme.FairholdV1Name)
	require.NoError(b, err)
	b.ResetTimer()
	for range b.N {
		var wg sync.WaitGroup
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// One prepared dealer per seed, as the replayer keeps.
				var buf []uint8
				dealers := map[string]scheme.Dealer{}
				for i := w; i < len(jobs); i += 2 {
					j := &jobs[i]
					d, ok := dealers[string(j.seed)]
					if !ok {
						d, _ = sch.Prepare(j.seed)
						dealers[string(j.seed)] = d
					}
					buf, _ = d.Deal(buf[:0], j.client, j.nonce, nil, 9)
				}
			}()
		}
		wg.Wait()
	}
	b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

func TestBenchDataClean(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	rs := genRounds(t, 30000, 100)
	dir := filepath.Join(t.TempDir(), "pq")
	writeParquet(t, dir, rs, 10_000)
	var fs []string
	s, err := Run([]string{dir}, Options{Workers: 2, Config: config(t), Findings: func(f *finding.Finding) error {
		if len(fs) < 5 {
			fs = append(fs, fmt.Sprintf("%+v", *f))
		}
		return nil
	}})
	require.NoError(t, err)
	require.Zero(t, s.FindingsTotal(), "%v %v", s.Findings, fs)
}

// BenchmarkReadParquet reads the same dataset with 2 workers and checks
// nothing: the reader's share of BenchmarkReplayParquet.
func BenchmarkReadParquet(b *testing.B) {
	dir := benchDataDir(b)
	b.ResetTimer()
	for range b.N {
		ds, err := roundlog.Open(dir)
		require.NoError(b, err)
		units := ds.Units()
		var wg sync.WaitGroup
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < len(units); i += 2 {
					_, err := ds.ReadUnit(i, func(*roundlog.Record) error { return nil })
					require.NoError(b, err)
				}
			}()
		}
		wg.Wait()
		require.NoError(b, ds.Close())
	}
	b.ReportMetric(float64(benchRounds)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}
