package report

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPAE(t *testing.T) {
	// The worked example of the DSSE protocol (protocol.md).
	assert.Equal(t, "DSSEv1 29 http://example.com/HelloWorld 11 hello world",
		string(dsse.PAE("http://example.com/HelloWorld", []byte("hello world"))))
	assert.Equal(t, "DSSEv1 28 application/vnd.in-toto+json 2 {}", string(dsse.PAE(PayloadType, []byte("{}"))))
}

func TestRoundTrip(t *testing.T) {
	lab, reg := labKey(t), regulatorKey(t)
	data := signedReport(t, lab, reg)
	env, err := ParseEnvelope(data)
	require.NoError(t, err)
	assert.Equal(t, PayloadType, env.PayloadType)
	require.Len(t, env.Signatures, 2)
	assert.Less(t, env.Signatures[0].KeyID, env.Signatures[1].KeyID, "signatures sorted by key id")

	v, err := Verify(env, lab.Public(), reg.Public())
	require.NoError(t, err)
	assert.True(t, v.Verified)
	assert.Equal(t, VerdictIncomplete, v.Verdict)
	for _, k := range v.Keys {
		assert.Equal(t, KeyVerified, k.Status)
	}
	assert.Equal(t, testStatement(t), v.Statement)

	require.NoError(t, v.CheckSubjects(testFiles()))
	assert.True(t, v.Verified)
	require.Len(t, v.Subjects, 4)
	for _, s := range v.Subjects {
		assert.Equal(t, SubjectOK, s.Status)
		assert.Equal(t, s.Expected, s.Actual)
	}

	// One of the two keys suffices when it is the only one required.
	_, err = Verify(env, reg.Public())
	require.NoError(t, err)

	// The payload is the statement's one encoding, readable as plain JSON.
	body, err := base64.StdEncoding.DecodeString(env.Payload)
	require.NoError(t, err)
	want, err := testStatement(t).Marshal()
	require.NoError(t, err)
	assert.Equal(t, string(want), string(body))
	assert.Contains(t, string(body), `"summary":"98.7% <= claimed & computed"`, "no HTML escaping")
	assert.Contains(t, string(body), `"result":{"rounds":2,"findings":0}`, "results compacted")
	assert.Contains(t, string(body), `"time":"2026-03-01T12:00:00Z"`)
}

func TestDeterministic(t *testing.T) {
	a := signedReport(t, labKey(t), regulatorKey(t), operatorKey(t))
	b := signedReport(t, operatorKey(t), regulatorKey(t), labKey(t))
	assert.Equal(t, a, b, "the same statement and keys give the same bytes, whatever the order of the signers")
}

// TestGolden keeps the format stable: the report of the tests' statement
// and keys, byte for byte. Regenerate with -update.
func TestGolden(t *testing.T) {
	data := signedReport(t, labKey(t), regulatorKey(t))
	dir := filepath.Join("testdata", "golden")
	files := map[string][]byte{
		"report.json":   data,
		"lab.pub":       labKey(t).Public().MarshalPEM(),
		"regulator.pub": regulatorKey(t).Public().MarshalPEM(),
	}
	for name, f := range testFiles() {
		files[filepath.FromSlash(name)] = f.Data
	}
	for name, b := range files {
		path := filepath.Join(dir, name)
		if *update {
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, b, 0o644))
			continue
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err, "run go test -update")
		assert.Equal(t, string(b), string(got), name)
	}
	// The golden report verifies against its files on disk.
	lab, err := ReadPublicKey(filepath.Join(dir, "lab.pub"))
	require.NoError(t, err)
	reg, err := ReadPublicKey(filepath.Join(dir, "regulator.pub"))
	require.NoError(t, err)
	env, err := ParseEnvelope(files["report.json"])
	require.NoError(t, err)
	v, err := Verify(env, lab, reg)
	require.NoError(t, err)
	require.NoError(t, v.CheckSubjects(os.DirFS(dir)))
	assert.Equal(t, filepath.Join(dir, "lab.pub"), v.Keys[0].Key)
}

