package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// checkOutputFile checks, before a long computation, that the file path
// can be written: it is not a directory, and its directory exists and is
// writable. A directory given as the file is a usage error (exit 2); a
// directory that is missing or not writable is an error of the
// environment (exit 1).
func checkOutputFile(flag, path string) error {
	if path == "" {
		return usageErrorf("%s: empty file name", flag)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usageErrorf("%s %s: is a directory; want a file name", flag, path)
	}
	return checkWritableDir(flag, filepath.Dir(path))
}

// checkOutputDir checks, before a long computation, that the directory dir
// can be written or created: it is a directory if it exists, and the
// nearest directory above it that exists is writable.
func checkOutputDir(flag, dir string) error {
	if dir == "" {
		return usageErrorf("%s: empty directory name", flag)
	}
	d := filepath.Clean(dir)
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return usageErrorf("%s %s: %s is not a directory", flag, dir, d)
			}
			return checkWritableDir(flag, d)
		}
		if !os.IsNotExist(err) {
			return fmt.Errorf("%s %s: %w", flag, dir, err)
		}
		up := filepath.Dir(d)
		if up == d {
			return fmt.Errorf("%s %s: %w", flag, dir, err)
		}
		d = up
	}
}

// checkWritableDir checks that dir exists, is a directory and takes a new
// file, by creating and removing one.
func checkWritableDir(flag, dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s: directory %s: %w", flag, dir, err)
	}
	if !fi.IsDir() {
		return usageErrorf("%s: %s is not a directory", flag, dir)
	}
	f, err := os.CreateTemp(dir, ".fairhold-check-*")
	if err != nil {
		return fmt.Errorf("%s: directory %s is not writable: %w", flag, dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
