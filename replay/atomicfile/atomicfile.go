// Package atomicfile writes files that are whole or absent: a file is
// written under a temporary name in its final directory, flushed to disk,
// and renamed to its final name only when it is complete. A process killed
// while writing leaves at most a temporary file (named
// ".NAME.tmp-NNNNNNNN", which no fairhold reader takes for a log, a
// manifest or a findings file), never a torn file at the final name.
//
// Start with [Create]; write; then [File.Commit], or [File.Abort] on any
// error. A deferred Abort after a Commit does nothing, so
//
//	f, err := atomicfile.Create(name)
//	if err != nil { ... }
//	defer f.Abort()
//	... write f ...
//	return f.Commit()
//
// never leaves a file at name unless Commit succeeded.
//
// A name that is a symbolic link is written through it: the temporary file
// goes beside the link's target, which the rename replaces, and the link
// stays. A name that is not a regular file (a device such as /dev/null or
// /dev/stdout's terminal or pipe, a named pipe) is written directly, as
// os.Create would: nothing can be renamed over it without destroying it,
// and a device or a pipe has no torn state to avoid.
package atomicfile

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// TempPrefix and TempInfix form the temporary names: a file to be named
// NAME is written as TempPrefix + NAME + TempInfix + a random number.
const (
	TempPrefix = "."
	TempInfix  = ".tmp-"
)

// File is a file being written under a temporary name.
type File struct {
	f      *os.File
	name   string // the final name
	target string // where the rename goes: name, or the target of the link name is
	tmp    string // "" when the file is written directly (not a regular file)
	done   bool   // committed or aborted
}

// Create starts writing the file name, with the permissions of
// [os.Create] (0666 before the umask).
func Create(name string) (*File, error) { return CreateMode(name, 0o666) }

// CreateMode starts writing the file name with permissions perm (before
// the umask). The temporary file is created in name's directory, which
// must exist.
func CreateMode(name string, perm os.FileMode) (*File, error) {
	target := name
	if st, err := os.Lstat(name); err == nil && st.Mode()&os.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(name); err != nil {
			return nil, fmt.Errorf("failed to create %s: %w", name, err)
		}
	}
	if st, err := os.Stat(target); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return nil, fmt.Errorf("failed to create %s: is a directory", name)
		}
		// A device or a named pipe: written directly (see the package doc).
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("failed to create %s: %w", name, err)
		}
		return &File{f: f, name: name, target: target}, nil
	}
	dir, base := filepath.Split(target)
	for range 100 {
		tmp := filepath.Join(dir, TempPrefix+base+TempInfix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("failed to create %s: %w", name, err)
		}
		return &File{f: f, name: name, target: target, tmp: tmp}, nil
	}
	return nil, fmt.Errorf("failed to create %s: no free temporary name", name)
}

// Name returns the final name of the file.
func (f *File) Name() string { return f.name }

// TempName returns the temporary name the file is written under.
func (f *File) TempName() string { return f.tmp }

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) { return f.f.Write(p) }

// Commit flushes the file to disk, closes it and renames it to its final
// name, replacing any file there; then it flushes the directory. On error
// the temporary file is removed and nothing is left at the final name that
// was not there before.
func (f *File) Commit() error {
	return f.commit(func() error { return os.Rename(f.tmp, f.target) })
}

// CommitNew is Commit, but it refuses to replace an existing file: it
// returns an error matching [os.ErrExist] and leaves the existing file as
// it was. It needs a file system with hard links.
func (f *File) CommitNew() error {
	if f.tmp == "" {
		f.Abort()
		return fmt.Errorf("failed to write %s: %w", f.name, os.ErrExist)
	}
	return f.commit(func() error {
		if err := os.Link(f.tmp, f.target); err != nil {
			return err
		}
		return os.Remove(f.tmp)
	})
}

func (f *File) commit(publish func() error) error {
	if f.done {
		return fmt.Errorf("failed to write %s: already committed or aborted", f.name)
	}
	f.done = true
	if f.tmp == "" { // written directly: nothing to sync or rename
		if err := f.f.Close(); err != nil {
			return fmt.Errorf("failed to write %s: %w", f.name, err)
		}
		return nil
	}
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = publish()
	}
	if err != nil {
		_ = os.Remove(f.tmp)
		return fmt.Errorf("failed to write %s: %w", f.name, err)
	}
	syncDir(filepath.Dir(f.target))
	return nil
}

// Abort closes and removes the temporary file. It does nothing after
// Commit or a first Abort.
func (f *File) Abort() error {
	if f.done {
		return nil
	}
	f.done = true
	err := f.f.Close()
	if f.tmp == "" {
		return err
	}
	if rerr := os.Remove(f.tmp); err == nil {
		err = rerr
	}
	return err
}

// WriteFile writes data to the file name atomically, as os.WriteFile
// would (permissions perm before the umask), replacing any file there.
func WriteFile(name string, data []byte, perm os.FileMode) error {
	return writeFile(name, data, perm, (*File).Commit)
}

// WriteFileNew is WriteFile, but it never replaces an existing file: it
// returns an error matching [os.ErrExist] and leaves that file as it was
// (keys, and the outputs a user asked not to overwrite).
func WriteFileNew(name string, data []byte, perm os.FileMode) error {
	if _, err := os.Lstat(name); err == nil {
		// Refused before anything is opened: opening a named pipe for
		// writing would wait for a reader.
		return fmt.Errorf("failed to write %s: %w", name, os.ErrExist)
	}
	return writeFile(name, data, perm, (*File).CommitNew)
}

// Write is WriteFile when replace is true, WriteFileNew when it is not.
func Write(name string, data []byte, perm os.FileMode, replace bool) error {
	if replace {
		return WriteFile(name, data, perm)
	}
	return WriteFileNew(name, data, perm)
}

func writeFile(name string, data []byte, perm os.FileMode, commit func(*File) error) error {
	f, err := CreateMode(name, perm)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("failed to write %s: %w", name, err)
	}
	return commit(f)
}

// syncDir flushes a directory's entries (the rename) to disk, where the
// system allows it; a failure costs durability, not atomicity, and is
// ignored.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
