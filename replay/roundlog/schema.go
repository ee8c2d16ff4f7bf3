package roundlog

// The Parquet tables of a dataset part. Each struct is one table's row;
// the parquet tags are the normative column names and types
// (docs/log-format.md). Optional columns hold null for an absent value
// (an empty string, a zero time, a zero chain index, a zero beacon round).

// Table names, the folders of a dataset: rounds/part-00000.parquet.
const (
	TableRounds  = "rounds"
	TableBoxes   = "boxes"
	TableSeats   = "seats"
	TableActions = "actions"
	TablePots    = "pots"
)

// Key-value metadata keys of every file.
const (
	// MetaSchemaVersion holds "MAJOR.MINOR". Readers reject a major version
	// they do not know.
	MetaSchemaVersion = "fairhold.schema_version"
	// MetaTable names the table the file holds.
	MetaTable = "fairhold.table"
)

// SchemaVersion is the version this package writes; SchemaMajor is the
// only major version it reads. Version 1.1 added the optional columns
// table_seq and client_seed_rotated, 1.2 the list wallet_ids (see
// [addedColumns]); a file of an earlier minor version reads with them
// null (no wallet ids: an empty list).
const (
	SchemaVersion = "1.2"
	SchemaMajor   = 1
)

// createdBy is the fixed CreatedBy of every file, so that the same rounds
// give the same bytes whichever build wrote them.
const createdByApp, createdByVersion, createdByBuild = "fairhold-roundlog", SchemaVersion, "1"

// roundRow is one row of the rounds table: one round.
type roundRow struct {
	RoundID     string `parquet:"round_id"`
	Game        string `parquet:"game,dict"`
	TableID     string `parquet:"table_id,dict"`
	TableSeq    int64  `parquet:"table_seq,optional"` // 1.1
	Time        int64  `parquet:"time,timestamp(microsecond)"`
	Currency    string `parquet:"currency,dict"`
	Profile     string `parquet:"profile,dict"`
	ProfileHash string `parquet:"profile_hash,optional,dict"`

	Scheme                  string   `parquet:"scheme,dict"`
	Commitment              string   `parquet:"commitment,dict"`
	CommittedAt             int64    `parquet:"committed_at,optional,timestamp(microsecond)"`
	ServerSeed              string   `parquet:"server_seed,dict"`
	RevealedAt              int64    `parquet:"revealed_at,optional,timestamp(microsecond)"`
	ChainIndex              int64    `parquet:"chain_index,optional"`
	ClientSeeds             []string `parquet:"client_seeds,list,dict"`
	Nonce                   int64    `parquet:"nonce"`
	ClientSeedRotated       bool     `parquet:"client_seed_rotated,optional"` // 1.1
	WalletIDs               []string `parquet:"wallet_ids,list,dict"`         // 1.2
	BeaconChain             string   `parquet:"beacon_chain,optional,dict"`
	BeaconRound             int64    `parquet:"beacon_round,optional"`
	BeaconSignature         string   `parquet:"beacon_signature,optional"`
	BeaconPreviousSignature string   `parquet:"beacon_previous_signature,optional"`

	Dealer1 string `parquet:"dealer_1,optional,dict"`
	Dealer2 string `parquet:"dealer_2,optional,dict"`
	Board1  string `parquet:"board_1,optional,dict"`
	Board2  string `parquet:"board_2,optional,dict"`
	Board3  string `parquet:"board_3,optional,dict"`
	Board4  string `parquet:"board_4,optional,dict"`
	Board5  string `parquet:"board_5,optional,dict"`

	Void       bool   `parquet:"void"`
	VoidReason string `parquet:"void_reason,optional"`

	// Double Hold'em hand fields (null for the Casino Hold'em games).
	Button     int32 `parquet:"button,optional"`
	SmallBlind int64 `parquet:"small_blind,optional"`
	BigBlind   int64 `parquet:"big_blind,optional"`
	Rake       int64 `parquet:"rake,optional"`

	// Child row counts: how many rows of each child table belong to this
	// round, in order.
	NBoxes   int32 `parquet:"n_boxes"`
	NSeats   int32 `parquet:"n_seats"`
	NActions int32 `parquet:"n_actions"`
	NPots    int32 `parquet:"n_pots"`
}

// addedColumns are the optional columns of the rounds table that minor
// versions added after 1.0: a file of an earlier minor version lacks them,
// and reads with them null (docs/log-format.md, section 5).
var addedColumns = []string{"table_seq", "client_seed_rotated", "wallet_ids"}

// boxRow is one row of the boxes table: one Casino Hold'em box.
type boxRow struct {
	RoundID        string `parquet:"round_id"`
	RoundRow       int64  `parquet:"round_row"`
	Box            int32  `parquet:"box"`
	PlayerID       string `parquet:"player_id,dict"`
	Card1          string `parquet:"card_1,dict"`
	Card2          string `parquet:"card_2,dict"`
	AnteRequested  int64  `parquet:"ante_requested"`
	Ante           int64  `parquet:"ante"`
	BonusRequested int64  `parquet:"bonus_requested"`
	Bonus          int64  `parquet:"bonus"`
	Decision       string `parquet:"decision,dict"`
	Call           int64  `parquet:"call"`
	AnteReturn     int64  `parquet:"ante_return"`
	CallReturn     int64  `parquet:"call_return"`
	BonusReturn    int64  `parquet:"bonus_return"`
	BalanceBefore  int64  `parquet:"balance_before"`
	BalanceAfter   int64  `parquet:"balance_after"`
}

// seatRow is one row of the seats table: one Double Hold'em seat.
type seatRow struct {
	RoundID     string `parquet:"round_id"`
	RoundRow    int64  `parquet:"round_row"`
	Seat        int32  `parquet:"seat"`
	PlayerID    string `parquet:"player_id,dict"`
	Card1       string `parquet:"card_1,dict"`
	Card2       string `parquet:"card_2,dict"`
	Card3       string `parquet:"card_3,dict"`
	BonusCard   string `parquet:"bonus_card,optional,dict"`
	BonusAuto   bool   `parquet:"bonus_auto"`
	StackBefore int64  `parquet:"stack_before"`
	StackAfter  int64  `parquet:"stack_after"`
}

// actionRow is one row of the actions table: one betting action.
type actionRow struct {
	RoundID  string `parquet:"round_id"`
	RoundRow int64  `parquet:"round_row"`
	Seq      int32  `parquet:"seq"`
	Seat     int32  `parquet:"seat"`
	Street   string `parquet:"street,dict"`
	Kind     string `parquet:"kind,dict"`
	Amount   int64  `parquet:"amount"`
	AllIn    bool   `parquet:"all_in"`
}

// potRow is one row of the pots table: one pot of a Double Hold'em hand.
type potRow struct {
	RoundID  string  `parquet:"round_id"`
	RoundRow int64   `parquet:"round_row"`
	Pot      int32   `parquet:"pot"`
	Amount   int64   `parquet:"amount"`
	Eligible []int32 `parquet:"eligible,list"`
	Winners  []int32 `parquet:"winners,list"`
	Shares   []int64 `parquet:"shares,list"`
}
