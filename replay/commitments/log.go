// Package commitments checks a replay's seed sessions against the
// operator's commitment log (docs/commitment-log.md, docs/replay.md
// "Commitment log"): that each session's commitment (a hash chain's
// anchor) is in the log, bound to that session, public before the
// session's first round by evidence the operator does not control, and
// used in the order the log published it; and that the log is consistent
// with checkpoints an auditor kept.
//
// [Load] reads the whole log once: every entry bundle, the root recomputed
// from every leaf (a compact range, transparency-dev/merkle) and compared
// with the checkpoint's, so that no inclusion proof per entry is needed.
// [Log.Check] then takes the sessions in input order.
package commitments

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/tessera/api/layout"
	"github.com/transparency-dev/tessera/client"

	"github.com/fairhold/fairhold/fairness/commitlog"
)

// OldCheckpoint is a checkpoint of the log an auditor kept earlier: its
// signed note, and where it came from (a file name, for findings).
type OldCheckpoint struct {
	Name string
	Raw  []byte
}

// Options say which log to read and what to trust.
type Options struct {
	// Location is the log's directory or http(s) base URL.
	Location string
	// Origin is the log's origin; "" takes it from the checkpoint (its
	// signature is still checked under that name).
	Origin string
	// Key is the log's Ed25519 public key.
	Key ed25519.PublicKey
	// Operator, when not "", is the operator id every entry a session
	// uses must name.
	Operator string
	// Trust is what fixes when a checkpoint was public (witnesses, TSAs).
	Trust commitlog.Trust
	// Old are checkpoints kept earlier: the log must be consistent with
	// each.
	Old []OldCheckpoint
}

// entry is what the check keeps of one log entry: 80 bytes, its texts
// shared with the other entries of its stream.
type entry struct {
	*binding
	index      uint64
	key        [32]byte // the commitment or the chain anchor
	firstNonce uint64
	beaconRnd  uint64
	chain      bool
	used       bool
}

// binding is the texts an entry binds its commitment to.
type binding struct {
	operator, table, player, scheme, beacon string
}

// Problem is something wrong with the log as a whole (its checkpoint, its
// entries, its consistency with a kept checkpoint): a finding without a
// round.
type Problem struct {
	Code     string // "invalid" or "split-view"
	Field    string
	Expected string
	Actual   string
	Detail   string
}

// Log is a commitment log read whole and verified against its checkpoint.
type Log struct {
	Checkpoint *commitlog.Checkpoint
	Timeline   *commitlog.Timeline
	entries    []entry
	byKey      []int32 // the entries' positions by commitment, then index
	opts       Options
	// Problems are the log's own problems; while one of kind "invalid" is
	// present, Usable is false and no session is checked against it.
	Problems []Problem
	Usable   bool
}

// ErrUsage is wrapped by errors of [Load] that are the caller's: a kept
// checkpoint that is not a checkpoint of this log under its key.
var ErrUsage = errors.New("commitment log")

