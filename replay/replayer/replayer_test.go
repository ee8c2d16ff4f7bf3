package replayer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// genRounds plays n honest single-box Casino Hold'em rounds for players
// players, each with its own server seed (rotated every 500 rounds),
// client seed, nonces and a chained balance. It is a small stand-in for
// the simulator, enough to test the driver.
func genRounds(t testing.TB, n, players int) []round.Round {
	t.Helper()
	return genRoundsVoiding(t, n, players, nil)
}

// genRoundsVoiding is genRounds where the operator voids, with a proper
// refund and reason "connection-lost", the rounds void chooses (k is the
// round's index, res its settlement had it been played).
func genRoundsVoiding(t testing.TB, n, players int, void func(k int, res casino.BoxResult) bool) []round.Round {
	t.Helper()
	p, err := profile.Builtin(round.CasinoHoldem)
	require.NoError(t, err)
	tb, err := casino.Compile(p)
	require.NoError(t, err)
	s, err := scheme.Lookup(scheme.FairholdV1Name)
	require.NoError(t, err)
	type player struct {
		seed    [32]byte
		epoch   int
		nonce   uint64
		balance int64
	}
	ps := make([]player, players)
	for i := range ps {
		ps[i].balance = 10_000_000
	}
	t0 := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	out := make([]round.Round, n)
	for k := range out {
		pl := &ps[k%players]
		if pl.nonce%500 == 0 {
			pl.epoch++
			pl.seed = sha256.Sum256(fmt.Appendf(nil, "seed %d %d", k%players, pl.epoch))
		}
		cm := sha256.Sum256(pl.seed[:])
		client := fmt.Sprintf("client-%d", k%players)
		nonce := pl.nonce % 500 // each seed's nonces count from 0
		dealt, err := s.Deal(scheme.Input{ServerSeed: pl.seed[:], ClientSeeds: []string{client}, Nonce: nonce}, 9)
		require.NoError(t, err)
		var cs [9]card.Card
		for i, x := range dealt {
			cs[i] = card.Card(x)
		}
		decision, d := "call", casino.Call
		if k%5 == 0 {
			decision, d = "fold", casino.Fold
		}
		ante, bonus := int64(100*(1+k%7)), int64(100*(k%2))
		res, err := tb.SettleBox(casino.Bets{Ante: ante, Bonus: bonus}, d, [2]card.Card(cs[0:2]), [2]card.Card(cs[2:4]), [5]card.Card(cs[4:9]))
		require.NoError(t, err)
		voided := void != nil && void(k, res)
		if voided {
			res, err = tb.Void(1, casino.Bets{Ante: ante, Bonus: bonus}, d)
			require.NoError(t, err)
		}
		at := t0.Add(time.Duration(k) * time.Second)
		b := round.Box{
			Box: 1, PlayerID: fmt.Sprintf("player-%d", k%players), Cards: card.Strings(cs[0:2]),
			AnteRequested: ante, Ante: ante, BonusRequested: bonus, Bonus: bonus, Decision: decision, Call: res.Call,
			AnteReturn: res.AnteReturn, CallReturn: res.CallReturn, BonusReturn: res.BonusReturn,
			BalanceBefore: pl.balance,
		}
		b.BalanceAfter = b.BalanceBefore - res.Staked() + res.Returned()
		pl.balance = b.BalanceAfter
		out[k] = round.Round{
			RoundID: fmt.Sprintf("r-%08d", k), Game: round.CasinoHoldem, TableID: "rng-1", TableSeq: uint64(k + 1),
			Time: at.Format(time.RFC3339), Currency: "EUR", Profile: p.Name, ProfileHash: p.Hash(),
			Fairness: round.Fairness{
				Scheme: scheme.FairholdV1Name, Commitment: hex.EncodeToString(cm[:]),
				CommittedAt: t0.Add(-time.Hour).Format(time.RFC3339), ServerSeed: hex.EncodeToString(pl.seed[:]),
				RevealedAt: t0.Add(10000 * time.Hour).Format(time.RFC3339), ClientSeeds: []string{client}, Nonce: nonce,
			},
			Dealer: card.Strings(cs[2:4]), Board: card.Strings(cs[4:9]), Boxes: []round.Box{b},
			WalletIDs: []string{fmt.Sprintf("wallet-%d", k%players)},
		}
		if voided {
			out[k].Void, out[k].VoidReason = true, "connection-lost"
		}
		pl.nonce++
	}
	return out
}

