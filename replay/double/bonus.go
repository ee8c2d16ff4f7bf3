package double

import (
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/profile"
)

// AutoBonusCard returns the bonus card the software selects for a player
// who did not select one: the highest-ranked card; of two sharing the
// highest rank, the one suited with the third card (auto_bonus_tie
// "suited-with-third"), else the one of the higher suit in the profile's
// suit order; of three sharing a rank, the highest suit.
//
// Worked examples (docs/rules/double-holdem.md): Kc Ks 6s -> Ks; Ks Kh 6c -> Ks.
func AutoBonusCard(p *profile.Profile, hole [3]card.Card) card.Card {
	d := p.Double
	top := hole[0].Rank()
	for _, c := range hole[1:] {
		top = max(top, c.Rank())
	}
	var tied []card.Card
	var third card.Card
	for _, c := range hole {
		if c.Rank() == top {
			tied = append(tied, c)
		} else {
			third = c
		}
	}
	if len(tied) == 1 {
		return tied[0]
	}
	if len(tied) == 2 && d.AutoBonusTie == "suited-with-third" {
		a, b := tied[0].Suit() == third.Suit(), tied[1].Suit() == third.Suit()
		if a && !b {
			return tied[0]
		}
		if b && !a {
			return tied[1]
		}
	}
	best := tied[0]
	for _, c := range tied[1:] {
		if d.SuitRank(c.Suit()) > d.SuitRank(best.Suit()) {
			best = c
		}
	}
	return best
}
