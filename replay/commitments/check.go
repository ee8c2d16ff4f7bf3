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

// Check checks the sessions, in input order, against the log. It is not
// to be called on a log that is not Usable.
func (l *Log) Check(sessions []Session) Result {
	var res Result
	tables := map[string]*TableCommitments{}
	table := func(name string) *TableCommitments {
		t := tables[name]
		if t == nil {
			t = &TableCommitments{Table: name}
			tables[name] = t
		}
		return t
	}
	for i := range l.entries {
		table(l.entries[i].table).Published++
	}
	// The entries each stream used, in session order, with the session.
	type use struct {
		e *entry
		s *Session
	}
	uses := map[streamKey][]use{}
	var streamOrder []streamKey
	untimed := int64(0)
	for i := range sessions {
		s := &sessions[i]
		t := table(s.Table)
		t.Sessions++
		at := func(code finding.Code, field, expected, actual, detail string) {
			f := finding.Finding{Code: code, Severity: finding.SeverityOf(code), RoundID: s.RoundID, File: s.File, Row: s.Row,
				Field: field, Expected: expected, Actual: actual, Detail: detail, PlayerID: s.Player}
			tm := ""
			if s.TimeOK {
				tm = fmtMicros(s.Time)
			}
			f.SetRound(tm, s.Table, s.Game, s.Currency)
			res.Findings = append(res.Findings, f)
		}
		k, ok := l.byKey[s.Key]
		what := "commitment"
		if s.Chain {
			what = "chain anchor"
		}
		if !ok {
			at(finding.CommitmentUnlogged, "fairness.commitment",
				fmt.Sprintf("an entry of the log of %d entries with this %s", l.Checkpoint.Size, what), "none",
				what+" "+shortHex(s.Key[:]))
			continue
		}
		e := &l.entries[k]
		t.Logged++
		ref := fmt.Sprintf("(log entry %d)", e.index)
		bound := true
		mis := func(field, expected, actual string) {
			bound = false
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
				untimed++
				t.Untimed++
			} else if !pub.Before(time.UnixMicro(s.Time)) {
				at(finding.CommitmentPublishedLate, "fairness.commitment",
					fmt.Sprintf("public before %s (the session's first round) %s", fmtMicros(s.Time), ref),
					"public by "+pub.UTC().Format(time.RFC3339)+" ("+ev+")", "")
			}
		}
		if e.used {
			// A second session with one commitment: SEED_REUSED's
			// business; it uses no entry of its own.
			continue
		}
		e.used = true
		t.Used++
		if bound {
			sk := e.stream()
			if _, seen := uses[sk]; !seen {
				streamOrder = append(streamOrder, sk)
			}
			uses[sk] = append(uses[sk], use{e, s})
		}
	}
	// Order: each stream's sessions use its entries one after another.
	streams := l.streams()
	for _, sk := range streamOrder {
		idx := streams[sk] // entry positions, ascending
		pos := func(e *entry) int {
			p, _ := slices.BinarySearchFunc(idx, e.index, func(i int32, x uint64) int { return cmp.Compare(l.entries[i].index, x) })
			return p
		}
		us := uses[sk]
		for j := 1; j < len(us); j++ {
			prev, cur := pos(us[j-1].e), pos(us[j].e)
			if cur == prev+1 {
				continue
			}
			s := us[j].s
			next := l.entries[idx[min(prev+1, len(idx)-1)]].index
			actual := fmt.Sprintf("log entry %d", us[j].e.index)
			switch {
			case cur < prev:
				actual += fmt.Sprintf(" (published %d entries of the stream before the previous session's)", prev-cur)
			default:
				actual += fmt.Sprintf(" (%d published commitment(s) of the stream skipped)", cur-prev-1)
			}
			f := finding.Finding{Code: finding.CommitmentOutOfOrder, Severity: finding.SeverityOf(finding.CommitmentOutOfOrder),
				RoundID: s.RoundID, File: s.File, Row: s.Row, Field: "fairness.commitment",
				Expected: fmt.Sprintf("log entry %d (the stream's next after entry %d, used from round %s)", next, us[j-1].e.index, us[j-1].s.RoundID),
				Actual:   actual, Detail: streamText(sk), PlayerID: s.Player}
			tm := ""
			if s.TimeOK {
				tm = fmtMicros(s.Time)
			}
			f.SetRound(tm, s.Table, s.Game, s.Currency)
			res.Findings = append(res.Findings, f)
		}
	}
	// Skipped: unused entries between a stream's first and last used one.
	for sk, idx := range streams {
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
				tables[sk.table].Skipped++
			}
		}
	}
	for _, t := range tables {
		t.Unused = t.Published - t.Used
		res.Tables = append(res.Tables, *t)
	}
	slices.SortFunc(res.Tables, func(a, b TableCommitments) int { return cmp.Compare(a.Table, b.Table) })
	if untimed > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("commitment log: %d seed session(s) use a commitment no timed checkpoint covers (no witness cosignature or timestamp in the log's evidence/): that it was public before the session's first round was not checked", untimed))
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
