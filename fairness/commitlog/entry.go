// Package commitlog publishes seed commitments to an append-only
// transparency log and verifies them (docs/commitment-log.md, issue 26).
//
// The log is a C2SP tlog-tiles log written with transparency-dev/tessera
// (its POSIX driver, in a directory); checkpoints are C2SP tlog-checkpoint
// signed notes (golang.org/x/mod/sumdb/note, Ed25519), parsed with
// transparency-dev/formats; proofs are built from the tiles by tessera's
// client and checked with transparency-dev/merkle. This package contains no
// Merkle tree or note code of its own.
//
// An [Entry] binds one commitment to its use; its bytes ([Entry.Marshal])
// are a fixed text form with exactly one encoding per entry, and
// [Unmarshal] rejects every other.
package commitlog

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/transparency-dev/merkle/rfc6962"
)

// Header is the first line of every entry.
const Header = "fairhold-commitment/v1"

// MaxEntrySize bounds an entry's encoding in bytes; longer input is
// rejected before it is parsed.
const MaxEntrySize = 1024

// MaxIDLen bounds an operator, table or player id in bytes.
const MaxIDLen = 64

// Scheme names (docs/fairness.md).
const (
	SchemeFairholdV1  = "fairhold/v1"
	SchemeStakeCompat = "stake-compat"
)

// Beacon chain names (docs/fairness.md section 7).
const (
	BeaconQuicknet = "quicknet"
	BeaconDefault  = "default"
)

// Entry is one log entry: a commitment and what it is for. It holds nothing
// secret. Exactly one of Commitment (with FirstNonce) and ChainAnchor is set.
type Entry struct {
	Operator string // who deals
	Table    string // the table the seed or chain serves
	Player   string // RNG game: the player the seed serves; "" for a shared table
	Scheme   string // SchemeFairholdV1 or SchemeStakeCompat

	// Commitment is SHA-256 of one server seed (docs/fairness.md section 3),
	// used from nonce FirstNonce on.
	Commitment *[32]byte
	FirstNonce uint64

	// ChainAnchor is the anchor of a hash chain (docs/fairness.md section 6).
	ChainAnchor *[32]byte

	// BeaconChain and BeaconRound announce the drand chain and the first
	// round the seed's deals mix in; both empty/zero when none is announced.
	BeaconChain string
	BeaconRound uint64
}

// FieldError names the field of an entry that is wrong and why.
type FieldError struct {
	Line   int    // 1-based line of the encoding, 0 when not parsing
	Field  string // "operator", "commitment", ...
	Reason string
}

func (e *FieldError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("commitment log entry, line %d (%s): %s", e.Line, e.Field, e.Reason)
	}
	return fmt.Sprintf("commitment log entry, %s: %s", e.Field, e.Reason)
}

func fieldErr(line int, field, format string, a ...any) error {
	return &FieldError{Line: line, Field: field, Reason: fmt.Sprintf(format, a...)}
}

// validID reports why s is not an id: 1..MaxIDLen bytes, each a letter,
// digit or one of "-._:@/+".
func validID(s string) string {
	if s == "" {
		return "empty"
	}
	if len(s) > MaxIDLen {
		return fmt.Sprintf("%d bytes, at most %d", len(s), MaxIDLen)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._:@/+", c) >= 0:
		default:
			return fmt.Sprintf("byte %d is %q; want letters, digits and -._:@/+", i+1, c)
		}
	}
	return ""
}

