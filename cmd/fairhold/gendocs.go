package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// The command reference is generated from the command tree into
// docs/cli/*.md and docs/man/*.1; TestGeneratedDocs fails when they are
// stale. Regenerate with:
//
//	go run ./cmd/fairhold gendocs docs
const regenerateDocs = "go run ./cmd/fairhold gendocs docs"

func newGendocsCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "gendocs DIR",
		Short:  "Write the command reference: DIR/cli/*.md (Markdown) and DIR/man/*.1 (man pages)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return writeDocs(cmd.Root(), args[0])
		},
	}
}

// writeDocs writes the Markdown reference and the man pages of root's tree
// under dir, replacing what a previous run wrote there. The output depends
// only on the tree: no date, no generator tag.
func writeDocs(root *cobra.Command, dir string) error {
	root.DisableAutoGenTag = true
	root.InitDefaultVersionFlag()
	walk(root, func(c *cobra.Command) { c.DisableAutoGenTag = true })
	md, man := filepath.Join(dir, "cli"), filepath.Join(dir, "man")
	for _, d := range []string{md, man} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("gendocs: %w", err)
		}
		old, _ := filepath.Glob(filepath.Join(d, "fairhold*"))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return fmt.Errorf("gendocs: %w", err)
			}
		}
	}
	if err := doc.GenMarkdownTree(root, md); err != nil {
		return fmt.Errorf("gendocs: %w", err)
	}
	// A fixed date: the pages depend on the tree only.
	date := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	hdr := &doc.GenManHeader{Title: "FAIRHOLD", Section: "1", Source: "fairhold", Manual: "fairhold manual", Date: &date}
	if err := doc.GenManTree(root, hdr, man); err != nil {
		return fmt.Errorf("gendocs: %w", err)
	}
	return nil
}
