// Package stats is the deck battery: the chi-square-family tests test labs
// run on the scaled output of a card shuffle (decks and dealt hands), with
// a multiple-testing policy over the whole battery.
//
// Start with [Run]: it deals Config.Decks decks from a [Source] on several
// workers, accumulates integer counts (so the result does not depend on the
// number of workers) and returns a [Report] of [Test] results. Each test
// has a statistic, its degrees of freedom, a P-value from gonum's survival
// functions and a verdict under the battery's policy: Holm's step-down
// procedure over every test of the battery at level Config.Alpha, which
// keeps the probability that an honest shuffle fails any test at or below
// alpha. docs/statistics.md states every test's null distribution.
//
// [LogBattery] is the battery for a round log, which records only dealt
// cards: it tests the positions every Casino Hold'em round deals before
// any decision (see its documentation).
//
// # Tests
//
//   - position: the 52 x 52 card-by-position counts; one global statistic
//     (Pearson X^2 times 51/52, chi-square with 2,601 df: a deck is a
//     permutation, so the cells are not independent) and per position the
//     card (51 df), suit (3 df) and rank (12 df) tests.
//   - adjacency: which card immediately follows which (2,652 ordered
//     pairs), a quadratic form calibrated to chi-square with 2,651 df (see
//     [adjacencyStatistic]).
//   - small-deck permutations of 3..6 cards through the production shuffle,
//     and the relative order of five fixed cards in the full decks.
//   - serial correlation of each card's position between successive decks,
//     Spearman's rank correlation between successive decks, runs up and
//     down within decks.
//   - collisions: repeated decks and repeated seeds; validity: decks that
//     are not permutations (cards dealt with replacement).
//   - dealt outcomes (casino Hold'em layout: player c[0..1], dealer c[2..3],
//     board c[4..8]): the 169 starting-hand classes, the AA Bonus
//     qualifying rate 282,660/2,598,960, the dealer's 7-card categories.
package stats

import (
	"errors"
	"fmt"
)

// DeckSize is the number of cards in a deck.
const DeckSize = 52

// Source provides the decks of a battery run.
type Source interface {
	// NewDealer returns a dealer for one worker.
	NewDealer() (Dealer, error)
}

// Dealer deals the decks of a [Source]. It is used by one goroutine.
type Dealer interface {
	// Deck fills d with deck i (card indices 0..51; an honest source gives
	// a permutation) and returns a 64-bit fingerprint of the seed the deck
	// was derived from. The same i must give the same deck on every call.
	Deck(i uint64, d *[DeckSize]uint8) (seed uint64, err error)
	// Small fills d (len n, 3..6) with a deck of n cards shuffled by the
	// production shuffle, the i-th of that size. It returns an error
	// wrapping [ErrNoSmall] if the source has no such path.
	Small(i uint64, d []uint8) error
}

// ErrNoSmall is wrapped by [Dealer.Small] when the source cannot shuffle
// small decks; the small-deck tests are then left out of the report.
var ErrNoSmall = errors.New("source has no small-deck shuffle")

// Config parameterises a battery run.
type Config struct {
	// Decks is the number of full decks (at least [MinDecks]).
	Decks uint64
	// SmallPerSize is the number of small decks of each size 3..6; zero
	// means the default: Decks/4 clamped to 4,000..250,000.
	SmallPerSize uint64
	// Alpha is the family-wise level of the battery; zero means 0.01.
	Alpha float64
	// Workers is the number of goroutines; <= 0 means GOMAXPROCS.
	Workers int
	// Progress, if not nil, is called with the number of decks (full and
	// small) done since its previous call. It must be safe for concurrent
	// use.
	Progress func(n int64)
}

// MinDecks is the smallest sample the battery accepts: below it the
// chi-square approximations of the dealt-outcome tests (expected counts of
// at least 5 per cell) do not hold.
const MinDecks = 5000

// DefaultAlpha is the family-wise level of the battery.
const DefaultAlpha = 0.01

// Policy describes the multiple-testing policy in words, for reports.
const Policy = "Holm step-down over all tests of the battery: family-wise error rate <= alpha; " +
	"a test passes when its Holm-adjusted P-value exceeds alpha"

// Test is the result of one test.
type Test struct {
	// Name identifies the test, e.g. "position/global" or
	// "position/07/suit".
	Name string `json:"name"`
	// Family groups related tests for display ("position/card").
	Family string `json:"family"`
	// Statistic is the test statistic; for chi-square tests it is
	// chi-square distributed with DF degrees of freedom under the null.
	Statistic float64 `json:"statistic"`
	// DF is the degrees of freedom; 0 for the counting tests (collisions,
	// validity) whose P-value is exact.
	DF int `json:"df"`
	// P is the unadjusted P-value.
	P float64 `json:"p"`
	// PHolm is the Holm-adjusted P-value within the battery.
	PHolm float64 `json:"p_holm"`
	// Pass is the verdict: PHolm > alpha.
	Pass bool `json:"pass"`
}

// Report is the outcome of a battery run.
type Report struct {
	Decks        uint64  `json:"decks"`
	SmallPerSize uint64  `json:"small_per_size"`
	Alpha        float64 `json:"alpha"`
	Policy       string  `json:"policy"`
	Tests        []Test  `json:"tests"`
	// Notes lists tests that were left out and why.
	Notes []string `json:"notes,omitempty"`
	Pass  bool     `json:"pass"`
	// Positions are the card-by-position counts of the full decks
	// ([position][card], both 0..51), for figures; not in the JSON, which
	// holds the tests on them. Nil for the log battery.
	Positions *[DeckSize][DeckSize]uint64 `json:"-"`
}

// Failed returns the tests that did not pass.
func (r *Report) Failed() []Test {
	var out []Test
	for _, t := range r.Tests {
		if !t.Pass {
			out = append(out, t)
		}
	}
	return out
}

func (c Config) withDefaults() (Config, error) {
	if c.Decks < MinDecks {
		return c, fmt.Errorf("stats: %d decks, need at least %d", c.Decks, MinDecks)
	}
	if c.Decks > 1<<32-1 {
		return c, fmt.Errorf("stats: %d decks, at most %d", c.Decks, uint64(1<<32-1))
	}
	if c.Alpha == 0 {
		c.Alpha = DefaultAlpha
	}
	if !(c.Alpha > 0 && c.Alpha < 1) {
		return c, fmt.Errorf("stats: alpha %v not in (0, 1)", c.Alpha)
	}
	if c.SmallPerSize == 0 {
		c.SmallPerSize = min(max(c.Decks/4, 4000), 250000)
	}
	return c, nil
}
