package suite

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/commitments"
	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/replayer"

	fnote "github.com/transparency-dev/formats/note"
)

// commitmentCodes are the findings the commitments check decides on; the
// replay's other findings are the replay requirement's.
var commitmentCodes = []finding.Code{
	finding.CommitmentUnlogged, finding.CommitmentPublishedLate, finding.CommitmentMisbound,
	finding.CommitmentOutOfOrder, finding.CommitmentLogInvalid, finding.CommitmentLogSplitView,
}

// checkCommitments replays the logs against the operator's commitment log,
// as `fairhold replay --commitment-log` does (docs/replay.md, "Commitment
// log"): every seed session's commitment (chain anchor) in the log, bound
// to its session, public by the trusted evidence (witness cosignatures,
// RFC 3161 tokens) before the session's first round, used in publication
// order, the log consistent with the checkpoints kept. It passes when no
// COMMITMENT_* finding is made and every session's time was checked: a
// session no trusted evidence covers is a check not made. The replay's
// other findings are the replay requirement's. Result:
// [replayer.CommitmentLogSummary]. Figure: the commitment findings by code.
func checkCommitments(e *env, r *Requirement) (result, error) {
	p := r.params.(*CommitmentsParams)
	if len(e.s.Artefacts.Logs) == 0 {
		return notTested("no round log: the suite names none (artefacts.logs)")
	}
	if p.Log == "" {
		return notTested("no commitment log: the requirement names none (params.commitment_log)")
	}
	subjects := []string{"logs", "profile", "commitment_log", "log_key"}
	logKey, err := manifest.LoadPublicKey(e.path(p.LogKey))
	if err != nil {
		return result{}, &Error{File: p.LogKey, Err: err}
	}
	opts := commitments.Options{Location: e.path(p.Log), Origin: p.Origin, Key: logKey, Operator: p.Operator,
		Trust: commitlog.Trust{Quorum: p.WitnessQuorum}}
	for _, w := range p.WitnessKeys {
		b, err := os.ReadFile(e.path(w))
		if err != nil {
			return result{}, fmt.Errorf("failed to read %s: %w", e.path(w), err)
		}
		v := strings.TrimSpace(string(b))
		if _, err := fnote.NewVerifierForCosignatureV1(v); err != nil {
			return result{}, &Error{File: w, Err: fmt.Errorf("%v; want a C2SP verifier key, name+hash+base64", err)}
		}
		opts.Trust.Witnesses = append(opts.Trust.Witnesses, v)
	}
	if len(p.WitnessKeys) > 0 {
		subjects = append(subjects, "witness_keys")
	}
	if len(p.TSACerts) > 0 {
		subjects = append(subjects, "tsa_certs")
		opts.Trust.TSARoots = x509.NewCertPool()
		for _, c := range p.TSACerts {
			b, err := os.ReadFile(e.path(c))
			if err != nil {
				return result{}, fmt.Errorf("failed to read %s: %w", e.path(c), err)
			}
			n := 0
			for {
				var blk *pem.Block
				if blk, b = pem.Decode(b); blk == nil {
					break
				}
				cert, err := x509.ParseCertificate(blk.Bytes)
				if err != nil {
					return result{}, &Error{File: c, Err: err}
				}
				opts.Trust.TSARoots.AddCert(cert)
				n++
			}
			if n == 0 {
				return result{}, &Error{File: c, Err: errors.New("no PEM CERTIFICATE block")}
			}
		}
	}
	for _, k := range p.Kept {
		b, err := os.ReadFile(e.path(k))
		if err != nil {
			return result{}, fmt.Errorf("failed to read %s: %w", e.path(k), err)
		}
		opts.Old = append(opts.Old, commitments.OldCheckpoint{Name: k, Raw: b})
	}
	if len(p.Kept) > 0 {
		subjects = append(subjects, "kept_checkpoints")
	}
	lg, err := commitments.Load(e.ctx, opts)
	if err != nil {
		if errors.Is(err, commitments.ErrUsage) {
			return result{}, &Error{File: e.s.file, Field: "params.kept_checkpoints", Err: err}
		}
		return result{}, &Error{File: e.s.file, Field: "params.commitment_log", Err: err}
	}
	currencies, err := currency.NewTable(p.Currencies)
	if err != nil {
		return result{}, err
	}
	rules, err := audit.NewRulebook(e.prof)
	if err != nil {
		return result{}, err
	}
	bars := map[finding.Code]*report.Bar{}
	ids := map[finding.Code][]string{}
	ropts := replayer.Options{
		Workers:    e.opts.Workers,
		Config:     &audit.Config{Dealers: audit.SchemeDealers{}, Rules: rules, Double: audit.DoubleEngine{Rules: rules}},
		Currencies: currencies,
		CommitLog:  lg,
		Findings: func(f *finding.Finding) error {
			if !slices.Contains(commitmentCodes, f.Code) {
				return nil
			}
			b := bars[f.Code]
			if b == nil {
				b = &report.Bar{Label: string(f.Code)}
				bars[f.Code] = b
			}
			b.Count++
			if l := ids[f.Code]; f.RoundID != "" && len(l) < report.MaxSampleRoundIDs && !slices.Contains(l, f.RoundID) {
				ids[f.Code] = append(l, f.RoundID)
			}
			return nil
		},
	}
	m := e.meter("commitments", "rounds", 0)
	ropts.Progress = m.add
	sum, err := replayer.Run(e.logPaths(), ropts)
	m.end()
	if err != nil {
		return result{}, e.logsError(err)
	}
	cl := sum.CommitmentLog
	res := result{status: report.Pass, subjects: subjects, period: sum.Period}
	if cl == nil {
		return result{}, errors.New("the replay with a commitment log returned no commitment log summary")
	}
	res.value = cl
	res.summary = fmt.Sprintf("%d seed sessions checked against the commitment log (%d entries, %d timed checkpoints, %d kept)",
		cl.Sessions, cl.Size, cl.TimedCheckpoints, cl.KeptCheckpoints)
	codes := slices.Sorted(maps.Keys(bars))
	if len(codes) > 0 {
		res.status = report.Fail
		chart := report.Chart{Kind: report.ChartBars, Title: "commitment findings by code"}
		parts := make([]string, len(codes))
		for i, c := range codes {
			parts[i] = fmt.Sprintf("%s %d", c, bars[c].Count)
			chart.Bars = append(chart.Bars, *bars[c])
			res.samples = append(res.samples, report.FindingSample{Code: string(c), Count: bars[c].Count, RoundIDs: append([]string{}, ids[c]...)})
		}
		res.summary += ": " + strings.Join(parts, ", ")
		res.charts = []report.Chart{chart}
	}
	// The checks of the log not made: sessions no trusted evidence covers
	// (the replay's warning), a log that did not verify, or no session.
	var notMade []string
	for _, t := range cl.Tables {
		if t.Untimed > 0 {
			notMade = append(notMade, fmt.Sprintf("table %s: %d sessions with no trusted evidence of when their commitment was public", t.Table, t.Untimed))
		}
	}
	notMade = append(notMade, sum.NotChecked...)
	if cl.Sessions == 0 {
		notMade = append(notMade, "no seed session in the logs")
	}
	if len(notMade) > 0 {
		res.summary += fmt.Sprintf("; %d checks not made: %s", len(notMade), strings.Join(notMade, "; "))
		if res.status == report.Pass {
			res.status = report.NotTested
		}
	}
	return res, nil
}
