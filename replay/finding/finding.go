// Package finding defines the findings the replayer raises: a code, a
// severity, where in the input the round was, and the expected versus the
// actual value. docs/findings.md documents every code with an example.
package finding

import "github.com/fairhold/fairhold/replay/money"

// Code identifies a kind of finding. Codes are stable: they appear in
// reports and in the simulator's fault catalogue.
type Code string

// Fairness: the cards and the seeds.
const (
	SeedCommitmentMismatch Code = "SEED_COMMITMENT_MISMATCH" // revealed server seed does not hash to its commitment
	SeedRevealedEarly      Code = "SEED_REVEALED_EARLY"      // seed revealed before its last round was played
	SeedReused             Code = "SEED_REUSED"              // a server seed used in more than one session/commitment
	NonceReused            Code = "NONCE_REUSED"             // (server seed, client input, nonce) used twice
	CommitmentLate         Code = "COMMITMENT_LATE"          // commitment published after the round was dealt
	ChainLinkBroken        Code = "CHAIN_LINK_BROKEN"        // revealed chain link does not hash to the previous one
	ChainLinkReused        Code = "CHAIN_LINK_REUSED"        // a hash-chain link served more than one round
	BeaconInvalid          Code = "BEACON_INVALID"           // drand signature does not verify
	BeaconTooEarly         Code = "BEACON_TOO_EARLY"         // beacon round published before the commitment
	BeaconRoundChosen      Code = "BEACON_ROUND_CHOSEN"      // beacon round is not the first published after the commitment
	BeaconAfterRound       Code = "BEACON_AFTER_ROUND"       // beacon round published after the round was dealt
	ChainNonceNotZero      Code = "CHAIN_NONCE_NOT_ZERO"     // a hash-chain round's nonce is not 0
	CardsMismatch          Code = "CARDS_MISMATCH"           // logged cards are not the ones the seeds deal
	CardDuplicate          Code = "CARD_DUPLICATE"           // the same card appears twice in a round
)

// Casino Hold'em settlement.
const (
	CallNotMultiple          Code = "CALL_NOT_MULTIPLE"          // call stake is not the profile's multiple of the ante
	BetOverLimit             Code = "BET_OVER_LIMIT"             // accepted stake outside the table limits (not auto-adjusted)
	AntePayoutWrong          Code = "ANTE_PAYOUT_WRONG"          // ante returned at the wrong multiple
	CallPaidNotQualified     Code = "CALL_PAID_NOT_QUALIFIED"    // call paid although the dealer did not qualify
	DealerQualificationWrong Code = "DEALER_QUALIFICATION_WRONG" // settled as if the dealer qualified with less than the qualifier (or not, with it)
	TieNotPushed             Code = "TIE_NOT_PUSHED"             // an exact tie was not returned as a push
	BonusPaidAfterFold       Code = "BONUS_PAID_AFTER_FOLD"      // AA Bonus winnings paid after a fold under forfeit-on-fold
	BonusPayoutWrong         Code = "BONUS_PAYOUT_WRONG"         // AA Bonus returned at the wrong multiple
	MaxPayoutExceeded        Code = "MAX_PAYOUT_EXCEEDED"        // winnings above the table's max payout per box
	VoidNotRefunded          Code = "VOID_NOT_REFUNDED"          // a void round did not return every stake
	ReturnMismatch           Code = "RETURN_MISMATCH"            // a return differs for a reason none of the above explains
)

// Wallets and ordering.
const (
	BalanceMismatch Code = "BALANCE_MISMATCH" // balance before - stakes + returns != balance after
	BalanceGap      Code = "BALANCE_GAP"      // a wallet's (player's) balance changed between consecutive rounds
	WalletChanged   Code = "WALLET_CHANGED"   // a player id played from a second wallet
	RoundDuplicate  Code = "ROUND_DUPLICATE"  // the same round id twice
	RoundOrder      Code = "ROUND_ORDER"      // rounds of a table out of time order
	ProfileMismatch Code = "PROFILE_MISMATCH" // the round names a profile hash other than the declared profile's
	InputDamaged    Code = "INPUT_DAMAGED"    // a row or row group that could not be read
	AmountOverflow  Code = "AMOUNT_OVERFLOW"  // an amount or a total would overflow int64
)

