package suite

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/conformance"
	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/certify/nist"
	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/certify/stats"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

func TestBuiltinSuites(t *testing.T) {
	assert.Equal(t, []string{"casino-holdem", "double-holdem", "live-casino-holdem"}, Names())
	for _, n := range Names() {
		s, err := Builtin(n, ".")
		require.NoError(t, err, n)
		assert.Equal(t, n, s.Game)
		assert.Equal(t, n, s.Profile)
		assert.Empty(t, s.Artefacts)
		assert.NotEmpty(t, s.Requirements)
	}
	_, err := Builtin("poker", ".")
	assert.Error(t, err)
}

func TestParseErrorsNameTheField(t *testing.T) {
	base := `{"name":"s","game":"casino-holdem","profile":"casino-holdem","artefacts":{"logs":["logs"]},"requirements":[
{"id":"a","text":"t","check":"replay"},
{"id":"b","text":"t","check":"stats-scheme","params":{"decks":5000}}]}`
	_, err := Parse([]byte(base), "s.json", ".")
	require.NoError(t, err)
	for name, tc := range map[string]struct{ doc, field string }{
		"not json":           {`{"name":`, ""},
		"trailing":           {base + "{}", ""},
		"no name":            {strings.Replace(base, `"name":"s"`, `"name":""`, 1), "name"},
		"bad game":           {strings.Replace(base, `"game":"casino-holdem"`, `"game":"blackjack"`, 1), "game"},
		"profile path":       {strings.Replace(base, `"profile":"casino-holdem"`, `"profile":"../p.json"`, 1), "profile"},
		"unknown top":        {strings.Replace(base, `"name":"s"`, `"name":"s","nme":"x"`, 1), "nme"},
		"unknown artefact":   {strings.Replace(base, `"logs":["logs"]`, `"log":["logs"]`, 1), "artefacts.log"},
		"artefact type":      {strings.Replace(base, `"logs":["logs"]`, `"logs":"logs"`, 1), "artefacts.logs"},
		"artefact path":      {strings.Replace(base, `"logs":["logs"]`, `"logs":["a//b"]`, 1), "artefacts.logs[0]"},
		"bad id":             {strings.Replace(base, `"id":"a"`, `"id":"A"`, 1), "requirements[0].id"},
		"repeated id":        {strings.Replace(base, `"id":"b"`, `"id":"a"`, 1), "requirements[1].id"},
		"no text":            {strings.Replace(base, `"id":"a","text":"t"`, `"id":"a","text":" "`, 1), "requirements[0].text"},
		"unknown check":      {strings.Replace(base, `"check":"replay"`, `"check":"replays"`, 1), "requirements[0].check"},
		"check not of game":  {strings.Replace(strings.Replace(base, `"casino-holdem"`, `"double-holdem"`, 2), `"check":"replay"`, `"check":"rtp-decisions"`, 1), "requirements[0].check"},
		"param out of range": {strings.Replace(base, `"decks":5000`, `"decks":10`, 1), "requirements[1].params.decks"},
		"param type":         {strings.Replace(base, `"decks":5000`, `"decks":"many"`, 1), "requirements[1].params.decks"},
		"param unknown":      {strings.Replace(base, `"decks":5000`, `"desk":5000`, 1), "requirements[1].params.desk"},
		"unknown req field":  {strings.Replace(base, `"check":"replay"`, `"check":"replay","param":{}`, 1), "requirements[0].param"},
		"no requirements":    {`{"name":"s","game":"casino-holdem","profile":"casino-holdem","requirements":[]}`, "requirements"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc), "s.json", ".")
			var e *Error
			require.True(t, errors.As(err, &e), "%v", err)
			assert.Equal(t, "s.json", e.File)
			assert.Equal(t, tc.field, e.Field, "%v", err)
			assert.ErrorIs(t, err, ErrInput)
		})
	}
}

// operator is a simulated operator's artefacts in a directory.
type operator struct {
	dir string
}

