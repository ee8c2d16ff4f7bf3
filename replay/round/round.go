// Package round defines the record of one played round, the unit of the
// round logs and of `fairhold settle`.
//
// One [Round] describes one round of any of the three games, with its
// fairness fields (what the cards were derived from), the cards dealt, the
// bets as requested and as accepted, the decisions taken, and the returns
// and balances the operator recorded. The JSON form of a Round is one line
// of a JSON Lines round log (docs/log-format.md); the Parquet form flattens
// the same fields into tables joined by round id.
//
// Money is an int64 count of minor units of [Round.Currency] (an ISO 4217
// code or a crypto ticker; package currency gives the decimals).
// A "return" is what the bet gives back to the player: 0 for a lost bet,
// the stake for a push, the stake plus winnings for a win.
//
// Fields are only ever added; a new field must be optional (omitempty) so
// older records stay valid.
package round

// Games.
const (
	CasinoHoldem     = "casino-holdem"
	LiveCasinoHoldem = "live-casino-holdem"
	DoubleHoldem     = "double-holdem"
)

// Round is one played round.
type Round struct {
	RoundID  string `json:"round_id"`
	Game     string `json:"game"` // CasinoHoldem, LiveCasinoHoldem or DoubleHoldem
	TableID  string `json:"table_id"`
	Time     string `json:"time"`     // RFC 3339 UTC, when the round was dealt
	Currency string `json:"currency"` // ISO 4217, e.g. "EUR", or a declared crypto currency code (docs/log-format.md)

	// TableSeq is the round's number at its table, from 1, consecutive in
	// time order (0 = not logged). It is what shows a dropped round.
	TableSeq uint64 `json:"table_seq,omitempty"`

	// WalletIDs name the wallet (the player's account) of each box or
	// seat, in box (seat) order: WalletIDs[k] is the wallet of Boxes[k]
	// (Double.Seats[k]). Empty when the log does not name wallets: a
	// player id is then taken as its own wallet. A wallet carries its
	// balance across changes of player id (docs/log-format.md).
	WalletIDs []string `json:"wallet_ids,omitempty"`

	// Profile names the rules profile the round was played under and its
	// SHA-256 (hex) over the canonical form.
	Profile     string `json:"profile"`
	ProfileHash string `json:"profile_hash,omitempty"`

	Fairness Fairness `json:"fairness"`

	// Cards as dealt, canonical notation ("As").
	Dealer []string `json:"dealer,omitempty"` // Casino Hold'em games: the dealer's 2 cards
	Board  []string `json:"board"`            // community cards: flop, turn, river (5; fewer when a Double Hold'em hand ended early, or a Casino Hold'em round ended in a fold: see docs/log-format.md)

	// Casino Hold'em (RNG: exactly one box; live table: 1..6 boxes).
	Boxes []Box `json:"boxes,omitempty"`

	// Double Hold'em.
	Double *DoubleHand `json:"double,omitempty"`

	// Void marks a round voided for a malfunction or misdeal: every stake
	// is returned and nothing is paid.
	Void       bool   `json:"void,omitempty"`
	VoidReason string `json:"void_reason,omitempty"`
}

