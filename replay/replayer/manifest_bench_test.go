package replayer

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/source"
)

var (
	manifestOnce sync.Once
	manifestDir  string
	manifestM    *manifest.Manifest
)

// benchManifestData writes the rounds of benchData again, with their
// manifest, beside them (TestMain removes both).
func benchManifestData(b *testing.B) (string, *manifest.Manifest) {
	_, rs := benchData(b)
	manifestOnce.Do(func() {
		manifestDir = filepath.Join(filepath.Dir(benchDir), "pqm")
		w, err := roundlog.NewParquetWriter(manifestDir, roundlog.Options{RowGroupRounds: 10_000})
		require.NoError(b, err)
		for i := range rs {
			require.NoError(b, w.Write(&rs[i]))
		}
		require.NoError(b, w.Close())
		manifestM = manifest.New()
		manifestM.Parts = w.Parts()
		_, err = manifest.Write(manifestDir, manifestM, nil)
		require.NoError(b, err)
	})
	return manifestDir, manifestM
}

// BenchmarkReplayParquetManifest is BenchmarkReplayParquet on a dataset
// with a manifest: every file hashed (on a goroutine of its own) and the
// parts' figures followed. Compare with BenchmarkReplayParquet.
func BenchmarkReplayParquetManifest(b *testing.B) {
	dir, _ := benchManifestData(b)
	cfg := config(b)
	b.ResetTimer()
	for range b.N {
		s, err := Run([]string{dir}, Options{Workers: 2, Config: cfg})
		require.NoError(b, err)
		require.Zero(b, s.FindingsTotal())
	}
	b.ReportMetric(float64(benchRounds)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkManifestHash is the hashing of the dataset's files alone, one
// goroutine: MB/s.
func BenchmarkManifestHash(b *testing.B) {
	dir, m := benchManifestData(b)
	buf := make([]byte, 1<<20)
	var n int64
	for _, p := range m.Parts {
		for _, f := range p.Files {
			n += f.Bytes
		}
	}
	b.SetBytes(n)
	b.ResetTimer()
	for range b.N {
		for _, p := range m.Parts {
			for _, f := range p.Files {
				h := hashFile(source.Local, listedPath(dir, f.Path), f.Bytes+1, buf)
				require.NoError(b, h.err)
				require.Equal(b, f.SHA256, h.sum)
			}
		}
	}
}
