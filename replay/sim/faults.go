package sim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// Fault names.
const (
	FaultSeedCommitmentMismatch = "seed-commitment-mismatch"
	FaultSeedRevealedEarly      = "seed-revealed-early"
	FaultNonceReused            = "nonce-reused"
	FaultCommitmentLate         = "commitment-late"
	FaultChainLinkBroken        = "chain-link-broken"
	FaultCardsMismatch          = "cards-mismatch"
	FaultCardDuplicate          = "card-duplicate"
	FaultBiasedShuffle          = "biased-shuffle"
	FaultCallNotMultiple        = "call-not-multiple"
	FaultBetOverLimit           = "bet-over-limit"
	FaultAnteWrongMultiple      = "ante-wrong-multiple"
	FaultCallPaidNotQualified   = "call-paid-not-qualified"
	FaultDealerQualifiedLow     = "dealer-qualified-low"
	FaultTieNotPushed           = "tie-not-pushed"
	FaultBonusPaidAfterFold     = "bonus-paid-after-fold"
	FaultBonusWrongMultiple     = "bonus-wrong-multiple"
	FaultMaxPayoutIgnored       = "max-payout-ignored"
	FaultVoidNotRefunded        = "void-not-refunded"
	FaultVoidWins               = "void-wins"
	FaultBalanceOffByOne        = "balance-off-by-one"
	FaultDHWrongAutoBonus       = "dh-wrong-auto-bonus-card"
	FaultDHPotWrongWinner       = "dh-pot-wrong-winner"
	FaultDHOddChipWrong         = "dh-odd-chip-wrong"
	FaultDHSidePotWrong         = "dh-side-pot-wrong"
	FaultDHIllegalRaise         = "dh-illegal-raise"
	FaultDHChipsNotConserved    = "dh-chips-not-conserved"
	FaultDHRakeOverCap          = "dh-rake-over-cap"
	FaultNonceSkipped           = "nonce-skipped"
	FaultNonceSwapped           = "nonce-swapped"
	FaultChainLinkSkipped       = "chain-link-skipped"
	FaultChainNonceChosen       = "chain-nonce-chosen"
	FaultRoundDropped           = "round-dropped"
	FaultRoundDroppedRenumbered = "round-dropped-renumbered"
	FaultSchemeSwitched         = "scheme-switched"
	FaultProfileSwitched        = "profile-switched"
	FaultCurrencySwitched       = "currency-switched"
	FaultClientSeedSwitched     = "client-seed-switched"
	FaultBoxOutOfRange          = "box-out-of-range"
	FaultPositionDuplicate      = "position-duplicate"
	FaultSeedRedealt            = "seed-redealt"
	FaultWalletSkimmed          = "wallet-skimmed"
)

type faultKind uint8

const (
	roundFault   faultKind = iota // triggered per round, applied to the first round it fits
	sessionFault                  // triggered per seed session or chain
	logFault                      // applied to the commitment log (commitlog.go), per session
)

// Fault is one entry of the fault catalogue.
type Fault struct {
	Name        string       `json:"name"`
	Games       []string     `json:"games"`
	Finding     finding.Code `json:"finding"`
	Description string       `json:"description"`
	Code        finding.Code `json:"-"`
	// Also lists the other codes the fault can make the replayer raise, on
	// the same round or a later one (a round left out of the log shows in
	// its table's numbering and in its seed's nonces or its chain's links);
	// every one is an [Injection] of its own.
	Also []finding.Code `json:"also,omitempty"`
	kind faultKind
	// tableLevel: the finding is reported per table, naming no round.
	tableLevel bool
}

// Codes returns the codes the fault's injections carry: Code, then Also.
func (f *Fault) Codes() []finding.Code { return append([]finding.Code{f.Code}, f.Also...) }

func (f *Fault) appliesTo(game string) bool { return slices.Contains(f.Games, game) }

