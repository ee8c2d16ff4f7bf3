package audit

import (
	"sort"
	"strings"
)

// playerTable holds each player's balance after their last round and
// which round that was, by the fingerprint of the player id.
//
// A busy table meets millions of players (a Double Hold'em table whose
// players bust and are replaced), so an entry is packed in one 64-bit
// word when it fits: the balance in packBalanceBits bits (zigzag, so
// amounts up to 2^35 - 1 minor units either way) and the round's ordinal
// in the Ledger's input in the other packOrdBits (the first 2^28 rounds).
// A Go map slot is then 16 bytes rather than 24. An entry that does not
// fit is kept whole in wide. The map holds no pointers, so the collector
// does not scan it.
type playerTable struct {
	packed map[uint64]uint64
	wide   map[uint64]lastBalance
}

// lastBalance is a player's balance after their last round, and the
// ordinal of that round in the Ledger's input (see places).
type lastBalance struct {
	after int64
	ord   uint64
}

const (
	packOrdBits     = 28
	packBalanceBits = 64 - packOrdBits
)

func newPlayerTable() playerTable {
	return playerTable{packed: map[uint64]uint64{}, wide: map[uint64]lastBalance{}}
}

func (p *playerTable) get(id uint64) (lastBalance, bool) {
	if v, ok := p.packed[id]; ok {
		z := v >> packOrdBits
		return lastBalance{after: int64(z>>1) ^ -int64(z&1), ord: v & (1<<packOrdBits - 1)}, true
	}
	if len(p.wide) == 0 {
		return lastBalance{}, false
	}
	b, ok := p.wide[id]
	return b, ok
}

func (p *playerTable) set(id uint64, b lastBalance) {
	z := uint64(b.after<<1) ^ uint64(b.after>>63) // zigzag
	if z < 1<<packBalanceBits && b.ord < 1<<packOrdBits {
		p.packed[id] = z<<packOrdBits | b.ord
		if len(p.wide) > 0 {
			delete(p.wide, id)
		}
		return
	}
	delete(p.packed, id)
	p.wide[id] = b
}

// places tells where the round of each ordinal is: the Ledger numbers
// the rounds it observes 0, 1, 2, ... and notes a place only where the
// input does not go on to the next row of the same file, so a dataset
// costs a few words per file.
type places struct {
	files fileTable
	marks []placeMark
	next  uint64 // the next ordinal
	last  placeMark
}

// placeMark says that the round of ordinal ord is at row row of file
// files.names[file], and the rounds after it at the rows after it, up to
// the next mark. A negative row is a round whose row is not known.
type placeMark struct {
	ord  uint64
	file int32
	row  int64
}

// add numbers the round at file and row and returns its ordinal.
func (p *places) add(file string, row int64) uint64 {
	ord := p.next
	p.next++
	f := p.files.number(file)
	n := len(p.marks)
	if n == 0 || f != p.last.file || row < 0 || p.last.row < 0 || row != p.last.row+int64(ord-p.last.ord) {
		p.last = placeMark{ord, f, row}
		p.marks = append(p.marks, p.last)
	}
	return ord
}

// where returns the file and row of the round of ordinal ord, and whether
// they are known.
func (p *places) where(ord uint64) (string, int64, bool) {
	i := sort.Search(len(p.marks), func(i int) bool { return p.marks[i].ord > ord }) - 1
	if i < 0 || ord >= p.next || p.marks[i].row < 0 {
		return "", 0, false
	}
	m := p.marks[i]
	return p.files.names[m.file], m.row + int64(ord-m.ord), true
}

// previous describes where a player's previous round is.
func (l *Ledger) previous(b lastBalance) string {
	return previousText(l.places.where(b.ord))
}

// previousOf describes where the previous round of who ("player",
// "wallet") is.
func (l *Ledger) previousOf(who string, b lastBalance) string {
	f, r, ok := l.places.where(b.ord)
	return previousOf(who, f, r, ok)
}

// fileTable numbers the input files.
type fileTable struct {
	names []string
	index map[string]int32
	last  int32 // the index of the last file looked up
}

func (f *fileTable) number(name string) int32 {
	if len(f.names) > 0 && f.names[f.last] == name {
		return f.last
	}
	i, ok := f.index[name]
	if !ok {
		if f.index == nil {
			f.index = map[string]int32{}
		}
		i = int32(len(f.names))
		f.names = append(f.names, strings.Clone(name))
		f.index[f.names[i]] = i
	}
	f.last = i
	return i
}
