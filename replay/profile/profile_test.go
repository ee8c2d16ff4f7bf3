package profile

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuiltins(t *testing.T) {
	require.Equal(t, []string{"casino-holdem", "double-holdem", "live-casino-holdem"}, Names())
	for _, n := range Names() {
		t.Run(n, func(t *testing.T) {
			p, err := Builtin(n)
			require.NoError(t, err)
			assert.Equal(t, n, p.Name)
			assert.Equal(t, n, p.Game)
			// Canonical form round-trips byte for byte.
			c := p.Canonical()
			q, err := Parse(c)
			require.NoError(t, err)
			assert.Equal(t, string(c), string(q.Canonical()))
			assert.Equal(t, p.Hash(), q.Hash())
			assert.Len(t, p.Hash(), 64)
			// Load by name gives the same profile.
			l, err := Load(n)
			require.NoError(t, err)
			assert.Equal(t, p.Hash(), l.Hash())
		})
	}
}

func TestBuiltinFacts(t *testing.T) {
	p, err := Builtin("casino-holdem")
	require.NoError(t, err)
	c := p.Casino
	require.NotNil(t, c)
	require.NotNil(t, c.Bonus)
	assert.Equal(t, hand.MinPair(card.Four), c.DealerQualifier.Value())
	assert.Equal(t, hand.MinPair(card.Ace), c.Bonus.MinHand.Value())
	assert.Equal(t, int64(100), c.AntePaytable.Pays(hand.RoyalFlush))
	assert.Equal(t, int64(1), c.AntePaytable.Pays(hand.Straight))
	assert.Equal(t, int64(25), c.Bonus.Paytable.Pays(hand.Flush))
	assert.Equal(t, int64(7), c.Bonus.Paytable.Pays(hand.Straight))
	var claims []string
	for _, r := range p.RTPClaims {
		claims = append(claims, r.Strategy+"/"+r.Bet+"="+r.Percent)
	}
	assert.ElementsMatch(t, []string{"basic/main=98.7", "basic/aa-bonus=89.6", "optimal/main=99.18",
		"optimal/aa-bonus=90.9", "side-bet-optimal/main=98.7", "side-bet-optimal/aa-bonus=93.60"}, claims)

	d, err := Builtin("double-holdem")
	require.NoError(t, err)
	assert.Equal(t, NoLimit, d.Double.Structure)
	assert.Equal(t, 3, d.Double.SuitRank(card.Spades))
	assert.Equal(t, 0, d.Double.SuitRank(card.Clubs))
}

// mutate returns the built-in's JSON with the value at the dotted path
// replaced (or deleted when v is deleteMe).
func mutate(t *testing.T, name, path string, v any) []byte {
	p, err := Builtin(name)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(p.Canonical(), &m))
	keys := strings.Split(path, ".")
	cur := m
	for _, k := range keys[:len(keys)-1] {
		next, ok := cur[k].(map[string]any)
		require.True(t, ok, "path %s", path)
		cur = next
	}
	if v == deleteMe {
		delete(cur, keys[len(keys)-1])
	} else {
		cur[keys[len(keys)-1]] = v
	}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return b
}

var deleteMe = &struct{}{}