// newOperator writes a casino-holdem log of rounds (faults injected at
// their default rate), fairhold's answers to the vectors, a decks file of
// the scheme and raw bytes of the stream.
func newOperator(t *testing.T, rounds int64, faults string) operator {
	t.Helper()
	dir := t.TempDir()
	op := operator{dir: dir}
	// The log: one JSON Lines file.
	fr, err := sim.ParseFaults(faults)
	require.NoError(t, err)
	s, err := sim.New(sim.Config{Game: "casino-holdem", Rounds: rounds, Seed: 3, Faults: fr})
	require.NoError(t, err)
	// A dataset, with its manifest signed by the operator's published key
	// (operator.pub): a replay without it is a check not made.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "logs"), 0o755))
	w := roundlog.NewJSONLDatasetWriter(filepath.Join(dir, "logs"), roundlog.Options{})
	for !s.Done() {
		r, _, err := s.Next()
		require.NoError(t, err)
		if r != nil {
			require.NoError(t, w.Write(r))
		}
	}
	require.NoError(t, w.Close())
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	pub := priv.Public().(ed25519.PublicKey)
	require.NoError(t, err)
	m := manifest.New()
	m.Currencies = map[string]int{"EUR": 2}
	m.Parts = w.Parts()
	_, err = manifest.Write(filepath.Join(dir, "logs"), m, priv)
	require.NoError(t, err)
	pem, err := manifest.MarshalPublicKey(pub)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "operator.pub"), pem, 0o644))
	// The answers.
	own, err := conformance.OwnAnswers()
	require.NoError(t, err)
	b, err := conformance.MarshalAnswers(own)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "answers.jsonl"), b, 0o644))
	// The decks and the raw bytes.
	sch, err := scheme.Lookup(scheme.FairholdV1Name)
	require.NoError(t, err)
	dl, err := stats.SchemeSource{Scheme: sch, Seed: 9}.NewDealer()
	require.NoError(t, err)
	var decks bytes.Buffer
	var d [stats.DeckSize]uint8
	for i := range uint64(stats.MinDecks) {
		_, err := dl.Deck(i, &d)
		require.NoError(t, err)
		decks.WriteString(stats.FormatDeck(d[:]) + "\n")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "decks.txt"), decks.Bytes(), 0o644))
	raw := make([]byte, nist.MinBits/8)
	require.NoError(t, stats.StreamSequence(5, 0, raw))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "raw.bin"), raw, 0o644))
	return op
}

// shortSuite certifies the operator without the exact mathematics.
const shortSuite = `{
  "name": "short",
  "game": "casino-holdem",
  "profile": "casino-holdem",
  "artefacts": {"logs": ["logs"], "answers": "answers.jsonl", "decks": "decks.txt", "raw": "raw.bin"},
  "requirements": [
    {"id": "vectors.engine-conformance", "text": "the engine's answer to every test vector is the expected one", "check": "vectors"},
    {"id": "stats.scheme-decks", "text": "per-position chi-square at 99% on the scheme's decks", "check": "stats-scheme", "params": {"decks": 5000}},
    {"id": "stats.operator-decks", "text": "per-position chi-square at 99% on the operator's decks", "check": "stats-decks"},
    {"id": "stats.raw-nist", "text": "NIST SP 800-22 on the raw bytes", "check": "nist-raw", "params": {"bits": 387840}},
    {"id": "stats.logged-cards", "text": "the logged cards pass the log battery", "check": "stats-log"},
    {"id": "replay.resettle", "text": "every logged round re-settles", "check": "replay", "params": {"manifest_key": "operator.pub"}}
  ]
}`

func (op operator) suite(t *testing.T, doc string) *Suite {
	t.Helper()
	file := filepath.Join(op.dir, "suite.json")
	require.NoError(t, os.WriteFile(file, []byte(doc), 0o644))
	s, err := Load(file)
	require.NoError(t, err)
	return s
}

func statuses(res *Result) map[string]report.Status {
	out := map[string]report.Status{}
	for _, r := range res.Requirements {
		out[r.ID] = r.Status
	}
	return out
}

