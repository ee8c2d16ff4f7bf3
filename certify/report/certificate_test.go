package report

import (
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCertificateID: the derived id is "fh-" and 24 hex digits of the
// statement without its id; it changes with any member (the time
// included), and a statement whose fh- id is not its own is malformed.
// A given id is kept, and may not take the derived ids' prefix.
func TestCertificateID(t *testing.T) {
	st := testStatement(t)
	id := st.Predicate.CertificateID
	assert.Regexp(t, `^fh-[0-9a-f]{24}$`, id)
	again, err := DeriveCertificateID(st)
	require.NoError(t, err)
	assert.Equal(t, id, again)
	assert.Equal(t, id, testStatement(t).Predicate.CertificateID, "the same inputs give the same id")

	// What the id is derived from: the statement's encoding without it.
	c := *st
	c.Predicate.CertificateID = ""
	body, err := marshalJSON(&c, "")
	require.NoError(t, err)
	assert.NotContains(t, string(body), "certificate_id")
	assert.Equal(t, CertificateIDPrefix+SubjectOf("", body).SHA256()[:24], id)

	// Another signing time, another id.
	later, err := NewStatement(st.Subject, st.Predicate.Requirements, st.Predicate.Tool, st.Predicate.Time.Add(time.Second), testDetails(t))
	require.NoError(t, err)
	assert.NotEqual(t, id, later.Predicate.CertificateID)

	// An fh- id that is not the statement's own.
	st.Predicate.Lab = "Another Lab"
	err = st.Validate()
	var fe *FormatError
	require.True(t, errors.As(err, &fe), "%v", err)
	assert.Equal(t, "predicate.certificate_id", fe.Field)
	assert.Contains(t, err.Error(), "is not the id derived from the statement")

	// A given id.
	d := testDetails(t)
	d.CertificateID = "LAB-2026/0042"
	given, err := NewStatement(st.Subject, st.Predicate.Requirements, st.Predicate.Tool, st.Predicate.Time, d)
	require.NoError(t, err)
	assert.Equal(t, "LAB-2026/0042", given.Predicate.CertificateID)
	for _, bad := range []string{"fh-0123", "-x", "a b", strings.Repeat("a", 129), "é"} {
		assert.False(t, ValidCertificateID(bad), bad)
		d.CertificateID = bad
		_, err := NewStatement(st.Subject, st.Predicate.Requirements, st.Predicate.Tool, st.Predicate.Time, d)
		if !strings.HasPrefix(bad, CertificateIDPrefix) {
			assert.ErrorIs(t, err, ErrMalformed, bad)
		} else {
			assert.ErrorContains(t, err, "is not the id derived", bad)
		}
	}
	assert.True(t, ValidCertificateID("LAB-2026/0042"))
}

// TestValidateV2: each member of version 2 is checked, naming its field.
func TestValidateV2(t *testing.T) {
	tests := []struct {
		field string
		edit  func(p *Predicate)
	}{
		{"predicate.suite.name", func(p *Predicate) { p.Suite.Name = "" }},
		{"predicate.suite.version", func(p *Predicate) { p.Suite.Version = "1\n" }},
		{"predicate.suite.digest", func(p *Predicate) { p.Suite.Digest = map[string]string{"sha256": "00"} }},
		{"predicate.suite.digest", func(p *Predicate) { p.Suite.Digest = SubjectOf("x", []byte("other")).Digest }},
		{"predicate.suite.subject", func(p *Predicate) { p.Suite.Subject = "nosuch.json" }},
		{"predicate.suite.subject", func(p *Predicate) { p.Suite.Builtin = true }},
		{"predicate.lab", func(p *Predicate) { p.Lab = " padded" }},
		{"predicate.operator", func(p *Predicate) { p.Operator = "a\x00b" }},
		{"predicate.jurisdiction", func(p *Predicate) { p.Jurisdiction = strings.Repeat("x", MaxNameLength+1) }},
		{"predicate.games", func(p *Predicate) { p.Games = []GameProfile{} }},
		{"predicate.games[0].profile_hash", func(p *Predicate) { p.Games[0].ProfileHash = "abc" }},
		{"predicate.games[0].profile_version", func(p *Predicate) { p.Games[0].ProfileVersion = 0 }},
		{"predicate.games[0].profile_subject", func(p *Predicate) { p.Games[0].ProfileSubject = "other.json" }},
		{"predicate.period", func(p *Predicate) { p.Period.First, p.Period.Last = p.Period.Last, p.Period.First }},
		{"predicate.period.first", func(p *Predicate) { p.Period.First = p.Period.First.Local().Add(time.Hour) }},
		{"predicate.period.last", func(p *Predicate) { p.Period.Last = p.Period.Last.Add(1) }},
		{"predicate.requirements[0].method", func(p *Predicate) { p.Requirements[0].Method = "a\tb" }},
		{"predicate.requirements[0].evidence.finding_samples", func(p *Predicate) { p.Requirements[0].Evidence.FindingSamples = []FindingSample{} }},
		{"predicate.requirements[0].evidence.finding_samples[0].code", func(p *Predicate) {
			p.Requirements[0].Evidence.FindingSamples = []FindingSample{{Code: "lower", Count: 1, RoundIDs: []string{}}}
		}},
		{"predicate.requirements[0].evidence.finding_samples[1].code", func(p *Predicate) {
			p.Requirements[0].Evidence.FindingSamples = []FindingSample{{Code: "B", Count: 1, RoundIDs: []string{}}, {Code: "A", Count: 1, RoundIDs: []string{}}}
		}},
		{"predicate.requirements[0].evidence.finding_samples[0].round_ids", func(p *Predicate) {
			p.Requirements[0].Evidence.FindingSamples = []FindingSample{{Code: "A", Count: 1}}
		}},
		{"predicate.requirements[0].evidence.finding_samples[0].round_ids", func(p *Predicate) {
			p.Requirements[0].Evidence.FindingSamples = []FindingSample{{Code: "A", Count: 20, RoundIDs: make([]string, MaxSampleRoundIDs+1)}}
		}},
		{"predicate.requirements[0].evidence.finding_samples[0].count", func(p *Predicate) {
			p.Requirements[0].Evidence.FindingSamples = []FindingSample{{Code: "A", Count: 1, RoundIDs: []string{"r1", "r2"}}}
		}},
		{"predicate.requirements[0].evidence.finding_samples[0].round_ids[1]", func(p *Predicate) {
			p.Requirements[0].Evidence.FindingSamples = []FindingSample{{Code: "A", Count: 2, RoundIDs: []string{"r1", "r1"}}}
		}},
		{"predicate.not_in_suite.requirements", func(p *Predicate) { p.NotInSuite.Requirements = nil }},
		{"predicate.not_in_suite.claims", func(p *Predicate) { p.NotInSuite.Claims = nil }},
		{"predicate.not_in_suite.requirements[0]", func(p *Predicate) { p.NotInSuite.Requirements[0].ID = "Bad" }},
		{"predicate.not_in_suite.claims[0]", func(p *Predicate) { p.NotInSuite.Claims[0].Requirement = "" }},
		{"predicate.not_in_suite", func(p *Predicate) { p.Suite.Builtin, p.Suite.Subject = true, "" }},
		{"predicate.limits", func(p *Predicate) { p.Limits = []string{} }},
		{"predicate.limits[1]", func(p *Predicate) { p.Limits[1] = "" }},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			st := testStatement(t)
			st.Predicate.CertificateID = "T-1" // a given id: edits leave it valid
			require.NoError(t, st.Validate())
			tt.edit(&st.Predicate)
			err := st.Validate()
			require.ErrorIs(t, err, ErrMalformed)
			var fe *FormatError
			require.True(t, errors.As(err, &fe))
			assert.Equal(t, tt.field, fe.Field, err.Error())
		})
	}
	// Version 2 names its certificate.
	st := testStatement(t)
	st.Predicate.CertificateID = ""
	assert.ErrorContains(t, st.Validate(), "predicate.certificate_id: missing")
}

