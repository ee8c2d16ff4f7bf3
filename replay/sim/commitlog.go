package sim

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/rfc6962"
	"golang.org/x/mod/sumdb/note"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// LogConfig makes the simulator publish the commitments of the sessions it
// deals to a commitment log (docs/commitment-log.md), with a simulated
// witness's cosigned checkpoints as the evidence of when each entry was
// public (evidence/ in the log's directory).
//
// The honest operator publishes, before each window of Window rounds, the
// commitments of the sessions (chains) whose first round falls in the
// window, in the order of their first rounds; the witness cosigns the
// log's checkpoint one second before the window's first round. The log
// faults (commitment-published-late, commitment-from-pool,
// commitment-misbound, commitment-unlogged, log-split-view) change that.
type LogConfig struct {
	Dir      string             // the log's directory (created)
	Origin   string             // the log's origin; "" is DefaultLogOrigin
	Key      ed25519.PrivateKey // the log's key; nil: one derived from the simulation's seed
	Operator string             // the entries' operator; "" is DefaultOperator
	// WitnessName names the simulated witness ("" is DefaultWitnessName);
	// its key is derived from the simulation's seed.
	WitnessName string
	// Window is the rounds per publication window; 0 is 100 with a log
	// fault, otherwise 100 or a thousandth of the rounds, whichever is
	// more (a thousand timed checkpoints at most).
	Window int64
	// KeptCheckpoint, if not "", is where to write a checkpoint of the log
	// as an auditor kept it half-way (at half of the entries): with the
	// log-split-view fault, a checkpoint of a log the operator rewrote
	// since.
	KeptCheckpoint string
}

// Defaults of a simulated commitment log.
const (
	DefaultLogOrigin   = "sim.fairhold.example/commitments"
	DefaultOperator    = "sim-operator"
	DefaultWitnessName = "witness.sim.fairhold.example"
)

// Log fault names.
const (
	FaultCommitmentPublishedLate = "commitment-published-late"
	FaultCommitmentFromPool      = "commitment-from-pool"
	FaultCommitmentMisbound      = "commitment-misbound"
	FaultCommitmentUnlogged      = "commitment-unlogged"
	FaultLogSplitView            = "log-split-view"
)

// LogResult is what [Simulator.WriteCommitLog] wrote.
type LogResult struct {
	Dir    string
	Origin string
	// Public is the log's public key; WitnessKey the witness's C2SP
	// verifier key (cosignature/v1: name+hash+base64(0x04||key)).
	Public     ed25519.PublicKey
	WitnessKey string
	Entries    int
	// Timed is the number of timed checkpoints (evidence/index).
	Timed int
	// KeptCheckpoint is the file of the kept checkpoint, "" for none.
	KeptCheckpoint string
	// Injections are the log faults applied: the session's first round
	// and the finding the replay must raise (log-split-view: with the
	// table, no round).
	Injections []Injection
}

// logSession is a session as its first logged round shows it.
type logSession struct {
	key     [32]byte
	chain   bool
	table   string
	player  string
	scheme  string
	beacon  string
	bround  uint64
	nonce   uint64
	index   int64 // the first round's place among the rounds logged, from 0
	roundID string
	fault   string
}

// logBuilder collects the sessions from the rounds the simulator returns.
type logBuilder struct {
	cfg      LogConfig
	seen     map[[32]byte]bool
	sessions []logSession
	logged   int64
	windows  []time.Time // the first round's time of each window
	faults   []*activeFault
}

// observe notes r, a round returned by Next.
func (b *logBuilder) observe(r *round.Round) error {
	at, err := time.Parse(time.RFC3339Nano, r.Time)
	if err != nil {
		return err
	}
	if b.logged%b.cfg.Window == 0 {
		b.windows = append(b.windows, at)
	}
	defer func() { b.logged++ }()
	var key [32]byte
	if _, err := hex.Decode(key[:], []byte(r.Fairness.Commitment)); err != nil || len(r.Fairness.Commitment) != 64 {
		return nil
	}
	if b.seen[key] {
		return nil
	}
	b.seen[key] = true
	s := logSession{key: key, chain: r.Fairness.ChainIndex > 0, table: r.TableID, scheme: r.Fairness.Scheme,
		beacon: r.Fairness.BeaconChain, bround: r.Fairness.BeaconRound, nonce: r.Fairness.Nonce, index: b.logged, roundID: r.RoundID}
	if r.Game == round.CasinoHoldem && len(r.Boxes) == 1 {
		s.player = r.Boxes[0].PlayerID
	}
	b.sessions = append(b.sessions, s)
	return nil
}

func (s *logSession) entry(operator string) commitlog.Entry {
	k := s.key
	e := commitlog.Entry{Operator: operator, Table: s.table, Player: s.player, Scheme: s.scheme, BeaconChain: s.beacon, BeaconRound: s.bround}
	if s.chain {
		e.ChainAnchor = &k
	} else {
		e.Commitment, e.FirstNonce = &k, s.nonce
	}
	return e
}

