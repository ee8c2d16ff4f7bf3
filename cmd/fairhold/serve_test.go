package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServeHandler(t *testing.T) {
	h, err := newPageHandler()
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(path, ae string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		require.NoError(t, err)
		if ae != "" {
			req.Header.Set("Accept-Encoding", ae)
		}
		resp, err := client.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}

	// The page, at / and /index.html, with its headers.
	for _, p := range []string{"/", "/index.html"} {
		resp := get(p, "")
		require.Equal(t, http.StatusOK, resp.StatusCode, p)
		assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
		csp := resp.Header.Get("Content-Security-Policy")
		assert.Contains(t, csp, "default-src 'none'")
		assert.Contains(t, csp, "script-src 'self' 'wasm-unsafe-eval'")
		assert.Contains(t, csp, "frame-ancestors 'none'")
		assert.NotContains(t, csp, "unsafe-inline")
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
		assert.Equal(t, "no-referrer", resp.Header.Get("Referrer-Policy"))
		assert.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"))
		assert.Empty(t, resp.Header.Get("Content-Encoding"), "no gzip unless asked")
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		assert.Contains(t, string(body), `<script src="app.js" defer></script>`)
		// No inline script or style in the page: every <script> has a src.
		assert.NotRegexp(t, `<script(?:\s+[a-z-]+="[^"]*")*\s*>`, string(body))
		assert.NotContains(t, string(body), "<style")
		assert.NotContains(t, string(body), " style=")
	}

	// gzip on the wire, when asked; the same bytes after decompression.
	plain := get("/fairhold-wasm.js", "")
	raw, err := io.ReadAll(plain.Body)
	require.NoError(t, err)
	zr := get("/fairhold-wasm.js", "br, gzip;q=0.8")
	assert.Equal(t, "gzip", zr.Header.Get("Content-Encoding"))
	assert.Equal(t, "Accept-Encoding", zr.Header.Get("Vary"))
	assert.Equal(t, "text/javascript; charset=utf-8", zr.Header.Get("Content-Type"))
	gz, err := io.ReadAll(zr.Body)
	require.NoError(t, err)
	assert.Less(t, len(gz), len(raw))
	r, err := gzip.NewReader(bytes.NewReader(gz))
	require.NoError(t, err)
	unz, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, raw, unz)
	assert.Empty(t, get("/app.js", "gzip;q=0").Header.Get("Content-Encoding"), "q=0 refuses gzip")

	// A revalidation by ETag.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/style.css", nil)
	req.Header.Set("If-None-Match", get("/style.css", "").Header.Get("ETag"))
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)

	// Not found, and no other method than GET and HEAD: nothing is stored.
	assert.Equal(t, http.StatusNotFound, get("/nosuch", "").StatusCode)
	assert.Equal(t, http.StatusNotFound, get("/../serve.go", "").StatusCode)
	nf := get("/nosuch", "")
	assert.Contains(t, nf.Header.Get("Content-Security-Policy"), "default-src 'none'", "errors carry the headers too")
	post, err := client.Post(srv.URL+"/", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	post.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, post.StatusCode)
	assert.Equal(t, "GET, HEAD", post.Header.Get("Allow"))
	head, err := client.Head(srv.URL + "/app.js")
	require.NoError(t, err)
	head.Body.Close()
	assert.Equal(t, http.StatusOK, head.StatusCode)
	assert.NotEqual(t, "0", head.Header.Get("Content-Length"))
}

// The page's files are all there, and small: the page and its WebAssembly
// under 5 MB.
func TestServePageSize(t *testing.T) {
	h, err := newPageHandler()
	require.NoError(t, err)
	total, wire := 0, 0
	for _, name := range []string{"/index.html", "/app.js", "/style.css", "/wasm_exec.js", "/fairhold-wasm.js", "/deal-classic.js", "/favicon.svg"} {
		a := h.assets[name]
		require.NotNil(t, a, "%s is embedded", name)
		total += len(a.raw)
		if a.gz != nil {
			wire += len(a.gz)
		} else {
			wire += len(a.raw)
		}
	}
	t.Logf("the page loads %d bytes, %d gzip-compressed", total, wire)
	assert.Less(t, total, 5_000_000)
}

func TestServeGracefulShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var log bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- serveOn(ctx, ln, &log) }()
	url := "http://" + ln.Addr().String() + "/"
	var resp *http.Response
	for i := 0; i < 50; i++ {
		if resp, err = http.Get(url); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	cancel() // as SIGTERM does
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
	assert.Contains(t, log.String(), "serving the verifier page at "+url)
	assert.Contains(t, log.String(), "stopped")
	_, err = http.Get(url)
	assert.Error(t, err, "nothing listens after the shutdown")
}

func TestServeUsage(t *testing.T) {
	_, stderr, code := runCLI("serve", "--addr", "nonsense")
	assert.Equal(t, exitUsage, code, stderr)
	_, _, code = runCLI("serve", "extra")
	assert.Equal(t, exitUsage, code)
	_, stderr, code = runCLI("serve", "--addr", "127.0.0.1:99999")
	assert.Equal(t, exitUsage, code, "a port out of range is a usage error, not a failure to listen")
	assert.Contains(t, stderr, "0..65535")
	for _, good := range []string{"127.0.0.1:8080", ":8080", "127.0.0.1:0", "[::1]:65535", "localhost:080"} {
		assert.NoError(t, checkListenAddr(good), good)
	}
	for _, bad := range []string{"nonsense", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:+80",
		"127.0.0.1:http", "::1:80", "[::1:80", "127.0.0.1:80:80", "127.0.0.1:99999999999999999999"} {
		err := checkListenAddr(bad)
		var e *exitErr
		if assert.ErrorAs(t, err, &e, bad) {
			assert.Equal(t, exitUsage, e.code, bad)
			assert.Contains(t, err.Error(), "--addr", bad)
		}
	}
}

// The real thing: `fairhold serve` as a process, stopped by SIGTERM,
// finishes and exits 0.
func TestServeSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	exe := filepath.Join(t.TempDir(), "fairhold")
	build := exec.Command("go", "build", "-o", exe, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	cmd := exec.Command(exe, "serve", "--addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill() }() // only if the test failed
	sc := bufio.NewScanner(stderr)
	require.True(t, sc.Scan(), "serve prints its address")
	m := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/)`).FindStringSubmatch(sc.Text())
	require.NotNil(t, m, sc.Text())
	resp, err := http.Get(m[1])
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	var rest []string
	for sc.Scan() {
		rest = append(rest, sc.Text())
	}
	require.NoError(t, cmd.Wait(), "exit status 0 after SIGTERM")
	assert.Contains(t, strings.Join(rest, "\n"), "stopped")
}