// Load reads and verifies the log. Its error is for a log that could not
// be read at all (a missing directory); a log that reads but does not
// verify is a Problem.
func Load(ctx context.Context, opts Options) (*Log, error) {
	r, err := commitlog.Open(opts.Location, nil)
	if err != nil {
		return nil, err
	}
	l := &Log{opts: opts}
	cp, err := r.Checkpoint(ctx, opts.Origin, opts.Key)
	if err != nil {
		if errors.Is(err, commitlog.ErrVerification) {
			l.invalid("checkpoint", "a checkpoint signed with the key given", err.Error(), "")
			return l, nil
		}
		return nil, fmt.Errorf("commitment log %s: %w", opts.Location, err)
	}
	l.Checkpoint = cp
	olds := make([]*commitlog.Checkpoint, len(opts.Old))
	for i, o := range opts.Old {
		oc, err := commitlog.ParseCheckpoint(o.Raw, cp.Origin, opts.Key)
		if err != nil {
			return nil, fmt.Errorf("%w: kept checkpoint %s: %w", ErrUsage, o.Name, err)
		}
		olds[i] = oc
	}
	roots, ok := l.readEntries(ctx, r, cp, olds)
	if !ok {
		return l, nil
	}
	for i, oc := range olds {
		name := opts.Old[i].Name
		switch {
		case oc.Size > cp.Size:
			l.Problems = append(l.Problems, Problem{Code: "split-view", Field: "checkpoint",
				Expected: fmt.Sprintf("a log of at least the %d entries of the checkpoint kept in %s", oc.Size, name),
				Actual:   fmt.Sprintf("a log of %d entries", cp.Size), Detail: "the log shrank: it was rewritten"})
		case !l.consistentFromTiles(ctx, r, oc, cp, name):
			// Reported by consistentFromTiles.
		case subtle.ConstantTimeCompare(roots[oc.Size], oc.Root[:]) != 1:
			l.Problems = append(l.Problems, Problem{Code: "split-view", Field: "checkpoint",
				Expected: fmt.Sprintf("the first %d entries hash to the root of the checkpoint kept in %s, %s", oc.Size, name, b64(oc.Root[:])),
				Actual:   fmt.Sprintf("they hash to %s", b64(roots[oc.Size])),
				Detail:   fmt.Sprintf("the log of %d entries is not an extension of the one the kept checkpoint signed: it was rewritten, or shown differently to different people", cp.Size)})
		}
	}
	if len(l.Problems) > 0 && l.Problems[len(l.Problems)-1].Code == "invalid" {
		return l, nil
	}
	tl, err := commitlog.LoadTimeline(ctx, r, cp, opts.Key, opts.Trust)
	if err != nil {
		if errors.Is(err, commitlog.ErrVerification) {
			l.invalid("evidence", "timed checkpoints that verify", err.Error(), "")
			return l, nil
		}
		return nil, fmt.Errorf("commitment log %s: evidence: %w", opts.Location, err)
	}
	l.Timeline = tl
	l.Usable = true
	return l, nil
}

