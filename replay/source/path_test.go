package source

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIsURL(t *testing.T) {
	for p, want := range map[string]bool{
		"s3://b/x": true, "gs://b": true, "azblob://c/p": true, "day": false, "/tmp/day": false,
		"./s3://x": false, `C:\day`: false, "": false, "a.b://x": false,
	} {
		assert.Equal(t, want, IsURL(p), p)
	}
}

func TestURLPaths(t *testing.T) {
	assert.Equal(t, "s3://b/day/rounds/p.parquet", Join("s3://b/day", "rounds", "p.parquet"))
	assert.Equal(t, "s3://b/rounds", Join("s3://b", "rounds"))
	assert.Equal(t, "s3://b/day", Join("s3://b/day/", ""))
	assert.Equal(t, "s3://b/x", Join("s3://b/day", "../x"))
	assert.Equal(t, "s3://b", Join("s3://b/day", ".."))
	assert.Equal(t, "s3://b", Join("s3://b/day", "../../.."), "never above the bucket")
	d, f := Split("s3://b/day/rounds/p.parquet")
	assert.Equal(t, []string{"s3://b/day/rounds/", "p.parquet"}, []string{d, f})
	assert.Equal(t, "s3://b/day/rounds", Dir("s3://b/day/rounds/p.parquet"))
	assert.Equal(t, "s3://b", Dir("s3://b/day"))
	assert.Equal(t, "s3://b", Dir("s3://b"))
	assert.Equal(t, "rounds", Base(Clean("s3://b/day/rounds/")))
	assert.Equal(t, "s3://b/day/rounds", Clean("s3://b/day//rounds/./"))
	rel, err := Rel("s3://b/day", "s3://b/day/rounds/p.parquet")
	require.NoError(t, err)
	assert.Equal(t, "rounds/p.parquet", rel)
	rel, err = Rel("s3://b/day", "s3://b/day")
	require.NoError(t, err)
	assert.Equal(t, ".", rel)
	for _, targ := range []string{"s3://b/dayx/p", "s3://c/day/p", "day/p"} {
		_, err = Rel("s3://b/day", targ)
		assert.Error(t, err, targ)
	}
	assert.True(t, IsAbs("s3://b/x"))
}

// TestLocalPaths: a local path is path/filepath's.
func TestLocalPaths(t *testing.T) {
	for _, p := range []string{"day/rounds/p.parquet", "/tmp/day/", "day", ".", "a//b/../c"} {
		assert.Equal(t, filepath.Join(p, "x"), Join(p, "x"), p)
		assert.Equal(t, filepath.Dir(p), Dir(p), p)
		assert.Equal(t, filepath.Base(p), Base(p), p)
		assert.Equal(t, filepath.Clean(p), Clean(p), p)
		d, f := Split(p)
		wd, wf := filepath.Split(p)
		assert.Equal(t, []string{wd, wf}, []string{d, f}, p)
	}
	rel, err := Rel("/tmp/day", "/tmp/day/rounds/x")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join("rounds", "x"), rel)
}