func TestVerifyKeys(t *testing.T) {
	lab, reg, op := labKey(t), regulatorKey(t), operatorKey(t)
	env, err := ParseEnvelope(signedReport(t, lab, reg))
	require.NoError(t, err)

	t.Run("unknown signer is listed, not required", func(t *testing.T) {
		v, err := Verify(env, lab.Public())
		require.NoError(t, err)
		statuses := map[string]SignatureStatus{}
		for _, s := range v.Signatures {
			statuses[s.KeyID] = s.Status
		}
		assert.Equal(t, map[string]SignatureStatus{lab.KeyID(): SignatureVerified, reg.KeyID(): SignatureUnknownKey}, statuses)
	})
	t.Run("a required key that did not sign", func(t *testing.T) {
		v, err := Verify(env, lab.Public(), op.Public())
		require.ErrorIs(t, err, ErrSignature)
		var se *SignatureError
		require.True(t, errors.As(err, &se))
		require.Len(t, se.Keys, 1)
		assert.Equal(t, op.KeyID(), se.Keys[0].KeyID)
		assert.Equal(t, KeyMissing, se.Keys[0].Status)
		assert.Contains(t, err.Error(), "no signature by key "+op.KeyID())
		assert.False(t, v.Verified)
		assert.Nil(t, v.Statement)
		assert.Equal(t, []KeyCheck{
			{KeyID: lab.KeyID(), Algorithm: Ed25519, Status: KeyVerified},
			{KeyID: op.KeyID(), Algorithm: Ed25519, Status: KeyMissing},
		}, v.Keys)
	})
	t.Run("a signature that does not verify", func(t *testing.T) {
		bad := *env
		bad.Signatures = append([]dsse.Signature(nil), env.Signatures...)
		for i, s := range bad.Signatures {
			if s.KeyID == reg.KeyID() {
				// The lab's signature under the regulator's key id.
				bad.Signatures[i].Sig = bad.Signatures[1-i].Sig
			}
		}
		v, err := Verify(&bad, lab.Public(), reg.Public())
		require.ErrorIs(t, err, ErrSignature)
		assert.Contains(t, err.Error(), "the signature by key "+reg.KeyID()+" does not verify")
		assert.Equal(t, KeyInvalid, v.Keys[1].Status)
	})
	t.Run("no keys", func(t *testing.T) {
		_, err := Verify(env)
		assert.ErrorIs(t, err, ErrNoKeys)
	})
	t.Run("a key given twice", func(t *testing.T) {
		_, err := Verify(env, lab.Public(), lab.Public())
		assert.ErrorIs(t, err, ErrDuplicateKey)
	})
	t.Run("a signed payload of another type", func(t *testing.T) {
		body, err := testStatement(t).Marshal()
		require.NoError(t, err)
		other, err := sign(&dsse.Envelope{PayloadType: "text/plain", Payload: base64.StdEncoding.EncodeToString(body)}, body, []Signer{lab})
		require.NoError(t, err)
		_, err = Verify(other, lab.Public())
		require.ErrorIs(t, err, ErrMalformed)
		assert.Contains(t, err.Error(), "payloadType")
	})
	t.Run("a signed statement that is not valid", func(t *testing.T) {
		body := []byte(`{"_type":"https://in-toto.io/Statement/v1","subject":[],"predicateType":"https://fairhold.dev/certification/v1","predicate":{}}`)
		other, err := sign(&dsse.Envelope{PayloadType: PayloadType, Payload: base64.StdEncoding.EncodeToString(body)}, body, []Signer{lab})
		require.NoError(t, err)
		_, err = Verify(other, lab.Public())
		require.ErrorIs(t, err, ErrMalformed)
		var fe *FormatError
		require.True(t, errors.As(err, &fe))
		assert.Equal(t, "payload.subject", fe.Field)
	})
}

func TestSign(t *testing.T) {
	st := testStatement(t)
	_, err := Sign(st)
	assert.ErrorIs(t, err, ErrNoSigners)
	_, err = Sign(st, labKey(t), labKey(t))
	assert.ErrorIs(t, err, ErrDuplicateKey)
	bad := *st
	bad.Predicate.Verdict = VerdictPass
	_, err = Sign(&bad, labKey(t))
	assert.ErrorIs(t, err, ErrMalformed)
}

func TestCountersign(t *testing.T) {
	lab, reg, op := labKey(t), regulatorKey(t), operatorKey(t)
	env, err := ParseEnvelope(signedReport(t, lab))
	require.NoError(t, err)
	both, err := Countersign(env, reg, op)
	require.NoError(t, err)
	assert.Len(t, env.Signatures, 1, "the input is not modified")
	got, err := MarshalEnvelope(both)
	require.NoError(t, err)
	assert.Equal(t, string(signedReport(t, lab, reg, op)), string(got), "countersigning gives the report all three would have signed")
	_, err = Countersign(both, lab)
	assert.ErrorIs(t, err, ErrDuplicateKey)
}

