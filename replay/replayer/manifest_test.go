package replayer

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

// manifestDataset simulates rounds into parts of 100 rounds, writes the
// manifest (signed with key when not nil), and returns the directory and
// the rounds.
func manifestDataset(t *testing.T, cfg sim.Config, key ed25519.PrivateKey) (string, []*round.Round, *manifest.Manifest) {
	t.Helper()
	rs := simRounds(t, cfg)
	dir := filepath.Join(t.TempDir(), "log")
	parts := writeParts(t, dir, rs, roundlog.Options{RowGroupRounds: 30, FileRounds: 100})
	m := manifest.New()
	m.Parts = parts
	_, err := manifest.Write(dir, m, key)
	require.NoError(t, err)
	return dir, rs, m
}

func simRounds(t *testing.T, cfg sim.Config) []*round.Round {
	s, err := sim.New(cfg)
	require.NoError(t, err)
	var rs []*round.Round
	for !s.Done() {
		r, _, err := s.Next()
		require.NoError(t, err)
		rs = append(rs, r)
	}
	return rs
}

func writeParts(t *testing.T, dir string, rs []*round.Round, opts roundlog.Options) []manifest.Part {
	w, err := roundlog.NewParquetWriter(dir, opts)
	require.NoError(t, err)
	for _, r := range rs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	return w.Parts()
}

// rewritePart writes rounds as the part k of dir in place of its files.
func rewritePart(t *testing.T, dir string, k int, rs []*round.Round, rowGroup int) {
	tmp := t.TempDir()
	parts := writeParts(t, tmp, rs, roundlog.Options{RowGroupRounds: rowGroup, FirstPart: k})
	for _, f := range parts[0].Files {
		require.NoError(t, os.Rename(filepath.Join(tmp, f.Path), filepath.Join(dir, f.Path)))
	}
}

// replayDir replays dir with the manifests of its paths and returns the
// summary and every finding in order.
func replayDir(t *testing.T, key ed25519.PublicKey, workers int, paths ...string) (*Summary, []finding.Finding) {
	t.Helper()
	rb, err := audit.NewRulebook(nil)
	require.NoError(t, err)
	var fs []finding.Finding
	s, err := Run(paths, Options{Workers: workers, Config: &audit.Config{Dealers: audit.SchemeDealers{}, Rules: rb, Double: audit.DoubleEngine{Rules: rb}},
		ManifestKey: key, Findings: func(f *finding.Finding) error { fs = append(fs, *f); return nil }})
	require.NoError(t, err)
	return s, fs
}

func fileCodesOf(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.Code)+" "+filepath.Base(filepath.Dir(f.File))+"/"+filepath.Base(f.File))
	}
	return out
}

// renamed returns deep copies of rs as the rounds of another table and
// other players: valid rounds that no other round of the dataset
// conflicts with.
func renamed(rs []*round.Round) []*round.Round {
	out := make([]*round.Round, len(rs))
	for i, r := range rs {
		c := *r
		c.RoundID, c.TableID = "x-"+r.RoundID, "x-"+r.TableID
		c.Boxes = slices.Clone(r.Boxes)
		for j := range c.Boxes {
			c.Boxes[j].PlayerID = "x-" + c.Boxes[j].PlayerID
		}
		c.WalletIDs = slices.Clone(r.WalletIDs)
		for j := range c.WalletIDs {
			c.WalletIDs[j] = "x-" + c.WalletIDs[j]
		}
		out[i] = &c
	}
	return out
}

