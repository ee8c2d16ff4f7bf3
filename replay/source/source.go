// Package source is where the files of a dataset are read from: the
// local file system ([Local], what every command reads by default), or an
// object store (replay/source/blobsrc: s3://, gs://, azblob://).
//
// A [Source] names its files by paths: [Local]'s are the operating
// system's paths, an object store's are URLs such as
// s3://bucket/day/rounds/part-00000.parquet. Whatever reads a dataset
// (replay/roundlog, replay/manifest, replay/replayer) opens files through
// the Source it was given and joins and splits paths with this package's
// [Join], [Dir], [Base]... (which know both syntaxes), never through
// package os or path/filepath directly, so that a finding names a file
// the same way the user named the dataset.
//
// A [File] is read at offsets ([io.ReaderAt]: Parquet footers, column
// chunks and page headers) or from its start to its end ([io.Reader]:
// JSON Lines, and the SHA-256 of a part checked against its manifest).
// [Local]'s files are *os.File, so the local path costs no more than it
// did before this package.
package source

import (
	"io"
	"io/fs"
	"os"

	"github.com/fairhold/fairhold/replay/internal/regularfile"
)

// File is an opened file of a Source. ReadAt may be called concurrently;
// Read is sequential and is not to be mixed with ReadAt by two
// goroutines.
type File interface {
	io.ReaderAt
	io.Reader
	io.Closer
	// Stat describes the file: its Size above all.
	Stat() (fs.FileInfo, error)
}

// Source is a tree of files: directories and regular files. Its methods
// are safe for concurrent use. A missing file gives an error matching
// [fs.ErrNotExist].
type Source interface {
	// Stat describes the file or directory name, following symbolic
	// links.
	Stat(name string) (fs.FileInfo, error)
	// Lstat describes name without following a symbolic link.
	Lstat(name string) (fs.FileInfo, error)
	// Check reports whether name is a regular file: its FileInfo, or an
	// error saying what it is instead (a *regularfile.Error for a named
	// pipe, a device, a directory, a dangling link...).
	Check(name string) (fs.FileInfo, error)
	// ReadDir lists the directory name, sorted by name.
	ReadDir(name string) ([]fs.DirEntry, error)
	// Open opens the regular file name for reading; it never blocks on
	// a named pipe.
	Open(name string) (File, error)
}

// Local is the local file system: the paths and files of package os.
var Local Source = local{}

type local struct{}

func (local) Stat(name string) (fs.FileInfo, error)  { return os.Stat(name) }
func (local) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(name) }
func (local) Check(name string) (fs.FileInfo, error) { return regularfile.Check(name) }
func (local) ReadDir(name string) ([]fs.DirEntry, error) {
	return os.ReadDir(name)
}

func (local) Open(name string) (File, error) {
	f, err := regularfile.Open(name)
	if err != nil {
		return nil, err // not a *os.File(nil) in a File
	}
	return f, nil
}
