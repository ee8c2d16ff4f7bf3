package commitlog

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func hash(label string) *[32]byte {
	h := sha256.Sum256([]byte(label))
	return &h
}

func sampleEntries() []*Entry {
	return []*Entry{
		{Operator: "acme-casino", Table: "rng-1", Player: "p-42", Scheme: SchemeFairholdV1, Commitment: hash("a"), FirstNonce: 0, BeaconChain: BeaconQuicknet, BeaconRound: 1000},
		{Operator: "acme-casino", Table: "live-7", Scheme: SchemeFairholdV1, ChainAnchor: hash("b")},
		{Operator: "acme-casino", Table: "rng-1", Player: "p-43", Scheme: SchemeStakeCompat, Commitment: hash("c"), FirstNonce: 18446744073709551615},
	}
}

func TestEntryRoundTrip(t *testing.T) {
	for _, e := range sampleEntries() {
		b, err := e.Marshal()
		require.NoError(t, err)
		got, err := Unmarshal(b)
		require.NoError(t, err, string(b))
		assert.Equal(t, e, got)
		again, err := got.Marshal()
		require.NoError(t, err)
		assert.Equal(t, b, again)

		j, err := json.Marshal(e)
		require.NoError(t, err)
		var fromJSON Entry
		require.NoError(t, json.Unmarshal(j, &fromJSON), string(j))
		assert.Equal(t, e, &fromJSON)
	}
	b, _ := sampleEntries()[0].Marshal()
	assert.Equal(t, "fairhold-commitment/v1\noperator acme-casino\ntable rng-1\nplayer p-42\nscheme fairhold/v1\n"+
		"commitment ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb\nfirst-nonce 0\nbeacon quicknet 1000\n", string(b))
}

func TestEntryRejectsNonCanonical(t *testing.T) {
	good, err := sampleEntries()[0].Marshal()
	require.NoError(t, err)
	s := string(good)
	cases := map[string]struct{ in, field string }{
		"no final LF":       {strings.TrimSuffix(s, "\n"), "entry"},
		"CRLF":              {strings.ReplaceAll(s, "\n", "\r\n"), "entry"},
		"trailing blank":    {s + "\n", "entry"},
		"upper hex":         {strings.Replace(s, "ca978112", "CA978112", 1), "commitment"},
		"leading zero":      {strings.Replace(s, "first-nonce 0", "first-nonce 00", 1), "first-nonce"},
		"nonce overflow":    {strings.Replace(s, "first-nonce 0", "first-nonce 18446744073709551616", 1), "first-nonce"},
		"plus sign":         {strings.Replace(s, "first-nonce 0", "first-nonce +0", 1), "first-nonce"},
		"two spaces":        {strings.Replace(s, "table rng-1", "table  rng-1", 1), "table"},
		"trailing space":    {strings.Replace(s, "table rng-1", "table rng-1 ", 1), "table"},
		"swapped lines":     {strings.Replace(s, "operator acme-casino\ntable rng-1", "table rng-1\noperator acme-casino", 1), "operator"},
		"repeated line":     {strings.Replace(s, "table rng-1\n", "table rng-1\ntable rng-1\n", 1), "scheme"},
		"unknown line":      {s + "note hi\n", "entry"},
		"bad header":        {strings.Replace(s, "/v1", "/v2", 1), "header"},
		"bad scheme":        {strings.Replace(s, "fairhold/v1\ncommitment", "fairhold/v2\ncommitment", 1), "scheme"},
		"beacon round zero": {strings.Replace(s, "quicknet 1000", "quicknet 0", 1), "beacon"},
		"beacon chain":      {strings.Replace(s, "quicknet", "mainnet", 1), "beacon"},
		"short hash":        {strings.Replace(s, "ca978112", "ca97811", 1), "commitment"},
		"no commitment":     {strings.Replace(s, "commitment ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb\nfirst-nonce 0\n", "", 1), "commitment"},
		"anchor and nonce":  {strings.Replace(s, "commitment ", "chain-anchor ", 1), "entry"},
		"utf8 id":           {strings.Replace(s, "acme-casino", "acmé", 1), "entry"},
		"empty":             {"", "entry"},
		"too long":          {s + strings.Repeat("x", MaxEntrySize), "entry"},
	}
	for name, c := range cases {
		_, err := Unmarshal([]byte(c.in))
		require.Error(t, err, name)
		assert.True(t, errors.Is(err, ErrNotCanonical), name)
		var fe *FieldError
		require.True(t, errors.As(err, &fe), name)
		assert.Equal(t, c.field, fe.Field, "%s: %v", name, err)
	}
}