func TestManifestDataset(t *testing.T) {
	cfg := sim.Config{Game: round.CasinoHoldem, Rounds: 300, Seed: 3}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		key   bool // sign, and verify with the key
		edit  func(t *testing.T, dir string, rs []*round.Round)
		want  []string
		warns []string
		first bool // want lists the first findings only
	}{
		{name: "clean, signed", key: true},
		{name: "clean, unsigned", warns: []string{"manifest.json is not signed: it proves the dataset complete only as far as the manifest itself is trusted"}},
		{name: "no manifest", edit: func(t *testing.T, dir string, _ []*round.Round) {
			require.NoError(t, os.Remove(filepath.Join(dir, manifest.FileName)))
		}, warns: []string{"no manifest.json: the dataset's completeness (parts missing, added, altered or truncated) could not be checked"}},
		{name: "part missing", key: true, edit: func(t *testing.T, dir string, _ []*round.Round) {
			require.NoError(t, os.Remove(filepath.Join(dir, "rounds", "part-00002.parquet")))
			require.NoError(t, os.Remove(filepath.Join(dir, "boxes", "part-00002.parquet")))
		}, want: []string{"PART_MISSING boxes/part-00002.parquet", "PART_MISSING rounds/part-00002.parquet"}},
		{name: "part truncated", key: true, edit: func(t *testing.T, dir string, rs []*round.Round) {
			rewritePart(t, dir, 2, rs[200:260], 30)
		}, want: []string{"PART_TRUNCATED rounds/part-00002.parquet"}},
		{name: "part altered", key: true, edit: func(t *testing.T, dir string, rs []*round.Round) {
			rewritePart(t, dir, 0, rs[:100], 7) // the same rounds in other row groups
		}, want: []string{"PART_ALTERED boxes/part-00000.parquet", "PART_ALTERED rounds/part-00000.parquet"}},
		{name: "part extra", key: true, edit: func(t *testing.T, dir string, _ []*round.Round) {
			other := simRounds(t, sim.Config{Game: round.CasinoHoldem, Rounds: 50, Seed: 99})
			writeParts(t, dir, renamed(other), roundlog.Options{FirstPart: 3})
		}, want: []string{"PART_EXTRA boxes/part-00003.parquet", "PART_EXTRA rounds/part-00003.parquet"}},
		{name: "child file missing", key: true, edit: func(t *testing.T, dir string, _ []*round.Round) {
			require.NoError(t, os.Remove(filepath.Join(dir, "boxes", "part-00001.parquet")))
			// The part's rounds cannot be read without their boxes
			// (INPUT_DAMAGED, then BALANCE_GAP for their players).
		}, want: []string{"PART_MISSING boxes/part-00001.parquet", "PART_TRUNCATED rounds/part-00001.parquet", "INPUT_DAMAGED rounds/part-00001.parquet"}, first: true},
		{name: "signed by another key", edit: func(t *testing.T, dir string, _ []*round.Round) {
			_, other, err := ed25519.GenerateKey(rand.Reader)
			require.NoError(t, err)
			b, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, manifest.SignatureName), manifest.Sign(b, other), 0o644))
		}, key: true, want: []string{"MANIFEST_INVALID log/manifest.json.sig"}},
		{name: "manifest rewritten after signing", key: true, edit: func(t *testing.T, dir string, _ []*round.Round) {
			// The operator drops the last part and its entry, but cannot
			// sign the new manifest.
			m, err := manifest.Load(dir, nil)
			require.NoError(t, err)
			m.Manifest.Parts = m.Manifest.Parts[:2]
			b, err := manifest.Marshal(m.Manifest)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, manifest.FileName), b, 0o644))
			require.NoError(t, os.Remove(filepath.Join(dir, "rounds", "part-00002.parquet")))
			require.NoError(t, os.Remove(filepath.Join(dir, "boxes", "part-00002.parquet")))
		}, want: []string{"MANIFEST_INVALID log/manifest.json.sig"}},
		{name: "malformed", edit: func(t *testing.T, dir string, _ []*round.Round) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, manifest.FileName), []byte(`{"format":"fairhold-dataset-manifest","version":1,"parts":[]}{}`), 0o644))
		}, want: []string{"MANIFEST_INVALID log/manifest.json"}},
		{name: "key but no manifest", key: true, edit: func(t *testing.T, dir string, _ []*round.Round) {
			require.NoError(t, os.Remove(filepath.Join(dir, manifest.FileName)))
		}, want: []string{"MANIFEST_INVALID log/manifest.json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sk ed25519.PrivateKey
			var pk ed25519.PublicKey
			if tc.key {
				sk, pk = priv, pub
			}
			dir, rs, _ := manifestDataset(t, cfg, sk)
			if tc.edit != nil {
				tc.edit(t, dir, rs)
			}
			s, fs := replayDir(t, pk, 2, dir)
			got := fileCodesOf(fs)
			if tc.first {
				got = got[:min(len(got), len(tc.want))]
			}
			assert.Equal(t, tc.want, got)
			for _, f := range fs {
				if strings.HasPrefix(string(f.Code), "PART_") || f.Code == finding.ManifestInvalid {
					assert.Empty(t, f.RoundID, "dataset-level")
					assert.Equal(t, int64(-1), f.Row)
				}
			}
			var warns []string
			for _, w := range s.Warnings {
				warns = append(warns, strings.TrimPrefix(w, dir+": "))
			}
			if tc.warns == nil && !tc.key && tc.want == nil {
				tc.warns = []string{}
			}
			if tc.warns != nil {
				assert.Equal(t, tc.warns, warns)
			}
		})
	}
}

// TestManifestFindingsFirst: the manifest's findings come first, then the
// replay's in their order, whatever the number of workers, and also when
// the replay's findings held back overflow to a temporary file.
func TestManifestFindingsFirst(t *testing.T) {
	cfg := sim.Config{Game: round.CasinoHoldem, Rounds: 300, Seed: 3, Faults: []sim.FaultRate{{Name: sim.FaultBalanceOffByOne, Rate: 0.1}}}
	dir, _, _ := manifestDataset(t, cfg, nil)
	require.NoError(t, os.Remove(filepath.Join(dir, "rounds", "part-00002.parquet")))
	require.NoError(t, os.Remove(filepath.Join(dir, "boxes", "part-00002.parquet")))
	_, want := replayDir(t, nil, 1, dir)
	require.Greater(t, len(want), 4)
	assert.Equal(t, finding.PartMissing, want[0].Code)
	assert.Equal(t, finding.PartMissing, want[1].Code)
	for _, f := range want[2:] {
		assert.Equal(t, finding.BalanceMismatch, f.Code)
	}
	defer func(n int) { spoolMemory = n }(spoolMemory)
	spoolMemory = 3
	for _, w := range []int{1, 3} {
		s, got := replayDir(t, nil, w, dir)
		assert.Equal(t, want, got, "workers %d", w)
		assert.EqualValues(t, 2, s.Findings[finding.PartMissing])
	}
}

// TestManifestOldLayout: a manifest of the old flat layout lists its files
// by their names; the replay checks it and warns of the layout.
func TestManifestOldLayout(t *testing.T) {
	dir, _, m := manifestDataset(t, sim.Config{Game: round.CasinoHoldem, Rounds: 300, Seed: 3}, nil)
	for i := range m.Parts {
		for j := range m.Parts[i].Files {
			f := &m.Parts[i].Files[j]
			flat := m.Parts[i].Name + "." + f.Table + ".parquet"
			require.NoError(t, os.Rename(filepath.Join(dir, filepath.FromSlash(f.Path)), filepath.Join(dir, flat)))
			f.Path = flat
		}
	}
	_, err := manifest.Write(dir, m, nil)
	require.NoError(t, err)
	s, fs := replayDir(t, nil, 2, dir)
	assert.Empty(t, fs)
	require.Len(t, s.Warnings, 2)
	assert.Contains(t, s.Warnings[0], "not signed")
	assert.Contains(t, s.Warnings[1], "old flat layout")
}
