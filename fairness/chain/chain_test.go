package chain

import (
	"bytes"
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testChain(t testing.TB, n int) Chain {
	t.Helper()
	var last seed.Seed
	for i := range last {
		last[i] = byte(i)
	}
	return FromLast(last, n)
}

func TestFromLastLinks(t *testing.T) {
	c := testChain(t, 5)
	require.Len(t, c.Links, 6)
	assert.Equal(t, 5, c.Len())
	for i := 1; i < len(c.Links); i++ {
		assert.Equal(t, [32]byte(c.Links[i-1]), sha256.Sum256(c.Links[i][:]), "link %d", i)
	}
	// A chain of length 1: the anchor is the seed's commitment.
	one := FromLast(c.Links[5], 1)
	assert.Equal(t, seed.Commit(c.Links[5]).Hex(), one.Anchor().Hex())
}

func TestVerify(t *testing.T) {
	c := testChain(t, 10)
	for i := 1; i <= 10; i++ {
		steps, err := Verify(c.Links[i], c.Anchor(), 10)
		require.NoError(t, err, "link %d", i)
		assert.Equal(t, i, steps)
		require.NoError(t, VerifyAt(c.Links[i], c.Anchor(), uint64(i)))
		// Against the previous link (the last verified one).
		steps, err = Verify(c.Links[i], c.Links[i-1], 1)
		require.NoError(t, err)
		assert.Equal(t, 1, steps)
	}
	// Beyond the bound.
	_, err := Verify(c.Links[10], c.Anchor(), 9)
	assert.ErrorIs(t, err, ErrNotInChain)
	// Wrong distance.
	assert.ErrorIs(t, VerifyAt(c.Links[4], c.Anchor(), 3), ErrNotInChain)
	assert.ErrorIs(t, VerifyAt(c.Links[4], c.Anchor(), 0), ErrLength)
	// A broken link.
	bad := c.Links[3]
	bad[0] ^= 1
	_, err = Verify(bad, c.Anchor(), 100)
	assert.ErrorIs(t, err, ErrNotInChain)
	// The anchor itself is not a link of its own chain.
	_, err = Verify(c.Anchor(), c.Anchor(), 100)
	assert.ErrorIs(t, err, ErrNotInChain)
}

func TestNew(t *testing.T) {
	c, err := New(3)
	require.NoError(t, err)
	_, err = Verify(c.Links[3], c.Anchor(), 3)
	require.NoError(t, err)
	_, err = New(0)
	assert.ErrorIs(t, err, ErrLength)
}

func TestMarshalParse(t *testing.T) {
	c := testChain(t, 3)
	b := c.Marshal()
	assert.True(t, strings.HasPrefix(string(b), "fairhold-chain/v1\n"))
	assert.Equal(t, 4, strings.Count(string(b), "\n")-1)
	got, err := Parse(bytes.NewReader(b))
	require.NoError(t, err)
	assert.Equal(t, c, got)

	lines := strings.SplitAfter(string(b), "\n")
	tests := map[string]string{
		"empty":          "",
		"no header":      strings.Join(lines[1:], ""),
		"anchor only":    lines[0] + lines[1],
		"no newline":     strings.TrimSuffix(string(b), "\n"),
		"crlf":           strings.ReplaceAll(string(b), "\n", "\r\n"),
		"uppercase":      lines[0] + strings.ToUpper(lines[1]) + strings.Join(lines[2:], ""),
		"broken link":    lines[0] + lines[1] + lines[3] + lines[2] + lines[4],
		"short link":     lines[0] + lines[1][2:] + strings.Join(lines[2:], ""),
		"trailing blank": string(b) + "\n",
	}
	for name, in := range tests {
		_, err := Parse(strings.NewReader(in))
		assert.Error(t, err, name)
		if err != nil {
			assert.NotContains(t, err.Error(), c.Links[2].Hex()[:16], name)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(testChain(f, 2).Marshal())
	f.Add([]byte("fairhold-chain/v1\n"))
	f.Add([]byte("fairhold-chain/v1\nzz\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := Parse(bytes.NewReader(in))
		if err != nil {
			return
		}
		// Parse then marshal reproduces the input byte for byte.
		assert.Equal(t, in, c.Marshal())
	})
}

func BenchmarkVerify1000(b *testing.B) {
	c := testChain(b, 1000)
	for b.Loop() {
		if _, err := Verify(c.Links[1000], c.Anchor(), 1000); err != nil {
			b.Fatal(err)
		}
	}
}
