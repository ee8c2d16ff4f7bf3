package seed

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommitWorkedExample(t *testing.T) {
	// docs/fairness.md: printf '%s' 000102...1f | xxd -r -p | sha256sum
	s, err := Parse("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	require.NoError(t, err)
	c := Commit(s)
	assert.Equal(t, "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd", c.Hex())
	assert.True(t, Verify(s, c))
	c[31] ^= 1
	assert.False(t, Verify(s, c))
}

func TestNewIsFreshAndRedacted(t *testing.T) {
	a, err := New()
	require.NoError(t, err)
	b, err := New()
	require.NoError(t, err)
	assert.NotEqual(t, a, b)
	for _, out := range []string{fmt.Sprint(a), fmt.Sprintf("%v %s %#v", a, a, a), a.String()} {
		assert.NotContains(t, out, a.Hex()[:16])
	}
	assert.Len(t, a.Hex(), 64)
}

func TestParseErrors(t *testing.T) {
	secret := strings.Repeat("ab", 31)
	tests := []struct {
		in   string
		want error
	}{
		{secret + "a", ErrOddLength},
		{secret, ErrLength},
		{secret + "zz", ErrNotHex},
		{"0x" + secret, ErrNotHex},
		{"", ErrLength},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		require.Error(t, err)
		assert.ErrorIs(t, err, tt.want)
		assert.NotContains(t, err.Error(), "abab", "error must not repeat the secret")
	}
	s, err := Parse(strings.ToUpper(secret + "cd"))
	require.NoError(t, err)
	assert.Equal(t, secret+"cd", s.Hex())
}

func FuzzParse(f *testing.F) {
	f.Add("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	f.Add("abc")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			return
		}
		// One encoding per value, up to case.
		assert.Equal(t, strings.ToLower(in), s.Hex())
		c, err := ParseCommitment(in)
		require.NoError(t, err)
		assert.Equal(t, s.Hex(), c.Hex())
	})
}
