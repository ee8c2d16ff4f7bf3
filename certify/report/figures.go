package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"maps"

	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/money"
)

// The figures of report.html: each [Chart] of a requirement's evidence
// becomes a view, the geometry of an inline SVG and the rows of its data
// table, which the page's templates write. Coordinates are in the units of
// the SVG's viewBox (the SVG scales to its box), written with one decimal
// so that the page's bytes depend on the data only.

// Limits of a chart, so that a page stays a page.
const (
	maxHeatmapCells = 1 << 16
	maxPValues      = 1 << 24
	maxSeriesPoints = 10000
	maxBars         = 1000
	maxCurrencies   = 8
)

// chartWidth is the width of every chart's viewBox.
const chartWidth = 720

// Colours of the charts (the page's CSS holds the others).
const (
	colourLow     = "#2166ac" // a heatmap cell well below its expectation
	colourNeutral = "#f7f7f7" // a heatmap cell at its expectation
	colourHigh    = "#b2182b" // a heatmap cell well above its expectation
)

// chartView is one figure of the page.
type chartView struct {
	ID      string // the element id, unique in the page
	Kind    string
	Title   string
	Caption string // one sentence on what the figure shows

	Heatmap *heatmapView
	PValues *histView
	Series  *seriesView
	Bars    *barsView
}

// checkChart checks that a chart can be drawn: its kind and data agree,
// its numbers are finite and in range, its size is within the limits. The
// error names the field, relative to the chart.
func checkChart(c *Chart) error {
	set := 0
	for _, b := range []bool{c.Heatmap != nil, len(c.PValues) > 0, c.Series != nil, len(c.Bars) > 0} {
		if b {
			set++
		}
	}
	if set != 1 {
		return malformed("", "%d data fields set; want exactly the one of kind %q", set, c.Kind)
	}
	if !utf8.ValidString(c.Title) {
		return malformed("title", "not UTF-8")
	}
	missing := func(field string) error {
		return malformed(field, "missing: a chart of kind %q has its data here", c.Kind)
	}
	switch c.Kind {
	case ChartHeatmap:
		if c.Heatmap == nil {
			return missing("heatmap")
		}
		return checkHeatmap(c.Heatmap)
	case ChartPValues:
		if len(c.PValues) == 0 {
			return missing("p_values")
		}
		return checkPValues(c.PValues)
	case ChartSeries:
		if c.Series == nil {
			return missing("series")
		}
		return checkSeries(c.Series)
	case ChartBars:
		if len(c.Bars) == 0 {
			return missing("bars")
		}
		return checkBars(c.Bars)
	}
	return malformed("kind", "%q, want %q, %q, %q or %q", c.Kind, ChartHeatmap, ChartPValues, ChartSeries, ChartBars)
}

func checkHeatmap(h *Heatmap) error {
	if len(h.Rows) == 0 || len(h.Columns) == 0 {
		return malformed("heatmap", "want at least one row and one column")
	}
	if len(h.Rows)*len(h.Columns) > maxHeatmapCells {
		return malformed("heatmap", "%d x %d cells, more than the %d a page draws", len(h.Rows), len(h.Columns), maxHeatmapCells)
	}
	if len(h.Counts) != len(h.Rows) {
		return malformed("heatmap.counts", "%d rows, want one per row label (%d)", len(h.Counts), len(h.Rows))
	}
	for i, row := range h.Counts {
		if len(row) != len(h.Columns) {
			return malformed(fmt.Sprintf("heatmap.counts[%d]", i), "%d counts, want one per column (%d)", len(row), len(h.Columns))
		}
		for j, n := range row {
			if n < 0 {
				return malformed(fmt.Sprintf("heatmap.counts[%d][%d]", i, j), "%d, want a count >= 0", n)
			}
		}
	}
	if !finite(h.Expected) || h.Expected < 0 {
		return malformed("heatmap.expected", "want a finite count >= 0")
	}
	return checkLabels("heatmap", h.Rows, h.Columns)
}

