package strategy

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// builtin is one named strategy shipped with fairhold.
type builtin struct {
	name, source, text string
}

// builtins are the named strategies, in the order of docs/math.md. Their
// sources are cited there too; a figure of a source is quoted only where
// the source states one.
var builtins = []builtin{
	{
		name:   "always-call",
		source: "reference point: call every hand (the AA Bonus is never forfeited)",
		text:   "otherwise call\n",
	},
	{
		name: "simple",
		source: "the example of fairhold issue #16: \"call with any pair, ace or king high, four to a flush " +
			"or an open-ended straight\"; not a published strategy",
		text: `call if pair or better
call if hole card K or better
call if four to a flush
call if open-ended straight draw
otherwise fold
`,
	},
	{
		name: "fairhold-sim",
		source: "the basic strategy of fairhold's own simulator (replay/sim, casino.go): a pair or better, " +
			"an ace or a king, or four to a flush",
		text: `call if pair or better
call if hole card K or better
call if four to a flush
otherwise fold
`,
	},
	{
		name: "cardsflip",
		source: "cardsflip.com, \"Casino Hold'em Rules\", Strategy: \"Experts suggest you call with: Ace or King High, " +
			"Flush draw or straight draw, two Over Cards ... and Queen Jack H[igh]\" (the stored copy ends there); " +
			"the first rule, pair or better, is fairhold's reading",
		text: `call if pair or better
call if hole card K or better
call if four to a flush
call if straight draw
call if two overcards
call if hole QJ
otherwise fold
`,
	},
	{
		name: SeedsBasic,
		source: "found by fairhold, not published: the simplest rules found whose exact figures round to the seeds' " +
			"basic-strategy claims (98.7% main, 89.6% AA Bonus; 98.7% and 93.60% side-bet optimal)",
		text: `call if paired hole card or two pair or better
call if hole card J or better
call if four to a flush
call if straight draw
otherwise fold
`,
	},
}

// SeedsBasic names the built-in strategy that reproduces the seeds'
// basic-strategy claims; `fairhold math` decides a profile's "basic" and
// "side-bet-optimal" claims under it unless told another (docs/math.md).
const SeedsBasic = "pair-jack-draw"

// Names returns the names of the built-in strategies.
func Names() []string {
	out := make([]string, len(builtins))
	for i, b := range builtins {
		out[i] = b.name
	}
	return out
}

// ErrUnknownBuiltin is wrapped by the error of [Builtin] for a name that is
// not built in.
var ErrUnknownBuiltin = errors.New("no such built-in strategy")

// Builtin returns the built-in strategy of that name.
func Builtin(name string) (*Strategy, error) {
	i := slices.IndexFunc(builtins, func(b builtin) bool { return b.name == name })
	if i < 0 {
		return nil, fmt.Errorf("strategy %q: %w; built-in strategies are %s", name, ErrUnknownBuiltin, strings.Join(Names(), ", "))
	}
	s, err := Parse([]byte(builtins[i].text))
	if err != nil {
		return nil, fmt.Errorf("built-in strategy %s: %w", name, err) // a bug: tests parse every built-in
	}
	s.Name, s.Source = builtins[i].name, builtins[i].source
	return s, nil
}

// LoadError is a strategy that could not be loaded: Source names the file
// (or the quoted name), Err says why.
type LoadError struct {
	Source string
	Err    error
}

func (e *LoadError) Error() string { return e.Source + ": " + e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// Load returns the built-in strategy of that name or reads the strategy
// file at that path. Errors are [*LoadError]s naming the file; a text that
// does not parse wraps a [*ParseError].
func Load(nameOrPath string) (*Strategy, error) {
	if slices.Contains(Names(), nameOrPath) {
		return Builtin(nameOrPath)
	}
	b, err := os.ReadFile(nameOrPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && !strings.ContainsAny(nameOrPath, "/.") {
			return nil, &LoadError{Source: fmt.Sprintf("%q", nameOrPath), Err: fmt.Errorf("%w and no such file; built-in strategies are %s", ErrUnknownBuiltin, strings.Join(Names(), ", "))}
		}
		return nil, &LoadError{Source: nameOrPath, Err: err}
	}
	s, err := Parse(b)
	if err != nil {
		return nil, &LoadError{Source: nameOrPath, Err: err}
	}
	s.Name = nameOrPath
	return s, nil
}
