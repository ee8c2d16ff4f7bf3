package finding

import (
	"cmp"
	"slices"
)

// Info describes one finding code: its severity, what it means and an
// example of the expected versus the actual value a finding carries.
// docs/findings.md is written from the same table.
type Info struct {
	Code     Code
	Severity Severity
	Meaning  string
	Field    string // example field
	Expected string // example expected value
	Actual   string // example actual value
}

var catalogue = []Info{
	{SeedCommitmentMismatch, Critical, "The revealed server seed does not hash to the commitment published before the round: the cards could have been chosen after the client seed was known.", "fairness.server_seed", "SHA-256 = 3f1c…(commitment)", "SHA-256 = 9a07…"},
	{SeedRevealedEarly, Critical, "The server seed was revealed before a round that used it was dealt: whoever saw the reveal could predict that round's cards.", "fairness.revealed_at", "after 2026-11-29T10:15:03Z (round time)", "2026-11-29T10:14:59Z"},
	{SeedReused, Critical, "One server seed, or one hash chain, dealt in more than one session: for another table or another player of a single-player game, or for its own table or player again after they moved on to another seed; or a round of a seed logs another reveal time than the seed's first round (when the round was dealt after that reveal, it used a seed already public). A seed or chain serves one contiguous session and never deals once revealed.", "fairness.server_seed", "a seed its owner has not left: the seed's session (first round r-000017) ended when its table, or player, moved to another seed", "the seed deals again"},
	{NonceReused, Critical, "The same (server seed, client input, nonce) dealt two rounds: both rounds got the same deck.", "fairness.nonce", "unused nonce", "nonce 17 first used in round r-000123 (file a.parquet row 122)"},
	{CommitmentLate, Critical, "The commitment was published after the round was dealt, so it commits to nothing.", "fairness.committed_at", "before 2026-11-29T10:15:03Z (round time)", "2026-11-29T10:16:00Z"},
	{ChainLinkBroken, Critical, "The revealed hash-chain link does not hash to the previous link (or to the chain's terminal commitment).", "fairness.server_seed", "SHA-256(link) = previous link 5be2…", "SHA-256(link) = 77c0…"},
	{ChainLinkReused, Critical, "A hash-chain link served more than one round: each round must use its own link (docs/fairness.md section 6). When the client input and nonce repeat as well, the rounds got the same deck.", "fairness.chain_index", "a link no earlier round used", "41"},
	{BeaconInvalid, Critical, "The drand beacon signature mixed into the round does not verify.", "fairness.beacon_signature", "valid BLS signature for round 1000", "invalid"},
	{BeaconTooEarly, Major, "The drand round mixed into the round was published before the commitment, so the operator knew it when committing.", "fairness.beacon_round", "published after 2026-11-29T10:00:00Z", "published 2026-11-29T09:59:57Z"},
	{BeaconRoundChosen, Critical, "The drand round mixed into the round is not the one the rule fixes: the first round of the chain published after the commitment (docs/fairness.md section 7). Any other published round is one the operator, who sees the client seeds, could choose among; the detail gives the round's publication time.", "fairness.beacon_round", "5281 (the first quicknet round published after the commitment, 2023-08-23T20:23:07Z)", "5290"},
	{BeaconAfterRound, Critical, "The drand round mixed into the round was published after the round's logged time: the cards depend on randomness that did not exist when the round was dealt, so the log's time or its beacon is false.", "fairness.beacon_round", "published at or before 2026-11-29T10:15:03Z (round time)", "published 2026-11-29T10:15:30Z"},
	{ChainNonceNotZero, Critical, "A hash-chain round's nonce is not 0. Each link deals one round, so the nonce counts nothing (docs/fairness.md section 5); a nonce free per round lets an operator that sees the link and the client seeds choose among decks.", "fairness.nonce", "0 (a hash-chain round's nonce)", "3"},
	{CardsMismatch, Critical, "The logged cards are not the ones the seeds deal under the scheme (for example a biased shuffle or cards swapped after the deal).", "board", "7h 2c Kd 9s Ts", "7h 2c Kd 9s As"},
	{CardDuplicate, Critical, "The same card appears twice in one round.", "boxes[0].cards", "52 distinct cards", "Ah twice"},
	{CallNotMultiple, Major, "The call stake is not the profile's call multiple of the ante (or a fold has a call stake).", "boxes[0].call", "200", "150"},
	{BetOverLimit, Major, "An accepted stake is outside the table limits: it was not auto-adjusted to the maximum (or is below the minimum).", "boxes[0].ante", "500 (max)", "800"},
	{AntePayoutWrong, Critical, "The ante was returned at a multiple other than the paytable's for the player's hand.", "boxes[0].ante_return", "300", "200"},
	{CallPaidNotQualified, Critical, "The call bet was paid although the dealer did not qualify (it must be returned as a push).", "boxes[0].call_return", "200", "400"},
	{DealerQualificationWrong, Critical, "The round was settled as if the dealer qualified with a hand below the qualifier (or as if the dealer did not qualify with it).", "boxes[0].ante_return", "200", "0"},
	{TieNotPushed, Critical, "An exact tie against a qualifying dealer was not returned as a push of ante and call.", "boxes[0].ante_return", "100", "0"},
	{BonusPaidAfterFold, Critical, "AA Bonus winnings were paid after a fold although the profile forfeits them on a fold.", "boxes[0].bonus_return", "0", "800"},
	{BonusPayoutWrong, Critical, "The AA Bonus was returned at a multiple other than the bonus paytable's.", "boxes[0].bonus_return", "800", "900"},
	{MaxPayoutExceeded, Critical, "A box's winnings exceed the table's max payout: the cap was not applied.", "boxes[0].ante_return", "50100", "100100"},
	{VoidNotRefunded, Critical, "A void round did not return every stake exactly.", "boxes[0].ante_return", "100", "0"},
	{ReturnMismatch, Critical, "A return differs from the re-settlement for a reason none of the specific codes explains.", "boxes[0].call_return", "0", "200"},
	{BalanceMismatch, Critical, "Balance before minus stakes plus returns is not the balance after.", "boxes[0].balance_after", "10300", "10299"},
	{BalanceGap, Major, "A wallet's balance before a round is not its balance after its previous round (an unexplained gap), whatever player id played it: the balance chains by wallet when the round names wallets (wallet_ids), or else by player id.", "boxes[0].balance_before", "10300", "10000"},
	{WalletChanged, Critical, "A player id played from a second wallet: a player id is one account's, so its wallet is that of its first round with a wallet id. A player moved to a fresh wallet leaves the old wallet's balance behind, where no later round compares it.", "wallet_ids[0]", "the wallet of the player's earlier rounds", "\"w-2\""},
	{RoundDuplicate, Major, "The same round id appears more than once.", "round_id", "unique", "also at a.parquet row 17"},
	{RoundOrder, Minor, "A table's rounds are not in time order in the log.", "time", "at or after 2026-11-29T10:15:03Z", "2026-11-29T10:14:00Z"},
	{ProfileMismatch, Major, "The round names a rules profile (or profile hash) other than the one the audit declares.", "profile_hash", "9c1e… (casino-holdem)", "0b7d…"},
	{InputDamaged, Major, "A row, row group or value could not be read or is malformed (a text that is not valid UTF-8, which is never repaired; a compressed page that inflates past the size its header declares); the finding names the file, row group, row and column.", "boards", "a card such as \"As\"", "\"Zz\""},
	{AmountOverflow, Major, "An amount, or a sum of amounts of the round (its stakes, its returns, a balance, a hand's chips) or of the replay's totals with the round, would overflow a signed 64-bit integer. Each value is a valid int64, so the round is read and checked as far as its sums allow; it is reported, left out of the summary's totals, and the replay of the other rounds goes on.", "boxes[0].bonus_return", "returns whose sum is below 2^63", "9223372036854775797 + 100 + 0"},
	{NonceSequence, Critical, "Within a seed session the nonces do not run 0, 1, 2, ... in time order: the seed's first round has another nonce than 0, or a round's nonce is neither the previous round's + 1 nor the highest so far + 1 (a nonce skipped, repeated out of place, or rounds swapped). Skipping is how an operator that knows both seeds chooses which deck a player gets. A repeat already reported as NONCE_REUSED is not reported again.", "fairness.nonce", "18 (the seed's previous round had 17)", "19"},
	{ChainLinkSkipped, Critical, "A hash chain's links are not used one after another: the chain's first round in the log does not use link 1, or a round's chain index is neither the previous round's + 1 nor the highest so far + 1 (links skipped, a round dropped, or rounds swapped), so the operator could choose among decks. A link already reported as CHAIN_LINK_REUSED is not reported again.", "fairness.chain_index", "42 (the chain's previous round had 41)", "44"},
	{TableSequenceGap, Critical, "A table's round numbers (table_seq) do not run on without a gap in time order: a round's number is neither the previous round's + 1 nor the highest so far + 1 (a round missing, repeated or out of place), even when the balances chain; or a table numbers some rounds and not others.", "table_seq", "1043 (the table's previous round had 1042)", "1045"},
	{SchemeChanged, Critical, "A table switched its fairness scheme: every round of a table, and so of each of its seed sessions, is dealt under the scheme its first round declares. Whether the rounds mix in a drand beacon, and from which chain, is part of the scheme: a table that mixes in a beacon on some rounds and not on others chooses among decks.", "fairness.scheme", "\"fairhold/v1\" (the table's scheme, as in its first round r-000017)", "\"stake-compat\""},
	{ProfileChanged, Critical, "A table switched its rules profile: every round of a table names the profile, name and profile_hash (an omitted hash counts as another), its first round names.", "profile_hash", "\"casino-holdem 5c0e9a1f7d3b2e48…\" (the table's profile, as in its first round r-000017)", "\"casino-holdem 0b7d4c2a9e1f3b57…\""},
	{CurrencyChanged, Critical, "A wallet switched currency: a wallet (its wallet id, or the player id when the round names no wallets) holds the currency of its first round. The balance of the round is not compared with the previous round's, in another currency (no BALANCE_GAP; the detail gives both).", "currency", "\"EUR\" (the player's wallet, as in the player's round at a.parquet row 16)", "\"USD\""},
	{ClientSeedChanged, Critical, "A player's client seed changed within a seed session without a logged rotation (fairness.client_seed_rotated): client_seeds[k] belongs to the player of box or seat k, who keeps it for the session, also when they leave and come back (client seeds that are not one per box are the table's, kept as a whole). A switched client seed is another way to choose the deck.", "fairness.client_seeds[0]", "the player's client seed earlier in the seed session that began at round r-000017, or a logged rotation (fairness.client_seed_rotated)", "another client seed"},
	{PositionInvalid, Major, "A box or seat number is outside the table's range (the single-box game: box 1; a live table: 1 to the profile's boxes; Double Hold'em: 1 to the profile's seats_max), two boxes or seats of one round have the same number (two players at one box), they are not listed in increasing order, or a Double Hold'em player holds two seats.", "boxes[2].box", "a box in 1..6", "7"},
	{VoidBias, Critical, "Voids fall on rounds won for the players significantly more often than played rounds are won. Every Casino Hold'em round, void or played, is settled from its cards at each box's best decision (call or fold, in hindsight), whatever decision the log records; the voids are tested against the played rounds (exact one-sided binomial tests at p < 1e-6, against the played rounds' rate taken at the upper end of its 1 - 1e-6 confidence interval): wins, big wins (4x the stakes), huge wins (10x), and by money, wins of each size among rounds of the same currency and stakes. Per table, and per game with its tables pooled. Reported once per table or game, with no round id; the detail names the table (or the pool).", "void", "a rate of wins among voided rounds near the played rounds' 0.4320 (at most 0.4395)", "46 wins in 60 voids (p = 2.6e-07)"},
	{RotationRate, Major, "A table logs client-seed rotations (fairness.client_seed_rotated), or a player's own client seed is rotated, significantly more often than players usually rotate their seed (1% of rounds; exact one-sided binomial test, p < 1e-6 for a table, 1e-6 / N for a player, N the players who rotated). The log cannot prove who asked for a rotation: an operator that rotates the client seed itself, where the new seed deals a deck it prefers, grinds the client input. Reported once per table and once per player (with the player's id), with no round id; the summary gives every table's and every rotating player's rate.", "fairness.client_seed_rotated", "client seeds rotated on about 0.01 of the rounds (players' usual rate)", "36 rotations in 300 rounds (0.1200; p = 1.1e-17)"},
	{PartMissing, Critical, "A file the dataset's manifest lists is not in the dataset: the rounds of its part (or their boxes, seats, actions or pots) are missing. One finding per file, without a round.", "manifest.parts[3].files[0]", "rounds/part-00003.parquet (4194304 rows, 201326592 bytes)", "absent"},
	{PartExtra, Major, "A file of the dataset named like a part's is not listed in its manifest: rounds added after the manifest was written, or a manifest that leaves parts out. One finding per file.", "manifest.parts", "only the files the manifest lists", "rounds/part-00007.parquet (16384 rows)"},
	{PartAltered, Critical, "A file's size or SHA-256 differs from the one its manifest lists, or it is not a regular file: it was changed after the manifest was written, even if every round in it reads. Not reported again for a part reported PART_TRUNCATED.", "manifest.parts[3].files[0].sha256", "9c1e… (201326592 bytes)", "0b7d… (201326600 bytes)"},
	{PartTruncated, Critical, "What the replay read of a part differs from what its manifest lists: the number of rounds, the first or last round id, the earliest or latest round time, or a child file's rows. Rounds were cut from or added to the part after the manifest was written.", "manifest.parts[3]", "16384 rounds, r-1 to r-16384, 2026-01-01T00:00:00Z to 2026-01-01T09:06:06Z", "16000 rounds, r-1 to r-16000, 2026-01-01T00:00:00Z to 2026-01-01T08:53:18Z"},
	{ManifestInvalid, Major, "The dataset's manifest cannot be used: it is not a regular file, cannot be read, or is malformed (an unknown format version, a member unknown or twice, data after the object, an invalid value, a part listing more rounds than its files have bytes, rounds adding up past 2^63-1); or a key was given and the manifest is missing, unsigned, or its signature does not verify with that key. The dataset is then not compared with it.", "manifest.json.sig", "a signature of manifest.json by the key given", "the manifest's signature does not verify with the key given"},
	{CommitmentUnlogged, Critical, "A seed session's commitment (a hash chain's anchor) is not in the operator's commitment log (fairhold replay --commitment-log): nothing outside the log shows it was published before the session. Reported on the session's first round in input order.", "fairness.commitment", "an entry of the log of 1042 entries with this commitment", "none"},
	{CommitmentPublishedLate, Critical, "The commitment log's timed evidence (witness cosignatures, RFC 3161 tokens: docs/commitment-log.md) shows the session's commitment public only after the session's first round: the seed could have been chosen once the client seed was known, whatever committed_at says. Reported on the session's first round.", "fairness.commitment", "public before 2026-01-01T00:20:00Z (the session's first round), entry 41", "public by 2026-01-01T00:26:39Z (cosigned by witness.example/w1)"},
	{CommitmentMisbound, Critical, "The log entry of a session's commitment binds it to something else than the session: another table, another player (RNG game), another first nonce, a chain anchor for a single seed (or the reverse), another scheme or beacon (chain and first round), or, when the auditor names the operator, another operator. A commitment published for another use is not a commitment to this session. One finding per field that differs, on the session's first round.", "fairness.commitment", "table \"rng-1\" (the session's)", "table \"rng-2\" (log entry 41)"},
	{CommitmentOutOfOrder, Critical, "A table (per player in an RNG game) did not use its published commitments in the order the log published them: a session used an entry other than the stream's next one after the entry of the stream's previous session, skipping published commitments or going back to an earlier one. An operator that publishes more commitments than it uses can choose, after seeing the client seed, which one deals: a pool. Reported on the session's first round; the summary counts each table's published commitments left unused.", "fairness.commitment", "log entry 57 (the stream's next after entry 41, used from round ch-901)", "log entry 58 (1 published commitment skipped)"},
	{CommitmentLogInvalid, Critical, "The commitment log given to the replay does not verify: its checkpoint is not signed by the key given, its entry bundles do not hash to the checkpoint's root, an entry is not canonical, or its timed evidence is forged. No session is checked against it (the summary lists the checks as not made). Reported once, without a round.", "checkpoint", "the 1042 entries hash to the checkpoint's root", "they hash to another root"},
	{CommitmentLogSplitView, Critical, "The commitment log is not an extension of a checkpoint of it that the auditor kept (--log-checkpoint): the first entries of today's log do not hash to the kept checkpoint's root, or the log is shorter. The log was rewritten, or shown differently to different people (a split view). Reported once per kept checkpoint, without a round.", "checkpoint", "the first 512 entries hash to the root of the checkpoint kept in monday.cp", "they hash to another root"},
	{DHBonusCardWrong, Critical, "Double Hold'em: the automatically chosen bonus card is not the one the profile's rule selects.", "double.seats[2].bonus_card", "Ks", "Kc"},
	{DHPotWrongWinner, Critical, "Double Hold'em: a pot was awarded to a player who did not have the best hand among those eligible.", "double.pots[0].winners", "[3]", "[5]"},
	{DHOddChipWrong, Critical, "Double Hold'em: the odd chip of a split pot went to a player other than the one closest to the left of the button.", "double.pots[0].shares", "[51 50]", "[50 51]"},
	{DHSidePotWrong, Critical, "Double Hold'em: a pot's amount or eligible players do not follow from the contributions.", "double.pots[1].amount", "600", "900"},
	{DHIllegalAction, Major, "Double Hold'em: an action the rules do not allow was accepted (out of turn, raise below the minimum, check facing a bet, ...).", "double.actions[7]", "raise of at least 200", "raise of 150"},
	{DHChipsNotConserved, Critical, "Double Hold'em: the stacks after the hand plus the rake differ from the stacks before.", "double.seats", "12000", "12050"},
	{DHRakeOverCap, Critical, "Double Hold'em: the rake exceeds the profile's percentage, its cap, or is taken when no flop was dealt under no-flop-no-drop.", "double.rake", "300", "450"},
}

