package profile

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/money"
)

//go:embed builtin/*.json
var builtinFS embed.FS

// FieldError reports an invalid field of a profile.
type FieldError struct {
	Field  string // JSON path, e.g. "casino.ante_paytable.flush"; "" for the whole document
	Reason string // what was wrong and what was expected
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Reason
	}
	return e.Field + ": " + e.Reason
}

// LoadError reports a profile that could not be loaded; it names the file
// (or built-in) and wraps the cause, usually a [*FieldError].
type LoadError struct {
	Source string // the file name, or "built-in NAME"
	Err    error
}

func (e *LoadError) Error() string { return "profile " + e.Source + ": " + e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// ErrUnknownBuiltin is returned by [Builtin] for a name that is not built in.
var ErrUnknownBuiltin = errors.New("no such built-in profile")

// Names returns the names of the built-in profiles, sorted.
func Names() []string {
	ents, _ := builtinFS.ReadDir("builtin")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".json"))
	}
	sort.Strings(out)
	return out
}

// Builtin returns a fresh copy of the named built-in profile.
func Builtin(name string) (*Profile, error) {
	b, err := builtinFS.ReadFile("builtin/" + name + ".json")
	if err != nil {
		return nil, &LoadError{Source: fmt.Sprintf("%q", name), Err: fmt.Errorf("%w; built-in profiles are %s", ErrUnknownBuiltin, strings.Join(Names(), ", "))}
	}
	p, err := Parse(b)
	if err != nil {
		return nil, &LoadError{Source: "built-in " + name, Err: err}
	}
	return p, nil
}

// Load returns the built-in profile nameOrPath if there is one, and
// otherwise parses the JSON file at that path.
func Load(nameOrPath string) (*Profile, error) {
	for _, n := range Names() {
		if n == nameOrPath {
			return Builtin(n)
		}
	}
	b, err := os.ReadFile(nameOrPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && !strings.ContainsAny(nameOrPath, "/.") {
			return nil, &LoadError{Source: fmt.Sprintf("%q", nameOrPath), Err: fmt.Errorf("%w and no such file; built-in profiles are %s", ErrUnknownBuiltin, strings.Join(Names(), ", "))}
		}
		return nil, &LoadError{Source: nameOrPath, Err: err}
	}
	p, err := Parse(b)
	if err != nil {
		return nil, &LoadError{Source: nameOrPath, Err: err}
	}
	return p, nil
}

// Parse decodes and validates one profile document. Errors are
// [*FieldError]s naming the field.
func Parse(b []byte) (*Profile, error) {
	if err := checkFields(b, reflect.TypeOf(Profile{}), ""); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var p Profile
	if err := dec.Decode(&p); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, &FieldError{Field: te.Field, Reason: fmt.Sprintf("got a JSON %s, want %s", te.Value, jsonKind(te.Type))}
		}
		return nil, &FieldError{Reason: "malformed JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &FieldError{Reason: "trailing data after the profile object"}
	}
	// One canonical form for an absent, null or empty list.
	if p.Sources == nil {
		p.Sources = []string{}
	}
	if p.RTPClaims == nil {
		p.RTPClaims = []RTPClaim{}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Array, reflect.Map:
		return "an object"
	}
	return t.String()
}

var paytableType = reflect.TypeOf(Paytable{})

