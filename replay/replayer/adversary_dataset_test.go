package replayer

// The dishonest operator against a Parquet dataset and its manifest
// (docs/threat-model.md). Written from the contract of issue 15, before
// the manifest (package replay/manifest, engineer "layout") existed, so it
// drives the behaviour through the fairhold command: `fairhold simulate`
// writes DIR/manifest.json last (parts with their SHA-256, rows, first and
// last round and time range, optionally signed with Ed25519), `fairhold
// replay` reports PART_MISSING, PART_EXTRA, PART_ALTERED, PART_TRUNCATED
// and MANIFEST_INVALID. The flags of the signed manifest below are a guess
// to be adapted at the merge (signKeyFlag, manifestKeyFlag and the key
// file format). Expected to fail until the manifest lands.

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// How `fairhold simulate` signs the manifest (a PEM PKCS #8 private key)
// and how `fairhold replay` is given the key to verify it (PEM PKIX).
const (
	signKeyFlag     = "--manifest-key"
	manifestKeyFlag = "--manifest-key"
)

// Dataset of the tests: 1,000 single-box rounds (10 players, one whole
// seed session each), row groups of 2 rounds, so two parts of at most 256
// row groups.
const (
	datasetRounds = 1000
	datasetSeed   = 5
)

var partRE = regexp.MustCompile(`part-\d{5}`)

// dsFile is one file of a part.
type dsFile struct {
	path, part, table string
}

// partFiles lists the Parquet files of a dataset: the new layout
// (DIR/TABLE/part-00000.parquet) and the old (DIR/part-00000.TABLE.parquet).
func partFiles(t testing.TB, dir string) []dsFile {
	t.Helper()
	var out []dsFile
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".parquet") {
			return err
		}
		base := filepath.Base(p)
		part := partRE.FindString(base)
		if part == "" {
			return nil
		}
		table := filepath.Base(filepath.Dir(p)) // DIR/TABLE/part-00000.parquet
		if rest := strings.TrimPrefix(base, part); rest != ".parquet" {
			table = strings.TrimSuffix(strings.TrimPrefix(rest, "."), ".parquet") // DIR/part-00000.TABLE.parquet
		}
		out = append(out, dsFile{p, part, table})
		return nil
	}))
	return out
}

func partsOf(fs []dsFile) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.part)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fairholdCmd is a built fairhold command.
type fairholdCmd struct{ bin string }

func buildFairhold(t *testing.T) fairholdCmd {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fairhold")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/fairhold/fairhold/cmd/fairhold").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return fairholdCmd{bin}
}

// run runs the command and returns its exit code and output.
func (c fairholdCmd) run(t testing.TB, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(c.bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String()
	}
	t.Fatalf("fairhold %v: %v", args, err)
	return 0, ""
}

// simulate writes the test dataset into a new directory.
func (c fairholdCmd) simulate(t testing.TB, extra ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "day")
	code, out := c.run(t, append([]string{"simulate", "--game", round.CasinoHoldem, "--rounds", strconv.Itoa(datasetRounds), "--seed", strconv.Itoa(datasetSeed),
		"--row-group", "2", "--out", dir}, extra...)...)
	require.Zero(t, code, out)
	return dir
}

// replay replays dir with the command and returns the findings.
func (c fairholdCmd) replay(t testing.TB, dir string, extra ...string) []finding.Finding {
	t.Helper()
	ff := filepath.Join(t.TempDir(), "findings.jsonl")
	code, out := c.run(t, append([]string{"replay", dir, "--workers", "2", "--json", "--findings", ff}, extra...)...)
	require.Contains(t, []int{0, 3}, code, "replay exit code: %s", out)
	b, err := os.ReadFile(ff)
	require.NoError(t, err, out)
	fs := decodeFindings(t, b)
	assert.Equal(t, code == 3, len(fs) > 0, "exit code %d with %d findings", code, len(fs))
	if shardAdversary {
		c.requireShardedCLI(t, dir, out, b, code, extra...)
	}
	return fs
}

// expectParts asserts that the findings are exactly the codes of want
// (allowed: codes that may come with them), and that each code of want is
// reported naming the part (in its file, field, expected or actual value).
func expectParts(t testing.TB, fs []finding.Finding, part string, want, allowed []finding.Code) {
	t.Helper()
	for _, code := range want {
		named := slices.ContainsFunc(fs, func(f finding.Finding) bool {
			return f.Code == code && strings.Contains(f.File+" "+f.Field+" "+f.Expected+" "+f.Actual+" "+f.Detail, part)
		})
		assert.True(t, named, "%s naming %s not reported (got %v)", code, part, codesOf(fs))
	}
	for _, f := range fs {
		if !slices.Contains(want, f.Code) && !slices.Contains(allowed, f.Code) {
			assert.Failf(t, "reported beyond the cheat's codes", "%+v", f)
		}
	}
}

