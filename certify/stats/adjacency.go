package stats

// adjacencyStatistic is the calibrated adjacency statistic of n x n
// standardised counts z[a][b] = (O_ab - E)/sqrt(E) (diagonal ignored), O_ab
// the number of decks in which card b immediately follows card a and
// E = N/n.
//
// The n(n-1) counts are not independent multinomial cells: in one deck a
// card has one successor and one predecessor, and the deck has exactly n-1
// adjacent pairs. Per deck the indicator covariance, scaled by 1/p
// (p = 1/n), is 1-p on the diagonal, -p between pairs that cannot occur
// together (same first card, same second card, or reversed) and
// p/(n-1) between all other pairs. This matrix commutes with relabelling
// the cards, so its eigenspaces are the isotypic components of the
// permutation module on ordered pairs:
//
//	constant                                 eigenvalue 0            dim 1
//	row and column effects x_a + y_b          eigenvalue 1/(n-1)      dim 2(n-1)
//	symmetric, zero row sums                  eigenvalue 1            dim n(n-3)/2
//	antisymmetric, zero row sums              eigenvalue (n+1)/(n-1)  dim (n-1)(n-2)/2
//
// The naive Pearson sum of z^2 is therefore a weighted sum of chi-squares
// (mean (n-1)^2, not n(n-1)-1). This function projects z onto the three
// non-null components and divides each squared norm by its eigenvalue:
// the Mahalanobis form z' M^+ z, chi-square with n(n-1)-1 degrees of
// freedom as N grows (2,651 for n = 52).
func adjacencyStatistic(z [][]float64) float64 {
	n := len(z)
	fn := float64(n)
	// Remove the constant component.
	var mean float64
	for a := range n {
		for b := range n {
			if a != b {
				mean += z[a][b]
			}
		}
	}
	mean /= fn * (fn - 1)
	w := make([][]float64, n)
	r := make([]float64, n)
	c := make([]float64, n)
	for a := range n {
		w[a] = make([]float64, n)
		for b := range n {
			if a != b {
				w[a][b] = z[a][b] - mean
				r[a] += w[a][b]
				c[b] += w[a][b]
			}
		}
	}
	// Least-squares row and column effects on the off-diagonal cells:
	// (n-1) x_a - y_a = r_a and (n-1) y_a - x_a = c_a.
	d := fn * (fn - 2)
	x := make([]float64, n)
	y := make([]float64, n)
	var qRowCol float64
	for a := range n {
		x[a] = ((fn-1)*r[a] + c[a]) / d
		y[a] = (r[a] + (fn-1)*c[a]) / d
		qRowCol += x[a]*r[a] + y[a]*c[a]
	}
	var qSym, qAnti float64
	for a := range n {
		for b := a + 1; b < n; b++ {
			u := w[a][b] - x[a] - y[b]
			v := w[b][a] - x[b] - y[a]
			s, t := (u+v)/2, (u-v)/2
			qSym += 2 * s * s
			qAnti += 2 * t * t
		}
	}
	return qRowCol*(fn-1) + qSym + qAnti*(fn-1)/(fn+1)
}
