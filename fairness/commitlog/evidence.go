package commitlog

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	fnote "github.com/transparency-dev/formats/note"
	"github.com/transparency-dev/tessera/client"
	"golang.org/x/mod/sumdb/note"
)

// Paths of the evidence layout (docs/commitment-log.md section 9), relative
// to the log's root, in the slash form of the tlog-tiles layout.
const (
	EvidenceIndexPath = "evidence/index"
	evidenceCPDir     = "evidence/checkpoint"
	evidenceTSDir     = "evidence/timestamp"
)

// EvidenceCheckpointPath is the path of the timed checkpoint of a size.
func EvidenceCheckpointPath(size uint64) string {
	return evidenceCPDir + "/" + strconv.FormatUint(size, 10)
}

// EvidenceTimestampPath is the path of the RFC 3161 token of a size.
func EvidenceTimestampPath(size uint64) string {
	return evidenceTSDir + "/" + strconv.FormatUint(size, 10)
}

// Size limits of the evidence a reader reads.
const (
	maxEvidenceIndex = 1 << 20 // about 50,000 sizes
	maxTimestamp     = 64 << 10
)

// Trust is what a verifier trusts besides the log's own key.
type Trust struct {
	// Witnesses are the C2SP verifier keys of the witnesses trusted to
	// cosign (name+hash8+base64(0x04||pub32), tlog-cosignature).
	Witnesses []string
	// Quorum is the number of distinct trusted witnesses whose
	// cosignatures a checkpoint needs to be timed by them; 0 means 1 when
	// Witnesses is set.
	Quorum int
	// TSARoots are the trusted time-stamping authorities' roots; nil:
	// tokens are not read.
	TSARoots *x509.CertPool
}

// noteText splits a signed note into its text (the body lines with their
// LFs) and its signature block.
func noteText(msg []byte) (text, sigs []byte, err error) {
	i := bytes.LastIndex(msg, []byte("\n\n"))
	if i < 0 {
		return nil, nil, errors.New("not a signed note: no blank line before the signatures")
	}
	text, sigs = msg[:i+1], msg[i+2:]
	if len(sigs) == 0 || sigs[len(sigs)-1] != '\n' {
		return nil, nil, errors.New("not a signed note: no signature lines ending in LF")
	}
	for _, l := range bytes.Split(sigs[:len(sigs)-1], []byte("\n")) {
		if !bytes.HasPrefix(l, []byte("— ")) {
			return nil, nil, fmt.Errorf("not a signed note: signature line %q does not begin with \"— \"", trunc(string(l)))
		}
	}
	return text, sigs, nil
}

// checkpointSize reads the size line of a checkpoint's note text.
func checkpointSize(text []byte) (uint64, error) {
	lines := strings.SplitN(string(text), "\n", 4)
	if len(lines) < 4 {
		return 0, errors.New("a checkpoint has at least three lines: origin, size, root hash")
	}
	s := lines[1]
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || (len(s) > 1 && s[0] == '0') {
		return 0, fmt.Errorf("checkpoint size line %q: want a decimal number without leading zeros", trunc(s))
	}
	return n, nil
}

