package commitlog

import (
	"sort"
	"time"
)

// TimedCheckpoint is a checkpoint of the log, verified with the log's key,
// together with the time by which evidence the operator does not control
// (witness cosignatures, an RFC 3161 token) shows it was public. Every
// entry below Size was public by PublicBy.
type TimedCheckpoint struct {
	Size     uint64
	Root     [32]byte
	PublicBy time.Time
	// Evidence says what fixes PublicBy, for findings and reports, e.g.
	// "cosigned by witness.example/w1 at 2026-12-02T10:00:00Z".
	Evidence string
}

// Timeline answers when each entry of a log was public. It holds
// checkpoints that were each verified (log signature, cosignatures or
// timestamp token) and checked consistent with the latest checkpoint by
// whoever built it.
type Timeline struct {
	cps []TimedCheckpoint // by Size ascending; PublicBy made non-increasing from the right
}

// NewTimeline returns the timeline of the given verified checkpoints. The
// caller has verified each one and its consistency with the latest
// checkpoint; NewTimeline only orders them.
func NewTimeline(cps []TimedCheckpoint) *Timeline {
	s := append([]TimedCheckpoint(nil), cps...)
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].Size != s[j].Size {
			return s[i].Size < s[j].Size
		}
		return s[i].PublicBy.Before(s[j].PublicBy)
	})
	// An entry public in a small checkpoint is public in every larger one
	// at that time too: each position keeps the earliest time of itself
	// and every larger checkpoint.
	for i := len(s) - 2; i >= 0; i-- {
		if s[i+1].PublicBy.Before(s[i].PublicBy) {
			s[i].PublicBy, s[i].Evidence = s[i+1].PublicBy, s[i+1].Evidence
		}
	}
	return &Timeline{cps: s}
}

// Len returns the number of timed checkpoints.
func (t *Timeline) Len() int {
	if t == nil {
		return 0
	}
	return len(t.cps)
}

// PublicBy returns the earliest time by which entry index is shown public:
// the earliest PublicBy of a checkpoint whose Size exceeds index. ok is
// false when no timed checkpoint covers the entry (the check cannot be
// made for it).
func (t *Timeline) PublicBy(index uint64) (at time.Time, evidence string, ok bool) {
	if t == nil {
		return time.Time{}, "", false
	}
	i := sort.Search(len(t.cps), func(i int) bool { return t.cps[i].Size > index })
	if i == len(t.cps) {
		return time.Time{}, "", false
	}
	return t.cps[i].PublicBy, t.cps[i].Evidence, true
}