// Sequences: what an operator that chooses decks, drops or reorders rounds
// cannot hide (docs/threat-model.md).
const (
	NonceSequence    Code = "NONCE_SEQUENCE"     // a seed session's nonce is not the previous round's + 1 (the first is 0)
	ChainLinkSkipped Code = "CHAIN_LINK_SKIPPED" // a table's hash-chain index is not the previous round's + 1
	TableSequenceGap Code = "TABLE_SEQUENCE_GAP" // a table's round number (table_seq) is not the previous round's + 1
	RotationRate     Code = "ROTATION_RATE"      // a table rotates client seeds far more often than players usually do
)

// What was declared stays fixed.
const (
	SchemeChanged     Code = "SCHEME_CHANGED"      // a table or seed session switched fairness scheme
	ProfileChanged    Code = "PROFILE_CHANGED"     // a table switched rules profile (name or hash)
	CurrencyChanged   Code = "CURRENCY_CHANGED"    // a player's wallet switched currency
	ClientSeedChanged Code = "CLIENT_SEED_CHANGED" // a client seed changed within a seed session without a logged rotation
	PositionInvalid   Code = "POSITION_INVALID"    // a box or seat number out of the table's range, or used twice in a round
)

// Voids.
const (
	VoidBias Code = "VOID_BIAS" // voids fall on rounds the player would have won more often than chance
)

// The dataset as a whole, against its manifest.
const (
	PartMissing     Code = "PART_MISSING"     // a part the manifest lists is not in the dataset
	PartExtra       Code = "PART_EXTRA"       // a part in the dataset is not in the manifest
	PartAltered     Code = "PART_ALTERED"     // a part's SHA-256 differs from the manifest's
	PartTruncated   Code = "PART_TRUNCATED"   // a part's rows, first or last round or time range differ from the manifest's
	ManifestInvalid Code = "MANIFEST_INVALID" // the manifest cannot be read, or its signature does not verify
)

// The commitment log: the seed sessions against the operator's
// transparency log (docs/commitment-log.md; docs/replay.md "Commitment
// log").
const (
	CommitmentUnlogged      Code = "COMMITMENT_UNLOGGED"       // a session's commitment (chain anchor) is not in the commitment log
	CommitmentPublishedLate Code = "COMMITMENT_PUBLISHED_LATE" // the log's timed evidence shows the commitment public only after the session's first round
	CommitmentMisbound      Code = "COMMITMENT_MISBOUND"       // the log entry binds the commitment to another table, player, nonce, scheme or beacon
	CommitmentOutOfOrder    Code = "COMMITMENT_OUT_OF_ORDER"   // a session skipped its stream's next published commitment, or used one published before its predecessor's
	CommitmentLogInvalid    Code = "COMMITMENT_LOG_INVALID"    // the commitment log's checkpoint, entries or evidence do not verify
	CommitmentLogSplitView  Code = "COMMITMENT_LOG_SPLIT_VIEW" // the log is not an extension of a checkpoint an auditor kept: it was rewritten
)

// Double Hold'em.
const (
	DHBonusCardWrong    Code = "DH_BONUS_CARD_WRONG"    // automatic bonus card not chosen by the rule
	DHPotWrongWinner    Code = "DH_POT_WRONG_WINNER"    // a pot awarded to a player who did not win it
	DHOddChipWrong      Code = "DH_ODD_CHIP_WRONG"      // the odd chip of a split went to the wrong player
	DHSidePotWrong      Code = "DH_SIDE_POT_WRONG"      // a side pot's amount or eligibility miscomputed
	DHIllegalAction     Code = "DH_ILLEGAL_ACTION"      // an action the rules do not allow was accepted
	DHChipsNotConserved Code = "DH_CHIPS_NOT_CONSERVED" // stacks before != stacks after + rake
	DHRakeOverCap       Code = "DH_RAKE_OVER_CAP"       // rake above the profile's percentage or cap
)

// Severity grades a finding.
type Severity string

const (
	// Critical: the cards or the money are wrong to the player's or the
	// operator's detriment.
	Critical Severity = "critical"
	// Major: a rule of the scheme or the profile was broken.
	Major Severity = "major"
	// Minor: a record-keeping defect that changes no outcome.
	Minor Severity = "minor"
)

