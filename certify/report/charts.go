package report

// Charts are the data of a requirement's figures in the HTML report
// (report.html draws them as inline SVG). They are part of the signed
// predicate, so a figure shows exactly what was certified. Each chart has
// exactly one of its data fields set; Kind says which.
//
// Floats here are statistics and display values, never money: amounts are
// int64 minor units of a named currency.

// The kinds of chart.
const (
	ChartHeatmap = "heatmap"  // Heatmap: counts by row and column (cards by position)
	ChartPValues = "p-values" // PValues: a histogram of p-values, which are uniform under the null
	ChartSeries  = "series"   // Series: an observed value converging inside its confidence band
	ChartBars    = "bars"     // Bars: counts (and money) by label (findings by code)
)

// Chart is one figure of a requirement's evidence.
type Chart struct {
	Kind  string `json:"kind"`
	Title string `json:"title"`

	Heatmap *Heatmap  `json:"heatmap,omitempty"`
	PValues []float64 `json:"p_values,omitempty"`
	Series  *Series   `json:"series,omitempty"`
	Bars    []Bar     `json:"bars,omitempty"`
}

// Heatmap is a matrix of counts, such as how often each card (column) was
// dealt at each position (row), with the count expected in every cell.
type Heatmap struct {
	Rows     []string  `json:"rows"`
	Columns  []string  `json:"columns"`
	Counts   [][]int64 `json:"counts"` // Counts[row][column]
	Expected float64   `json:"expected"`
}

// Series is an observed statistic as the rounds accumulate, with its
// confidence band around the theoretical value (an observed RTP
// converging to the exact RTP).
type Series struct {
	XLabel string  `json:"x_label"` // "rounds"
	YLabel string  `json:"y_label"` // "RTP"
	Target float64 `json:"target"`  // the theoretical value
	Points []Point `json:"points"`  // in increasing X
}

// Point is one point of a [Series]: the observed value after X units and
// the band [Low, High] the theory allows at that X.
type Point struct {
	X        int64   `json:"x"`
	Observed float64 `json:"observed"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
}

// Bar is one bar: a label (a finding code), its count, and the money it
// concerns per currency (the sum of the findings' differences, minor
// units), if any.
type Bar struct {
	Label  string           `json:"label"`
	Count  int64            `json:"count"`
	Amount map[string]int64 `json:"amount,omitempty"`
}
