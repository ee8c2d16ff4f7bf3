package manifest

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/internal/regularfile"
	"github.com/fairhold/fairhold/replay/source"
)

// MaxSize is the largest manifest.json [Load] reads: 16 MiB, about 40,000
// parts.
const MaxSize = 16 << 20

// Write writes m to dir/manifest.json and, when key is not nil, its
// signature to dir/manifest.json.sig, each to a temporary name first and
// renamed once whole. Without a key it removes a signature file left in dir
// by an earlier run, which would not sign these bytes. It returns the
// bytes written.
func Write(dir string, m *Manifest, key ed25519.PrivateKey) ([]byte, error) {
	b, err := Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	sigPath := filepath.Join(dir, SignatureName)
	if key == nil {
		if err := os.Remove(sigPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("failed to remove the stale %s: %w", sigPath, err)
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, FileName), b, 0o644); err != nil {
		return nil, err
	}
	if key != nil {
		if err := atomicfile.WriteFile(sigPath, Sign(b, key), 0o644); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Loaded is a manifest read by [Load].
type Loaded struct {
	Manifest *Manifest
	Bytes    []byte // the exact bytes of manifest.json
	Signed   bool   // dir holds manifest.json.sig
	Verified bool   // the signature verified with the key given
}

// InvalidError reports a manifest (or signature) that is present but
// cannot be used: not a regular file, unreadable, malformed, or, with a
// key, unsigned or signed otherwise.
type InvalidError struct {
	File   string // manifest.json or manifest.json.sig, with its directory
	Reason string
	Err    error // the cause, when there is one ([ErrSignature], ...)
}

func (e *InvalidError) Error() string { return e.File + ": " + e.Reason }
func (e *InvalidError) Unwrap() error { return e.Err }

// Load reads dir/manifest.json. A dataset without one gives an error
// matching [fs.ErrNotExist] (a manifest that is not a regular file is
// invalid, not absent). Every other failure is an [*InvalidError]. With a
// key, dir/manifest.json.sig must hold a signature of the manifest's exact
// bytes by it ([Verify]); without one, the signature is not checked.
func Load(dir string, key ed25519.PublicKey) (*Loaded, error) {
	return LoadFrom(source.Local, dir, key)
}

// LoadFrom reads the manifest of the dataset dir of src, as [Load] does.
func LoadFrom(src source.Source, dir string, key ed25519.PublicKey) (*Loaded, error) {
	path := source.Join(dir, FileName)
	b, err := readSmall(src, path, MaxSize)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, &InvalidError{File: path, Reason: err.Error(), Err: err}
	}
	m, err := Unmarshal(b)
	if err != nil {
		return nil, &InvalidError{File: path, Reason: err.Error(), Err: err}
	}
	l := &Loaded{Manifest: m, Bytes: b}
	sigPath := source.Join(dir, SignatureName)
	sig, err := readSmall(src, sigPath, ed25519.SignatureSize+1)
	switch {
	case err == nil:
		l.Signed = true
	case !errors.Is(err, fs.ErrNotExist):
		return nil, &InvalidError{File: sigPath, Reason: err.Error(), Err: err}
	}
	if key == nil {
		return l, nil
	}
	if !l.Signed {
		return nil, &InvalidError{File: sigPath, Reason: "no signature (a key was given, so the manifest must be signed)", Err: ErrSignature}
	}
	if err := Verify(b, sig, key); err != nil {
		return nil, &InvalidError{File: sigPath, Reason: err.Error(), Err: err}
	}
	l.Verified = true
	return l, nil
}

// readSmall reads a regular file of at most limit bytes.
func readSmall(src source.Source, path string, limit int64) ([]byte, error) {
	f, err := src.Open(path)
	if err != nil {
		var re *regularfile.Error
		if errors.As(err, &re) {
			return nil, errors.New(re.Reason)
		}
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return b, nil
}
