package replayer

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

// simulateKeep writes a simulated dataset as simulate does and also
// returns its rounds by id (deep copies).
func simulateKeep(t testing.TB, cfg sim.Config) (string, map[string]*round.Round) {
	t.Helper()
	s, err := sim.New(cfg)
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "log")
	w, err := roundlog.NewParquetWriter(dir, roundlog.Options{RowGroupRounds: 1000})
	require.NoError(t, err)
	rounds := map[string]*round.Round{}
	for !s.Done() {
		r, _, err := s.Next()
		require.NoError(t, err)
		require.NoError(t, w.Write(r))
		b, err := json.Marshal(r)
		require.NoError(t, err)
		var c round.Round
		require.NoError(t, json.Unmarshal(b, &c))
		rounds[c.RoundID] = &c
	}
	require.NoError(t, w.Close())
	return dir, rounds
}

// TestMoneyFindingsCarryAmounts replays simulated logs with the faults
// that cost or pay money and checks every money finding's amounts: the
// actual amount is the logged value of the finding's field, the expected
// amount the value the rules give (the box re-settled by the Casino
// Hold'em engine, the balance arithmetic, the Double Hold'em engine's pots
// and rake), the difference actual - expected; the player is the box's or
// seat's, the currency the round's. The other findings carry no amounts.
func TestMoneyFindingsCarryAmounts(t *testing.T) {
	tests := []struct {
		game   string
		faults []string
	}{
		{round.CasinoHoldem, []string{sim.FaultAnteWrongMultiple, sim.FaultBalanceOffByOne, sim.FaultBonusWrongMultiple,
			sim.FaultBonusPaidAfterFold, sim.FaultVoidNotRefunded, sim.FaultTieNotPushed, sim.FaultCallPaidNotQualified,
			sim.FaultDealerQualifiedLow, sim.FaultCallNotMultiple, sim.FaultCardsMismatch}},
		{round.LiveCasinoHoldem, []string{sim.FaultAnteWrongMultiple, sim.FaultBalanceOffByOne, sim.FaultVoidNotRefunded,
			sim.FaultCallPaidNotQualified, sim.FaultBetOverLimit}},
		{round.DoubleHoldem, []string{sim.FaultDHPotWrongWinner, sim.FaultDHOddChipWrong, sim.FaultDHSidePotWrong,
			sim.FaultDHChipsNotConserved, sim.FaultDHRakeOverCap, sim.FaultDHIllegalRaise}},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			t.Parallel()
			cfg := sim.Config{Game: tt.game, Rounds: 3000, Seed: 11}
			for _, f := range tt.faults {
				cfg.Faults = append(cfg.Faults, sim.FaultRate{Name: f, Rate: 0.02})
			}
			dir, rounds := simulateKeep(t, cfg)
			_, fs := replayFindings(t, dir, nil)
			p, err := profile.Builtin(tt.game)
			require.NoError(t, err)
			money := map[finding.Code]int{}
			for i := range fs {
				f := &fs[i]
				r := rounds[f.RoundID]
				require.NotNil(t, r, "%+v", f)
				assert.Equal(t, r.Currency, f.Currency, "%+v", f)
				if !finding.IsMoney(f.Code) {
					assert.Nil(t, f.ExpectedAmount, "%+v", f)
					assert.Nil(t, f.ActualAmount, "%+v", f)
					assert.Nil(t, f.Difference, "%+v", f)
					if len(r.Boxes) == 1 {
						assert.Equal(t, r.Boxes[0].PlayerID, f.PlayerID, "%+v", f)
					}
					continue
				}
				require.NotNil(t, f.ExpectedAmount, "%+v", f)
				require.NotNil(t, f.ActualAmount, "%+v", f)
				require.NotNil(t, f.Difference, "%+v", f)
				assert.Equal(t, *f.ActualAmount-*f.ExpectedAmount, *f.Difference, "%+v", f)
				// The text fields hold the same values, the prose is in the
				// detail; a pot's winners or shares (or only its eligible
				// seats) are lists.
				lists := strings.HasSuffix(f.Field, ".winners") || strings.HasSuffix(f.Field, ".shares") ||
					f.Code == finding.DHSidePotWrong && *f.Difference == 0
				if !lists {
					assert.Equal(t, strconv.FormatInt(*f.ExpectedAmount, 10), f.Expected, "%+v", f)
					assert.Equal(t, strconv.FormatInt(*f.ActualAmount, 10), f.Actual, "%+v", f)
				}
				want, got, player := ruled(t, p, r, f)
				assert.Equal(t, want, *f.ExpectedAmount, "expected amount: %+v", f)
				assert.Equal(t, got, *f.ActualAmount, "actual amount: %+v", f)
				assert.Equal(t, player, f.PlayerID, "player: %+v", f)
				money[f.Code]++
			}
			t.Logf("money findings by code: %v", money)
			wantCodes := map[string][]finding.Code{
				round.CasinoHoldem: {finding.AntePayoutWrong, finding.BalanceMismatch, finding.BonusPayoutWrong, finding.BonusPaidAfterFold,
					finding.VoidNotRefunded, finding.TieNotPushed, finding.CallPaidNotQualified, finding.DealerQualificationWrong},
				round.LiveCasinoHoldem: {finding.AntePayoutWrong, finding.BalanceMismatch, finding.VoidNotRefunded, finding.CallPaidNotQualified},
				round.DoubleHoldem: {finding.DHPotWrongWinner, finding.DHOddChipWrong, finding.DHSidePotWrong, finding.DHChipsNotConserved,
					finding.DHRakeOverCap},
			}[tt.game]
			for _, c := range wantCodes {
				assert.Positive(t, money[c], "no %s with amounts", c)
			}
		})
	}
}

