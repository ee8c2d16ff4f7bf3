package stats

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/round"
)

// logRounds deals rounds from src and records them as a round log would:
// box 1's cards, the dealer's cards and the board.
func logRounds(t *testing.T, src Source, n uint64, seedOf func(i uint64) string) []round.Round {
	d, err := src.NewDealer()
	require.NoError(t, err)
	rs := make([]round.Round, n)
	var deck [DeckSize]uint8
	for i := range n {
		_, err := d.Deck(i, &deck)
		require.NoError(t, err)
		s := func(k int) string { return card.Card(deck[k]).String() }
		rs[i] = round.Round{
			Game:   round.CasinoHoldem,
			Boxes:  []round.Box{{Box: 1, Cards: []string{s(0), s(1)}}},
			Dealer: []string{s(2), s(3)},
			Board:  []string{s(4), s(5), s(6), s(7), s(8)},
			Fairness: round.Fairness{Scheme: "fairhold/v1", ServerSeed: seedOf(i),
				ClientSeeds: []string{"c"}},
		}
	}
	return rs
}

func logReport(t *testing.T, rs []round.Round) *Report {
	b := NewLogBattery()
	for i := range rs {
		require.NoError(t, b.Add(&rs[i]))
	}
	r, err := b.Report(0)
	require.NoError(t, err)
	return r
}

func TestLogBattery(t *testing.T) {
	seed := func(i uint64) string { return fmt.Sprintf("%064x", i) }
	// Modulo bias in a backward Fisher-Yates mostly biases the last
	// positions of the deck; the first dealt positions need 60,000 rounds
	// (at 20,000 two of five seeds passed; at 60,000 eight of eight fail
	// with Holm P < 1e-11).
	n := uint64(20000)
	if testing.Short() {
		n = 8000
	}
	honestRounds := logRounds(t, SchemeSource{Scheme: mustScheme(t, scheme.FairholdV1Name), Seed: 5}, n, seed)
	r := logReport(t, honestRounds)
	assert.True(t, r.Pass, "failed: %v", r.Failed())
	assert.Len(t, r.Tests, 1+3*5+2+1+1+1)
	assert.Equal(t, 5*51, r.Tests[0].DF)

	for _, tc := range []struct {
		name   string
		rounds []round.Round
		family string
	}{
		{"modulo-bias", logRounds(t, doubleSource{shuffle: moduloBias}, 60000, seed), "position/card"},
		{"clock-seeded", logRounds(t, doubleSource{shuffle: honest, seedOf: clockSeed, newRand: newLCG}, n,
			func(i uint64) string { return fmt.Sprint(clockSeed(i)) }), "collisions"},
		{"with-replacement", logRounds(t, SchemeSource{Scheme: mustScheme(t, scheme.StakeCompatName), Seed: 5}, n, seed), "validity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := logReport(t, tc.rounds)
			assert.False(t, r.Pass)
			assert.True(t, failedFamilies(r)[tc.family], "failed families %v", failedFamilies(r))
		})
	}
}

func TestLogBatteryInput(t *testing.T) {
	b := NewLogBattery()
	require.NoError(t, b.Add(&round.Round{Game: round.DoubleHoldem}))
	require.NoError(t, b.Add(&round.Round{Game: round.CasinoHoldem, Void: true}))
	require.NoError(t, b.Add(&round.Round{Game: round.CasinoHoldem, Board: []string{"As"}}))
	err := b.Add(&round.Round{Game: round.CasinoHoldem, Boxes: []round.Box{{Cards: []string{"As", "Zz"}}},
		Board: []string{"2c", "3c", "4c"}})
	assert.ErrorContains(t, err, "boxes[0].cards[1]")
	_, err = b.Report(0)
	assert.ErrorContains(t, err, "usable rounds")
}

// TestPositionGlobalCovariance checks the calibration of positionGlobal
// exactly on small decks: for k of n positions it enumerates every deal,
// builds the covariance M of the standardised counts, extracts the
// statistic's quadratic form Q and checks M Q M = M (Q is a generalised
// inverse) and trace(Q M) = the degrees of freedom.
func TestPositionGlobalCovariance(t *testing.T) {
	for _, tc := range []struct{ n, k, df int }{{5, 2, 2 * 4}, {5, 4, 4 * 4}, {4, 4, 3 * 3}} {
		t.Run(fmt.Sprintf("n=%d,k=%d", tc.n, tc.k), func(t *testing.T) {
			n, k := tc.n, tc.k
			d := n * k
			var deals [][]int
			var gen func(p []int, used int)
			gen = func(p []int, used int) {
				if len(p) == k {
					deals = append(deals, append([]int(nil), p...))
					return
				}
				for c := range n {
					if used&(1<<c) == 0 {
						gen(append(p, c), used|1<<c)
					}
				}
			}
			gen(nil, 0)
			p := 1.0 / float64(n)
			m := mat.NewSymDense(d, nil)
			for _, deal := range deals {
				ind := make([]float64, d)
				for j, c := range deal {
					ind[j*n+c] = 1
				}
				for i := range d {
					for j := i; j < d; j++ {
						m.SetSym(i, j, m.At(i, j)+(ind[i]-p)*(ind[j]-p)/p/float64(len(deals)))
					}
				}
			}
			form := func(v []float64) float64 {
				rows := make([][]float64, k)
				for j := range rows {
					rows[j] = v[j*n : (j+1)*n]
				}
				return positionGlobalZ(rows)
			}
			q := mat.NewDense(d, d, nil)
			for i := range d {
				for j := range d {
					vi, vj, vij := make([]float64, d), make([]float64, d), make([]float64, d)
					vi[i], vj[j] = 1, 1
					vij[i]++
					vij[j]++
					q.Set(i, j, (form(vij)-form(vi)-form(vj))/2)
				}
			}
			var qm, mqm mat.Dense
			qm.Mul(q, m)
			mqm.Mul(m, &qm)
			assert.True(t, mat.EqualApprox(&mqm, m, 1e-9), "M Q M != M")
			assert.InDelta(t, float64(tc.df), mat.Trace(&qm), 1e-9)
		})
	}
}