var (
	casinoGames = []string{round.CasinoHoldem, round.LiveCasinoHoldem}
	allGames    = []string{round.CasinoHoldem, round.DoubleHoldem, round.LiveCasinoHoldem}
	seedGames   = []string{round.CasinoHoldem, round.DoubleHoldem}
	rngOnly     = []string{round.CasinoHoldem}
	liveOnly    = []string{round.LiveCasinoHoldem}
	doubleOnly  = []string{round.DoubleHoldem}
	tableGames  = []string{round.DoubleHoldem, round.LiveCasinoHoldem}
)

// catalogue lists every fault, sorted by name.
var catalogue = func() []*Fault {
	fs := []*Fault{
		{Name: FaultSeedCommitmentMismatch, Games: seedGames, Code: finding.SeedCommitmentMismatch, kind: sessionFault,
			Description: "A whole seed session deals with a server seed that does not hash to the commitment published for it (the operator swapped the seed after committing). Every round of the session is flagged; rate is per session."},
		{Name: FaultSeedRevealedEarly, Games: allGames, Code: finding.SeedRevealedEarly, kind: sessionFault,
			Description: "The server seed (live table: one chain link) is revealed one second before the last round that uses it is dealt (revealed_at < time). The round dealt after the reveal is flagged; rate is per session or chain."},
		{Name: FaultNonceReused, Games: seedGames, Code: finding.NonceReused, kind: roundFault,
			Description: "The round is dealt with the nonce of the session's previous round, so (server seed, client seeds, nonce) repeats and the round gets the previous round's deck. The repeating round is flagged."},
		{Name: FaultCommitmentLate, Games: allGames, Code: finding.CommitmentLate, kind: sessionFault,
			Description: "The commitment of a seed session (live table: a chain's anchor) is published one second after its first round is dealt (committed_at > time). That first round is flagged; rate is per session or chain."},
		{Name: FaultChainLinkBroken, Games: liveOnly, Code: finding.ChainLinkBroken, kind: roundFault,
			Description: "The round's revealed server seed is a fresh random value instead of the next link of the table's hash chain; the cards are dealt from it (so they match the logged seed). The next round's link hashes, in two steps, to the last good link: only this round is flagged."},
		{Name: FaultCardsMismatch, Games: allGames, Code: finding.CardsMismatch, kind: roundFault,
			Description: "One dealt card is replaced by a card the round did not deal, before settlement (the round is settled on the logged cards). The cards no longer follow from the seeds; no card repeats."},
		{Name: FaultCardDuplicate, Games: allGames, Code: finding.CardDuplicate, kind: roundFault,
			Description: "After settlement, one logged card is overwritten with another card of the same round, so a card appears twice. Expected: CARD_DUPLICATE only (a round with a repeated card cannot be re-dealt or re-settled, so the replayer reports neither CARDS_MISMATCH nor a settlement code for it)."},
		{Name: FaultBiasedShuffle, Games: allGames, Code: finding.CardsMismatch, kind: roundFault,
			Description: "The round's deck comes from the operator's own biased shuffle (\"swap with any position\" over a modulo-reduced SHA-256 stream of the seeds) instead of the scheme's; re-dealing from the seeds gives other cards."},
		{Name: FaultCallNotMultiple, Games: casinoGames, Code: finding.CallNotMultiple, kind: roundFault,
			Description: "A calling box's call stake is 1.5 x ante instead of the profile's multiple; the call is settled by the rules on that stake and the balances follow."},
		{Name: FaultBetOverLimit, Games: casinoGames, Code: finding.BetOverLimit, kind: roundFault,
			Description: "A box asks for an ante above the table maximum and it is accepted as asked instead of being auto-adjusted (ante_requested = ante > ante_max); settled by the rules on that stake."},
		{Name: FaultAnteWrongMultiple, Games: casinoGames, Code: finding.AntePayoutWrong, kind: roundFault,
			Description: "A winning ante (player won, or dealer did not qualify) is returned with one extra ante: paid (X+1):1 instead of the paytable's X:1."},
		{Name: FaultCallPaidNotQualified, Games: casinoGames, Code: finding.CallPaidNotQualified, kind: roundFault,
			Description: "On a box whose dealer did not qualify, the call is paid 1:1 instead of being returned as a push."},
		{Name: FaultDealerQualifiedLow, Games: casinoGames, Code: finding.DealerQualificationWrong, kind: roundFault,
			Description: "The dealer holds less than the qualifier (below a pair of 4s) but beats the player; the operator settles as if the dealer qualified: ante and call lost instead of ante paid and call pushed."},
		{Name: FaultTieNotPushed, Games: casinoGames, Code: finding.TieNotPushed, kind: roundFault,
			Description: "An exact tie against a qualifying dealer is settled as a loss (ante and call kept) instead of a push."},
		{Name: FaultBonusPaidAfterFold, Games: rngOnly, Code: finding.BonusPaidAfterFold, kind: roundFault,
			Description: "A player with an AA Bonus that wins (pair of aces or better with the flop) folds, and the operator pays the AA Bonus anyway although forfeit_on_fold forfeits it."},
		{Name: FaultBonusWrongMultiple, Games: rngOnly, Code: finding.BonusPayoutWrong, kind: roundFault,
			Description: "A winning AA Bonus is returned with one extra stake: paid (X+1):1 instead of the bonus paytable's X:1."},
		{Name: FaultMaxPayoutIgnored, Games: liveOnly, Code: finding.MaxPayoutExceeded, kind: roundFault,
			Description: "A box whose winnings the table's max payout caps is paid the uncapped paytable amount. Applies only to capped wins, which are rare under the built-in profile: simulate with a profile of a lower max_payout_per_box to get many."},
		{Name: FaultVoidNotRefunded, Games: casinoGames, Code: finding.VoidNotRefunded, kind: roundFault,
			Description: "The round is voided (void_reason \"malfunction\") but the first box's ante is kept (ante_return 0) instead of returned; the other stakes are returned."},
		{Name: FaultVoidWins, Games: casinoGames, Code: finding.VoidBias, kind: roundFault, tableLevel: true,
			Description: "The operator voids (void_reason \"connection-lost\"), with a proper refund of every stake, a round the players would have won (its boxes together return more than they stake). Every round and balance checks out; the replay's void-bias test finds the table (VOID_BIAS names the table, not a round: the injections carry the voided rounds and the table). Found with certainty once about 40 rounds of a table are voided this way (docs/findings.md, VOID_BIAS): use rates of 0.05 or more on short logs."},
		{Name: FaultBalanceOffByOne, Games: casinoGames, Code: finding.BalanceMismatch, kind: roundFault,
			Description: "The first box's balance_after is one minor unit off (before - stakes + returns +/- 1); the player's wallet continues from the wrong balance, so the next round shows no gap."},
		{Name: FaultDHWrongAutoBonus, Games: doubleOnly, Code: finding.DHBonusCardWrong, kind: roundFault,
			Description: "A seat whose bonus card the software chose (bonus_auto) is logged with another of its hole cards than the automatic rule selects; the pots are those of the correct card."},
		{Name: FaultDHPotWrongWinner, Games: doubleOnly, Code: finding.DHPotWrongWinner, kind: roundFault,
			Description: "A showdown pot with one winner is awarded whole to another eligible player with a worse hand; stacks follow, chips are conserved."},
		{Name: FaultDHOddChipWrong, Games: doubleOnly, Code: finding.DHOddChipWrong, kind: roundFault,
			Description: "In a split pot with an odd chip, the odd chip goes to the last winner clockwise from the button instead of the first; stacks follow."},
		{Name: FaultDHSidePotWrong, Games: doubleOnly, Code: finding.DHSidePotWrong, kind: roundFault,
			Description: "In a hand with a side pot, chips are moved from the first side pot to the main pot (amounts no longer follow from the contributions); winners' shares and stacks follow, chips are conserved."},
		{Name: FaultDHIllegalRaise, Games: doubleOnly, Code: finding.DHIllegalAction, kind: roundFault,
			Description: "A raise one chip below the minimum raise (not all-in) is accepted; the hand is played on from it and settled on the chips actually put in."},
		{Name: FaultDHChipsNotConserved, Games: doubleOnly, Code: finding.DHChipsNotConserved, kind: roundFault,
			Description: "One chip is created: a winner's stack_after is one more than the pots give; the player's next hand starts from it."},
		{Name: FaultDHRakeOverCap, Games: doubleOnly, Code: finding.DHRakeOverCap, kind: roundFault,
			Description: "Rake of 5% of the pots (at least 1) is taken from the main pot's first winner in a hand that saw the flop, above what the profile allows (the built-in profile takes none)."},
		{Name: FaultNonceSkipped, Games: seedGames, Code: finding.NonceSequence, kind: roundFault,
			Description: "The round is dealt with the session's next nonce but one, skipping a deck (an operator that knows both seeds choosing between two decks); the session goes on from it. The round is flagged."},
		{Name: FaultNonceSwapped, Games: seedGames, Code: finding.NonceSequence, kind: roundFault,
			Description: "The session's next two decks are dealt in swapped order (an operator that knows both seeds choosing which a player gets first): the round gets the next nonce but one and the session's next round (casino-holdem: the player's next turn; double-holdem: the next hand) the nonce held back. Both rounds are flagged, the session's later rounds are not."},
		{Name: FaultChainLinkSkipped, Games: liveOnly, Code: finding.ChainLinkSkipped, kind: roundFault,
			Description: "The round uses link k+1 of the table's hash chain instead of link k, skipping a deck; the link verifies (it hashes to the last one used in two steps) and the chain goes on from it. The round is flagged."},
		{Name: FaultChainNonceChosen, Games: liveOnly, Code: finding.ChainNonceNotZero, kind: roundFault,
			Description: "The round at the hash-chain table is dealt with a nonce of 1 to 3 instead of 0 (an operator that sees the link and the client seeds choosing among four decks per round); the cards follow the logged nonce. The round is flagged."},
		{Name: FaultRoundDropped, Games: allGames, Code: finding.TableSequenceGap, Also: []finding.Code{finding.NonceSequence, finding.ChainLinkSkipped}, kind: roundFault,
			Description: "A dealt round (its table number, nonce or chain link, and its deck used) is left out of the log, and its players' wallets are re-chained so that the balances show no gap. The table's next round is flagged TABLE_SEQUENCE_GAP (unless the dropped round is the table's first: the first round in a log starts the table's numbering), and the next round of the dropped round's seed session NONCE_SEQUENCE (casino-holdem: the same player's next round; double-holdem: the next hand) or of its chain CHAIN_LINK_SKIPPED, when the session or chain goes on. Never the last round."},
		{Name: FaultRoundDroppedRenumbered, Games: allGames, Code: finding.NonceSequence, Also: []finding.Code{finding.ChainLinkSkipped}, kind: roundFault,
			Description: "As round-dropped, and the table's later rounds are renumbered so that table_seq shows no gap: the drop shows only in the nonces (NONCE_SEQUENCE) or chain links (CHAIN_LINK_SKIPPED) of the session's next round, when the session or chain goes on. A round dropped at the end of a seed session and renumbered cannot be seen in the log (docs/replay.md)."},
		{Name: FaultSchemeSwitched, Games: casinoGames, Code: finding.SchemeChanged, kind: roundFault,
			Description: "A round of one box (not the log's first) is dealt and logged under stake-compat instead of the table's fairhold/v1; the cards follow the switched scheme, so only the table's one scheme shows it."},
		{Name: FaultProfileSwitched, Games: allGames, Code: finding.ProfileChanged, Also: []finding.Code{finding.ProfileMismatch}, kind: roundFault,
			Description: "A round (not the log's first) names another version of the table's profile (its profile_hash is that of the profile with the version bumped, the rules unchanged): the table switched profile (PROFILE_CHANGED), and the round names a profile hash the audit does not declare (PROFILE_MISMATCH)."},
		{Name: FaultCurrencySwitched, Games: allGames, Code: finding.CurrencyChanged, kind: roundFault,
			Description: "A round whose players have all played before is logged in another currency (USD, or EUR for a USD log), amounts and balances unchanged: the players' wallets switched currency."},
		{Name: FaultClientSeedSwitched, Games: allGames, Code: finding.ClientSeedChanged, kind: roundFault,
			Description: "A player who played earlier in the seed session (the live table: in the hash chain) gets a fresh client seed for one round, without a logged rotation; the cards are dealt from it, so they match: only the one client seed per player and session shows it."},
		{Name: FaultBoxOutOfRange, Games: allGames, Code: finding.PositionInvalid, kind: roundFault,
			Description: "The round's last box (seat) is numbered one past the table's range: box 2 at the single-box game, box 7 at the live table, seat seats_max + 1 at Double Hold'em (renumbered in the button, actions and pots too)."},
		{Name: FaultPositionDuplicate, Games: tableGames, Code: finding.PositionInvalid, kind: roundFault,
			Description: "Two boxes (seats) of the round have the same number: the second takes the first's (Double Hold'em: two seats on the same side of the button, so the dealing order is unchanged)."},
		{Name: FaultWalletSkimmed, Games: allGames, Code: finding.BalanceGap, kind: roundFault,
			Description: "A player who played before comes back under a fresh player id, with a tenth of their wallet taken (casino-holdem: at the start of the player's next seed session, which belongs to the new id): the wallet id stays, so the wallet's balance shows the gap; chained by player id, the new id would start a fresh balance and show nothing."},
		{Name: FaultSeedRedealt, Games: seedGames, Code: finding.SeedReused, kind: roundFault,
			Description: "A round is dealt with the owner's previous server seed (the player's, the table's), revealed since and left for a new seed: its next nonce, its commitment, and a fresh plausible revealed_at after the round. Requires the owner's second session: casino-holdem players start one every 100 of their rounds."},
	}
	fs = append(fs, logFaults...)
	for _, f := range fs {
		f.Finding = f.Code
	}
	slices.SortFunc(fs, func(a, b *Fault) int { return strings.Compare(a.Name, b.Name) })
	return fs
}()