// checkFields walks the JSON document alongside the Go type and rejects
// unknown, duplicate and (for paytables) missing keys, naming their path.
func checkFields(raw []byte, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return nil
	}
	switch {
	case t == paytableType:
		keys, err := objectKeys(trimmed, path)
		if err != nil {
			return err
		}
		seen := map[hand.Category]bool{}
		for _, kv := range keys {
			c, ok := hand.ParseCategory(kv.key)
			if !ok {
				return &FieldError{Field: join(path, kv.key), Reason: "unknown hand category; want one of " + categoryList()}
			}
			seen[c] = true
		}
		for _, c := range hand.Categories() {
			if !seen[c] {
				return &FieldError{Field: join(path, c.String()), Reason: "missing; a paytable lists every category (0 for a losing one)"}
			}
		}
		return nil
	case t.Kind() == reflect.Struct:
		keys, err := objectKeys(trimmed, path)
		if err != nil {
			return err
		}
		fields := map[string]reflect.Type{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			fields[name] = f.Type
		}
		for _, kv := range keys {
			ft, ok := fields[kv.key]
			if !ok {
				return &FieldError{Field: join(path, kv.key), Reason: "unknown field"}
			}
			if err := checkFields(kv.val, ft, join(path, kv.key)); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Slice:
		var elems []json.RawMessage
		if err := json.Unmarshal(trimmed, &elems); err != nil {
			return nil // the typed decode reports it
		}
		for i, e := range elems {
			if err := checkFields(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

type keyVal struct {
	key string
	val json.RawMessage
}

// objectKeys returns the members of a JSON object in order, rejecting
// duplicate keys. A non-object is left to the typed decoder.
func objectKeys(raw []byte, path string) ([]keyVal, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, &FieldError{Field: path, Reason: "malformed JSON: " + err.Error()}
	}
	var out []keyVal
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, &FieldError{Field: path, Reason: "malformed JSON: " + err.Error()}
		}
		k, _ := tok.(string)
		if seen[k] {
			return nil, &FieldError{Field: join(path, k), Reason: "duplicate field"}
		}
		seen[k] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, &FieldError{Field: join(path, k), Reason: "malformed JSON: " + err.Error()}
		}
		out = append(out, keyVal{k, v})
	}
	return out, nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func categoryList() string {
	var s []string
	for _, c := range hand.Categories() {
		s = append(s, c.String())
	}
	return strings.Join(s, ", ")
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// Validate checks every setting; the first problem is returned as a
// [*FieldError].
func (p *Profile) Validate() error {
	fe := func(field, format string, args ...any) error {
		return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if !nameRE.MatchString(p.Name) {
		return fe("name", "%q: want 1-64 lower-case letters, digits and '-'", p.Name)
	}
	if p.Version < 1 {
		return fe("version", "%d: want an integer >= 1", p.Version)
	}
	switch p.Game {
	case GameCasinoHoldem, GameLiveCasinoHoldem:
		if p.Casino == nil {
			return fe("casino", "missing; game %q needs a casino section", p.Game)
		}
		if p.Double != nil {
			return fe("double", "not allowed for game %q", p.Game)
		}
		if err := p.Casino.validate("casino"); err != nil {
			return err
		}
	case GameDoubleHoldem:
		if p.Double == nil {
			return fe("double", "missing; game %q needs a double section", p.Game)
		}
		if p.Casino != nil {
			return fe("casino", "not allowed for game %q", p.Game)
		}
		if err := p.Double.validate("double"); err != nil {
			return err
		}
	default:
		return fe("game", "%q: want %q, %q or %q", p.Game, GameCasinoHoldem, GameLiveCasinoHoldem, GameDoubleHoldem)
	}
	names := map[string]bool{}
	for i, c := range p.RTPClaims {
		f := fmt.Sprintf("rtp_claims[%d]", i)
		if err := c.validate(f); err != nil {
			return err
		}
		if names[c.Name] {
			return fe(f+".name", "%q appears twice", c.Name)
		}
		if err := c.validateAnte(f, p.Casino); err != nil {
			return err
		}
		names[c.Name] = true
	}
	return nil
}

func (c *Casino) validate(path string) error {
	fe := func(field, format string, args ...any) error {
		return &FieldError{Field: join(path, field), Reason: fmt.Sprintf(format, args...)}
	}
	if c.Boxes < 1 || c.Boxes > 6 {
		return fe("boxes", "%d: want 1 to 6", c.Boxes)
	}
	if c.CallMultiple < 1 || c.CallMultiple > 100 {
		return fe("call_multiple", "%d: want 1 to 100", c.CallMultiple)
	}
	if err := c.DealerQualifier.validate(join(path, "dealer_qualifier")); err != nil {
		return err
	}
	if err := c.AntePaytable.validate(join(path, "ante_paytable")); err != nil {
		return err
	}
	if err := c.AnteMinHand.validate(join(path, "ante_min_hand")); err != nil {
		return err
	}
	minCat, _ := hand.ParseCategory(c.AnteMinHand.Category)
	if c.AntePaytable[minCat] < 1 {
		return fe("ante_paytable."+minCat.String(), "%d: the ante_min_hand category must pay at least 1", c.AntePaytable[minCat])
	}
	if c.AnteBelowMinHandPays < 0 || c.AnteBelowMinHandPays > c.AntePaytable[minCat] {
		return fe("ante_below_min_hand_pays", "%d: want 0 to %d (what %s pays)", c.AnteBelowMinHandPays, c.AntePaytable[minCat], minCat)
	}
	switch c.MaxPayoutScope {
	case PayoutCapWinnings, PayoutCapTotal:
	default:
		return fe("max_payout_scope", "%q: want %q or %q", c.MaxPayoutScope, PayoutCapWinnings, PayoutCapTotal)
	}
	l := c.Limits
	if l.AnteMin < 1 {
		return fe("limits.ante_min", "%d: want a positive amount", l.AnteMin)
	}
	if l.AnteMax < l.AnteMin {
		return fe("limits.ante_max", "%d: want at least ante_min (%d)", l.AnteMax, l.AnteMin)
	}
	if l.MaxPayoutPerBox < 0 {
		return fe("limits.max_payout_per_box", "%d: want 0 (no cap) or a positive amount", l.MaxPayoutPerBox)
	}
	// The largest possible ANTE + CALL return must fit in an int64.
	if _, err := maxMainReturn(c); err != nil {
		return fe("limits.ante_max", "%d: the largest return overflows: %v", l.AnteMax, err)
	}
	switch c.AutoAdjust {
	case AdjustReduceToMax, AdjustReject:
	default:
		return fe("auto_adjust", "%q: want %q or %q", c.AutoAdjust, AdjustReduceToMax, AdjustReject)
	}
	switch c.UnfinishedRound {
	case UnfinishedFold, UnfinishedCall, UnfinishedVoid:
	default:
		return fe("unfinished_round", "%q: want %q, %q or %q", c.UnfinishedRound, UnfinishedFold, UnfinishedCall, UnfinishedVoid)
	}
	if b := c.Bonus; b != nil {
		bp := join(path, "aa_bonus")
		if err := b.Paytable.validate(join(bp, "paytable")); err != nil {
			return err
		}
		if err := b.MinHand.validate(join(bp, "min_hand")); err != nil {
			return err
		}
		mc, _ := hand.ParseCategory(b.MinHand.Category)
		if b.Paytable[mc] < 1 {
			return fe("aa_bonus.paytable."+mc.String(), "%d: the min_hand category must pay at least 1", b.Paytable[mc])
		}
		for cat := hand.HighCard; cat < mc; cat++ {
			if b.Paytable[cat] != 0 {
				return fe("aa_bonus.paytable."+cat.String(), "%d: below min_hand (%s); want 0", b.Paytable[cat], b.MinHand)
			}
		}
		if b.Min < 1 {
			return fe("aa_bonus.min", "%d: want a positive amount", b.Min)
		}
		if b.Max < b.Min {
			return fe("aa_bonus.max", "%d: want at least min (%d)", b.Max, b.Min)
		}
		if _, err := money.Mul(b.Max, b.Paytable[hand.RoyalFlush]+1); err != nil {
			return fe("aa_bonus.max", "%d: the largest return overflows", b.Max)
		}
	}
	// The largest total return of a round, every box at its limits, must
	// fit too: it bounds every sum of stakes and returns of one round.
	if _, err := maxRoundReturn(c); err != nil {
		return fe("limits.ante_max", "%d: the largest return of a round of %d boxes overflows: %v", l.AnteMax, c.Boxes, err)
	}
	return nil
}

// maxMainReturn is the largest ANTE + CALL return of one box: ANTE paid at
// the top of the paytable and CALL paid 1:1.
func maxMainReturn(c *Casino) (int64, error) {
	ante, err := money.Mul(c.Limits.AnteMax, c.AntePaytable[hand.RoyalFlush]+1)
	if err != nil {
		return 0, err
	}
	call, err := money.Mul(c.Limits.AnteMax, 2*c.CallMultiple)
	if err != nil {
		return 0, err
	}
	return money.Add(ante, call)
}

// maxRoundReturn is the largest total return of a round: every box's
// largest ANTE + CALL and AA Bonus returns. Stakes are at most returns
// (every paying line pays at least 1:1), so it bounds the stakes too.
func maxRoundReturn(c *Casino) (int64, error) {
	box, err := maxMainReturn(c)
	if err != nil {
		return 0, err
	}
	if b := c.Bonus; b != nil {
		bonus, err := money.Mul(b.Max, b.Paytable[hand.RoyalFlush]+1)
		if err != nil {
			return 0, err
		}
		if box, err = money.Add(box, bonus); err != nil {
			return 0, err
		}
	}
	return money.Mul(box, int64(c.Boxes))
}

func (pt *Paytable) validate(path string) error {
	var prev int64
	for c := hand.HighCard; c <= hand.RoyalFlush; c++ {
		v := pt[c]
		if v < 0 || v > 1_000_000 {
			return &FieldError{Field: join(path, c.String()), Reason: fmt.Sprintf("%d: want 0 to 1000000 (X of X:1)", v)}
		}
		if v < prev {
			return &FieldError{Field: join(path, c.String()), Reason: fmt.Sprintf("%d: not monotone; pays less than %s (%d)", v, (c - 1).String(), prev)}
		}
		prev = v
	}
	return nil
}

func (t Threshold) validate(path string) error {
	c, ok := hand.ParseCategory(t.Category)
	if !ok {
		return &FieldError{Field: join(path, "category"), Reason: fmt.Sprintf("%q is not a hand category; want one of %s", t.Category, categoryList())}
	}
	if t.Pair != "" {
		if c != hand.OnePair {
			return &FieldError{Field: join(path, "pair"), Reason: fmt.Sprintf("only allowed with category \"one-pair\", not %q", t.Category)}
		}
		if r, ok := card.ParseRank(t.Pair); !ok || r.String() != t.Pair {
			return &FieldError{Field: join(path, "pair"), Reason: fmt.Sprintf("%q: want a rank 2-9, T, J, Q, K or A", t.Pair)}
		}
	}
	return nil
}

func (d *Double) validate(path string) error {
	fe := func(field, format string, args ...any) error {
		return &FieldError{Field: join(path, field), Reason: fmt.Sprintf(format, args...)}
	}
	if d.SeatsMin < 2 {
		return fe("seats_min", "%d: want at least 2", d.SeatsMin)
	}
	if d.SeatsMax < d.SeatsMin || d.SeatsMax > 10 {
		return fe("seats_max", "%d: want seats_min (%d) to 10", d.SeatsMax, d.SeatsMin)
	}
	switch d.Structure {
	case NoLimit, PotLimit, FixedLimit:
	default:
		return fe("structure", "%q: want %q, %q or %q", d.Structure, NoLimit, PotLimit, FixedLimit)
	}
	if d.SmallBlind < 1 {
		return fe("small_blind", "%d: want a positive amount", d.SmallBlind)
	}
	if d.BigBlind < d.SmallBlind {
		return fe("big_blind", "%d: want at least small_blind (%d)", d.BigBlind, d.SmallBlind)
	}
	if d.BigBlind > 1<<50 {
		return fe("big_blind", "%d: too large", d.BigBlind)
	}
	if d.Structure == FixedLimit {
		f := d.FixedLimit
		if f.SmallBet < 1 {
			return fe("fixed_limit.small_bet", "%d: want a positive amount", f.SmallBet)
		}
		if f.BigBet < f.SmallBet {
			return fe("fixed_limit.big_bet", "%d: want at least small_bet (%d)", f.BigBet, f.SmallBet)
		}
		if f.MaxBets < 1 || f.MaxBets > 100 {
			return fe("fixed_limit.max_bets", "%d: want 1 to 100", f.MaxBets)
		}
	} else if d.FixedLimit != (FixedLimitBets{}) {
		return fe("fixed_limit", "set, but structure is %q; want all zero", d.Structure)
	}
	if d.Rake.RateBP < 0 || d.Rake.RateBP > 10000 {
		return fe("rake.rate_bp", "%d: want 0 to 10000 basis points", d.Rake.RateBP)
	}
	if d.Rake.Cap < 0 {
		return fe("rake.cap", "%d: want 0 (no cap) or a positive amount", d.Rake.Cap)
	}
	if d.ActionOrder != "clockwise" {
		return fe("action_order", "%q: want \"clockwise\"", d.ActionOrder)
	}
	switch d.AutoBonusTie {
	case "suited-with-third", "suit-order":
	default:
		return fe("auto_bonus_tie", "%q: want \"suited-with-third\" or \"suit-order\"", d.AutoBonusTie)
	}
	if len(d.SuitOrder) != 4 || !strings.ContainsRune(d.SuitOrder, 's') || !strings.ContainsRune(d.SuitOrder, 'h') ||
		!strings.ContainsRune(d.SuitOrder, 'd') || !strings.ContainsRune(d.SuitOrder, 'c') {
		return fe("suit_order", "%q: want the four letters s, h, d, c, highest first", d.SuitOrder)
	}
	if d.SidePots != "standard" {
		return fe("side_pots", "%q: want \"standard\"", d.SidePots)
	}
	if d.OddChip != "first-left-of-button" {
		return fe("odd_chip", "%q: want \"first-left-of-button\"", d.OddChip)
	}
	return nil
}

var percentRE = regexp.MustCompile(`^[0-9]{1,3}(\.[0-9]+)?$`)

func (c *RTPClaim) validate(path string) error {
	fe := func(field, format string, args ...any) error {
		return &FieldError{Field: join(path, field), Reason: fmt.Sprintf(format, args...)}
	}
	if !nameRE.MatchString(c.Name) {
		return fe("name", "%q: want lower-case letters, digits and '-'", c.Name)
	}
	switch c.Bet {
	case "main", "aa-bonus":
	default:
		return fe("bet", "%q: want \"main\" or \"aa-bonus\"", c.Bet)
	}
	switch c.Strategy {
	case "optimal", "basic", "side-bet-optimal":
	default:
		return fe("strategy", "%q: want \"optimal\", \"basic\" or \"side-bet-optimal\"", c.Strategy)
	}
	if !percentRE.MatchString(c.Percent) {
		return fe("percent", "%q: want a decimal number such as \"99.18\"", c.Percent)
	}
	dec := 0
	if _, frac, ok := strings.Cut(c.Percent, "."); ok {
		dec = len(frac)
	}
	if c.Decimals != dec {
		return fe("decimals", "%d: percent %q has %d decimal places", c.Decimals, c.Percent, dec)
	}
	switch c.Denominator {
	case "ante+call", "ante", "aa-bonus":
	default:
		return fe("denominator", "%q: want \"ante+call\", \"ante\" or \"aa-bonus\"", c.Denominator)
	}
	return nil
}

// validateAnte checks the claim's at_ante against the stakes the table
// allows.
func (c *RTPClaim) validateAnte(path string, cs *Casino) error {
	field := join(path, "at_ante")
	switch {
	case c.AtAnte == 0:
		return nil
	case cs == nil:
		return &FieldError{Field: field, Reason: fmt.Sprintf("%d: only a Casino Hold'em claim is stated at an ante", c.AtAnte)}
	case c.AtAnte < cs.Limits.AnteMin || c.AtAnte > cs.Limits.AnteMax:
		return &FieldError{Field: field, Reason: fmt.Sprintf("%d: want an ante the profile allows, %d to %d (casino.limits)",
			c.AtAnte, cs.Limits.AnteMin, cs.Limits.AnteMax)}
	}
	return nil
}

// SuitRank returns the position of suit s in the profile's suit order, 3
// for the highest suit and 0 for the lowest.
func (d *Double) SuitRank(s card.Suit) int {
	i := strings.IndexByte(d.SuitOrder, s.String()[0])
	if i < 0 {
		return -1
	}
	return 3 - i
}