// Validate checks the entry's fields (the checks of [Entry.Marshal]).
func (e *Entry) Validate() error {
	for _, f := range []struct{ name, v string }{{"operator", e.Operator}, {"table", e.Table}} {
		if why := validID(f.v); why != "" {
			return fieldErr(0, f.name, "%s", why)
		}
	}
	if e.Player != "" {
		if why := validID(e.Player); why != "" {
			return fieldErr(0, "player", "%s", why)
		}
	}
	if e.Scheme != SchemeFairholdV1 && e.Scheme != SchemeStakeCompat {
		return fieldErr(0, "scheme", "%q; want %q or %q", e.Scheme, SchemeFairholdV1, SchemeStakeCompat)
	}
	switch {
	case e.Commitment == nil && e.ChainAnchor == nil:
		return fieldErr(0, "commitment", "neither a commitment nor a chain anchor")
	case e.Commitment != nil && e.ChainAnchor != nil:
		return fieldErr(0, "chain-anchor", "both a commitment and a chain anchor; want one")
	case e.ChainAnchor != nil && e.FirstNonce != 0:
		return fieldErr(0, "first-nonce", "%d with a chain anchor; a chain's rounds use nonce 0 and have no first nonce", e.FirstNonce)
	}
	if (e.BeaconChain == "") != (e.BeaconRound == 0) {
		return fieldErr(0, "beacon", "chain %q round %d; want both or neither (rounds start at 1)", e.BeaconChain, e.BeaconRound)
	}
	if e.BeaconChain != "" && e.BeaconChain != BeaconQuicknet && e.BeaconChain != BeaconDefault {
		return fieldErr(0, "beacon", "chain %q; want %q or %q", e.BeaconChain, BeaconQuicknet, BeaconDefault)
	}
	if e.Scheme == SchemeStakeCompat && e.BeaconChain != "" {
		return fieldErr(0, "beacon", "stake-compat mixes in no beacon")
	}
	return nil
}

// Marshal returns the entry's canonical encoding (docs/commitment-log.md
// section 2): ASCII lines "name value" ending in LF, in a fixed order.
func (e *Entry) Marshal() ([]byte, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(Header + "\n")
	b.WriteString("operator " + e.Operator + "\n")
	b.WriteString("table " + e.Table + "\n")
	if e.Player != "" {
		b.WriteString("player " + e.Player + "\n")
	}
	b.WriteString("scheme " + e.Scheme + "\n")
	if e.Commitment != nil {
		b.WriteString("commitment " + hex.EncodeToString(e.Commitment[:]) + "\n")
		b.WriteString("first-nonce " + strconv.FormatUint(e.FirstNonce, 10) + "\n")
	} else {
		b.WriteString("chain-anchor " + hex.EncodeToString(e.ChainAnchor[:]) + "\n")
	}
	if e.BeaconChain != "" {
		b.WriteString("beacon " + e.BeaconChain + " " + strconv.FormatUint(e.BeaconRound, 10) + "\n")
	}
	return b.Bytes(), nil
}

// LeafHash returns the RFC 6962 leaf hash of encoded entry bytes,
// SHA-256(0x00 || entry).
func LeafHash(entry []byte) [32]byte {
	var h [32]byte
	copy(h[:], rfc6962.DefaultHasher.HashLeaf(entry))
	return h
}

// ErrNotCanonical is matched (errors.Is) by the error of [Unmarshal] for
// input that is not the canonical encoding of any entry.
var ErrNotCanonical = errors.New("not the canonical encoding of a commitment log entry")

// Unmarshal parses an entry's canonical encoding. Any other form (another
// order, a missing or repeated line, CR, spaces, upper-case hex, a leading
// zero, a missing final LF) is rejected with an error naming the line and
// field, matching [ErrNotCanonical]. Marshal(Unmarshal(b)) == b.
func Unmarshal(b []byte) (*Entry, error) {
	e, err := unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotCanonical, err)
	}
	return e, nil
}