func writeParquet(t testing.TB, dir string, rs []round.Round, rowGroup int) {
	t.Helper()
	w, err := roundlog.NewParquetWriter(dir, roundlog.Options{RowGroupRounds: rowGroup, FileRounds: int64(3 * rowGroup)})
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
}

func writeJSONL(t testing.TB, path string, rs []round.Round) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	w, err := roundlog.NewJSONLWriter(f)
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
}

func config(t testing.TB) *audit.Config {
	rb, err := audit.NewRulebook(nil)
	require.NoError(t, err)
	return &audit.Config{Dealers: audit.SchemeDealers{}, Rules: rb, Double: audit.DoubleEngine{Rules: rb}}
}

// runTo replays paths with workers and returns the summary (seconds
// zeroed) and the findings file's bytes.
func runTo(t testing.TB, paths []string, workers int, findingsPath string) (*Summary, []byte) {
	t.Helper()
	fw, err := CreateFindings(findingsPath)
	require.NoError(t, err)
	s, err := Run(paths, Options{Workers: workers, Config: config(t), Findings: fw.Write})
	require.NoError(t, err)
	require.NoError(t, fw.Close())
	b, err := os.ReadFile(findingsPath)
	require.NoError(t, err)
	s.Seconds = 0
	return s, b
}

func TestReplayClean(t *testing.T) {
	dir := t.TempDir()
	rs := genRounds(t, 3000, 7)
	writeParquet(t, filepath.Join(dir, "pq"), rs, 400)
	s, b := runTo(t, []string{filepath.Join(dir, "pq")}, 2, filepath.Join(dir, "f.jsonl"))
	assert.Equal(t, int64(3000), s.Rounds)
	assert.Empty(t, s.Findings)
	assert.Empty(t, b)
	// Totals add up to what the rounds hold.
	var wag, ret int64
	for _, r := range rs {
		b := r.Boxes[0]
		wag += b.Ante + b.Call + b.Bonus
		ret += b.AnteReturn + b.CallReturn + b.BonusReturn
	}
	assert.Equal(t, wag, s.Wagered[round.CasinoHoldem]["EUR"][BetTotal])
	assert.Equal(t, ret, s.Returned[round.CasinoHoldem]["EUR"][BetTotal])
	assert.InDelta(t, float64(ret)/float64(wag), s.RTP[round.CasinoHoldem]["EUR"][BetTotal], 1e-12)
	assert.Equal(t, map[string]CurrencySeen{"EUR": {Decimals: 2, Source: "iso-4217", Rounds: 3000}}, s.Currencies)
	require.Len(t, s.Voids, 1)
	assert.Equal(t, "rng-1", s.Voids[0].Table)
	assert.Equal(t, int64(3000), s.Voids[0].Rounds)
	assert.Zero(t, s.Voids[0].Voids)
}

// faulty returns rounds with known faults and the (row, code) each must
// raise.
func faulty(t testing.TB, n int) ([]round.Round, map[int64]finding.Code) {
	rs := genRounds(t, n, 5)
	want := map[int64]finding.Code{}
	for k := 37; k < n; k += 101 {
		b := &rs[k].Boxes[0]
		switch (k / 101) % 4 {
		case 0:
			b.BalanceAfter++
			if k+5 < n {
				// The player's next round starts from the logged balance.
				for j := k + 5; j < n; j += 5 {
					rs[j].Boxes[0].BalanceBefore++
					rs[j].Boxes[0].BalanceAfter++
				}
			}
			want[int64(k)] = finding.BalanceMismatch
		case 1:
			rs[k].Fairness.Commitment = hex.EncodeToString(make([]byte, 32))
			want[int64(k)] = finding.SeedCommitmentMismatch
		case 2:
			rs[k].Fairness.CommittedAt = "2026-11-30T00:00:00Z"
			want[int64(k)] = finding.CommitmentLate
		case 3:
			rs[k].Board[0], rs[k].Board[1] = rs[k].Board[1], rs[k].Board[0]
			want[int64(k)] = finding.CardsMismatch
		}
	}
	return rs, want
}

