package report

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// SubjectOf returns the subject of an artefact held in memory.
func SubjectOf(name string, data []byte) Subject {
	sum := sha256.Sum256(data)
	return Subject{Name: name, Digest: map[string]string{DigestAlgorithm: hex.EncodeToString(sum[:])}}
}

// FileSubject returns the subject of the file name in fsys (for a
// directory on disk, os.DirFS(dir)).
func FileSubject(fsys fs.FS, name string) (Subject, error) {
	if err := checkName(name); err != nil {
		return Subject{}, fmt.Errorf("subject name: %w", err)
	}
	sum, err := digestFile(fsys, name)
	if err != nil {
		return Subject{}, err
	}
	return Subject{Name: name, Digest: map[string]string{DigestAlgorithm: sum}}, nil
}

// digestFile returns the hex SHA-256 of a regular file.
func digestFile(fsys fs.FS, name string) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", &fs.PathError{Op: "read", Path: name, Err: errNotFile}
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

var errNotFile = errors.New("not a regular file")

// SubjectStatus is the outcome of one subject.
type SubjectStatus string

// The statuses of a subject.
const (
	SubjectOK      SubjectStatus = "ok"      // the file's SHA-256 is the subject's
	SubjectDiffers SubjectStatus = "differs" // the file's SHA-256 is another
	SubjectMissing SubjectStatus = "missing" // there is no such file (or it is not a regular file)
)

// SubjectCheck is the outcome of one subject.
type SubjectCheck struct {
	Name     string        `json:"name"`
	Expected string        `json:"expected"`         // the SHA-256 the report gives
	Actual   string        `json:"actual,omitempty"` // the SHA-256 of the file at hand
	Status   SubjectStatus `json:"status"`
}

func (s SubjectCheck) describe() string {
	switch s.Status {
	case SubjectMissing:
		return fmt.Sprintf("subject %s: missing (expected sha256 %s)", s.Name, s.Expected)
	case SubjectDiffers:
		return fmt.Sprintf("subject %s: expected sha256 %s, actual %s", s.Name, s.Expected, s.Actual)
	}
	return fmt.Sprintf("subject %s: ok", s.Name)
}

// CheckSubjects hashes each subject's file in fsys and compares it with
// the statement. A missing file is [SubjectMissing]; errors other than a
// missing file (a read error) are returned as they are. When files are
// missing or differ, the error is a [*SubjectError] ([ErrSubject]) naming
// them, and the checks are returned with it.
func CheckSubjects(st *Statement, fsys fs.FS) ([]SubjectCheck, error) {
	out := make([]SubjectCheck, len(st.Subject))
	var failed []SubjectCheck
	for i, s := range st.Subject {
		c := SubjectCheck{Name: s.Name, Expected: s.SHA256()}
		sum, err := digestFile(fsys, s.Name)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, errNotFile):
			c.Status = SubjectMissing
		case err != nil:
			return nil, fmt.Errorf("failed to read subject %s: %w", s.Name, err)
		case sum == c.Expected:
			c.Actual, c.Status = sum, SubjectOK
		default:
			c.Actual, c.Status = sum, SubjectDiffers
		}
		out[i] = c
		if c.Status != SubjectOK {
			failed = append(failed, c)
		}
	}
	if len(failed) > 0 {
		return out, &SubjectError{Subjects: failed}
	}
	return out, nil
}

// CheckSubjects runs [CheckSubjects] on the verified statement and records
// the result: Subjects, and Verified false when a subject failed.
func (v *Verification) CheckSubjects(fsys fs.FS) error {
	if v.Statement == nil {
		return errors.New("the report's signatures are not verified: no statement to check")
	}
	checks, err := CheckSubjects(v.Statement, fsys)
	v.Subjects = checks
	if err != nil {
		v.Verified = false
	}
	return err
}
