package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/certify/conformance"
	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/vectors"
)

func newVectorsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "vectors",
		Short: "Test vectors for certifying an engine that is not fairhold",
		Long: `The test vectors (vectors/README.md) describe what a correct engine deals, settles
and concludes. To certify an operator's own engine, a lab exports the vectors'
inputs, the operator runs its engine on them and hands back an answer file, and
the certification suite compares every answer with the vector's expected result
(docs/suite-format.md, "The answer file").`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newVectorsExportCmd(), newVectorsAnswerCmd())
	return cmd
}

// vectorsResult is the JSON of vectors export --json and vectors answer
// --json: how many files or answers were written, and where.
type vectorsResult struct {
	Written int    `json:"written"`
	Out     string `json:"out"`
}

func newVectorsExportCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "export DIR",
		Short: "Write the vectors' inputs, without the expected results",
		Long: `Write the input of every test vector to DIR (a new or empty directory):
DIR/fairness/ID.json and DIR/rules/ID.json, each the vector without what an engine
must conclude (no expect, failures, field or expected; a rules vector's round
without the returns, balances, pots and rake recorded after settling). This is
what an operator's engine receives; its answers go in an answer file, one line
per vector (docs/suite-format.md).

Exit codes: 0 written, 2 usage (DIR not empty), 1 error.`,
		Example: `  fairhold vectors export engine-inputs/`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVectorsExport(cmd, args[0], asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func runVectorsExport(cmd *cobra.Command, dir string, asJSON bool) error {
	if err := newOrEmptyDir(dir); err != nil {
		return err
	}
	files, err := vectors.InputFiles()
	if err != nil {
		return err
	}
	for _, kind := range []string{vectors.KindFairness, vectors.KindRules} {
		if err := os.MkdirAll(filepath.Join(dir, kind), 0o755); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := atomicfile.Write(filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data, 0o644, false); err != nil {
			return err
		}
	}
	if asJSON {
		return writeResult(cmd.OutOrStdout(), verdictOK, vectorsResult{Written: len(files), Out: dir})
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "%d vector inputs written to %s (fairness/, rules/)\n", len(files), dir)
	return err
}

// newOrEmptyDir creates dir if needed and fails with a usage error when it
// holds anything.
func newOrEmptyDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("failed to create %s: %w", dir, err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("failed to read %s: %w", dir, err)
	}
	if len(ents) > 0 {
		return usageErrorf("%s: not empty; want a new or empty directory", dir)
	}
	return nil
}

type vectorsAnswerOptions struct {
	out    string
	force  bool
	asJSON bool
}

func newVectorsAnswerCmd() *cobra.Command {
	var o vectorsAnswerOptions
	cmd := &cobra.Command{
		Use:   "answer DIR --out ANSWERS.jsonl",
		Short: "Answer the exported vector inputs with fairhold's own engine",
		Long: `Run fairhold's own engine on the vector inputs in DIR (as written by
'fairhold vectors export') and write its answers, one JSON line per vector
(docs/suite-format.md, "The answer file"). An engine under certification writes
the same file with its own answers; fairhold's are the reference, and they let
a suite certify fairhold itself.

Exit codes: 0 written, 2 usage or a malformed input file (named), 1 error.`,
		Example: `  fairhold vectors export inputs/ && fairhold vectors answer inputs/ --out answers.jsonl`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVectorsAnswer(cmd, args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "write the answers to this file")
	f.BoolVar(&o.force, "force", false, "overwrite an existing answer file")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

func runVectorsAnswer(cmd *cobra.Command, dir string, o vectorsAnswerOptions) error {
	if err := checkOutputFile("--out", o.out); err != nil {
		return err
	}
	if err := inputExists("vectors answer", dir); err != nil {
		return err
	}
	fsys := os.DirFS(dir)
	var answers []conformance.Answer
	for _, kind := range []string{vectors.KindFairness, vectors.KindRules} {
		names, err := fs.Glob(fsys, kind+"/*.json")
		if err != nil {
			return err
		}
		slices.Sort(names)
		for _, name := range names {
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				return fmt.Errorf("failed to read %s: %w", filepath.Join(dir, name), err)
			}
			id := strings.TrimSuffix(path.Base(name), ".json")
			a, err := answerInput(kind, id, data)
			if err != nil {
				return usageErrorf("%s: %v", filepath.Join(dir, filepath.FromSlash(name)), err)
			}
			answers = append(answers, a)
		}
	}
	if len(answers) == 0 {
		return usageErrorf("%s: no vector inputs (fairness/*.json, rules/*.json); write them with 'fairhold vectors export'", dir)
	}
	data, err := conformance.MarshalAnswers(answers)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(o.out, data, 0o644, o.force); errors.Is(err, fs.ErrExist) {
		return usageErrorf("--out: %v; refusing to overwrite (--force to replace it)", err)
	} else if err != nil {
		return err
	}
	if o.asJSON {
		return writeResult(cmd.OutOrStdout(), verdictOK, vectorsResult{Written: len(answers), Out: o.out})
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "%d answers written to %s\n", len(answers), o.out)
	return err
}

// answerInput parses one input file and answers it.
func answerInput(kind, id string, data []byte) (conformance.Answer, error) {
	if kind == vectors.KindFairness {
		v, err := vectors.ParseFairnessInput(data)
		if err != nil {
			return conformance.Answer{}, err
		}
		if v.ID != id {
			return conformance.Answer{}, fmt.Errorf("id %q, want the file name %q", v.ID, id)
		}
		return conformance.AnswerFairness(v), nil
	}
	in, err := vectors.ParseRulesInput(data)
	if err != nil {
		return conformance.Answer{}, err
	}
	if in.ID != id {
		return conformance.Answer{}, fmt.Errorf("id %q, want the file name %q", in.ID, id)
	}
	return conformance.AnswerRules(in), nil
}
