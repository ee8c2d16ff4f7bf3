package commitlog

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTimelinePublicBy(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	tl := NewTimeline([]TimedCheckpoint{
		{Size: 10, PublicBy: t0.Add(3 * time.Hour), Evidence: "late small"},
		{Size: 5, PublicBy: t0, Evidence: "first"},
		{Size: 20, PublicBy: t0.Add(time.Hour), Evidence: "larger earlier"},
	})
	require.Equal(t, 3, tl.Len())

	at, ev, ok := tl.PublicBy(0)
	require.True(t, ok)
	require.Equal(t, t0, at)
	require.Equal(t, "first", ev)

	// Entry 7 is in the checkpoints of size 10 and 20; the size-20 one was
	// cosigned earlier, so it bounds the entry.
	at, ev, ok = tl.PublicBy(7)
	require.True(t, ok)
	require.Equal(t, t0.Add(time.Hour), at)
	require.Equal(t, "larger earlier", ev)

	at, _, ok = tl.PublicBy(19)
	require.True(t, ok)
	require.Equal(t, t0.Add(time.Hour), at)

	_, _, ok = tl.PublicBy(20)
	require.False(t, ok, "no timed checkpoint covers entry 20")

	var empty *Timeline
	_, _, ok = empty.PublicBy(0)
	require.False(t, ok)
	require.Zero(t, empty.Len())
}