func TestSubjects(t *testing.T) {
	lab := labKey(t)
	env, err := ParseEnvelope(signedReport(t, lab))
	require.NoError(t, err)
	v, err := Verify(env, lab.Public())
	require.NoError(t, err)

	fsys := testFiles()
	fsys["profile.json"].Data = []byte("{}\n")
	delete(fsys, "strategy.parquet")
	err = v.CheckSubjects(fsys)
	require.ErrorIs(t, err, ErrSubject)
	assert.False(t, v.Verified)
	byName := map[string]SubjectCheck{}
	for _, s := range v.Subjects {
		byName[s.Name] = s
	}
	assert.Equal(t, SubjectOK, byName["logs/day1.rounds.jsonl"].Status)
	assert.Equal(t, SubjectDiffers, byName["profile.json"].Status)
	assert.Equal(t, "ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356", byName["profile.json"].Actual)
	assert.Equal(t, SubjectMissing, byName["strategy.parquet"].Status)
	assert.Empty(t, byName["strategy.parquet"].Actual)
	msg := err.Error()
	assert.Contains(t, msg, "subject profile.json: expected sha256 "+byName["profile.json"].Expected+", actual ca3d163b")
	assert.Contains(t, msg, "subject strategy.parquet: missing")

	// A directory where a file is expected is missing too.
	fsys = testFiles()
	fsys["profile.json/x"] = fsys["profile.json"]
	delete(fsys, "profile.json")
	checks, err := CheckSubjects(v.Statement, fsys)
	require.ErrorIs(t, err, ErrSubject)
	assert.Equal(t, SubjectMissing, checks[1].Status)

	_, err = FileSubject(fsys, "../etc/passwd")
	assert.Error(t, err)
}

func TestStatementValidate(t *testing.T) {
	tests := []struct {
		field string
		edit  func(st *Statement)
	}{
		{"_type", func(st *Statement) { st.Type = "https://in-toto.io/Statement/v0.1" }},
		{"predicateType", func(st *Statement) { st.PredicateType = "https://example.com/other" }},
		{"subject", func(st *Statement) { st.Subject = nil }},
		{"subject[1].name", func(st *Statement) { st.Subject[1].Name = st.Subject[0].Name }},
		{"subject[0].name", func(st *Statement) { st.Subject[0].Name = "../day1.jsonl" }},
		{"subject[0].name", func(st *Statement) { st.Subject[0].Name = "/abs" }},
		{"subject[0].name", func(st *Statement) { st.Subject[0].Name = `logs\day1` }},
		{"subject[0].digest", func(st *Statement) { st.Subject[0].Digest = map[string]string{"sha256": strings.Repeat("A", 64)} }},
		{"subject[0].digest", func(st *Statement) { st.Subject[0].Digest["sha512"] = strings.Repeat("a", 128) }},
		{"predicate.requirements", func(st *Statement) { st.Predicate.Requirements = nil }},
		{"predicate.requirements[0].id", func(st *Statement) { st.Predicate.Requirements[0].ID = "Replay" }},
		{"predicate.requirements[0].id", func(st *Statement) { st.Predicate.Requirements[0].ID = "replay..x" }},
		{"predicate.requirements[1].id", func(st *Statement) { st.Predicate.Requirements[1].ID = "replay.resettle" }},
		{"predicate.requirements[0].text", func(st *Statement) { st.Predicate.Requirements[0].Text = "" }},
		{"predicate.requirements[0].status", func(st *Statement) { st.Predicate.Requirements[0].Status = "passed" }},
		{"predicate.requirements[0].evidence.subjects[0]", func(st *Statement) { st.Predicate.Requirements[0].Evidence.Subjects[0] = "other" }},
		{"predicate.requirements[0].evidence.subjects[1]", func(st *Statement) {
			s := st.Predicate.Requirements[0].Evidence.Subjects
			s[0], s[1] = s[1], s[0]
		}},
		{"predicate.verdict", func(st *Statement) { st.Predicate.Verdict = VerdictPass }},
		{"predicate.tool", func(st *Statement) { st.Predicate.Tool.Version = "" }},
		{"predicate.time", func(st *Statement) { st.Predicate.Time = st.Predicate.Time.Local().Add(1) }},
		{"predicate.time", func(st *Statement) { st.Predicate.Time = st.Predicate.Time.AddDate(9000, 0, 0) }},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			st := testStatement(t)
			tt.edit(st)
			err := st.Validate()
			require.ErrorIs(t, err, ErrMalformed)
			var fe *FormatError
			require.True(t, errors.As(err, &fe))
			assert.Equal(t, tt.field, fe.Field, err.Error())
		})
	}
}

