package main

// Replays from a real S3-compatible server started by the test on
// loopback: Versity Gateway (github.com/versity/versitygw, Apache-2.0), an
// S3 gateway over a POSIX directory, a tool dependency of this module
// (go.mod's tool directive: it is not linked into fairhold). Unlike
// gofakes3 (replay_s3_test.go), it verifies every request's SigV4
// signature, so these tests show that fairhold's requests are signed as a
// real S3 service wants them: the replay of two datasets from it is the
// local replay, byte for byte but for the names; shards replayed from it
// and merged are that replay too; wrong credentials are an error naming
// the dataset. Skipped with a message when the gateway cannot be built
// or does not answer within a minute; skipped under -short; skipped in the
// default build, where it runs only with FAIRHOLD_VERSITYGW set (CI runs
// it with -tags heavy).

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// versityGWPkg is the gateway's command, as go.mod's tool directive names
// it.
const versityGWPkg = "github.com/versity/versitygw/cmd/versitygw"

// versityGWStart is how long the gateway has to answer once started.
const versityGWStart = 60 * time.Second

// versityGWBinary returns the gateway's executable, built by `go tool -n`
// (which builds it once and keeps it in the build cache: later runs cost
// a fraction of a second). The test is skipped if it cannot be built.
func versityGWBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("FAIRHOLD_VERSITYGW"); p != "" {
		return p // a gateway built elsewhere
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("Versity Gateway: no go command to build it (%v); set FAIRHOLD_VERSITYGW to its binary", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, goCmd, "tool", "-n", versityGWPkg)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("Versity Gateway cannot be built (go tool -n %s: %v): %s", versityGWPkg, err, lastLines(stderr.String(), 10))
	}
	bin := strings.TrimSpace(string(out))
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("Versity Gateway cannot be built: go tool -n printed %q: %v", bin, err)
	}
	t.Logf("Versity Gateway: %s (go tool -n: %.1f s)", bin, time.Since(start).Seconds())
	return bin
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// startVersityGW starts the gateway on 127.0.0.1 over a temporary
// directory, with the root account s3TestKey/s3TestSecret and the bucket
// s3TestBucket, and sets the AWS environment (setS3Env). The gateway is
// killed when the test ends, and by the kernel if the test process dies
// first (setPdeathsig, on Linux).
func startVersityGW(t *testing.T) s3Bucket {
	t.Helper()
	bin := versityGWBinary(t)
	root, iam := t.TempDir(), t.TempDir()
	// In the posix backend, the root directory's subdirectories are the
	// buckets.
	require.NoError(t, os.Mkdir(filepath.Join(root, s3TestBucket), 0o755))
	var last string
	for try := 0; try < 3; try++ { // another process may take the port between Close and the gateway's Listen
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Skipf("Versity Gateway: cannot listen on 127.0.0.1: %v", err)
		}
		addr := l.Addr().String()
		l.Close()
		url, err := runVersityGW(t, bin, root, iam, addr)
		if err == nil {
			setS3Env(t)
			return s3Bucket{url: url}
		}
		last = err.Error()
	}
	t.Skipf("Versity Gateway cannot start: %s", last)
	return s3Bucket{}
}