// logFaults are the faults of the commitment log (Config.Log).
var logFaults = []*Fault{
	{Name: FaultCommitmentPublishedLate, Games: allGames, Code: finding.CommitmentPublishedLate, kind: logFault,
		Description: "Needs a commitment log (--commitment-log). The session's commitment (chain anchor) is published in the log one window later than honest: the witness's cosigned checkpoint that first covers it is after the session's first round, whatever committed_at says. The session's first round is flagged; rate is per session."},
	{Name: FaultCommitmentFromPool, Games: allGames, Code: finding.CommitmentOutOfOrder, kind: logFault,
		Description: "Needs a commitment log. The operator publishes one commitment more for the session's stream (table; player in the RNG game) just before the session's own, and the session deals with the later one: a choice from a pool of two. The session's first round is flagged; the stream's first session is never chosen (the replay cannot tell a pool from earlier use there); rate is per session."},
	{Name: FaultCommitmentMisbound, Games: allGames, Code: finding.CommitmentMisbound, kind: logFault,
		Description: "Needs a commitment log. The session's log entry binds its commitment to something else: another player (casino-holdem), another table (the live table's chain), another first nonce (double-holdem). The session's first round is flagged; rate is per session."},
	{Name: FaultCommitmentUnlogged, Games: allGames, Code: finding.CommitmentUnlogged, kind: logFault,
		Description: "Needs a commitment log. The session's commitment (chain anchor) is not published in the log at all. The session's first round is flagged; rate is per session."},
	{Name: FaultLogSplitView, Games: allGames, Code: finding.CommitmentLogSplitView, kind: logFault, tableLevel: true,
		Description: "Needs a commitment log. An auditor kept the log's checkpoint at half its entries (written beside the log, DIR.kept-checkpoint, or --log-kept-checkpoint); the operator then rewrote the log's first entry (another operator id) and signed the rewritten log. A replay given the kept checkpoint (--log-checkpoint) reports the log once, with no round; any rate applies it once."},
}

