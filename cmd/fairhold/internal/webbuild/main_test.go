package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The committed page files are what webbuild makes from the sources now:
// the WebAssembly build is reproducible and not stale. Building it takes a
// while, so the test runs with FAIRHOLD_WEB_BUILD_CHECK=1 (.ci/web-build
// --check sets it); it is skipped when the committed build was made with
// another Go version, whose compiler gives other bytes.
func TestCommittedFilesFresh(t *testing.T) {
	if os.Getenv("FAIRHOLD_WEB_BUILD_CHECK") == "" {
		t.Skip("set FAIRHOLD_WEB_BUILD_CHECK=1 (or run .ci/web-build --check) to rebuild the page's WebAssembly and compare")
	}
	dir := filepath.Join("..", "..", "web")
	old, err := os.ReadFile(filepath.Join(dir, "fairhold-wasm.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(old[:200], []byte(" with "+runtime.Version()+";")) {
		t.Skipf("fairhold-wasm.js was built with another Go version than %s: %s", runtime.Version(), strings.SplitN(string(old), "\n", 2)[0])
	}
	files, err := build(dir, "../../wasm", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			t.Errorf("%s: %v", f.name, err)
			continue
		}
		if !bytes.Equal(got, f.data) {
			t.Errorf("%s is stale (%d bytes committed, %d built): run go run ./cmd/fairhold/internal/webbuild", f.name, len(got), len(f.data))
		}
	}
	// Twice the same bytes.
	again, err := build(dir, "../../wasm", "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		if !bytes.Equal(files[i].data, again[i].data) {
			t.Errorf("%s: two builds differ", files[i].name)
		}
	}
}

func TestClassicScript(t *testing.T) {
	src := []byte("const x = 1;\nexport function a(v) { return v + x; }\nexport async function b() {}\nexport const c = 3;\nfunction d() {}\n")
	got, err := classicScript(src)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, want := range []string{"function a(v)", "async function b()", "const c = 3;", "globalThis.fairholdDeal = Object.freeze({ a: a, b: b, c: c });"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	if strings.Contains(s, "export") {
		t.Errorf("an export is left:\n%s", s)
	}
	for _, bad := range []string{"import x from './y.js';\n", "export default function f() {}\n", "export { a };\n", "const u = import.meta.url;\n"} {
		if _, err := classicScript([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
