package vectors

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommitlogLoad(t *testing.T) {
	vs, err := Commitlog()
	require.NoError(t, err)
	kinds := map[string]int{}
	for _, v := range vs {
		kinds[v.Kind+"/"+v.Expect]++
		if v.Tree != nil {
			assert.Len(t, v.Tree.EntriesHex, int(v.Tree.Size), v.ID)
			assert.Len(t, v.Tree.Inclusion, int(v.Tree.Size), v.ID)
			assert.True(t, strings.HasPrefix(v.Tree.Checkpoint, v.Tree.Origin+"\n"), v.ID)
		}
	}
	assert.GreaterOrEqual(t, kinds["entry/success"], 4)
	assert.GreaterOrEqual(t, kinds["entry/malformed"], 10)
	assert.Equal(t, 1, kinds["tree/"])
	assert.Equal(t, 1, kinds["cosigned/success"])
	assert.GreaterOrEqual(t, kinds["cosigned/invalid"], 1)
	_, err = ParseCommitlogVector([]byte(`{"id":"x","description":"d","kind":"entry","expect":"success","entry_hex":"00"}`))
	assert.Error(t, err, "success without leaf_hash")
	_, err = ParseCommitlogVector([]byte(`{"id":"x","description":"d","kind":"tree","extra":1}`))
	assert.Error(t, err, "unknown field")
}
