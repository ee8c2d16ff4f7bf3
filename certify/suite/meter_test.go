package suite

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/replayer"
)

// syncBuffer is a bytes.Buffer safe for the meter's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMeter: a check's work shows on the log every meterEvery, with its
// count grouped, its total and share when known; without a log nothing
// is counted or written.
func TestMeter(t *testing.T) {
	defer func(d time.Duration) { meterEvery = d }(meterEvery)
	meterEvery = 5 * time.Millisecond
	var log syncBuffer
	e := &env{opts: Options{Log: &log}}
	m := e.meter("replay", "rounds", 0)
	m.add(1_234_000)
	m.add(567)
	require.Eventually(t, func() bool { return strings.Contains(log.String(), "  replay: 1,234,567 rounds, ") }, 5*time.Second, time.Millisecond)
	m.end()
	m.end() // twice is harmless
	n := len(log.String())
	time.Sleep(4 * meterEvery)
	assert.Len(t, log.String(), n, "nothing after end")

	m = e.meter("exact solution", "flop classes", 1755)
	m.add(351)
	require.Eventually(t, func() bool {
		return strings.Contains(log.String(), "  exact solution: 351 of 1,755 flop classes (20%), ")
	}, 5*time.Second, time.Millisecond)
	m.end()

	var none *meter
	none.add(1)
	none.end()
	assert.Nil(t, (&env{}).meter("replay", "rounds", 0))
}

// TestRunShowsProgressInsideChecks: with a log, the replay's rounds show
// while it runs, before its requirement's line.
func TestRunShowsProgressInsideChecks(t *testing.T) {
	defer func(d time.Duration) { meterEvery = d }(meterEvery)
	meterEvery = time.Millisecond
	op := newOperator(t, 6000, "")
	doc := strings.Replace(shortSuite, `"answers": "answers.jsonl", "decks": "decks.txt", "raw": "raw.bin"`, `"answers": "answers.jsonl"`, 1)
	var log syncBuffer
	_, err := Run(context.Background(), op.suite(t, doc), Options{Log: &log, Workers: 1})
	require.NoError(t, err)
	out := log.String()
	i, j := strings.Index(out, "  replay: "), strings.Index(out, "replay.resettle")
	require.GreaterOrEqual(t, i, 0, "a progress line of the replay:\n%s", out)
	assert.Less(t, i, j, "the progress comes before the requirement's line")
}

// TestRotationText: the evidence's line names how many tables and players
// rotated, and the highest rate of each.
func TestRotationText(t *testing.T) {
	assert.Empty(t, rotationText(&replayer.Summary{}))
	s := &replayer.Summary{
		Rotations: []replayer.TableRotations{
			{Table: "a", RotationTest: replayer.RotationTest{Rounds: 100, Rotated: 1, Rate: 0.01}},
			{Table: "b", RotationTest: replayer.RotationTest{Rounds: 200, Rotated: 10, Rate: 0.05}},
		},
		PlayerRotations: []replayer.PlayerRotations{
			{Player: "p1", RotationTest: replayer.RotationTest{Rounds: 50, Rotated: 6, Rate: 0.12}},
			{Player: "p2", RotationTest: replayer.RotationTest{Rounds: 40, Rotated: 1, Rate: 0.025}},
			{Player: "p3", RotationTest: replayer.RotationTest{Rounds: 25, Rotated: 3, Rate: 0.12}},
		},
	}
	assert.Equal(t, "; client-seed rotations: 2 tables (highest b, 0.0500 of 200 rounds) 3 players (highest p1, 0.1200 of 50 rounds)", rotationText(s))
}
