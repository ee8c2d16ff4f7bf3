package report

import (
	"context"
	"crypto"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dsseVerifier is a verifier of the DSSE library for one public key, as a
// regulator's own Go code would write it: the key id is ours, the
// signature check the algorithm's.
type dsseVerifier struct{ k *PublicKey }

func (v dsseVerifier) Verify(_ context.Context, data, sig []byte) error {
	if !v.k.verify(data, sig) {
		return errors.New("invalid signature")
	}
	return nil
}
func (v dsseVerifier) KeyID() (string, error)   { return v.k.KeyID(), nil }
func (v dsseVerifier) Public() crypto.PublicKey { return nil }

// TestStandardDSSEVerifier verifies the golden report with the DSSE
// library's own envelope verifier: the signed bytes are standard DSSE.
func TestStandardDSSEVerifier(t *testing.T) {
	dir := filepath.Join("testdata", "golden")
	lab, err := ReadPublicKey(filepath.Join(dir, "lab.pub"))
	require.NoError(t, err)
	reg, err := ReadPublicKey(filepath.Join(dir, "regulator.pub"))
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	env, err := ParseEnvelope(data)
	require.NoError(t, err)

	ev, err := dsse.NewMultiEnvelopeVerifier(2, dsseVerifier{lab}, dsseVerifier{reg})
	require.NoError(t, err)
	accepted, body, err := ev.VerifyAndDecode(context.Background(), env)
	require.NoError(t, err)
	assert.Len(t, accepted, 2)
	_, err = ParseStatement(body)
	require.NoError(t, err)

	op := operatorKey(t).Public()
	ev, err = dsse.NewMultiEnvelopeVerifier(1, dsseVerifier{op})
	require.NoError(t, err)
	_, err = ev.Verify(context.Background(), env)
	assert.Error(t, err, "a key that did not sign")
}
