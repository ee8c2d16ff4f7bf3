package report

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cloudflare/circl/pki"
	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryByteChanged changes each byte of a signed report in turn (the
// payload, the signatures, the key ids, the JSON structure, the white
// space) and asserts that the report never verifies. The small Ed25519
// report gets every other value of every byte; the two-signer report with
// ML-DSA-65 gets three bit flips of every byte. In -short mode (the race
// detector's run) each byte of the first gets one other value and every
// seventh byte of the second one bit flip.
func TestEveryByteChanged(t *testing.T) {
	lab, reg := labKey(t), regulatorKey(t)
	t.Run("ed25519, every value", func(t *testing.T) {
		small, err := NewStatement([]Subject{SubjectOf("profile.json", testFiles()["profile.json"].Data)},
			[]Requirement{{ID: "a", Text: "a", Status: Pass}}, testTool, testTime, Details{})
		require.NoError(t, err)
		env, err := Sign(small, lab)
		require.NoError(t, err)
		data, err := MarshalEnvelope(env)
		require.NoError(t, err)
		require.NoError(t, verifyBytes(data, testFiles(), lab.Public()))
		values := 255
		if testing.Short() {
			values = 1
		}
		checkEveryByte(t, data, 1, values, nil, lab.Public())
	})
	t.Run("ed25519 and ml-dsa-65, bit flips", func(t *testing.T) {
		data := signedReport(t, lab, reg)
		require.NoError(t, verifyBytes(data, testFiles(), lab.Public(), reg.Public()))
		masks, stride := []byte{0x01, 0x20, 0x80}, 1
		if testing.Short() {
			masks, stride = masks[:1], 7
		}
		checkEveryByte(t, data, stride, 0, masks, lab.Public(), reg.Public())
	})
}

// checkEveryByte replaces each stride-th byte of data by values other
// values (from b+1 up, wrapping), and by b^mask for each mask, and asserts
// each result fails to verify. It counts the outcomes for the log.
func checkEveryByte(t *testing.T, data []byte, stride, values int, masks []byte, keys ...*PublicKey) {
	t.Helper()
	var parse, sig, statement, subject int
	buf := bytes.Clone(data)
	try := func(i int, b byte) {
		buf[i] = b
		err := verifyBytes(buf, testFiles(), keys...)
		switch {
		case err == nil:
			t.Fatalf("byte %d changed from %q to %q: the report still verifies", i, data[i], b)
		case errors.Is(err, ErrSignature):
			sig++
		case errors.Is(err, ErrSubject):
			subject++
		case errors.Is(err, ErrMalformed):
			var fe *FormatError
			if errors.As(err, &fe) && strings.HasPrefix(fe.Field, "payload.") {
				statement++
			} else {
				parse++
			}
		default:
			t.Fatalf("byte %d changed from %q to %q: unexpected error %v", i, data[i], b, err)
		}
	}
	for i := 0; i < len(data); i += stride {
		for v := 1; v <= values; v++ {
			try(i, data[i]+byte(v))
		}
		for _, m := range masks {
			try(i, data[i]^m)
		}
		buf[i] = data[i]
	}
	t.Logf("%d bytes: %d changes rejected as malformed, %d as bad signatures, %d as malformed statements, %d as subject mismatches",
		len(data), parse, sig, statement, subject)
	assert.Zero(t, statement+subject, "a change of the payload is caught by the signatures first")
}

// TestSubjectByteChanged changes each byte of a subject's file to every
// other value (8 in -short mode): the subject never matches.
func TestSubjectByteChanged(t *testing.T) {
	values := 255
	if testing.Short() {
		values = 8
	}
	lab := labKey(t)
	env, err := ParseEnvelope(signedReport(t, lab))
	require.NoError(t, err)
	v, err := Verify(env, lab.Public())
	require.NoError(t, err)
	for _, name := range []string{"profile.json", "strategy.parquet", "logs/day1.rounds.jsonl", "suite.json"} {
		orig := testFiles()[name].Data
		for i := range orig {
			for d := 1; d <= values; d++ {
				fsys := testFiles()
				fsys[name].Data[i] += byte(d)
				checks, err := CheckSubjects(v.Statement, fsys)
				require.ErrorIs(t, err, ErrSubject, "%s byte %d +%d", name, i, d)
				var se *SubjectError
				require.True(t, errors.As(err, &se))
				require.Len(t, se.Subjects, 1)
				require.Equal(t, name, se.Subjects[0].Name)
				require.Len(t, checks, 4)
			}
		}
		// Truncated and extended.
		for n := range orig {
			fsys := testFiles()
			fsys[name].Data = orig[:n]
			_, err := CheckSubjects(v.Statement, fsys)
			require.ErrorIs(t, err, ErrSubject, "%s truncated to %d", name, n)
		}
		fsys := testFiles()
		fsys[name].Data = append(bytes.Clone(orig), '\n')
		_, err := CheckSubjects(v.Statement, fsys)
		require.ErrorIs(t, err, ErrSubject, "%s extended", name)
	}
}

// TestTruncated truncates a two-signer report at every length: each is
// malformed (ErrMalformed), never verified, and never a panic.
func TestTruncated(t *testing.T) {
	lab, reg := labKey(t), regulatorKey(t)
	data := signedReport(t, lab, reg)
	for n := range data {
		_, err := ParseEnvelope(data[:n])
		require.ErrorIs(t, err, ErrMalformed, "truncated to %d bytes", n)
	}
	_, err := ParseEnvelope(nil)
	var fe *FormatError
	require.True(t, errors.As(err, &fe))
	assert.Contains(t, fe.Error(), "empty")
	_, err = ParseEnvelope(data[:len(data)/2])
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, int64(len(data)/2), fe.Offset)
	assert.Contains(t, fe.Error(), "truncated")
}