// consistentFromTiles checks the consistency proof between the kept
// checkpoint oc and cp, built from the log's tiles (docs/commitment-log.md
// section 6), and reports whether it verifies; a proof that does not is a
// split view, tiles that cannot be read make the log invalid.
func (l *Log) consistentFromTiles(ctx context.Context, r *commitlog.Reader, oc, cp *commitlog.Checkpoint, name string) bool {
	p, err := r.ConsistencyProof(ctx, oc.Size, cp)
	if err == nil {
		err = commitlog.VerifyConsistency(oc, cp, p)
	}
	switch {
	case err == nil:
		return true
	case errors.Is(err, commitlog.ErrVerification):
		l.Problems = append(l.Problems, Problem{Code: "split-view", Field: "checkpoint",
			Expected: fmt.Sprintf("a consistency proof from the log's tiles between the checkpoint kept in %s (%d entries) and the log's (%d)", name, oc.Size, cp.Size),
			Actual:   err.Error(),
			Detail:   fmt.Sprintf("the log of %d entries is not an extension of the one the kept checkpoint signed: it was rewritten, or shown differently to different people", cp.Size)})
	default:
		l.invalid("tile", "the tiles of a consistency proof", err.Error(), "")
	}
	return false
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func (l *Log) invalid(field, expected, actual, detail string) {
	l.Problems = append(l.Problems, Problem{Code: "invalid", Field: field, Expected: expected, Actual: actual, Detail: detail})
}

// readEntries reads every entry bundle once, parses the entries, and
// recomputes the tree's root from the leaves; it returns the roots at the
// sizes of the kept checkpoints (by size), and false when the log is
// invalid (a Problem says why).
func (l *Log) readEntries(ctx context.Context, r *commitlog.Reader, cp *commitlog.Checkpoint, olds []*commitlog.Checkpoint) (map[uint64][]byte, bool) {
	want := map[uint64]bool{}
	for _, o := range olds {
		if o.Size <= cp.Size {
			want[o.Size] = true
		}
	}
	roots := map[uint64][]byte{}
	rf := compact.RangeFactory{Hash: rfc6962.DefaultHasher.HashChildren}
	cr := rf.NewEmptyRange(0)
	rootAt := func() bool {
		h, err := cr.GetRootHash(nil)
		if err != nil {
			l.invalid("tile/entries", "a tree of the entries", err.Error(), "")
			return false
		}
		roots[cr.End()] = h
		return true
	}
	if want[0] {
		roots[0] = rfc6962.DefaultHasher.EmptyRoot()
	}
	l.entries = make([]entry, 0, cp.Size)
	bindings := map[binding]*binding{}
	bundles := (cp.Size + layout.EntryBundleWidth - 1) / layout.EntryBundleWidth
	for b := uint64(0); b < bundles; b++ {
		eb, err := client.GetEntryBundle(ctx, r.ReadEntryBundle, b, cp.Size)
		if err != nil {
			l.invalid(layout.EntriesPath(b, layout.PartialTileSize(0, b, cp.Size)), "an entry bundle of the log", err.Error(), "")
			return nil, false
		}
		n := min(uint64(layout.EntryBundleWidth), cp.Size-b*layout.EntryBundleWidth)
		if uint64(len(eb.Entries)) < n {
			l.invalid(layout.EntriesPath(b, layout.PartialTileSize(0, b, cp.Size)), fmt.Sprintf("%d entries", n), fmt.Sprintf("%d entries", len(eb.Entries)), "truncated")
			return nil, false
		}
		for k := uint64(0); k < n; k++ {
			raw := eb.Entries[k]
			idx := b*layout.EntryBundleWidth + k
			leaf := commitlog.LeafHash(raw)
			if err := cr.Append(leaf[:], nil); err != nil {
				l.invalid("tile/entries", "a tree of the entries", err.Error(), "")
				return nil, false
			}
			if want[cr.End()] && !rootAt() {
				return nil, false
			}
			e, err := commitlog.Unmarshal(raw)
			if err != nil {
				// A leaf of the tree that is not an entry: kept in the
				// tree, used by nothing.
				l.invalid(fmt.Sprintf("entry %d", idx), "the canonical encoding of a commitment log entry", err.Error(), "")
				continue
			}
			bk := binding{e.Operator, e.Table, e.Player, e.Scheme, e.BeaconChain}
			bd := bindings[bk]
			if bd == nil {
				bd = &bk
				bindings[bk] = bd
			}
			x := entry{binding: bd, index: idx, beaconRnd: e.BeaconRound}
			if e.ChainAnchor != nil {
				x.key, x.chain = *e.ChainAnchor, true
			} else {
				x.key, x.firstNonce = *e.Commitment, e.FirstNonce
			}
			l.entries = append(l.entries, x)
		}
	}
	l.byKey = make([]int32, len(l.entries))
	for i := range l.byKey {
		l.byKey[i] = int32(i)
	}
	slices.SortFunc(l.byKey, func(a, b int32) int {
		return cmp.Or(bytes.Compare(l.entries[a].key[:], l.entries[b].key[:]), cmp.Compare(a, b))
	})
	root, err := cr.GetRootHash(nil)
	if err != nil {
		l.invalid("tile/entries", "a tree of the entries", err.Error(), "")
		return nil, false
	}
	if subtle.ConstantTimeCompare(root, cp.Root[:]) != 1 {
		l.invalid("checkpoint", fmt.Sprintf("the %d entries hash to the checkpoint's root %s", cp.Size, b64(cp.Root[:])),
			fmt.Sprintf("they hash to %s", b64(root)), "the entry bundles are not the entries the checkpoint signs")
		return nil, false
	}
	if len(l.Problems) > 0 {
		return nil, false
	}
	return roots, true
}

// find returns the position of the first entry (in log order) with the
// commitment k.
func (l *Log) find(k [32]byte) (int32, bool) {
	i, ok := slices.BinarySearchFunc(l.byKey, k, func(p int32, k [32]byte) int { return bytes.Compare(l.entries[p].key[:], k[:]) })
	if !ok {
		return 0, false
	}
	return l.byKey[i], true
}

// Entries returns the number of entries read.
func (l *Log) Entries() int { return len(l.entries) }

// streamKey is a commitment stream: a table, and the player of an RNG
// game's sessions ("" for a shared table). The operator is not part of it:
// entries of one table under two operator ids are one stream, so that
// publishing under a second id does not make a second pool.
type streamKey struct{ table, player string }

func (e *entry) stream() streamKey { return streamKey{e.table, e.player} }

// sortedStreams returns the entries' indices per stream, ascending.
func (l *Log) streams() map[streamKey][]int32 {
	out := map[streamKey][]int32{}
	for i := range l.entries {
		k := l.entries[i].stream()
		out[k] = append(out[k], int32(i))
	}
	return out
}

func shortHex(b []byte) string {
	const hexdigits = "0123456789abcdef"
	var s strings.Builder
	for _, c := range b[:min(len(b), 8)] {
		s.WriteByte(hexdigits[c>>4])
		s.WriteByte(hexdigits[c&15])
	}
	return s.String() + "…"
}

// Location returns the log's directory or URL.
func (l *Log) Location() string { return l.opts.Location }

// Kept returns the number of kept checkpoints the log was checked with.
func (l *Log) Kept() int { return len(l.opts.Old) }