func TestEntryValidate(t *testing.T) {
	bad := []*Entry{
		{Operator: "", Table: "t", Scheme: SchemeFairholdV1, Commitment: hash("x")},
		{Operator: "o", Table: "t t", Scheme: SchemeFairholdV1, Commitment: hash("x")},
		{Operator: "o", Table: "t", Scheme: SchemeFairholdV1},
		{Operator: "o", Table: "t", Scheme: SchemeFairholdV1, Commitment: hash("x"), ChainAnchor: hash("y")},
		{Operator: "o", Table: "t", Scheme: SchemeFairholdV1, ChainAnchor: hash("y"), FirstNonce: 3},
		{Operator: "o", Table: "t", Scheme: SchemeFairholdV1, Commitment: hash("x"), BeaconChain: BeaconQuicknet},
		{Operator: "o", Table: "t", Scheme: SchemeStakeCompat, Commitment: hash("x"), BeaconChain: BeaconQuicknet, BeaconRound: 1},
		{Operator: strings.Repeat("o", MaxIDLen+1), Table: "t", Scheme: SchemeFairholdV1, Commitment: hash("x")},
	}
	for i, e := range bad {
		_, err := e.Marshal()
		assert.Error(t, err, "case %d", i)
	}
}

func TestEntryJSONStrict(t *testing.T) {
	for name, doc := range map[string]string{
		"unknown field":   `{"operator":"o","table":"t","scheme":"fairhold/v1","commitment":"` + strings.Repeat("ab", 32) + `","first_nonce":"0","x":1}`,
		"numeric nonce":   `{"operator":"o","table":"t","scheme":"fairhold/v1","commitment":"` + strings.Repeat("ab", 32) + `","first_nonce":0}`,
		"missing nonce":   `{"operator":"o","table":"t","scheme":"fairhold/v1","commitment":"` + strings.Repeat("ab", 32) + `"}`,
		"nonce no commit": `{"operator":"o","table":"t","scheme":"fairhold/v1","chain_anchor":"` + strings.Repeat("ab", 32) + `","first_nonce":"0"}`,
		"upper hex":       `{"operator":"o","table":"t","scheme":"fairhold/v1","commitment":"` + strings.Repeat("AB", 32) + `","first_nonce":"0"}`,
	} {
		var e Entry
		assert.Error(t, json.Unmarshal([]byte(doc), &e), name)
	}
}

// FuzzMalleability checks, in the style of filippo.io/age's test of the
// same name, that every input Unmarshal accepts is exactly the encoding
// Marshal writes: no two byte strings decode to the same entry.
func FuzzMalleability(f *testing.F) {
	for _, e := range sampleEntries() {
		b, _ := e.Marshal()
		f.Add(b)
	}
	f.Add([]byte("fairhold-commitment/v1\noperator o\ntable t\nscheme fairhold/v1\nchain-anchor " + strings.Repeat("0", 64) + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Unmarshal(data)
		if err != nil {
			return
		}
		out, err := e.Marshal()
		if err != nil {
			t.Fatalf("Unmarshal accepted an entry Marshal refuses: %v", err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("malleable: %q re-encodes as %q", data, out)
		}
	})
}
