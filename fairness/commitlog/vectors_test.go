package commitlog

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/vectors"
)

var update = flag.Bool("update", false, "rewrite vectors/commitlog/*.json")

const vectorDir = "../../vectors/commitlog"

func hexes(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = hex.EncodeToString(b)
	}
	return out
}

// genVectors builds the commitment log vectors from specs.
func genVectors(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	put := func(v any, id string) {
		b, err := json.MarshalIndent(v, "", "  ")
		require.NoError(t, err)
		out[id+".json"] = append(b, '\n')
	}
	good := map[string]*Entry{
		"entry-seed-rng-player":    sampleEntries()[0],
		"entry-chain-anchor-live":  sampleEntries()[1],
		"entry-stake-max-nonce":    sampleEntries()[2],
		"entry-seed-default-round": {Operator: "op.example", Table: "double-1", Scheme: SchemeFairholdV1, Commitment: hash("d"), FirstNonce: 41, BeaconChain: BeaconDefault, BeaconRound: 18446744073709551615},
	}
	for id, e := range good {
		b, err := e.Marshal()
		require.NoError(t, err)
		j, err := json.Marshal(e)
		require.NoError(t, err)
		lh := LeafHash(b)
		put(map[string]any{"id": id, "description": "a canonical entry and its RFC 6962 leaf hash", "kind": "entry", "expect": "success",
			"entry_hex": hex.EncodeToString(b), "entry": json.RawMessage(j), "leaf_hash": hex.EncodeToString(lh[:])}, id)
	}
	base, _ := sampleEntries()[0].Marshal()
	s := string(base)
	bad := []struct{ id, desc, in, field string }{
		{"malformed-no-final-lf", "the last line must end with LF", strings.TrimSuffix(s, "\n"), "entry"},
		{"malformed-crlf", "CR LF line ends are not canonical", strings.ReplaceAll(s, "\n", "\r\n"), "entry"},
		{"malformed-upper-hex", "hex must be lowercase", strings.Replace(s, "ca978112", "CA978112", 1), "commitment"},
		{"malformed-nonce-leading-zero", "decimals have no leading zero", strings.Replace(s, "first-nonce 0", "first-nonce 00", 1), "first-nonce"},
		{"malformed-nonce-overflow", "a nonce above 2^64-1", strings.Replace(s, "first-nonce 0", "first-nonce 18446744073709551616", 1), "first-nonce"},
		{"malformed-line-order", "fields in another order", strings.Replace(s, "operator acme-casino\ntable rng-1", "table rng-1\noperator acme-casino", 1), "operator"},
		{"malformed-trailing-space", "a trailing space is not part of an id", strings.Replace(s, "table rng-1", "table rng-1 ", 1), "table"},
		{"malformed-unknown-line", "no line after the last field", s + "note x\n", "entry"},
		{"malformed-beacon-round-zero", "beacon rounds start at 1", strings.Replace(s, "quicknet 1000", "quicknet 0", 1), "beacon"},
		{"malformed-anchor-with-nonce", "a chain anchor has no first nonce", strings.Replace(s, "commitment ", "chain-anchor ", 1), "entry"},
	}
	for _, c := range bad {
		put(map[string]any{"id": c.id, "description": c.desc, "kind": "entry", "expect": "malformed", "entry_hex": hex.EncodeToString([]byte(c.in)), "field": c.field}, c.id)
	}

	// A tree of 7 entries, appended 3 then 4, signed with a key derived
	// from a label.
	dir := t.TempDir()
	key := testKey("vectors")
	entries := testEntries(7)
	ctx := context.Background()
	r1, err := Append(ctx, dir, "fairhold.example/vectors/commitlog", key, entries[:3])
	require.NoError(t, err)
	r2, err := Append(ctx, dir, "fairhold.example/vectors/commitlog", key, entries[3:])
	require.NoError(t, err)
	rd, err := Open(dir, nil)
	require.NoError(t, err)
	cp := r2.Checkpoint
	vkey, err := VerifierKey(cp.Origin, pub(key))
	require.NoError(t, err)
	type incl struct {
		Index uint64   `json:"index"`
		Proof []string `json:"proof"`
	}
	type cons struct {
		OldSize       uint64   `json:"old_size"`
		OldRoot       string   `json:"old_root"`
		OldCheckpoint string   `json:"old_checkpoint"`
		Proof         []string `json:"proof"`
	}
	var inc []incl
	var leaves []string
	for i := range entries {
		p, err := rd.InclusionProof(ctx, cp, uint64(i))
		require.NoError(t, err)
		inc = append(inc, incl{uint64(i), hexes(p)})
		lh := LeafHash(entries[i])
		leaves = append(leaves, hex.EncodeToString(lh[:]))
	}
	cproof, err := rd.ConsistencyProof(ctx, r1.Checkpoint.Size, cp)
	require.NoError(t, err)
	put(map[string]any{"id": "tree-7", "description": "seven entries appended 3 then 4: the signed checkpoint, every inclusion proof, and the consistency proof from size 3", "kind": "tree",
		"tree": map[string]any{
			"origin": cp.Origin, "public_key": hex.EncodeToString(pub(key)), "verifier_key": vkey,
			"entries_hex": hexes(entries), "leaf_hashes": leaves, "size": cp.Size, "root": hex.EncodeToString(cp.Root[:]),
			"checkpoint": string(cp.Raw), "inclusion": inc,
			"consistency": []cons{{r1.Checkpoint.Size, hex.EncodeToString(r1.Checkpoint.Root[:]), string(r1.Checkpoint.Raw), hexes(cproof)}},
		}}, "tree-7")

	// The size-7 checkpoint cosigned by two trusted witnesses and, earlier,
	// by a stranger whose cosignature must not count; and the same with
	// one trusted cosignature's time edited.
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	w1 := newTestCosigner("witness1.example/vectors", at.Add(2*time.Minute))
	w2 := newTestCosigner("witness2.example/vectors", at.Add(5*time.Minute))
	stranger := newTestCosigner("stranger.example/vectors", at)
	cosigned := cosign(t, cp.Raw, stranger, w1, w2)
	imprint, err := NoteImprint(cosigned)
	require.NoError(t, err)
	type cosig struct {
		Witness string `json:"witness"`
		Time    int64  `json:"time"`
	}
	type pubBy struct {
		Quorum int   `json:"quorum"`
		Time   int64 `json:"time"`
	}
	cosVector := func(id, desc, expect string, note []byte, cos []cosig, pb []pubBy) {
		put(map[string]any{"id": id, "description": desc, "kind": "cosigned", "expect": expect,
			"cosigned": map[string]any{"origin": cp.Origin, "public_key": hex.EncodeToString(pub(key)), "checkpoint": string(note),
				"text_sha256": hex.EncodeToString(imprint[:]), "witnesses": []string{w1.vkey(), w2.vkey()},
				"cosignatures": cos, "public_by": pb}}, id)
	}
	cosVector("cosigned-checkpoint", "tree-7's checkpoint cosigned (C2SP cosignature/v1) by two trusted witnesses and an untrusted one: the untrusted, earliest cosignature does not count", "success",
		cosigned, []cosig{{w1.name, w1.at.Unix()}, {w2.name, w2.at.Unix()}}, []pubBy{{1, w1.at.Unix()}, {2, w2.at.Unix()}})
	// w1's line: its timestamp (bytes 4..11 of the decoded signature) one second earlier.
	lines := strings.Split(string(cosigned), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "— "+w1.name+" ") {
			sig, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(l, "— "+w1.name+" "))
			require.NoError(t, err)
			sig[11]--
			lines[i] = "— " + w1.name + " " + base64.StdEncoding.EncodeToString(sig)
		}
	}
	edited := strings.Join(lines, "\n")
	require.NotEqual(t, string(cosigned), edited)
	cosVector("cosigned-bad-time", "a trusted witness's cosignature with its time moved one second earlier: the whole note must be refused", "invalid",
		[]byte(edited), []cosig{}, []pubBy{})
	return out
}

