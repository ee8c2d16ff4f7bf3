package receipt_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/sumdb/note"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/receipt"
	"github.com/fairhold/fairhold/vectors"
)

var update = flag.Bool("update", false, "rewrite vectors/receipts/*.json")

const vectorDir = "../../vectors/receipts"

// The vectors' operator and its published test key: the Ed25519 key whose
// 32-byte seed is SHA-256("fairhold receipt vectors") (README.md of the
// vectors). It signs test vectors only.
const vectorOperator = "casino.example/receipts"

func vectorKey(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(label))
	return ed25519.NewKeyFromSeed(seed[:])
}

// signText signs text as a note under name with key, whatever the text.
func signText(t *testing.T, text, name string, key ed25519.PrivateKey) string {
	t.Helper()
	s, err := commitlog.NewSigner(name, key)
	require.NoError(t, err)
	b, err := note.Sign(&note.Note{Text: text}, s)
	require.NoError(t, err)
	return string(b)
}

func sampleReceipts() map[string]*receipt.Receipt {
	idx := uint64(17)
	return map[string]*receipt.Receipt{
		"valid-casino-holdem": {
			Operator: vectorOperator, Round: "ch-1042", Game: "casino-holdem", Table: "rng-1", TableSeq: 1042,
			Time: "2026-01-01T00:34:42.25Z", Player: "p-42", Wallet: "w-42", Currency: "EUR", Scheme: "fairhold/v1",
			Commitment: strings.Repeat("ca978112", 8), CommitmentIndex: &idx, Nonce: 41,
			Dealer: []string{"7h", "2c"}, Board: []string{"Kd", "9s", "Ts", "4c", "Ah"},
			Boxes: []receipt.Box{{Box: 1, ClientSeed: "9f2c4e1a0b7d3e55", Cards: []string{"Qs", "Qd"}, Ante: 1000, Decision: "call", Call: 2000,
				AnteReturn: 2000, CallReturn: 4000}},
			Stakes: 3000, Returns: 6000, BalanceBefore: 150000, BalanceAfter: 153000,
		},
		"valid-live-casino-holdem-two-boxes": {
			Operator: vectorOperator, Round: "lch-7", Game: "live-casino-holdem", Table: "live-1", TableSeq: 7,
			Time: "2026-01-01T00:04:00Z", Player: "p-3", Currency: "BTC", Scheme: "fairhold/v1",
			Commitment: strings.Repeat("3e23e816", 8), ChainIndex: 7,
			Dealer: []string{"As", "Kc"}, Board: []string{"2d", "3d", "9h", "Jc", "5s"},
			Boxes: []receipt.Box{
				{Box: 2, ClientSeed: "é 🂡 seed with spaces", Cards: []string{"Td", "Th"}, Ante: 500, Bonus: 100, Decision: "fold", BonusReturn: 0},
				{Box: 5, ClientSeed: "é 🂡 seed with spaces", Cards: []string{"8c", "7c"}, Ante: 500, Decision: "", Call: 1000, AnteReturn: 0, CallReturn: 0},
			},
			Stakes: 2100, Returns: 0, BalanceBefore: 10000, BalanceAfter: 7900,
		},
		"valid-double-holdem": {
			Operator: vectorOperator, Round: "dh-3", Game: "double-holdem", Table: "double-1", TableSeq: 3,
			Time: "2026-01-01T00:01:00Z", Player: "p-9", Wallet: "w-9", Currency: "USDT", Scheme: "fairhold/v1",
			Commitment: strings.Repeat("0b7d9c1e", 8), Nonce: 2,
			Board:  []string{"4h", "5h", "6h"},
			Seat:   &receipt.Seat{Seat: 4, ClientSeed: "c0ffee", Cards: []string{"Ah", "Kh", "2s"}, BonusCard: "2s"},
			Stakes: 400, Returns: 1150, BalanceBefore: 20000, BalanceAfter: 20750,
		},
		"valid-void": {
			Operator: vectorOperator, Round: "ch-9", Game: "casino-holdem", Table: "rng-1",
			Time: "2026-01-01T00:00:16Z", Player: "p-1", Currency: "JPY", Scheme: "stake-compat",
			Commitment: strings.Repeat("5be2aa01", 8), Nonce: 8, Void: true,
			Dealer: []string{"7h", "2c"}, Board: []string{"Kd", "9s", "Ts", "4c", "Ah"},
			Boxes: []receipt.Box{{Box: 1, ClientSeed: "x", Cards: []string{"3s", "3d"}, Ante: 100, Decision: "call", Call: 200,
				AnteReturn: 100, CallReturn: 200}},
			Stakes: 300, Returns: 300, BalanceBefore: 1000, BalanceAfter: 1000,
		},
	}
}

