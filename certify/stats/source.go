package stats

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/shuffle"
	"github.com/fairhold/fairhold/fairness/stream"
)

// NoncesPerSeed is the number of rounds (nonces) [SchemeSource] deals from
// each server seed before it derives a fresh one, as an operator deals many
// rounds per committed seed.
const NoncesPerSeed = 1024

// Client seeds of the rounds [SchemeSource] deals, one per purpose so that
// the streams of full decks, small decks and NIST sequences are distinct.
const (
	clientDeck  = "fairhold-stats/deck"
	clientSmall = "fairhold-stats/small"
	clientNIST  = "fairhold-stats/nist"
)

// SchemeSource deals the decks of a registered scheme from server seeds
// derived from Seed: deck i is the round with nonce i mod [NoncesPerSeed]
// of server seed i / NoncesPerSeed, where server seed k is
// SHA-256("fairhold/stats/server-seed" || uint64be(Seed) || purpose ||
// uint64be(k)). The seeds are public test seeds, never a casino's.
type SchemeSource struct {
	Scheme scheme.Scheme
	Seed   uint64
}

// serverSeed derives server seed k for a purpose (the client seed string).
func serverSeed(seed uint64, purpose string, k uint64) [32]byte {
	h := sha256.New()
	h.Write([]byte("fairhold/stats/server-seed"))
	h.Write(binary.BigEndian.AppendUint64(nil, seed))
	h.Write([]byte(purpose))
	h.Write(binary.BigEndian.AppendUint64(nil, k))
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// NewDealer returns a dealer for one worker.
func (s SchemeSource) NewDealer() (Dealer, error) {
	if s.Scheme == nil {
		return nil, fmt.Errorf("stats: no scheme")
	}
	return &schemeDealer{src: s, k: ^uint64(0), smallK: ^uint64(0)}, nil
}

type schemeDealer struct {
	src    SchemeSource
	k      uint64 // server seed index of dealer
	dealer scheme.Dealer
	fp     uint64 // fingerprint of the current server seed
	buf    []uint8
	client []string

	smallK   uint64 // server seed index and deck size of smallKey
	smallN   int
	smallKey *stream.Key
	prefix   []byte
	st       stream.Stream
}

func (d *schemeDealer) Deck(i uint64, out *[DeckSize]uint8) (uint64, error) {
	k, nonce := i/NoncesPerSeed, i%NoncesPerSeed
	if k != d.k {
		seed := serverSeed(d.src.Seed, clientDeck, k)
		dl, err := d.src.Scheme.Prepare(seed[:])
		if err != nil {
			return 0, err
		}
		d.dealer, d.k = dl, k
		d.fp = binary.LittleEndian.Uint64(seed[:])
		d.client = []string{clientDeck}
	}
	var err error
	d.buf, err = d.dealer.Deal(d.buf[:0], d.client, nonce, nil, DeckSize)
	if err != nil {
		return 0, err
	}
	if len(d.buf) != DeckSize {
		return 0, fmt.Errorf("scheme dealt %d cards, want %d", len(d.buf), DeckSize)
	}
	copy(out[:], d.buf)
	return mix(d.fp ^ mix(nonce)), nil
}

// Small shuffles n cards with fairhold/v1's stream and Fisher–Yates (the
// production path of package shuffle with a deck of n cards); other
// schemes have no small-deck path.
func (d *schemeDealer) Small(i uint64, out []uint8) error {
	if d.src.Scheme.Name() != scheme.FairholdV1Name {
		return fmt.Errorf("%w: %s", ErrNoSmall, d.src.Scheme.Name())
	}
	k, nonce := i/NoncesPerSeed, i%NoncesPerSeed
	if k != d.smallK || len(out) != d.smallN {
		seed := serverSeed(d.src.Seed, clientSmall+fmt.Sprint(len(out)), k)
		d.smallKey, d.smallK, d.smallN = stream.NewKey(seed[:]), k, len(out)
	}
	var err error
	d.prefix, err = scheme.FairholdV1Prefix(d.prefix[:0], []string{clientSmall}, nonce, nil)
	if err != nil {
		return err
	}
	d.smallKey.Reset(&d.st, d.prefix)
	_, err = shuffle.Deal(out[:0], &d.st, len(out), len(out))
	return err
}

// StreamSequence fills buf with the fairhold/v1 byte stream (package
// stream) of NIST sequence i: the round with nonce 0 and client seed
// "fairhold-stats/nist" of a server seed derived from seed and i as for
// [SchemeSource]. It is the generator of the raw-stream battery.
func StreamSequence(seed uint64, i int, buf []byte) error {
	ss := serverSeed(seed, clientNIST, uint64(i))
	prefix, err := scheme.FairholdV1Prefix(nil, []string{clientNIST}, 0, nil)
	if err != nil {
		return err
	}
	_, err = stream.NewKey(ss[:]).Stream(prefix).Read(buf)
	return err
}