// WriteEvidence stores a checkpoint note (with whatever cosignatures it
// carries) as evidence/checkpoint/<SIZE> under the log directory dir and
// adds SIZE to evidence/index (kept ascending, idempotent). When the file
// already holds a note of the same text, the signature lines are merged
// (the existing ones first, each line once); a note of another text for
// the same size is refused. tsr, when not nil, is stored as
// evidence/timestamp/<SIZE>, replacing any token there. WriteEvidence does
// not verify signatures: [LoadTimeline] does.
func WriteEvidence(dir string, note []byte, tsr []byte) error {
	text, sigs, err := noteText(note)
	if err != nil {
		return err
	}
	size, err := checkpointSize(text)
	if err != nil {
		return err
	}
	cpPath := filepath.Join(dir, filepath.FromSlash(EvidenceCheckpointPath(size)))
	if old, err := os.ReadFile(cpPath); err == nil {
		oldText, oldSigs, err := noteText(old)
		if err != nil {
			return fmt.Errorf("%s: %w", cpPath, err)
		}
		if !bytes.Equal(oldText, text) {
			return fmt.Errorf("%s holds another checkpoint of size %d (a different root or origin): refusing to replace it", cpPath, size)
		}
		note = mergeSigs(oldText, oldSigs, sigs)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(cpPath), 0o755); err != nil {
		return err
	}
	if err := writeFileAtomic(cpPath, note); err != nil {
		return err
	}
	if tsr != nil {
		tsPath := filepath.Join(dir, filepath.FromSlash(EvidenceTimestampPath(size)))
		if err := os.MkdirAll(filepath.Dir(tsPath), 0o755); err != nil {
			return err
		}
		if err := writeFileAtomic(tsPath, tsr); err != nil {
			return err
		}
	}
	idxPath := filepath.Join(dir, filepath.FromSlash(EvidenceIndexPath))
	var sizes []uint64
	if b, err := os.ReadFile(idxPath); err == nil {
		if sizes, err = parseEvidenceIndex(b); err != nil {
			return fmt.Errorf("%s: %w", idxPath, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if _, found := slices.BinarySearch(sizes, size); found {
		return nil
	}
	sizes = append(sizes, size)
	slices.Sort(sizes)
	var buf bytes.Buffer
	for _, s := range sizes {
		fmt.Fprintf(&buf, "%d\n", s)
	}
	return writeFileAtomic(idxPath, buf.Bytes())
}

// mergeSigs returns the note of text with the signature lines of a then
// those of b not in a.
func mergeSigs(text, a, b []byte) []byte {
	out := append(append(append([]byte(nil), text...), '\n'), a...)
	have := map[string]bool{}
	for _, l := range strings.SplitAfter(string(a), "\n") {
		have[l] = true
	}
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if l != "" && !have[l] {
			out = append(out, l...)
			have[l] = true
		}
	}
	return out
}

func writeFileAtomic(name string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), name)
}

// parseEvidenceIndex parses evidence/index: decimal sizes, one a line,
// each ending in LF, strictly ascending, no leading zeros.
func parseEvidenceIndex(b []byte) ([]uint64, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if b[len(b)-1] != '\n' {
		return nil, errors.New("the last line does not end in LF")
	}
	var out []uint64
	for i, l := range strings.Split(string(b[:len(b)-1]), "\n") {
		n, err := strconv.ParseUint(l, 10, 64)
		if err != nil || (len(l) > 1 && l[0] == '0') || l[0] == '+' {
			return nil, fmt.Errorf("line %d: %q is not a tree size (decimal, no leading zeros)", i+1, trunc(l))
		}
		if len(out) > 0 && n <= out[len(out)-1] {
			return nil, fmt.Errorf("line %d: size %d after %d: want strictly ascending sizes", i+1, n, out[len(out)-1])
		}
		out = append(out, n)
	}
	return out, nil
}

// witnessVerifiers returns the cosignature/v1 verifiers of trust.Witnesses
// and the quorum.
func (t Trust) witnessVerifiers() ([]note.Verifier, int, error) {
	var vs []note.Verifier
	seen := map[string]bool{}
	for _, k := range t.Witnesses {
		v, err := fnote.NewVerifierForCosignatureV1(k)
		if err != nil {
			return nil, 0, fmt.Errorf("witness key %q: %v (want name+hash+base64 of 0x04 and an Ed25519 public key, C2SP tlog-cosignature)", trunc(k), err)
		}
		id := fmt.Sprintf("%s+%08x", v.Name(), v.KeyHash())
		if seen[id] {
			return nil, 0, fmt.Errorf("witness key %q given twice", trunc(k))
		}
		seen[id] = true
		vs = append(vs, v)
	}
	q := t.Quorum
	if q < 0 || q > len(vs) {
		return nil, 0, fmt.Errorf("witness quorum %d: want 0..%d (the number of witness keys)", q, len(vs))
	}
	if q == 0 && len(vs) > 0 {
		q = 1
	}
	return vs, q, nil
}

