// Package receipt issues and reads player receipts and reconciles them
// with a round log (docs/receipts.md, issue 26).
//
// A [Receipt] is what one player was shown of one round: the round, its
// table and number, the fairness fields (commitment, its index in the
// commitment log, nonce, the player's client seed), the cards the player
// saw, their stakes and returns and the balance after. Its body is a
// fixed text form with exactly one encoding per receipt ([Receipt.Marshal],
// [Unmarshal] rejects every other), signed by the operator as a C2SP
// signed note (golang.org/x/mod/sumdb/note, Ed25519; [Sign], [Open]).
//
// [Reconcile] compares a player's receipts with a round log and reports
// every contradiction as a finding (package finding).
package receipt

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/round"
)

// Header is the first line of every receipt body.
const Header = "fairhold-receipt/v1"

// Limits of the encoding (docs/receipts.md section 2).
const (
	MaxBodySize    = 8192 // bytes of a receipt body
	MaxIDLen       = 256  // bytes of an id (round, table, player, wallet)
	MaxSeedLen     = 256  // bytes of a client seed (docs/fairness.md section 4)
	MaxBoxes       = 6    // boxes of one player in one round
	maxCurrencyLen = 10
)

// Receipt is one player's receipt for one round.
type Receipt struct {
	Operator   string `json:"operator"` // the operator's key name (the note's signer name)
	Round      string `json:"round"`    // round_id
	Game       string `json:"game"`     // round.CasinoHoldem, round.LiveCasinoHoldem or round.DoubleHoldem
	Table      string `json:"table"`
	TableSeq   uint64 `json:"table-seq,omitempty,string"` // 0: the round has no table_seq
	Time       string `json:"time"`                       // RFC 3339 UTC, the log's form
	Player     string `json:"player"`
	Wallet     string `json:"wallet,omitempty"` // "": the round names no wallets
	Currency   string `json:"currency"`
	Scheme     string `json:"scheme"`
	Commitment string `json:"commitment"` // 64 lowercase hex digits
	// CommitmentIndex is the commitment's index in the commitment log
	// (docs/commitment-log.md); nil when not given.
	CommitmentIndex *uint64  `json:"commitment-index,omitempty,string"`
	ChainIndex      uint64   `json:"chain-index,omitempty,string"` // 0: not a hash chain
	Nonce           uint64   `json:"nonce,string"`
	Void            bool     `json:"void,omitempty"`
	Dealer          []string `json:"dealer,omitempty"` // Casino Hold'em games: the dealer's 2 cards
	Board           []string `json:"board"`            // the board as far as it was dealt

	Boxes []Box `json:"boxes,omitempty"` // Casino Hold'em games: the player's boxes, in box order
	Seat  *Seat `json:"seat,omitempty"`  // Double Hold'em: the player's seat

	Stakes        int64 `json:"stakes,string"`  // everything the player staked in the round
	Returns       int64 `json:"returns,string"` // everything the round returned to the player
	BalanceBefore int64 `json:"balance-before,string"`
	BalanceAfter  int64 `json:"balance-after,string"`
}

// Box is one of the player's boxes at a Casino Hold'em table.
type Box struct {
	Box         int      `json:"box"`
	ClientSeed  string   `json:"client-seed"` // the box's client seed (UTF-8 text)
	Cards       []string `json:"cards"`
	Ante        int64    `json:"ante,string"`
	Bonus       int64    `json:"bonus,string"`
	Decision    string   `json:"decision"` // "call", "fold" or "" (unfinished)
	Call        int64    `json:"call,string"`
	AnteReturn  int64    `json:"ante-return,string"`
	CallReturn  int64    `json:"call-return,string"`
	BonusReturn int64    `json:"bonus-return,string"`
}

// Seat is the player's seat at a Double Hold'em table.
type Seat struct {
	Seat       int      `json:"seat"`
	ClientSeed string   `json:"client-seed"`
	Cards      []string `json:"cards"`
	BonusCard  string   `json:"bonus-card,omitempty"` // "" when the player did not see the flop
}