func TestParseEnvelopeFields(t *testing.T) {
	data := string(signedReport(t, labKey(t)))
	tests := []struct{ name, from, to, field string }{
		{"type of payload", `"payload": "`, `"payload": 1, "x": "`, "payload"},
		{"empty payload type", `"payloadType": "application/vnd.in-toto+json"`, `"payloadType": ""`, "payloadType"},
		{"url-safe base64", `"sig": "`, `"sig": "-`, "signatures[0].sig"},
		{"no signatures", `"signatures": [`, `"signatures": [], "x": [`, ""},
		{"empty key id", `"keyid": "`, `"keyid": "", "x": "`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edited := []byte(replaceOnce(t, data, tt.from, tt.to))
			_, err := ParseEnvelope(edited)
			require.ErrorIs(t, err, ErrMalformed)
			if tt.field != "" {
				var fe *FormatError
				require.True(t, errors.As(err, &fe))
				assert.Equal(t, tt.field, fe.Field, err.Error())
			}
		})
	}
}

func replaceOnce(t *testing.T, s, from, to string) string {
	t.Helper()
	i := bytes.Index([]byte(s), []byte(from))
	require.GreaterOrEqual(t, i, 0, "%q not found", from)
	return s[:i] + to + s[i+len(from):]
}

func TestKeyFiles(t *testing.T) {
	for _, alg := range []Algorithm{Ed25519, MLDSA65} {
		t.Run(string(alg), func(t *testing.T) {
			k := testKey(t, alg, 9)
			priv, err := k.MarshalPEM()
			require.NoError(t, err)
			back, err := ParsePrivateKey(priv)
			require.NoError(t, err)
			assert.Equal(t, k.KeyID(), back.KeyID())
			sig, err := back.Sign([]byte("m"))
			require.NoError(t, err)
			again, err := k.Sign([]byte("m"))
			require.NoError(t, err)
			assert.Equal(t, sig, again, "deterministic signatures")
			assert.True(t, k.Public().verify([]byte("m"), sig))
			assert.False(t, k.Public().verify([]byte("n"), sig))

			pub, err := ParsePublicKey(k.Public().MarshalPEM())
			require.NoError(t, err)
			assert.Equal(t, k.KeyID(), pub.KeyID())
			assert.Equal(t, alg, pub.Algorithm())
			block, _ := pem.Decode(pub.MarshalPEM())
			assert.Equal(t, sha256Hex(block.Bytes), pub.KeyID(), "the key id is the SHA-256 of the DER SubjectPublicKeyInfo")

			// Printing a private key prints no secret: not the PEM, not the
			// seed's bytes in any verb.
			for _, s := range []string{k.String(), k.GoString(), fmt.Sprintf("%v %+v %#v %d %x %s", k, k, k, k, *k, k)} {
				assert.Contains(t, s, k.KeyID())
				assert.NotContains(t, s, "PRIVATE")
				assert.NotContains(t, s, "9 9 9")
				assert.NotContains(t, s, "090909")
			}

			// The wrong kind of key.
			_, err = ParsePublicKey(priv)
			assert.ErrorIs(t, err, ErrKeyType)
			_, err = ParsePrivateKey(k.Public().MarshalPEM())
			assert.ErrorIs(t, err, ErrKeyType)
		})
	}
}

