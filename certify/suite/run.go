package suite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fairhold/fairhold/certify/conformance"
	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/certify/rtp"
	"github.com/fairhold/fairhold/certify/stats"
	"github.com/fairhold/fairhold/certify/strategy"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/replayer"
	"github.com/fairhold/fairhold/replay/roundlog"
)

// Options tune [Run].
type Options struct {
	// Workers is the number of goroutines of the batteries, the replay and
	// the exact solution; 0 means GOMAXPROCS. The results do not depend on
	// it.
	Workers int
	// Log, if not nil, receives one line as each requirement is decided,
	// for people watching.
	Log io.Writer
	// Solve, if not nil, replaces [exact.Solve] for the checks that need
	// the game's exact solution (tests give a partial one).
	// progress, when called, counts flop classes solved.
	Solve func(ctx context.Context, qualifier hand.Value, workers int, progress func(int64)) (*exact.Solution, error)
}

// Result is what [Run] certified: the statement's subjects (every
// artefact file, the suite file and a profile file), its requirements, in
// the suite's order, each with its check's method ([Methods]), and what
// the statement names besides: the suite, the lab, operator and
// jurisdiction of the suite file, the game and its profile, the period of
// the replayed logs, what a custom suite leaves out of the built-in one
// and the limits of the evidence. The certificate id is left to
// [report.NewStatement].
type Result struct {
	Subjects     []report.Subject
	Requirements []report.Requirement
	Details      report.Details
}

// result is what a check returns: the requirement's status and evidence
// (its id and text are the suite's).
type result struct {
	status   report.Status
	summary  string
	subjects []string // artefact keys read: "logs", "answers", "decks", "raw", "strategy", "profile", "manifest_key"
	value    any      // the documented result type, or nil
	charts   []report.Chart
	samples  []report.FindingSample
	period   *replayer.Period // the period of the logs replayed
}

func notTested(why string) (result, error) {
	return result{status: report.NotTested, summary: why}, nil
}

// env is what the checks of one run share: the suite, the profile, the
// subjects of each artefact, and what is computed once (the exact
// solution, the observed returns).
type env struct {
	ctx  context.Context
	s    *Suite
	opts Options
	prof *profile.Profile
	// names are the subject names of each artefact key.
	names map[string][]string

	solveOnce sync.Once
	game      *rtp.Game
	sol       *exact.Solution
	theory    *rtp.Theory
	solveErr  error

	observed    *rtp.Observer
	observedErr error
	observeOnce sync.Once

	decksOnce sync.Once
	decks     *stats.Decks
	decksErr  error

	answersOnce sync.Once
	answers     []conformance.Answer
	answersErr  error

	strategyOnce sync.Once
	strategy     *exact.Decisions
	strategyErr  error
}

// validateInputs reads every artefact the suite names, as its checks
// will (they then take what was read): the decks, the answers and the
// strategy whole, the logs as far as opening them (their layout, every
// file's schema and version; a damaged row is a finding of the replay,
// not an input error).
func (e *env) validateInputs() error {
	a := &e.s.Artefacts
	if a.Decks != "" {
		if _, err := e.loadDecks(); err != nil {
			return err
		}
	}
	if a.Answers != "" {
		if _, err := e.loadAnswers(); err != nil {
			return err
		}
	}
	if a.Strategy != "" {
		if _, err := e.loadStrategy(); err != nil {
			return err
		}
	}
	if len(a.Logs) > 0 {
		ds, err := roundlog.Open(e.logPaths()...)
		if err != nil {
			return e.logsError(err)
		}
		ds.Close()
	}
	return nil
}

// loadStrategy reads the suite's strategy file once.
func (e *env) loadStrategy() (*exact.Decisions, error) {
	e.strategyOnce.Do(func() { e.strategy, e.strategyErr = e.readStrategy(e.s.Artefacts.Strategy) })
	return e.strategy, e.strategyErr
}

