package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/settle"
	"github.com/spf13/cobra"
)

func newSettleCmd() *cobra.Command {
	var asJSON bool
	var profileArg string
	cmd := &cobra.Command{
		Use:   "settle [--profile NAME|FILE] ROUND.json",
		Short: "Settle one round under a rules profile and print each bet's return and reason",
		Long: `Settle one round: the JSON of one round record, the same shape as one line of a
JSON Lines round log ("-" reads standard input). Casino Hold'em rounds print each
box's ANTE, CALL and AA BONUS stake, return and reason; Double Hold'em hands are
replayed action by action and print the pots, winners, rake and stacks after.

The profile defaults to the round's "profile" field when that names a built-in.
The logged returns (and Double Hold'em stacks after) are compared with the
rules': each that differs is printed with both amounts, and the command exits 3.
A round that cannot be settled (a malformed field, an illegal action) exits 2
with the field or action that is wrong.

Exit codes: 0 settled and the logged amounts agree, 3 a logged amount differs
from the rules', 2 usage or malformed round, 1 I/O error.`,
		Example: `  fairhold settle --profile casino-holdem round.json
  fairhold settle --profile my-table.json round.json --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, name, err := readFileOrStdin(cmd, args[0])
			if err != nil {
				return usageError(err)
			}
			var r round.Round
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil {
				var te *json.UnmarshalTypeError
				switch {
				case errors.As(err, &te) && te.Field == "":
					return usageErrorf("round %s: got a JSON %s, want an object (one round)", name, te.Value)
				case errors.As(err, &te):
					return usageErrorf("round %s: %s: got a JSON %s, want %s", name, te.Field, te.Value, te.Type)
				case errors.Is(err, io.EOF):
					return usageErrorf("round %s: empty; want one JSON round", name)
				}
				return usageErrorf("round %s: %v", name, err)
			}
			if dec.More() {
				return usageErrorf("round %s: trailing data after the round; settle takes exactly one round", name)
			}
			if profileArg == "" {
				profileArg = r.Profile
			}
			if profileArg == "" {
				return usageErrorf("round %s: no --profile given and the round names none", name)
			}
			p, err := profile.Load(profileArg)
			if err != nil {
				return usageError(err)
			}
			if h := p.Hash(); r.ProfileHash != "" && r.ProfileHash != h {
				fmt.Fprintf(cmd.ErrOrStderr(), "fairhold: note: the round was logged under profile hash %s; settling under %s\n", r.ProfileHash, h)
			}
			out, err := settle.Round(p, &r)
			var ue *settle.UnsettledError
			switch {
			case errors.As(err, &ue):
				return usageErrorf("round %s: %v", name, ue.Err)
			case err != nil:
				return fmt.Errorf("round %s: %w", name, err)
			}
			diffs := settle.Diffs(out, &r)
			if asJSON {
				if err := writeResult(cmd.OutOrStdout(), verdictOf(len(diffs) == 0, verdictOK), settleOutput{out, diffs}); err != nil {
					return err
				}
			} else {
				if err := printSettlement(cmd.OutOrStdout(), out, &r); err != nil {
					return err
				}
				if err := printDiffs(cmd.OutOrStdout(), diffs); err != nil {
					return err
				}
			}
			if len(diffs) > 0 {
				return errVerificationFailed
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&profileArg, "profile", "", "rules profile: a built-in name or a JSON file (default: the round's profile)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func printSettlement(w io.Writer, o *settle.Result, r *round.Round) error {
	fmt.Fprintf(w, "round %s  game %s  profile %s  sha256 %s\n", o.RoundID, o.Game, o.Profile, o.ProfileHash)
	if o.Void {
		fmt.Fprintln(w, "void: every stake returned, nothing paid")
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if o.Double == nil {
		fmt.Fprintln(tw, "box\tbet\tstake\treturn\treason")
		for _, b := range o.Boxes {
			hands := ""
			if b.PlayerHand != "" {
				hands = fmt.Sprintf(" (player %s, dealer %s)", b.PlayerHand, b.DealerHand)
			}
			flags := ""
			if b.Capped {
				flags += ", capped by max payout"
			}
			if b.Unfinished {
				flags += ", unfinished: " + b.Decision
			}
			if b.AnteAdjusted {
				flags += ", ante auto-adjusted"
			}
			fmt.Fprintf(tw, "%d\tante\t%d\t%d\t%s%s%s\n", b.Box, b.Ante, b.AnteReturn, b.Reason, hands, flags)
			if b.Call > 0 {
				fmt.Fprintf(tw, "%d\tcall\t%d\t%d\t%s\n", b.Box, b.Call, b.CallReturn, b.Reason)
			}
			if b.Bonus > 0 {
				bh := ""
				if b.BonusHand != "" {
					bh = " (" + b.BonusHand + ")"
				}
				fmt.Fprintf(tw, "%d\taa-bonus\t%d\t%d\t%s%s\n", b.Box, b.Bonus, b.BonusReturn, b.BonusReason, bh)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "staked %d, returned %d\n", o.Totals.Staked, o.Totals.Returned)
		return nil
	}
	d := o.Double
	for i, pot := range d.Pots {
		name := "main pot"
		if i > 0 {
			name = fmt.Sprintf("side pot %d", i)
		}
		fmt.Fprintf(tw, "%s\t%d\teligible %v\twinners %v\tshares %v\n", name, pot.Amount, pot.Eligible, pot.Winners, pot.Shares)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if d.Uncalled > 0 {
		fmt.Fprintf(w, "uncalled %d returned to seat %d\n", d.Uncalled, d.UncalledSeat)
	}
	fmt.Fprintf(w, "rake %d  street %s  showdown %v\n", d.Rake, d.Street, d.Showdown)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "seat\tstack before\tput in\tstack after\tbonus card\thand")
	seats := make([]int, 0, len(d.StackAfter))
	for s := range d.StackAfter {
		seats = append(seats, s)
	}
	sort.Ints(seats)
	before := map[int]int64{}
	if r.Double != nil {
		for _, s := range r.Double.Seats {
			before[s.Seat] = s.StackBefore
		}
	}
	for _, s := range seats {
		bc := d.BonusCards[s]
		if bc != "" && d.BonusAuto[s] {
			bc += " (auto)"
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%s\t%s\n", s, before[s], d.Contributed[s], d.StackAfter[s], bc, d.Hands[s])
	}
	return tw.Flush()
}

// settleOutput is the JSON of settle --json: the settlement, and the
// logged amounts that differ from it.
type settleOutput struct {
	*settle.Result
	Mismatches []settle.Diff `json:"mismatches"`
}

// printDiffs prints the logged amounts that differ from the rules', or
// that they agree.
func printDiffs(w io.Writer, diffs []settle.Diff) error {
	if len(diffs) == 0 {
		_, err := fmt.Fprintln(w, "the logged returns are the rules'")
		return err
	}
	for _, d := range diffs {
		if _, err := fmt.Fprintf(w, "MISMATCH %s: the rules give %d, the log says %d\n", d.Field, d.Rules, d.Logged); err != nil {
			return err
		}
	}
	return nil
}
