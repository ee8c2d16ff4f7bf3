package audit

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/wire"
)

// A sharded replay (docs/sharding.md) checks rounds in several processes
// and runs the Ledger once, in the merge, over the traces the shards wrote
// to their part files. A trace holds fingerprints keyed at start-up
// (fpSeed), which another process cannot reproduce, so a shard writes the
// texts they are computed from and the merge computes them again with its
// own key: the Ledger of the merge then sees, round for round, the trace an
// unsharded replay's Ledger sees, up to the keys of the fingerprints (which
// the findings never show). The one fingerprint that is not keyed, the
// first 8 bytes of SHA-256 of the server seed, is written as it is.
//
// The encoding of a chunk of traces (little-endian varints throughout):
// each round is a flags word, then the fields its flags say are present.
// Texts other than round ids are written once per chunk and then referred
// to by number (a chunk-local dictionary): a reference is uvarint(2k+1)
// for the k-th text, a new text uvarint(2n) and n bytes. A round id is
// written as the length of the prefix it shares with the previous round's
// id and the rest. A chunk is decoded on its own.

// Flags of an encoded trace.
const (
	tfTimeOK = 1 << iota
	tfSeedOK
	tfRevealOK
	tfRevealBad
	tfRotated
	tfPerBox
	tfChain
	tfDecl
	tfSameSeed   // seedFP is the previous round's
	tfStepIsPrev // a chain round whose step is the previous chain round's link
	tfSameAnchor // a chain round whose anchor is the previous chain round's
	tfSameCS     // the client seeds are the previous round's
	tfReveal     // the trace has a reveal time (revealOK, or one that could not be read)
)

// TraceEncoder writes traces for a part file. Add each round after its
// Check, with the round still alive; Bytes is the chunk's encoding; Reset
// starts the next chunk.
type TraceEncoder struct {
	buf   []byte
	dict  map[string]uint32
	texts []string // the chunk's texts, by number (the dictionary's keys)
	last  [siteCount]struct {
		k  uint32
		ok bool
	}
	n        int
	prevRow  int64
	prevTime int64
	prevID   string
	prevSeed uint64
	prevLink [32]byte
	prevAnc  [32]byte
	prevCS   []string
	chained  bool
}

// Sites of texts in an encoded trace (TraceEncoder.str).
const (
	siteFile = iota
	siteTable
	sitePlayer
	siteScheme
	siteProfile
	siteHash
	siteCurrency
	siteGame
	siteClient                   // the client seeds, from here, by index (the last ones share)
	siteName   = siteClient + 11 // the players' ids, from here, by box or seat (the last ones share)
	siteWallet = siteName + 11   // the wallet ids, from here, by box or seat (the last ones share)
	siteCount  = siteWallet + 11
)

func clientSite(i int) int { return siteClient + min(i, 10) }
func nameSite(i int) int   { return siteName + min(i, 10) }
func walletSite(i int) int { return siteWallet + min(i, 10) }

// Reset starts a new chunk.
func (e *TraceEncoder) Reset() {
	e.buf = e.buf[:0]
	clear(e.dict)
	e.texts = e.texts[:0]
	e.last = [siteCount]struct {
		k  uint32
		ok bool
	}{}
	e.n, e.prevRow, e.prevTime, e.prevID, e.prevSeed, e.chained = 0, -1, 0, "", 0, false
	e.prevCS = e.prevCS[:0]
}

// Len returns the number of traces encoded since Reset.
func (e *TraceEncoder) Len() int { return e.n }

// Bytes returns the chunk's encoding (valid until the next Add or Reset).
func (e *TraceEncoder) Bytes() []byte { return e.buf }

func (e *TraceEncoder) uv(x uint64) { e.buf = wire.AppendUv(e.buf, x) }
func (e *TraceEncoder) sv(x int64)  { e.buf = wire.AppendSv(e.buf, x) }

