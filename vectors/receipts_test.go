package vectors

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReceiptsLoad(t *testing.T) {
	vs, err := Receipts()
	require.NoError(t, err)
	kinds := map[string]int{}
	for _, v := range vs {
		kinds[v.Expect]++
		assert.Len(t, v.PublicKey, 64, v.ID)
	}
	assert.GreaterOrEqual(t, kinds["valid"], 4)
	assert.GreaterOrEqual(t, kinds["signature"], 3)
	assert.GreaterOrEqual(t, kinds["malformed"], 5)
	_, err = ParseReceiptVector([]byte(`{"id":"x","description":"d","operator":"o","public_key":"00","note":"n","line":"l","expect":"valid"}`))
	assert.Error(t, err, "valid without receipt")
	_, err = ParseReceiptVector([]byte(`{"id":"x","description":"d","operator":"o","public_key":"00","note":"n","line":"l","expect":"signature","extra":1}`))
	assert.Error(t, err, "unknown field")
}
