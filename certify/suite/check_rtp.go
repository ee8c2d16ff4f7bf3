package suite

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/certify/rtp"
	"github.com/fairhold/fairhold/replay/roundlog"
)

// observe sums the logs' Casino Hold'em boxes against the exact theory,
// once for both rtp checks; with the suite's strategy file as the
// declared strategy.
func (e *env) observe() (*rtp.Observer, error) {
	e.observeOnce.Do(func() {
		th, err := e.solve()
		if err != nil {
			e.observedErr = err
			return
		}
		o := rtp.NewObserver(th)
		if e.s.Artefacts.Strategy != "" {
			d, err := e.loadStrategy()
			if err != nil {
				e.observedErr = err
				return
			}
			o.Declare(d)
		}
		ds, err := roundlog.Open(e.logPaths()...)
		if err != nil {
			e.observedErr = e.logsError(err)
			return
		}
		defer ds.Close()
		if _, err := ds.Scan(func(rec *roundlog.Record) error {
			_ = o.Add(&rec.Round) // a round that cannot be evaluated is counted as skipped
			return nil
		}); err != nil {
			e.observedErr = fmt.Errorf("failed to read the logs: %w", err)
			return
		}
		e.observed = o
	})
	return e.observed, e.observedErr
}

// readStrategy reads a strategy file written for the suite's profile.
func (e *env) readStrategy(p string) (*exact.Decisions, error) {
	f, err := os.Open(e.path(p))
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", e.path(p), err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	d, meta, err := exact.ReadDecisions(f, fi.Size())
	if err != nil {
		return nil, &Error{File: p, Err: err}
	}
	if h := meta[exact.MetaProfileHash]; h != e.prof.Hash() {
		return nil, &Error{File: p, Field: "metadata " + exact.MetaProfileHash,
			Err: fmt.Errorf("%q: the strategy was written for another profile than %s (sha256 %s)", h, e.prof.Name, e.prof.Hash())}
	}
	if !d.Complete() {
		return nil, &Error{File: p, Err: fmt.Errorf("decides %d of the 25,989,600 (hole, flop) states: want every one", d.States())}
	}
	return d, nil
}

// rtpReport returns the observed-return tests at alpha, or why they are
// not tested.
func (e *env) rtpReport(alpha float64) (*rtp.Report, string, error) {
	if len(e.s.Artefacts.Logs) == 0 {
		return nil, "no round log: the suite names none (artefacts.logs)", nil
	}
	o, err := e.observe()
	if errors.Is(err, rtp.ErrUnsupported) {
		return nil, err.Error(), nil
	}
	if err != nil {
		return nil, "", err
	}
	rep := o.Report(alpha)
	if len(rep.Cells) == 0 {
		return nil, fmt.Sprintf("no %s round of the logs could be evaluated (skipped: %v)", e.s.Game, rep.Skipped), nil
	}
	return rep, "", nil
}

func rtpSubjects() []string {
	return []string{"logs", "profile", "strategy"}
}

// checkRTPObserved compares, per game, currency and bet type, the
// logged returns with the exact expected return of the decisions taken:
// it passes when every observed RTP is inside its interval. Result:
// [rtp.Report]. Figure: per game and currency, the observed RTP of all
// bets converging inside its band.
func checkRTPObserved(e *env, r *Requirement) (result, error) {
	p := r.params.(*AlphaParams)
	rep, why, err := e.rtpReport(p.Alpha)
	if err != nil || rep == nil {
		res, _ := notTested(why)
		res.subjects = rtpSubjects()
		return res, err
	}
	res := result{status: report.Pass, value: rep, subjects: rtpSubjects()}
	if !rep.ObservedPass {
		res.status = report.Fail
	}
	var parts []string
	for _, c := range rep.Cells {
		for _, b := range c.Bets {
			mark := ""
			if !b.Pass {
				mark = " OUTSIDE"
			}
			parts = append(parts, fmt.Sprintf("%s %s %s: %.4f%% observed, %.4f%% expected [%.4f%%, %.4f%%]%s",
				c.Game, c.Currency, b.Bet, 100*b.Observed, 100*b.Expected, 100*b.Low, 100*b.High, mark))
		}
		res.charts = append(res.charts, observedSeries(c))
	}
	res.summary = strings.Join(parts, "; ")
	return res, nil
}

// checkRTPDecisions is the decision test: the sum over boxes of (return -
// the exact expected return of the decision taken) standardized, the round
// being the unit; it passes when no cell's deviation is significant.
// Result: [rtp.Report]. Figure: per game and currency, the deviation per
// unit wagered inside its band.
func checkRTPDecisions(e *env, r *Requirement) (result, error) {
	p := r.params.(*AlphaParams)
	rep, why, err := e.rtpReport(p.Alpha)
	if err != nil || rep == nil {
		res, _ := notTested(why)
		res.subjects = rtpSubjects()
		return res, err
	}
	res := result{status: report.Pass, value: rep, subjects: rtpSubjects()}
	if !rep.DecisionsPass {
		res.status = report.Fail
	}
	var parts []string
	for _, c := range rep.Cells {
		d := c.Decisions
		parts = append(parts, fmt.Sprintf("%s %s: %d rounds, %d boxes, deviation %.0f minor units, z = %.2f, P = %.3g (level %.3g)",
			c.Game, c.Currency, c.Rounds, c.Boxes, d.Deviation, d.Z, d.P, d.Level))
		res.charts = append(res.charts, deviationSeries(c))
	}
	res.summary = strings.Join(parts, "; ")
	return res, nil
}

// total returns the cell's test of all bets.
func total(c rtp.Cell) rtp.BetTest {
	for _, b := range c.Bets {
		if b.Bet == rtp.BetTotal {
			return b
		}
	}
	return rtp.BetTest{}
}

// observedSeries is the observed RTP of all bets after each point, with
// the band of the interval around the expected RTP.
func observedSeries(c rtp.Cell) report.Chart {
	t := total(c)
	z := distuv.UnitNormal.Quantile(1 - t.Level/2)
	s := &report.Series{XLabel: "rounds", YLabel: "RTP (all bets)", Target: finite(t.Expected)}
	for _, p := range c.Points {
		if p.Wagered == 0 {
			continue
		}
		w := float64(p.Wagered)
		s.Points = append(s.Points, report.Point{X: p.Rounds, Observed: finite(float64(p.Returned) / w),
			Low: finite((p.Expected - z*p.SD) / w), High: finite((p.Expected + z*p.SD) / w)})
	}
	return report.Chart{Kind: report.ChartSeries, Title: fmt.Sprintf("observed RTP, %s %s, inside its interval", c.Game, c.Currency), Series: s}
}

// deviationSeries is the deviation from the expected return per unit
// wagered after each point, with its band around 0.
func deviationSeries(c rtp.Cell) report.Chart {
	z := distuv.UnitNormal.Quantile(1 - c.Decisions.Level/2)
	s := &report.Series{XLabel: "rounds", YLabel: "(return - expected) / wagered"}
	for _, p := range c.Points {
		if p.Wagered == 0 {
			continue
		}
		w := float64(p.Wagered)
		s.Points = append(s.Points, report.Point{X: p.Rounds, Observed: finite((float64(p.Returned) - p.Expected) / w),
			Low: finite(-z * p.SD / w), High: finite(z * p.SD / w)})
	}
	return report.Chart{Kind: report.ChartSeries, Title: fmt.Sprintf("deviation from the decisions' expected return, %s %s", c.Game, c.Currency), Series: s}
}

// finite keeps a figure's value encodable in JSON.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}
