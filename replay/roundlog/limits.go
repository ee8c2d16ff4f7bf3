package roundlog

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/fairhold/fairhold/replay/round"
)

// What the reader holds, whatever the input (docs/log-format.md section 6,
// docs/replay.md "Memory"). They are variables so that tests can lower
// them; nothing else changes them.
var (
	// sliceRounds is the most rounds a rounds row group may have to be
	// decoded whole; a larger one is read in slices of at most this many
	// rounds, each column's pages decoded as the slice reaches them.
	sliceRounds = 16384
	// sliceChildRows is the same for a child table's row group (boxes,
	// seats, actions, pots), in rows: the writer's default RowGroupRows.
	sliceChildRows = 65536
	// maxRoundChildRows bounds the rows one round has in one child table
	// (the rounds' n_boxes, n_seats, n_actions and n_pots): a round's rows
	// are made at once.
	maxRoundChildRows = 65536
	// maxLineBytes bounds a JSON Lines line, the newline not counted: a
	// longer line is damage and is read past without being held.
	maxLineBytes = 1 << 20
	// maxFieldBytes bounds a text value (an id, a seed, a card, a reason):
	// the replay keeps round ids and some seeds' texts across rounds.
	maxFieldBytes = 4096
)

// sliceReadBuffer is the read buffer of each column's pages in a sliced
// row group, where every column's pages are open at once (a whole row
// group is decoded one column at a time, with buffers of 1 MiB).
const sliceReadBuffer = 64 << 10

// checkSizes reports the first text value of r longer than maxFieldBytes
// or not valid UTF-8 (docs/fairness.md section 4: a client seed that is
// not is malformed, never repaired; no other text of the log may be
// either, docs/log-format.md). It runs before validate, whose reasons
// quote the values. checkUTF8 false skips the UTF-8 check: the Parquet
// reader knows when the columns the texts come from hold ASCII only.
func checkSizes(r *round.Round, checkUTF8 bool) badValue {
	f := &r.Fairness
	// One comparison for the usual round: the lengths' bitwise or is at
	// least the longest of them. Free texts are then checked for UTF-8
	// (freeTextsValid); the texts of a fixed form (hex digits, times,
	// cards, names of games, schemes, chains, decisions) only for their
	// length: each is parsed strictly where it is used, and a byte
	// outside its form, UTF-8 or not, is damage there.
	or := len(r.RoundID) | len(r.Game) | len(r.TableID) | len(r.Time) | len(r.Currency) | len(r.Profile) |
		len(r.ProfileHash) | len(r.VoidReason) | len(f.Scheme) | len(f.Commitment) | len(f.CommittedAt) |
		len(f.ServerSeed) | len(f.RevealedAt) | len(f.BeaconChain) | len(f.BeaconSignature) |
		len(f.BeaconPreviousSignature)
	for _, s := range f.ClientSeeds {
		or |= len(s)
	}
	for _, s := range r.WalletIDs {
		or |= len(s)
	}
	for _, s := range r.Dealer {
		or |= len(s)
	}
	for _, s := range r.Board {
		or |= len(s)
	}
	for i := range r.Boxes {
		b := &r.Boxes[i]
		or |= len(b.PlayerID) | len(b.Decision)
		for _, s := range b.Cards {
			or |= len(s)
		}
	}
	if d := r.Double; d != nil {
		for i := range d.Seats {
			s := &d.Seats[i]
			or |= len(s.PlayerID) | len(s.BonusCard)
			for _, c := range s.Cards {
				or |= len(c)
			}
		}
		for i := range d.Actions {
			or |= len(d.Actions[i].Street) | len(d.Actions[i].Kind)
		}
	}
	if or <= maxFieldBytes && (!checkUTF8 || freeTextsValid(r)) {
		return badValue{}
	}
	return badText(r)
}