// ClientSeed is the player's client seed in the round: that of their
// first box or their seat.
func (r *Receipt) ClientSeed() string {
	if r.Seat != nil {
		return r.Seat.ClientSeed
	}
	if len(r.Boxes) > 0 {
		return r.Boxes[0].ClientSeed
	}
	return ""
}

// Net is returns - stakes, or false when it overflows.
func (r *Receipt) Net() (int64, bool) {
	n := r.Returns - r.Stakes
	if (r.Stakes > 0 && n > r.Returns) || (r.Stakes < 0 && n < r.Returns) {
		return 0, false
	}
	return n, true
}

// FieldError names the line and field of a receipt body that is wrong.
type FieldError struct {
	Line   int // 1-based line of the body; 0 when not parsing
	Field  string
	Reason string
}

func (e *FieldError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("receipt, line %d (%s): %s", e.Line, e.Field, e.Reason)
	}
	return fmt.Sprintf("receipt, %s: %s", e.Field, e.Reason)
}

func fieldErr(line int, field, format string, a ...any) error {
	return &FieldError{Line: line, Field: field, Reason: fmt.Sprintf(format, a...)}
}

// ErrNotCanonical is matched (errors.Is) by the error of [Unmarshal] for
// input that is not the canonical encoding of a receipt.
var ErrNotCanonical = errors.New("not the canonical encoding of a receipt")

// validID reports why s is not an id: 1..MaxIDLen bytes of printable ASCII
// other than space (0x21..0x7E).
func validID(s string) string {
	if s == "" {
		return "empty"
	}
	if len(s) > MaxIDLen {
		return fmt.Sprintf("%d bytes, at most %d", len(s), MaxIDLen)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c > 0x7e {
			return fmt.Sprintf("byte %d is %q; want printable ASCII without space", i+1, c)
		}
	}
	return ""
}

func validCurrency(s string) string {
	if len(s) < 2 || len(s) > maxCurrencyLen {
		return fmt.Sprintf("%q: want 2 to %d characters", trunc(s), maxCurrencyLen)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return fmt.Sprintf("%q: want A-Z and 0-9, starting with a letter", trunc(s))
		}
	}
	return ""
}

func validSeed(s string) string {
	if s == "" || len(s) > MaxSeedLen {
		return fmt.Sprintf("%d bytes; want 1..%d", len(s), MaxSeedLen)
	}
	if !utf8.ValidString(s) {
		return "not valid UTF-8"
	}
	return ""
}

func validTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || !strings.HasSuffix(s, "Z") || t.UTC().Format(time.RFC3339Nano) != s || t.Nanosecond()%1000 != 0 {
		return fmt.Sprintf("%q; want RFC 3339 in UTC ending in Z, with the shortest fraction of at most 6 digits", trunc(s))
	}
	return ""
}

func validCards(cs []string, min, max int) string {
	if len(cs) < min || len(cs) > max {
		return fmt.Sprintf("%d cards; want %d to %d", len(cs), min, max)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		p, err := card.Parse(c)
		if err != nil || p.String() != c {
			return fmt.Sprintf("%q is not a card in canonical form (\"As\", \"Td\")", trunc(c))
		}
		if seen[c] {
			return fmt.Sprintf("%s twice", c)
		}
		seen[c] = true
	}
	return ""
}

func validHash(s string) string {
	if len(s) != 64 {
		return fmt.Sprintf("%d characters; want 64 lowercase hex digits", len(s))
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return fmt.Sprintf("character %d is %q; want lowercase hex", i+1, c)
		}
	}
	return ""
}

