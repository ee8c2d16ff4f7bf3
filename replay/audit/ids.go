package audit

import (
	"hash/maphash"
	"strconv"
	"strings"
)

// idSet is the set of round ids the Ledger has seen.
//
// Operators usually number rounds: a table's ids are a fixed text followed
// by a counter, padded with zeros or not ("rng-1-10297", "r-000123"). Such
// an id is split into its prefix (the text before the trailing digits), the
// number of those digits (its width) and their number; each (prefix, width)
// keeps the runs of numbers seen, the way nonces are: a table whose ids
// count up costs a few words however many rounds it plays. Any other id,
// and the ids of a (prefix, width) whose numbers do not form runs, go to a
// set of 64-bit fingerprints (10 bytes an id, see fpSet).
//
// The split is one-to-one: an id is its prefix followed by its number
// printed with zeros to its width ("r-007" and "r-7" differ in width), so a
// prefix's ids can be moved to the fingerprint set by printing them again.
// Which structure holds an id depends only on the ids observed before, in
// input order, so the findings do not depend on how the work was
// scheduled.
type idSet struct {
	fps  fpSet
	hint int64 // rounds expected: the fingerprint set is sized for them when first used
	runs map[uint64]*idRuns
	// The prefix of the last numbered id, looked up again for the next.
	lastFP uint64
	last   *idRuns
}

// idRuns are the numbers seen after one prefix, printed to one width.
type idRuns struct {
	prefix string
	width  int
	runs   []nonceRange
	moved  bool // the ids are in the fingerprint set
}

const (
	// maxIDPrefixes bounds the prefixes kept as runs; the ids of a prefix
	// first seen after that go to the fingerprint set.
	maxIDPrefixes = 4096
	// maxIDRuns is how many runs a prefix may have before its ids move to
	// the fingerprint set (numbers that are not sequential).
	maxIDRuns = 64
	// maxIDDigits keeps a number below 10^18.
	maxIDDigits = 18
)

// splitID splits id into its prefix, the number of its trailing decimal
// digits (1 to maxIDDigits) and their value; ok is false when id does not
// end in such digits.
func splitID(id string) (prefix string, width int, n uint64, ok bool) {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	digits := id[i:]
	if len(digits) == 0 || len(digits) > maxIDDigits {
		return "", 0, 0, false
	}
	for _, c := range []byte(digits) {
		n = n*10 + uint64(c-'0')
	}
	return id[:i], len(digits), n, true
}

// appendID appends the id of prefix, width and number n: splitID's inverse.
func appendID(dst []byte, prefix string, width int, n uint64) []byte {
	dst = append(dst, prefix...)
	var digits [20]byte
	d := strconv.AppendUint(digits[:0], n, 10)
	for range width - len(d) {
		dst = append(dst, '0')
	}
	return append(dst, d...)
}

// setID fills t's round-id keys: its fingerprint, and for a numbered id
// the fingerprint of its prefix and width, and its number.
func (t *traceRound) setID(id string) { t.setIDCached(id, nil) }

// setIDCached is setID with the prefix's fingerprint taken from pc when
// the prefix is pc's (a table's round ids share theirs), and kept there
// otherwise. pc may be nil.
func (t *traceRound) setIDCached(id string, pc *idPrefixCache) {
	t.idFP = fingerprint(id)
	if prefix, width, n, ok := splitID(id); ok {
		var fp uint64
		if pc != nil && pc.ok && pc.width == width && string(pc.buf[:pc.n]) == prefix {
			fp = pc.fp
		} else {
			var h maphash.Hash
			h.SetSeed(fpSeed)
			h.WriteString(prefix)
			h.WriteByte(byte(width))
			fp = h.Sum64()
			if pc != nil {
				pc.ok = len(prefix) <= len(pc.buf)
				if pc.ok {
					pc.n, pc.width, pc.fp = copy(pc.buf[:], prefix), width, fp
				}
			}
		}
		t.idPrefix, t.idNum, t.idNumbered = fp, n, true
	}
}

// idPrefixCache is the fingerprint of the last round-id prefix (up to 64
// bytes) and width seen, kept in place: no allocation.
type idPrefixCache struct {
	buf   [64]byte
	n     int
	width int
	fp    uint64
	ok    bool
}

func (s *idSet) reserve(n int64) { s.hint = n }

// add inserts t's round id and reports whether it was new.
func (s *idSet) add(t *traceRound) bool {
	if t.idNumbered {
		if r := s.prefix(t); r != nil && !r.moved {
			var fresh bool
			r.runs, fresh = addNonce(r.runs, t.idNum)
			if len(r.runs) > maxIDRuns {
				s.move(r)
			}
			return fresh
		}
	}
	s.useFPs()
	return s.fps.add(t.idFP)
}

// prefix returns the runs of t's prefix, adding them when there is room;
// nil when the prefix's ids go to the fingerprint set.
func (s *idSet) prefix(t *traceRound) *idRuns {
	if s.last != nil && s.lastFP == t.idPrefix {
		return s.last
	}
	r := s.runs[t.idPrefix]
	if r == nil {
		if len(s.runs) >= maxIDPrefixes {
			return nil
		}
		if s.runs == nil {
			s.runs = map[uint64]*idRuns{}
		}
		prefix, width, _, _ := splitID(t.RoundID)
		r = &idRuns{prefix: strings.Clone(prefix), width: width}
		s.runs[t.idPrefix] = r
	}
	s.last, s.lastFP = r, t.idPrefix
	return r
}

// useFPs sizes the fingerprint set before its first id.
func (s *idSet) useFPs() {
	if len(s.fps.slots) == 0 && s.hint > 0 {
		s.fps.reserve(s.hint)
	}
}

// move puts the ids of r's runs into the fingerprint set, printed again.
func (s *idSet) move(r *idRuns) {
	s.useFPs()
	var buf []byte
	for _, run := range r.runs {
		for n := run.lo; ; n++ {
			buf = appendID(buf[:0], r.prefix, r.width, n)
			s.fps.add(maphash.Bytes(fpSeed, buf))
			if n == run.hi {
				break
			}
		}
	}
	r.runs, r.moved = nil, true
}

// touch loads the fingerprint slot each trace will probe (see
// Ledger.ObserveAll).
func (s *idSet) touch(ts []Trace) { s.fps.touch(ts) }
