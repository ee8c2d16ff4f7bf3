package suite

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/certify/rtp"
	"github.com/fairhold/fairhold/certify/strategy"
)

// checkMathClaims decides the profile's published RTP claims against the
// exact mathematics, as `fairhold math` does: it passes when every claim
// selected reproduces, fails when one does not, and is not tested when a
// claim cannot be decided (a basic strategy this build does not define)
// or none is published. Result: [rtp.Math].
func checkMathClaims(e *env, r *Requirement) (result, error) {
	p := r.params.(*MathParams)
	subjects := []string{"profile"}
	_, err := e.solve()
	if err != nil {
		if errors.Is(err, rtp.ErrUnsupported) {
			res, _ := notTested(err.Error())
			res.subjects = subjects
			return res, nil
		}
		return result{}, err
	}
	var basic *strategy.Strategy
	if p.BasicStrategy != "" {
		if basic, err = e.basicStrategy(p.BasicStrategy); err != nil {
			return result{}, err
		}
		if !slices.Contains(strategy.Names(), p.BasicStrategy) {
			subjects = append(subjects, "basic_strategy")
		}
	}
	m, err := rtp.CheckClaims(e.game, e.sol, p.Strategies, basic)
	if err != nil {
		res, _ := notTested(err.Error())
		res.subjects = subjects
		return res, nil
	}
	if p.Claims != nil {
		m.Claims = slices.DeleteFunc(m.Claims, func(c rtp.Claim) bool { return !slices.Contains(p.Claims, c.Name) })
	}
	res := result{status: report.Pass, value: m, subjects: subjects}
	if len(m.Claims) == 0 {
		res.status = report.NotTested
		res.summary = fmt.Sprintf("profile %s publishes no RTP claim under %s", m.Profile, strategiesText(p.Strategies))
		if p.Claims != nil {
			res.summary += " among " + strings.Join(p.Claims, ", ")
		}
		return res, nil
	}
	var parts []string
	for _, c := range m.Claims {
		switch c.Status {
		case rtp.ClaimFail:
			res.status = report.Fail
			if c.CapUnstated {
				parts = append(parts, fmt.Sprintf("%s claimed %s%% at no stated ante: not reproduced, %s (%s%%)", c.Name, c.Claimed, c.Note, c.Computed))
				continue
			}
			parts = append(parts, fmt.Sprintf("%s claimed %s%%, computed %s%% (%s%%): not reproduced", c.Name, c.Claimed, c.Computed, c.ComputedExact))
		case rtp.ClaimNotChecked:
			if res.status == report.Pass {
				res.status = report.NotTested
			}
			parts = append(parts, fmt.Sprintf("%s claimed %s%%: not decided (%s)", c.Name, c.Claimed, c.Note))
		default:
			parts = append(parts, fmt.Sprintf("%s claimed %s%%, computed %s%%", c.Name, c.Claimed, c.Computed))
		}
	}
	res.summary = fmt.Sprintf("profile %s, optimal strategy RTP %.5f%% per total wager: %s", m.Profile, 100*m.RTPTotalWager, strings.Join(parts, "; "))
	return res, nil
}

func strategiesText(s []string) string {
	if len(s) == 0 {
		return "any strategy"
	}
	return "the " + strings.Join(s, ", ") + " strategy"
}

// basicStrategy returns a declared basic strategy: built in, or a rules
// file relative to the suite.
func (e *env) basicStrategy(name string) (*strategy.Strategy, error) {
	if slices.Contains(strategy.Names(), name) {
		return strategy.Builtin(name)
	}
	data, err := os.ReadFile(e.path(name))
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", e.path(name), err)
	}
	st, err := strategy.Parse(data)
	if err != nil {
		return nil, &Error{File: name, Err: err}
	}
	st.Name = name
	return st, nil
}
