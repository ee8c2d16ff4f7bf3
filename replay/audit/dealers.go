package audit

import (
	"errors"
	"fmt"
	"time"

	"github.com/fairhold/fairhold/fairness/beacon"
	"github.com/fairhold/fairhold/fairness/scheme"
)

// SchemeDealers are the [Dealers] of the registered fairness schemes
// (package fairness/scheme) and drand chains (package fairness/beacon).
type SchemeDealers struct{}

// Prepare looks up the scheme and precomputes the server seed's key state.
func (SchemeDealers) Prepare(name string, serverSeed []byte) (Dealer, error) {
	s, err := scheme.Lookup(name)
	if err != nil {
		return nil, err
	}
	d, err := s.Prepare(serverSeed)
	if err != nil {
		return nil, err
	}
	return schemeDealer{d}, nil
}

// Beacon verifies the BLS signature of a drand round.
func (SchemeDealers) Beacon(name string, round uint64, sig, prev []byte) ([]byte, time.Time, error) {
	c, err := beacon.Lookup(name)
	if err != nil {
		return nil, time.Time{}, err
	}
	rnd, err := c.Verify(round, sig, prev)
	if err != nil {
		return nil, time.Time{}, err
	}
	return rnd[:], c.RoundTime(round), nil
}

type schemeDealer struct{ d scheme.Dealer }

func (s schemeDealer) Deal(dst []uint8, clientSeeds []string, nonce uint64, beacon []byte) error {
	out, err := s.d.Deal(dst[:0], clientSeeds, nonce, beacon, len(dst))
	if err != nil {
		return err
	}
	if len(out) != len(dst) {
		return fmt.Errorf("dealt %d cards, want %d", len(out), len(dst))
	}
	copy(dst, out)
	return nil
}

// Rekey prepares the dealer for another server seed of its scheme, when
// the scheme's dealer can be rekeyed.
func (s schemeDealer) Rekey(serverSeed []byte) error {
	r, ok := s.d.(Rekeyer)
	if !ok {
		return errors.New("the scheme's dealer cannot be rekeyed")
	}
	return r.Rekey(serverSeed)
}
