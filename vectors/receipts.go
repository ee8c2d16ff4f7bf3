package vectors

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
)

// Receipt vectors (docs/receipts.md; format: README.md, "Receipt
// vectors"): signed receipts with the published test key and the verdict
// a verifier must reach.

//go:embed receipts/*.json
var receiptsFS embed.FS

// ReceiptVector is one receipt vector.
type ReceiptVector struct {
	File string `json:"-"`

	ID          string `json:"id"`
	Description string `json:"description"`
	// Operator is the key name the verifier is given; PublicKey the
	// operator's Ed25519 key (32 bytes, hex) and VerifierKey its C2SP
	// signed-note verifier key.
	Operator    string `json:"operator"`
	PublicKey   string `json:"public_key"`
	VerifierKey string `json:"verifier_key"`
	// Note is the signed receipt, a C2SP signed note; Line its line in a
	// receipts file (the note as a JSON string).
	Note string `json:"note"`
	Line string `json:"line"`
	// Expect is "valid" (with Receipt, the fields it holds), "signature"
	// (the operator's key did not sign this text under this name) or
	// "malformed" (with Field: a signed text that is not a canonical
	// receipt).
	Expect  string          `json:"expect"`
	Receipt json.RawMessage `json:"receipt,omitempty"`
	Field   string          `json:"field,omitempty"`
}

// ParseReceiptVector parses one vector strictly.
func ParseReceiptVector(b []byte) (*ReceiptVector, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var v ReceiptVector
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the vector")
	}
	if v.ID == "" || v.Description == "" || v.Operator == "" || v.PublicKey == "" || v.Note == "" || v.Line == "" {
		return nil, fmt.Errorf("id, description, operator, public_key, note and line are required")
	}
	switch v.Expect {
	case "valid":
		if len(v.Receipt) == 0 || v.Field != "" {
			return nil, fmt.Errorf("%s: a valid vector has a receipt and no field", v.ID)
		}
	case "signature":
		if len(v.Receipt) != 0 || v.Field != "" {
			return nil, fmt.Errorf("%s: a signature vector has no receipt and no field", v.ID)
		}
	case "malformed":
		if len(v.Receipt) != 0 || v.Field == "" {
			return nil, fmt.Errorf("%s: a malformed vector has a field and no receipt", v.ID)
		}
	default:
		return nil, fmt.Errorf("%s: expect %q, want valid, signature or malformed", v.ID, v.Expect)
	}
	return &v, nil
}

// Receipts loads every receipt vector, sorted by file name.
func Receipts() ([]*ReceiptVector, error) {
	names, err := fs.Glob(receiptsFS, "receipts/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []*ReceiptVector
	for _, n := range names {
		b, err := receiptsFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		v, err := ParseReceiptVector(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		v.File = path.Base(n)
		if v.File != v.ID+".json" {
			return nil, fmt.Errorf("%s: id %q does not match the file name", n, v.ID)
		}
		out = append(out, v)
	}
	return out, nil
}