// Faults returns the round and session faults of the catalogue, sorted by
// name; [LogFaults] the commitment log's.
func Faults() []Fault { return faultsOf(func(f *Fault) bool { return f.kind != logFault }) }

// LogFaults returns the faults of the commitment log (they need
// [Config.Log]), sorted by name.
func LogFaults() []Fault { return faultsOf(func(f *Fault) bool { return f.kind == logFault }) }

func faultsOf(keep func(*Fault) bool) []Fault {
	var out []Fault
	for _, f := range catalogue {
		if keep(f) {
			g := *f
			g.Games = slices.Clone(f.Games)
			out = append(out, g)
		}
	}
	return out
}

func lookupFault(name string) (*Fault, bool) {
	for _, f := range catalogue {
		if f.Name == name {
			return f, true
		}
	}
	return nil, false
}

// DefaultRate is the rate of a fault given without one.
const DefaultRate = 0.01

// ParseFaults parses "NAME[:RATE],..." (RATE a fraction in (0, 1], default
// [DefaultRate]). Names are checked by [New].
func ParseFaults(spec string) ([]FaultRate, error) {
	var out []FaultRate
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	for _, item := range strings.Split(spec, ",") {
		name, rate, hasRate := strings.Cut(strings.TrimSpace(item), ":")
		fr := FaultRate{Name: name, Rate: DefaultRate}
		if name == "" {
			return nil, fmt.Errorf("%w: empty fault name in %q", ErrConfig, spec)
		}
		if hasRate {
			v, err := strconv.ParseFloat(rate, 64)
			if err != nil || !(v > 0 && v <= 1) {
				return nil, fmt.Errorf("%w: fault %q: rate %q: want a number in (0, 1]", ErrConfig, name, rate)
			}
			fr.Rate = v
		}
		out = append(out, fr)
	}
	return out, nil
}