// Cosignature is a verified witness cosignature of a checkpoint.
type Cosignature struct {
	Witness string    // the witness's key name
	Time    time.Time // the time the witness signed, whole seconds, UTC
}

// VerifyCosignatures returns the cosignatures of the signed note msg by the
// trusted witnesses, earliest first. A cosignature by a key not among
// witnesses is ignored; one by a trusted key that does not verify is an
// error matching [ErrVerification]. The note's signature by the log is
// not checked here ([ParseCheckpoint] does).
func VerifyCosignatures(msg []byte, witnesses []string) ([]Cosignature, error) {
	vs, _, err := Trust{Witnesses: witnesses}.witnessVerifiers()
	if err != nil {
		return nil, err
	}
	return verifyCosignatures(msg, vs)
}

func verifyCosignatures(msg []byte, vs []note.Verifier) ([]Cosignature, error) {
	if len(vs) == 0 {
		return nil, nil
	}
	n, err := note.Open(msg, note.VerifierList(vs...))
	var unverified *note.UnverifiedNoteError
	if errors.As(err, &unverified) {
		return nil, nil // no trusted witness cosigned
	}
	if err != nil {
		return nil, verifyErr("witness cosignature: %v", err)
	}
	var out []Cosignature
	for _, s := range n.Sigs {
		t, err := fnote.CoSigV1Timestamp(s)
		if err != nil {
			return nil, verifyErr("witness cosignature by %s: %v", s.Name, err)
		}
		out = append(out, Cosignature{Witness: s.Name, Time: t.UTC()})
	}
	slices.SortStableFunc(out, func(a, b Cosignature) int { return a.Time.Compare(b.Time) })
	return out, nil
}

// LoadTimeline reads evidence/ from r, verifies each listed checkpoint (the
// log's signature with pub under latest.Origin, size <= latest.Size,
// consistency with latest from the tiles), its trusted cosignatures
// (PublicBy = the Quorum-th earliest cosignature time) and its token
// (genTime plus accuracy), and returns the timeline (PublicBy = the
// earliest of both). A checkpoint with neither is left out. No
// evidence/index: an empty timeline, no error. Hostile evidence is an
// error matching [ErrVerification] that names the file; a cosignature by a
// key not in trust is ignored.
func LoadTimeline(ctx context.Context, r *Reader, latest *Checkpoint, pub ed25519.PublicKey, trust Trust) (*Timeline, error) {
	vs, quorum, err := trust.witnessVerifiers()
	if err != nil {
		return nil, err
	}
	b, err := r.get(ctx, EvidenceIndexPath, maxEvidenceIndex)
	if errors.Is(err, fs.ErrNotExist) {
		return NewTimeline(nil), nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name(EvidenceIndexPath), err)
	}
	sizes, err := parseEvidenceIndex(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name(EvidenceIndexPath), verifyErr("%v", err))
	}
	var out []TimedCheckpoint
	for _, size := range sizes {
		p := EvidenceCheckpointPath(size)
		name := r.name(p)
		if size > latest.Size {
			return nil, fmt.Errorf("%s: %w", name, verifyErr("a checkpoint of size %d, larger than the log's checkpoint of size %d", size, latest.Size))
		}
		raw, err := r.get(ctx, p, maxCheckpoint)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", name, verifyErr("listed in %s but absent", EvidenceIndexPath))
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		cp, err := ParseCheckpoint(raw, latest.Origin, pub)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if cp.Size != size {
			return nil, fmt.Errorf("%s: %w", name, verifyErr("a checkpoint of size %d under the name of size %d", cp.Size, size))
		}
		if err := consistentWithLatest(ctx, r, cp, latest); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		tc := TimedCheckpoint{Size: cp.Size, Root: cp.Root}
		cos, err := verifyCosignatures(raw, vs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if quorum > 0 && len(cos) >= quorum {
			c := cos[quorum-1]
			tc.PublicBy = c.Time
			if quorum == 1 {
				tc.Evidence = fmt.Sprintf("checkpoint of size %d cosigned by witness %s at %s", size, c.Witness, c.Time.Format(time.RFC3339))
			} else {
				tc.Evidence = fmt.Sprintf("checkpoint of size %d cosigned by %d of %d trusted witnesses by %s (the last of the %d: %s)", size, quorum, len(vs), c.Time.Format(time.RFC3339), quorum, c.Witness)
			}
		}
		if trust.TSARoots != nil {
			tok, err := loadToken(ctx, r, cp, trust.TSARoots)
			if err != nil {
				return nil, err
			}
			if tok != nil && (tc.PublicBy.IsZero() || tok.Bound.Before(tc.PublicBy)) {
				tc.PublicBy = tok.Bound
				tc.Evidence = fmt.Sprintf("checkpoint of size %d timestamped by %s at %s (genTime %s, accuracy %s)", size, tok.Authority, tok.Bound.Format(time.RFC3339), tok.GenTime.Format(time.RFC3339Nano), tok.Accuracy)
			}
		}
		if !tc.PublicBy.IsZero() {
			out = append(out, tc)
		}
	}
	return NewTimeline(out), nil
}

