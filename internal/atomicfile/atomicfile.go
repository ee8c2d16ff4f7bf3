// Package atomicfile writes a file whole or not at all.
//
// [Write] writes the bytes to a temporary file in the destination's
// directory, syncs it to disk, and only then gives it its name: by rename
// when an existing file may be replaced, by hard link when it must not be
// (the link fails if the name exists, so a file that appeared meanwhile is
// never overwritten). A reader of the name therefore sees the old file or
// the whole new one, never a part, and a crash leaves at worst a temporary
// file named ".NAME.tmp-*" beside it.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes data to path with permission perm. With replace false it
// refuses to replace an existing file: the error then wraps [fs.ErrExist].
// Errors name the file, never its content.
func Write(path string, data []byte, perm fs.FileMode, replace bool) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if !replace {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s: %w", path, fs.ErrExist)
		}
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("failed to create a temporary file for %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if f != nil {
			_ = f.Close()
		}
		_ = os.Remove(tmp) // after a rename or a failure; harmless otherwise
	}()
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("failed to set the mode of %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	err = f.Close()
	f = nil
	if err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	if replace {
		err = os.Rename(tmp, path)
	} else {
		err = link(tmp, path)
	}
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: %w", path, fs.ErrExist)
		}
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// link gives tmp the name path unless path exists. Where the file system
// has no hard links, it falls back to a rename after checking that path is
// absent, which leaves a short window in which a file created by someone
// else could be replaced.
func link(tmp, path string) error {
	err := os.Link(tmp, path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, serr := os.Lstat(path); serr == nil {
		return fs.ErrExist
	}
	return os.Rename(tmp, path)
}

// syncDir makes the new name durable. Not every system can sync a
// directory; the file's own content is already synced, so failures are
// ignored.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
