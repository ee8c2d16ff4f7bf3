package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/fairhold/fairhold/replay/atomicfile"
)

// KeyFiles describes a key pair written by [WriteKeyFiles]: the JSON of
// `fairhold keys new --json`. It holds no secret.
type KeyFiles struct {
	Algorithm  Algorithm `json:"algorithm"`
	KeyID      string    `json:"keyid"`
	PrivateKey string    `json:"private_key"` // the .key file, mode 0600
	PublicKey  string    `json:"public_key"`  // the .pub file
}

// WriteKeyFiles writes k to prefix+".key" (mode 0600, [PrivateKey.MarshalPEM])
// and its public key to prefix+".pub" (mode 0644, [PublicKey.MarshalPEM]).
// Each file is written whole or not at all (a temporary name, synced, then
// renamed). Unless replace is true, an existing file of either name is
// never overwritten: the error then wraps [fs.ErrExist] and names it, and
// nothing is written.
func WriteKeyFiles(k *PrivateKey, prefix string, replace bool) (KeyFiles, error) {
	kf := KeyFiles{Algorithm: k.Algorithm(), KeyID: k.KeyID(), PrivateKey: prefix + ".key", PublicKey: prefix + ".pub"}
	if !replace {
		for _, p := range []string{kf.PrivateKey, kf.PublicKey} {
			if _, err := os.Lstat(p); err == nil {
				return KeyFiles{}, fmt.Errorf("%s: %w", p, fs.ErrExist)
			}
		}
	}
	priv, err := k.MarshalPEM()
	if err != nil {
		return KeyFiles{}, err
	}
	if err := atomicfile.Write(kf.PrivateKey, priv, 0o600, replace); err != nil {
		return KeyFiles{}, err
	}
	if err := atomicfile.Write(kf.PublicKey, k.Public().MarshalPEM(), 0o644, replace); err != nil {
		if !replace && !errors.Is(err, fs.ErrExist) {
			_ = os.Remove(kf.PrivateKey) // ours: it did not exist before
		}
		return KeyFiles{}, err
	}
	return kf, nil
}