func TestBadProfiles(t *testing.T) {
	for _, c := range []struct {
		profile, path string
		v             any
		field, reason string
	}{
		{"casino-holdem", "casino.ante_paytable.flush", 0, "casino.ante_paytable.flush", "not monotone"},
		{"casino-holdem", "casino.ante_paytable.full-house", -3, "casino.ante_paytable.full-house", "want 0 to"},
		{"casino-holdem", "casino.ante_paytable.flush", deleteMe, "casino.ante_paytable.flush", "missing"},
		{"casino-holdem", "casino.ante_paytable.five-of-a-kind", 500, "casino.ante_paytable.five-of-a-kind", "unknown hand category"},
		{"casino-holdem", "casino.ante_paytable.flush", "2", "casino.ante_paytable", "want"},
		{"casino-holdem", "casino.dealer_qualifier.category", "pair", "casino.dealer_qualifier.category", "not a hand category"},
		{"casino-holdem", "casino.dealer_qualifier.pair", "1", "casino.dealer_qualifier.pair", "want a rank"},
		{"casino-holdem", "casino.dealer_qualifier", map[string]any{"category": "flush", "pair": "4"}, "casino.dealer_qualifier.pair", "only allowed"},
		{"casino-holdem", "casino.limits.ante_min", -5, "casino.limits.ante_min", "positive"},
		{"casino-holdem", "casino.limits.ante_max", 50, "casino.limits.ante_max", "at least ante_min"},
		{"casino-holdem", "casino.limits.ante_max", int64(1) << 60, "casino.limits.ante_max", "overflows"},
		// Each box fits, but six boxes at the limits do not.
		{"live-casino-holdem", "casino.limits.ante_max", int64(2e16), "casino.limits.ante_max", "round of 6 boxes overflows"},
		{"casino-holdem", "casino.limits.max_payout_per_box", -1, "casino.limits.max_payout_per_box", "no cap"},
		{"casino-holdem", "casino.aa_bonus.max", -1, "casino.aa_bonus.max", "at least min"},
		{"casino-holdem", "casino.aa_bonus.paytable.high-card", 1, "casino.aa_bonus.paytable.high-card", "below min_hand"},
		{"casino-holdem", "casino.limits.ante_maximum", 5, "casino.limits.ante_maximum", "unknown field"},
		{"casino-holdem", "casino.unfinished_round", "ask", "casino.unfinished_round", "want"},
		{"casino-holdem", "casino.call_multiple", 0, "casino.call_multiple", "want 1 to 100"},
		{"casino-holdem", "casino.boxes", 7, "casino.boxes", "want 1 to 6"},
		{"casino-holdem", "casino.max_payout_scope", "stakes", "casino.max_payout_scope", "want"},
		{"casino-holdem", "version", 0, "version", ">= 1"},
		{"casino-holdem", "name", "Casino Holdem", "name", "lower-case"},
		{"casino-holdem", "game", "blackjack", "game", "want"},
		{"casino-holdem", "double", map[string]any{}, "double", "not allowed"},
		{"casino-holdem", "casino", deleteMe, "casino", "missing"},
		{"casino-holdem", "extra", true, "extra", "unknown field"},
		{"casino-holdem", "rtp_claims", []any{map[string]any{"name": "x", "bet": "main", "strategy": "optimal", "percent": "99.18", "decimals": 1, "denominator": "ante+call", "source": ""}}, "rtp_claims[0].decimals", "decimal places"},
		{"casino-holdem", "rtp_claims", []any{map[string]any{"name": "x", "bogus": 1}}, "rtp_claims[0].bogus", "unknown field"},
		{"casino-holdem", "rtp_claims", []any{claimAt(50)}, "rtp_claims[0].at_ante", "want an ante the profile allows, 100 to 50000"},
		{"casino-holdem", "rtp_claims", []any{claimAt(50_001)}, "rtp_claims[0].at_ante", "want an ante the profile allows"},
		{"casino-holdem", "rtp_claims", []any{claimAt(-100)}, "rtp_claims[0].at_ante", "want an ante the profile allows"},
		{"double-holdem", "rtp_claims", []any{claimAt(100)}, "rtp_claims[0].at_ante", "only a Casino Hold'em claim"},
		{"double-holdem", "double.structure", "spread-limit", "double.structure", "want"},
		{"double-holdem", "double.big_blind", 10, "double.big_blind", "at least small_blind"},
		{"double-holdem", "double.rake.rate_bp", 10001, "double.rake.rate_bp", "basis points"},
		{"double-holdem", "double.suit_order", "sshc", "double.suit_order", "four letters"},
		{"double-holdem", "double.fixed_limit.max_bets", 4, "double.fixed_limit", "want all zero"},
		{"double-holdem", "double.seats_max", 11, "double.seats_max", "to 10"},
		{"double-holdem", "double.auto_bonus_tie", "lowest", "double.auto_bonus_tie", "want"},
	} {
		t.Run(c.field+"/"+c.reason, func(t *testing.T) {
			_, err := Parse(mutate(t, c.profile, c.path, c.v))
			require.Error(t, err)
			var fe *FieldError
			require.True(t, errors.As(err, &fe), "%T %v", err, err)
			assert.Equal(t, c.field, fe.Field, "%v", err)
			assert.Contains(t, fe.Reason, c.reason)
		})
	}
}

// The ANTE + CALL return and the AA Bonus return of a box fit in an int64
// each, but not their sum: the profile is invalid, so that no sum of one
// round's stakes or returns can overflow.
func TestBadProfileRoundOverflow(t *testing.T) {
	var m map[string]any
	require.NoError(t, json.Unmarshal(mutate(t, "casino-holdem", "casino.limits.ante_max", int64(8e16)), &m))
	m["casino"].(map[string]any)["aa_bonus"].(map[string]any)["max"] = int64(1e17)
	b, err := json.Marshal(m)
	require.NoError(t, err)
	_, err = Parse(b)
	var fe *FieldError
	require.True(t, errors.As(err, &fe), "%T %v", err, err)
	assert.Equal(t, "casino.limits.ante_max", fe.Field)
	assert.Contains(t, fe.Reason, "round of 1 boxes overflows")
}