// exampleDetails are the example details of docs/findings.md: for the
// findings about money, whose expected and actual are the values alone,
// what the detail says of them.
var exampleDetails = map[Code]string{
	AntePayoutWrong:          "player flush, dealer two-pair",
	CallPaidNotQualified:     "dealer not qualified (high-card)",
	DealerQualificationWrong: "settled as if the dealer qualified; player high-card, dealer high-card",
	TieNotPushed:             "exact tie; player one-pair, dealer one-pair",
	BonusPaidAfterFold:       "fold forfeits the AA Bonus",
	BonusPayoutWrong:         "bonus hand one-pair",
	MaxPayoutExceeded:        "max payout 50000 per box",
	VoidNotRefunded:          "void: every stake returned",
	ReturnMismatch:           "player straight, dealer flush",
	BalanceMismatch:          "before 10500 - stakes 300 + returns 100",
	BalanceGap:               "the balance after the player's round at a.parquet row 122",
	DHChipsNotConserved:      "stacks after 12050 + rake 0, against stacks before 12000",
	DHSidePotWrong:           "eligible seats [1 3]",
}

// ExampleDetail returns the example detail of code's entry in
// docs/findings.md, "" for none.
func ExampleDetail(code Code) string { return exampleDetails[code] }

// Catalogue returns every finding code with its severity and meaning,
// sorted by code. The simulator's fault catalogue and docs/findings.md
// refer to these codes.
func Catalogue() []Info {
	out := slices.Concat(catalogue, receiptCatalogue)
	slices.SortFunc(out, func(a, b Info) int { return cmp.Compare(a.Code, b.Code) })
	return out
}

