package replayer

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"slices"
	"strings"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/wire"
)

// A shard's boundary state (docs/sharding.md, "Which check runs where"):
// what the Ledgers of its segments saw that the merge needs to complete
// the checks that span segments, written as the part's 'B' record.

// shardBounds is a shard's boundary state.
type shardBounds struct {
	segments []*segmentBound
	ledger   *audit.Ledger        // the current segment's
	seen     map[string]*partSeen // by rounds file
	files    []string             // seen's files, in input order

	// The shard's totals (the sums of its chunks', by game and currency,
	// and of its voids' amounts as if played): the merge completes the
	// summary's totals from the chunks' sums only when no total of the
	// dataset overflows (amounts are not negative, so then no running
	// total does).
	totals   map[moneyKey]*totalSums
	voidSums totalSums
}

// totalSums are totals of wagered and returned amounts, and whether one
// overflowed.
type totalSums struct {
	wagered, returned int64
	overflow          bool
}

func (t *totalSums) add(w, r int64) {
	if t.overflow {
		return
	}
	var err1, err2 error
	nw, err1 := money.Add(t.wagered, w)
	nr, err2 := money.Add(t.returned, r)
	if err1 != nil || err2 != nil {
		t.overflow = true
		return
	}
	t.wagered, t.returned = nw, nr
}

// segmentBound is a segment of a shard's input (a run of consecutive
// units) and its Ledger's boundary state.
type segmentBound struct {
	unit     int   // its first unit
	findings int64 // its Ledger's findings
	ids      audit.RoundIDs
	b        *audit.SegmentBounds
}

func newShardBounds() *shardBounds {
	return &shardBounds{seen: map[string]*partSeen{}, totals: map[moneyKey]*totalSums{}}
}

// startSegment ends the current segment, if any, and starts one at unit i
// with a Ledger of its own.
func (sb *shardBounds) startSegment(i int) {
	sb.end()
	sb.ledger = audit.NewLedger()
	sb.ledger.TrackBoundaries(i != 0)
	sb.segments = append(sb.segments, &segmentBound{unit: i})
}

func (sb *shardBounds) end() {
	if n := len(sb.segments); n > 0 && sb.segments[n-1].b == nil {
		sg := sb.segments[n-1]
		sg.b = sb.ledger.Bounds()
		sg.ids.Done()
	}
}

// finish ends the last segment.
func (sb *shardBounds) finish() { sb.end() }

// shardChunk is what a worker prepares of a shard's chunk, so that the
// shard's main goroutine, which runs the Ledger, does no more (see
// prepare).
type shardChunk struct {
	blob    []byte   // the traces file's blob: the encoded traces, then each round's amounts
	blobSum [32]byte // its SHA-256
	rec     []byte   // the chunk record's findings and totals
	ids     audit.RoundIDs
	seen    []fileSeen // per run of one rounds file's traces, in order
}

// fileSeen is what a run of a rounds file's traces in a chunk shows.
type fileSeen struct {
	file string
	partSeen
}

// prepare prepares chunk ck of a shard, enc being its traces' encoding.
func (ck *chunk) prepare(enc []byte) {
	sc := &shardChunk{}
	sc.blob = wire.AppendUv(make([]byte, 0, len(enc)+binary.MaxVarintLen64+len(ck.traces)*12), uint64(len(enc)))
	sc.blob = append(sc.blob, enc...)
	sc.blob = appendMoney(sc.blob, ck.totals)
	sc.blobSum = sha256.Sum256(sc.blob)
	sc.rec = appendTotals(appendFindings(nil, ck.findings), ck.totals)
	traces := ck.traces
	for i := range traces {
		t := &traces[i]
		sc.ids.Add(t.RoundID)
		if n := len(sc.seen); n == 0 || sc.seen[n-1].file != t.Src.File {
			sc.seen = append(sc.seen, fileSeen{file: t.Src.File, partSeen: partSeen{firstID: t.RoundID}})
		}
		s := &sc.seen[len(sc.seen)-1]
		s.rounds++
		if t.TimeOK {
			if !s.timed {
				s.minTime, s.maxTime, s.timed = t.Time, t.Time, true
			}
			s.minTime, s.maxTime = min(s.minTime, t.Time), max(s.maxTime, t.Time)
		}
		s.lastID = t.RoundID
	}
	ck.shard = sc
}

