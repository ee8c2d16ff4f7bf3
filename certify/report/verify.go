package report

import (
	"fmt"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// Verification is the outcome of verifying a report: the JSON of
// `fairhold report verify --json`.
type Verification struct {
	// Verified is true when every required key has a valid signature and,
	// once [Verification.CheckSubjects] has run, every subject matches.
	// It says the report is authentic and its artefacts at hand; the
	// report's own verdict is Verdict.
	Verified bool `json:"verified"`
	// Verdict is the report's verdict, once its signatures verified.
	Verdict Verdict `json:"verdict,omitempty"`
	// Keys has one entry per required key, in the order given.
	Keys []KeyCheck `json:"keys"`
	// Signatures has one entry per signature of the envelope, in order.
	Signatures []SignatureCheck `json:"signatures"`
	// Subjects has one entry per subject, in the statement's order, once
	// [Verification.CheckSubjects] has run.
	Subjects []SubjectCheck `json:"subjects,omitempty"`
	// Statement is the verified statement; nil unless the signatures
	// verified.
	Statement *Statement `json:"-"`
}

// KeyStatus is the outcome of one required key.
type KeyStatus string

// The statuses of a required key.
const (
	KeyVerified KeyStatus = "verified" // it signed, and every signature under its id verifies
	KeyInvalid  KeyStatus = "invalid"  // a signature under its id does not verify
	KeyMissing  KeyStatus = "missing"  // no signature has its id
)

// KeyCheck is the outcome of one required key.
type KeyCheck struct {
	Key       string    `json:"key,omitempty"` // where it was read from ([PublicKey.Name])
	KeyID     string    `json:"keyid"`
	Algorithm Algorithm `json:"algorithm"`
	Status    KeyStatus `json:"status"`
}

func (k KeyCheck) describe() string {
	who := "key " + k.KeyID
	if k.Key != "" {
		who += " (" + k.Key + ")"
	}
	switch k.Status {
	case KeyMissing:
		return "no signature by " + who
	case KeyInvalid:
		return "the signature by " + who + " does not verify"
	}
	return who + " verified"
}

// SignatureStatus is the outcome of one signature of the envelope.
type SignatureStatus string

// The statuses of a signature.
const (
	SignatureVerified   SignatureStatus = "verified"    // by a required key, valid
	SignatureInvalid    SignatureStatus = "invalid"     // by a required key's id, does not verify
	SignatureUnknownKey SignatureStatus = "unknown-key" // by a key not given: not checked, not required
)

// SignatureCheck is the outcome of one signature of the envelope.
type SignatureCheck struct {
	Index  int             `json:"index"` // its position in the envelope's signatures
	KeyID  string          `json:"keyid"`
	Status SignatureStatus `json:"status"`
}

// Verify verifies a report's signatures against the required keys and
// returns its statement. Every key must have signed: each signature whose
// keyid is a key's id must verify over PAE(payloadType, payload), and each
// key needs at least one. Signatures by other keys are listed as
// [SignatureUnknownKey] and not required.
//
// Following DSSE, the payload is read only after the signatures verified:
// then the payload type must be [PayloadType] and the payload a valid
// statement in its one encoding ([ParseStatement]).
//
// Errors: [ErrNoKeys] or [ErrDuplicateKey] for the keys given; a
// [*FormatError] ([ErrMalformed]) for a malformed envelope or statement;
// a [*SignatureError] ([ErrSignature]) with the Verification when a key
// failed.
func Verify(env *dsse.Envelope, keys ...*PublicKey) (*Verification, error) {
	if len(keys) == 0 {
		return nil, ErrNoKeys
	}
	byID := make(map[string]int, len(keys))
	v := &Verification{Keys: make([]KeyCheck, len(keys))}
	for i, k := range keys {
		if k == nil {
			return nil, fmt.Errorf("key %d is nil", i)
		}
		if j, ok := byID[k.id]; ok {
			return nil, fmt.Errorf("%w: key %s is given twice (%q and %q)", ErrDuplicateKey, k.id, keys[j].name, k.name)
		}
		byID[k.id] = i
		v.Keys[i] = KeyCheck{Key: k.name, KeyID: k.id, Algorithm: k.alg, Status: KeyMissing}
	}
	body, sigs, err := decodeEnvelope(env)
	if err != nil {
		return nil, err
	}
	pae := dsse.PAE(env.PayloadType, body)
	v.Signatures = make([]SignatureCheck, len(sigs))
	for i, sig := range sigs {
		id := env.Signatures[i].KeyID
		c := SignatureCheck{Index: i, KeyID: id, Status: SignatureUnknownKey}
		if j, ok := byID[id]; ok {
			if keys[j].verify(pae, sig) {
				c.Status = SignatureVerified
				if v.Keys[j].Status == KeyMissing {
					v.Keys[j].Status = KeyVerified
				}
			} else {
				c.Status = SignatureInvalid
				v.Keys[j].Status = KeyInvalid
			}
		}
		v.Signatures[i] = c
	}
	var failed []KeyCheck
	for _, k := range v.Keys {
		if k.Status != KeyVerified {
			failed = append(failed, k)
		}
	}
	if len(failed) > 0 {
		return v, &SignatureError{Keys: failed}
	}
	if env.PayloadType != PayloadType {
		return v, malformed("payloadType", "%q, want %q", env.PayloadType, PayloadType)
	}
	st, err := ParseStatement(body)
	if err != nil {
		return v, within("payload", err)
	}
	v.Statement, v.Verdict, v.Verified = st, st.Predicate.Verdict, true
	return v, nil
}
