package manifest

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/manifest.json")

const sha = "9c1e0b7d9c1e0b7d9c1e0b7d9c1e0b7d9c1e0b7d9c1e0b7d9c1e0b7d9c1e0b7d"

func sample() *Manifest {
	m := New()
	m.Currencies = map[string]int{"EUR": 2, "BTC": 8}
	m.Parts = []Part{
		{Name: "part-00000", Rounds: 3, FirstRoundID: "ch-1", LastRoundID: "ch-3",
			MinTime: "2026-01-01T00:00:00Z", MaxTime: "2026-01-01T00:00:04.25Z",
			Files: []File{
				{Path: "rounds/part-00000.parquet", Table: "rounds", Rows: 3, Bytes: 5120, SHA256: sha},
				{Path: "boxes/part-00000.parquet", Table: "boxes", Rows: 3, Bytes: 4096, SHA256: sha},
			}},
		{Name: "part-00001", Files: []File{{Path: "rounds/part-00001.parquet", Table: "rounds", SHA256: sha}}},
	}
	return m
}

// TestCanonical: Marshal writes testdata/manifest.json byte for byte, and
// reading it back and writing again gives the same bytes.
func TestCanonical(t *testing.T) {
	b, err := Marshal(sample())
	require.NoError(t, err)
	golden := filepath.Join("testdata", "manifest.json")
	if *update {
		require.NoError(t, os.WriteFile(golden, b, 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(b))
	m, err := Unmarshal(b)
	require.NoError(t, err)
	assert.Equal(t, sample(), m)
	again, err := Marshal(m)
	require.NoError(t, err)
	assert.Equal(t, b, again)
	// Any JSON encoding of the same object reads the same.
	compact := strings.Join(strings.Fields(string(b)), "")
	m2, err := Unmarshal([]byte(compact))
	require.NoError(t, err)
	assert.Equal(t, m, m2)
}

func TestUnmarshalStrict(t *testing.T) {
	good, err := Marshal(sample())
	require.NoError(t, err)
	s := string(good)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"trailing data", s + "{}", "data after the object"},
		{"trailing garbage", s + "x", "data after the object"},
		{"two objects", s + s, "data after the object"},
		{"unknown member", strings.Replace(s, `"version": 1,`, `"version": 1, "signed_by": "x",`, 1), `unknown member "signed_by"`},
		{"member in another case", strings.Replace(s, `"parts"`, `"Parts"`, 1), `unknown member "Parts"`},
		{"duplicate member", strings.Replace(s, `"version": 1,`, `"version": 1, "version": 1,`, 1), `member "version" twice`},
		{"duplicate in a file", strings.Replace(s, `"rows": 3,`, `"rows": 3, "rows": 2,`, 1), `member "rows" twice`},
		{"missing member", strings.Replace(s, `"first_round_id": "ch-1",`, ``, 1), `"first_round_id" missing`},
		{"unknown version", strings.Replace(s, `"version": 1`, `"version": 2`, 1), "manifest version 2 is not supported"},
		{"version as text", strings.Replace(s, `"version": 1`, `"version": "1"`, 1), "malformed"},
		{"version not an integer", strings.Replace(s, `"version": 1`, `"version": 1.5`, 1), "malformed"},
		{"other format", strings.Replace(s, Format, "x", 1), `format "x"`},
		{"not an object", `[]`, "want an object"},
		{"parts as object", strings.Replace(strings.Replace(s, `"parts": [`, `"parts": {"a":`, 1), "\n  ]\n}", "\n  }\n}", 1), "want an array"},
		{"escaping path", strings.Replace(s, `"rounds/part-00000.parquet"`, `"../rounds/part-00000.parquet"`, 1), "clean relative path"},
		{"absolute path", strings.Replace(s, `"rounds/part-00000.parquet"`, `"/rounds/part-00000.parquet"`, 1), "clean relative path"},
		{"backslash path", strings.Replace(s, `"rounds/part-00000.parquet"`, `"rounds\\part-00000.parquet"`, 1), "clean relative path"},
		{"unclean path", strings.Replace(s, `"rounds/part-00000.parquet"`, `"rounds//part-00000.parquet"`, 1), "clean relative path"},
		{"path twice", strings.Replace(s, `"boxes/part-00000.parquet"`, `"rounds/part-00000.parquet"`, 1), "listed twice"},
		{"upper-case hash", strings.Replace(s, sha, strings.ToUpper(sha), 1), "64 lower-case hex"},
		{"short hash", strings.Replace(s, sha, sha[:62], 1), "64 lower-case hex"},
		{"rounds and rows differ", strings.Replace(s, `"rounds": 3,`, `"rounds": 4,`, 1), "the rounds file has 3 rows"},
		{"children first", strings.Replace(strings.Replace(s, `"table": "rounds"`, `"table": "x"`, 1), `"table": "boxes"`, `"table": "rounds"`, 1), "rounds file must come first"},
		{"unknown table", strings.Replace(s, `"table": "boxes"`, `"table": "players"`, 1), `"players"`},
		{"negative rows", strings.Replace(s, `"bytes": 4096`, `"bytes": -1`, 1), "negative"},
		{"local time", strings.Replace(s, `"2026-01-01T00:00:00Z"`, `"2026-01-01T01:00:00+01:00"`, 1), "UTC"},
		{"times reversed", strings.Replace(s, `"2026-01-01T00:00:00Z"`, `"2026-01-02T00:00:00Z"`, 1), "after max_time"},
		{"ids of an empty part", strings.Replace(s, `"first_round_id": "",`, `"first_round_id": "x",`, 1), "no round ids"},
		{"name twice", strings.Replace(s, `"part-00001"`, `"part-00000"`, 1), "listed twice"},
		{"bad currency", strings.Replace(s, `"BTC"`, `"btc"`, 1), "currencies"},
		{"too many decimals", strings.Replace(s, `"BTC": 8`, `"BTC": 19`, 1), "decimals"},
		{"no parts", strings.Replace(s, `"parts"`, `"currencies2"`, 1), "unknown member"},
		{"null parts", `{"format":"fairhold-dataset-manifest","version":1,"parts":null}`, "want an array"},
		{"empty", ``, "malformed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Unmarshal([]byte(tc.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// An empty dataset lists no parts.
	m, err := Unmarshal([]byte(`{"format":"fairhold-dataset-manifest","version":1,"parts":[]}` + "\n\t "))
	require.NoError(t, err)
	assert.Empty(t, m.Parts)
}

func keys(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	return pub, priv
}

func TestWriteLoadSigned(t *testing.T) {
	dir := t.TempDir()
	pub, priv := keys(t)
	b, err := Write(dir, sample(), priv)
	require.NoError(t, err)
	l, err := Load(dir, pub)
	require.NoError(t, err)
	assert.True(t, l.Signed)
	assert.True(t, l.Verified)
	assert.Equal(t, b, l.Bytes)
	assert.Equal(t, sample(), l.Manifest)
	sig, err := os.ReadFile(filepath.Join(dir, SignatureName))
	require.NoError(t, err)
	assert.Len(t, sig, ed25519.SignatureSize)

	// Without a key the signature is not checked.
	l, err = Load(dir, nil)
	require.NoError(t, err)
	assert.True(t, l.Signed)
	assert.False(t, l.Verified)

	// Another key.
	other, _ := keys(t)
	_, err = Load(dir, other)
	assert.ErrorIs(t, err, ErrSignature)
	var ie *InvalidError
	require.True(t, errors.As(err, &ie))
	assert.Equal(t, filepath.Join(dir, SignatureName), ie.File)

	// One byte of the manifest changed (still a valid manifest).
	changed := strings.Replace(string(b), `"rows": 3,`, `"rows": 3 ,`, 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName), []byte(changed), 0o644))
	_, err = Load(dir, nil)
	require.NoError(t, err)
	_, err = Load(dir, pub)
	assert.ErrorIs(t, err, ErrSignature)

	// A truncated signature.
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName), b, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, SignatureName), sig[:63], 0o644))
	_, err = Load(dir, pub)
	assert.ErrorContains(t, err, "holds 63 bytes")

	// Rewritten without a key: the stale signature goes.
	_, err = Write(dir, sample(), nil)
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(dir, SignatureName))
	assert.ErrorIs(t, err, fs.ErrNotExist)
	_, err = Load(dir, pub)
	assert.ErrorContains(t, err, "no signature")
	l, err = Load(dir, nil)
	require.NoError(t, err)
	assert.False(t, l.Signed)
}

