package main

//go:generate go run ./internal/webbuild -dir web -pkg ./wasm

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

// webFS is the players' verifier page (docs/verifier-page.md): its files,
// not the JavaScript tests beside them (web/test).
//
//go:embed web/*.html web/*.js web/*.css web/*.svg
var webFS embed.FS

// pageCSP is the verifier page's Content-Security-Policy: its own scripts
// and styles only (no inline script or style), WebAssembly compiled from
// its own bytes, no network, no framing. index.html repeats it (without
// frame-ancestors, which a <meta> cannot set) for a copy opened from a file.
const pageCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Server limits.
const (
	serveReadHeaderTimeout = 5 * time.Second
	serveReadTimeout       = 10 * time.Second
	serveWriteTimeout      = 30 * time.Second
	serveIdleTimeout       = 60 * time.Second
	serveShutdownTimeout   = 10 * time.Second
	serveMaxHeaderBytes    = 16 << 10
)

func newServeCmd() *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080]",
		Short: "Serve the players' verifier page, which checks rounds in the browser",
		Long: `Serve the players' verifier page: a static page that verifies a round (seeds,
commitment, chain, beacon, cards) and settles its bets entirely in the browser,
with two independent implementations of the dealing (JavaScript and Go compiled
to WebAssembly). The server keeps no state and receives no round: a link's round
travels in its fragment (after "#"), which browsers never send.

The page also works saved to disk and opened as a file, with no network.
Stop the server with Ctrl-C or SIGTERM; it finishes the requests in flight.`,
		Example: `  fairhold serve
  fairhold serve --addr 0.0.0.0:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkListenAddr(addr); err != nil {
				return err
			}
			// From here an address that cannot be listened on (in use, a
			// host that does not resolve or is not this machine's) is an
			// error of the environment: exit 1.
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return serveOn(ctx, ln, cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on, host:port")
	return cmd
}

// checkListenAddr refuses, as a usage error, an --addr that is not
// host:port with a decimal port 0..65535 (0: any free port). The host may
// be empty (every interface).
func checkListenAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return usageErrorf("--addr: %v: want host:port, e.g. 127.0.0.1:8080", err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return usageErrorf("--addr: %q: the port must be a number 0..65535, got %q", addr, port)
	}
	return nil
}

// serveOn serves the page on ln until ctx is done, then shuts down
// gracefully.
func serveOn(ctx context.Context, ln net.Listener, stderr io.Writer) error {
	h, err := newPageHandler()
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: serveReadHeaderTimeout,
		ReadTimeout:       serveReadTimeout,
		WriteTimeout:      serveWriteTimeout,
		IdleTimeout:       serveIdleTimeout,
		MaxHeaderBytes:    serveMaxHeaderBytes,
	}
	fmt.Fprintf(stderr, "fairhold: serving the verifier page at http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	if ta, ok := ln.Addr().(*net.TCPAddr); ok && !ta.IP.IsLoopback() {
		fmt.Fprintln(stderr, "fairhold: note: browsers give the page WebCrypto only on https:// or localhost: serve it to other hosts behind HTTPS")
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), serveShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(stderr, "fairhold: stopped")
	return nil
}

// pageAsset is one file of the page, with its gzip form and ETag.
type pageAsset struct {
	typ  string
	raw  []byte
	gz   []byte // nil when gzip does not make it smaller
	etag string
}

// pageHandler serves the embedded page. It holds no state beyond the
// files, compressed once when it is made.
type pageHandler struct {
	assets map[string]*pageAsset // by URL path
}

func newPageHandler() (*pageHandler, error) {
	sub, err := fs.Sub(webFS, "web")
	if err != nil {
		return nil, err
	}
	return newPageHandlerFS(sub)
}

func newPageHandlerFS(fsys fs.FS) (*pageHandler, error) {
	h := &pageHandler{assets: map[string]*pageAsset{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		typ := mime.TypeByExtension(path.Ext(p))
		switch path.Ext(p) {
		case ".js":
			typ = "text/javascript; charset=utf-8"
		case ".html":
			typ = "text/html; charset=utf-8"
		case ".css":
			typ = "text/css; charset=utf-8"
		case ".png":
			typ = "image/png"
		case ".svg":
			typ = "image/svg+xml"
		}
		if typ == "" {
			typ = "application/octet-stream"
		}
		sum := sha256.Sum256(raw)
		a := &pageAsset{typ: typ, raw: raw, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		if _, err := zw.Write(raw); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		if b.Len() < len(raw) {
			a.gz = b.Bytes()
		}
		h.assets["/"+p] = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	if h.assets["/index.html"] == nil {
		return nil, errors.New("the page has no index.html")
	}
	h.assets["/"] = h.assets["/index.html"]
	return h, nil
}

func setSecurityHeaders(hd http.Header) {
	hd.Set("Content-Security-Policy", pageCSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
	hd.Set("Cross-Origin-Resource-Policy", "same-origin")
	hd.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()")
}

func (h *pageHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	setSecurityHeaders(hd)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	a := h.assets[r.URL.Path]
	if a == nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	hd.Set("Content-Type", a.typ)
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Vary", "Accept-Encoding")
	body := a.raw
	etag := a.etag
	if a.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body = a.gz
		etag = strings.TrimSuffix(etag, `"`) + `-gz"`
		hd.Set("Content-Encoding", "gzip")
	}
	hd.Set("ETag", etag)
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatch(inm, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Length", fmt.Sprint(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip.
func acceptsGzip(ae string) bool {
	for _, part := range strings.Split(ae, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}