// misboundStream reports whether commitment-misbound binds the session's
// entry to another stream (another table or player) rather than another
// first nonce of its own stream.
func misboundStream(s *logSession) bool { return s.chain || s.player != "" }

// seedKey derives a simulated key from the simulation's seed.
func seedKey(label string, seed uint64) ed25519.PrivateKey {
	h := sha256.Sum256([]byte("fairhold simulated " + label + " key " + strconv.FormatUint(seed, 10)))
	return ed25519.NewKeyFromSeed(h[:])
}

// WriteCommitLog writes the commitment log of the sessions dealt so far
// (call it once every round is played) and returns what it wrote.
func (s *Simulator) WriteCommitLog(ctx context.Context) (*LogResult, error) {
	b := s.clog
	if b == nil {
		return nil, errors.New("sim: no commitment log configured")
	}
	cfg := b.cfg
	key := cfg.Key
	if key == nil {
		key = seedKey("commitment log", s.cfg.Seed)
	}
	wkey := seedKey("witness", s.cfg.Seed)
	rng := rand.New(rand.NewPCG(s.cfg.Seed^0x636f6d6d69746c6f, 0x6c6f67))
	res := &LogResult{Dir: cfg.Dir, Origin: cfg.Origin, Public: key.Public().(ed25519.PublicKey)}
	wit := &cosigner{name: cfg.WitnessName, key: wkey}
	res.WitnessKey = wit.verifierKey()

	// The log faults, per session (log-split-view: once for the log).
	split := false
	inStream := map[[2]string]bool{} // streams with an entry a session used
	for i := range b.sessions {
		ss := &b.sessions[i]
		sk := [2]string{ss.table, ss.player}
		for _, f := range b.faults {
			if f.Name == FaultLogSplitView {
				split = true
				continue
			}
			if ss.fault != "" || rng.Float64() >= f.rate {
				continue
			}
			if f.Name == FaultCommitmentFromPool && !inStream[sk] {
				continue // a pool shows from the stream's second entry on
			}
			ss.fault = f.Name
			res.Injections = append(res.Injections, Injection{RoundID: ss.roundID, Fault: f.Name, Code: f.Code})
		}
		switch {
		case ss.fault == FaultCommitmentUnlogged:
		case ss.fault == FaultCommitmentMisbound && misboundStream(ss):
			// Its entry is another stream's.
		default:
			inStream[sk] = true
		}
	}
	// The entries in publication order: by window, then first round.
	type pub struct {
		window int64
		order  int64
		raw    []byte
	}
	var pubs []pub
	for i := range b.sessions {
		ss := &b.sessions[i]
		w := ss.index / cfg.Window
		e := ss.entry(cfg.Operator)
		switch ss.fault {
		case FaultCommitmentUnlogged:
			continue
		case FaultCommitmentPublishedLate:
			w++
		case FaultCommitmentMisbound:
			switch {
			case ss.chain:
				e.Table = ss.table + "-2"
			case ss.player != "":
				e.Player = ss.player + "-2"
			default:
				e.FirstNonce = ss.nonce + 1
			}
		case FaultCommitmentFromPool:
			// One more commitment published for the stream just before
			// the session's: the session skips it.
			var k [32]byte
			for j := range k {
				k[j] = byte(rng.Uint32())
			}
			d := e
			if d.ChainAnchor != nil {
				d.ChainAnchor = &k
			} else {
				d.Commitment = &k
			}
			raw, err := d.Marshal()
			if err != nil {
				return nil, err
			}
			pubs = append(pubs, pub{w, 2 * ss.index, raw})
		}
		raw, err := e.Marshal()
		if err != nil {
			return nil, fmt.Errorf("sim: commitment log entry of round %s: %w", ss.roundID, err)
		}
		pubs = append(pubs, pub{w, 2*ss.index + 1, raw})
	}
	slices.SortStableFunc(pubs, func(a, b pub) int {
		if a.window != b.window {
			return int(a.window - b.window)
		}
		return int(a.order - b.order)
	})
	if len(pubs) == 0 {
		return nil, errors.New("sim: no session to publish")
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, err
	}
	entries := make([][]byte, len(pubs))
	for i := range pubs {
		entries[i] = pubs[i].raw
	}
	// The kept checkpoint: the log at half its entries, before a rewrite
	// (log-split-view: the kept log's first entry differed).
	half := uint64(max(1, len(entries)/2))
	if cfg.KeptCheckpoint != "" || split {
		kept := entries[:half]
		if split {
			// The kept log's first entry named another operator id: the
			// operator rewrote it since.
			kept = slices.Clone(kept)
			e, err := commitlog.Unmarshal(entries[0])
			if err != nil {
				return nil, err
			}
			e.Operator += "-old"
			if kept[0], err = e.Marshal(); err != nil {
				return nil, err
			}
			table := b.sessions[0].table
			res.Injections = append(res.Injections, Injection{RoundID: b.sessions[0].roundID, Fault: FaultLogSplitView, Code: finding.CommitmentLogSplitView, Table: table})
		}
		n, err := signCheckpoint(cfg.Origin, key, nil, half, rootOf(kept, half))
		if err != nil {
			return nil, err
		}
		path := cfg.KeptCheckpoint
		if path == "" {
			path = cfg.Dir + ".kept-checkpoint"
		}
		if err := os.WriteFile(path, n, 0o644); err != nil {
			return nil, err
		}
		res.KeptCheckpoint = path
	}
	if _, err := commitlog.Append(ctx, cfg.Dir, cfg.Origin, key, entries); err != nil {
		return nil, err
	}
	res.Entries = len(entries)
	// The witness cosigns the checkpoint at the end of each window's
	// publication, one second before the window's first round (after the
	// last round for entries published after it).
	rf := compact.RangeFactory{Hash: rfc6962.DefaultHasher.HashChildren}
	cr := rf.NewEmptyRange(0)
	for i := 0; i < len(pubs); {
		w := pubs[i].window
		for i < len(pubs) && pubs[i].window == w {
			h := commitlog.LeafHash(entries[i])
			if err := cr.Append(h[:], nil); err != nil {
				return nil, err
			}
			i++
		}
		root, err := cr.GetRootHash(nil)
		if err != nil {
			return nil, err
		}
		at := time.Time{}
		if int(w) < len(b.windows) {
			at = b.windows[w].Add(-time.Second)
		} else {
			at = b.windows[len(b.windows)-1].Add(time.Duration(cfg.Window+1) * s.step)
		}
		wit.at = at
		n, err := signCheckpoint(cfg.Origin, key, wit, cr.End(), root)
		if err != nil {
			return nil, err
		}
		if err := commitlog.WriteEvidence(cfg.Dir, n, nil); err != nil {
			return nil, err
		}
		res.Timed++
	}
	return res, nil
}

