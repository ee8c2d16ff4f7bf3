package strategy

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

// Limits on a strategy's text.
const (
	// MaxSize is the largest strategy text Parse accepts, in bytes.
	MaxSize = 1 << 20
	// MaxRules is the largest number of rules.
	MaxRules = 20_000
	// MaxTerms is the largest number of conditions in one rule.
	MaxTerms = 64
)

// ParseError is a strategy text that does not follow the grammar. Rule is
// the 1-based number of the rule (statement) the error is in, 0 when it is
// about the whole text; Line and Column (1-based, in characters) locate
// Token, the offending word ("" at the end of the text or of a rule).
type ParseError struct {
	Rule   int
	Line   int
	Column int
	Token  string
	// Want says what was expected there.
	Want string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("strategy: ")
	if e.Rule > 0 {
		fmt.Fprintf(&b, "rule %d ", e.Rule)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "(line %d, column %d)", e.Line, e.Column)
	}
	if e.Token != "" {
		fmt.Fprintf(&b, ": %q", e.Token)
	} else if e.Line > 0 {
		b.WriteString(": end of rule")
	}
	b.WriteString(": want ")
	b.WriteString(e.Want)
	return b.String()
}

// token is one word of the text.
type token struct {
	text      string
	line, col int
}

// statementsOf splits the text into statements (separated by ';' or a
// line break) of words; comments run from '#' to the end of the line.
func statementsOf(text string) ([][]token, *ParseError) {
	var out [][]token
	var cur []token
	line, col := 1, 0
	var word strings.Builder
	wordLine, wordCol := 0, 0
	flushWord := func() {
		if word.Len() > 0 {
			cur = append(cur, token{text: word.String(), line: wordLine, col: wordCol})
			word.Reset()
		}
	}
	endStatement := func() {
		flushWord()
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	comment := false
	for i, r := range text {
		col++
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(text[i:]); size == 1 {
				return nil, &ParseError{Line: line, Column: col, Want: "UTF-8 text"}
			}
		}
		switch {
		case r == '\n':
			endStatement()
			comment = false
			line, col = line+1, 0
		case comment:
		case r == '#':
			comment = true
		case r == ';':
			endStatement()
		case r == '\r' || r == '\t' || r == ' ':
			flushWord()
		case unicode.IsSpace(r) || unicode.IsControl(r):
			return nil, &ParseError{Line: line, Column: col, Token: string(r), Want: "words separated by spaces, tabs, ';' or line breaks"}
		default:
			if word.Len() == 0 {
				wordLine, wordCol = line, col
			}
			word.WriteRune(r)
		}
	}
	endStatement()
	return out, nil
}

// elem is one element of a vocabulary pattern.
type elem struct {
	lit  string // a literal word, or:
	slot string // "CAT", "R", "Rs", "XY" or "C"
}

func compilePattern(p string) []elem {
	var out []elem
	for _, w := range strings.Fields(p) {
		if strings.HasPrefix(w, "{") {
			out = append(out, elem{slot: strings.Trim(w, "{}")})
		} else {
			out = append(out, elem{lit: w})
		}
	}
	return out
}

// captures are the values the slots of a pattern matched.
type captures struct {
	cat    hand.Category
	ranks  []card.Rank
	suited int8
	cards  []card.Card
}

// matchResult is how far a phrase matched the words of a rule.
type matchResult struct {
	n    int    // words consumed, when ok
	ok   bool   // the whole phrase matched
	fail int    // when !ok: index of the word that failed (may be len(toks))
	want string // when !ok: what the phrase wanted there
	caps captures
}