// Run runs the suite's checks. It first checks that every artefact the
// suite names exists (else an [*Error] naming the suite's field) and
// hashes it into the subjects; then it decides each requirement in turn.
// Malformed artefacts are [*Error]s naming the file and the field;
// cancelling ctx stops the exact solution.
func Run(ctx context.Context, s *Suite, opts Options) (*Result, error) {
	e := &env{ctx: ctx, s: s, opts: opts, names: map[string][]string{}}
	if err := s.decodeParams(); err != nil {
		return nil, err
	}
	if err := e.loadProfile(); err != nil {
		return nil, err
	}
	subjects, err := e.hashArtefacts()
	if err != nil {
		return nil, err
	}
	if len(subjects) == 0 {
		return nil, inputErr(s.file, "artefacts", "none named: a certification names at least one artefact (a log, an answer, decks, raw bytes or strategy file)")
	}
	// Every artefact is read before the first check: a malformed one fails
	// the run at once, not after the long checks.
	if err := e.validateInputs(); err != nil {
		return nil, err
	}
	out := &Result{Subjects: subjects}
	var periods []*replayer.Period
	for i := range s.Requirements {
		r := &s.Requirements[i]
		start := time.Now()
		res, err := checks[r.Check].run(e, r)
		if err != nil {
			return nil, err
		}
		periods = append(periods, res.period)
		req := report.Requirement{ID: r.ID, Text: r.Text, Method: Methods[r.Check], Status: res.status,
			Evidence: report.Evidence{Summary: res.summary, Charts: res.charts, FindingSamples: res.samples}}
		for _, k := range res.subjects {
			req.Evidence.Subjects = append(req.Evidence.Subjects, e.names[k]...)
		}
		slices.Sort(req.Evidence.Subjects)
		req.Evidence.Subjects = slices.Compact(req.Evidence.Subjects)
		if res.value != nil {
			b, err := json.Marshal(res.value)
			if err != nil {
				return nil, fmt.Errorf("requirement %s: %w", r.ID, err)
			}
			req.Evidence.Result = b
		}
		out.Requirements = append(out.Requirements, req)
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "%-10s %s (%.1fs): %s\n", req.Status, r.ID, time.Since(start).Seconds(), req.Evidence.Summary)
		}
	}
	if out.Details, err = e.details(periods); err != nil {
		return nil, err
	}
	return out, nil
}

// path returns an artefact's path on disk.
func (e *env) path(p string) string { return filepath.Join(e.s.dir, filepath.FromSlash(p)) }

// loadProfile loads the suite's profile and checks its game.
func (e *env) loadProfile() error {
	s := e.s
	var p *profile.Profile
	var err error
	if slices.Contains(profile.Names(), s.Profile) {
		p, err = profile.Builtin(s.Profile)
		if err != nil {
			return err
		}
	} else {
		file := e.path(s.Profile)
		data, rerr := os.ReadFile(file)
		switch {
		case errors.Is(rerr, fs.ErrNotExist):
			return inputErr(s.file, "profile", "%s: no such file (and not a built-in profile: %v)", s.Profile, profile.Names())
		case rerr != nil:
			return fmt.Errorf("failed to read %s: %w", file, rerr)
		}
		if p, err = profile.Parse(data); err != nil {
			return &Error{File: file, Err: err}
		}
		e.names["profile"] = []string{s.Profile}
	}
	if p.Game != s.Game {
		return inputErr(s.file, "profile", "%s is a %s profile, the suite certifies %s", p.Name, p.Game, s.Game)
	}
	for i, r := range s.Requirements {
		mp, ok := r.params.(*MathParams)
		if !ok {
			continue
		}
		for j, name := range mp.Claims {
			if !slices.ContainsFunc(p.RTPClaims, func(c profile.RTPClaim) bool { return c.Name == name }) {
				return inputErr(s.file, fmt.Sprintf("requirements[%d].params.claims[%d]", i, j), "%q: profile %s publishes no such claim", name, p.Name)
			}
		}
	}
	e.prof = p
	return nil
}