// Validate checks the receipt's fields (the checks of [Receipt.Marshal]).
func (r *Receipt) Validate() error {
	ids := []struct{ name, v string }{{"round", r.Round}, {"table", r.Table}, {"player", r.Player}}
	for _, f := range ids {
		if why := validID(f.v); why != "" {
			return fieldErr(0, f.name, "%s", why)
		}
	}
	if why := validOperator(r.Operator); why != "" {
		return fieldErr(0, "operator", "%s", why)
	}
	if r.Wallet != "" {
		if why := validID(r.Wallet); why != "" {
			return fieldErr(0, "wallet", "%s", why)
		}
	}
	switch r.Game {
	case round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem:
	default:
		return fieldErr(0, "game", "%q; want casino-holdem, live-casino-holdem or double-holdem", trunc(r.Game))
	}
	if why := validTime(r.Time); why != "" {
		return fieldErr(0, "time", "%s", why)
	}
	if why := validCurrency(r.Currency); why != "" {
		return fieldErr(0, "currency", "%s", why)
	}
	if r.Scheme != "fairhold/v1" && r.Scheme != "stake-compat" {
		return fieldErr(0, "scheme", "%q; want fairhold/v1 or stake-compat", trunc(r.Scheme))
	}
	if why := validHash(r.Commitment); why != "" {
		return fieldErr(0, "commitment", "%s", why)
	}
	casinoGame := r.Game != round.DoubleHoldem
	if casinoGame {
		if why := validCards(r.Dealer, 2, 2); why != "" {
			return fieldErr(0, "dealer", "%s", why)
		}
		if why := validCards(r.Board, 5, 5); why != "" {
			return fieldErr(0, "board", "%s", why)
		}
		if r.Seat != nil {
			return fieldErr(0, "seat", "a seat at a Casino Hold'em table; want boxes")
		}
		if len(r.Boxes) == 0 || len(r.Boxes) > MaxBoxes {
			return fieldErr(0, "box", "%d boxes; want 1 to %d", len(r.Boxes), MaxBoxes)
		}
		for i, b := range r.Boxes {
			if b.Box < 1 || b.Box > MaxBoxes || i > 0 && b.Box <= r.Boxes[i-1].Box {
				return fieldErr(0, "box", "box %d; want 1..%d in increasing order", b.Box, MaxBoxes)
			}
			if why := validSeed(b.ClientSeed); why != "" {
				return fieldErr(0, "client-seed", "box %d: %s", b.Box, why)
			}
			if why := validCards(b.Cards, 2, 2); why != "" {
				return fieldErr(0, "cards", "box %d: %s", b.Box, why)
			}
			if b.Decision != "call" && b.Decision != "fold" && b.Decision != "" {
				return fieldErr(0, "decision", "box %d: %q; want call, fold or unfinished", b.Box, trunc(b.Decision))
			}
			for _, a := range []struct {
				name string
				v    int64
			}{{"ante", b.Ante}, {"bonus", b.Bonus}, {"call", b.Call}, {"ante-return", b.AnteReturn}, {"call-return", b.CallReturn}, {"bonus-return", b.BonusReturn}} {
				if a.v < 0 {
					return fieldErr(0, a.name, "box %d: %d; want 0 or more", b.Box, a.v)
				}
			}
		}
	} else {
		if r.Dealer != nil {
			return fieldErr(0, "dealer", "dealer cards at Double Hold'em")
		}
		if len(r.Board) != 0 && len(r.Board) != 3 && len(r.Board) != 4 && len(r.Board) != 5 {
			return fieldErr(0, "board", "%d cards; want 0, 3, 4 or 5", len(r.Board))
		}
		if why := validCards(r.Board, 0, 5); why != "" {
			return fieldErr(0, "board", "%s", why)
		}
		if len(r.Boxes) != 0 {
			return fieldErr(0, "box", "boxes at Double Hold'em; want a seat")
		}
		s := r.Seat
		if s == nil {
			return fieldErr(0, "seat", "missing")
		}
		if s.Seat < 1 || s.Seat > 10 {
			return fieldErr(0, "seat", "%d; want 1..10", s.Seat)
		}
		if why := validSeed(s.ClientSeed); why != "" {
			return fieldErr(0, "client-seed", "%s", why)
		}
		if why := validCards(s.Cards, 3, 3); why != "" {
			return fieldErr(0, "cards", "%s", why)
		}
		if s.BonusCard != "" {
			if why := validCards([]string{s.BonusCard}, 1, 1); why != "" {
				return fieldErr(0, "bonus-card", "%s", why)
			}
		}
	}
	for _, a := range []struct {
		name string
		v    int64
	}{{"stakes", r.Stakes}, {"returns", r.Returns}, {"balance-before", r.BalanceBefore}, {"balance-after", r.BalanceAfter}} {
		if a.v < 0 {
			return fieldErr(0, a.name, "%d; want 0 or more", a.v)
		}
	}
	return nil
}

