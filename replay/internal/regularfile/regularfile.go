// Package regularfile opens files for reading only when they are regular
// files. A log, a manifest or a signature named by a path may be a named
// pipe (FIFO), a device, a directory or a dangling or looping symbolic link
// in a hostile dataset: opening a FIFO for reading blocks until a writer
// comes, and reading a device may never end. [Open] refuses them all with
// an [*Error] and never blocks; a symbolic link to a regular file is
// followed.
package regularfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Error reports a path that is not a regular file.
type Error struct {
	Path   string
	Reason string // "not a regular file (named pipe)", "dangling symbolic link", ...
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason }

// Check reports whether name is a regular file (following symbolic
// links): nil, an [*Error] saying what it is instead, or the error of
// os.Stat (a missing file matches [fs.ErrNotExist]; a file that cannot be
// read, [fs.ErrPermission]).
func Check(name string) (fs.FileInfo, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, describe(name, err)
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{Path: name, Reason: "not a regular file (" + kind(st.Mode()) + ")"}
	}
	return st, nil
}

// Open opens name for reading if it is a regular file or a symbolic link
// to one. It never blocks: a FIFO is refused before it is opened, and the
// file is opened without waiting for a writer and checked again once open
// (a file swapped for a FIFO in between is refused too).
func Open(name string) (*os.File, error) {
	if _, err := Check(name); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, describe(name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &Error{Path: name, Reason: "not a regular file (" + kind(st.Mode()) + ")"}
	}
	return f, nil
}

// describe names what a failed Stat or Open met: a dangling or looping
// symbolic link, or the error itself.
func describe(name string, err error) error {
	if isLoop(err) {
		return &Error{Path: name, Reason: "symbolic link loop"}
	}
	if errors.Is(err, fs.ErrNotExist) {
		if lst, lerr := os.Lstat(name); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			return &Error{Path: name, Reason: "dangling symbolic link"}
		}
	}
	return err
}

// kind names a file mode that is not a regular file's.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return fmt.Sprintf("mode %v", m.Type())
}