// TestVersion1Reports: a version 1 report (testdata/v1, written by fairhold
// before version 2, never regenerated) still parses, verifies with its
// keys and files, and draws; a version 1 statement with a member of
// version 2 is malformed, so no version 2 member is slipped into a report
// a version 1 verifier reads.
func TestVersion1Reports(t *testing.T) {
	dir := filepath.Join("testdata", "v1")
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	env, err := ParseEnvelope(data)
	require.NoError(t, err)
	lab, err := ReadPublicKey(filepath.Join(dir, "lab.pub"))
	require.NoError(t, err)
	reg, err := ReadPublicKey(filepath.Join(dir, "regulator.pub"))
	require.NoError(t, err)
	v, err := Verify(env, lab, reg)
	require.NoError(t, err)
	require.NoError(t, v.CheckSubjects(os.DirFS(dir)))
	assert.True(t, v.Verified)
	st := v.Statement
	assert.Equal(t, PredicateTypeV1, st.PredicateType)
	assert.Empty(t, st.Predicate.CertificateID)
	body, err := st.Marshal()
	require.NoError(t, err)
	assert.NotContains(t, string(body), "certificate_id", "re-encoded as it was")

	html, err := RenderHTML(st, env, keyIDs(env)...)
	require.NoError(t, err)
	assert.Contains(t, string(html), "a version 1 report: it names no certificate id")
	assert.NotContains(t, string(html), `id="f-lab"`)
	md, err := RenderSummary(st, env, keyIDs(env)...)
	require.NoError(t, err)
	assert.Contains(t, string(md), "A version 1 report")
	junit, err := RenderJUnitWith(st, env, PageOptions{Verified: keyIDs(env)})
	require.NoError(t, err)
	assert.Contains(t, string(junit), `<property name="predicate.version" value="1">`)

	for name, edit := range map[string]func(p *Predicate){
		"predicate.certificate_id":         func(p *Predicate) { p.CertificateID = "X-1" },
		"predicate.lab":                    func(p *Predicate) { p.Lab = "Lab" },
		"predicate.limits":                 func(p *Predicate) { p.Limits = []string{"a limit"} },
		"predicate.requirements[0].method": func(p *Predicate) { p.Requirements[0].Method = "a method" },
		"predicate.requirements[0].evidence.finding_samples": func(p *Predicate) {
			p.Requirements[0].Evidence.FindingSamples = []FindingSample{{Code: "A", Count: 1, RoundIDs: []string{}}}
		},
	} {
		c := *st
		c.Predicate.Requirements = append([]Requirement{}, st.Predicate.Requirements...)
		edit(&c.Predicate)
		err := c.Validate()
		var fe *FormatError
		require.True(t, errors.As(err, &fe), "%s: %v", name, err)
		assert.Equal(t, name, fe.Field)
		assert.Contains(t, err.Error(), "not a member of version 1")
	}
}