func TestLoadAbsentAndInvalid(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(dir, nil)
	assert.ErrorIs(t, err, fs.ErrNotExist)

	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName), []byte(`{"format":`), 0o644))
	_, err = Load(dir, nil)
	var ie *InvalidError
	require.True(t, errors.As(err, &ie), "%v", err)
	assert.Contains(t, ie.Reason, "malformed")

}

func TestKeys(t *testing.T) {
	pub, priv := keys(t)
	pp, err := MarshalPrivateKey(priv)
	require.NoError(t, err)
	pk, err := MarshalPublicKey(pub)
	require.NoError(t, err)
	gotPriv, err := ParsePrivateKey(pp)
	require.NoError(t, err)
	assert.Equal(t, priv, gotPriv)
	gotPub, err := ParsePublicKey(pk)
	require.NoError(t, err)
	assert.Equal(t, pub, gotPub)
	_, err = ParsePrivateKey(pk)
	assert.ErrorContains(t, err, `PEM block "PUBLIC KEY", want "PRIVATE KEY"`)
	_, err = ParsePublicKey([]byte("no pem"))
	assert.ErrorContains(t, err, "no PEM block")

	// Keys and a signature written by OpenSSL 3: openssl genpkey -algorithm
	// ed25519 -out priv.pem; openssl pkey -in priv.pem -pubout -out pub.pem;
	// openssl pkeyutl -sign -inkey priv.pem -rawin -in m -out m.sig, with m
	// holding "hello\n".
	opensslPriv := "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIEsxqfyKiiKAkM+Vc2RQIctd5bFNAqFG7sQNWYARHDBo\n-----END PRIVATE KEY-----\n"
	opensslPub := "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAN+7xeEz8aymE8b6dzmTWcPln/+Er575Cj3sVHBIWaZI=\n-----END PUBLIC KEY-----\n"
	opensslSig, err := base64.StdEncoding.DecodeString("X5oCAtXu/oGfY0VyHFyBmdRmEdYzbyOk3oNRe7nV3MWgr7TJ4DoYxUejcdZCyrSj/QGm1ijckuzsgQQrJBe/Dw==")
	require.NoError(t, err)
	k, err := ParsePrivateKey([]byte(opensslPriv))
	require.NoError(t, err)
	p, err := ParsePublicKey([]byte(opensslPub))
	require.NoError(t, err)
	assert.Equal(t, p, k.Public())
	assert.NoError(t, Verify([]byte("hello\n"), opensslSig, p))
	assert.Equal(t, opensslSig, Sign([]byte("hello\n"), k), "Ed25519 signatures are deterministic")
	assert.ErrorIs(t, Verify([]byte("hello"), opensslSig, p), ErrSignature)
}

