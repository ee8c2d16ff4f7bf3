package replayer

import (
	"encoding/base64"
	"encoding/hex"
	"strings"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/commitments"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
)

// The commitment log (docs/replay.md, "Commitment log"). A worker notes,
// per unit, the first round of each commitment (a chain's anchor) it
// reads; the collector hands them, in input order, to the log's checker
// (package commitments), which takes the first of each over the whole
// replay, a seed session's first round, and checks it at once: the
// findings go out with their chunk's, and no session is kept.

// NotCheckedWithoutLog are the checks a replay without a commitment log
// does not make (Summary.NotChecked).
var NotCheckedWithoutLog = []string{
	"commitment log: that each seed session's commitment (chain anchor) is in the operator's commitment log (--commitment-log), bound to its table, player, first nonce, scheme and beacon",
	"commitment log: that each commitment was public before the session's first round by evidence the operator does not control (witness cosignatures, RFC 3161 timestamps); committed_at is the operator's word",
	"commitment log: that each table used its published commitments in publication order, none skipped (no choice from a pool)",
	"commitment log: that the log is consistent with the checkpoints an auditor kept (--log-checkpoint)",
}

// CommitmentLogSummary is the commitment log's part of a replay's summary.
type CommitmentLogSummary struct {
	Location string `json:"location"`
	Origin   string `json:"origin,omitempty"`
	Size     uint64 `json:"size,omitempty"`
	Root     string `json:"root,omitempty"`
	// TimedCheckpoints is the number of the log's checkpoints whose time
	// of publication evidence fixes (witness cosignatures, timestamps).
	TimedCheckpoints int `json:"timed_checkpoints"`
	// KeptCheckpoints is the number of earlier checkpoints the log was
	// checked consistent with (--log-checkpoint).
	KeptCheckpoints int `json:"kept_checkpoints"`
	// Sessions is the number of seed sessions (chains) checked.
	Sessions int64 `json:"sessions"`
	// Tables are the tables' commitments, sorted by table.
	Tables []commitments.TableCommitments `json:"tables"`
}

// sessionNotes is a worker's note of the commitments a unit has shown.
type sessionNotes struct {
	unit int
	last string
	seen map[string]struct{}
	// The texts the sessions hold (tables, players, schemes, ...), one
	// copy each.
	texts map[string]string
}

// text returns the worker's copy of s.
func (n *sessionNotes) text(s string) string {
	if t, ok := n.texts[s]; ok {
		return t
	}
	if n.texts == nil {
		n.texts = map[string]string{}
	}
	t := strings.Clone(s)
	n.texts[t] = t
	return t
}

// note adds r's session to ck when r is the unit's first round with its
// commitment.
func (n *sessionNotes) note(unit int, r *round.Round, t *audit.Trace, rec *roundlog.Record, ck *chunk) {
	c := r.Fairness.Commitment
	if n.seen == nil || n.unit != unit {
		n.unit, n.last, n.seen = unit, "", map[string]struct{}{}
	}
	if c == n.last && c != "" {
		return
	}
	if _, ok := n.seen[c]; ok {
		n.last = c
		return
	}
	var key [32]byte
	if len(c) != 64 {
		return // the Checker reports it
	}
	if _, err := hex.Decode(key[:], []byte(c)); err != nil {
		return
	}
	owned := strings.Clone(c)
	n.seen[owned] = struct{}{}
	n.last = owned
	s := commitments.Session{Key: key, Chain: r.Fairness.ChainIndex > 0, Table: r.TableID, Scheme: r.Fairness.Scheme,
		BeaconChain: r.Fairness.BeaconChain, BeaconRound: r.Fairness.BeaconRound, FirstNonce: r.Fairness.Nonce,
		Time: t.Time, TimeOK: t.TimeOK, RoundID: t.RoundID, File: rec.File, Row: rec.Row, Game: r.Game, Currency: r.Currency}
	if r.Game == round.CasinoHoldem && len(r.Boxes) == 1 {
		s.Player = r.Boxes[0].PlayerID
	}
	s.Table, s.Scheme, s.BeaconChain, s.Game, s.Currency, s.Player, s.File = n.text(s.Table), n.text(s.Scheme), n.text(s.BeaconChain), n.text(s.Game), n.text(s.Currency), n.text(s.Player), n.text(s.File)
	ck.sessions = append(ck.sessions, s)
}

// checkCommitments fills the summary's commitment log part once every
// session was checked (collector.take) and returns the log's own findings.
func (c *collector) checkCommitments() []finding.Finding {
	lg := c.opts.CommitLog
	cs := &CommitmentLogSummary{Location: lg.Location(), KeptCheckpoints: lg.Kept(), Tables: []commitments.TableCommitments{}}
	c.sum.CommitmentLog = cs
	fs := lg.LogFindings()
	if cp := lg.Checkpoint; cp != nil {
		cs.Origin, cs.Size, cs.Root = cp.Origin, cp.Size, b64(cp.Root[:])
	}
	if c.commits == nil {
		c.sum.Warn("commitment log: the log does not verify (COMMITMENT_LOG_INVALID): no seed session was checked against it")
		c.sum.NotChecked = append(c.sum.NotChecked, NotCheckedWithoutLog[:3]...)
		return fs
	}
	cs.TimedCheckpoints = lg.Timeline.Len()
	res := c.commits.Finish()
	cs.Tables = res.Tables
	for _, t := range res.Tables {
		cs.Sessions += t.Sessions
	}
	for _, w := range res.Warnings {
		c.sum.Warn(w)
	}
	sortFindings(fs)
	return fs
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