// rootOf returns the root of the tree of the first n entries.
func rootOf(entries [][]byte, n uint64) []byte {
	rf := compact.RangeFactory{Hash: rfc6962.DefaultHasher.HashChildren}
	cr := rf.NewEmptyRange(0)
	for _, e := range entries[:n] {
		h := commitlog.LeafHash(e)
		if err := cr.Append(h[:], nil); err != nil {
			panic(err) // appending to a range from 0 cannot fail
		}
	}
	root, err := cr.GetRootHash(nil)
	if err != nil {
		panic(err)
	}
	return root
}

// signCheckpoint returns the signed checkpoint note of a tree, cosigned by
// w when not nil.
func signCheckpoint(origin string, key ed25519.PrivateKey, w *cosigner, size uint64, root []byte) ([]byte, error) {
	ls, err := commitlog.NewSigner(origin, key)
	if err != nil {
		return nil, err
	}
	text := fmt.Sprintf("%s\n%d\n%s\n", origin, size, base64.StdEncoding.EncodeToString(root))
	signers := []note.Signer{ls}
	if w != nil {
		signers = append(signers, w)
	}
	return note.Sign(&note.Note{Text: text}, signers...)
}

// cosigner is a simulated witness: a C2SP tlog-cosignature (cosignature/v1,
// Ed25519) note signer that signs at a simulated time rather than the
// clock's, as formats/note's NewSignerForCosignatureV1 does.
type cosigner struct {
	name string
	key  ed25519.PrivateKey
	at   time.Time
}

const algCosignatureV1 = 0x04

func (c *cosigner) pubKey() []byte {
	return append([]byte{algCosignatureV1}, c.key.Public().(ed25519.PublicKey)...)
}

func (c *cosigner) Name() string { return c.name }

// KeyHash is the first four bytes of SHA-256(name || LF || 0x04 || key).
func (c *cosigner) KeyHash() uint32 {
	h := sha256.New()
	h.Write([]byte(c.name + "\n"))
	h.Write(c.pubKey())
	return binary.BigEndian.Uint32(h.Sum(nil))
}

// Sign signs "cosignature/v1\ntime T\n" || the note's text; the signature
// is T (8 bytes, big-endian) || the Ed25519 signature.
func (c *cosigner) Sign(msg []byte) ([]byte, error) {
	t := uint64(c.at.Unix())
	m := fmt.Appendf(nil, "cosignature/v1\ntime %d\n%s", t, msg)
	sig := binary.BigEndian.AppendUint64(nil, t)
	return append(sig, ed25519.Sign(c.key, m)...), nil
}

func (c *cosigner) verifierKey() string {
	return fmt.Sprintf("%s+%08x+%s", c.name, c.KeyHash(), base64.StdEncoding.EncodeToString(c.pubKey()))
}