func unmarshal(b []byte) (*Entry, error) {
	if len(b) > MaxEntrySize {
		return nil, fieldErr(0, "entry", "%d bytes, at most %d", len(b), MaxEntrySize)
	}
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return nil, fieldErr(0, "entry", "does not end with a line feed")
	}
	lines := strings.Split(string(b[:len(b)-1]), "\n")
	for i, l := range lines {
		for j := 0; j < len(l); j++ {
			if c := l[j]; c < 0x20 || c > 0x7e {
				return nil, fieldErr(i+1, "entry", "byte %d is %q; want printable ASCII", j+1, c)
			}
		}
	}
	if lines[0] != Header {
		return nil, fieldErr(1, "header", "%q; want %q", trunc(lines[0]), Header)
	}
	n := 1
	// next returns the value of line n when its name is name.
	next := func(name string, optional bool) (string, bool, error) {
		if n >= len(lines) {
			if optional {
				return "", false, nil
			}
			return "", false, fieldErr(n+1, name, "missing")
		}
		k, v, ok := strings.Cut(lines[n], " ")
		if !ok || k != name {
			if optional {
				return "", false, nil
			}
			return "", false, fieldErr(n+1, name, "%q; want a line %q", trunc(lines[n]), name+" ...")
		}
		n++
		return v, true, nil
	}
	e := &Entry{}
	var err error
	var ok bool
	id := func(name string, optional bool) (string, error) {
		v, present, err := next(name, optional)
		if err != nil || !present {
			return "", err
		}
		if why := validID(v); why != "" {
			return "", fieldErr(n, name, "%s", why)
		}
		return v, nil
	}
	if e.Operator, err = id("operator", false); err != nil {
		return nil, err
	}
	if e.Table, err = id("table", false); err != nil {
		return nil, err
	}
	if e.Player, err = id("player", true); err != nil {
		return nil, err
	}
	if e.Scheme, _, err = next("scheme", false); err != nil {
		return nil, err
	}
	if e.Scheme != SchemeFairholdV1 && e.Scheme != SchemeStakeCompat {
		return nil, fieldErr(n, "scheme", "%q; want %q or %q", trunc(e.Scheme), SchemeFairholdV1, SchemeStakeCompat)
	}
	var v string
	if v, ok, err = next("commitment", true); err != nil {
		return nil, err
	} else if ok {
		if e.Commitment, err = parseHash(n, "commitment", v); err != nil {
			return nil, err
		}
		if v, _, err = next("first-nonce", false); err != nil {
			return nil, err
		}
		if e.FirstNonce, err = parseDecimal(n, "first-nonce", v, false); err != nil {
			return nil, err
		}
	} else {
		if v, _, err = next("chain-anchor", false); err != nil {
			return nil, fieldErr(n+1, "commitment", "want a line \"commitment ...\" or \"chain-anchor ...\"")
		}
		if e.ChainAnchor, err = parseHash(n, "chain-anchor", v); err != nil {
			return nil, err
		}
	}
	if v, ok, err = next("beacon", true); err != nil {
		return nil, err
	} else if ok {
		c, r, found := strings.Cut(v, " ")
		if !found {
			return nil, fieldErr(n, "beacon", "%q; want \"CHAIN ROUND\"", trunc(v))
		}
		if c != BeaconQuicknet && c != BeaconDefault {
			return nil, fieldErr(n, "beacon", "chain %q; want %q or %q", trunc(c), BeaconQuicknet, BeaconDefault)
		}
		e.BeaconChain = c
		if e.BeaconRound, err = parseDecimal(n, "beacon", r, true); err != nil {
			return nil, err
		}
	}
	if n < len(lines) {
		return nil, fieldErr(n+1, "entry", "unexpected line %q after the last field", trunc(lines[n]))
	}
	if err := e.Validate(); err != nil {
		return nil, err
	}
	// Belt and braces: the one encoding is the one Marshal writes.
	if again, err := e.Marshal(); err != nil || !bytes.Equal(again, b) {
		return nil, fieldErr(0, "entry", "does not re-encode to the same bytes")
	}
	return e, nil
}

func parseHash(line int, field, v string) (*[32]byte, error) {
	if len(v) != 64 {
		return nil, fieldErr(line, field, "%d characters; want 64 lowercase hex digits", len(v))
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return nil, fieldErr(line, field, "character %d is %q; want lowercase hex", i+1, c)
		}
	}
	var h [32]byte
	if _, err := hex.Decode(h[:], []byte(v)); err != nil {
		return nil, fieldErr(line, field, "%v", err)
	}
	return &h, nil
}

// parseDecimal reads a canonical unsigned decimal: digits only, no leading
// zero, at most 2^64-1; zero is refused when positive.
func parseDecimal(line int, field, v string, positive bool) (uint64, error) {
	if v == "" {
		return 0, fieldErr(line, field, "empty; want a decimal number")
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, fieldErr(line, field, "%q; want decimal digits only", trunc(v))
		}
	}
	if len(v) > 1 && v[0] == '0' {
		return 0, fieldErr(line, field, "%q has a leading zero", trunc(v))
	}
	x, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fieldErr(line, field, "%q is above 18446744073709551615", trunc(v))
	}
	if positive && x == 0 {
		return 0, fieldErr(line, field, "0; want 1 or more")
	}
	return x, nil
}

func trunc(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
