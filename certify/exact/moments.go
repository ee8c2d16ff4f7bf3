package exact

// CallMoments returns the mean and the variance of the player's main-game
// result (ANTE + CALL, in the money units of p.Ante, after p's payout cap)
// of calling in state s, over its [Completions] equally likely
// completions: the exact distribution of the result given the hole cards,
// the flop and a call. The sums are exact integers; the mean and the
// variance are their quotients in float64. p must be valid
// ([Params.Validate]).
func (p *Params) CallMoments(s *State) (mean, variance float64) {
	po := p.payoffs()
	var sq float64
	for c := range s.Win {
		n, w := float64(s.NotQualified[c]), float64(s.Win[c])
		nq, win := float64(po.nq[c]), float64(po.win[c])
		sq += n*nq*nq + w*win*win
	}
	lose := float64(po.lose)
	sq += float64(s.Lose) * lose * lose
	mean = float64(po.callSum(s)) / Completions
	variance = sq/Completions - mean*mean
	return mean, max(variance, 0)
}
