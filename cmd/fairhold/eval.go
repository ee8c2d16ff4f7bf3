package main

import (
	"fmt"
	"strings"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/spf13/cobra"
)

func newEvalCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "eval CARDS...",
		Short: "Evaluate the best five-card hand out of 5, 6 or 7 cards",
		Long: `Evaluate the best five-card poker hand out of 5, 6 or 7 cards.

Cards are written as rank and suit: "As", "Td" or "10d", "7h", "2♣". They may be
given as separate arguments or in one quoted, space- or comma-separated list.`,
		Example: `  fairhold eval As Ks Qs Js Ts
  fairhold eval "Ah Ad 7c 7d 2s 3h 9c" --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			cs, err := card.ParseList(strings.Join(args, " "))
			if err != nil {
				return usageError(err)
			}
			if len(cs) < 5 || len(cs) > 7 {
				return usageErrorf("eval: got %d cards, want 5, 6 or 7", len(cs))
			}
			best, v, err := hand.BestFive(cs)
			if err != nil {
				return err
			}
			res := hand.Evaluation{
				Cards: card.Strings(cs), Category: v.Category().String(), Value: int(v),
				CactusKev: v.CactusKev(), BestFive: card.Strings(best[:]),
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), res)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "category:   %s\n", res.Category)
			fmt.Fprintf(w, "value:      %d (Cactus Kev %d of 7462)\n", res.Value, res.CactusKev)
			fmt.Fprintf(w, "best five:  %s\n", strings.Join(res.BestFive, " "))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