// Finding is one problem found in one round.
//
// Expected and Actual are the replay's and the log's values as text, for
// a reader. A finding about money paid to or held by a player (a return, a
// balance, a stack, a pot, a share, the rake, the chips of a hand; see
// docs/findings.md) also carries the two amounts as integers, in minor
// units of Currency, and their difference, so that a query engine can sum
// them; the other findings leave the three amounts nil (null in Parquet,
// absent in JSON). Set them with [Finding.SetAmounts].
type Finding struct {
	Code     Code     `json:"code" parquet:"code"`
	Severity Severity `json:"severity" parquet:"severity"`
	RoundID  string   `json:"round_id" parquet:"round_id"`
	File     string   `json:"file" parquet:"file"`
	Row      int64    `json:"row" parquet:"row"`     // row index within the file, from 0
	Field    string   `json:"field" parquet:"field"` // the field or column concerned
	Expected string   `json:"expected" parquet:"expected"`
	Actual   string   `json:"actual" parquet:"actual"`
	Detail   string   `json:"detail,omitempty" parquet:"detail"`

	// PlayerID is the player concerned, when one is: the player of the
	// box or seat the finding is about (a pot's share is reported per
	// seat), or of a round's only box (the RNG game); empty otherwise.
	PlayerID string `json:"player_id,omitempty" parquet:"player_id,optional"`
	// Currency is the round's currency (empty for damaged input the reader
	// reports: a file, row group or row that could not be read).
	Currency string `json:"currency,omitempty" parquet:"currency,optional"`
	// ExpectedAmount and ActualAmount are, for a money finding, the
	// amount the replay expected and the amount the log holds, in minor
	// units; nil otherwise.
	ExpectedAmount *int64 `json:"expected_amount,omitempty" parquet:"expected_amount,optional"`
	ActualAmount   *int64 `json:"actual_amount,omitempty" parquet:"actual_amount,optional"`
	// Difference is ActualAmount - ExpectedAmount: an amount paid to or
	// held by a player that is short is negative. Nil when either amount
	// is, or when the difference would overflow int64 (Detail says so).
	Difference *int64 `json:"difference,omitempty" parquet:"difference,optional"`

	// Time, TableID and Game are the round's, for a finding about a
	// round (set once per round by the replay: [Finding.SetRound]). Time is
	// when the round was dealt, RFC 3339 in UTC with the shortest fraction
	// that keeps its microseconds ("2026-11-29T10:15:03.25Z"), as the round
	// logs and the manifest write times; empty when the round's time could
	// not be read (an INPUT_DAMAGED finding on field time says why). A
	// finding about a table (VOID_BIAS, ROTATION_RATE) has its table and
	// game and no time, a finding about a game's tables pooled its game
	// only; the reader's damage and the dataset's findings against its
	// manifest have none of them.
	Time    string `json:"time,omitempty" parquet:"time,optional"`
	TableID string `json:"table_id,omitempty" parquet:"table_id,optional"`
	Game    string `json:"game,omitempty" parquet:"game,optional"`
}

// SetRound sets f's round time (already formatted), table and game, and
// its currency when f has none.
func (f *Finding) SetRound(time, tableID, game, currency string) {
	f.Time, f.TableID, f.Game = time, tableID, game
	if f.Currency == "" {
		f.Currency = currency
	}
}

// SetAmounts sets f's expected and actual amounts and their difference,
// actual - expected, in checked arithmetic: a difference that would
// overflow int64 is left nil and Detail says so. It allocates once.
func (f *Finding) SetAmounts(expected, actual int64) {
	a := new([3]int64)
	a[0], a[1] = expected, actual
	f.ExpectedAmount, f.ActualAmount = &a[0], &a[1]
	d, err := money.Sub(actual, expected)
	if err != nil {
		f.AddDetail(DifferenceOverflow)
		return
	}
	a[2] = d
	f.Difference = &a[2]
}

// DifferenceOverflow is the note Detail gets when a finding's difference
// would overflow int64.
const DifferenceOverflow = "difference overflows int64, left null"

// AddDetail appends note to f's Detail, after a "; " when Detail is not
// empty.
func (f *Finding) AddDetail(note string) {
	if f.Detail == "" {
		f.Detail = note
		return
	}
	f.Detail += "; " + note
}