func checkPValues(ps []float64) error {
	if len(ps) > maxPValues {
		return malformed("p_values", "%d p-values, more than the %d a page draws", len(ps), maxPValues)
	}
	for i, p := range ps {
		if !(p >= 0 && p <= 1) {
			return malformed(fmt.Sprintf("p_values[%d]", i), "%v, want a p-value in [0, 1]", p)
		}
	}
	return nil
}

func checkSeries(s *Series) error {
	if len(s.Points) == 0 {
		return malformed("series.points", "want at least one point")
	}
	if len(s.Points) > maxSeriesPoints {
		return malformed("series.points", "%d points, more than the %d a page draws", len(s.Points), maxSeriesPoints)
	}
	if !finite(s.Target) {
		return malformed("series.target", "not a finite number")
	}
	for i, p := range s.Points {
		f := fmt.Sprintf("series.points[%d]", i)
		if !finite(p.Observed) || !finite(p.Low) || !finite(p.High) || p.Low > p.High {
			return malformed(f, "want finite observed, low and high values with low <= high")
		}
		if i > 0 && p.X <= s.Points[i-1].X {
			return malformed(f+".x", "%d is not after %d: points are in increasing x", p.X, s.Points[i-1].X)
		}
	}
	return checkLabels("series", []string{s.XLabel, s.YLabel})
}

func checkBars(bars []Bar) error {
	if len(bars) > maxBars {
		return malformed("bars", "%d bars, more than the %d a page draws", len(bars), maxBars)
	}
	codes := map[string]bool{}
	for i, b := range bars {
		f := fmt.Sprintf("bars[%d]", i)
		if b.Count < 0 {
			return malformed(f+".count", "%d, want a count >= 0", b.Count)
		}
		if !utf8.ValidString(b.Label) {
			return malformed(f+".label", "not UTF-8")
		}
		for code, a := range b.Amount {
			if !currency.ValidCode(code) {
				return malformed(f+".amount", "%q is not a currency code", code)
			}
			if a == math.MinInt64 {
				return malformed(f+".amount."+code, "out of range")
			}
			codes[code] = true
		}
	}
	if len(codes) > maxCurrencies {
		return malformed("bars", "%d currencies, more than the %d a page draws", len(codes), maxCurrencies)
	}
	return nil
}