// observe runs the segment's Ledger over chunk ck, the shard's chunk tag,
// appending the Ledger's findings to out, and takes the chunk's round ids,
// totals and, per rounds file, what the dataset check compares with the
// manifest (datasetCheck.observe, which a merge does not run).
func (sb *shardBounds) observe(ck *chunk, tag int64, out []finding.Finding) []finding.Finding {
	sg := sb.segments[len(sb.segments)-1]
	sb.ledger.SetChunk(tag, ck.digests, ck.digestOffs)
	n := len(out)
	out = sb.ledger.ObserveAll(ck.traces, out)
	sg.findings += int64(len(out) - n)
	u := ck.totals
	for k, key := range u.keys {
		t := sb.totals[key]
		if t == nil {
			t = &totalSums{}
			sb.totals[key] = t
		}
		us := &u.sums[k]
		t.add(us.wagered[iTotal], us.returned[iTotal])
		t.overflow = t.overflow || us.overflow
	}
	for i := range u.voids {
		if v := &u.voids[i]; v.ifPlayed.Settled {
			sb.voidSums.add(v.ifPlayed.Wagered, v.ifPlayed.Returned)
		}
	}
	sc := ck.shard
	sg.ids.Merge(&sc.ids)
	for _, fs := range sc.seen {
		s := sb.seen[fs.file]
		if s == nil {
			f := strings.Clone(fs.file)
			s = &partSeen{firstID: strings.Clone(fs.firstID)}
			sb.seen[f] = s
			sb.files = append(sb.files, f)
		}
		s.rounds += fs.rounds
		if fs.timed {
			if !s.timed {
				s.minTime, s.maxTime, s.timed = fs.minTime, fs.maxTime, true
			}
			s.minTime, s.maxTime = min(s.minTime, fs.minTime), max(s.maxTime, fs.maxTime)
		}
		s.lastID = strings.Clone(fs.lastID)
	}
	return out
}

// The 'B' record's encoding.

type boundsWriter struct{ b []byte }

func (w *boundsWriter) uv(x uint64)   { w.b = wire.AppendUv(w.b, x) }
func (w *boundsWriter) sv(x int64)    { w.b = wire.AppendSv(w.b, x) }
func (w *boundsWriter) text(s string) { w.b = wire.AppendText(w.b, s) }
func (w *boundsWriter) raw(b []byte)  { w.b = append(w.b, b...) }
func (w *boundsWriter) flags(fs ...bool) {
	var x byte
	for i, f := range fs {
		if f {
			x |= 1 << i
		}
	}
	w.b = append(w.b, x)
}
func (w *boundsWriter) session(s audit.Session) { w.text(s.Table); w.text(s.Player) }

type boundsReader struct{ recReader }

func (r *boundsReader) flags() [8]bool {
	x := r.byte1()
	var out [8]bool
	for i := range out {
		out[i] = x&(1<<i) != 0
	}
	return out
}
func (r *boundsReader) b32() (a [32]byte) { copy(a[:], r.Bytes(32)); return a }
func (r *boundsReader) b16() (a [16]byte) { copy(a[:], r.Bytes(16)); return a }
func (r *boundsReader) session() audit.Session {
	return audit.Session{Table: r.str(), Player: r.str()}
}