// name returns the file name or URL of a resource, for errors.
func (r *Reader) name(p string) string {
	if r.base == nil {
		return filepath.Join(r.loc, filepath.FromSlash(p))
	}
	return r.base.ResolveReference(&url.URL{Path: p}).String()
}

// consistentWithLatest checks that cp is a prefix of latest with a consistency proof
// built from r's tiles. A proof the tiles cannot give (a truncated or
// missing tile) is a verification failure; a network failure is not.
func consistentWithLatest(ctx context.Context, r *Reader, cp, latest *Checkpoint) error {
	if cp.Size == latest.Size {
		if cp.Root != latest.Root {
			return verifyErr("a checkpoint of size %d with root %x, but the log's checkpoint of that size has root %x: the log forked", cp.Size, cp.Root, latest.Root)
		}
		return nil
	}
	if cp.Size == 0 {
		return nil
	}
	// The proof is built from r's tiles; a tile it needs that is missing,
	// or shorter than the hashes it must hold, is the log failing to prove
	// (a verification failure); a network or server failure is not.
	var tileErr error
	fetch := func(ctx context.Context, level, index uint64, p uint8) ([]byte, error) {
		b, err := r.ReadTile(ctx, level, index, p)
		if err != nil && tileErr == nil {
			tileErr = err
		}
		return b, err
	}
	pb, err := client.NewProofBuilder(ctx, latest.Size, fetch)
	var p [][]byte
	if err == nil {
		p, err = pb.ConsistencyProof(ctx, cp.Size, latest.Size)
	}
	if err != nil {
		if ctx.Err() == nil && (errors.Is(tileErr, fs.ErrNotExist) || errors.Is(tileErr, errTileTruncated)) {
			return verifyErr("no consistency proof from size %d to %d from the log's tiles: %v", cp.Size, latest.Size, tileErr)
		}
		return err
	}
	return VerifyConsistency(cp, latest, p)
}

// CheckWitnessKey returns an error when vkey is not a witness verifier
// key that [LoadTimeline] and [Cosign] accept.
func CheckWitnessKey(vkey string) error {
	_, _, err := Trust{Witnesses: []string{vkey}}.witnessVerifiers()
	return err
}

// Checkpoints returns the timeline's checkpoints by size ascending. Each
// PublicBy is the earliest of its own and those of larger checkpoints
// (an entry public in a larger checkpoint is public in it too), with the
// matching Evidence.
func (t *Timeline) Checkpoints() []TimedCheckpoint {
	if t == nil {
		return nil
	}
	return append([]TimedCheckpoint(nil), t.cps...)
}
