package finding

// Receipts: a player's signed receipts against the round log
// (docs/receipts.md, `fairhold receipts reconcile`).
const (
	ReceiptRoundMissing     Code = "RECEIPT_ROUND_MISSING"      // a receipt's round is not in the log
	ReceiptMismatch         Code = "RECEIPT_MISMATCH"           // the log's round contradicts a receipt (cards, seeds, numbers)
	ReceiptAmountMismatch   Code = "RECEIPT_AMOUNT_MISMATCH"    // the log's round contradicts a receipt's stakes, returns or balance after
	ReceiptRotationNotShown Code = "RECEIPT_ROTATION_NOT_SHOWN" // the log changes a player's client seed between two receipts that show no such change
	ReceiptSessionShort     Code = "RECEIPT_SESSION_SHORT"      // a log session has fewer rounds than the player's receipts of it, or ends before the last
)

// receiptCatalogue holds the receipt codes (see [Catalogue]).
var receiptCatalogue = []Info{
	{ReceiptRoundMissing, Critical, "A round the operator signed a receipt for is not in the log (no round of its id): a round dropped from the log, its wallets re-chained. The amounts are the player's net result of the round by the receipt (returns - stakes) and 0; the detail gives the receipt's stakes and returns.", "net", "2000", "0"},
	{ReceiptMismatch, Critical, "The log's round of a receipt contradicts it in a field other than money: the cards the player was shown (hole cards, dealer, board, bonus card), the client seed, nonce, chain index, commitment, scheme, table, table_seq, time, game, wallet, currency, box or seat, decision, a box's stake or return (the player's totals are RECEIPT_AMOUNT_MISMATCH), or the player is not at the round. A table_seq is reported where its offset from the receipts changes (a round dropped and the table renumbered shows once, at the table's next receipt), not again on every later receipt of the table. The detail gives the player's net result of the round by the receipt and by the log.", "boxes[box 1].cards", "Qs Qd", "Qs Qc"},
	{ReceiptAmountMismatch, Critical, "The log's round of a receipt contradicts the player's total stakes, total returns, or balance after. The amounts are the receipt's and the log's; the difference (log - receipt) of returns less that of stakes is what the round's record moved. A balance after is reported where its offset from the receipts changes (a return lowered and the wallet re-chained shows at that round, not again at every later receipt of the wallet); the detail names the earlier offset.", "returns", "6000", "4000"},
	{ReceiptRotationNotShown, Critical, "Between two receipts of a player in one seed session, the log changes the player's client seed more often than the receipts show (none when both receipts have the same client seed, one when they differ): a rotation the player did not make, logged or not. The operator who rotates a player's client seed chooses among decks (docs/threat-model.md section 4). Reported on the later receipt; the detail names the log's rounds where the seed changed and the player's net result over the rounds between the two receipts.", "client-seed", "no change of client seed (the receipts of rounds ch-21 and ch-61 both show 9f2c4e1a…)", "2 changes in the log (at rounds ch-41, ch-51)"},
	{ReceiptSessionShort, Critical, "A seed session of a player (the player's rounds of one commitment) has fewer rounds in the log than the player holds receipts for, or its last round in the log is before the last receipt's time: rounds dropped from the end of a session, which no invariant of the log shows. One finding per session, on the session's last receipt; the detail gives the receipts' net result over the rounds missing at the end.", "session", "at least 100 rounds, the last at 2026-01-01T00:33:18Z (round ch-991)", "97 rounds, the last at 2026-01-01T00:32:18Z (round ch-961)"},
}

// receiptMoneyCodes are the receipt codes that carry amounts.
var receiptMoneyCodes = []Code{ReceiptRoundMissing, ReceiptAmountMismatch}
