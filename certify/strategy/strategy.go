package strategy

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/card"
)

// Strategy is a parsed Casino Hold'em strategy: rules tried in order, the
// first whose condition holds deciding, and the decision when none does.
type Strategy struct {
	// Name is the built-in name or the file the strategy was loaded from;
	// Source says where a built-in strategy was published. Neither is part
	// of the canonical form.
	Name   string
	Source string

	rules     []rule
	otherwise bool // call when no rule holds
}

// rule is "call if" (call) or "fold if" (!call) a condition: a disjunction
// of conjunctions of terms.
type rule struct {
	call bool
	when [][]term
}

func (r *rule) holds(s *situation) bool {
	for _, conj := range r.when {
		all := true
		for k := range conj {
			if !conj[k].holds(s) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func (r *rule) String() string {
	var b strings.Builder
	if r.call {
		b.WriteString("call if ")
	} else {
		b.WriteString("fold if ")
	}
	for i, conj := range r.when {
		if i > 0 {
			b.WriteString(" or ")
		}
		for k := range conj {
			if k > 0 {
				b.WriteString(" and ")
			}
			b.WriteString(conj[k].String())
		}
	}
	return b.String()
}

// decide applies the rules to s.
func (st *Strategy) decide(s *situation) bool {
	for i := range st.rules {
		if st.rules[i].holds(s) {
			return st.rules[i].call
		}
	}
	return st.otherwise
}

// Call reports whether the strategy calls with these hole cards on this
// flop. The five cards must be distinct.
func (st *Strategy) Call(hole [2]card.Card, flop [3]card.Card) bool {
	s := newSituation(hole, flop)
	return st.decide(&s)
}

// Func returns the strategy as the exact engine's [exact.Strategy]. Every
// condition of the vocabulary is unchanged by a relabelling of the suits,
// so deciding a suit-isomorphic state on its representative cards decides
// every (hole, flop) state it stands for.
func (st *Strategy) Func() exact.Strategy {
	return func(x *exact.State) bool {
		s := newSituation(x.Hole, x.Flop)
		// A state's cards are the representative of its class.
		s.canonKnown, s.canonHole, s.canonFlop = true, x.Hole, x.Flop
		return st.decide(&s)
	}
}

// Rules returns the rules in their canonical spelling, the last one
// "otherwise call" or "otherwise fold".
func (st *Strategy) Rules() []string {
	out := make([]string, 0, len(st.rules)+1)
	for i := range st.rules {
		out = append(out, st.rules[i].String())
	}
	if st.otherwise {
		out = append(out, "otherwise call")
	} else {
		out = append(out, "otherwise fold")
	}
	return out
}

// Canonical returns the canonical text of the strategy: one rule a line in
// the canonical spelling (lower-case words, single spaces, ranks in upper
// case, cards of a "cards" condition as the representative of their
// state), no comments, each line ending in a line feed. Parse(Canonical())
// gives a strategy with the same canonical text.
func (st *Strategy) Canonical() []byte {
	return []byte(strings.Join(st.Rules(), "\n") + "\n")
}

// Hash returns the hex SHA-256 of the canonical text: the strategy's
// identity in reports.
func (st *Strategy) Hash() string {
	sum := sha256.Sum256(st.Canonical())
	return hex.EncodeToString(sum[:])
}