func TestRunCleanOperator(t *testing.T) {
	op := newOperator(t, 6000, "")
	s := op.suite(t, shortSuite)
	res, err := Run(context.Background(), s, Options{})
	require.NoError(t, err)
	for _, r := range res.Requirements {
		assert.Equal(t, report.Pass, r.Status, "%s: %s", r.ID, r.Evidence.Summary)
	}
	var names []string
	for _, sub := range res.Subjects {
		names = append(names, sub.Name)
	}
	assert.Equal(t, []string{"answers.jsonl", "decks.txt", "logs/manifest.json", "logs/manifest.json.sig", "logs/rounds/part-00000.jsonl", "operator.pub", "raw.bin", "suite.json"}, names)
	byID := map[string]report.Requirement{}
	for _, r := range res.Requirements {
		byID[r.ID] = r
	}
	assert.Equal(t, []string{"answers.jsonl"}, byID["vectors.engine-conformance"].Evidence.Subjects)
	assert.Equal(t, []string{"logs/manifest.json", "logs/manifest.json.sig", "logs/rounds/part-00000.jsonl", "operator.pub"}, byID["replay.resettle"].Evidence.Subjects)
	assert.Empty(t, byID["stats.scheme-decks"].Evidence.Subjects)
	// Figures: the heatmap of both deck batteries, the P-values.
	for _, id := range []string{"stats.scheme-decks", "stats.operator-decks"} {
		ch := byID[id].Evidence.Charts
		require.Len(t, ch, 2, id)
		assert.Equal(t, report.ChartHeatmap, ch[0].Kind)
		require.Len(t, ch[0].Heatmap.Counts, 52)
		assert.Len(t, ch[0].Heatmap.Counts[51], 52)
		assert.Equal(t, "2c", ch[0].Heatmap.Columns[0])
		assert.Equal(t, "As", ch[0].Heatmap.Columns[51])
		assert.Equal(t, report.ChartPValues, ch[1].Kind)
		assert.NotEmpty(t, ch[1].PValues)
	}
	assert.NotEmpty(t, byID["stats.raw-nist"].Evidence.Charts[0].PValues)
	// The results are the documented types.
	var sum struct {
		Rounds  int64   `json:"rounds"`
		Seconds float64 `json:"seconds"`
	}
	require.NoError(t, json.Unmarshal(byID["replay.resettle"].Evidence.Result, &sum))
	assert.EqualValues(t, 6000, sum.Rounds)
	assert.Zero(t, sum.Seconds)
	var ar conformance.AnswersReport
	require.NoError(t, json.Unmarshal(byID["vectors.engine-conformance"].Evidence.Result, &ar))
	assert.True(t, ar.Pass())

	st, err := report.NewStatement(res.Subjects, res.Requirements, report.Tool{Name: "fairhold", Version: "test"}, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), res.Details)
	require.NoError(t, err)
	assert.Equal(t, report.VerdictPass, st.Predicate.Verdict)

	// The same inputs give the same statement, whatever the workers.
	res2, err := Run(context.Background(), s, Options{Workers: 1})
	require.NoError(t, err)
	st2, err := report.NewStatement(res2.Subjects, res2.Requirements, st.Predicate.Tool, st.Predicate.Time, res2.Details)
	require.NoError(t, err)
	a, err := st.Marshal()
	require.NoError(t, err)
	b, err := st2.Marshal()
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b))
}

func TestRunFaultyOperator(t *testing.T) {
	op := newOperator(t, 6000, "tie-not-pushed,cards-mismatch")
	res, err := Run(context.Background(), op.suite(t, shortSuite), Options{})
	require.NoError(t, err)
	var failed []string
	for _, r := range res.Requirements {
		if r.Status == report.Fail {
			failed = append(failed, r.ID)
		}
	}
	assert.Equal(t, []string{"replay.resettle"}, failed)
	var sum struct {
		Findings map[string]int64 `json:"findings"`
	}
	for _, r := range res.Requirements {
		if r.ID == "replay.resettle" {
			require.NoError(t, json.Unmarshal(r.Evidence.Result, &sum))
			require.Len(t, r.Evidence.Charts, 1)
			bars := r.Evidence.Charts[0].Bars
			require.Len(t, bars, 2)
			assert.Equal(t, "CARDS_MISMATCH", bars[0].Label)
			assert.Equal(t, "TIE_NOT_PUSHED", bars[1].Label)
			assert.Negative(t, bars[1].Amount["EUR"], "a tie not pushed pays the player less")
		}
	}
	var codes []string
	for c := range sum.Findings {
		codes = append(codes, c)
	}
	assert.ElementsMatch(t, []string{"CARDS_MISMATCH", "TIE_NOT_PUSHED"}, codes)
}