// alterCreatedBy changes one digit of the writer's build number in a
// Parquet file's footer: the file stays valid and holds the same rounds,
// only its bytes (and SHA-256) differ.
func alterCreatedBy(t testing.TB, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	i := bytes.LastIndex(b, []byte("(build "))
	require.GreaterOrEqual(t, i, 0, "%s: no created_by build number to alter", path)
	j := i + len("(build ")
	require.True(t, b[j] >= '0' && b[j] <= '9')
	b[j] = '0' + (b[j]-'0'+1)%10
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// fileSHA256 returns the file's SHA-256, hex.
func fileSHA256(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// rewriteManifestDigest replaces a file's old SHA-256 in the manifest by
// its new one: the operator rewriting the manifest to match an altered
// part.
func rewriteManifestDigest(t testing.TB, dir, oldSum, newSum string) {
	t.Helper()
	mp := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(mp)
	require.NoError(t, err, "no manifest.json")
	require.True(t, bytes.Contains(b, []byte(oldSum)), "the manifest does not list the part's SHA-256 as hex")
	require.NoError(t, os.WriteFile(mp, bytes.ReplaceAll(b, []byte(oldSum), []byte(newSum)), 0o644))
}

// replacePart writes rs as the part named part of dir, in place of its
// files: the operator's own writer writing a part again.
func replacePart(t testing.TB, dir, part string, rs []round.Round) {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "part")
	w, err := roundlog.NewParquetWriter(tmp, roundlog.Options{RowGroupRounds: 16})
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
	existing := partFiles(t, dir)
	var sample dsFile
	for _, f := range existing {
		if f.table == "rounds" {
			sample = f
		}
		if f.part == part {
			require.NoError(t, os.Remove(f.path))
		}
	}
	require.NotEmpty(t, sample.path, "no rounds file in %s", dir)
	written := partFiles(t, tmp)
	require.Equal(t, []string{"part-00000"}, partsOf(written), "the rewritten part fits one part")
	for _, f := range written {
		// The place of the table's file of this part in the dataset's layout.
		target := strings.Replace(sample.path, sample.part, part, 1)
		if sample.table != f.table {
			if filepath.Base(filepath.Dir(sample.path)) == sample.table {
				target = filepath.Join(filepath.Dir(filepath.Dir(target)), f.table, filepath.Base(target))
			} else {
				target = strings.Replace(target, "."+sample.table+".", "."+f.table+".", 1)
			}
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o755))
		b, err := os.ReadFile(f.path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(target, b, 0o644))
	}
}

// roundsOfPart reads the rounds of one part of dir.
func roundsOfPart(t testing.TB, dir, part string) []round.Round {
	t.Helper()
	ds, err := roundlog.Open(dir)
	require.NoError(t, err)
	defer ds.Close()
	var rs []round.Round
	for i, u := range ds.Units() {
		if !strings.Contains(u.File, part) {
			continue
		}
		damage, err := ds.ReadUnit(i, func(rec *roundlog.Record) error {
			rs = append(rs, cloneRound(t, &rec.Round))
			return nil
		})
		require.NoError(t, err)
		require.Empty(t, damage)
	}
	require.NotEmpty(t, rs, "no rounds in %s", part)
	return rs
}

// writeKey writes an Ed25519 key, private or public, as the PEM file the
// command reads.
func writeKey(t testing.TB, k any) string {
	t.Helper()
	var b []byte
	var err error
	switch k := k.(type) {
	case ed25519.PrivateKey:
		b, err = manifest.MarshalPrivateKey(k)
	case ed25519.PublicKey:
		b, err = manifest.MarshalPublicKey(k)
	}
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "key.pem")
	require.NoError(t, os.WriteFile(p, b, 0o600))
	return p
}

