package main

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/report"
)

// newKeyPair writes a key pair with keys new and returns the prefix.
func newKeyPair(t *testing.T, dir, name string) string {
	t.Helper()
	prefix := filepath.Join(dir, name)
	_, stderr, code := runCLI("keys", "new", "--out", prefix)
	require.Equal(t, exitOK, code, stderr)
	return prefix
}

// TestKeysSignVerify: keys sign writes the 64-byte Ed25519 signature of the
// file's exact bytes, which the standard library verifies with the public
// key file (independently of fairhold's key parsing); keys verify accepts
// it, and refuses (exit 3) every signature with one bit changed and the
// file with one byte changed.
func TestKeysSignVerify(t *testing.T) {
	dir := t.TempDir()
	prefix := newKeyPair(t, dir, "release")
	file := filepath.Join(dir, "checksums.txt")
	data := []byte("0b7d9c1e  fairhold_1.0.0_linux_amd64.tar.gz\n1f2e3d4c  fairhold_1.0.0_linux_amd64.tar.gz.sbom.cdx.json\n")
	require.NoError(t, os.WriteFile(file, data, 0o644))
	_, stderr, code := runCLI("keys", "sign", file, "--key", prefix+".key")
	require.Equal(t, exitOK, code, stderr)

	sig, err := os.ReadFile(file + ".sig")
	require.NoError(t, err)
	require.Len(t, sig, ed25519.SignatureSize)
	pemBytes, err := os.ReadFile(prefix + ".pub")
	require.NoError(t, err)
	blk, _ := pem.Decode(pemBytes)
	require.NotNil(t, blk)
	pub, err := x509.ParsePKIXPublicKey(blk.Bytes)
	require.NoError(t, err)
	require.True(t, ed25519.Verify(pub.(ed25519.PublicKey), data, sig), "the standard library does not verify the signature")

	verify := func() int {
		_, _, code := runCLI("keys", "verify", file, "--key", prefix+".pub")
		return code
	}
	require.Equal(t, exitOK, verify())
	for i := range sig {
		bad := append([]byte{}, sig...)
		bad[i] ^= 0x40
		require.NoError(t, os.WriteFile(file+".sig", bad, 0o644))
		require.Equal(t, exitVerified, verify(), "signature byte %d changed", i)
	}
	require.NoError(t, os.WriteFile(file+".sig", sig, 0o644))
	for _, i := range []int{0, len(data) / 2, len(data) - 1} {
		bad := append([]byte{}, data...)
		bad[i] ^= 1
		require.NoError(t, os.WriteFile(file, bad, 0o644))
		require.Equal(t, exitVerified, verify(), "file byte %d changed", i)
	}
	require.NoError(t, os.WriteFile(file, append(data, '\n'), 0o644))
	require.Equal(t, exitVerified, verify(), "a byte appended")
	require.NoError(t, os.WriteFile(file, data, 0o644))
	require.Equal(t, exitOK, verify())
}

// TestKeysSignOpenSSL: the signature is the one OpenSSL 3 makes and
// verifies (docs/release.md's commands for users without a trusted
// fairhold), in both directions. Skipped without OpenSSL 3.
func TestKeysSignOpenSSL(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("no openssl on $PATH")
	}
	if v, err := exec.Command(openssl, "version").Output(); err != nil || !strings.HasPrefix(string(v), "OpenSSL 3") {
		t.Skipf("want OpenSSL 3 (pkeyutl -rawin for Ed25519), have %q", strings.TrimSpace(string(v)))
	}
	dir := t.TempDir()
	prefix := newKeyPair(t, dir, "release")
	file := filepath.Join(dir, "checksums.txt")
	require.NoError(t, os.WriteFile(file, []byte("abc  fairhold_1.0.0_linux_amd64.tar.gz\n"), 0o644))

	// fairhold signs, OpenSSL verifies (the command of docs/release.md).
	_, stderr, code := runCLI("keys", "sign", file, "--key", prefix+".key")
	require.Equal(t, exitOK, code, stderr)
	out, err := exec.Command(openssl, "pkeyutl", "-verify", "-pubin", "-inkey", prefix+".pub",
		"-rawin", "-in", file, "-sigfile", file+".sig").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "Signature Verified Successfully")

	// OpenSSL signs, fairhold verifies, and the two signatures are the same
	// bytes (Ed25519 is deterministic).
	osig := filepath.Join(dir, "openssl.sig")
	out, err = exec.Command(openssl, "pkeyutl", "-sign", "-inkey", prefix+".key",
		"-rawin", "-in", file, "-out", osig).CombinedOutput()
	require.NoError(t, err, "%s", out)
	_, stderr, code = runCLI("keys", "verify", file, "--key", prefix+".pub", "--sig", osig)
	require.Equal(t, exitOK, code, stderr)
	a, err := os.ReadFile(osig)
	require.NoError(t, err)
	b, err := os.ReadFile(file + ".sig")
	require.NoError(t, err)
	require.Equal(t, a, b)

	// OpenSSL refuses the signature of another key, as fairhold does.
	other := newKeyPair(t, dir, "other")
	out, err = exec.Command(openssl, "pkeyutl", "-verify", "-pubin", "-inkey", other+".pub",
		"-rawin", "-in", file, "-sigfile", file+".sig").CombinedOutput()
	require.Error(t, err, "%s", out)
}

// TestReleaseKey: docs/release-key.pub, the key users verify checksums.txt.sig
// with, is an Ed25519 public key, and the README and docs/release.md print
// its key id (so replacing the key without updating them fails here).
func TestReleaseKey(t *testing.T) {
	root := filepath.Join("..", "..")
	k, err := report.ReadPublicKey(filepath.Join(root, "docs", "release-key.pub"))
	require.NoError(t, err)
	require.Equal(t, report.Ed25519, k.Algorithm())
	for _, doc := range []string{"README.md", filepath.Join("docs", "release.md")} {
		b, err := os.ReadFile(filepath.Join(root, doc))
		require.NoError(t, err)
		require.Contains(t, string(b), k.KeyID(), "%s does not print the key id of docs/release-key.pub", doc)
	}
}