func checkLabels(field string, lists ...[]string) error {
	for _, l := range lists {
		for _, s := range l {
			if !utf8.ValidString(s) {
				return malformed(field, "a label is not UTF-8")
			}
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// newChartView checks the chart and computes its figure.
func newChartView(id string, c *Chart) (*chartView, error) {
	if err := checkChart(c); err != nil {
		return nil, err
	}
	v := &chartView{ID: id, Kind: c.Kind, Title: c.Title}
	switch c.Kind {
	case ChartHeatmap:
		v.Heatmap = newHeatmapView(c.Heatmap)
		v.Caption = v.Heatmap.Caption
		if v.Title == "" {
			v.Title = "Counts by row and column"
		}
	case ChartPValues:
		v.PValues = newHistView(c.PValues)
		v.Caption = v.PValues.Caption
		if v.Title == "" {
			v.Title = "Distribution of p-values"
		}
	case ChartSeries:
		v.Series = newSeriesView(c.Series)
		v.Caption = v.Series.Caption
		if v.Title == "" {
			v.Title = "Observed value and its confidence band"
		}
	case ChartBars:
		v.Bars = newBarsView(c.Bars)
		v.Caption = v.Bars.Caption
		if v.Title == "" {
			v.Title = "Counts by label"
		}
	}
	return v, nil
}

// Shared pieces of the figures.

// text is a piece of text at a point of a chart.
type text struct {
	X, Y   string
	Anchor string // text-anchor: start, middle, end
	Text   string
	Rotate bool // rotated by -90 degrees about its point
}

// rect is a rectangle of a chart.
type rect struct {
	X, Y, W, H string
	Fill       string // a colour, or "" for the CSS class's
	Title      string // a tooltip, or ""
}

// line is a segment of a chart.
type line struct{ X1, Y1, X2, Y2 string }

// axes are the axes and grid of a plot.
type axes struct {
	Left, Right, Top, Bottom string // the plot area
	XTicks, YTicks           []text // labels at the ticks
	XGrid, YGrid             []line // grid lines at the ticks
	XLabel, YLabel           text
}

// scale maps [d0, d1] onto [r0, r1], linearly or on log10.
type scale struct {
	d0, d1, r0, r1 float64
	log            bool
}

func (s scale) at(v float64) float64 {
	d0, d1 := s.d0, s.d1
	if s.log {
		v, d0, d1 = math.Log10(v), math.Log10(d0), math.Log10(d1)
	}
	if d1 == d0 {
		return (s.r0 + s.r1) / 2
	}
	return s.r0 + (v-d0)/(d1-d0)*(s.r1-s.r0)
}

// niceStep returns a step of 1, 2, 2.5 or 5 times a power of ten that
// cuts span into about n parts, and the decimals its ticks need.
func niceStep(span float64, n int) (step float64, decimals int) {
	if !(span > 0) || !finite(span) {
		return 1, 0
	}
	raw := span / float64(n)
	p := math.Floor(math.Log10(raw))
	base := math.Pow(10, p)
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*base >= raw {
			step = m * base
			decimals = int(-p)
			if m == 2.5 {
				decimals++
			}
			if m == 10 {
				decimals--
			}
			break
		}
	}
	return step, max(decimals, 0)
}

// linearTicks returns the ticks of [lo, hi] for about n parts, and the
// range widened to whole steps.
func linearTicks(lo, hi float64, n int, integer bool) (ticks []float64, lo2, hi2 float64, decimals int) {
	if hi <= lo {
		d := math.Max(math.Abs(lo)*0.01, 1e-9)
		if integer {
			d = 1
		}
		lo, hi = lo-d, hi+d
	}
	step, decimals := niceStep(hi-lo, n)
	if integer && step < 1 {
		step, decimals = 1, 0
	}
	lo2 = math.Floor(lo/step+1e-9) * step
	hi2 = math.Ceil(hi/step-1e-9) * step
	for i := 0; ; i++ {
		v := lo2 + float64(i)*step
		if v > hi2+step*1e-9 || i > 100 {
			break
		}
		ticks = append(ticks, v)
	}
	return ticks, lo2, hi2, decimals
}

// compact writes a count as people say it: 950, 1k, 2.5k, 10k, 1M.
func compact(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e9:
		return trimZeros(fixed(v/1e9, 1)) + "G"
	case a >= 1e6:
		return trimZeros(fixed(v/1e6, 1)) + "M"
	case a >= 1e3:
		return trimZeros(fixed(v/1e3, 1)) + "k"
	}
	return trimZeros(fixed(v, 1))
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// The heatmap.

// heatmapView is a matrix of counts coloured by their standardized
// residual, (count - expected) / sqrt(expected).
type heatmapView struct {
	Width, Height string
	Cells         []rect
	RowLabels     []text
	ColLabels     []text
	Legend        []rect
	LegendText    []text
	Caption       string

	// The data table.
	Columns  []string
	Rows     []heatmapRow
	Expected string
}

type heatmapRow struct {
	Label  string
	Counts []string
}

// residualLimit is the residual drawn in the full colour: beyond it,
// colours are clipped.
const residualLimit = 4

func newHeatmapView(h *Heatmap) *heatmapView {
	nr, nc := len(h.Rows), len(h.Columns)
	expected, total := h.Expected, 0.0
	for _, row := range h.Counts {
		for _, n := range row {
			total += float64(n)
		}
	}
	byMean := expected == 0
	if byMean {
		expected = total / float64(nr*nc)
	}
	maxRow, maxCol := 0, 0
	for _, s := range h.Rows {
		maxRow = max(maxRow, utf8.RuneCountInString(short(s, 24)))
	}
	for _, s := range h.Columns {
		maxCol = max(maxCol, utf8.RuneCountInString(short(s, 16)))
	}
	left := 8 + 6.5*float64(maxRow)
	cell := math.Min(28, (chartWidth-left-8)/float64(nc))
	cellH := math.Min(28, math.Max(cell, 16))
	rotate := float64(maxCol)*6.2 > cell
	top := 18.0
	if rotate {
		top = 10 + 6.2*float64(maxCol)
	}
	gridH := cellH * float64(nr)
	legendY := top + gridH + 16
	v := &heatmapView{
		Width:  coord(chartWidth),
		Height: coord(legendY + 34),
		Cells:  make([]rect, 0, nr*nc),
	}
	for i, label := range h.Rows {
		y := top + cellH*float64(i)
		v.RowLabels = append(v.RowLabels, text{X: coord(left - 5), Y: coord(y + cellH/2 + 3.5), Anchor: "end", Text: short(label, 24)})
		for j, n := range h.Counts[i] {
			x := left + cell*float64(j)
			v.Cells = append(v.Cells, rect{X: coord(x), Y: coord(y), W: coord(cell), H: coord(cellH), Fill: residualColour(float64(n), expected)})
		}
	}
	for j, label := range h.Columns {
		x := left + cell*float64(j) + cell/2
		if rotate {
			v.ColLabels = append(v.ColLabels, text{X: coord(x + 3.5), Y: coord(top - 5), Anchor: "start", Text: short(label, 16), Rotate: true})
		} else {
			v.ColLabels = append(v.ColLabels, text{X: coord(x), Y: coord(top - 6), Anchor: "middle", Text: short(label, 16)})
		}
	}
	// The legend: swatches from -limit to +limit.
	const swatches = 9
	sw := 26.0
	for k := 0; k < swatches; k++ {
		z := -residualLimit + float64(k)*2*residualLimit/(swatches-1)
		v.Legend = append(v.Legend, rect{X: coord(left + sw*float64(k)), Y: coord(legendY), W: coord(sw), H: "12", Fill: colourOf(z)})
	}
	for _, z := range []float64{-residualLimit, 0, residualLimit} {
		k := (z + residualLimit) / (2 * residualLimit) * (swatches - 1)
		label := fmt.Sprintf("%+dσ", int(z))
		if z == 0 {
			label = "expected"
		}
		v.LegendText = append(v.LegendText, text{X: coord(left + sw*k + sw/2), Y: coord(legendY + 26), Anchor: "middle", Text: strings.Replace(label, "-", "−", 1)})
	}
	v.LegendText = append(v.LegendText, text{X: coord(left + sw*swatches + 10), Y: coord(legendY + 10), Anchor: "start",
		Text: "(count − expected) / √expected, clipped at ±4"})

	// The caption and the table.
	zMax, at := 0.0, ""
	v.Columns = h.Columns
	v.Rows = make([]heatmapRow, nr)
	for i, row := range h.Counts {
		v.Rows[i] = heatmapRow{Label: h.Rows[i], Counts: make([]string, nc)}
		for j, n := range row {
			v.Rows[i].Counts[j] = groupInt(n)
			if z := residual(float64(n), expected); math.Abs(z) > math.Abs(zMax) {
				zMax, at = z, fmt.Sprintf("%s, %s", h.Rows[i], h.Columns[j])
			}
		}
	}
	v.Expected = fixed(expected, 1)
	what := fmt.Sprintf("expected %s per cell", trimZeros(fixed(expected, 1)))
	if byMean {
		what = fmt.Sprintf("no expectation given: cells compared with their mean, %s", trimZeros(fixed(expected, 1)))
	}
	v.Caption = fmt.Sprintf("%s rows by %s columns, %s counted in all (%s).", groupInt(int64(nr)), groupInt(int64(nc)), groupInt(int64(total)), what)
	if at != "" {
		v.Caption += fmt.Sprintf(" Largest deviation: %sσ at %s.", fixed(zMax, 1), at)
	}
	return v
}

func residual(n, expected float64) float64 {
	if expected <= 0 {
		return 0
	}
	return (n - expected) / math.Sqrt(expected)
}

func residualColour(n, expected float64) string { return colourOf(residual(n, expected)) }

// colourOf maps a residual onto the diverging scale, blue below, red above.
func colourOf(z float64) string {
	t := math.Max(-1, math.Min(1, z/residualLimit))
	to := colourHigh
	if t < 0 {
		to, t = colourLow, -t
	}
	return mix(colourNeutral, to, t)
}

// mix returns the colour a fraction t of the way from a to b (#rrggbb).
func mix(a, b string, t float64) string {
	pa, pb := parseColour(a), parseColour(b)
	var out [3]int
	for i := range out {
		out[i] = int(math.Round(float64(pa[i]) + t*float64(pb[i]-pa[i])))
	}
	return fmt.Sprintf("#%02x%02x%02x", out[0], out[1], out[2])
}

func parseColour(s string) [3]int {
	var c [3]int
	for i := range c {
		v, _ := strconv.ParseUint(s[1+2*i:3+2*i], 16, 8)
		c[i] = int(v)
	}
	return c
}

// The p-value histogram.

// histView is a histogram of p-values in bins of 0.05 with the count a
// uniform distribution expects in each, and its two-standard-deviation
// range.
type histView struct {
	Width, Height string
	Axes          axes
	Bars          []rect
	Band          rect
	Expect        line
	Caption       string
	Bins          []histBin // the data table
}

type histBin struct{ Range, Count, Expected string }

const histBins = 20

func newHistView(ps []float64) *histView {
	var counts [histBins]int64
	below01 := 0
	for _, p := range ps {
		k := min(int(p*histBins), histBins-1)
		counts[k]++
		if p < 0.01 {
			below01++
		}
	}
	n := float64(len(ps))
	e := n / histBins
	sd := math.Sqrt(n * (1.0 / histBins) * (1 - 1.0/histBins))
	top := e + 2*sd
	for _, c := range counts {
		top = math.Max(top, float64(c))
	}
	const h, l, r, t, b = 300.0, 56.0, 16.0, 14.0, 44.0
	yt, _, y1, yd := linearTicks(0, top, 5, true)
	xs := scale{0, 1, l, chartWidth - r, false}
	ys := scale{0, y1, h - b, t, false}
	v := &histView{Width: coord(chartWidth), Height: coord(h)}
	v.Axes = newAxes(h, t, b, l, r)
	for k := 0; k <= 10; k++ {
		x := float64(k) / 10
		v.Axes.XTicks = append(v.Axes.XTicks, text{X: coord(xs.at(x)), Y: coord(h - b + 16), Anchor: "middle", Text: trimZeros(fixed(x, 1))})
	}
	for _, y := range yt {
		v.Axes.YTicks = append(v.Axes.YTicks, text{X: coord(l - 6), Y: coord(ys.at(y) + 4), Anchor: "end", Text: groupIntF(y, yd)})
		v.Axes.YGrid = append(v.Axes.YGrid, line{coord(l), coord(ys.at(y)), coord(chartWidth - r), coord(ys.at(y))})
	}
	v.Axes.XLabel = text{X: coord((l + chartWidth - r) / 2), Y: coord(h - 6), Anchor: "middle", Text: "p-value (bins of 0.05)"}
	v.Axes.YLabel = text{X: "14", Y: coord((t + h - b) / 2), Anchor: "middle", Text: "tests", Rotate: true}
	lo, hi := math.Max(0, e-2*sd), e+2*sd
	v.Band = rect{X: coord(l), Y: coord(ys.at(hi)), W: coord(chartWidth - r - l), H: coord(ys.at(lo) - ys.at(hi))}
	bw := (chartWidth - r - l) / histBins
	for k, c := range counts {
		x0 := xs.at(float64(k) / histBins)
		v.Bars = append(v.Bars, rect{X: coord(x0 + 1), Y: coord(ys.at(float64(c))), W: coord(bw - 2), H: coord(ys.at(0) - ys.at(float64(c))),
			Title: fmt.Sprintf("%s–%s: %s", fixed(float64(k)/histBins, 2), fixed(float64(k+1)/histBins, 2), groupInt(c))})
		v.Bins = append(v.Bins, histBin{
			Range:    fmt.Sprintf("[%s, %s%s", fixed(float64(k)/histBins, 2), fixed(float64(k+1)/histBins, 2), map[bool]string{true: "]", false: ")"}[k == histBins-1]),
			Count:    groupInt(c),
			Expected: trimZeros(fixed(e, 1)),
		})
	}
	v.Expect = line{coord(l), coord(ys.at(e)), coord(chartWidth - r), coord(ys.at(e))}
	v.Caption = fmt.Sprintf("%s p-values; %s below 0.05 (%s expected if uniform), %s below 0.01 (%s expected).",
		groupInt(int64(len(ps))), groupInt(counts[0]), trimZeros(fixed(e, 1)), groupInt(int64(below01)), trimZeros(fixed(n/100, 1)))
	return v
}

// groupIntF writes a tick value: grouped digits when whole.
func groupIntF(v float64, decimals int) string {
	if decimals == 0 {
		return groupInt(int64(math.Round(v)))
	}
	return fixed(v, decimals)
}

// newAxes returns the frame of a plot of height h with margins t, b, l, r.
func newAxes(h, t, b, l, r float64) axes {
	return axes{Left: coord(l), Right: coord(chartWidth - r), Top: coord(t), Bottom: coord(h - b)}
}

// The series.

// seriesView is an observed value over x with its band and target.
type seriesView struct {
	Width, Height string
	Axes          axes
	Band          string // the band's polygon (path data)
	Observed      string // the observed polyline's points
	Target        line
	Outside       []text // the points outside the band (X, Y only)
	Legend        []text
	Caption       string

	XLabel, YLabel string
	Points         []seriesRow // the data table
}

type seriesRow struct{ X, Observed, Low, High, Inside string }

func newSeriesView(s *Series) *seriesView {
	ps := s.Points
	lo, hi := s.Target, s.Target
	for _, p := range ps {
		lo = math.Min(lo, math.Min(p.Low, p.Observed))
		hi = math.Max(hi, math.Max(p.High, p.Observed))
	}
	x0, x1 := float64(ps[0].X), float64(ps[len(ps)-1].X)
	logX := x0 > 0 && x1/x0 >= 100
	const h, l, r, t, b = 320.0, 64.0, 16.0, 28.0, 44.0
	yt, y0, y1, yd := linearTicks(lo, hi, 6, false)
	if x1 == x0 {
		x0, x1 = x0-1, x1+1
	}
	xs := scale{x0, x1, l, chartWidth - r, logX}
	ys := scale{y0, y1, h - b, t, false}
	v := &seriesView{Width: coord(chartWidth), Height: coord(h), XLabel: s.XLabel, YLabel: s.YLabel}
	v.Axes = newAxes(h, t, b, l, r)
	for _, y := range yt {
		v.Axes.YTicks = append(v.Axes.YTicks, text{X: coord(l - 6), Y: coord(ys.at(y) + 4), Anchor: "end", Text: fixed(y, yd)})
		v.Axes.YGrid = append(v.Axes.YGrid, line{coord(l), coord(ys.at(y)), coord(chartWidth - r), coord(ys.at(y))})
	}
	for _, x := range xTicks(x0, x1, logX) {
		v.Axes.XTicks = append(v.Axes.XTicks, text{X: coord(xs.at(x)), Y: coord(h - b + 16), Anchor: "middle", Text: compact(x)})
		v.Axes.XGrid = append(v.Axes.XGrid, line{coord(xs.at(x)), coord(t), coord(xs.at(x)), coord(h - b)})
	}
	xl := s.XLabel
	if logX {
		xl += " (log scale)"
	}
	v.Axes.XLabel = text{X: coord((l + chartWidth - r) / 2), Y: coord(h - 6), Anchor: "middle", Text: strings.TrimSpace(xl)}
	v.Axes.YLabel = text{X: "14", Y: coord((t + h - b) / 2), Anchor: "middle", Text: s.YLabel, Rotate: true}

	var band, obs strings.Builder
	for i, p := range ps {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&band, "%s%s %s ", cmd, coord(xs.at(float64(p.X))), coord(ys.at(p.High)))
	}
	for i := len(ps) - 1; i >= 0; i-- {
		fmt.Fprintf(&band, "L%s %s ", coord(xs.at(float64(ps[i].X))), coord(ys.at(ps[i].Low)))
	}
	band.WriteString("Z")
	v.Band = band.String()
	outside := 0
	last := ps[len(ps)-1]
	decimals := yd + 2
	if w := last.High - last.Low; w > 0 {
		decimals = max(yd, min(8, int(math.Ceil(-math.Log10(w)))+1))
	}
	for i, p := range ps {
		if i > 0 {
			obs.WriteByte(' ')
		}
		x, y := coord(xs.at(float64(p.X))), coord(ys.at(p.Observed))
		obs.WriteString(x + "," + y)
		in := p.Observed >= p.Low && p.Observed <= p.High
		if !in {
			outside++
			v.Outside = append(v.Outside, text{X: x, Y: y})
		}
		v.Points = append(v.Points, seriesRow{X: groupInt(p.X), Observed: fixed(p.Observed, decimals), Low: fixed(p.Low, decimals),
			High: fixed(p.High, decimals), Inside: map[bool]string{true: "yes", false: "no"}[in]})
	}
	v.Observed = obs.String()
	v.Target = line{coord(l), coord(ys.at(s.Target)), coord(chartWidth - r), coord(ys.at(s.Target))}
	v.Caption = fmt.Sprintf("After %s %s: %s observed, band [%s, %s] around the theoretical %s; %s of %s points outside the band.",
		groupInt(last.X), orWord(s.XLabel, "units"), fixed(last.Observed, decimals), fixed(last.Low, decimals), fixed(last.High, decimals),
		fixed(s.Target, decimals), groupInt(int64(outside)), groupInt(int64(len(ps))))
	return v
}

func orWord(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// xTicks returns the ticks of the x axis: powers of ten on a log scale,
// nice steps on a linear one.
func xTicks(x0, x1 float64, logX bool) []float64 {
	if !logX {
		t, _, _, _ := linearTicks(x0, x1, 6, true)
		return slices.DeleteFunc(t, func(v float64) bool { return v < x0 || v > x1 })
	}
	var t []float64
	for p := math.Ceil(math.Log10(x0) - 1e-9); p <= math.Log10(x1)+1e-9; p++ {
		t = append(t, math.Pow(10, p))
	}
	return t
}

// The bars.

// barsView is one row per bar: its label, a bar of its count, and a bar
// of its amount in each currency.
type barsView struct {
	Width, Height string
	Headers       []text
	Rows          []barRow
	Dividers      []line
	Caption       string

	Currencies []string // the table's amount columns
}

type barRow struct {
	Label     text
	Count     rect
	CountText text
	Amounts   []barAmount

	// The data table.
	Name     string
	N        string
	AmountsT []string
}

type barAmount struct {
	Bar  rect
	Text text
	Neg  bool
}

func newBarsView(bars []Bar) *barsView {
	codes := map[string]bool{}
	var maxCount int64
	maxLabel := 4
	for _, b := range bars {
		maxCount = max(maxCount, b.Count)
		maxLabel = max(maxLabel, utf8.RuneCountInString(short(b.Label, 40)))
		for c := range b.Amount {
			codes[c] = true
		}
	}
	curs := slices.Sorted(maps.Keys(codes))
	const rowH, top = 22.0, 26.0
	left := 8 + 6.6*float64(maxLabel)
	countW := 220.0
	width := math.Max(chartWidth, left+countW+amountW*float64(len(curs))+8)
	v := &barsView{Width: coord(width), Height: coord(top + rowH*float64(len(bars)) + 6), Currencies: curs}
	v.Headers = append(v.Headers, text{X: coord(left + 4), Y: "14", Anchor: "start", Text: "count"})
	// Each currency's column is a scale from its least to its largest
	// amount, with zero inside.
	cols := make([]amountScale, len(curs))
	for k, c := range curs {
		for _, b := range bars {
			a := b.Amount[c]
			cols[k].lo, cols[k].hi = min(cols[k].lo, a), max(cols[k].hi, a)
		}
		x := left + countW + amountW*float64(k)
		v.Headers = append(v.Headers, text{X: coord(x + 8 + textW), Y: "14", Anchor: "end", Text: currencyHeader(c)})
		v.Dividers = append(v.Dividers, line{coord(x), "4", coord(x), coord(top + rowH*float64(len(bars)))})
		if zero, ok := cols[k].at(0, x); ok && cols[k].lo < 0 {
			v.Dividers = append(v.Dividers, line{coord(zero), coord(top), coord(zero), coord(top + rowH*float64(len(bars)))})
		}
	}
	var total int64
	for i, b := range bars {
		total += b.Count
		y := top + rowH*float64(i)
		w := 0.0
		if maxCount > 0 {
			w = (countW - 60) * float64(b.Count) / float64(maxCount)
		}
		row := barRow{
			Label:     text{X: coord(left - 6), Y: coord(y + rowH/2 + 4), Anchor: "end", Text: short(b.Label, 40)},
			Count:     rect{X: coord(left + 4), Y: coord(y + 3), W: coord(w), H: coord(rowH - 6)},
			CountText: text{X: coord(left + 4 + w + 4), Y: coord(y + rowH/2 + 4), Anchor: "start", Text: groupInt(b.Count)},
			Name:      b.Label,
			N:         groupInt(b.Count),
		}
		for k, c := range curs {
			a, ok := b.Amount[c]
			s := "–"
			if ok {
				s = formatAmount(c, a)
			}
			row.AmountsT = append(row.AmountsT, s)
			x := left + countW + amountW*float64(k)
			am := barAmount{Text: text{X: coord(x + 8 + textW), Y: coord(y + rowH/2 + 4), Anchor: "end", Text: s}, Neg: a < 0}
			if zero, ok := cols[k].at(0, x); ok && a != 0 {
				end, _ := cols[k].at(a, x)
				am.Bar = rect{X: coord(math.Min(zero, end)), Y: coord(y + 6), W: coord(math.Max(math.Abs(end-zero), 1)), H: coord(rowH - 12)}
			}
			row.Amounts = append(row.Amounts, am)
		}
		v.Rows = append(v.Rows, row)
	}
	v.Caption = fmt.Sprintf("%s %s, %s in all.", groupInt(int64(len(bars))), plural(len(bars), "label", "labels"), groupInt(total))
	if len(curs) > 0 {
		v.Caption += " Amounts are the sums of the differences, per currency."
	}
	return v
}

// The columns of the amounts: the amount's text, then its bar.
const amountW, textW = 200.0, 90.0

// amountScale maps a currency's amounts onto the bar area of its column,
// from its least amount (or zero) to its largest (or zero).
type amountScale struct{ lo, hi int64 }

// at returns the x of amount a in the column that starts at x; false when
// every amount is zero.
func (s amountScale) at(a int64, x float64) (float64, bool) {
	if s.hi == s.lo {
		return 0, false
	}
	x0, inner := x+textW+16, amountW-textW-24
	return x0 + inner*(float64(a)-float64(s.lo))/(float64(s.hi)-float64(s.lo)), true
}

// currencyHeader names a currency's column: its code, and "minor units"
// when its decimals are not those of ISO 4217.
func currencyHeader(code string) string {
	if _, ok := isoCurrency(code); ok {
		return code
	}
	return code + " (minor units)"
}

// formatAmount writes an amount of minor units, under its currency's
// column header: in units of the currency when it is an ISO 4217 code
// (whose decimals a report cannot have redefined without saying so), else
// in minor units; the digits are money.FormatNumber's, with the report's
// true minus sign.
func formatAmount(code string, minor int64) string {
	decimals := 0
	if c, ok := isoCurrency(code); ok {
		decimals = c.Decimals
	}
	s := money.FormatNumber(minor, decimals)
	if rest, neg := strings.CutPrefix(s, "-"); neg {
		return "−" + rest
	}
	return s
}

func isoCurrency(code string) (currency.Currency, bool) {
	c, ok := currency.Builtin.Lookup(code)
	return c, ok && c.Source == currency.SourceISO
}
