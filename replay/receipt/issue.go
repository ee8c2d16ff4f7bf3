package receipt

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/round"
)

// IssueRound signs the receipt of every player of r (docs/receipts.md
// section 4), in box (seat) order. index, if not nil, gives the commitment
// log index of a commitment (ok false: none).
func IssueRound(r *round.Round, s *Signer, index func(commitment string) (uint64, bool)) (players []string, notes [][]byte, err error) {
	for _, p := range Players(r) {
		rc, err := FromRound(r, p, s.Name())
		if err != nil {
			return nil, nil, err
		}
		if index != nil {
			if i, ok := index(rc.Commitment); ok {
				rc.CommitmentIndex = &i
			}
		}
		n, err := s.Sign(rc)
		if err != nil {
			return nil, nil, fmt.Errorf("round %s, player %q: %w", r.RoundID, trunc(p), err)
		}
		players = append(players, rc.Player)
		notes = append(notes, n)
	}
	return players, notes, nil
}

// CommitmentIndexes reads every entry of the commitment log at loc (a
// directory or an http(s) URL; docs/commitment-log.md) under the
// checkpoint signed by pub (origin "" takes the checkpoint's), and returns
// the index of each commitment and chain anchor (hex), its first entry
// when it was appended twice.
func CommitmentIndexes(ctx context.Context, loc, origin string, pub ed25519.PublicKey) (map[string]uint64, error) {
	lr, err := commitlog.Open(loc, nil)
	if err != nil {
		return nil, err
	}
	cp, err := lr.Checkpoint(ctx, origin, pub)
	if err != nil {
		return nil, err
	}
	out := map[string]uint64{}
	for i := uint64(0); i < cp.Size; i++ {
		b, err := lr.Entry(ctx, cp, i)
		if err != nil {
			return nil, fmt.Errorf("commitment log entry %d: %w", i, err)
		}
		e, err := commitlog.Unmarshal(b)
		if err != nil {
			return nil, fmt.Errorf("commitment log entry %d: %w", i, err)
		}
		h := e.Commitment
		if h == nil {
			h = e.ChainAnchor
		}
		k := hex.EncodeToString(h[:])
		if _, ok := out[k]; !ok {
			out[k] = i
		}
	}
	return out, nil
}