func TestRunNotTestedAndMissing(t *testing.T) {
	op := newOperator(t, 100, "")
	// Artefacts left out: not tested; the log too short for its battery.
	doc := strings.Replace(shortSuite, `"answers": "answers.jsonl", "decks": "decks.txt", "raw": "raw.bin"`, `"answers": "answers.jsonl"`, 1)
	res, err := Run(context.Background(), op.suite(t, doc), Options{})
	require.NoError(t, err)
	st := statuses(res)
	assert.Equal(t, report.NotTested, st["stats.operator-decks"])
	assert.Equal(t, report.NotTested, st["stats.raw-nist"])
	assert.Equal(t, report.NotTested, st["stats.logged-cards"])
	assert.Equal(t, report.Pass, st["replay.resettle"])

	// An artefact named but missing is malformed input naming the field.
	doc = strings.Replace(shortSuite, `"decks.txt"`, `"no-decks.txt"`, 1)
	_, err = Run(context.Background(), op.suite(t, doc), Options{})
	var e *Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, "artefacts.decks", e.Field)
	assert.Contains(t, e.Error(), "no-decks.txt: no such file")

	// A malformed answer file names the file, the line and the field.
	bad := filepath.Join(op.dir, "answers.jsonl")
	data, err := os.ReadFile(bad)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(data), "\n")
	lines[4] = `{"vector":"rules/x","boxes":"none"}` + "\n"
	require.NoError(t, os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644))
	// The vectors requirement last: the answers are still read before any
	// check runs.
	vectorsLast := strings.Replace(shortSuite, `    {"id": "vectors.engine-conformance", "text": "the engine's answer to every test vector is the expected one", "check": "vectors"},
`, "", 1)
	vectorsLast = strings.Replace(vectorsLast, `"check": "replay", "params": {"manifest_key": "operator.pub"}}`,
		`"check": "replay", "params": {"manifest_key": "operator.pub"}},
    {"id": "vectors.engine-conformance", "text": "the engine's answer to every test vector is the expected one", "check": "vectors"}`, 1)
	require.NotEqual(t, shortSuite, vectorsLast)
	var before bytes.Buffer
	_, err = Run(context.Background(), op.suite(t, vectorsLast), Options{Log: &before})
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, "answers.jsonl", e.File)
	assert.Equal(t, "line 5: boxes", e.Field)
	assert.Empty(t, before.String(), "the answers are read before any check runs")

	// Logs that are not a round log: refused before any check runs.
	require.NoError(t, os.WriteFile(bad, data, 0o644))
	notLogs := strings.Replace(shortSuite, `"logs": ["logs"]`, `"logs": ["raw.bin"]`, 1)
	before.Reset()
	_, err = Run(context.Background(), op.suite(t, notLogs), Options{Log: &before})
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, "artefacts.logs", e.Field)
	assert.Empty(t, before.String(), "the logs are opened before any check runs")

	// A malformed decks file names the line and the card.
	require.NoError(t, os.WriteFile(bad, data, 0o644))
	decks := filepath.Join(op.dir, "decks.txt")
	require.NoError(t, os.WriteFile(decks, []byte("As Kd\n"), 0o644))
	var ran bytes.Buffer
	_, err = Run(context.Background(), op.suite(t, shortSuite), Options{Log: &ran})
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Empty(t, ran.String(), "the decks file is read before any check runs")
	assert.Equal(t, "decks.txt", e.File)
	assert.Equal(t, "line 1", e.Field)
}

