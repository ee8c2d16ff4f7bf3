package roundlog

import (
	"slices"

	"github.com/parquet-go/parquet-go"
)

// The fast fill functions build rows from decoded columns (see
// colread.go). Each is the inverse of the struct's parquet tags.

// fillRounds fills rows from the columns' rows off, off+1, ... The
// columns a minor version added (addedColumns) may be absent: null.
func fillRounds(c map[string]*column, off int, rows []roundRow) {
	beacon_chain_ := c["beacon_chain"].strs
	beacon_previous_signature_ := c["beacon_previous_signature"].strs
	beacon_round_ := c["beacon_round"].i64
	beacon_signature_ := c["beacon_signature"].strs
	big_blind_ := c["big_blind"].i64
	board_1_ := c["board_1"].strs
	board_2_ := c["board_2"].strs
	board_3_ := c["board_3"].strs
	board_4_ := c["board_4"].strs
	board_5_ := c["board_5"].strs
	button_ := c["button"].i32
	chain_index_ := c["chain_index"].i64
	client_seeds_ := c["client_seeds"].lstrs
	commitment_ := c["commitment"].strs
	committed_at_ := c["committed_at"].i64
	currency_ := c["currency"].strs
	dealer_1_ := c["dealer_1"].strs
	dealer_2_ := c["dealer_2"].strs
	game_ := c["game"].strs
	n_actions_ := c["n_actions"].i32
	n_boxes_ := c["n_boxes"].i32
	n_pots_ := c["n_pots"].i32
	n_seats_ := c["n_seats"].i32
	nonce_ := c["nonce"].i64
	profile_ := c["profile"].strs
	profile_hash_ := c["profile_hash"].strs
	rake_ := c["rake"].i64
	revealed_at_ := c["revealed_at"].i64
	round_id_ := c["round_id"].strs
	scheme_ := c["scheme"].strs
	server_seed_ := c["server_seed"].strs
	small_blind_ := c["small_blind"].i64
	table_id_ := c["table_id"].strs
	time_ := c["time"].i64
	void_ := c["void"].bools
	void_reason_ := c["void_reason"].strs
	for j := range rows {
		r, i := &rows[j], off+j
		*r = roundRow{
			RoundID: round_id_[i], Game: game_[i], TableID: table_id_[i],
			Time: time_[i], Currency: currency_[i], Profile: profile_[i],
			ProfileHash: profile_hash_[i], Scheme: scheme_[i], Commitment: commitment_[i],
			CommittedAt: committed_at_[i], ServerSeed: server_seed_[i], RevealedAt: revealed_at_[i],
			ChainIndex: chain_index_[i], ClientSeeds: client_seeds_[i], Nonce: nonce_[i],
			BeaconChain: beacon_chain_[i], BeaconRound: beacon_round_[i],
			BeaconSignature: beacon_signature_[i], BeaconPreviousSignature: beacon_previous_signature_[i],
			Dealer1: dealer_1_[i], Dealer2: dealer_2_[i],
			Board1: board_1_[i], Board2: board_2_[i], Board3: board_3_[i],
			Board4: board_4_[i], Board5: board_5_[i],
			Void: void_[i], VoidReason: void_reason_[i],
			Button: button_[i], SmallBlind: small_blind_[i], BigBlind: big_blind_[i], Rake: rake_[i],
			NBoxes: n_boxes_[i], NSeats: n_seats_[i], NActions: n_actions_[i], NPots: n_pots_[i],
		}
	}
	if tc := c["table_seq"]; tc != nil {
		for j, v := range tc.i64[off : off+len(rows)] {
			rows[j].TableSeq = v
		}
	}
	if rc := c["client_seed_rotated"]; rc != nil {
		for j, v := range rc.bools[off : off+len(rows)] {
			rows[j].ClientSeedRotated = v
		}
	}
	if wc := c["wallet_ids"]; wc != nil {
		for j, v := range wc.lstrs[off : off+len(rows)] {
			rows[j].WalletIDs = v
		}
	}
}

// fastRounds reports whether a rounds row group of schema got is read by
// the fast path: its columns are the specification's, or those of an
// earlier minor version (the specification's less the addedColumns it
// lacks), in the same order, with the same physical types, repetition and
// optionality.
func fastRounds(got *parquet.Schema) bool {
	if sameSchema(got, schemaRounds) {
		return true
	}
	i := 0
	units := timeUnits(schemaRounds)
	for k, path := range schemaRounds.Columns() {
		g, ok := got.Lookup(path...)
		if !ok && slices.Contains(addedColumns, path[0]) {
			continue
		}
		w, _ := schemaRounds.Lookup(path...)
		if !ok || g.ColumnIndex != i || !sameColumn(g, w, units[k]) {
			return false
		}
		i++
	}
	return i == len(got.Columns())
}