// freeTextsValid reports whether r's free texts (ids, currency, profile,
// void reason, client seeds, wallet ids) are valid UTF-8.
func freeTextsValid(r *round.Round) bool {
	if !utf8.ValidString(r.RoundID) || !utf8.ValidString(r.TableID) || !utf8.ValidString(r.Currency) ||
		!utf8.ValidString(r.Profile) || !utf8.ValidString(r.VoidReason) {
		return false
	}
	for _, s := range r.Fairness.ClientSeeds {
		if !utf8.ValidString(s) {
			return false
		}
	}
	for _, s := range r.WalletIDs {
		if !utf8.ValidString(s) {
			return false
		}
	}
	for i := range r.Boxes {
		if !utf8.ValidString(r.Boxes[i].PlayerID) {
			return false
		}
	}
	if d := r.Double; d != nil {
		for i := range d.Seats {
			if !utf8.ValidString(d.Seats[i].PlayerID) {
				return false
			}
		}
	}
	return true
}

// badText finds the value checkSizes found too long or not UTF-8, the
// first in column order.
func badText(r *round.Round) badValue {
	var bad badValue
	check := func(column string, child int, s string) {
		switch {
		case !bad.ok():
		case len(s) > maxFieldBytes:
			bad = badValue{column: column, child: child,
				reason: fmt.Sprintf("a text of %d bytes; this reader takes texts of at most %d bytes", len(s), maxFieldBytes)}
		case !utf8.ValidString(s):
			bad = badValue{column: column, child: child, reason: notUTF8(s)}
		}
	}
	f := &r.Fairness
	for _, v := range [...]struct{ col, s string }{
		{"rounds.round_id", r.RoundID}, {"rounds.game", r.Game}, {"rounds.table_id", r.TableID},
		{"rounds.time", r.Time}, {"rounds.currency", r.Currency}, {"rounds.profile", r.Profile},
		{"rounds.profile_hash", r.ProfileHash}, {"rounds.scheme", f.Scheme}, {"rounds.commitment", f.Commitment},
		{"rounds.committed_at", f.CommittedAt}, {"rounds.server_seed", f.ServerSeed}, {"rounds.revealed_at", f.RevealedAt},
		{"rounds.beacon_chain", f.BeaconChain}, {"rounds.beacon_signature", f.BeaconSignature},
		{"rounds.beacon_previous_signature", f.BeaconPreviousSignature}, {"rounds.void_reason", r.VoidReason},
	} {
		check(v.col, -1, v.s)
	}
	for _, s := range f.ClientSeeds {
		check("rounds.client_seeds", -1, s)
	}
	for _, s := range r.WalletIDs {
		check("rounds.wallet_ids", -1, s)
	}
	for i, s := range r.Dealer {
		check("rounds."+dealerCols[min(i, len(dealerCols)-1)], -1, s)
	}
	for i, s := range r.Board {
		check("rounds."+boardCols[min(i, len(boardCols)-1)], -1, s)
	}
	for i := range r.Boxes {
		b := &r.Boxes[i]
		check("boxes.player_id", i, b.PlayerID)
		for k, s := range b.Cards {
			check("boxes."+cardCols[min(k, len(cardCols)-1)], i, s)
		}
		check("boxes.decision", i, b.Decision)
	}
	if d := r.Double; d != nil {
		for i := range d.Seats {
			s := &d.Seats[i]
			check("seats.player_id", i, s.PlayerID)
			for k, c := range s.Cards {
				check("seats."+cardCols[min(k, len(cardCols)-1)], i, c)
			}
			check("seats.bonus_card", i, s.BonusCard)
		}
		for i := range d.Actions {
			check("actions.street", i, d.Actions[i].Street)
			check("actions.kind", i, d.Actions[i].Kind)
		}
	}
	return bad
}

// clip shortens a damage reason that may quote the input (a decoder's
// message) to at most 256 bytes.
func clip(s string) string {
	const n = 256
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}

// notUTF8 says why text s, which is not valid UTF-8, is refused, quoting
// the first offending byte's offset.
func notUTF8(s string) string {
	at := 0
	for at < len(s) {
		r, n := utf8.DecodeRuneInString(s[at:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		at += n
	}
	return fmt.Sprintf("a text that is not valid UTF-8 (byte %d of %d, 0x%02x): text is never repaired (docs/log-format.md)", at, len(s), s[at])
}
