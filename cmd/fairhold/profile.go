package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/fairhold/fairhold/replay/profile"
	"github.com/spf13/cobra"
)

func newProfileCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "Show and check rules profiles",
		Long: `A rules profile is the JSON document that fully determines how a game is settled:
paytables, the dealer qualifier, limits, the call multiple, the AA Bonus, unfinished
rounds, and for Double Hold'em the betting structure, blinds, rake and bonus-card rule.
Built-in profiles: ` + strings.Join(profile.Names(), ", ") + `. A profile is identified by the
SHA-256 of its canonical form (docs/rules-profiles.md).`,
	}
	cmd.AddCommand(newProfileShowCmd(), newProfileCheckCmd())
	return cmd
}

func newProfileShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME|FILE",
		Short: "Print a built-in or file profile, every setting and its hash",
		Example: `  fairhold profile show casino-holdem
  fairhold profile show my-table.json --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := profile.Load(args[0])
			if err != nil {
				return usageError(err)
			}
			if asJSON {
				return writeResult(cmd.OutOrStdout(), verdictOK, profile.Identify(p))
			}
			return printProfile(cmd.OutOrStdout(), p)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: the hash and the profile")
	return cmd
}

func newProfileCheckCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check FILE",
		Short: "Validate a profile file; exit 2 with the offending field if it is invalid",
		Long: `Validate a profile file (or a built-in name) and print its name, version, game
and hash. An invalid profile exits 2 naming the offending field; a file that
cannot be read exits 1.`,
		Example: `  fairhold profile check my-table.json --json`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := profile.Load(args[0])
			if err != nil {
				return usageError(err)
			}
			if asJSON {
				return writeResult(cmd.OutOrStdout(), verdictOK, profile.Identify(p))
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "ok %s version %d (%s) sha256 %s\n", p.Name, p.Version, p.Game, p.Hash())
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: the hash and the profile")
	return cmd
}

// printProfile writes the header and every setting as a dotted path and
// its value, in canonical order.
func printProfile(w io.Writer, p *profile.Profile) error {
	fmt.Fprintf(w, "name:     %s\nversion:  %d\ngame:     %s\nsha256:   %s\n", p.Name, p.Version, p.Game, p.Hash())
	fmt.Fprintf(w, "about:    %s\n\n", p.Description)
	dec := json.NewDecoder(bytes.NewReader(p.Canonical()))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	var lines [][2]string
	flatten("", doc, &lines, orderOf(p.Canonical()))
	width := 0
	for _, l := range lines {
		width = max(width, len(l[0]))
	}
	for _, l := range lines {
		switch {
		case l[0] == "name" || l[0] == "version" || l[0] == "game" || l[0] == "description":
			continue
		}
		fmt.Fprintf(w, "%-*s  %s\n", width, l[0], l[1])
	}
	return nil
}

// orderOf returns, for each object path, its keys in document order.
func orderOf(b []byte) map[string][]string {
	out := map[string][]string{}
	var walk func(path string, dec *json.Decoder)
	walk = func(path string, dec *json.Decoder) {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				k, _ := dec.Token()
				key, _ := k.(string)
				out[path] = append(out[path], key)
				walk(joinPath(path, key), dec)
			}
			_, _ = dec.Token()
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				walk(fmt.Sprintf("%s[%d]", path, i), dec)
			}
			_, _ = dec.Token()
		}
	}
	walk("", json.NewDecoder(bytes.NewReader(b)))
	return out
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func flatten(path string, v any, out *[][2]string, order map[string][]string) {
	switch x := v.(type) {
	case map[string]any:
		keys := order[path]
		if len(keys) != len(x) {
			keys = keys[:0]
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
		}
		for _, k := range keys {
			flatten(joinPath(path, k), x[k], out, order)
		}
	case []any:
		if len(x) == 0 {
			*out = append(*out, [2]string{path, "[]"})
		}
		allScalar := true
		for _, e := range x {
			if _, ok := e.(map[string]any); ok {
				allScalar = false
			}
		}
		if allScalar && len(x) > 0 {
			var s []string
			for _, e := range x {
				s = append(s, fmt.Sprint(e))
			}
			*out = append(*out, [2]string{path, strings.Join(s, ", ")})
			return
		}
		for i, e := range x {
			flatten(fmt.Sprintf("%s[%d]", path, i), e, out, order)
		}
	default:
		*out = append(*out, [2]string{path, fmt.Sprint(x)})
	}
}