func TestReplayDeterministicAndComplete(t *testing.T) {
	dir := t.TempDir()
	rs, want := faulty(t, 2500)
	writeParquet(t, filepath.Join(dir, "pq"), rs, 300)
	writeJSONL(t, filepath.Join(dir, "a.jsonl"), rs[:400])
	paths := []string{filepath.Join(dir, "pq")}
	for _, ext := range []string{"jsonl", "parquet", "csv"} {
		var first []byte
		var firstSum *Summary
		for _, w := range []int{1, 2, 3, 8} {
			s, b := runTo(t, paths, w, filepath.Join(dir, fmt.Sprintf("f%d.%s", w, ext)))
			if first == nil {
				first, firstSum = b, s
				continue
			}
			assert.True(t, bytes.Equal(first, b), "%s findings differ with %d workers", ext, w)
			assert.Equal(t, firstSum, s)
		}
		if ext == "jsonl" {
			got := map[int64]finding.Code{}
			for _, line := range bytes.Split(bytes.TrimSpace(first), []byte("\n")) {
				var f finding.Finding
				require.NoError(t, json.Unmarshal(line, &f))
				var part int64
				_, err := fmt.Sscanf(filepath.Base(f.File), "part-%05d.parquet", &part)
				require.NoError(t, err, f.File)
				k := part*900 + f.Row // 900 rounds per part
				assert.NotContains(t, got, k, "two findings on round %d", k)
				got[k] = f.Code
			}
			assert.Equal(t, want, got)
		}
	}
}

func TestReplayDamagedInput(t *testing.T) {
	dir := t.TempDir()
	rs := genRounds(t, 1200, 3)
	writeParquet(t, filepath.Join(dir, "pq"), rs, 200)
	// Truncate the second part's rounds file: the first part is still
	// verified and the damage is a finding naming the file.
	parts, err := filepath.Glob(filepath.Join(dir, "pq", "rounds", "*.parquet"))
	require.NoError(t, err)
	require.Len(t, parts, 2)
	b, err := os.ReadFile(parts[1])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(parts[1], b[:len(b)/2], 0o644))
	fw := filepath.Join(dir, "f.jsonl")
	s, out := runTo(t, []string{filepath.Join(dir, "pq")}, 2, fw)
	assert.Equal(t, int64(600), s.Rounds)
	assert.Equal(t, map[finding.Code]int64{finding.InputDamaged: 1}, s.Findings)
	assert.Contains(t, string(out), filepath.Base(parts[1]))
}

// A JSON Lines log with a bad value: the round is reported as damaged,
// naming the file, row and column, and every other round is verified.
func TestReplayDamagedRow(t *testing.T) {
	dir := t.TempDir()
	rs := genRounds(t, 50, 2)
	rs[20].Board[3] = "Zz"
	path := filepath.Join(dir, "day.jsonl")
	writeJSONL(t, path, rs)
	s, out := runTo(t, []string{path}, 2, filepath.Join(dir, "f.jsonl"))
	assert.Equal(t, int64(49), s.Rounds)
	// The damaged round is not seen by the cross-round checks: the next
	// round of the table and of the player's seed miss it.
	require.Equal(t, map[finding.Code]int64{finding.InputDamaged: 1, finding.BalanceGap: 1, finding.TableSequenceGap: 1, finding.NonceSequence: 1}, s.Findings, string(out))
	var damaged finding.Finding
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var f finding.Finding
		require.NoError(t, json.Unmarshal(line, &f))
		if f.Code == finding.InputDamaged {
			damaged = f
		}
	}
	assert.Equal(t, path, damaged.File)
	assert.Equal(t, rs[20].RoundID, damaged.RoundID)
	// The reader's damage has no round to take a time, table or game from.
	assert.Empty(t, damaged.Time+damaged.TableID+damaged.Game)
	assert.NotEmpty(t, damaged.Field)
	assert.Contains(t, damaged.Detail, "row group 0")
}