func TestParseRejectsMalformed(t *testing.T) {
	p, err := Builtin("casino-holdem")
	require.NoError(t, err)
	good := string(p.Canonical())
	for name, doc := range map[string]string{
		"trailing":  good + "{}",
		"duplicate": strings.Replace(good, `"version":2`, `"version":2,"version":3`, 1),
		"truncated": good[:len(good)/2],
		"not json":  "profile",
	} {
		_, err := Parse([]byte(doc))
		assert.Error(t, err, name)
	}
	_, err = Parse([]byte(strings.Replace(good, `"version":2`, `"version":2,"version":3`, 1)))
	var fe *FieldError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "version", fe.Field)
}

func TestCanonicalIgnoresLayout(t *testing.T) {
	p, err := Builtin("live-casino-holdem")
	require.NoError(t, err)
	raw, err := os.ReadFile("builtin/live-casino-holdem.json")
	require.NoError(t, err)
	assert.NotEqual(t, string(raw), string(p.Canonical()), "the built-in file is indented, not canonical")
	// Member order, whitespace and an absent versus empty list do not change the hash.
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	delete(m, "rtp_claims")
	b, err := json.MarshalIndent(m, "", "\t")
	require.NoError(t, err)
	q, err := Parse(b)
	require.NoError(t, err)
	assert.Equal(t, p.Hash(), q.Hash())
	// Any change of a setting changes the hash.
	q.Casino.Limits.MaxPayoutPerBox++
	assert.NotEqual(t, p.Hash(), q.Hash())
}

func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "casino.json")
	require.NoError(t, os.WriteFile(f, mutate(t, "casino-holdem", "casino.ante_paytable.flush", 0), 0o644))
	_, err := Load(f)
	require.Error(t, err)
	assert.Equal(t, "profile "+f+": casino.ante_paytable.flush: 0: not monotone; pays less than straight (1)", err.Error())

	_, err = Load("no-such-profile")
	assert.ErrorIs(t, err, ErrUnknownBuiltin)

	ok := filepath.Join(dir, "ok.json")
	require.NoError(t, os.WriteFile(ok, mutate(t, "double-holdem", "double.structure", PotLimit), 0o644))
	p, err := Load(ok)
	require.NoError(t, err)
	assert.Equal(t, PotLimit, p.Double.Structure)
	b, _ := Builtin("double-holdem")
	assert.NotEqual(t, b.Hash(), p.Hash())
}

func FuzzCanonical(f *testing.F) {
	for _, n := range Names() {
		p, _ := Builtin(n)
		f.Add(p.Canonical())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Parse(b)
		if err != nil {
			return
		}
		c := p.Canonical()
		q, err := Parse(c)
		require.NoError(t, err)
		assert.Equal(t, string(c), string(q.Canonical()))
	})
}

// TestDocsListHashes keeps docs/rules-profiles.md in step with the
// built-ins: it must print each built-in's current hash.
func TestDocsListHashes(t *testing.T) {
	doc, err := os.ReadFile("../../docs/rules-profiles.md")
	require.NoError(t, err)
	for _, n := range Names() {
		p, err := Builtin(n)
		require.NoError(t, err)
		assert.Contains(t, string(doc), "| `"+n+"` |", "docs list %s", n)
		assert.Contains(t, string(doc), "`"+p.Hash()+"`", "docs/rules-profiles.md has a stale hash for %s", n)
	}
}

// TestDocsCoverEveryField: every JSON field of a profile is documented.
func TestDocsCoverEveryField(t *testing.T) {
	doc, err := os.ReadFile("../../docs/rules-profiles.md")
	require.NoError(t, err)
	seen := map[reflect.Type]bool{}
	var walk func(rt reflect.Type)
	walk = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] {
			return
		}
		seen[rt] = true
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			assert.Contains(t, string(doc), tag, "docs/rules-profiles.md does not mention %s.%s (%q)", rt.Name(), f.Name, tag)
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(Profile{}))
	assert.Greater(t, len(seen), 6)
}

// claimAt is a well-formed claim stated at ante.
func claimAt(ante int64) map[string]any {
	return map[string]any{"name": "x", "bet": "main", "strategy": "optimal", "percent": "99.18", "decimals": 2,
		"denominator": "ante+call", "source": "", "at_ante": ante}
}

// A claim stated at an ante the table allows parses and keeps it; without
// one the canonical form has no at_ante (the built-in hashes stand).
func TestClaimAtAnte(t *testing.T) {
	p, err := Parse(mutate(t, "casino-holdem", "rtp_claims", []any{claimAt(500)}))
	require.NoError(t, err)
	assert.EqualValues(t, 500, p.RTPClaims[0].AtAnte)
	assert.Contains(t, string(p.Canonical()), `"at_ante":500`)
	b, err := Builtin("casino-holdem")
	require.NoError(t, err)
	assert.NotContains(t, string(b.Canonical()), "at_ante")
}