// Lookup returns the catalogue entry of code.
func Lookup(code Code) (Info, bool) {
	for _, c := range [][]Info{catalogue, receiptCatalogue} {
		for _, in := range c {
			if in.Code == code {
				return in, true
			}
		}
	}
	return Info{}, false
}

// SeverityOf returns the severity of code, or [Major] for a code that is
// not in the catalogue.
func SeverityOf(code Code) Severity {
	if in, ok := Lookup(code); ok {
		return in.Severity
	}
	return Major
}

// Compare orders findings by file, row, code, field, then the remaining
// fields (the amounts nil first): the order of every findings file the replayer writes, so that
// the output does not depend on the number of workers.
func Compare(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Row, b.Row),
		cmp.Compare(a.Code, b.Code),
		cmp.Compare(a.Field, b.Field),
		cmp.Compare(a.RoundID, b.RoundID),
		cmp.Compare(a.Expected, b.Expected),
		cmp.Compare(a.Actual, b.Actual),
		cmp.Compare(a.Detail, b.Detail),
		cmp.Compare(a.PlayerID, b.PlayerID),
		cmp.Compare(a.Currency, b.Currency),
		compareAmount(a.ExpectedAmount, b.ExpectedAmount),
		compareAmount(a.ActualAmount, b.ActualAmount),
		compareAmount(a.Difference, b.Difference),
		cmp.Compare(a.Time, b.Time),
		cmp.Compare(a.TableID, b.TableID),
		cmp.Compare(a.Game, b.Game),
	)
}

// compareAmount orders nil before any amount.
func compareAmount(a, b *int64) int {
	switch {
	case a != nil && b != nil:
		return cmp.Compare(*a, *b)
	case a != nil:
		return 1
	case b != nil:
		return -1
	}
	return 0
}