func TestDecide(t *testing.T) {
	r := func(ss ...Status) []Requirement {
		out := make([]Requirement, len(ss))
		for i, s := range ss {
			out[i].Status = s
		}
		return out
	}
	assert.Equal(t, VerdictIncomplete, Decide(nil))
	assert.Equal(t, VerdictPass, Decide(r(Pass, Pass)))
	assert.Equal(t, VerdictIncomplete, Decide(r(Pass, NotTested)))
	assert.Equal(t, VerdictFail, Decide(r(NotTested, Fail, Pass)))
}

func TestNewStatement(t *testing.T) {
	st := testStatement(t)
	assert.Equal(t, []string{"logs/day1.rounds.jsonl", "profile.json", "strategy.parquet"},
		[]string{st.Subject[0].Name, st.Subject[1].Name, st.Subject[2].Name})
	assert.Equal(t, []string{"logs/day1.rounds.jsonl", "profile.json"}, st.Predicate.Requirements[0].Evidence.Subjects)
	assert.Equal(t, VerdictIncomplete, st.Predicate.Verdict)

	_, err := NewStatement([]Subject{SubjectOf("a", nil)}, []Requirement{{ID: "a", Text: "a", Status: Pass,
		Evidence: Evidence{Result: []byte("{")}}}, testTool, testTime, Details{})
	assert.ErrorIs(t, err, ErrMalformed)

	// An empty list of requirements is [], not null.
	st, err = NewStatement([]Subject{SubjectOf("a", nil)}, nil, testTool, testTime, Details{})
	require.NoError(t, err)
	b, err := st.Marshal()
	require.NoError(t, err)
	assert.Contains(t, string(b), `"requirements":[]`)
	_, err = ParseStatement(b)
	require.NoError(t, err)
}

func TestParseStatementStrict(t *testing.T) {
	b, err := testStatement(t).Marshal()
	require.NoError(t, err)
	s := string(b)
	for name, edit := range map[string]string{
		"indented":       strings.Replace(s, `{"_type"`, "{\n  \"_type\"", 1),
		"field case":     strings.Replace(s, `"predicateType"`, `"predicatetype"`, 1),
		"unknown field":  strings.Replace(s, `"_type"`, `"x":1,"_type"`, 1),
		"escaped":        strings.Replace(s, `&`, `\u0026`, 1),
		"time offset":    strings.Replace(s, `12:00:00Z`, `13:00:00+01:00`, 1),
		"trailing":       s + "\n",
		"two values":     s + s,
		"null reqs list": strings.Replace(s, `"requirements":[`, `"requirements":null,"x":[`, 1),
	} {
		_, err := ParseStatement([]byte(edit))
		assert.ErrorIs(t, err, ErrMalformed, name)
	}
}

func TestBuildTool(t *testing.T) {
	tool := BuildTool("1.2.3")
	assert.Equal(t, "fairhold", tool.Name)
	assert.Equal(t, "1.2.3", tool.Version)
	assert.NotEmpty(t, BuildTool("").Version)
	st, err := NewStatement([]Subject{SubjectOf("a", nil)}, nil, BuildTool(""), testTime, Details{})
	require.NoError(t, err)
	_, err = json.Marshal(st)
	require.NoError(t, err)
}

// TestPublicKeyVerify: the raw signature of Sign verifies with its key only,
// for the message it signed only, and a signature of the wrong size is
// refused without a panic.
func TestPublicKeyVerify(t *testing.T) {
	msg := []byte("sha256  fairhold_1.0.0_linux_amd64.tar.gz\n")
	for _, alg := range []Algorithm{Ed25519, MLDSA65} {
		k := testKey(t, alg, 7)
		other := testKey(t, alg, 8)
		sig, err := k.Sign(msg)
		require.NoError(t, err)
		assert.True(t, k.Public().Verify(msg, sig), alg)
		assert.False(t, other.Public().Verify(msg, sig), alg)
		assert.False(t, k.Public().Verify(append([]byte{}, msg[1:]...), sig), alg)
		bad := append([]byte{}, sig...)
		bad[len(bad)/2] ^= 1
		assert.False(t, k.Public().Verify(msg, bad), alg)
		assert.False(t, k.Public().Verify(msg, sig[:len(sig)-1]), alg)
		assert.False(t, k.Public().Verify(msg, nil), alg)
	}
}
