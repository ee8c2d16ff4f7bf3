package report

import (
	"errors"
	"fmt"
	"strings"
)

var (
	// ErrMalformed is wrapped by every [*FormatError]: the input is not a
	// report, statement or key in the documented form.
	ErrMalformed = errors.New("malformed")
	// ErrKeyType: the key is of an unsupported algorithm, or a private key
	// where a public key is wanted (or the reverse).
	ErrKeyType = errors.New("unsupported key type")
	// ErrNotCanonical: the file parses but is not byte for byte the form this
	// package writes, so it was edited or written by something else.
	ErrNotCanonical = errors.New("not in canonical form")
	// ErrSignature: a required key has no valid signature in the envelope.
	ErrSignature = errors.New("signature verification failed")
	// ErrSubject: a subject's file is missing or its digest differs.
	ErrSubject = errors.New("subject digest mismatch")
	// ErrNoKeys: [Verify] was given no public key to require.
	ErrNoKeys = errors.New("no public key to verify with")
	// ErrNoSigners: [Sign] was given no signer.
	ErrNoSigners = errors.New("no signer")
	// ErrDuplicateKey: the same key was given twice to [Sign] or [Verify],
	// or a signer's key already signed the envelope.
	ErrDuplicateKey = errors.New("duplicate key")
)

// FormatError is malformed input: the field it is in and what is wrong.
// It wraps [ErrMalformed] and Err.
type FormatError struct {
	// Field is the JSON path of the field ("signatures[0].sig",
	// "predicate.requirements[2].status"), or a part of a key file ("PEM",
	// "algorithm"); empty when the input as a whole is wrong.
	Field string
	// Offset is the byte offset in the input where the problem is, or -1.
	Offset int64
	Err    error
}

func (e *FormatError) Error() string {
	var b strings.Builder
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	if e.Offset >= 0 {
		fmt.Fprintf(&b, "at byte %d: ", e.Offset)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns [ErrMalformed] and the underlying error.
func (e *FormatError) Unwrap() []error { return []error{ErrMalformed, e.Err} }

// malformed returns a *FormatError for field with no offset.
func malformed(field string, format string, args ...any) *FormatError {
	return &FormatError{Field: field, Offset: -1, Err: fmt.Errorf(format, args...)}
}

// within prefixes the field of a *FormatError in err with outer, so that an
// error in the statement names "payload.subject[0].name".
func within(outer string, err error) error {
	var fe *FormatError
	if !errors.As(err, &fe) {
		return err
	}
	f := *fe
	switch {
	case f.Field == "":
		f.Field = outer
	case strings.HasPrefix(f.Field, "["):
		f.Field = outer + f.Field
	default:
		f.Field = outer + "." + f.Field
	}
	return &f
}

// SignatureError names the required keys that have no valid signature.
type SignatureError struct {
	Keys []KeyCheck // the failed keys, in the order they were given
}

func (e *SignatureError) Error() string {
	parts := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		parts[i] = k.describe()
	}
	return strings.Join(parts, "; ")
}

// Is reports whether target is [ErrSignature].
func (e *SignatureError) Is(target error) bool { return target == ErrSignature }

// SubjectError names the subjects whose files are missing or differ.
type SubjectError struct {
	Subjects []SubjectCheck // the failed subjects, in the statement's order
}

func (e *SubjectError) Error() string {
	parts := make([]string, len(e.Subjects))
	for i, s := range e.Subjects {
		parts[i] = s.describe()
	}
	return strings.Join(parts, "; ")
}

// Is reports whether target is [ErrSubject].
func (e *SubjectError) Is(target error) bool { return target == ErrSubject }