// str writes s: a reference to the chunk's text equal to it, or s,
// which becomes the chunk's next text. site is where s is in the trace:
// the text last written there is compared first, before the dictionary is
// looked up. A round's texts may point into the reader's buffers, reused
// for the next row group, so the encoder keeps its own copies.
func (e *TraceEncoder) str(site int, s string) {
	c := &e.last[site]
	if c.ok && e.texts[c.k] == s {
		e.uv(uint64(c.k)<<1 | 1)
		return
	}
	k, ok := e.dict[s]
	if ok {
		e.uv(uint64(k)<<1 | 1)
	} else {
		if e.dict == nil {
			e.dict = map[string]uint32{}
		}
		k = uint32(len(e.texts))
		own := strings.Clone(s)
		e.texts = append(e.texts, own)
		e.dict[own] = k
		e.uv(uint64(len(s)) << 1)
		e.buf = append(e.buf, s...)
	}
	c.k, c.ok = k, true
}

// Add encodes t, the trace Check filled for r.
func (e *TraceEncoder) Add(r *round.Round, t *Trace) {
	if e.n == 0 {
		e.prevRow, e.prevTime, e.prevID, e.chained = -1, 0, "", false
	}
	e.n++
	var fl uint64
	set := func(b bool, f uint64) {
		if b {
			fl |= f
		}
	}
	cs := r.Fairness.ClientSeeds
	set(t.TimeOK, tfTimeOK)
	set(t.SeedOK, tfSeedOK)
	set(t.revealOK, tfRevealOK)
	set(t.revealBad, tfRevealBad)
	set(t.rotated, tfRotated)
	set(t.perBox, tfPerBox)
	set(t.chainIndex > 0, tfChain)
	set(t.decl != nil, tfDecl)
	set(t.SeedOK && e.n > 1 && t.seedFP == e.prevSeed, tfSameSeed)
	set(t.chainIndex > 0 && e.chained && t.link.step == e.prevLink, tfStepIsPrev)
	set(t.chainIndex > 0 && e.chained && t.link.anchor == e.prevAnc, tfSameAnchor)
	set(e.n > 1 && sameStrings(cs, e.prevCS), tfSameCS)
	set(t.reveal != 0, tfReveal)
	e.uv(fl)
	e.str(siteFile, t.Src.File)
	e.sv(t.Src.Row - e.prevRow - 1)
	e.prevRow = t.Src.Row
	common := 0
	for common < len(t.RoundID) && common < len(e.prevID) && t.RoundID[common] == e.prevID[common] {
		common++
	}
	e.uv(uint64(common))
	e.uv(uint64(len(t.RoundID) - common))
	e.buf = append(e.buf, t.RoundID[common:]...)
	e.prevID = t.RoundID
	e.str(siteTable, t.tableID)
	player := ""
	if r.Game == round.CasinoHoldem && len(r.Boxes) == 1 {
		player = r.Boxes[0].PlayerID
	}
	e.str(sitePlayer, player)
	e.str(siteGame, t.game)
	e.uv(t.tableSeq)
	e.sv(t.Time - e.prevTime)
	e.prevTime = t.Time
	if t.reveal != 0 {
		e.sv(t.reveal - t.Time)
	}
	if t.SeedOK {
		if fl&tfSameSeed == 0 {
			e.buf = binary.LittleEndian.AppendUint64(e.buf, t.seedFP)
		}
		e.prevSeed = t.seedFP
		e.uv(t.Nonce)
	}
	if fl&tfSameCS == 0 {
		e.uv(uint64(len(cs)))
		e.prevCS = e.prevCS[:0]
		for i, s := range cs {
			e.str(clientSite(i), s)
			e.prevCS = append(e.prevCS, strings.Clone(s))
		}
	}
	if t.chainIndex > 0 {
		e.uv(t.chainIndex)
		e.buf = append(e.buf, t.link.seed[:]...)
		if fl&tfStepIsPrev == 0 {
			e.buf = append(e.buf, t.link.step[:]...)
		}
		if fl&tfSameAnchor == 0 {
			e.buf = append(e.buf, t.link.anchor[:]...)
		}
		e.prevLink, e.prevAnc, e.chained = t.link.seed, t.link.anchor, true
	}
	if d := t.decl; d != nil {
		e.str(siteScheme, d.scheme+beaconSep+d.beacon)
		e.str(siteProfile, d.profile)
		e.str(siteHash, d.profileHash)
		e.str(siteCurrency, d.currency)
	}
	e.uv(uint64(t.np))
	for i := range t.np {
		p := t.playerAt(i)
		e.str(nameSite(i), p.name)
		e.str(walletSite(i), p.wallet)
		// The player's client seed is the one of its box or seat, or none
		// (clientAt).
		k := uint64(0)
		if p.client != 0 && int(p.slot) < len(cs) {
			k = uint64(p.slot) + 1
		}
		e.uv(k)
		e.sv(p.before)
		e.sv(p.after)
		slot := uint64(uint8(p.slot)) << 1
		if p.seat {
			slot |= 1
		}
		e.uv(slot)
	}
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TraceDecoder reads the traces a [TraceEncoder] wrote, computing the
// fingerprints with this process's key. It keeps the declared texts
// across chunks.
type TraceDecoder struct {
	decls map[[4]string]*declText
	pc    idPrefixCache
	dict  []dictEntry
	r     wire.Reader
	cs    []string
	csIdx []int
	// Per chunk: the fingerprints of each (table, player) seen, by their
	// texts' numbers, and the last declared texts' numbers.
	sess     map[uint64]sessFP
	declIdx  [4]int
	declLast *declText
}

// dictEntry is a text of a chunk and the fingerprints computed of it.
type dictEntry struct {
	s         string
	fp, cfp   uint64 // fingerprint(s), clientFingerprint([s])
	fpOK, cOK bool
}

// sessFP are the fingerprints of a table and session.
type sessFP struct {
	table, session uint64
	tableID        string
}

// ErrTraceEncoding reports traces that cannot be decoded.
var ErrTraceEncoding = errors.New("malformed trace encoding")

func (d *TraceDecoder) str() string { return d.dict[d.strIdx()].s }

// strIdx reads a text and returns its number in the chunk's dictionary
// (0, the empty text, on an error).
func (d *TraceDecoder) strIdx() int {
	x := d.r.Uv()
	if x&1 == 1 {
		k := x >> 1
		if k+1 >= uint64(len(d.dict)) {
			d.r.Fail()
			return 0
		}
		return int(k) + 1
	}
	b := d.r.Bytes(x >> 1)
	if d.r.Err() != nil {
		return 0
	}
	d.dict = append(d.dict, dictEntry{s: string(b)})
	return len(d.dict) - 1
}

// fp returns fingerprint of text k.
func (d *TraceDecoder) fp(k int) uint64 {
	e := &d.dict[k]
	if !e.fpOK {
		e.fp, e.fpOK = fingerprint(e.s), true
	}
	return e.fp
}

// clientFP returns the client input fingerprint of text k alone.
func (d *TraceDecoder) clientFP(k int) uint64 {
	e := &d.dict[k]
	if !e.cOK {
		e.cfp, e.cOK = clientFingerprint([]string{e.s}), true
	}
	return e.cfp
}

func (d *TraceDecoder) b32(dst *[32]byte) { copy(dst[:], d.r.Bytes(32)) }

// Decode decodes a chunk of n traces into ts (reusing its storage) and
// returns it.
func (d *TraceDecoder) Decode(b []byte, n int, ts []Trace) ([]Trace, error) {
	// The dictionary's entry 0 is the empty text, for errors: the
	// encoder's k-th text is entry k + 1.
	d.r, d.dict = wire.NewReader(b, ErrTraceEncoding), append(d.dict[:0], dictEntry{})
	d.cs, d.csIdx = d.cs[:0], d.csIdx[:0]
	clear(d.sess)
	if d.sess == nil {
		d.sess = map[uint64]sessFP{}
	}
	d.declLast = nil
	ts = ts[:0]
	var prevRow, prevTime int64 = -1, 0
	var prevID []byte
	var prevSeed uint64
	var prevLink, prevAnc [32]byte
	var clientFP uint64
	csOK := false
	for i := 0; i < n && d.r.Err() == nil; i++ {
		if len(ts) < cap(ts) {
			ts = ts[:len(ts)+1]
		} else {
			ts = append(ts, Trace{})
		}
		t := &ts[len(ts)-1]
		more := t.more[:0]
		*t = Trace{more: more}
		fl := d.r.Uv()
		t.Src.File = d.str()
		t.Src.Row = prevRow + 1 + d.r.Sv()
		prevRow = t.Src.Row
		common := d.r.Uv()
		suffix := d.r.Bytes(d.r.Uv())
		if common > uint64(len(prevID)) {
			d.r.Fail()
			break
		}
		prevID = append(prevID[:common], suffix...)
		id := string(prevID)
		ti, pi := d.strIdx(), d.strIdx()
		sk := uint64(ti)<<32 | uint64(pi)
		se, ok := d.sess[sk]
		if !ok {
			var c idCache
			c.lookup(d.dict[ti].s, d.dict[pi].s)
			se = sessFP{c.tableFP, c.sessionFP, c.table}
			d.sess[sk] = se
		}
		t.traceRound = traceRound{Src: t.Src, RoundID: id, table: se.table, tableID: se.tableID, session: se.session}
		t.setIDCached(id, &d.pc)
		t.game = d.str()
		t.tableSeq = d.r.Uv()
		t.TimeOK = fl&tfTimeOK != 0
		t.SeedOK = fl&tfSeedOK != 0
		t.revealOK, t.revealBad = fl&tfRevealOK != 0, fl&tfRevealBad != 0
		t.rotated, t.perBox = fl&tfRotated != 0, fl&tfPerBox != 0
		t.Time = prevTime + d.r.Sv()
		prevTime = t.Time
		if fl&tfReveal != 0 {
			t.reveal = t.Time + d.r.Sv()
		}
		if t.SeedOK {
			if fl&tfSameSeed == 0 {
				if b := d.r.Bytes(8); len(b) == 8 {
					prevSeed = binary.LittleEndian.Uint64(b)
				}
			}
			t.seedFP = prevSeed
			t.Nonce = d.r.Uv()
		}
		if fl&tfSameCS == 0 {
			k := d.r.Uv()
			if k > uint64(d.r.Len()) {
				d.r.Fail()
				break
			}
			d.cs, d.csIdx = d.cs[:0], d.csIdx[:0]
			for range k {
				i := d.strIdx()
				d.cs, d.csIdx = append(d.cs, d.dict[i].s), append(d.csIdx, i)
			}
			csOK = false
		}
		if t.SeedOK {
			if !csOK {
				clientFP, csOK = clientFingerprint(d.cs), true
			}
			t.ClientFP = clientFP
		}
		if fl&tfChain != 0 {
			t.chainIndex = d.r.Uv()
			d.b32(&t.link.seed)
			if fl&tfStepIsPrev != 0 {
				t.link.step = prevLink
			} else {
				d.b32(&t.link.step)
			}
			if fl&tfSameAnchor != 0 {
				t.link.anchor = prevAnc
			} else {
				d.b32(&t.link.anchor)
			}
			prevLink, prevAnc = t.link.seed, t.link.anchor
		}
		if fl&tfDecl != 0 {
			k := [4]int{d.strIdx(), d.strIdx(), d.strIdx(), d.strIdx()}
			if d.declLast == nil || k != d.declIdx {
				d.declIdx, d.declLast = k, d.declText(d.dict[k[0]].s, d.dict[k[1]].s, d.dict[k[2]].s, d.dict[k[3]].s)
			}
			t.decl = d.declLast
			t.currency = t.decl.currency
		}
		np := d.r.Uv()
		if np > uint64(d.r.Len()) {
			d.r.Fail()
			break
		}
		for range np {
			ni, wi := d.strIdx(), d.strIdx()
			name, wallet := d.dict[ni].s, d.dict[wi].s
			k := d.r.Uv()
			before, after := d.r.Sv(), d.r.Sv()
			slot := d.r.Uv()
			var client uint64
			if k > 0 {
				if k > uint64(len(d.cs)) {
					d.r.Fail()
					break
				}
				client = d.clientFP(d.csIdx[k-1])
			}
			if slot>>1 > math.MaxUint8 {
				d.r.Fail()
				break
			}
			var wfp uint64
			if wallet != "" {
				wfp = walletFingerprint(wallet)
			}
			t.addPlayer(d.fp(ni), name, wallet, wfp, client, before, after, int(int8(uint8(slot>>1))), slot&1 == 1)
		}
	}
	if err := d.r.Err(); err != nil {
		return ts, err
	}
	if d.r.Len() != 0 {
		return ts, fmt.Errorf("%w: %d bytes after the last trace", ErrTraceEncoding, d.r.Len())
	}
	return ts, nil
}

func (d *TraceDecoder) declText(scheme, profile, profileHash, currency string) *declText {
	k := [4]string{scheme, profile, profileHash, currency}
	if x, ok := d.decls[k]; ok {
		return x
	}
	if d.decls == nil {
		d.decls = map[[4]string]*declText{}
	}
	var c declCache
	f := round.Fairness{Scheme: scheme}
	if i := strings.LastIndex(scheme, beaconSep); i >= 0 {
		f.Scheme = scheme[:i]
		if b := scheme[i+len(beaconSep):]; b != "" {
			f.BeaconRound = 1 // a beacon; its chain, unless "?" (beaconUse)
			if b != "?" {
				f.BeaconChain = b
			}
		}
	}
	x := c.lookup(&round.Round{Fairness: f, Profile: profile, ProfileHash: profileHash, Currency: currency})
	d.decls[k] = x
	return x
}

// beaconSep joins a trace's scheme and the drand chain its round mixes in
// (beaconUse): both are what the table declares.
const beaconSep = "\x00"

// TraceDigest returns a digest of what the Ledger reads of t, apart from
// the keyed fingerprints, for tests of the encoding.
func TraceDigest(t *Trace) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%q %d %q %q %d %v %d %v %v %v %v %v %v %x %d %d %d %x %q %d %q|", t.Src.File, t.Src.Row, t.RoundID, t.tableID, t.tableSeq,
		t.TimeOK, t.Time, t.SeedOK, t.revealOK, t.revealBad, t.rotated, t.perBox, t.reveal, t.seedFP, t.Nonce, t.ClientFP, t.chainIndex, t.link, t.currency, t.np, t.game)
	fmt.Fprintf(h, "%d %d %d %v %d %d|", t.table, t.session, t.idFP, t.idNumbered, t.idPrefix, t.idNum)
	if t.decl != nil {
		fmt.Fprintf(h, "%q %q %q %q %q %d %d %d %d|", t.decl.scheme, t.decl.beacon, t.decl.profile, t.decl.profileHash, t.decl.currency, t.decl.schemeFP, t.decl.profileFP, t.decl.profileNameFP, t.decl.currencyFP)
	}
	for i := range t.np {
		p := t.playerAt(i)
		fmt.Fprintf(h, "%d %q %q %d %d %d %d %v|", p.id, p.name, p.wallet, p.client, p.before, p.after, p.slot, p.seat)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}