// encode returns the 'B' record's payload.
func (sb *shardBounds) encode() []byte {
	w := &boundsWriter{}
	w.uv(uint64(len(sb.segments)))
	for _, sg := range sb.segments {
		b := sg.b
		w.uv(uint64(sg.unit))
		w.sv(sg.findings)
		w.uv(uint64(len(b.Wallets)))
		for i := range b.Wallets {
			x := &b.Wallets[i]
			w.text(x.Player)
			w.text(x.Wallet)
			w.sv(x.Tag)
			w.text(x.RoundID)
			w.text(x.File)
			w.sv(x.Row)
			w.text(x.Field)
			w.text(x.Currency)
			w.flags(x.Declared, x.Dup, x.PrevOK)
			w.sv(x.Before)
			w.sv(x.After)
			w.text(x.PrevFile)
			w.sv(x.PrevRow)
			w.text(x.Time)
			w.text(x.TableID)
			w.text(x.Game)
		}
		w.uv(uint64(len(b.Bindings)))
		for i := range b.Bindings {
			x := &b.Bindings[i]
			w.text(x.Player)
			w.text(x.Wallet)
			w.sv(x.Tag)
			w.text(x.RoundID)
			w.text(x.File)
			w.sv(x.Row)
			w.text(x.Field)
			w.text(x.Currency)
			w.text(x.Time)
			w.text(x.TableID)
			w.text(x.Game)
			w.flags(x.Dup, false, false)
			w.text(x.Exit)
			w.sv(x.Rounds)
			w.sv(x.Rotated)
		}
		w.uv(uint64(len(b.Tables)))
		for i := range b.Tables {
			x := &b.Tables[i]
			w.text(x.Table)
			w.uv(x.FirstSeq)
			w.sv(x.FirstTime)
			w.flags(x.Numbered, x.Timed, x.Declared)
			w.uv(x.Last)
			w.uv(x.Max)
			w.sv(x.Unnumbered)
			w.sv(x.Walletless)
			w.sv(x.LastTime)
			w.text(x.Scheme)
			w.text(x.Profile)
			w.text(x.ProfileHash)
		}
		w.uv(uint64(len(b.Seeds)))
		for i := range b.Seeds {
			x := &b.Seeds[i]
			w.uv(x.Seed)
			w.session(x.Session)
			w.uv(x.FirstNonce)
			w.flags(x.RevealCmp, x.RevealOK, x.PerBox, x.Chain, x.Current, x.Revealed, x.DeclPerBox)
			w.sv(x.Reveal)
			w.uv(x.Last)
			w.uv(x.Max)
			w.sv(x.RevealAt)
		}
		w.uv(uint64(len(b.Chains)))
		for i := range b.Chains {
			x := &b.Chains[i]
			w.raw(x.Anchor[:])
			w.session(x.Session)
			w.flags(x.Owned, x.PerBox, x.SeqOn, x.Retired, x.DeclPerBox)
			w.uv(x.FirstIndex)
			w.raw(x.FirstStep[:])
			w.uv(x.Index)
			w.raw(x.Link[:])
			w.uv(x.Last)
			w.uv(x.Max)
		}
		w.uv(uint64(len(b.Starts)))
		for _, x := range b.Starts {
			w.session(x.Session)
			w.flags(x.Chain)
			if x.Chain {
				w.raw(x.Anchor[:])
			} else {
				w.uv(x.Seed)
			}
		}
		w.uv(uint64(len(b.Clients)))
		for _, x := range b.Clients {
			w.flags(x.Chain, x.Rotated, x.Added)
			if x.Chain {
				w.raw(x.Anchor[:])
			} else {
				w.uv(x.Seed)
			}
			w.text(x.Player)
			w.raw(x.Client[:])
		}
		prefixes := make([]audit.IDPrefix, 0, len(sg.ids.Prefixes))
		for p := range sg.ids.Prefixes {
			prefixes = append(prefixes, p)
		}
		slices.SortFunc(prefixes, func(a, b audit.IDPrefix) int {
			if c := strings.Compare(a.Prefix, b.Prefix); c != 0 {
				return c
			}
			return a.Width - b.Width
		})
		w.uv(uint64(len(prefixes)))
		for _, p := range prefixes {
			w.text(p.Prefix)
			w.uv(uint64(p.Width))
			rs := sg.ids.Prefixes[p]
			w.uv(uint64(len(rs)))
			for _, r := range rs {
				w.uv(r.Lo)
				w.uv(r.Hi - r.Lo)
			}
		}
		w.uv(uint64(len(sg.ids.Hashes)))
		for _, h := range sg.ids.Hashes {
			w.uv(h)
		}
	}
	keys := make([]moneyKey, 0, len(sb.totals))
	for k := range sb.totals {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b moneyKey) int {
		if c := strings.Compare(a.game, b.game); c != 0 {
			return c
		}
		return strings.Compare(a.currency, b.currency)
	})
	w.uv(uint64(len(keys)))
	for _, k := range keys {
		t := sb.totals[k]
		w.text(k.game)
		w.text(k.currency)
		w.flags(t.overflow)
		w.sv(t.wagered)
		w.sv(t.returned)
	}
	w.flags(sb.voidSums.overflow)
	w.sv(sb.voidSums.wagered)
	w.sv(sb.voidSums.returned)
	w.uv(uint64(len(sb.files)))
	for _, f := range sb.files {
		s := sb.seen[f]
		w.text(f)
		w.sv(s.rounds)
		w.text(s.firstID)
		w.text(s.lastID)
		w.flags(s.timed)
		w.sv(s.minTime)
		w.sv(s.maxTime)
	}
	return w.b
}