// TestPagesNameTheCertificate: the three pages name what the certificate
// says of itself; JUnit names only the verified signers.
func TestPagesNameTheCertificate(t *testing.T) {
	st := sampleStatement(t)
	env, err := Sign(st, labKey(t), regulatorKey(t))
	require.NoError(t, err)
	p := st.Predicate
	o := PageOptions{Verified: keyIDs(env)[:1]}
	html, err := RenderHTMLWith(st, env, o)
	require.NoError(t, err)
	md, err := RenderSummaryWith(st, env, o)
	require.NoError(t, err)
	junit, err := RenderJUnitWith(st, env, o)
	require.NoError(t, err)
	for name, page := range map[string]string{"report.html": string(html), "summary.md": string(md), "report.xml": string(junit)} {
		for _, want := range []string{p.CertificateID, p.Suite.Name, p.Suite.Version, p.Suite.SHA256(), "Example Testing Laboratory Ltd",
			"ACME Gaming Ltd", "Malta", p.Games[0].ProfileHash, "2026-02-01T00:00:00Z", "2026-02-28T23:59:59.5Z",
			"stats.raw-nist", "aa-bonus-optimal", "re-deal and re-settlement of every logged round", "rng-2-001207", keyIDs(env)[0]} {
			assert.Contains(t, page, want, name)
		}
		assert.NotContains(t, page, keyIDs(env)[1], "%s names only the verified signer", name)
	}
	var doc junitSuites
	require.NoError(t, xml.Unmarshal(junit, &doc))
	props := map[string]string{}
	for _, pr := range doc.Suite.Properties {
		props[pr.Name] = pr.Value
	}
	assert.Equal(t, p.CertificateID, props["certificate_id"])
	assert.Equal(t, "Example Testing Laboratory Ltd", props["lab"])
	assert.Equal(t, "ACME Gaming Ltd", props["operator"])
	assert.Equal(t, "Malta", props["jurisdiction"])
	assert.Equal(t, "2026-02-01T00:00:00Z", props["period.first"])
	assert.Contains(t, props["signer"], keyIDs(env)[0])

	// The verify command: KEY.pub without key files, the files and the
	// subjects' directory as given, quoted for a shell when they need it.
	for _, tc := range []struct {
		o    PageOptions
		want string
	}{
		{PageOptions{}, "fairhold report verify report.json --key KEY.pub"},
		{PageOptions{Verified: keyIDs(env)}, "fairhold report verify report.json --key KEY.pub"},
		{PageOptions{Verified: keyIDs(env), KeyFiles: map[string]string{keyIDs(env)[1]: "../keys/lab.pub"}, Subjects: "../.."},
			"fairhold report verify report.json --key ../keys/lab.pub --key KEY.pub --subjects ../.."},
		{PageOptions{Verified: keyIDs(env), KeyFiles: map[string]string{keyIDs(env)[0]: "a b.pub", keyIDs(env)[1]: "it's.pub"}, Subjects: "my logs"},
			`fairhold report verify report.json --key 'a b.pub' --key 'it'\''s.pub' --subjects 'my logs'`},
	} {
		md, err := RenderSummaryWith(st, env, tc.o)
		require.NoError(t, err)
		assert.Contains(t, string(md), "```sh\n"+tc.want+"\n```\n")
		html, err := RenderHTMLWith(st, env, tc.o)
		require.NoError(t, err)
		m := regexp.MustCompile(`<pre id="verify-command">([^<]*)</pre>`).FindStringSubmatch(string(html))
		require.NotNil(t, m)
		assert.Equal(t, tc.want, strings.NewReplacer("&#39;", "'", "&#34;", `"`, "&amp;", "&").Replace(m[1]))
	}
}