// The return checks and the claims on a partial solution: the rounds
// whose states it holds are tested, the claims are not decided.
func TestRunReturnChecksPartialSolution(t *testing.T) {
	op := newOperator(t, 3000, "")
	all := exact.FlopClasses()
	flops := all[:60]
	solve := func(ctx context.Context, q hand.Value, workers int, _ func(int64)) (*exact.Solution, error) {
		return exact.Solve(ctx, q, exact.Options{Flops: flops, Workers: workers})
	}
	require.NoError(t, os.WriteFile(filepath.Join(op.dir, "basic.txt"), []byte("call if pair or better\notherwise fold\n"), 0o644))
	doc := `{"name":"rtp","game":"casino-holdem","profile":"casino-holdem","artefacts":{"logs":["logs"]},"requirements":[
{"id":"math.claims","text":"published RTP reproduced","check":"math-claims","params":{"basic_strategy":"basic.txt"}},
{"id":"rtp.observed","text":"observed RTP inside its interval","check":"rtp-observed"},
{"id":"rtp.decisions","text":"returns agree with the decisions' expectations","check":"rtp-decisions"}]}`
	res, err := Run(context.Background(), op.suite(t, doc), Options{Solve: solve})
	require.NoError(t, err)
	st := statuses(res)
	assert.Equal(t, report.NotTested, st["math.claims"], "a partial solution decides no claim")
	assert.Equal(t, []string{"basic.txt"}, res.Requirements[0].Evidence.Subjects)
	assert.Equal(t, report.Pass, st["rtp.observed"], "%s", res.Requirements[1].Evidence.Summary)
	assert.Equal(t, report.Pass, st["rtp.decisions"], "%s", res.Requirements[2].Evidence.Summary)
	// A rules file that does not parse is malformed input naming it.
	require.NoError(t, os.WriteFile(filepath.Join(op.dir, "basic.txt"), []byte("call if lucky\notherwise fold\n"), 0o644))
	_, err = Run(context.Background(), op.suite(t, doc), Options{Solve: solve})
	var e *Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, "basic.txt", e.File)

	ch := res.Requirements[1].Evidence.Charts
	require.Len(t, ch, 1)
	assert.Equal(t, report.ChartSeries, ch[0].Kind)
	assert.NotEmpty(t, ch[0].Series.Points)
	for _, p := range ch[0].Series.Points {
		assert.LessOrEqual(t, p.Low, p.High)
	}
}

// The answer lines of docs/suite-format.md are fairhold's own answers.
func TestDocAnswerExamples(t *testing.T) {
	data, err := os.ReadFile("../../docs/suite-format.md")
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(data), "### The answer file")
	require.True(t, ok)
	_, block, ok := strings.Cut(after, "```json\n")
	require.True(t, ok)
	block, _, _ = strings.Cut(block, "```")
	as, err := conformance.ParseAnswers(strings.NewReader(block))
	require.NoError(t, err)
	require.NotEmpty(t, as)
	own, err := conformance.OwnAnswers()
	require.NoError(t, err)
	for _, a := range as {
		found := false
		for _, o := range own {
			if o.Vector == a.Vector {
				assert.Equal(t, o, a, a.Vector)
				found = true
			}
		}
		assert.True(t, found, "%s is a vector", a.Vector)
	}
}

// A suite built in Go rather than parsed: its parameters are decoded by
// Run, an unknown check is an error, not a panic.
func TestRunSuiteBuiltInGo(t *testing.T) {
	op := newOperator(t, 100, "")
	s := op.suite(t, shortSuite)
	s.Requirements = []Requirement{{ID: "replay.resettle", Text: "every logged round re-settles", Check: CheckReplay}}
	res, err := Run(context.Background(), s, Options{})
	require.NoError(t, err)
	// Without the operator's key the signed manifest is a check not made.
	assert.Equal(t, report.NotTested, res.Requirements[0].Status)
	assert.Contains(t, res.Requirements[0].Evidence.Summary, "no key was given")
	require.NoError(t, s.SetManifestKey(filepath.Join(op.dir, "operator.pub")))
	res, err = Run(context.Background(), s, Options{})
	require.NoError(t, err)
	assert.Equal(t, report.Pass, res.Requirements[0].Status, res.Requirements[0].Evidence.Summary)
	s.Requirements = []Requirement{{ID: "x", Text: "t", Check: "nonsense"}}
	_, err = Run(context.Background(), s, Options{})
	assert.ErrorIs(t, err, ErrInput)
}
