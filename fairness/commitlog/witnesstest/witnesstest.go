// Package witnesstest runs a real C2SP tlog-witness on loopback for tests:
// litewitness from filippo.io/torchwood, with its Ed25519 key in a
// dedicated ssh-agent, as its README describes.
//
// The binaries litewitness and witnessctl are looked up in the directory
// named by the environment variable FAIRHOLD_LITEWITNESS_DIR (.ci/run
// builds them there: go install filippo.io/torchwood/cmd/litewitness@v0.6.1
// and witnessctl); without it the tests that need a witness are skipped
// (failed when CI is set). ssh-agent, ssh-add and ssh-keygen
// (openssh-client) must be installed.
package witnesstest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// EnvDir names the directory holding litewitness and witnessctl.
const EnvDir = "FAIRHOLD_LITEWITNESS_DIR"

// Version is the torchwood version .ci/run builds.
const Version = "v0.6.1"

// Witness is a running litewitness.
type Witness struct {
	URL  string // the witness's base URL; requests go to URL/add-checkpoint
	Name string // the witness's name, in its cosignature lines
	VKey string // its C2SP cosignature/v1 verifier key, as litewitness logs it
	db   string
	ctl  string
}

func skipOrFail(t testing.TB, format string, a ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, a...)
	}
	t.Skipf("skipped: "+format, a...)
}

// Binaries returns the paths of litewitness and witnessctl, or skips the
// test (fails it when CI is set) when they or ssh-agent are not there.
func Binaries(t testing.TB) (litewitness, witnessctl string) {
	t.Helper()
	dir := os.Getenv(EnvDir)
	if dir == "" {
		skipOrFail(t, "%s is not set: a directory with litewitness and witnessctl (GOBIN=DIR go install filippo.io/torchwood/cmd/litewitness@%s filippo.io/torchwood/cmd/witnessctl@%s; .ci/run does)", EnvDir, Version, Version)
	}
	litewitness, witnessctl = filepath.Join(dir, "litewitness"), filepath.Join(dir, "witnessctl")
	for _, p := range []string{litewitness, witnessctl} {
		if _, err := os.Stat(p); err != nil {
			skipOrFail(t, "%s=%s: %v", EnvDir, dir, err)
		}
	}
	for _, c := range []string{"ssh-agent", "ssh-add", "ssh-keygen"} {
		if _, err := exec.LookPath(c); err != nil {
			skipOrFail(t, "%s not found (apt-get install openssh-client): litewitness keeps its key in ssh-agent: %v", c, err)
		}
	}
	return litewitness, witnessctl
}

func run(t testing.TB, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v: %s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Start runs a litewitness named name on a free loopback port, with a new
// Ed25519 key in its own ssh-agent, and stops both when the test ends.
func Start(t testing.TB, name string) *Witness {
	t.Helper()
	lw, ctl := Binaries(t)
	// A short directory: a unix socket's path has at most 107 bytes.
	dir, err := os.MkdirTemp("", "lw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	key, sock := filepath.Join(dir, "key"), filepath.Join(dir, "agent.sock")
	run(t, nil, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "fairhold-test-witness", "-f", key)
	agent := exec.Command("ssh-agent", "-D", "-a", sock)
	agent.Stdout, agent.Stderr = io.Discard, io.Discard
	if err := agent.Start(); err != nil {
		t.Fatalf("ssh-agent: %v", err)
	}
	t.Cleanup(func() { agent.Process.Kill(); agent.Wait() })
	for i := 0; ; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if i == 100 {
			t.Fatalf("ssh-agent: no socket %s after 5 s", sock)
		}
		time.Sleep(50 * time.Millisecond)
	}
	run(t, []string{"SSH_AUTH_SOCK=" + sock}, "ssh-add", key)
	fp := strings.Fields(run(t, nil, "ssh-keygen", "-l", "-E", "sha256", "-f", key+".pub"))
	if len(fp) < 2 || !strings.HasPrefix(fp[1], "SHA256:") {
		t.Fatalf("ssh-keygen -l: unexpected output %q", fp)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	w := &Witness{URL: "http://" + addr, Name: name, db: filepath.Join(dir, "witness.db"), ctl: ctl}
	// Create the database before litewitness opens it.
	run(t, nil, ctl, "list-logs", "-db", w.db)

	cmd := exec.Command(lw, "-name", name, "-db", w.db, "-ssh-agent", sock, "-key", fp[1], "-listen", addr)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("litewitness: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var logged bytes.Buffer
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			logged.WriteString(line + "\n")
			if i := strings.Index(line, " vkey="); i >= 0 && w.VKey == "" {
				w.VKey = strings.Fields(line[i+len(" vkey="):])[0]
			}
			if !sent && strings.Contains(line, "msg=listening") {
				ready <- nil
				sent = true
			}
		}
		if !sent {
			ready <- fmt.Errorf("litewitness exited: %s", logged.String())
		}
	}()
	select {
	case err := <-ready:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("litewitness: not listening after 20 s")
	}
	// The log line comes before the listener opens; wait for the port.
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if i == 100 {
			t.Fatalf("litewitness: %s not accepting connections: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if w.VKey == "" {
		t.Fatalf("litewitness logged no verifier key")
	}
	return w
}

// AddLog tells the witness (witnessctl add-log, add-key) to accept
// checkpoints of the log origin signed by the log's C2SP verifier key.
func (w *Witness) AddLog(t testing.TB, origin, logVKey string) {
	t.Helper()
	run(t, nil, w.ctl, "add-log", "-db", w.db, "-origin", origin)
	run(t, nil, w.ctl, "add-key", "-db", w.db, "-origin", origin, "-key", logVKey)
}