var errBoundsRecord = errors.New("malformed boundary record")

// decodeBounds decodes a 'B' record's payload.
func decodeBounds(buf []byte) (*shardBounds, error) {
	r := &boundsReader{recReader{wire.NewReader(buf, errBoundsRecord)}}
	sb := newShardBounds()
	ns := r.count()
	for range ns {
		sg := &segmentBound{unit: int(r.Uv()), b: &audit.SegmentBounds{}}
		sg.findings = r.Sv()
		b := sg.b
		for range r.count() {
			var x audit.WalletBound
			x.Player = r.str()
			x.Wallet = r.str()
			x.Tag = r.Sv()
			x.RoundID, x.File = r.str(), r.str()
			x.Row = r.Sv()
			x.Field, x.Currency = r.str(), r.str()
			f := r.flags()
			x.Declared, x.Dup, x.PrevOK = f[0], f[1], f[2]
			x.Before, x.After = r.Sv(), r.Sv()
			x.PrevFile = r.str()
			x.PrevRow = r.Sv()
			x.Time, x.TableID, x.Game = r.str(), r.str(), r.str()
			b.Wallets = append(b.Wallets, x)
			if r.Err() != nil {
				return nil, r.Err()
			}
		}
		for range r.count() {
			var x audit.BindingBound
			x.Player, x.Wallet = r.str(), r.str()
			x.Tag = r.Sv()
			x.RoundID, x.File = r.str(), r.str()
			x.Row = r.Sv()
			x.Field, x.Currency = r.str(), r.str()
			x.Time, x.TableID, x.Game = r.str(), r.str(), r.str()
			f := r.flags()
			x.Dup = f[0]
			x.Exit = r.str()
			x.Rounds, x.Rotated = r.Sv(), r.Sv()
			b.Bindings = append(b.Bindings, x)
			if r.Err() != nil {
				return nil, r.Err()
			}
		}
		for range r.count() {
			var x audit.TableBound
			x.Table = r.str()
			x.FirstSeq = r.Uv()
			x.FirstTime = r.Sv()
			f := r.flags()
			x.Numbered, x.Timed, x.Declared = f[0], f[1], f[2]
			x.Last, x.Max = r.Uv(), r.Uv()
			x.Unnumbered, x.Walletless, x.LastTime = r.Sv(), r.Sv(), r.Sv()
			x.Scheme, x.Profile, x.ProfileHash = r.str(), r.str(), r.str()
			b.Tables = append(b.Tables, x)
			if r.Err() != nil {
				return nil, r.Err()
			}
		}
		for range r.count() {
			var x audit.SeedBound
			x.Seed = r.Uv()
			x.Session = r.session()
			x.FirstNonce = r.Uv()
			f := r.flags()
			x.RevealCmp, x.RevealOK, x.PerBox, x.Chain, x.Current, x.Revealed, x.DeclPerBox = f[0], f[1], f[2], f[3], f[4], f[5], f[6]
			x.Reveal = r.Sv()
			x.Last, x.Max = r.Uv(), r.Uv()
			x.RevealAt = r.Sv()
			b.Seeds = append(b.Seeds, x)
			if r.Err() != nil {
				return nil, r.Err()
			}
		}
		for range r.count() {
			var x audit.ChainBound
			x.Anchor = r.b32()
			x.Session = r.session()
			f := r.flags()
			x.Owned, x.PerBox, x.SeqOn, x.Retired, x.DeclPerBox = f[0], f[1], f[2], f[3], f[4]
			x.FirstIndex = r.Uv()
			x.FirstStep = r.b32()
			x.Index = r.Uv()
			x.Link = r.b32()
			x.Last, x.Max = r.Uv(), r.Uv()
			b.Chains = append(b.Chains, x)
			if r.Err() != nil {
				return nil, r.Err()
			}
		}
		for range r.count() {
			var x audit.SessionStart
			x.Session = r.session()
			x.Chain = r.flags()[0]
			if x.Chain {
				x.Anchor = r.b32()
			} else {
				x.Seed = r.Uv()
			}
			b.Starts = append(b.Starts, x)
			if r.Err() != nil {
				return nil, r.Err()
			}
		}
		for range r.count() {
			var x audit.ClientEvent
			f := r.flags()
			x.Chain, x.Rotated, x.Added = f[0], f[1], f[2]
			if x.Chain {
				x.Anchor = r.b32()
			} else {
				x.Seed = r.Uv()
			}
			x.Player = r.str()
			x.Client = r.b16()
			b.Clients = append(b.Clients, x)
			if r.Err() != nil {
				return nil, r.Err()
			}
		}
		sg.ids.Prefixes = map[audit.IDPrefix][]audit.IDRun{}
		for range r.count() {
			p := audit.IDPrefix{Prefix: r.str(), Width: int(r.Uv())}
			nr := r.count()
			rs := make([]audit.IDRun, 0, nr)
			for range nr {
				lo := r.Uv()
				rs = append(rs, audit.IDRun{Lo: lo, Hi: lo + r.Uv()})
			}
			sg.ids.Prefixes[p] = rs
		}
		for range r.count() {
			sg.ids.Hashes = append(sg.ids.Hashes, r.Uv())
		}
		if r.Err() != nil {
			return nil, r.Err()
		}
		sb.segments = append(sb.segments, sg)
	}
	for range r.count() {
		k := moneyKey{r.str(), r.str()}
		t := &totalSums{overflow: r.flags()[0]}
		t.wagered, t.returned = r.Sv(), r.Sv()
		sb.totals[k] = t
	}
	sb.voidSums.overflow = r.flags()[0]
	sb.voidSums.wagered, sb.voidSums.returned = r.Sv(), r.Sv()
	for range r.count() {
		f := r.str()
		s := &partSeen{rounds: r.Sv(), firstID: r.str(), lastID: r.str()}
		s.timed = r.flags()[0]
		s.minTime, s.maxTime = r.Sv(), r.Sv()
		sb.seen[f] = s
		sb.files = append(sb.files, f)
	}
	if r.Err() == nil && r.Len() != 0 {
		r.Fail()
	}
	if r.Err() != nil {
		return nil, r.Err()
	}
	return sb, nil
}
