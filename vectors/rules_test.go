package vectors

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRulesLoad(t *testing.T) {
	vs, err := Rules()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(vs), 120)
	games := map[string]int{}
	for _, v := range vs {
		assert.Equal(t, v.ID+".json", v.File, "file named after its id")
		assert.True(t, strings.HasPrefix(v.ID, map[string]string{"casino-holdem": "casino-", "live-casino-holdem": "live-", "double-holdem": "double-"}[v.Game]), v.ID)
		assert.NotEmpty(t, v.Description, v.ID)
		assert.NotEmpty(t, v.Rule, v.ID)
		games[v.Game]++
	}
	assert.Len(t, games, 3)
}

func TestParseRulesVectorStrict(t *testing.T) {
	good := `{"id":"x","game":"casino-holdem","description":"d","rule":"r","profile":"casino-holdem","round":{},"expect":{"boxes":[]}}`
	_, err := ParseRulesVector([]byte(good))
	require.NoError(t, err)
	for name, doc := range map[string]string{
		"unknown field": strings.Replace(good, `"rule":"r"`, `"rule":"r","note":1`, 1),
		"trailing":      good + "{}",
		"two expects":   strings.Replace(good, `"boxes":[]`, `"boxes":[],"error":{"kind":"round"}`, 1),
		"no expect":     strings.Replace(good, `"boxes":[]`, ``, 1),
		"no id":         strings.Replace(good, `"id":"x"`, `"id":""`, 1),
	} {
		_, err := ParseRulesVector([]byte(doc))
		assert.Error(t, err, name)
	}
}