// validOperator: the operator's key name, as docs/commitment-log.md
// section 4 has a log's origin: 1..255 bytes of printable ASCII without
// space or '+'.
func validOperator(s string) string {
	if s == "" || len(s) > 255 {
		return fmt.Sprintf("%d bytes; want 1..255", len(s))
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= 0x20 || c >= 0x7f || c == '+' {
			return fmt.Sprintf("byte %d is %q; want printable ASCII without space or '+'", i+1, c)
		}
	}
	return ""
}

func cardsText(cs []string) string {
	if len(cs) == 0 {
		return "-"
	}
	return strings.Join(cs, " ")
}

func decisionText(d string) string {
	if d == "" {
		return "-"
	}
	return d
}

// Marshal returns the receipt body's canonical encoding
// (docs/receipts.md section 2).
func (r *Receipt) Marshal() ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	line := func(name, v string) { b.WriteString(name + " " + v + "\n") }
	num := func(name string, v uint64) { line(name, strconv.FormatUint(v, 10)) }
	amt := func(name string, v int64) { line(name, strconv.FormatInt(v, 10)) }
	b.WriteString(Header + "\n")
	line("operator", r.Operator)
	line("round", r.Round)
	line("game", r.Game)
	line("table", r.Table)
	if r.TableSeq != 0 {
		num("table-seq", r.TableSeq)
	}
	line("time", r.Time)
	line("player", r.Player)
	if r.Wallet != "" {
		line("wallet", r.Wallet)
	}
	line("currency", r.Currency)
	line("scheme", r.Scheme)
	line("commitment", r.Commitment)
	if r.CommitmentIndex != nil {
		num("commitment-index", *r.CommitmentIndex)
	}
	if r.ChainIndex != 0 {
		num("chain-index", r.ChainIndex)
	}
	num("nonce", r.Nonce)
	if r.Void {
		line("void", "true")
	}
	if r.Game != round.DoubleHoldem {
		line("dealer", cardsText(r.Dealer))
	}
	line("board", cardsText(r.Board))
	for _, x := range r.Boxes {
		num("box", uint64(x.Box))
		line("client-seed", hex.EncodeToString([]byte(x.ClientSeed)))
		line("cards", cardsText(x.Cards))
		amt("ante", x.Ante)
		amt("bonus", x.Bonus)
		line("decision", decisionText(x.Decision))
		amt("call", x.Call)
		amt("ante-return", x.AnteReturn)
		amt("call-return", x.CallReturn)
		amt("bonus-return", x.BonusReturn)
	}
	if s := r.Seat; s != nil {
		num("seat", uint64(s.Seat))
		line("client-seed", hex.EncodeToString([]byte(s.ClientSeed)))
		line("cards", cardsText(s.Cards))
		if s.BonusCard != "" {
			line("bonus-card", s.BonusCard)
		}
	}
	amt("stakes", r.Stakes)
	amt("returns", r.Returns)
	amt("balance-before", r.BalanceBefore)
	amt("balance-after", r.BalanceAfter)
	if b.Len() > MaxBodySize {
		return nil, fieldErr(0, "receipt", "%d bytes, at most %d", b.Len(), MaxBodySize)
	}
	return b.Bytes(), nil
}

// Unmarshal parses a receipt body's canonical encoding. Any other byte
// string (another order, a missing, repeated or unknown line, CR, two
// spaces, a leading zero, upper-case hex, a missing final LF) is rejected
// with an error naming the line and field, matching [ErrNotCanonical].
// Marshal(Unmarshal(b)) == b.
func Unmarshal(b []byte) (*Receipt, error) {
	r, err := unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotCanonical, err)
	}
	return r, nil
}

// parser walks the lines of a body.
type parser struct {
	lines []string
	n     int // index of the next line
}

