package suite

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/replayer"
)

// checkReplay replays the logs, as `fairhold replay --profile` does with
// the suite's profile: every round re-dealt from its seeds and
// re-settled, the rounds checked against each other and the datasets
// against their manifests. It passes when there is no finding and no
// warning: a warning (no manifest, a manifest unsigned or signed without
// the key given, tables without table_seq or committed_at) is a check not
// made, and the requirement is then not tested. Result:
// [replayer.Summary], whose Seconds is left 0 so that the report does not
// depend on the machine. Figure: the findings by code, with the money
// they concern per currency.
func checkReplay(e *env, r *Requirement) (result, error) {
	p := r.params.(*ReplayParams)
	if len(e.s.Artefacts.Logs) == 0 {
		return notTested("no round log: the suite names none (artefacts.logs)")
	}
	subjects := []string{"logs", "profile"}
	var key ed25519.PublicKey
	if p.ManifestKey != "" {
		subjects = append(subjects, "manifest_key")
		k, err := manifest.LoadPublicKey(e.path(p.ManifestKey))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return result{}, fmt.Errorf("failed to read %s: %w", e.path(p.ManifestKey), err)
			}
			return result{}, &Error{File: p.ManifestKey, Err: err}
		}
		key = k
	}
	currencies, err := currency.NewTable(p.Currencies)
	if err != nil {
		return result{}, err
	}
	rules, err := audit.NewRulebook(e.prof)
	if err != nil {
		return result{}, err
	}
	paths := e.logPaths()
	bars := map[finding.Code]*report.Bar{}
	// The first round ids of each code, in the findings' canonical order
	// (the log's), whatever the number of workers.
	ids := map[finding.Code][]string{}
	opts := replayer.Options{
		Workers:    e.opts.Workers,
		Config:     &audit.Config{Dealers: audit.SchemeDealers{}, Rules: rules, Double: audit.DoubleEngine{Rules: rules}},
		Currencies: currencies,
		Manifests:  replayer.LoadManifests(paths, key),
		Findings: func(f *finding.Finding) error {
			b := bars[f.Code]
			if b == nil {
				b = &report.Bar{Label: string(f.Code)}
				bars[f.Code] = b
			}
			b.Count++
			if l := ids[f.Code]; f.RoundID != "" && len(l) < report.MaxSampleRoundIDs && !slices.Contains(l, f.RoundID) {
				ids[f.Code] = append(l, f.RoundID)
			}
			if f.Difference != nil && f.Currency != "" {
				if b.Amount == nil {
					b.Amount = map[string]int64{}
				}
				if s, err := money.Add(b.Amount[f.Currency], *f.Difference); err == nil {
					b.Amount[f.Currency] = s
				}
			}
			return nil
		},
	}
	m := e.meter("replay", "rounds", 0)
	opts.Progress = m.add
	sum, err := replayer.Run(paths, opts)
	m.end()
	if err != nil {
		return result{}, e.logsError(err)
	}
	sum.Seconds = 0
	res := result{status: report.Pass, value: sum, subjects: subjects, period: sum.Period}
	n := sum.FindingsTotal()
	res.summary = fmt.Sprintf("%d rounds replayed, %d findings", sum.Rounds, n)
	if n > 0 {
		res.status = report.Fail
		codes := slices.Sorted(maps.Keys(sum.Findings))
		parts := make([]string, len(codes))
		for i, c := range codes {
			parts[i] = fmt.Sprintf("%s %d", c, sum.Findings[c])
		}
		res.summary += ": " + strings.Join(parts, ", ")
		chart := report.Chart{Kind: report.ChartBars, Title: "findings by code, and the money they concern (actual - expected, minor units)"}
		for _, c := range codes {
			b := bars[c]
			if b == nil { // counted, but not handed to the callback
				b = &report.Bar{Label: string(c), Count: sum.Findings[c]}
			}
			chart.Bars = append(chart.Bars, *b)
		}
		res.charts = []report.Chart{chart}
		for _, c := range codes {
			res.samples = append(res.samples, report.FindingSample{Code: string(c), Count: sum.Findings[c], RoundIDs: append([]string{}, ids[c]...)})
		}
	}
	res.summary += rotationText(sum)
	if len(sum.Warnings) > 0 {
		// A warning is a check not made (docs/threat-model.md section 5):
		// a replay with one is not a pass, whatever else it found.
		res.summary += fmt.Sprintf("; %d checks not made: %s", len(sum.Warnings), strings.Join(sum.Warnings, "; "))
		if res.status == report.Pass {
			res.status = report.NotTested
		}
	}
	return res, nil
}

// rotationText sums up the client-seed rotations of the replay for the
// evidence's line (the result holds every table's and player's rate):
// the tables and players that logged one, and the highest rate of each.
func rotationText(sum *replayer.Summary) string {
	if len(sum.Rotations) == 0 && len(sum.PlayerRotations) == 0 {
		return ""
	}
	out := "; client-seed rotations:"
	if len(sum.Rotations) > 0 {
		hi := highest(sum.Rotations, func(r replayer.TableRotations) replayer.RotationTest { return r.RotationTest })
		out += fmt.Sprintf(" %d tables (highest %s, %.4f of %d rounds)", len(sum.Rotations), hi.Table, hi.Rate, hi.Rounds)
	}
	if len(sum.PlayerRotations) > 0 {
		hi := highest(sum.PlayerRotations, func(r replayer.PlayerRotations) replayer.RotationTest { return r.RotationTest })
		out += fmt.Sprintf(" %d players (highest %s, %.4f of %d rounds)", len(sum.PlayerRotations), hi.Player, hi.Rate, hi.Rounds)
	}
	return out
}

// highest returns the first of rs with the highest rate.
func highest[T any](rs []T, test func(T) replayer.RotationTest) T {
	hi := rs[0]
	for _, r := range rs[1:] {
		if test(r).Rate > test(hi).Rate {
			hi = r
		}
	}
	return hi
}
