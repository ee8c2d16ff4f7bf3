package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/fairhold/fairhold/replay/atomicfile"
)

// The command reference is generated from the command tree into
// docs/cli/*.md and docs/man/*.1; TestGeneratedDocs fails when they are
// stale. Regenerate with:
//
//	go run ./cmd/fairhold gendocs docs
const regenerateDocs = "go run ./cmd/fairhold gendocs docs"

func newGendocsCmd() *cobra.Command {
	var release bool
	cmd := &cobra.Command{
		Use:   "gendocs DIR",
		Short: "Write the command reference: DIR/cli/*.md (Markdown) and DIR/man/*.1 (man pages)",
		Long: `Write the command reference: DIR/cli/*.md (Markdown) and DIR/man/*.1 (man pages),
as committed under docs/.

With --release, write instead what a release archive carries besides the
binary (.goreleaser.yaml, docs/release.md): DIR/man/man1/*.1, the man pages,
and DIR/completions/ with fairhold.bash, _fairhold (zsh), fairhold.fish and
fairhold.ps1 (PowerShell), each exactly what fairhold completion SHELL prints.`,
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if release {
				return writeReleaseDocs(cmd.Root(), args[0])
			}
			return writeDocs(cmd.Root(), args[0])
		},
	}
	cmd.Flags().BoolVar(&release, "release", false, "write the man pages and completion scripts of a release archive")
	return cmd
}

// writeDocs writes the Markdown reference and the man pages of root's tree
// under dir, replacing what a previous run wrote there. The output depends
// only on the tree: no date, no generator tag.
func writeDocs(root *cobra.Command, dir string) error {
	md, man := filepath.Join(dir, "cli"), filepath.Join(dir, "man")
	if err := cleanDir(md, "fairhold*"); err != nil {
		return err
	}
	prepareDocs(root)
	if err := doc.GenMarkdownTree(root, md); err != nil {
		return fmt.Errorf("gendocs: %w", err)
	}
	return writeManPages(root, man)
}

// prepareDocs makes the generated pages depend on the tree only: no
// generator tag, and the --version flag documented.
func prepareDocs(root *cobra.Command) {
	root.DisableAutoGenTag = true
	root.InitDefaultVersionFlag()
	walk(root, func(c *cobra.Command) { c.DisableAutoGenTag = true })
}

// cleanDir creates dir and removes what a previous run wrote there: the
// files matching pattern.
func cleanDir(dir, pattern string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gendocs: %w", err)
	}
	old, _ := filepath.Glob(filepath.Join(dir, pattern))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return fmt.Errorf("gendocs: %w", err)
		}
	}
	return nil
}

// writeManPages writes the man pages of root's tree into dir, one per
// command, replacing those of a previous run.
func writeManPages(root *cobra.Command, dir string) error {
	if err := cleanDir(dir, "fairhold*"); err != nil {
		return err
	}
	prepareDocs(root)
	// A fixed date: the pages depend on the tree only.
	date := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	hdr := &doc.GenManHeader{Title: "FAIRHOLD", Section: "1", Source: "fairhold", Manual: "fairhold manual", Date: &date}
	if err := doc.GenManTree(root, hdr, dir); err != nil {
		return fmt.Errorf("gendocs: %w", err)
	}
	return nil
}

// completionFiles names the completion script of each shell in a release
// archive's completions/ folder, under the names the shells look for, and
// writes it as cobra's completion command does (with descriptions, the
// default of `fairhold completion SHELL`; the script testdata/script/
// release-docs.txtar checks they are the same bytes).
var completionFiles = []struct {
	shell, file string
	gen         func(root *cobra.Command, w io.Writer) error
}{
	{"bash", "fairhold.bash", func(r *cobra.Command, w io.Writer) error { return r.GenBashCompletionV2(w, true) }},
	{"zsh", "_fairhold", func(r *cobra.Command, w io.Writer) error { return r.GenZshCompletion(w) }},
	{"fish", "fairhold.fish", func(r *cobra.Command, w io.Writer) error { return r.GenFishCompletion(w, true) }},
	{"powershell", "fairhold.ps1", func(r *cobra.Command, w io.Writer) error { return r.GenPowerShellCompletionWithDesc(w) }},
}

// writeReleaseDocs writes the man pages of root's tree into dir/man/man1
// and the four completion scripts into dir/completions.
func writeReleaseDocs(root *cobra.Command, dir string) error {
	if err := writeManPages(root, filepath.Join(dir, "man", "man1")); err != nil {
		return err
	}
	comp := filepath.Join(dir, "completions")
	if err := os.MkdirAll(comp, 0o755); err != nil {
		return fmt.Errorf("gendocs: %w", err)
	}
	for _, c := range completionFiles {
		var b bytes.Buffer
		if err := c.gen(root, &b); err != nil {
			return fmt.Errorf("gendocs: %s completion: %w", c.shell, err)
		}
		if err := atomicfile.WriteFile(filepath.Join(comp, c.file), b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("gendocs: %w", err)
		}
	}
	return nil
}
