package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/fairness/beacon"
)

func newBeaconCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "beacon",
		Short: "drand public randomness beacons",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newBeaconVerifyCmd())
	return cmd
}

func newBeaconVerifyCmd() *cobra.Command {
	var chainName, sig, prev string
	var round uint64
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Verify a drand round's BLS signature and print its randomness",
		Long: `Verify the BLS signature of a drand round and print its randomness,
SHA-256(signature), and the time the round was published.

Chains: quicknet (unchained, signatures on G1, 48 bytes) and default (chained,
signatures on G2, 96 bytes; give the previous round's signature with
--previous-signature).

Exit codes: 0 valid, 3 invalid, 2 malformed input.`,
		Example: `  fairhold beacon verify --chain quicknet --round 1000 --signature b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39 --json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := beacon.Lookup(chainName)
			if err != nil {
				return usageErrorf("--chain: %v", err)
			}
			s, err := parseHexFlag("signature", sig, -1)
			if err != nil {
				return err
			}
			var p []byte
			if prev != "" {
				if p, err = parseHexFlag("previous-signature", prev, -1); err != nil {
					return err
				}
			}
			if err := c.CheckRound(round); err != nil {
				return usageErrorf("--round: %v", err)
			}
			o := beacon.Verdict{Chain: c.Name, Round: round, PublishedAt: c.RoundTime(round).Format(time.RFC3339)}
			r, err := c.Verify(round, s, p)
			switch {
			case errors.Is(err, beacon.ErrInput):
				flag := "signature"
				if len(s) == c.SigSize {
					// The round and the signature are fine, so it is the
					// previous signature that is missing or malformed.
					flag = "previous-signature"
				}
				return usageErrorf("--%s: %v", flag, err)
			case err != nil:
				o.Detail = err.Error()
			default:
				o.Valid = true
				o.Randomness = fmt.Sprintf("%x", r)
			}
			if asJSON {
				err = writeResult(cmd.OutOrStdout(), verdictOf(o.Valid, verdictVerified), o)
			} else if o.Valid {
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "valid: %s round %d, published %s\nrandomness: %s\n", o.Chain, o.Round, o.PublishedAt, o.Randomness)
			} else {
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "INVALID: %s\n", o.Detail)
			}
			if err != nil {
				return err
			}
			if !o.Valid {
				return errVerificationFailed
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&chainName, "chain", beacon.Quicknet, "drand chain: quicknet or default")
	f.Uint64Var(&round, "round", 0, "the round number")
	f.StringVar(&sig, "signature", "", "the round's signature, hex")
	f.StringVar(&prev, "previous-signature", "", "default chain: the previous round's signature, hex")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("round")
	_ = cmd.MarkFlagRequired("signature")
	return cmd
}
