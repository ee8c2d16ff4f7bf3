package commitments

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/fairhold/fairhold/replay/finding"
)

// Session is a seed session (a single server seed, or a hash chain) as its
// first round in input order shows it.
type Session struct {
	Key   [32]byte // the round's commitment: SHA-256 of the seed, or the chain's anchor
	Chain bool     // a hash chain (chain_index > 0)

	Table  string
	Player string // the RNG game's player (a single-box Casino Hold'em round); "" for a shared table
	Scheme string
	// The beacon the first round mixes in: chain and round ("", 0: none).
	BeaconChain string
	BeaconRound uint64
	FirstNonce  uint64 // the first round's nonce (single seeds)

	Time   int64 // the first round's time, Unix microseconds
	TimeOK bool

	// Where the first round is, for findings.
	RoundID, File, Game, Currency string
	Row                           int64
}

// TableCommitments is a table's commitments in the log against its
// sessions in the replay (one line of the summary).
type TableCommitments struct {
	Table string `json:"table"`
	// Sessions is the number of the table's seed sessions (chains) in
	// the replay; Logged those whose commitment is in the log.
	Sessions int64 `json:"sessions"`
	Logged   int64 `json:"logged"`
	// Published is the number of the log's entries for the table (all
	// its players' in an RNG game); Used those a session of the replay
	// used; Unused = Published - Used; Skipped, of the unused, those
	// published between two entries the same stream used (a pool's
	// leftovers; each skip is also a COMMITMENT_OUT_OF_ORDER finding).
	// An unused entry after the stream's last used one is a commitment
	// for a session not dealt yet, or not in this replay; one before the
	// stream's first used one was used before the replay's period, or
	// skipped: the replay of the earlier period says which.
	Published int64 `json:"published"`
	Used      int64 `json:"used"`
	Unused    int64 `json:"unused"`
	Skipped   int64 `json:"skipped"`
	// Untimed counts the sessions whose commitment no timed checkpoint
	// covers: when they were public was not checked (a warning).
	Untimed int64 `json:"untimed,omitempty"`
}

// Result is what [Log.Check] returns.
type Result struct {
	Findings []finding.Finding
	Tables   []TableCommitments
	Warnings []string
}

// logFinding is a finding about the log as a whole.
func logFinding(code finding.Code, p Problem, loc string) finding.Finding {
	return finding.Finding{Code: code, Severity: finding.SeverityOf(code), File: loc, Row: -1,
		Field: p.Field, Expected: p.Expected, Actual: p.Actual, Detail: p.Detail}
}

// LogFindings returns the findings of the log's own problems.
func (l *Log) LogFindings() []finding.Finding {
	var out []finding.Finding
	for _, p := range l.Problems {
		code := finding.CommitmentLogInvalid
		if p.Code == "split-view" {
			code = finding.CommitmentLogSplitView
		}
		out = append(out, logFinding(code, p, l.opts.Location))
	}
	return out
}

func fmtMicros(us int64) string { return time.UnixMicro(us).UTC().Format(time.RFC3339Nano) }

// Check checks the sessions, in input order, against the log: [Log.NewChecker]
// fed every session, then [Checker.Finish]. It is not to be called on a
// log that is not Usable.
func (l *Log) Check(sessions []Session) Result {
	c := l.NewChecker()
	var fs []finding.Finding
	for i := range sessions {
		fs = c.Session(&sessions[i], fs)
	}
	res := c.Finish()
	res.Findings = fs
	return res
}

// Checker checks seed sessions one at a time, in input order, against a
// log: its memory is the log's entries and a few words per stream, not per
// session.
type Checker struct {
	l        *Log
	tables   map[string]*TableCommitments
	streams  map[streamKey][]int32 // each stream's entries, ascending
	last     map[streamKey]lastUse // each stream's last session's entry
	unlogged map[[32]byte]struct{} // the commitments seen that are not in the log
	untimed  int64
}

// lastUse is a stream's last session: its entry's position in the stream.
type lastUse struct {
	pos     int
	index   uint64
	roundID string
}

// NewChecker returns a Checker of sessions against l (Usable). It marks
// the entries it finds used: a Log serves one Checker.
func (l *Log) NewChecker() *Checker {
	c := &Checker{l: l, tables: map[string]*TableCommitments{}, streams: l.streams(),
		last: map[streamKey]lastUse{}, unlogged: map[[32]byte]struct{}{}}
	for i := range l.entries {
		c.table(l.entries[i].table).Published++
	}
	return c
}

func (c *Checker) table(name string) *TableCommitments {
	t := c.tables[name]
	if t == nil {
		t = &TableCommitments{Table: name}
		c.tables[name] = t
	}
	return t
}

