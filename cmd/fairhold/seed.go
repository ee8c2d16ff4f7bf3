package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/atomicfile"
)

func newSeedCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "seed",
		Short: "Server seeds and their commitments",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newSeedNewCmd())
	return cmd
}

func newSeedNewCmd() *cobra.Command {
	var n int
	var out string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "new",
		Short: "Generate a server seed and its commitment, or a hash chain and its anchor",
		Long: `Generate a fresh server seed (32 bytes from the operating system's CSPRNG) and its
commitment SHA-256(seed), or with --chain N a hash chain of N seeds and its
anchor, the commitment to the whole chain (docs/fairness.md).

The seed is a secret until it is revealed. It is printed to stdout only, or
with --out written to FILE (created with mode 0600, never overwritten), in
which case only the commitment is printed. It never appears in a log line or
an error message.

A chain file holds the line "fairhold-chain/v1", then the anchor, then
links 1..N, one per line in 64 lowercase hex digits; round i uses link i.`,
		Example: `  fairhold seed new
  fairhold seed new --chain 10000 --out table-7.chain --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("out") && out == "" {
				// An empty --out must not fall back to printing the secret.
				return usageErrorf("--out: empty file name")
			}
			if cmd.Flags().Changed("chain") && (n < 1 || n > chain.MaxLength) {
				return usageErrorf("--chain: %d links, want 1..%d", n, chain.MaxLength)
			}
			var o seed.Generated
			var secret []byte
			if n == 0 {
				s, err := seed.New()
				if err != nil {
					return err
				}
				o.Commitment = seed.Commit(s).Hex()
				o.ServerSeed = s.Hex()
				secret = []byte(s.Hex() + "\n")
			} else {
				c, err := chain.New(n)
				if err != nil {
					return err
				}
				o.Commitment, o.Chain = c.Anchor().Hex(), c.Len()
				for _, l := range c.Links[1:] {
					o.Links = append(o.Links, l.Hex())
				}
				secret = c.Marshal()
			}
			if out != "" {
				if err := writeSecretFile(out, secret); err != nil {
					return err
				}
				o.ServerSeed, o.Links, o.Out = "", nil, out
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return writeResult(w, verdictOK, o)
			}
			return writeSeedText(w, o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&n, "chain", 0, "generate a hash chain of N seeds instead of one seed")
	f.StringVar(&out, "out", "", "write the secret (seed or chain file) to FILE, mode 0600, instead of stdout")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// writeSeedText prints o for people.
func writeSeedText(w io.Writer, o seed.Generated) error {
	var err error
	p := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	if o.Chain > 0 {
		p("anchor:      %s\n", o.Commitment)
		p("links:       %d\n", o.Chain)
		for i, l := range o.Links {
			p("link %-6d %s\n", i+1, l)
		}
	} else {
		if o.ServerSeed != "" {
			p("server seed: %s\n", o.ServerSeed)
		}
		p("commitment:  %s\n", o.Commitment)
	}
	if o.Out != "" {
		p("secret written to %s (mode 0600)\n", o.Out)
	}
	return err
}

// writeSecretFile creates path with mode 0600 and writes b. It refuses to
// overwrite an existing file. The file is written under a temporary name
// and linked to path once whole, so that no partial secret is ever at path;
// on error the temporary file is removed. Errors name the file, never the
// content.
func writeSecretFile(path string, b []byte) error {
	if _, err := os.Lstat(path); err == nil {
		return usageErrorf("--out: %s already exists; refusing to overwrite a secret", path)
	}
	f, err := atomicfile.CreateMode(path, 0o600)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	if err := f.CommitNew(); err != nil {
		if errors.Is(err, os.ErrExist) {
			return usageErrorf("--out: %s already exists; refusing to overwrite a secret", path)
		}
		return err
	}
	return nil
}
