package commitlog

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
)

// entryJSON is the JSON form of an entry (docs/commitment-log.md section
// 2.3). 64-bit numbers are decimal strings.
type entryJSON struct {
	Operator    string `json:"operator"`
	Table       string `json:"table"`
	Player      string `json:"player,omitempty"`
	Scheme      string `json:"scheme"`
	Commitment  string `json:"commitment,omitempty"`
	FirstNonce  string `json:"first_nonce,omitempty"`
	ChainAnchor string `json:"chain_anchor,omitempty"`
	BeaconChain string `json:"beacon_chain,omitempty"`
	BeaconRound string `json:"beacon_round,omitempty"`
}

// MarshalJSON writes the entry's JSON form.
func (e Entry) MarshalJSON() ([]byte, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	j := entryJSON{Operator: e.Operator, Table: e.Table, Player: e.Player, Scheme: e.Scheme, BeaconChain: e.BeaconChain}
	if e.Commitment != nil {
		j.Commitment = hex.EncodeToString(e.Commitment[:])
		j.FirstNonce = strconv.FormatUint(e.FirstNonce, 10)
	}
	if e.ChainAnchor != nil {
		j.ChainAnchor = hex.EncodeToString(e.ChainAnchor[:])
	}
	if e.BeaconRound != 0 {
		j.BeaconRound = strconv.FormatUint(e.BeaconRound, 10)
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the JSON form strictly: unknown fields, upper-case
// hex, numbers that are not canonical decimal strings are errors naming
// the field.
func (e *Entry) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var j entryJSON
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("commitment log entry: %w", err)
	}
	out := Entry{Operator: j.Operator, Table: j.Table, Player: j.Player, Scheme: j.Scheme, BeaconChain: j.BeaconChain}
	var err error
	if j.Commitment != "" {
		if out.Commitment, err = parseHash(0, "commitment", j.Commitment); err != nil {
			return err
		}
		if j.FirstNonce == "" {
			return fieldErr(0, "first_nonce", "missing; want a decimal string (\"0\" for a new seed)")
		}
	}
	if j.FirstNonce != "" {
		if j.Commitment == "" {
			return fieldErr(0, "first_nonce", "given without a commitment")
		}
		if out.FirstNonce, err = parseDecimal(0, "first_nonce", j.FirstNonce, false); err != nil {
			return err
		}
	}
	if j.ChainAnchor != "" {
		if out.ChainAnchor, err = parseHash(0, "chain_anchor", j.ChainAnchor); err != nil {
			return err
		}
	}
	if j.BeaconRound != "" {
		if out.BeaconRound, err = parseDecimal(0, "beacon_round", j.BeaconRound, true); err != nil {
			return err
		}
	}
	if err := out.Validate(); err != nil {
		return err
	}
	*e = out
	return nil
}