func TestCommitlogVectorsReproducible(t *testing.T) {
	files := genVectors(t)
	if *update {
		require.NoError(t, os.MkdirAll(vectorDir, 0o755))
		old, _ := filepath.Glob(filepath.Join(vectorDir, "*.json"))
		for _, f := range old {
			require.NoError(t, os.Remove(f))
		}
		for name, b := range files {
			require.NoError(t, os.WriteFile(filepath.Join(vectorDir, name), b, 0o644))
		}
	}
	onDisk, err := filepath.Glob(filepath.Join(vectorDir, "*.json"))
	require.NoError(t, err)
	assert.Len(t, onDisk, len(files))
	for name, b := range files {
		got, err := os.ReadFile(filepath.Join(vectorDir, name))
		require.NoError(t, err, "run go test ./fairness/commitlog -run TestCommitlogVectorsReproducible -update")
		assert.True(t, bytes.Equal(b, got), "%s differs from the generator", name)
	}
}

func unhex(t *testing.T, s string) []byte {
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

// TestCommitlogVectors runs every vector through the implementation.
func TestCommitlogVectors(t *testing.T) {
	vs, err := vectors.Commitlog()
	require.NoError(t, err)
	require.NotEmpty(t, vs)
	for _, v := range vs {
		t.Run(v.ID, func(t *testing.T) {
			switch v.Kind {
			case "entry":
				b := unhex(t, v.EntryHex)
				e, err := Unmarshal(b)
				if v.Expect == "malformed" {
					var fe *FieldError
					require.True(t, errors.As(err, &fe), "%v", err)
					assert.Equal(t, v.Field, fe.Field)
					return
				}
				require.NoError(t, err)
				lh := LeafHash(b)
				assert.Equal(t, v.LeafHash, hex.EncodeToString(lh[:]))
				var fromJSON Entry
				require.NoError(t, json.Unmarshal(v.Entry, &fromJSON))
				assert.Equal(t, e, &fromJSON)
			case "cosigned":
				c := v.Cosigned
				_, err := ParseCheckpoint([]byte(c.Checkpoint), c.Origin, unhex(t, c.PublicKey))
				require.NoError(t, err)
				imprint, err := NoteImprint([]byte(c.Checkpoint))
				require.NoError(t, err)
				assert.Equal(t, c.TextSHA256, hex.EncodeToString(imprint[:]))
				cos, err := VerifyCosignatures([]byte(c.Checkpoint), c.Witnesses)
				if v.Expect == "invalid" {
					assert.True(t, errors.Is(err, ErrVerification), "%v", err)
					return
				}
				require.NoError(t, err)
				require.Len(t, cos, len(c.Cosignatures))
				for i, want := range c.Cosignatures {
					assert.Equal(t, want.Witness, cos[i].Witness)
					assert.Equal(t, want.Time, cos[i].Time.Unix())
				}
				for _, pb := range c.PublicBy {
					assert.Equal(t, pb.Time, cos[pb.Quorum-1].Time.Unix(), "quorum %d", pb.Quorum)
				}
			case "tree":
				tr := v.Tree
				cp, err := ParseCheckpoint([]byte(tr.Checkpoint), tr.Origin, unhex(t, tr.PublicKey))
				require.NoError(t, err)
				assert.Equal(t, tr.Size, cp.Size)
				assert.Equal(t, tr.Root, hex.EncodeToString(cp.Root[:]))
				require.Len(t, tr.EntriesHex, int(tr.Size))
				for _, in := range tr.Inclusion {
					p := make([][]byte, len(in.Proof))
					for i, h := range in.Proof {
						p[i] = unhex(t, h)
					}
					entry := unhex(t, tr.EntriesHex[in.Index])
					lh := LeafHash(entry)
					assert.Equal(t, tr.LeafHashes[in.Index], hex.EncodeToString(lh[:]))
					require.NoError(t, VerifyInclusion(cp, in.Index, entry, p))
					other := unhex(t, tr.EntriesHex[(in.Index+1)%tr.Size])
					assert.Error(t, VerifyInclusion(cp, in.Index, other, p))
				}
				for _, c := range tr.Consistency {
					old, err := ParseCheckpoint([]byte(c.OldCheckpoint), tr.Origin, unhex(t, tr.PublicKey))
					require.NoError(t, err)
					assert.Equal(t, c.OldSize, old.Size)
					p := make([][]byte, len(c.Proof))
					for i, h := range c.Proof {
						p[i] = unhex(t, h)
					}
					require.NoError(t, VerifyConsistency(old, cp, p))
				}
			}
		})
	}
}