func sha256Hex(b []byte) string { return SubjectOf("", b).SHA256() }

func TestKeyFilesRejected(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), fixedRand(4))
	require.NoError(t, err)
	ecPub, err := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	require.NoError(t, err)
	ecPriv, err := x509.MarshalPKCS8PrivateKey(ec)
	require.NoError(t, err)
	ml44, ml44priv, err := mldsa44.GenerateKey(fixedRand(5))
	require.NoError(t, err)
	ml44Pub, err := pki.MarshalPKIXPublicKey(ml44)
	require.NoError(t, err)
	ml44Priv, err := pki.MarshalPKIXPrivateKey(ml44priv)
	require.NoError(t, err)
	block := func(typ string, b []byte) []byte { return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b}) }
	good := labKey(t).Public().MarshalPEM()

	pubs := []struct {
		name string
		data []byte
		want error
	}{
		{"P-256", block("PUBLIC KEY", ecPub), ErrKeyType},
		{"ML-DSA-44", block("PUBLIC KEY", ml44Pub), ErrKeyType},
		{"empty", nil, ErrMalformed},
		{"not PEM", []byte("c61b5e9ee4a913566d3aeaafaba0f2c399bf3b997ef413e92d12f85dca9fb190\n"), ErrMalformed},
		{"other block", block("CERTIFICATE", []byte{1}), ErrMalformed},
		{"two blocks", append(bytes.Clone(good), good...), ErrMalformed},
		{"garbage DER", block("PUBLIC KEY", []byte{0x30, 0x03, 1, 2, 3}), ErrMalformed},
		{"truncated", good[:len(good)/2], ErrMalformed},
	}
	for _, tt := range pubs {
		_, err := ParsePublicKey(tt.data)
		assert.ErrorIs(t, err, tt.want, tt.name)
		assert.ErrorIs(t, err, ErrMalformed, tt.name)
	}
	_, err = ParsePrivateKey(block("PRIVATE KEY", ecPriv))
	assert.ErrorIs(t, err, ErrKeyType)
	_, err = ParsePrivateKey(block("PRIVATE KEY", ml44Priv))
	assert.ErrorIs(t, err, ErrKeyType)
	_, err = ParsePrivateKey(block("PRIVATE KEY", []byte{0x30, 0x00}))
	assert.ErrorIs(t, err, ErrMalformed)
	_, err = GenerateKey("rsa", nil)
	assert.ErrorIs(t, err, ErrKeyType)

	// Every truncation of a key file is malformed.
	for _, k := range []*PrivateKey{labKey(t), regulatorKey(t)} {
		pub := k.Public().MarshalPEM()
		priv, err := k.MarshalPEM()
		require.NoError(t, err)
		for n := range len(pub) - 1 { // without its last newline, the file is whole
			_, err := ParsePublicKey(pub[:n])
			require.ErrorIs(t, err, ErrMalformed, "public key truncated to %d", n)
		}
		for n := range len(priv) - 1 {
			_, err := ParsePrivateKey(priv[:n])
			require.ErrorIs(t, err, ErrMalformed, "private key truncated to %d", n)
		}
	}
}