// match matches phrase p at the start of toks.
func (p *phrase) match(toks []token) matchResult {
	var r matchResult
	i := 0
	for _, e := range p.elems {
		if i >= len(toks) {
			return matchResult{fail: i, want: e.describe()}
		}
		w := toks[i].text
		switch e.slot {
		case "":
			if !strings.EqualFold(w, e.lit) {
				return matchResult{fail: i, want: e.describe()}
			}
			i++
		case "CAT":
			best := 0
			for c := hand.HighCard; c <= hand.RoyalFlush; c++ {
				words := strings.Fields(categoryWords[c])
				if len(words) <= best || len(words) > len(toks)-i {
					continue
				}
				same := true
				for k, cw := range words {
					same = same && strings.EqualFold(toks[i+k].text, cw)
				}
				if same {
					best, r.caps.cat = len(words), c
				}
			}
			if best == 0 {
				return matchResult{fail: i, want: e.describe()}
			}
			i += best
		case "R":
			rk, ok := parseRank(w)
			if !ok {
				return matchResult{fail: i, want: e.describe()}
			}
			r.caps.ranks = append(r.caps.ranks, rk)
			i++
		case "Rs":
			rk, ok := parseRank(strings.TrimSuffix(w, "s"))
			if !ok || !strings.HasSuffix(w, "s") {
				return matchResult{fail: i, want: e.describe()}
			}
			r.caps.ranks = append(r.caps.ranks, rk)
			i++
		case "XY":
			hi, lo, suited, ok := parseHoleRanks(w)
			if !ok {
				return matchResult{fail: i, want: e.describe()}
			}
			r.caps.ranks = append(r.caps.ranks, hi, lo)
			r.caps.suited = suited
			i++
		case "C":
			c, err := card.Parse(w)
			if err != nil || slices.Contains(r.caps.cards, c) {
				return matchResult{fail: i, want: e.describe()}
			}
			r.caps.cards = append(r.caps.cards, c)
			i++
		}
	}
	r.n, r.ok = i, true
	return r
}

// describe says what the element wants, for errors.
func (e elem) describe() string {
	switch e.slot {
	case "":
		return fmt.Sprintf("%q", e.lit)
	case "CAT":
		return "a hand category (high card, pair, two pair, three of a kind, straight, flush, full house, four of a kind, straight flush, royal flush)"
	case "R":
		return "a rank (2-9, T, J, Q, K or A)"
	case "Rs":
		return "a rank with a plural s (2s-9s, Ts, Js, Qs, Ks or As)"
	case "XY":
		return "two hole ranks such as AK, AKs, T9o or 77"
	default:
		return "a card such as Ah, distinct from the others"
	}
}

// parseHoleRanks reads "AK", "AKs", "AKo" or "77" (ranks in either case and
// order).
func parseHoleRanks(w string) (hi, lo card.Rank, suited int8, ok bool) {
	if len(w) != 2 && len(w) != 3 {
		return 0, 0, 0, false
	}
	a, okA := parseRank(w[0:1])
	b, okB := parseRank(w[1:2])
	if !okA || !okB {
		return 0, 0, 0, false
	}
	hi, lo = max(a, b), min(a, b)
	if len(w) == 3 {
		switch w[2] {
		case 's':
			suited = 1
		case 'o':
			suited = -1
		default:
			return 0, 0, 0, false
		}
		if hi == lo {
			return 0, 0, 0, false // a pair is neither suited nor offsuit
		}
	}
	return hi, lo, suited, true
}

// Parse reads a strategy's text (see the package documentation for the
// grammar). Errors are [*ParseError]s naming the rule, the position and
// what was expected.
func Parse(text []byte) (*Strategy, error) {
	if len(text) > MaxSize {
		return nil, &ParseError{Want: fmt.Sprintf("at most %d bytes of text, not %d", MaxSize, len(text))}
	}
	stmts, perr := statementsOf(string(text))
	if perr != nil {
		return nil, perr
	}
	if len(stmts) == 0 {
		return nil, &ParseError{Want: "rules such as \"call if pair or better\" and a last rule \"otherwise fold\""}
	}
	if len(stmts) > MaxRules+1 {
		return nil, &ParseError{Want: fmt.Sprintf("at most %d rules", MaxRules)}
	}
	s := &Strategy{}
	for i, st := range stmts {
		n := i + 1
		first := st[0]
		switch strings.ToLower(first.text) {
		case "otherwise":
			if len(st) < 2 {
				return nil, errAt(n, st, 1, "\"call\" or \"fold\" after \"otherwise\"")
			}
			act, ok := parseAction(st[1].text)
			if !ok {
				return nil, errAt(n, st, 1, "\"call\" or \"fold\" after \"otherwise\"")
			}
			if len(st) > 2 {
				return nil, errAt(n, st, 2, "the end of the rule after \""+first.text+" "+st[1].text+"\"")
			}
			if n != len(stmts) {
				return nil, errAt(n+1, stmts[n], 0, "nothing after the rule \"otherwise ...\" (it must be the last)")
			}
			s.otherwise = act
			return s, nil
		case "call", "fold":
			act, _ := parseAction(first.text)
			if len(st) < 2 || !strings.EqualFold(st[1].text, "if") {
				return nil, errAt(n, st, 1, "\"if\" after \""+first.text+"\"")
			}
			cond, err := parseCondition(n, st, 2)
			if err != nil {
				return nil, err
			}
			s.rules = append(s.rules, rule{call: act, when: cond})
		default:
			return nil, errAt(n, st, 0, "\"call if\", \"fold if\" or \"otherwise\"")
		}
	}
	last := stmts[len(stmts)-1]
	return nil, errAt(len(stmts), last, len(last), "a last rule \"otherwise call\" or \"otherwise fold\" after this one")
}

