package hand

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
)

// The fast evaluator's tables, built once at first use (BenchmarkTableSetup):
//
//   - flushTable: the value of the best five cards of one suit, indexed by
//     the suit's 13-bit rank mask (five or more bits set).
//   - rankTable and rowOffset: the value of every multiset of 5 to 7 ranks
//     (no flush), indexed by a perfect hash of its rank sum r:
//     rankTable[r&colMask + rowOffset[r>>rowShift]]. This is row
//     displacement: the sums are cut into rows of 1<<rowShift columns and
//     each row is shifted to where its entries land on free slots or on
//     slots holding the same value. The shifts (rowOffset) are found by a
//     first-fit search, fullest rows first, that takes a few seconds; they
//     are generated into rowoffset.go by
//     go test ./replay/hand -run TestRowOffsetGenerated -update.
//     Set-up only places the entries and fails if two different values
//     would share a slot, so a stale rowoffset.go cannot go unnoticed.
const (
	rowShift  = 11
	colMask   = 1<<rowShift - 1
	numRows   = maxRankSum>>rowShift + 1
	rowMask   = 1<<14 - 1 // numRows <= 1<<14 (checked by buildTables)
	tableBits = 18
	tableMask = 1<<tableBits - 1
)

var (
	ready      atomic.Bool
	setUpOnce  sync.Once
	flushTable [1 << rankMaskBits]Value
	rankTable  [1 << tableBits]Value
)

// setUp builds the tables once.
func setUp() {
	setUpOnce.Do(func() {
		if err := buildTables(&flushTable, &rankTable, &rowOffset); err != nil {
			panic(err) // rowoffset.go is stale; TestTables catches it
		}
		ready.Store(true)
	})
}

// rankEntry is one multiset of 5 to 7 ranks: its rank sum and value.
type rankEntry struct {
	sum   uint32
	value Value
}

// rankMultisets returns every multiset of 5 to 7 ranks with at most four
// of a rank, with its sum and value.
func rankMultisets() []rankEntry {
	out := make([]rankEntry, 0, 1<<17)
	var counts [13]uint8
	var rec func(r int, n int, sum uint32)
	rec = func(r int, n int, sum uint32) {
		if r == len(counts) {
			if n >= 5 {
				out = append(out, rankEntry{sum, countsValue(&counts)})
			}
			return
		}
		for k := 0; k <= 4 && n+k <= 7; k++ {
			counts[r] = uint8(k)
			rec(r+1, n+k, sum+uint32(k)*rankMul[r])
		}
		counts[r] = 0
	}
	rec(0, 0, 0)
	return out
}

// buildTables fills the flush and rank tables, placing the rank entries
// by offset.
func buildTables(flush *[1 << rankMaskBits]Value, rank *[1 << tableBits]Value, offset *[rowMask + 1]uint32) error {
	for m := range flush {
		if popcount13(uint16(m)) >= 5 {
			flush[m] = flushValue(uint16(m))
		}
	}
	for _, e := range rankMultisets() {
		j := (e.sum&colMask + offset[e.sum>>rowShift&rowMask]) & tableMask
		if v := rank[j]; v != 0 && v != e.value {
			return fmt.Errorf("hand: rank sums %d (%v) and another (%v) share slot %d: rowoffset.go is stale", e.sum, e.value, v, j)
		}
		rank[j] = e.value
	}
	return nil
}

// placeRows finds the row offsets by first fit, fullest rows first, and
// returns them with the length of the rank table they use.
func placeRows(entries []rankEntry) ([]uint32, int, error) {
	if numRows > rowMask+1 {
		return nil, 0, fmt.Errorf("hand: %d rows do not fit the offset table of %d", numRows, rowMask+1)
	}
	rows := make([][]rankEntry, numRows)
	for _, e := range entries {
		rows[e.sum>>rowShift] = append(rows[e.sum>>rowShift], e)
	}
	order := make([]int, 0, numRows)
	for i, r := range rows {
		if len(r) > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return len(rows[order[a]]) > len(rows[order[b]]) })
	table := make([]Value, 1<<tableBits)
	offsets := make([]uint32, numRows)
	used := 0
	for _, i := range order {
		row := rows[i]
	next:
		for off := 0; ; off++ {
			if off+colMask >= len(table) {
				return nil, 0, fmt.Errorf("hand: rank table of %d entries is too small", len(table))
			}
			for _, e := range row {
				if v := table[off+int(e.sum&colMask)]; v != 0 && v != e.value {
					continue next
				}
			}
			for _, e := range row {
				j := off + int(e.sum&colMask)
				table[j] = e.value
				used = max(used, j+1)
			}
			offsets[i] = uint32(off)
			break
		}
	}
	return offsets, used, nil
}

func popcount13(m uint16) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}