// TestDoubleTotalsLeaveOutUncalledBets: an uncalled bet handed back is not
// wagered, the rake is, and the pots' shares are returned.
func TestDoubleTotalsLeaveOutUncalledBets(t *testing.T) {
	r := &round.Round{Game: round.DoubleHoldem, Currency: "EUR", Double: &round.DoubleHand{
		Actions: []round.Action{
			{Seat: 1, Kind: "small-blind", Amount: 50}, {Seat: 2, Kind: "big-blind", Amount: 100},
			{Seat: 1, Kind: "call", Amount: 50}, {Seat: 2, Kind: "check"},
			{Seat: 1, Street: "flop", Kind: "bet", Amount: 5000}, {Seat: 2, Street: "flop", Kind: "fold"},
		},
		Pots: []round.Pot{{Amount: 190, Eligible: []int{1}, Winners: []int{1}, Shares: []int64{190}}},
		Rake: 10,
	}}
	var m roundMoney
	_, _, ok := m.set(r)
	require.True(t, ok)
	assert.Equal(t, int64(200), m.wagered[iPot], "200 into the pot, 5,000 handed back uncalled")
	assert.Equal(t, int64(190), m.returned[iPot])
	assert.Equal(t, int64(200), m.wagered[iTotal])
}

func TestDoubleTotalsOverflow(t *testing.T) {
	r := &round.Round{RoundID: "big", Game: round.DoubleHoldem, Currency: "EUR", Double: &round.DoubleHand{
		Actions: []round.Action{{Seat: 1, Amount: math.MaxInt64}, {Seat: 2, Amount: 1}},
	}}
	var m roundMoney
	field, _, ok := m.set(r)
	assert.False(t, ok)
	assert.Equal(t, "double.actions", field)
}

// TestReplayPeriod: the summary's period is the earliest and the latest
// round time, whatever the order of the rounds in the log and the number
// of workers (and of row groups, each a unit of work); rounds whose time
// does not parse are left out of it.
func TestReplayPeriod(t *testing.T) {
	dir := t.TempDir()
	rs := genRounds(t, 1200, 3)
	// The earliest round is logged last and the latest in the middle (the
	// replay reports them as ROUND_ORDER findings; the period is by time,
	// not by position); one time is in another offset.
	rs[1199].Time = "2026-11-28T23:00:00.250Z"
	rs[600].Time = "2026-11-30T12:00:00+01:00"
	writeParquet(t, filepath.Join(dir, "pq"), rs, 100)
	want := Period{First: "2026-11-28T23:00:00.25Z", Last: "2026-11-30T11:00:00Z"}
	for _, workers := range []int{1, 4} {
		s, _ := runTo(t, []string{filepath.Join(dir, "pq")}, workers, filepath.Join(dir, fmt.Sprintf("f%d.jsonl", workers)))
		require.NotNil(t, s.Period)
		assert.Equal(t, want, *s.Period, "workers %d", workers)
	}

	// A time that does not parse is left out (the replay reports it).
	rs[1199].Time = "yesterday"
	writeJSONL(t, filepath.Join(dir, "log.jsonl"), rs)
	s, _ := runTo(t, []string{filepath.Join(dir, "log.jsonl")}, 2, filepath.Join(dir, "g.jsonl"))
	require.NotNil(t, s.Period)
	assert.Equal(t, Period{First: "2026-11-29T00:00:00Z", Last: want.Last}, *s.Period)

	// No round with a time: no period.
	for i := range rs {
		rs[i].Time = ""
	}
	writeJSONL(t, filepath.Join(dir, "untimed.jsonl"), rs[:10])
	s, _ = runTo(t, []string{filepath.Join(dir, "untimed.jsonl")}, 2, filepath.Join(dir, "h.jsonl"))
	assert.Nil(t, s.Period)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"period"`)
}