// Session checks s, the first round in input order of a commitment not
// seen before or seen again (a repeat is ignored: the replay's
// SEED_REUSED covers a seed serving two sessions), and appends its
// findings to out.
func (c *Checker) Session(s *Session, out []finding.Finding) []finding.Finding {
	l := c.l
	at := func(code finding.Code, field, expected, actual, detail string) {
		f := finding.Finding{Code: code, Severity: finding.SeverityOf(code), RoundID: s.RoundID, File: s.File, Row: s.Row,
			Field: field, Expected: expected, Actual: actual, Detail: detail, PlayerID: s.Player}
		tm := ""
		if s.TimeOK {
			tm = fmtMicros(s.Time)
		}
		f.SetRound(tm, s.Table, s.Game, s.Currency)
		out = append(out, f)
	}
	k, ok := l.find(s.Key)
	what := "commitment"
	if s.Chain {
		what = "chain anchor"
	}
	if !ok {
		if _, seen := c.unlogged[s.Key]; seen {
			return out
		}
		c.unlogged[s.Key] = struct{}{}
		c.table(s.Table).Sessions++
		at(finding.CommitmentUnlogged, "fairness.commitment",
			fmt.Sprintf("an entry of the log of %d entries with this %s", l.Checkpoint.Size, what), "none",
			what+" "+shortHex(s.Key[:]))
		return out
	}
	e := &l.entries[k]
	if e.used {
		return out
	}
	e.used = true
	t := c.table(s.Table)
	t.Sessions++
	t.Logged++
	c.table(e.table).Used++
	ref := fmt.Sprintf("(log entry %d)", e.index)
	mis := func(field, expected, actual string) {
		at(finding.CommitmentMisbound, "fairness.commitment", expected+" (the session's)", actual+" "+ref, field)
	}
	if e.table != s.Table {
		mis("table", "table "+strconv.Quote(s.Table), "table "+strconv.Quote(e.table))
	}
	if e.player != s.Player {
		mis("player", playerText(s.Player), playerText(e.player))
	}
	switch {
	case e.chain != s.Chain:
		mis("chain-anchor", kindText(s.Chain), kindText(e.chain))
	case !s.Chain && e.firstNonce != s.FirstNonce:
		mis("first-nonce", "first nonce "+strconv.FormatUint(s.FirstNonce, 10), "first nonce "+strconv.FormatUint(e.firstNonce, 10))
	}
	if e.scheme != s.Scheme {
		mis("scheme", "scheme "+strconv.Quote(s.Scheme), "scheme "+strconv.Quote(e.scheme))
	}
	if e.beacon != s.BeaconChain || e.beaconRnd != s.BeaconRound {
		mis("beacon", beaconText(s.BeaconChain, s.BeaconRound), beaconText(e.beacon, e.beaconRnd))
	}
	if op := l.opts.Operator; op != "" && e.operator != op {
		mis("operator", "operator "+strconv.Quote(op)+" (the operator named by the auditor)", "operator "+strconv.Quote(e.operator))
	}
	if s.TimeOK {
		if pub, ev, ok := l.Timeline.PublicBy(e.index); !ok {
			c.untimed++
			t.Untimed++
		} else if !pub.Before(time.UnixMicro(s.Time)) {
			at(finding.CommitmentPublishedLate, "fairness.commitment",
				fmt.Sprintf("public before %s (the session's first round) %s", fmtMicros(s.Time), ref),
				"public by "+pub.UTC().Format(time.RFC3339)+" ("+ev+")", "")
		}
	}
	// Order: each stream's sessions use its entries one after another.
	// The entry's stream, whatever the session's binding: a session
	// misbound to another stream leaves its own stream's order alone.
	sk := e.stream()
	idx := c.streams[sk]
	pos, _ := slices.BinarySearchFunc(idx, e.index, func(i int32, x uint64) int { return cmp.Compare(l.entries[i].index, x) })
	prev, seen := c.last[sk]
	c.last[sk] = lastUse{pos, e.index, s.RoundID}
	if !seen || pos == prev.pos+1 {
		return out
	}
	next := l.entries[idx[min(prev.pos+1, len(idx)-1)]].index
	actual := fmt.Sprintf("log entry %d", e.index)
	if pos < prev.pos {
		actual += fmt.Sprintf(" (published %d entries of the stream before the previous session's)", prev.pos-pos)
	} else {
		actual += fmt.Sprintf(" (%d published commitment(s) of the stream skipped)", pos-prev.pos-1)
	}
	at(finding.CommitmentOutOfOrder, "fairness.commitment",
		fmt.Sprintf("log entry %d (the stream's next after entry %d, used from round %s)", next, prev.index, prev.roundID),
		actual, streamText(sk))
	return out
}

// Finish returns the tables' counts and the warnings.
func (c *Checker) Finish() Result {
	var res Result
	l := c.l
	// Skipped: unused entries between a stream's first and last used one.
	for sk, idx := range c.streams {
		lo, hi := -1, -1
		for p, i := range idx {
			if l.entries[i].used {
				if lo < 0 {
					lo = p
				}
				hi = p
			}
		}
		for p := lo + 1; lo >= 0 && p < hi; p++ {
			if !l.entries[idx[p]].used {
				c.tables[sk.table].Skipped++
			}
		}
	}
	for _, t := range c.tables {
		t.Unused = t.Published - t.Used
		res.Tables = append(res.Tables, *t)
	}
	slices.SortFunc(res.Tables, func(a, b TableCommitments) int { return cmp.Compare(a.Table, b.Table) })
	if c.untimed > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("commitment log: %d seed session(s) use a commitment no timed checkpoint covers (no witness cosignature or timestamp in the log's evidence/): that it was public before the session's first round was not checked", c.untimed))
	}
	return res
}

func playerText(p string) string {
	if p == "" {
		return "no player (a shared table)"
	}
	return "player " + strconv.Quote(p)
}

func kindText(chain bool) string {
	if chain {
		return "a hash chain's anchor"
	}
	return "a single seed's commitment"
}

func beaconText(chain string, round uint64) string {
	if chain == "" {
		return "no beacon"
	}
	return fmt.Sprintf("beacon %s round %d", chain, round)
}

func streamText(sk streamKey) string {
	if sk.player == "" {
		return "table " + strconv.Quote(sk.table)
	}
	return fmt.Sprintf("table %q, player %q", sk.table, sk.player)
}