// next returns the value of the next line when its name is name; a
// missing optional line returns ok false.
func (p *parser) next(name string, optional bool) (string, bool, error) {
	if p.n >= len(p.lines) {
		if optional {
			return "", false, nil
		}
		return "", false, fieldErr(p.n+1, name, "missing")
	}
	k, v, found := strings.Cut(p.lines[p.n], " ")
	if !found || k != name {
		if optional {
			return "", false, nil
		}
		return "", false, fieldErr(p.n+1, name, "%q; want a line %q", trunc(p.lines[p.n]), name+" ...")
	}
	p.n++
	return v, true, nil
}

func (p *parser) text(name string) (string, error) {
	v, _, err := p.next(name, false)
	return v, err
}

func (p *parser) decimal(name string, optional bool) (uint64, bool, error) {
	v, ok, err := p.next(name, optional)
	if err != nil || !ok {
		return 0, ok, err
	}
	x, err := parseDecimal(p.n, name, v)
	return x, true, err
}

func (p *parser) amount(name string) (int64, error) {
	x, _, err := p.decimal(name, false)
	if err != nil {
		return 0, err
	}
	if x > 1<<63-1 {
		return 0, fieldErr(p.n, name, "%d is above 9223372036854775807", x)
	}
	return int64(x), nil
}

func (p *parser) cards(name string) ([]string, error) {
	v, err := p.text(name)
	if err != nil {
		return nil, err
	}
	if v == "-" {
		return []string{}, nil
	}
	return strings.Split(v, " "), nil
}

func (p *parser) seed() (string, error) {
	v, err := p.text("client-seed")
	if err != nil {
		return "", err
	}
	if len(v)%2 != 0 {
		return "", fieldErr(p.n, "client-seed", "%d hex digits; want an even number", len(v))
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", fieldErr(p.n, "client-seed", "character %d is %q; want lowercase hex", i+1, c)
		}
	}
	s, err := hex.DecodeString(v)
	if err != nil {
		return "", fieldErr(p.n, "client-seed", "%v", err)
	}
	return string(s), nil
}