// parseAction reads "call" (true) or "fold" (false).
func parseAction(w string) (call, ok bool) {
	switch strings.ToLower(w) {
	case "call":
		return true, true
	case "fold":
		return false, true
	}
	return false, false
}

// errAt is a ParseError at word i of statement st (i == len(st): just after
// its last word).
func errAt(rule int, st []token, i int, want string) *ParseError {
	if i < len(st) {
		return &ParseError{Rule: rule, Line: st[i].line, Column: st[i].col, Token: st[i].text, Want: want}
	}
	last := st[len(st)-1]
	return &ParseError{Rule: rule, Line: last.line, Column: last.col + utf8.RuneCountInString(last.text), Want: want}
}

// parseCondition reads the words st[i:] as terms joined by "and" and "or".
func parseCondition(rule int, st []token, i int) ([][]term, error) {
	var cond [][]term
	var conj []term
	terms := 0
	for {
		not := false
		if i < len(st) && strings.EqualFold(st[i].text, "not") {
			not = true
			i++
		}
		t, n, err := parseTerm(rule, st, i)
		if err != nil {
			return nil, err
		}
		t.not = not
		conj = append(conj, t)
		if terms++; terms > MaxTerms {
			return nil, errAt(rule, st, i, fmt.Sprintf("at most %d conditions in a rule", MaxTerms))
		}
		i += n
		if i == len(st) {
			return append(cond, conj), nil
		}
		switch strings.ToLower(st[i].text) {
		case "and":
		case "or":
			cond = append(cond, conj)
			conj = nil
		default:
			return nil, errAt(rule, st, i, "\"and\", \"or\" or the end of the rule")
		}
		i++
	}
}

// parseTerm reads the longest vocabulary phrase at st[i:]. When no phrase
// matches, or the longest match is followed by a word that cannot follow
// a condition, the error is at the word where the phrase that got furthest
// failed.
func parseTerm(rule int, st []token, i int) (term, int, error) {
	toks := st[i:]
	best := -1
	var bestRes matchResult
	var wants []string
	deepest := -1
	for k := range vocabulary {
		r := vocabulary[k].match(toks)
		if r.ok {
			if best < 0 || r.n > bestRes.n {
				best, bestRes = k, r
			}
			continue
		}
		switch {
		case r.fail > deepest:
			deepest, wants = r.fail, []string{r.want}
		case r.fail == deepest && !slices.Contains(wants, r.want):
			wants = append(wants, r.want)
		}
	}
	if best >= 0 {
		j := bestRes.n
		if j == len(toks) || isConnector(toks[j].text) || deepest <= j {
			return vocabulary[best].build(&bestRes.caps), j, nil
		}
	}
	if deepest == 0 {
		return term{}, 0, errAt(rule, st, i, "a condition such as \"pair or better\", \"hole card K or better\", \"four to a flush\" or \"open-ended straight draw\" (docs/math.md lists them all)")
	}
	return term{}, 0, errAt(rule, st, i+deepest, strings.Join(wants, " or "))
}

// isConnector reports whether w joins two conditions.
func isConnector(w string) bool {
	return strings.EqualFold(w, "and") || strings.EqualFold(w, "or")
}