// genReceiptVectors builds the vectors.
func genReceiptVectors(t *testing.T) map[string][]byte {
	key := vectorKey("fairhold receipt vectors")
	pub := key.Public().(ed25519.PublicKey)
	vkey, err := commitlog.VerifierKey(vectorOperator, pub)
	require.NoError(t, err)
	out := map[string][]byte{}
	put := func(id, desc, noteText, expect, field string, rc *receipt.Receipt) {
		v := map[string]any{"id": id, "description": desc, "operator": vectorOperator, "public_key": hex.EncodeToString(pub),
			"verifier_key": vkey, "note": noteText, "line": strings.TrimSuffix(string(receipt.EncodeLine([]byte(noteText))), "\n"), "expect": expect}
		if rc != nil {
			v["receipt"] = rc
		}
		if field != "" {
			v["field"] = field
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		require.NoError(t, enc.Encode(v))
		out[id+".json"] = b.Bytes()
	}
	samples := sampleReceipts()
	s, err := receipt.NewSigner(vectorOperator, key)
	require.NoError(t, err)
	for id, rc := range samples {
		n, err := s.Sign(rc)
		require.NoError(t, err)
		put(id, "a receipt signed by the operator's key: valid, with the fields it holds", string(n), "valid", "", rc)
	}
	base, err := samples["valid-casino-holdem"].Marshal()
	require.NoError(t, err)
	body := string(base)
	signed := signText(t, body, vectorOperator, key)
	// Tampered after signing: the body is still a canonical receipt.
	tamper := func(id, desc, old, new string) {
		require.Contains(t, signed, old)
		put(id, desc, strings.Replace(signed, old, new, 1), "signature", "", nil)
	}
	tamper("signature-tampered-returns", "the returns changed after signing (6000 to 7000): the signature does not verify", "\nreturns 6000\n", "\nreturns 7000\n")
	tamper("signature-tampered-client-seed", "the client seed changed after signing: the signature does not verify", "client-seed 3966", "client-seed 3967")
	tamper("signature-tampered-cards", "a hole card changed after signing (Qd to Qc): the signature does not verify", "cards Qs Qd", "cards Qs Qc")
	put("signature-wrong-key", "signed under the operator's name by another key: no signature of the operator's key", signText(t, body, vectorOperator, vectorKey("another key")), "signature", "", nil)
	put("signature-wrong-name", "signed by the operator's key under another key name: no signature the verifier knows", signText(t, body, "casino.example/other", key), "signature", "", nil)
	// Signed by the right key, but not the canonical encoding.
	bad := []struct{ id, desc, old, new, field string }{
		{"malformed-nonce-leading-zero", "a decimal with a leading zero is not canonical", "\nnonce 41\n", "\nnonce 041\n", "nonce"},
		{"malformed-line-order", "the lines game and table exchanged", "\ngame casino-holdem\ntable rng-1\n", "\ntable rng-1\ngame casino-holdem\n", "game"},
		{"malformed-upper-hex", "upper-case hex in the commitment", "commitment ca978112", "commitment CA978112", "commitment"},
		{"malformed-card-case", "a card not in canonical form (qs)", "cards Qs Qd", "cards qs Qd", "cards"},
		{"malformed-unknown-line", "a line the format does not have", "\nstakes ", "\ntip 100\nstakes ", "stakes"},
		{"malformed-version", "another version of the format", "fairhold-receipt/v1", "fairhold-receipt/v2", "header"},
		{"malformed-two-spaces", "two spaces between a name and its value", "\nante 1000\n", "\nante  1000\n", "ante"},
	}
	for _, b := range bad {
		require.Contains(t, body, b.old, b.id)
		put(b.id, b.desc+", signed by the operator's key: malformed", signText(t, strings.Replace(body, b.old, b.new, 1), vectorOperator, key), "malformed", b.field, nil)
	}
	return out
}

// TestReceiptVectorsReproducible: the files are what the generator writes
// (-update rewrites them).
func TestReceiptVectorsReproducible(t *testing.T) {
	want := genReceiptVectors(t)
	if *update {
		require.NoError(t, os.MkdirAll(vectorDir, 0o755))
		old, _ := filepath.Glob(filepath.Join(vectorDir, "*.json"))
		for _, f := range old {
			require.NoError(t, os.Remove(f))
		}
		for name, b := range want {
			require.NoError(t, os.WriteFile(filepath.Join(vectorDir, name), b, 0o644))
		}
	}
	got, err := filepath.Glob(filepath.Join(vectorDir, "*.json"))
	require.NoError(t, err)
	assert.Len(t, got, len(want))
	for name, b := range want {
		have, err := os.ReadFile(filepath.Join(vectorDir, name))
		require.NoError(t, err, "go test ./replay/receipt -run TestReceiptVectorsReproducible -update")
		assert.Equal(t, string(b), string(have), name)
	}
}

// TestReceiptVectors runs every vector through the verifier: the verdict,
// the receipt's fields, the field named.
func TestReceiptVectors(t *testing.T) {
	vs, err := vectors.Receipts()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(vs), 15)
	kinds := map[string]int{}
	for _, v := range vs {
		t.Run(v.ID, func(t *testing.T) {
			kinds[v.Expect]++
			pub, err := hex.DecodeString(v.PublicKey)
			require.NoError(t, err)
			vk, err := commitlog.VerifierKey(v.Operator, pub)
			require.NoError(t, err)
			assert.Equal(t, v.VerifierKey, vk)
			ver, err := receipt.NewVerifier(v.Operator, pub)
			require.NoError(t, err)
			// The note and its receipts-file line are the same receipt.
			fromLine, lineErr := receipt.Read(strings.NewReader(v.Line+"\n"), "v.jsonl", ver)
			rc, err := ver.Open([]byte(v.Note))
			switch v.Expect {
			case "valid":
				require.NoError(t, err)
				require.NoError(t, lineErr)
				require.Len(t, fromLine, 1)
				var want receipt.Receipt
				require.NoError(t, json.Unmarshal(v.Receipt, &want))
				assert.Equal(t, &want, rc)
				assert.Equal(t, &want, fromLine[0].Receipt)
				body, err := rc.Marshal()
				require.NoError(t, err)
				assert.True(t, strings.HasPrefix(v.Note, string(body)+"\n— "+v.Operator+" "), "the note is the body and the operator's signature")
			case "signature":
				require.Error(t, err)
				assert.True(t, errors.Is(err, receipt.ErrSignature), "%v", err)
				assert.True(t, errors.Is(lineErr, receipt.ErrSignature), "%v", lineErr)
			case "malformed":
				require.Error(t, err)
				assert.True(t, errors.Is(err, receipt.ErrNotCanonical), "%v", err)
				var fe *receipt.FieldError
				require.True(t, errors.As(err, &fe), "%v", err)
				assert.Equal(t, v.Field, fe.Field, "%v", err)
				assert.True(t, errors.Is(lineErr, receipt.ErrNotCanonical), "%v", lineErr)
			}
		})
	}
	assert.Equal(t, 4, kinds["valid"])
	assert.Equal(t, 5, kinds["signature"])
	assert.Equal(t, 7, kinds["malformed"])
}
