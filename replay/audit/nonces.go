package audit

import (
	"encoding/binary"
	"math"
)

// seedNonces is what the Ledger keeps of the (client input, nonce) pairs
// used with one single server seed, inside the seed's state, so that a
// seed's session costs a few bytes per change of client input rather than
// a map slot per (seed, client input) pair.
//
// The nonces used with one client input are kept as runs, like the
// per-pair runs: the last run in the state, the seed's earlier runs
// encoded in Ledger.hist (see appendRun). A Double Hold'em table changes
// its client input whenever a player sits down or leaves, so a seed's
// session of a hundred hands makes a few dozen runs, about 10 bytes each
// here; a map slot per pair held 100 MB by the end of 10,000,000 simulated
// hands (19 MB half-way with the runs here, docs/replay.md).
//
// A seed with more than maxSeedRuns runs, or a nonce above 2^32 - 1, moves
// the seed's runs to the Ledger's per-pair runs (the seed is then paired):
// no run list is scanned at length. Which of the two holds a seed depends
// only on the rounds before, in input order.
type seedNonces struct {
	client uint64 // the last run's client input (fingerprint)
	lo, hi uint32 // the last run
	max    uint32 // the highest nonce used with the seed
	runs   uint16 // the runs in Ledger.hist
	paired bool   // the seed's nonces are in Ledger.nonces, by pairKey
}

// maxSeedRuns is how many runs a seed keeps in Ledger.hist before its
// nonces move to the per-pair runs.
const maxSeedRuns = 64

// histStep is how many runs a seed's history grows by at a time.
const histStep = 4

// startNonces records a seed's first nonce.
func (l *Ledger) startNonces(fp uint64, s *seedNonces, client, n uint64) {
	if n > math.MaxUint32 {
		s.paired = true
		l.addNonce(pairKey(fp, client), n)
		return
	}
	m := uint32(n)
	*s = seedNonces{client: client, lo: m, hi: m, max: m}
}

// seedNonce records nonce n with client input client for the seed fp
// whose state is s, and reports whether the pair was new.
func (l *Ledger) seedNonce(fp uint64, s *seedNonces, client, n uint64) bool {
	if !s.paired && n > math.MaxUint32 {
		l.pairSeed(fp, s)
	}
	if s.paired {
		return l.addNonce(pairKey(fp, client), n)
	}
	m := uint32(n)
	if m <= s.max {
		if s.client == client && s.lo <= m && m <= s.hi {
			return false
		}
		if s.runs > 0 && histHas(l.hist[fp], client, m) {
			return false
		}
	}
	s.max = max(s.max, m)
	switch {
	case s.client == client && uint64(m) == uint64(s.hi)+1:
		s.hi = m
	case s.client == client && uint64(m)+1 == uint64(s.lo):
		s.lo = m
	case s.runs == maxSeedRuns:
		l.pairSeed(fp, s)
		return l.addNonce(pairKey(fp, client), n)
	default:
		h := l.hist[fp]
		if cap(h)-len(h) < runBytes {
			h = append(make([]byte, 0, len(h)+histStep*runBytes), h...)
		}
		l.hist[fp] = appendRun(h, s.client, s.lo, s.hi)
		s.runs++
		s.client, s.lo, s.hi = client, m, m
	}
	return true
}

// pairSeed moves the seed's runs to the per-pair runs.
func (l *Ledger) pairSeed(fp uint64, s *seedNonces) {
	add := func(client uint64, lo, hi uint32) {
		k := pairKey(fp, client)
		for x := uint64(lo); x <= uint64(hi); x++ {
			l.addNonce(k, x)
		}
	}
	for h := l.hist[fp]; len(h) > 0; {
		var r histRun
		r, h = nextRun(h)
		add(r.client, r.lo, r.hi)
	}
	add(s.client, s.lo, s.hi)
	delete(l.hist, fp)
	*s = seedNonces{paired: true}
}

// A run in Ledger.hist: the client input's fingerprint (8 bytes, little
// endian), then the run's first nonce and its length minus one as
// unsigned varints; 10 bytes for a session's nonces below 128.
const runBytes = 8 + 2*binary.MaxVarintLen32

type histRun struct {
	client uint64
	lo, hi uint32
}

func appendRun(h []byte, client uint64, lo, hi uint32) []byte {
	h = binary.LittleEndian.AppendUint64(h, client)
	h = binary.AppendUvarint(h, uint64(lo))
	return binary.AppendUvarint(h, uint64(hi-lo))
}

// nextRun decodes the run at the start of h (written by appendRun) and
// returns it and the rest of h.
func nextRun(h []byte) (histRun, []byte) {
	client := binary.LittleEndian.Uint64(h)
	h = h[8:]
	lo, k := binary.Uvarint(h)
	h = h[k:]
	d, k := binary.Uvarint(h)
	return histRun{client, uint32(lo), uint32(lo + d)}, h[k:]
}

// histHas reports whether the runs h hold nonce m for client input client.
func histHas(h []byte, client uint64, m uint32) bool {
	for len(h) > 0 {
		var r histRun
		r, h = nextRun(h)
		if r.client == client && r.lo <= m && m <= r.hi {
			return true
		}
	}
	return false
}