func unmarshal(b []byte) (*Receipt, error) {
	if len(b) > MaxBodySize {
		return nil, fieldErr(0, "receipt", "%d bytes, at most %d", len(b), MaxBodySize)
	}
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return nil, fieldErr(0, "receipt", "does not end with a line feed")
	}
	p := &parser{lines: strings.Split(string(b[:len(b)-1]), "\n")}
	for i, l := range p.lines {
		for j := 0; j < len(l); j++ {
			if c := l[j]; c < 0x20 || c > 0x7e {
				return nil, fieldErr(i+1, "receipt", "byte %d is %q; want printable ASCII", j+1, c)
			}
		}
	}
	if p.lines[0] != Header {
		return nil, fieldErr(1, "header", "%q; want %q", trunc(p.lines[0]), Header)
	}
	p.n = 1
	r := &Receipt{}
	var err error
	if r.Operator, err = p.text("operator"); err != nil {
		return nil, err
	}
	if r.Round, err = p.text("round"); err != nil {
		return nil, err
	}
	if r.Game, err = p.text("game"); err != nil {
		return nil, err
	}
	if r.Table, err = p.text("table"); err != nil {
		return nil, err
	}
	if r.TableSeq, _, err = p.decimal("table-seq", true); err != nil {
		return nil, err
	}
	if r.Time, err = p.text("time"); err != nil {
		return nil, err
	}
	if r.Player, err = p.text("player"); err != nil {
		return nil, err
	}
	if v, ok, err := p.next("wallet", true); err != nil {
		return nil, err
	} else if ok {
		r.Wallet = v
		if v == "" {
			return nil, fieldErr(p.n, "wallet", "empty")
		}
	}
	if r.Currency, err = p.text("currency"); err != nil {
		return nil, err
	}
	if r.Scheme, err = p.text("scheme"); err != nil {
		return nil, err
	}
	if r.Commitment, err = p.text("commitment"); err != nil {
		return nil, err
	}
	if x, ok, err := p.decimal("commitment-index", true); err != nil {
		return nil, err
	} else if ok {
		r.CommitmentIndex = &x
	}
	if r.ChainIndex, _, err = p.decimal("chain-index", true); err != nil {
		return nil, err
	}
	if r.Nonce, _, err = p.decimal("nonce", false); err != nil {
		return nil, err
	}
	if v, ok, err := p.next("void", true); err != nil {
		return nil, err
	} else if ok {
		if v != "true" {
			return nil, fieldErr(p.n, "void", "%q; want true (the line is absent for a round not voided)", trunc(v))
		}
		r.Void = true
	}
	if r.Game != round.DoubleHoldem {
		if r.Dealer, err = p.cards("dealer"); err != nil {
			return nil, err
		}
	}
	if r.Board, err = p.cards("board"); err != nil {
		return nil, err
	}
	for {
		v, ok, err := p.next("box", true)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		x, err := parseDecimal(p.n, "box", v)
		if err != nil {
			return nil, err
		}
		if x > MaxBoxes {
			return nil, fieldErr(p.n, "box", "%d; want 1..%d", x, MaxBoxes)
		}
		bx := Box{Box: int(x)}
		if bx.ClientSeed, err = p.seed(); err != nil {
			return nil, err
		}
		if bx.Cards, err = p.cards("cards"); err != nil {
			return nil, err
		}
		if bx.Ante, err = p.amount("ante"); err != nil {
			return nil, err
		}
		if bx.Bonus, err = p.amount("bonus"); err != nil {
			return nil, err
		}
		if bx.Decision, err = p.text("decision"); err != nil {
			return nil, err
		}
		if bx.Decision == "-" {
			bx.Decision = ""
		} else if bx.Decision == "" {
			return nil, fieldErr(p.n, "decision", "empty; an unfinished round's decision is written -")
		}
		if bx.Call, err = p.amount("call"); err != nil {
			return nil, err
		}
		if bx.AnteReturn, err = p.amount("ante-return"); err != nil {
			return nil, err
		}
		if bx.CallReturn, err = p.amount("call-return"); err != nil {
			return nil, err
		}
		if bx.BonusReturn, err = p.amount("bonus-return"); err != nil {
			return nil, err
		}
		r.Boxes = append(r.Boxes, bx)
		if len(r.Boxes) > MaxBoxes {
			return nil, fieldErr(p.n, "box", "more than %d boxes", MaxBoxes)
		}
	}
	if v, ok, err := p.next("seat", true); err != nil {
		return nil, err
	} else if ok {
		x, err := parseDecimal(p.n, "seat", v)
		if err != nil {
			return nil, err
		}
		if x > 10 {
			return nil, fieldErr(p.n, "seat", "%d; want 1..10", x)
		}
		s := &Seat{Seat: int(x)}
		if s.ClientSeed, err = p.seed(); err != nil {
			return nil, err
		}
		if s.Cards, err = p.cards("cards"); err != nil {
			return nil, err
		}
		if v, ok, err := p.next("bonus-card", true); err != nil {
			return nil, err
		} else if ok {
			s.BonusCard = v
		}
		r.Seat = s
	}
	if r.Stakes, err = p.amount("stakes"); err != nil {
		return nil, err
	}
	if r.Returns, err = p.amount("returns"); err != nil {
		return nil, err
	}
	if r.BalanceBefore, err = p.amount("balance-before"); err != nil {
		return nil, err
	}
	if r.BalanceAfter, err = p.amount("balance-after"); err != nil {
		return nil, err
	}
	if p.n < len(p.lines) {
		return nil, fieldErr(p.n+1, "receipt", "unexpected line %q after the last field", trunc(p.lines[p.n]))
	}
	if r.Game == round.DoubleHoldem && r.Dealer != nil {
		return nil, fieldErr(0, "dealer", "dealer cards at Double Hold'em")
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	// The one encoding is the one Marshal writes.
	if again, err := r.Marshal(); err != nil || !bytes.Equal(again, b) {
		return nil, fieldErr(0, "receipt", "does not re-encode to the same bytes")
	}
	return r, nil
}

// parseDecimal reads a canonical unsigned decimal: digits only, no leading
// zero, at most 2^64-1.
func parseDecimal(line int, field, v string) (uint64, error) {
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
	return x, nil
}

func trunc(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