// runVersityGW runs the gateway on addr and waits until it answers. Its
// accounts are kept in the directory iam (the root account's and no
// other): without an IAM service, the gateway answers an unknown access
// key with 404 XAdminUserNotFound where S3 answers 403
// InvalidAccessKeyId, as it does with one.
func runVersityGW(t *testing.T, bin, root, iam, addr string) (string, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin,
		"--access", s3TestKey, "--secret", s3TestSecret, "--region", "us-east-1",
		"--port", addr, "--iam-dir", iam, "--quiet", "posix", root)
	cmd.Dir = root
	// Only what the gateway needs of the environment: none of the
	// user's VGW_* or ROOT_ACCESS_KEY* settings.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + iam, "TMPDIR=" + os.TempDir()}
	out := &syncBuffer{} // progress_test.go
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second
	setPdeathsig(cmd)
	if err := cmd.Start(); err != nil {
		cancel()
		return "", err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stop := func() { cancel(); <-exited }
	url := "http://" + addr
	client := &http.Client{Timeout: 2 * time.Second}
	started := time.Now()
	deadline := started.Add(versityGWStart)
	for {
		select {
		case <-exited:
			cancel()
			return "", fmt.Errorf("it exited (%v): %s", cmd.ProcessState, lastLines(out.String(), 10))
		default:
		}
		// Any answer will do: an anonymous request is refused (403).
		if resp, err := client.Get(url + "/"); err == nil {
			resp.Body.Close()
			t.Logf("Versity Gateway answers on %s after %.2f s", addr, time.Since(started).Seconds())
			t.Cleanup(func() {
				stop()
				if t.Failed() {
					t.Logf("Versity Gateway's output:\n%s", lastLines(out.String(), 40))
				}
			})
			return url, nil
		}
		if time.Now().After(deadline) {
			stop()
			return "", fmt.Errorf("no answer on %s within %v: %s", addr, versityGWStart, lastLines(out.String(), 10))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestReplayVersityGW(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Versity Gateway (about 100 s the first time) and replays two datasets from it")
	}
	if !heavyTests && os.Getenv("FAIRHOLD_VERSITYGW") == "" {
		t.Skip("needs Versity Gateway, built from source (about 100 s the first time): run it with " +
			"go test -tags heavy ./cmd/fairhold -run TestReplayVersityGW (as CI does), or with FAIRHOLD_VERSITYGW set to a gateway binary")
	}
	gw := startVersityGW(t)
	dir := t.TempDir()
	start := time.Now()
	s3ReplayDatasets(t, gw, dir)
	assertReplayS3AsLocal(t, gw, dir)
	t.Logf("two datasets replayed from local disk and from the gateway: %.1f s", time.Since(start).Seconds())

	root := "s3://" + s3TestBucket + "/y2026"
	t.Run("shards merged", func(t *testing.T) {
		// Two shards of the Double Hold'em dataset read from the gateway,
		// merged: the unsharded replay from local disk.
		if newReplayCmd().Flags().Lookup("part-out") == nil {
			t.Skip("this build has no sharded replay (replay --part-out)")
		}
		tmp := t.TempDir()
		code, sum, found, stderr := replayOut(t, filepath.Join(tmp, "local.jsonl"), filepath.Join(dir, "dh"))
		require.Equal(t, exitVerified, code, stderr)
		local := strings.NewReplacer(dir, root)
		wantSum, wantFound := local.Replace(sum), local.Replace(found)
		parts := replayShards(t, root+"/dh"+gw.query(), filepath.Join(tmp, "parts"), 2, nil)
		code, sum, found, stderr = mergeOut(t, filepath.Join(tmp, "merged.jsonl"), parts...)
		assert.Equal(t, exitVerified, code, stderr)
		assert.Equal(t, wantSum, sum, "2 shards from the gateway, merged: the summary")
		assert.Equal(t, wantFound, found, "2 shards from the gateway, merged: the findings")
		assertMergeManifestS3(t, gw, "y2026/dh", parts, wantSum)
	})
	t.Run("wrong credentials", func(t *testing.T) {
		// The gateway refuses the request (403; a HEAD's answer has no
		// body, so no S3 error code): exit 1, naming the dataset or the
		// manifest, whether the secret is wrong (the signature does not
		// match) or the key id unknown.
		for _, c := range []struct{ name, env, value string }{
			{"secret", "AWS_SECRET_ACCESS_KEY", "not-the-secret"},
			{"key", "AWS_ACCESS_KEY_ID", "WRONGKEY"},
		} {
			t.Run(c.name, func(t *testing.T) {
				t.Setenv(c.env, c.value)
				_, stderr, code := runCLI("replay", root+"/dh"+gw.query())
				assert.Equal(t, exitError, code, stderr)
				assert.Contains(t, stderr, "stat "+root+"/dh: permission denied")
				assert.Contains(t, stderr, "StatusCode: 403")
				assert.NotContains(t, stderr, "endpoint=")
				_, stderr, code = runCLI("merge", filepath.Join(dir, "none.fhpart"), "--manifest", root+"/dh/manifest.json"+gw.query())
				assert.Equal(t, exitError, code, stderr)
				assert.Contains(t, stderr, "--manifest: open "+root+"/dh/manifest.json: permission denied")
				assert.Contains(t, stderr, "StatusCode: 403")
			})
		}
	})
}