// hashArtefacts checks that the artefacts exist and returns their
// subjects, sorted by name: the suite file, the profile file, the files of
// every log, the answer, decks, raw and strategy files and a manifest key.
func (e *env) hashArtefacts() ([]report.Subject, error) {
	s := e.s
	fsys := os.DirFS(s.dir)
	if !isBuiltin(s) {
		e.names["suite"] = []string{path.Base(filepath.ToSlash(s.file))}
		if rel, err := filepath.Rel(s.dir, s.file); err == nil && filepath.IsLocal(rel) {
			e.names["suite"] = []string{filepath.ToSlash(rel)}
		}
	}
	single := func(key, field, p string) error {
		if p == "" {
			return nil
		}
		fi, err := fs.Stat(fsys, p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return inputErr(s.file, field, "%s: no such file", p)
		case err != nil:
			return fmt.Errorf("failed to read %s: %w", e.path(p), err)
		case !fi.Mode().IsRegular():
			return inputErr(s.file, field, "%s: not a regular file", p)
		}
		e.names[key] = append(e.names[key], p)
		return nil
	}
	a := &s.Artefacts
	for i, l := range a.Logs {
		fi, err := fs.Stat(fsys, l)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, inputErr(s.file, fmt.Sprintf("artefacts.logs[%d]", i), "%s: no such file or directory", l)
		case err != nil:
			return nil, fmt.Errorf("failed to read %s: %w", e.path(l), err)
		case fi.IsDir():
			err = fs.WalkDir(fsys, l, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.Type().IsRegular() {
					e.names["logs"] = append(e.names["logs"], p)
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("failed to read %s: %w", e.path(l), err)
			}
		default:
			if err := single("logs", fmt.Sprintf("artefacts.logs[%d]", i), l); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range []struct{ key, path string }{
		{"answers", a.Answers}, {"decks", a.Decks}, {"raw", a.Raw}, {"strategy", a.Strategy},
	} {
		if err := single(f.key, "artefacts."+f.key, f.path); err != nil {
			return nil, err
		}
	}
	for i, r := range s.Requirements {
		if rp, ok := r.params.(*ReplayParams); ok && rp.ManifestKey != "" {
			if err := single("manifest_key", fmt.Sprintf("requirements[%d].params.manifest_key", i), rp.ManifestKey); err != nil {
				return nil, err
			}
		}
		if cp, ok := r.params.(*CommitmentsParams); ok && cp.Log != "" {
			if err := e.commitmentArtefacts(i, cp, single); err != nil {
				return nil, err
			}
		}
		if mp, ok := r.params.(*MathParams); ok && mp.BasicStrategy != "" && !slices.Contains(strategy.Names(), mp.BasicStrategy) {
			if err := single("basic_strategy", fmt.Sprintf("requirements[%d].params.basic_strategy", i), mp.BasicStrategy); err != nil {
				return nil, err
			}
		}
	}
	var all []string
	for _, ns := range e.names {
		all = append(all, ns...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	subjects := make([]report.Subject, 0, len(all))
	for _, n := range all {
		sub, err := report.FileSubject(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("failed to hash %s: %w", e.path(n), err)
		}
		subjects = append(subjects, sub)
	}
	return subjects, nil
}

func isBuiltin(s *Suite) bool { return len(s.file) > 8 && s.file[:8] == "builtin:" }

// logPaths returns the logs' paths on disk.
func (e *env) logPaths() []string {
	out := make([]string, len(e.s.Artefacts.Logs))
	for i, l := range e.s.Artefacts.Logs {
		out[i] = e.path(l)
	}
	return out
}

// solve returns the game's exact theory, solving it once.
func (e *env) solve() (*rtp.Theory, error) {
	e.solveOnce.Do(func() {
		g, err := rtp.NewGame(e.prof)
		if err != nil {
			e.solveErr = err
			return
		}
		e.game = g
		solve := e.opts.Solve
		if solve == nil {
			solve = solveCached
		}
		m := e.meter("exact solution", "flop classes", int64(len(exact.FlopClasses())))
		sol, err := solve(e.ctx, g.Qualifier, e.opts.Workers, m.add)
		m.end()
		if err != nil {
			e.solveErr = fmt.Errorf("failed to solve the game: %w", err)
			return
		}
		e.sol = sol
		e.theory, e.solveErr = rtp.NewTheory(g, sol)
	})
	return e.theory, e.solveErr
}

// logsError is the error of logs that cannot be opened: malformed input
// (no round log in a directory, an unknown schema) naming the suite's
// field, or an I/O error.
func (e *env) logsError(err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("failed to open the logs: %w", err)
	}
	return &Error{File: e.s.file, Field: "artefacts.logs", Err: err}
}

// lastSolution keeps the last solution solveCached computed: a process
// that certifies several operators of a game (the demo, the tests)
// solves it once. It holds one solution (about 150 MB).
var lastSolution struct {
	sync.Mutex
	q   hand.Value
	sol *exact.Solution
}

// solveCached solves the whole game with a dealer qualifying at q, or
// returns the last solution when it was for q. The solution is read only.
func solveCached(ctx context.Context, q hand.Value, workers int, progress func(int64)) (*exact.Solution, error) {
	lastSolution.Lock()
	defer lastSolution.Unlock()
	if lastSolution.sol != nil && lastSolution.q == q {
		return lastSolution.sol, nil
	}
	lastSolution.sol = nil // let it be collected while solving
	sol, err := exact.Solve(ctx, q, exact.Options{Workers: workers, Progress: func(n int) { progress(int64(n)) }})
	if err != nil {
		return nil, err
	}
	lastSolution.q, lastSolution.sol = q, sol
	return sol, nil
}

// decodeParams decodes the parameters of requirements not made by Parse
// (a Suite built in Go), and checks their checks exist.
func (s *Suite) decodeParams() error {
	for i := range s.Requirements {
		r := &s.Requirements[i]
		f := fmt.Sprintf("requirements[%d]", i)
		c, ok := checks[r.Check]
		if !ok {
			return inputErr(s.file, f+".check", "%q: want one of %v", r.Check, CheckNames())
		}
		if r.params != nil {
			continue
		}
		p, err := c.params(r.Params)
		if err != nil {
			return within(s.file, f+".params", err)
		}
		r.params = p
	}
	return nil
}

// commitmentArtefacts adds the files of requirement i's commitment log
// (its checkpoint, tiles, entry bundles and evidence; not the writer's own
// .state/) and its keys, certificates and kept checkpoints to the subjects.
func (e *env) commitmentArtefacts(i int, cp *CommitmentsParams, single func(key, field, p string) error) error {
	fsys := os.DirFS(e.s.dir)
	field := fmt.Sprintf("requirements[%d].params.", i)
	fi, err := fs.Stat(fsys, cp.Log)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return inputErr(e.s.file, field+"commitment_log", "%s: no such directory", cp.Log)
	case err != nil:
		return fmt.Errorf("failed to read %s: %w", e.path(cp.Log), err)
	case !fi.IsDir():
		return inputErr(e.s.file, field+"commitment_log", "%s: not a directory (a commitment log, docs/commitment-log.md)", cp.Log)
	}
	err = fs.WalkDir(fsys, cp.Log, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".state" {
			return fs.SkipDir
		}
		if d.Type().IsRegular() {
			e.names["commitment_log"] = append(e.names["commitment_log"], p)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("failed to read %s: %w", e.path(cp.Log), err)
	}
	if err := single("log_key", field+"log_key", cp.LogKey); err != nil {
		return err
	}
	for _, f := range []struct {
		key   string
		paths []string
	}{{"witness_keys", cp.WitnessKeys}, {"tsa_certs", cp.TSACerts}, {"kept_checkpoints", cp.Kept}} {
		for j, p := range f.paths {
			if err := single(f.key, fmt.Sprintf("%s%s[%d]", field, f.key, j), p); err != nil {
				return err
			}
		}
	}
	return nil
}
