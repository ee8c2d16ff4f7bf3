package audit

import (
	"fmt"

	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
)

// Rulebook resolves the rules profile each round is settled by: the
// declared profile when the audit names one (`--profile`), otherwise the
// built-in profile the round names. It is read-only after [NewRulebook]
// and safe for concurrent use.
type Rulebook struct {
	declared *profile.Profile
	profiles map[string]*entry // by profile name
}

type entry struct {
	p      *profile.Profile
	hash   string
	casino *CasinoRules // nil for a Double Hold'em profile
}

// NewRulebook loads the built-in profiles and, if declared is not nil,
// makes it the profile of every round.
func NewRulebook(declared *profile.Profile) (*Rulebook, error) {
	b := &Rulebook{declared: declared, profiles: map[string]*entry{}}
	ps := []*profile.Profile{declared}
	if declared == nil {
		ps = ps[:0]
		for _, n := range profile.Names() {
			p, err := profile.Builtin(n)
			if err != nil {
				return nil, err
			}
			ps = append(ps, p)
		}
	}
	for _, p := range ps {
		e := &entry{p: p, hash: p.Hash()}
		if p.Casino != nil {
			cr, err := NewCasinoRules(p)
			if err != nil {
				return nil, fmt.Errorf("profile %s: %w", p.Name, err)
			}
			e.casino = cr
		}
		b.profiles[p.Name] = e
	}
	return b, nil
}

// lookup returns the profile entry for r, or an error saying why there is
// none: an unknown profile name, or a declared profile of another game.
func (b *Rulebook) lookup(r *round.Round) (*entry, error) {
	if b.declared != nil {
		e := b.profiles[b.declared.Name]
		if e.p.Game != r.Game {
			return nil, fmt.Errorf("declared profile %s is for %s, the round is %s", e.p.Name, e.p.Game, r.Game)
		}
		return e, nil
	}
	e, ok := b.profiles[r.Profile]
	if !ok {
		return nil, fmt.Errorf("no built-in profile %q; name one with --profile", r.Profile)
	}
	if e.p.Game != r.Game {
		return nil, fmt.Errorf("profile %s is for %s, the round is %s", e.p.Name, e.p.Game, r.Game)
	}
	return e, nil
}

// Casino returns the Casino Hold'em rules of r.
func (b *Rulebook) Casino(r *round.Round) (*CasinoRules, error) {
	e, err := b.lookup(r)
	return e.casinoRules(err)
}

// casinoRules returns the entry's Casino Hold'em rules, or why there are
// none (err from lookup first).
func (e *entry) casinoRules(err error) (*CasinoRules, error) {
	if err != nil {
		return nil, err
	}
	if e.casino == nil {
		return nil, fmt.Errorf("profile %s is not a Casino Hold'em profile", e.p.Name)
	}
	return e.casino, nil
}

// Profile returns the profile of r.
func (b *Rulebook) Profile(r *round.Round) (*profile.Profile, error) {
	e, err := b.lookup(r)
	if err != nil {
		return nil, err
	}
	return e.p, nil
}

// Hash returns the hash of r's profile, "" when there is none.
func (b *Rulebook) Hash(r *round.Round) string {
	e, err := b.lookup(r)
	if err != nil {
		return ""
	}
	return e.hash
}