func TestAdversaryDataset(t *testing.T) {
	fh := buildFairhold(t)
	// lastPart returns the dataset's last part, checking there are two.
	lastPart := func(t *testing.T, dir string) (string, []dsFile) {
		files := partFiles(t, dir)
		parts := partsOf(files)
		require.GreaterOrEqual(t, len(parts), 2, "the dataset has two parts")
		return parts[len(parts)-1], files
	}

	t.Run("honest", func(t *testing.T) {
		dir := fh.simulate(t)
		assert.Empty(t, fh.replay(t, dir))
	})
	t.Run("manifest-written", func(t *testing.T) {
		dir := fh.simulate(t)
		_, err := os.Stat(filepath.Join(dir, "manifest.json"))
		assert.NoError(t, err, "simulate writes DIR/manifest.json")
	})
	// Withhold parts: the last part (the end of the day) is removed; the
	// log that is left is consistent, only the manifest tells.
	t.Run("part-missing", func(t *testing.T) {
		dir := fh.simulate(t)
		last, files := lastPart(t, dir)
		// Cheat: every file of the last part is deleted.
		for _, f := range files {
			if f.part == last {
				require.NoError(t, os.Remove(f.path))
			}
		}
		expectParts(t, fh.replay(t, dir), last, []finding.Code{finding.PartMissing}, nil)
	})
	t.Run("part-altered", func(t *testing.T) {
		dir := fh.simulate(t)
		last, files := lastPart(t, dir)
		// Cheat: the last part's rounds file is changed after the manifest
		// was written (here one byte of its footer: the rounds stay valid,
		// so only the digest can tell).
		for _, f := range files {
			if f.part == last && f.table == "rounds" {
				alterCreatedBy(t, f.path)
			}
		}
		expectParts(t, fh.replay(t, dir), last, []finding.Code{finding.PartAltered}, nil)
	})
	t.Run("part-truncated", func(t *testing.T) {
		dir := fh.simulate(t)
		last, _ := lastPart(t, dir)
		rs := roundsOfPart(t, dir, last)
		require.Greater(t, len(rs), 100)
		// Cheat: the last part is written again without its last 100
		// rounds (a valid, consistent, shorter part: the end of the day
		// dropped).
		replacePart(t, dir, last, rs[:len(rs)-100])
		expectParts(t, fh.replay(t, dir), last, []finding.Code{finding.PartTruncated}, []finding.Code{finding.PartAltered})
	})
	t.Run("part-extra", func(t *testing.T) {
		dir := fh.simulate(t)
		last, files := lastPart(t, dir)
		n, err := strconv.Atoi(strings.TrimPrefix(last, "part-"))
		require.NoError(t, err)
		added := fmt.Sprintf("part-%05d", n+1)
		// Cheat: a part the manifest does not list is added: the next
		// 1,000 rounds the same operator deals, consistent with the rest
		// (the simulator with the same seed deals the same first 1,000).
		extra := honestLog(t, sim.Config{Game: round.CasinoHoldem, Rounds: 2 * datasetRounds, Seed: datasetSeed})[datasetRounds:]
		if !slices.ContainsFunc(files, func(f dsFile) bool { return f.table == "rounds" }) {
			t.Fatal("no rounds files")
		}
		// table_seq as the dataset numbers it (none before #15).
		if !numbered(roundsOfPart(t, dir, "part-00000")) {
			stripTableSeq(extra)
		}
		replacePart(t, dir, added, extra)
		expectParts(t, fh.replay(t, dir), added, []finding.Code{finding.PartExtra}, nil)
	})
	t.Run("manifest-malformed", func(t *testing.T) {
		dir := fh.simulate(t)
		// Cheat: the manifest is replaced by something that is not one.
		require.NoError(t, os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"parts": [`), 0o644))
		expectParts(t, fh.replay(t, dir), "manifest", []finding.Code{finding.ManifestInvalid}, nil)
	})
	// The limit: an operator that alters a part and rewrites the manifest
	// to match leaves nothing for an unsigned manifest to show. Only a
	// signature by a key published beforehand (below), or a manifest
	// published at the time, closes it. This test pins the limit.
	t.Run("limit/consistent-rewrite-unsigned", func(t *testing.T) {
		dir := fh.simulate(t)
		last, files := lastPart(t, dir)
		for _, f := range files {
			if f.part == last && f.table == "rounds" {
				// Cheat: the part is altered and the manifest rewritten to
				// list its new SHA-256.
				old := fileSHA256(t, f.path)
				alterCreatedBy(t, f.path)
				rewriteManifestDigest(t, dir, old, fileSHA256(t, f.path))
			}
		}
		assert.Empty(t, fh.replay(t, dir))
	})

	// A signed manifest.
	pub, priv, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	otherPub, _, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	signKey, pubKey, otherKey := writeKey(t, priv), writeKey(t, pub), writeKey(t, otherPub)
	t.Run("manifest-signed/honest", func(t *testing.T) {
		dir := fh.simulate(t, signKeyFlag, signKey)
		assert.Empty(t, fh.replay(t, dir, manifestKeyFlag, pubKey))
	})
	t.Run("manifest-signed/forged", func(t *testing.T) {
		dir := fh.simulate(t, signKeyFlag, signKey)
		last, files := lastPart(t, dir)
		for _, f := range files {
			if f.part == last && f.table == "rounds" {
				// Cheat: the part is altered and the manifest rewritten to
				// list its new SHA-256; the operator cannot sign it again
				// with the published key, so the old signature stays.
				old := fileSHA256(t, f.path)
				alterCreatedBy(t, f.path)
				rewriteManifestDigest(t, dir, old, fileSHA256(t, f.path))
			}
		}
		expectParts(t, fh.replay(t, dir, manifestKeyFlag, pubKey), "manifest", []finding.Code{finding.ManifestInvalid}, nil)
	})
	t.Run("manifest-signed/another-key", func(t *testing.T) {
		// Cheat: the whole dataset and its manifest are written again and
		// signed with a key of the operator's choosing, not the one
		// published: verified with the published key, it fails.
		dir := fh.simulate(t, signKeyFlag, signKey)
		expectParts(t, fh.replay(t, dir, manifestKeyFlag, otherKey), "manifest", []finding.Code{finding.ManifestInvalid}, nil)
	})
}
