package replayer

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fairhold/fairhold/replay/finding"
)

// TestReplaySequences: a log whose table numbers its rounds replays with
// no warning; one whose table does not gets the Ledger's warning in the
// summary, with any number of workers; a round left out of a numbered log
// (the wallet re-chained) is a TABLE_SEQUENCE_GAP and a NONCE_SEQUENCE on
// the player's next round.
func TestReplaySequences(t *testing.T) {
	dir := t.TempDir()
	rs := genRounds(t, 600, 3)
	writeParquet(t, filepath.Join(dir, "numbered"), rs, 100)
	s, _ := runTo(t, []string{filepath.Join(dir, "numbered")}, 2, filepath.Join(dir, "a.jsonl"))
	assert.Empty(t, s.Findings)
	assert.Empty(t, tableWarnings(s.Warnings))

	plain := slices.Clone(rs)
	for i := range plain {
		plain[i].TableSeq, plain[i].WalletIDs = 0, nil
	}
	writeParquet(t, filepath.Join(dir, "plain"), plain, 100)
	for _, w := range []int{1, 3} {
		s, _ := runTo(t, []string{filepath.Join(dir, "plain")}, w, filepath.Join(dir, "b.jsonl"))
		assert.Empty(t, s.Findings)
		assert.Equal(t, []string{"table rng-1: 600 rounds without table_seq: a dropped round at this table cannot be seen",
			"table rng-1: 600 rounds without wallet_ids: money moved between two player ids of one wallet at this table cannot be seen"}, tableWarnings(s.Warnings))
	}

	// Round 300 (player 0's 100th) is dropped; player 0's next round is
	// 303, whose balance before is re-chained.
	dropped := slices.Delete(slices.Clone(rs), 300, 301)
	d := rs[303].Boxes[0].BalanceBefore - rs[300].Boxes[0].BalanceBefore
	for j := 302; j < len(dropped); j += 3 {
		dropped[j].Boxes[0].BalanceBefore -= d
		dropped[j].Boxes[0].BalanceAfter -= d
	}
	writeParquet(t, filepath.Join(dir, "dropped"), dropped, 100)
	s, _ = runTo(t, []string{filepath.Join(dir, "dropped")}, 2, filepath.Join(dir, "c.jsonl"))
	assert.Equal(t, map[finding.Code]int64{finding.TableSequenceGap: 1, finding.NonceSequence: 1}, s.Findings)
}

// tableWarnings keeps the warnings about tables (a dataset without a
// manifest has a warning of its own).
func tableWarnings(ws []string) []string {
	var out []string
	for _, w := range ws {
		if strings.HasPrefix(w, "table ") {
			out = append(out, w)
		}
	}
	return out
}