// activeFault is a configured fault and its triggers not yet applied.
type activeFault struct {
	*Fault
	rate    float64
	pending int
}

// want returns the configured fault name if it is pending and no other
// round fault has been applied to this round.
func (s *Simulator) want(name string) *activeFault {
	for _, f := range s.faults {
		if f.Name == name && f.pending > 0 && f.kind == roundFault && !s.roundFaulted {
			return f
		}
	}
	return nil
}

// applied records that f was applied to r.
func (s *Simulator) applied(r *round.Round, f *activeFault) {
	f.pending--
	s.roundFaulted = true
	s.inject(r, f.Fault)
}

// TableLevel reports whether the fault's finding names a table, or the
// commitment log, rather than a round (VOID_BIAS, COMMITMENT_LOG_SPLIT_VIEW): its injections carry the round the fault was
// applied to and the table, and the replay reports the table once, with
// no round id.
func (f *Fault) TableLevel() bool { return f.tableLevel }

// Kind is "round" for a fault triggered per round, "session" for one
// triggered per seed session or hash chain, "log" for one applied to the
// commitment log ([Config.Log]; per session, log-split-view once).
func (f *Fault) Kind() string {
	switch f.kind {
	case sessionFault:
		return "session"
	case logFault:
		return "log"
	}
	return "round"
}
