package finding

import "slices"

// moneyCodes are the codes of findings about money paid to or held by
// players: a return, a balance, a stack, a pot, a share, the rake or the
// chips of a hand. Such a finding carries its amounts ([Finding.SetAmounts]);
// docs/findings.md says, for each, which amounts they are.
var moneyCodes = []Code{
	AntePayoutWrong, CallPaidNotQualified, DealerQualificationWrong, TieNotPushed, BonusPaidAfterFold,
	BonusPayoutWrong, MaxPayoutExceeded, VoidNotRefunded, ReturnMismatch,
	BalanceMismatch, BalanceGap,
	DHPotWrongWinner, DHOddChipWrong, DHSidePotWrong, DHChipsNotConserved, DHRakeOverCap,
}

// IsMoney reports whether findings of code are about money paid to or
// held by players, and so carry expected_amount, actual_amount and
// difference. The exceptions, where an amount cannot be formed, are
// listed in docs/findings.md ("Amounts").
func IsMoney(code Code) bool {
	return slices.Contains(moneyCodes, code) || slices.Contains(receiptMoneyCodes, code)
}