func bindBoxes(c map[string]*column) func(off int, rows []boxRow) {
	ante_ := c["ante"].i64
	ante_requested_ := c["ante_requested"].i64
	ante_return_ := c["ante_return"].i64
	balance_after_ := c["balance_after"].i64
	balance_before_ := c["balance_before"].i64
	bonus_ := c["bonus"].i64
	bonus_requested_ := c["bonus_requested"].i64
	bonus_return_ := c["bonus_return"].i64
	box_ := c["box"].i32
	call_ := c["call"].i64
	call_return_ := c["call_return"].i64
	card_1_ := c["card_1"].strs
	card_2_ := c["card_2"].strs
	decision_ := c["decision"].strs
	player_id_ := c["player_id"].strs
	round_id_ := c["round_id"].strs
	round_row_ := c["round_row"].i64
	return func(off int, rows []boxRow) {
		for j := range rows {
			i := off + j
			rows[j] = boxRow{
				RoundID: round_id_[i], RoundRow: round_row_[i], Box: box_[i],
				PlayerID: player_id_[i], Card1: card_1_[i], Card2: card_2_[i],
				AnteRequested: ante_requested_[i], Ante: ante_[i],
				BonusRequested: bonus_requested_[i], Bonus: bonus_[i],
				Decision: decision_[i], Call: call_[i],
				AnteReturn: ante_return_[i], CallReturn: call_return_[i], BonusReturn: bonus_return_[i],
				BalanceBefore: balance_before_[i], BalanceAfter: balance_after_[i],
			}
		}
	}
}

func bindSeats(c map[string]*column) func(off int, rows []seatRow) {
	bonus_auto_ := c["bonus_auto"].bools
	bonus_card_ := c["bonus_card"].strs
	card_1_ := c["card_1"].strs
	card_2_ := c["card_2"].strs
	card_3_ := c["card_3"].strs
	player_id_ := c["player_id"].strs
	round_id_ := c["round_id"].strs
	round_row_ := c["round_row"].i64
	seat_ := c["seat"].i32
	stack_after_ := c["stack_after"].i64
	stack_before_ := c["stack_before"].i64
	return func(off int, rows []seatRow) {
		for j := range rows {
			i := off + j
			rows[j] = seatRow{
				RoundID: round_id_[i], RoundRow: round_row_[i], Seat: seat_[i],
				PlayerID: player_id_[i], Card1: card_1_[i], Card2: card_2_[i], Card3: card_3_[i],
				BonusCard: bonus_card_[i], BonusAuto: bonus_auto_[i],
				StackBefore: stack_before_[i], StackAfter: stack_after_[i],
			}
		}
	}
}

func bindActions(c map[string]*column) func(off int, rows []actionRow) {
	all_in_ := c["all_in"].bools
	amount_ := c["amount"].i64
	kind_ := c["kind"].strs
	round_id_ := c["round_id"].strs
	round_row_ := c["round_row"].i64
	seat_ := c["seat"].i32
	seq_ := c["seq"].i32
	street_ := c["street"].strs
	return func(off int, rows []actionRow) {
		for j := range rows {
			i := off + j
			rows[j] = actionRow{
				RoundID: round_id_[i], RoundRow: round_row_[i], Seq: seq_[i], Seat: seat_[i],
				Street: street_[i], Kind: kind_[i], Amount: amount_[i], AllIn: all_in_[i],
			}
		}
	}
}

func bindPots(c map[string]*column) func(off int, rows []potRow) {
	amount_ := c["amount"].i64
	eligible_ := c["eligible"].li32
	pot_ := c["pot"].i32
	round_id_ := c["round_id"].strs
	round_row_ := c["round_row"].i64
	shares_ := c["shares"].li64
	winners_ := c["winners"].li32
	return func(off int, rows []potRow) {
		for j := range rows {
			i := off + j
			rows[j] = potRow{
				RoundID: round_id_[i], RoundRow: round_row_[i], Pot: pot_[i], Amount: amount_[i],
				Eligible: eligible_[i], Winners: winners_[i], Shares: shares_[i],
			}
		}
	}
}

// decodeFast decodes rg column by column into cols when its schema is the
// specification's; ok is false when it is not (use readGroup).
func decodeFast(rg parquet.RowGroup, want *parquet.Schema, table string, cols map[string]*column) (ok bool, err error) {
	if !sameSchema(rg.Schema(), want) {
		return false, nil
	}
	defer recoverAs(&err, "corrupt row group")
	return true, decodeColumns(rg, table, cols)
}

// decodeRoundColumns decodes a rounds row group whose schema fastRounds
// accepts into cols; its rows are then made with fillRounds. The added
// columns the row group lacks are removed from cols (cols is reused from
// row group to row group).
func decodeRoundColumns(rg parquet.RowGroup, cols map[string]*column) (err error) {
	defer recoverAs(&err, "corrupt row group")
	for _, name := range addedColumns {
		if !hasField(rg.Schema(), name) {
			delete(cols, name)
		}
	}
	return decodeColumns(rg, TableRounds, cols)
}

// hasField reports whether sch has a top-level field name. (Lookup finds
// leaf columns only: a list's leaf is name.list.element, and looking the
// list up by its name alone dropped its decoded column, buffers and all,
// at every row group.)
func hasField(sch *parquet.Schema, name string) bool {
	for _, f := range sch.Fields() {
		if f.Name() == name {
			return true
		}
	}
	return false
}
