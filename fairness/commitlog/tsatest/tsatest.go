// Package tsatest runs a real RFC 3161 time-stamping authority on loopback
// for tests: OpenSSL's `openssl ts -reply` behind an HTTP handler
// (RFC 3161 section 3.4), with a certificate authority and a TSA
// certificate made for the test.
package tsatest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// CA is a certificate authority made for a test.
type CA struct {
	Cert *x509.Certificate
	Key  crypto.Signer
}

// Pool returns a pool holding the CA's certificate.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

var serial struct {
	sync.Mutex
	n int64
}

func nextSerial() *big.Int {
	serial.Lock()
	defer serial.Unlock()
	serial.n++
	return big.NewInt(serial.n)
}

// NewCA makes a self-signed ECDSA P-256 certificate authority valid from an
// hour ago for a day.
func NewCA(t testing.TB, name string) *CA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          nextSerial(),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &CA{Cert: cert, Key: key}
}

var oidExtKeyUsage = asn1.ObjectIdentifier{2, 5, 29, 37}

// Issue makes a certificate of the CA for a new ECDSA P-256 key. With
// timeStamping true it carries the extended key usage RFC 3161 section
// 2.3 asks of a TSA (timeStamping alone, critical); otherwise serverAuth.
func (ca *CA) Issue(t testing.TB, name string, timeStamping bool) (*x509.Certificate, crypto.Signer) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: nextSerial(),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	if timeStamping {
		v, err := asn1.Marshal([]asn1.ObjectIdentifier{{1, 3, 6, 1, 5, 5, 7, 3, 8}})
		if err != nil {
			t.Fatal(err)
		}
		tmpl.ExtraExtensions = []pkix.Extension{{Id: oidExtKeyUsage, Critical: true, Value: v}}
	} else {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, key.Public(), ca.Key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}

// TSA is a running OpenSSL time-stamping authority.
type TSA struct {
	URL      string
	CA       *CA
	Cert     *x509.Certificate
	Accuracy time.Duration // the accuracy its tokens state
	Requests int           // answered so far
}

// Accuracy of the tokens: secs:1, millisecs:500.
const accuracy = 1500 * time.Millisecond

// RequireOpenSSL skips the test when the openssl command is absent, and
// fails it instead when the environment variable CI is set (CI must run
// it).
func RequireOpenSSL(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("openssl")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("openssl not found, and CI must run the RFC 3161 tests: %v", err)
		}
		t.Skipf("skipped: the openssl command is not installed (apt-get install openssl); it runs the test's time-stamping authority: %v", err)
	}
	return p
}

// Start runs `openssl ts -reply` behind an HTTP server on loopback, with
// a new CA and TSA certificate; it stops when the test ends.
func Start(t testing.TB) *TSA {
	t.Helper()
	openssl := RequireOpenSSL(t)
	dir := t.TempDir()
	ca := NewCA(t, "fairhold test TSA root")
	cert, key := ca.Issue(t, "fairhold test TSA", true)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	certPEM := write("tsa.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}))
	caPEM := write("ca.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.Cert.Raw}))
	keyPEM := write("tsa.key", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
	serialFile := write("serial", []byte("01\n"))
	cfg := write("openssl.cnf", []byte(fmt.Sprintf(`[ tsa ]
default_tsa = fairhold_test
[ fairhold_test ]
serial = %s
crypto_device = builtin
signer_digest = sha256
default_policy = 1.3.6.1.4.1.57264.99.1
digests = sha256
accuracy = secs:1, millisecs:500
ordering = no
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`, serialFile)))
	tsa := &TSA{CA: ca, Cert: cert, Accuracy: accuracy}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/timestamp-query" {
			http.Error(w, "want POST application/timestamp-query", http.StatusBadRequest)
			return
		}
		q, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		tsa.Requests++
		qf := filepath.Join(dir, fmt.Sprintf("q%d.tsq", tsa.Requests))
		rf := filepath.Join(dir, fmt.Sprintf("r%d.tsr", tsa.Requests))
		if err := os.WriteFile(qf, q, 0o600); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		cmd := exec.CommandContext(r.Context(), openssl, "ts", "-reply", "-config", cfg, "-queryfile", qf,
			"-signer", certPEM, "-inkey", keyPEM, "-chain", caPEM, "-out", rf)
		if out, err := cmd.CombinedOutput(); err != nil {
			http.Error(w, fmt.Sprintf("openssl ts -reply: %v: %s", err, out), http.StatusInternalServerError)
			return
		}
		resp, err := os.ReadFile(rf)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/timestamp-reply")
		w.Write(resp)
	}))
	t.Cleanup(srv.Close)
	tsa.URL = srv.URL + "/tsr"
	return tsa
}
