// Package chain implements hash chains of server seeds (docs/fairness.md,
// "Hash chains").
//
// A table that deals many rounds may commit once to a chain of N server
// seeds and reveal one link per round, so that each round can be verified as
// soon as it ends. The chain is built backwards from a random seed:
//
//	link[N]   = 32 random bytes
//	link[i-1] = SHA-256(link[i])     for i = N .. 1
//	anchor    = link[0]
//
// The anchor is published (it is the commitment to the whole chain). Round i
// (1-based) uses link[i] as its server seed and reveals it when it ends. A
// revealed link is checked by hashing it forward until it reaches the anchor
// or the last link already verified: SHA-256(link[i]) = link[i-1].
//
// A single seed with its commitment is the chain of length 1: the anchor
// SHA-256(seed) is the seed's commitment (package seed).
//
// Start with [New], [Verify] and [VerifyAt]; [Marshal] and [Parse] read and
// write the chain file that `fairhold seed new --chain N` writes.
package chain

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fairhold/fairhold/fairness/seed"
)

// MaxLength bounds the length of a chain built by [New] or read by [Parse].
const MaxLength = 10_000_000

// Chain is a hash chain: Links[0] is the anchor (public), Links[i] for
// i >= 1 is the server seed of round i (secret until revealed).
type Chain struct {
	Links []seed.Seed
}

// Errors returned by [Verify], [VerifyAt] and [Parse].
var (
	// ErrNotInChain means the link does not reach the anchor within the
	// allowed number of steps.
	ErrNotInChain = errors.New("link does not hash to the anchor")
	// ErrLength means a chain length is out of range.
	ErrLength = errors.New("chain length out of range")
	// ErrFormat means a chain file is malformed.
	ErrFormat = errors.New("malformed chain file")
)

// New builds a chain of n links after the anchor, from a fresh random seed.
func New(n int) (Chain, error) {
	if n < 1 || n > MaxLength {
		return Chain{}, fmt.Errorf("%w: %d, want 1..%d", ErrLength, n, MaxLength)
	}
	last, err := seed.New()
	if err != nil {
		return Chain{}, err
	}
	return FromLast(last, n), nil
}

// FromLast builds the chain of n links whose last link is last. It is
// deterministic; [New] calls it with a random seed.
func FromLast(last seed.Seed, n int) Chain {
	links := make([]seed.Seed, n+1)
	links[n] = last
	for i := n; i > 0; i-- {
		links[i-1] = Step(links[i])
	}
	return Chain{Links: links}
}

// Step returns the link before l: SHA-256(l).
func Step(l seed.Seed) seed.Seed { return seed.Seed(sha256.Sum256(l[:])) }

// Anchor returns the chain's public anchor, Links[0].
func (c Chain) Anchor() seed.Seed { return c.Links[0] }

// Len returns the number of rounds the chain can deal (links after the
// anchor).
func (c Chain) Len() int { return len(c.Links) - 1 }

// Verify hashes link forward at most maxSteps times and reports after how
// many steps (1..maxSteps) it equals anchor. anchor is either the chain's
// published anchor or the last link already verified. The comparisons take
// constant time. It returns [ErrNotInChain] when the anchor is not reached.
func Verify(link, anchor seed.Seed, maxSteps int) (int, error) {
	h := link
	for i := 1; i <= maxSteps; i++ {
		h = Step(h)
		if subtle.ConstantTimeCompare(h[:], anchor[:]) == 1 {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%w within %d steps", ErrNotInChain, maxSteps)
}

// VerifyAt reports whether link is exactly steps hashes before anchor
// (steps >= 1): SHA-256^steps(link) = anchor. steps is bounded by
// [MaxLength].
func VerifyAt(link, anchor seed.Seed, steps uint64) error {
	if steps < 1 || steps > MaxLength {
		return fmt.Errorf("%w: %d steps, want 1..%d", ErrLength, steps, MaxLength)
	}
	h := link
	for i := uint64(0); i < steps; i++ {
		h = Step(h)
	}
	if subtle.ConstantTimeCompare(h[:], anchor[:]) != 1 {
		return fmt.Errorf("%w in exactly %d steps", ErrNotInChain, steps)
	}
	return nil
}

// fileHeader is the first line of a chain file.
const fileHeader = "fairhold-chain/v1"

// Marshal writes the chain file: the line "fairhold-chain/v1", then one
// line per link, Links[0] (the anchor) first, each 64 lowercase hex digits,
// every line ending in "\n". The file holds secrets (the links after the
// anchor) and should be written with mode 0600.
func (c Chain) Marshal() []byte {
	var b bytes.Buffer
	b.Grow(len(fileHeader) + 1 + 65*len(c.Links))
	b.WriteString(fileHeader + "\n")
	for _, l := range c.Links {
		b.WriteString(l.Hex())
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Parse reads a chain file written by [Chain.Marshal]. It accepts exactly
// that form (lowercase hex, "\n" line ends, no blank lines) and checks that
// every link hashes to the one before it, so parse then marshal reproduces
// the input byte for byte. Errors name the line and never contain a link's
// digits.
func Parse(r io.Reader) (Chain, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 128), 128)
	sc.Split(scanLinesStrict)
	line := 0
	var links []seed.Seed
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			if text != fileHeader {
				return Chain{}, fmt.Errorf("%w: line 1: want %q", ErrFormat, fileHeader)
			}
			continue
		}
		if len(links) > MaxLength {
			return Chain{}, fmt.Errorf("%w: line %d: more than %d links", ErrLength, line, MaxLength)
		}
		if strings.ToLower(text) != text {
			return Chain{}, fmt.Errorf("%w: line %d: want lowercase hex", ErrFormat, line)
		}
		l, err := seed.Parse(text)
		if err != nil {
			return Chain{}, fmt.Errorf("%w: line %d: %w", ErrFormat, line, err)
		}
		if n := len(links); n > 0 {
			if h := Step(l); subtle.ConstantTimeCompare(h[:], links[n-1][:]) != 1 {
				return Chain{}, fmt.Errorf("%w: line %d: link %d does not hash to link %d", ErrNotInChain, line, n, n-1)
			}
		}
		links = append(links, l)
	}
	if err := sc.Err(); err != nil {
		return Chain{}, fmt.Errorf("%w: line %d: %w", ErrFormat, line+1, err)
	}
	if line == 0 {
		return Chain{}, fmt.Errorf("%w: empty file", ErrFormat)
	}
	if len(links) < 2 {
		return Chain{}, fmt.Errorf("%w: %d links after the anchor, want at least 1", ErrLength, max(len(links)-1, 0))
	}
	return Chain{Links: links}, nil
}

var errNoNewline = errors.New("last line does not end in a newline")

// scanLinesStrict splits on "\n" and rejects a final line without one and
// any "\r".
func scanLinesStrict(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		if bytes.IndexByte(data[:i], '\r') >= 0 {
			return 0, nil, errors.New("carriage return in line")
		}
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return 0, nil, errNoNewline
	}
	return 0, nil, nil
}