// ruled returns what a money finding's amounts must be, from the round as
// logged and as the rules settle it: the expected amount, the actual
// amount and the player concerned.
func ruled(t *testing.T, p *profile.Profile, r *round.Round, f *finding.Finding) (want, got int64, player string) {
	t.Helper()
	if i, name, ok := boxOf(f.Field); ok {
		b := &r.Boxes[i]
		player = b.PlayerID
		if name == "balance_after" {
			return b.BalanceBefore - b.Ante - b.Call - b.Bonus + b.AnteReturn + b.CallReturn + b.BonusReturn, b.BalanceAfter, player
		}
		res := settleBox(t, p, r, b)
		switch name {
		case "ante_return":
			return res.AnteReturn, b.AnteReturn, player
		case "call_return":
			return res.CallReturn, b.CallReturn, player
		case "bonus_return":
			return res.BonusReturn, b.BonusReturn, player
		}
		t.Fatalf("unexpected money field: %+v", f)
	}
	h := r.Double
	require.NotNil(t, h, "%+v", f)
	var st double.Settler
	res, err := st.Settle(p, r)
	require.NoError(t, err)
	switch {
	case f.Field == "double.rake":
		return res.Rake, h.Rake, ""
	case f.Field == "double.seats":
		for _, s := range h.Seats {
			want += s.StackBefore
			got += s.StackAfter
		}
		return want, got + h.Rake, ""
	case strings.HasSuffix(f.Field, ".winners") || strings.HasSuffix(f.Field, ".shares"):
		k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(f.Field, "double.pots["), f.Field[strings.Index(f.Field, "]"):]))
		require.NoError(t, err, f.Field)
		seat, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(f.Detail, "seat "), "'s share"))
		require.NoError(t, err, f.Detail)
		for _, s := range h.Seats {
			if s.Seat == seat {
				player = s.PlayerID
			}
		}
		return share(res.Pots[k], seat), share(h.Pots[k], seat), player
	case strings.HasPrefix(f.Field, "double.pots["):
		k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(f.Field, "double.pots["), "]"))
		require.NoError(t, err, f.Field)
		return res.Pots[k].Amount, h.Pots[k].Amount, ""
	case strings.HasSuffix(f.Field, ".stack_after"):
		k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(f.Field, "double.seats["), "].stack_after"))
		require.NoError(t, err, f.Field)
		s := h.Seats[k]
		return res.StackAfter[s.Seat], s.StackAfter, s.PlayerID
	}
	t.Fatalf("unexpected money field: %+v", f)
	return 0, 0, ""
}

// boxOf splits "boxes[i].name".
func boxOf(field string) (int, string, bool) {
	rest, ok := strings.CutPrefix(field, "boxes[")
	if !ok {
		return 0, "", false
	}
	num, name, ok := strings.Cut(rest, "].")
	i, err := strconv.Atoi(num)
	return i, name, ok && err == nil
}

// settleBox settles b by the rules on its logged stakes; a void round
// returns every stake.
func settleBox(t *testing.T, p *profile.Profile, r *round.Round, b *round.Box) casino.BoxResult {
	t.Helper()
	if r.Void {
		return casino.BoxResult{AnteReturn: b.Ante, CallReturn: b.Call, BonusReturn: b.Bonus}
	}
	parse := func(ss []string, dst []card.Card) {
		require.Len(t, ss, len(dst))
		for i, s := range ss {
			c, err := card.Parse(s)
			require.NoError(t, err)
			dst[i] = c
		}
	}
	var hole, dealer [2]card.Card
	var board [5]card.Card
	parse(b.Cards, hole[:])
	parse(r.Dealer, dealer[:])
	parse(r.Board, board[:])
	d := casino.Call
	if b.Decision == "fold" {
		d = casino.Fold
	}
	res, err := casino.SettleBox(p, casino.Bets{Ante: b.Ante, Bonus: b.Bonus}, d, hole, dealer, board)
	require.NoError(t, err)
	return res
}

// share is seat's share of pot (0 if it wins none).
func share(pot round.Pot, seat int) int64 {
	var s int64
	for j, w := range pot.Winners {
		if w == seat && j < len(pot.Shares) {
			s += pot.Shares[j]
		}
	}
	return s
}