// Fairness holds what the round's cards were derived from
// (docs/fairness.md).
type Fairness struct {
	Scheme     string `json:"scheme"`     // "fairhold/v1" or "stake-compat"
	Commitment string `json:"commitment"` // hex SHA-256 published before the round
	// CommittedAt is when the commitment was published (RFC 3339 UTC).
	CommittedAt string `json:"committed_at,omitempty"`
	// ServerSeed is the revealed server seed (hex), or the revealed chain
	// link when the table uses a hash chain.
	ServerSeed string `json:"server_seed"`
	// RevealedAt is when the server seed was revealed (RFC 3339 UTC).
	RevealedAt string `json:"revealed_at,omitempty"`
	// ChainIndex is the link's position in its hash chain, when the table
	// commits to a chain (0 = not a chain).
	ChainIndex uint64 `json:"chain_index,omitempty"`
	// ClientSeeds are the client seeds of the seated players in seat order
	// (one for a single-player game).
	ClientSeeds []string `json:"client_seeds"`
	Nonce       uint64   `json:"nonce"`
	// ClientSeedRotated marks the first round dealt after a player rotated
	// a client seed within the seed session: the one logged event that
	// lets a client seed change within a session.
	ClientSeedRotated bool `json:"client_seed_rotated,omitempty"`
	// Beacon is the drand round mixed into the stream, if any.
	BeaconChain     string `json:"beacon_chain,omitempty"` // "quicknet" or "default"
	BeaconRound     uint64 `json:"beacon_round,omitempty"`
	BeaconSignature string `json:"beacon_signature,omitempty"`
	// BeaconPreviousSignature is needed for the chained "default" chain.
	BeaconPreviousSignature string `json:"beacon_previous_signature,omitempty"`
}

// Box is one box (one player's position) at a Casino Hold'em table.
type Box struct {
	Box      int      `json:"box"` // 1..6, the seat order used for dealing
	PlayerID string   `json:"player_id"`
	Cards    []string `json:"cards"` // the box's 2 cards

	// Requested stakes as the player asked; accepted stakes after the
	// table's auto-adjust (what is at stake).
	AnteRequested  int64 `json:"ante_requested"`
	Ante           int64 `json:"ante"`
	BonusRequested int64 `json:"bonus_requested,omitempty"`
	Bonus          int64 `json:"bonus,omitempty"`

	// Decision is "call", "fold", or "" for an unfinished round (settled by
	// the profile's unfinished-round policy).
	Decision string `json:"decision"`
	Call     int64  `json:"call"` // the call stake (0 after a fold)

	// Returns as recorded by the operator.
	AnteReturn  int64 `json:"ante_return"`
	CallReturn  int64 `json:"call_return"`
	BonusReturn int64 `json:"bonus_return"`

	BalanceBefore int64 `json:"balance_before"`
	BalanceAfter  int64 `json:"balance_after"`
}

// DoubleHand is one hand of Double Hold'em (player versus player).
type DoubleHand struct {
	Button     int      `json:"button"` // seat number holding the button
	SmallBlind int64    `json:"small_blind"`
	BigBlind   int64    `json:"big_blind"`
	Seats      []Seat   `json:"seats"`   // in seat order
	Actions    []Action `json:"actions"` // in the order taken, blinds first
	Pots       []Pot    `json:"pots"`    // main pot first, as the operator awarded them
	Rake       int64    `json:"rake"`
}

// Seat is one player at a Double Hold'em table.
type Seat struct {
	Seat     int      `json:"seat"` // 1..10, clockwise
	PlayerID string   `json:"player_id"`
	Cards    []string `json:"cards"` // 3 hole cards, left to right as dealt
	// BonusCard is the chosen bonus card; BonusAuto is true when the
	// software chose it (timeout or all-in before the flop).
	BonusCard   string `json:"bonus_card,omitempty"`
	BonusAuto   bool   `json:"bonus_auto,omitempty"`
	StackBefore int64  `json:"stack_before"`
	StackAfter  int64  `json:"stack_after"`
}

// Action is one betting action. Amount is the chips the action puts in the
// pot (0 for check and fold); for a bet or raise it is the chips added, not
// the total.
type Action struct {
	Seat   int    `json:"seat"`
	Street string `json:"street"` // "preflop", "flop", "turn", "river"
	Kind   string `json:"kind"`   // "small-blind", "big-blind", "fold", "check", "call", "bet", "raise"
	Amount int64  `json:"amount"`
	AllIn  bool   `json:"all_in,omitempty"`
}

// Pot is one pot and who the operator awarded it to.
type Pot struct {
	Amount   int64   `json:"amount"`
	Eligible []int   `json:"eligible"` // seats that can win it
	Winners  []int   `json:"winners"`  // seats awarded a share
	Shares   []int64 `json:"shares"`   // each winner's share, same order as Winners
}
