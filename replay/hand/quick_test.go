package hand

import (
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCactusKevExamples(t *testing.T) {
	// reference README §1.
	for s, want := range map[string]int{
		"As Ks Qs Js Ts": 1, "As Ac Ad Ah 5h": 19, "4s 4c 4d 2s 2h": 298, "Ts 7s 4s 3s 2s": 1542,
		"As Ks Qd Jh Td": 1600, "As Ac Ad Jd 5d": 1636, "As Ac Jc Jd 5d": 2497, "As Ac Jc 7h 5d": 3448,
		"As Ks Jc 7h 5d": 6252, "7s 5d 4c 3h 2h": 7462,
	} {
		cs, err := card.ParseN(s, 5)
		require.NoError(t, err)
		v, err := Eval(cs...)
		require.NoError(t, err)
		assert.Equal(t, want, v.CactusKev(), s)
		back, ok := FromCactusKev(want)
		assert.True(t, ok)
		assert.Equal(t, v, back)
	}
	assert.Len(t, refTables(), 7462)
}