func TestReadPublicKey(t *testing.T) {
	_, err := ReadPublicKey(filepath.Join(t.TempDir(), "absent.pub"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.NotErrorIs(t, err, ErrMalformed)
}

// FuzzParseEnvelope: arbitrary bytes never panic the parser or the
// verifier, an accepted envelope is the canonical encoding of what was
// parsed, and only the untouched reports verify.
func FuzzParseEnvelope(f *testing.F) {
	lab := labKey(f)
	good, both := signedReport(f, lab), signedReport(f, lab, regulatorKey(f))
	f.Add(good)
	f.Add(both)
	f.Add([]byte(`{"payloadType":"","payload":"","signatures":[{"keyid":"","sig":""}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		env, err := ParseEnvelope(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error not ErrMalformed: %v", err)
			}
			return
		}
		again, err := MarshalEnvelope(env)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("accepted a non-canonical envelope")
		}
		err = verifyBytes(data, fstest.MapFS(testFiles()), lab.Public())
		if err == nil && !bytes.Equal(data, good) && !bytes.Equal(data, both) {
			t.Fatalf("a report other than the signed one verifies")
		}
	})
}

// FuzzParsePublicKey: arbitrary key files never panic the parsers.
func FuzzParsePublicKey(f *testing.F) {
	f.Add(labKey(f).Public().MarshalPEM())
	f.Add(regulatorKey(f).Public().MarshalPEM())
	priv, _ := regulatorKey(f).MarshalPEM()
	f.Add(priv)
	f.Fuzz(func(t *testing.T, data []byte) {
		if k, err := ParsePublicKey(data); err == nil && !bytes.Equal(k.MarshalPEM(), data) && !bytes.Equal(bytes.TrimSpace(data), bytes.TrimSpace(k.MarshalPEM())) {
			// PEM allows text around the block; the key itself must be the same DER.
			b, _ := pem.Decode(data)
			if b == nil || !bytes.Equal(b.Bytes, k.der) {
				t.Fatalf("accepted a key whose DER is not its encoding")
			}
		}
		_, _ = ParsePrivateKey(data)
	})
}

func BenchmarkSignVerify(b *testing.B) {
	st := testStatement(b)
	for _, k := range []*PrivateKey{labKey(b), regulatorKey(b)} {
		b.Run(string(k.Algorithm()), func(b *testing.B) {
			for b.Loop() {
				env, err := Sign(st, k)
				if err != nil {
					b.Fatal(err)
				}
				data, err := MarshalEnvelope(env)
				if err != nil {
					b.Fatal(err)
				}
				if err := verifyBytes(data, testFiles(), k.Public()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMLDSABothForm reads RFC 9881's "both" form of an ML-DSA-65 private
// key (seed and expanded key), which other tools may write, and rejects it
// when the two disagree.
func TestMLDSABothForm(t *testing.T) {
	k := regulatorKey(t)
	both := func(seed []byte) []byte {
		inner, err := asn1.Marshal(struct{ Seed, Expanded []byte }{seed, k.ml.Bytes()})
		require.NoError(t, err)
		der, err := asn1.Marshal(struct {
			Version    int
			Algorithm  pkix.AlgorithmIdentifier
			PrivateKey []byte
		}{0, pkix.AlgorithmIdentifier{Algorithm: oidMLDSA65}, inner})
		require.NoError(t, err)
		return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	}
	back, err := ParsePrivateKey(both(k.ml.Seed()))
	require.NoError(t, err)
	assert.Equal(t, k.KeyID(), back.KeyID())
	_, err = ParsePrivateKey(both(bytes.Repeat([]byte{7}, 32)))
	assert.ErrorIs(t, err, ErrMalformed)
}
