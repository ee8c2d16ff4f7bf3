package commitlog

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/commitlog/witnesstest"
)

// TestCosignLitewitness has a real witness (torchwood's litewitness on
// loopback) cosign the log's checkpoints over C2SP tlog-witness, and reads
// the cosignatures back through the evidence. Skipped unless
// FAIRHOLD_LITEWITNESS_DIR is set (.ci/run sets it).
func TestCosignLitewitness(t *testing.T) {
	w := witnesstest.Start(t, "witness.example/fairhold-test")
	dir, entries, cp1, cp2 := buildLog(t, 3, 4)
	ctx := context.Background()
	logVKey, err := VerifierKey(testOrigin, pub(testKey("log")))
	require.NoError(t, err)
	r, err := Open(dir, nil)
	require.NoError(t, err)

	// The witness does not know the log yet: refused.
	_, _, err = Cosign(ctx, nil, w.URL, w.VKey, r, cp1)
	var we *WitnessError
	require.True(t, errors.As(err, &we), "%v", err)
	assert.Equal(t, 403, we.Status)
	w.AddLog(t, testOrigin, logVKey)

	start := time.Now().Truncate(time.Second)
	// Size 3 first (the witness knows size 0), then size 7: the witness
	// answers 409 with 3 and gets the consistency proof 3 -> 7.
	n1, c1, err := Cosign(ctx, nil, w.URL, w.VKey, r, cp1)
	require.NoError(t, err)
	n2, c2, err := Cosign(ctx, nil, w.URL, w.VKey, r, cp2)
	require.NoError(t, err)
	end := time.Now()
	for _, c := range []*Cosignature{c1, c2} {
		assert.Equal(t, w.Name, c.Witness)
		assert.False(t, c.Time.Before(start), "%v", c.Time)
		assert.False(t, c.Time.After(end), "%v", c.Time)
	}
	// The same size again: consistent with itself.
	_, _, err = Cosign(ctx, nil, w.URL, w.VKey, r, cp2)
	require.NoError(t, err)
	// An older checkpoint, once the witness has seen a newer one.
	_, _, err = Cosign(ctx, nil, w.URL, w.VKey, r, cp1)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrVerification), "%v", err)
	assert.Contains(t, err.Error(), "has seen a tree of size 7")

	// A fork: another log under the same origin and key, of 10 entries.
	fork := t.TempDir()
	other := testEntries(10)
	for i := range other {
		other[i] = append([]byte(nil), other[i]...)
		e, err := Unmarshal(other[i])
		require.NoError(t, err)
		e.Table = fmt.Sprintf("fork-%d", i)
		other[i], err = e.Marshal()
		require.NoError(t, err)
	}
	res, err := Append(ctx, fork, testOrigin, testKey("log"), other)
	require.NoError(t, err)
	rf, err := Open(fork, nil)
	require.NoError(t, err)
	_, _, err = Cosign(ctx, nil, w.URL, w.VKey, rf, res.Checkpoint)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrVerification), "%v", err)
	require.True(t, errors.As(err, &we), "%v", err)
	assert.Equal(t, 422, we.Status)

	// Another witness key than this witness's: the answer is refused.
	stranger := newTestCosigner("w.example/stranger", t0)
	_, _, err = Cosign(ctx, nil, w.URL, stranger.vkey(), r, cp2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "without a cosignature by w.example/stranger")

	// The cosigned notes as evidence: the timeline bounds every entry.
	require.NoError(t, WriteEvidence(dir, n1, nil))
	require.NoError(t, WriteEvidence(dir, n2, nil))
	tl, err := loadTL(t, dir, cp2, Trust{Witnesses: []string{w.VKey}})
	require.NoError(t, err)
	require.Equal(t, 2, tl.Len())
	for i := range entries {
		at, ev, ok := tl.PublicBy(uint64(i))
		require.True(t, ok)
		assert.Contains(t, ev, w.Name)
		want := c2.Time
		if i < 3 && c1.Time.Before(want) {
			want = c1.Time
		}
		assert.Equal(t, want, at, "entry %d", i)
	}
}