// FuzzUnmarshal: any input either fails to read or reads into a manifest
// whose canonical bytes read back into the same manifest.
func FuzzUnmarshal(f *testing.F) {
	b, _ := Marshal(sample())
	f.Add(b)
	f.Add([]byte(`{"format":"fairhold-dataset-manifest","version":1,"parts":[]}`))
	f.Add([]byte(`{"format":"fairhold-dataset-manifest","version":1,"parts":[],"parts":[]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := Unmarshal(in)
		if err != nil {
			return
		}
		out, err := Marshal(m)
		require.NoError(t, err)
		m2, err := Unmarshal(out)
		require.NoError(t, err)
		assert.Equal(t, m, m2)
		out2, err := Marshal(m2)
		require.NoError(t, err)
		assert.Equal(t, out, out2)
	})
}

// TestValidateCounts: a part lists at most a round per byte of its files
// (MinRoundBytes), and the parts' rounds add up to at most 2^63-1; the
// files' sizes add up without overflowing.
func TestValidateCounts(t *testing.T) {
	const max = 1<<63 - 1
	part := func(name string, rounds int64, bytes ...int64) Part {
		p := Part{Name: name, Rounds: rounds}
		if rounds > 0 {
			p.FirstRoundID, p.LastRoundID, p.MinTime, p.MaxTime = "a", "b", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z"
		}
		for i, b := range bytes {
			f := File{Path: name + "/" + Tables[i], Table: Tables[i], Bytes: b, SHA256: sha}
			if i == 0 {
				f.Rows = rounds
			}
			p.Files = append(p.Files, f)
		}
		return p
	}
	for _, tc := range []struct {
		name  string
		parts []Part
		want  string // "" when valid
	}{
		{"a round a byte", []Part{part("p", 9216, 5120, 4096)}, ""},
		{"a round more", []Part{part("p", 9217, 5120, 4096)}, "parts[0]: rounds 9217: not plausible for the part's files of 9216 bytes in all"},
		{"an empty file, rounds", []Part{part("p", 1, 0)}, "parts[0]: rounds 1: not plausible"},
		{"an empty part", []Part{part("p", 0, 0)}, ""},
		{"sizes past 2^63", []Part{part("p", max, max, max, max)}, ""},
		{"sum 2^63-1", []Part{part("p", max-100, max), part("q", 100, 100)}, ""},
		{"sum 2^63", []Part{part("p", max-99, max), part("q", 100, 100)}, "parts[1].rounds 100: the parts' rounds add up past 2^63-1 (9223372036854775708 before it)"},
		{"sum 2^64-2", []Part{part("p", max, max), part("q", max, max)}, "parts[1].rounds 9223372036854775807: the parts' rounds add up past 2^63-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New()
			m.Parts = tc.parts
			err := m.Validate()
			if tc.want == "" {
				require.NoError(t, err)
				b, err := Marshal(m)
				require.NoError(t, err)
				_, err = Unmarshal(b)
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			b, _ := json.Marshal(m)
			_, err = Unmarshal(b)
			assert.ErrorContains(t, err, tc.want, "Unmarshal validates")
		})
	}
}
