package source

// Path syntax. A URL (scheme://bucket/key, an object store's file) is
// slash-separated whatever the operating system, and its scheme and
// bucket are one element that is never cleaned away; every other path is
// the operating system's, as path/filepath's functions of the same names
// treat it. These functions serve every Source, so that code joining a
// dataset's paths need not know where the dataset is.

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// IsURL reports whether p names a file of an object store
// (scheme://...), as opposed to a local path.
func IsURL(p string) bool {
	scheme, _, ok := strings.Cut(p, "://")
	return ok && scheme != "" && !strings.ContainsAny(scheme, `/\.:`)
}

// SplitURL splits a URL into its root (scheme://bucket) and its cleaned
// key path ("" for the root, else "/a/b"); ok is false for a local path.
func SplitURL(p string) (root, key string, ok bool) {
	if !IsURL(p) {
		return "", "", false
	}
	scheme, rest, _ := strings.Cut(p, "://")
	host, k, _ := strings.Cut(rest, "/")
	return scheme + "://" + host, cleanKey(k), true
}

// cleanKey cleans a key path: "" for the bucket's root, else "/a/b".
func cleanKey(k string) string {
	k = path.Clean("/" + k)
	if k == "/" {
		return ""
	}
	return k
}

// Join joins path elements, as filepath.Join; a URL's key path is joined
// with slashes.
func Join(elem ...string) string {
	if len(elem) == 0 || !IsURL(elem[0]) {
		return filepath.Join(elem...)
	}
	root, key, _ := SplitURL(elem[0])
	parts := []string{"/", key}
	for _, e := range elem[1:] {
		parts = append(parts, filepath.ToSlash(e))
	}
	return root + cleanKey(path.Join(parts...))
}

// Split splits p after its last separator, as filepath.Split.
func Split(p string) (dir, file string) {
	if !IsURL(p) {
		return filepath.Split(p)
	}
	root, key, _ := SplitURL(p)
	if key == "" {
		return root + "/", ""
	}
	d, f := path.Split(key)
	return root + d, f
}

// Dir returns all but the last element of p, as filepath.Dir; a URL's
// root is its own Dir.
func Dir(p string) string {
	if !IsURL(p) {
		return filepath.Dir(p)
	}
	root, key, _ := SplitURL(p)
	return root + cleanKey(path.Dir("/"+key))
}

// Base returns the last element of p, as filepath.Base.
func Base(p string) string {
	if !IsURL(p) {
		return filepath.Base(p)
	}
	root, key, _ := SplitURL(p)
	if key == "" {
		return root
	}
	return path.Base(key)
}

// Clean cleans p, as filepath.Clean.
func Clean(p string) string {
	if !IsURL(p) {
		return filepath.Clean(p)
	}
	root, key, _ := SplitURL(p)
	return root + key
}

// Rel returns targ relative to base, as filepath.Rel; for URLs, only a
// path within base (or base itself).
func Rel(base, targ string) (string, error) {
	if !IsURL(base) && !IsURL(targ) {
		return filepath.Rel(base, targ)
	}
	br, bk, _ := SplitURL(base)
	tr, tk, _ := SplitURL(targ)
	switch {
	case !IsURL(base) || !IsURL(targ) || br != tr:
	case bk == tk:
		return ".", nil
	case strings.HasPrefix(tk, bk+"/"):
		return tk[len(bk)+1:], nil
	}
	return "", fmt.Errorf("%s is not in %s", targ, base)
}

// IsAbs reports whether p is absolute: a URL is.
func IsAbs(p string) bool { return IsURL(p) || filepath.IsAbs(p) }
