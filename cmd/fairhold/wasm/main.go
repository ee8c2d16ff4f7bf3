//go:build js && wasm

// Command wasm is the WebAssembly half of the players' verifier page
// (docs/verifier-page.md): it registers globalThis.fairhold with
//
//	verify(json) -> json                     the JSON of `fairhold verify --json` for a round (its "hints" included)
//	settle(json) -> json                     the JSON of `fairhold settle --json` for a round record
//	payout(record, verdict) -> json          a round record's settlement and payout check (`fairhold verify --round`)
//	fromRecord(json) -> json                 the page's round of a round record (`fairhold replay --explain`)
//	verifyBeacon(chain, round, sig, prev) -> bool   the drand round's BLS signature verifies
//	formatMoney(amount, currency) -> string  an amount of minor units as money.Format writes it ("EUR 1,234.50")
//	version                                  the build's version
//
// Inputs and outputs are JSON strings; an input that cannot be checked or
// settled gives {"verdict": "error", "error": "..."}. Build it with
// .ci/web-build (or `go generate ./cmd/fairhold`).
package main

import (
	"encoding/hex"
	"encoding/json"
	"math"
	"strconv"
	"syscall/js"

	"github.com/fairhold/fairhold/cmd/fairhold/internal/pageround"
	"github.com/fairhold/fairhold/fairness/beacon"
	"github.com/fairhold/fairhold/replay/money"
)

// version is the page's WebAssembly version.
const version = "fairhold-wasm/1"

func errorJSON(err error) string {
	b, _ := json.Marshal(map[string]string{"verdict": "error", "error": err.Error()})
	return string(b)
}

func verify(in string) string {
	r, err := pageround.Parse([]byte(in))
	if err != nil {
		return errorJSON(err)
	}
	b, err := json.Marshal(pageround.Verify(r))
	if err != nil {
		return errorJSON(err)
	}
	return string(b)
}

func settle(in string) string {
	res, err := pageround.SettleJSON([]byte(in))
	if err != nil {
		return errorJSON(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		return errorJSON(err)
	}
	return string(b)
}

func payout(rec, verdict string) string {
	res, err := pageround.PayoutJSON([]byte(rec), []byte(verdict))
	if err != nil {
		return errorJSON(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		return errorJSON(err)
	}
	return string(b)
}

func fromRecord(in string) string {
	rec, err := pageround.ParseRecord([]byte(in))
	if err != nil {
		return errorJSON(err)
	}
	r, err := pageround.FromRecord(rec)
	if err != nil {
		return errorJSON(err)
	}
	r.V = pageround.Version
	b, err := json.Marshal(r)
	if err != nil {
		return errorJSON(err)
	}
	return string(b)
}

func verifyBeacon(chain string, round js.Value, sigHex, prevHex string) bool {
	var n uint64
	switch round.Type() {
	case js.TypeNumber:
		f := round.Float()
		if f < 1 || f != float64(uint64(f)) {
			return false
		}
		n = uint64(f)
	case js.TypeString:
		var err error
		if n, err = strconv.ParseUint(round.String(), 10, 64); err != nil {
			return false
		}
	default:
		return false
	}
	c, err := beacon.Lookup(chain)
	if err != nil || c.CheckRound(n) != nil {
		return false
	}
	sig, err := hex.DecodeString(sigHex)
	if err != nil {
		return false
	}
	var prev []byte
	if prevHex != "" {
		if prev, err = hex.DecodeString(prevHex); err != nil {
			return false
		}
	}
	_, err = c.Verify(n, sig, prev)
	return err == nil
}

// formatMoney writes an amount of minor units of currency code as
// money.Format does, with the built-in decimals. The amount is a JavaScript
// number that is a safe integer (|n| <= 2^53 - 1) or a string of decimal
// digits (any int64); anything else gives "".
func formatMoney(amount js.Value, code string) string {
	var n int64
	switch amount.Type() {
	case js.TypeNumber:
		f := amount.Float()
		if f != math.Trunc(f) || math.Abs(f) > 1<<53-1 {
			return ""
		}
		n = int64(f)
	case js.TypeString:
		var err error
		if n, err = strconv.ParseInt(amount.String(), 10, 64); err != nil {
			return ""
		}
	default:
		return ""
	}
	return money.Format(n, code)
}

func str(args []js.Value, i int) string {
	if i < len(args) && args[i].Type() == js.TypeString {
		return args[i].String()
	}
	return ""
}

func main() {
	api := map[string]any{
		"version": version,
		"verify": js.FuncOf(func(_ js.Value, args []js.Value) any {
			return verify(str(args, 0))
		}),
		"settle": js.FuncOf(func(_ js.Value, args []js.Value) any {
			return settle(str(args, 0))
		}),
		"payout": js.FuncOf(func(_ js.Value, args []js.Value) any {
			return payout(str(args, 0), str(args, 1))
		}),
		"fromRecord": js.FuncOf(func(_ js.Value, args []js.Value) any {
			return fromRecord(str(args, 0))
		}),
		"formatMoney": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) < 1 {
				return ""
			}
			return formatMoney(args[0], str(args, 1))
		}),
		"verifyBeacon": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) < 3 {
				return false
			}
			return verifyBeacon(str(args, 0), args[1], str(args, 2), str(args, 3))
		}),
	}
	js.Global().Set("fairhold", js.ValueOf(api))
	if cb := js.Global().Get("fairholdReady"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {}
}
