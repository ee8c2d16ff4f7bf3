package vectors

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
)

// Commitment log vectors (docs/commitment-log.md; format: README.md,
// "Commitment log vectors"): entry encodings with their leaf hashes, and
// small signed trees with inclusion and consistency proofs, and checkpoints
// cosigned by witnesses.

//go:embed commitlog/*.json
var commitlogFS embed.FS

// CommitlogVector is one commitment log vector: Kind "entry", "tree" or
// "cosigned".
type CommitlogVector struct {
	File string `json:"-"`

	ID          string `json:"id"`
	Description string `json:"description"`
	Kind        string `json:"kind"` // "entry", "tree" or "cosigned"

	// Kind "entry": the bytes in hex; Expect "success" with LeafHash, or
	// "malformed" naming Field, the field a decoder must reject.
	Expect   string          `json:"expect,omitempty"`
	EntryHex string          `json:"entry_hex,omitempty"`
	Entry    json.RawMessage `json:"entry,omitempty"` // the JSON form, for success
	LeafHash string          `json:"leaf_hash,omitempty"`
	Field    string          `json:"field,omitempty"`

	// Kind "tree".
	Tree *CommitlogTree `json:"tree,omitempty"`

	// Kind "cosigned", with Expect "success" or "invalid".
	Cosigned *CommitlogCosigned `json:"cosigned,omitempty"`
}

// CommitlogCosigned is a checkpoint with witness cosignatures
// (docs/commitment-log.md section 10): the cosignatures of the trusted
// witnesses a verifier must find, with their times, and the time a quorum
// of them fixes. Expect "invalid": a trusted witness's cosignature does
// not verify, and the whole note must be refused.
type CommitlogCosigned struct {
	Origin     string   `json:"origin"`
	PublicKey  string   `json:"public_key"` // the log's Ed25519 key, hex
	Checkpoint string   `json:"checkpoint"` // the signed note: the log's signature and cosignature lines
	TextSHA256 string   `json:"text_sha256"`
	Witnesses  []string `json:"witnesses"` // trusted witnesses' C2SP verifier keys
	// Valid cosignatures of the trusted witnesses, earliest first
	// (success only); lines by other keys are not listed.
	Cosignatures []struct {
		Witness string `json:"witness"`
		Time    int64  `json:"time"` // seconds since the epoch
	} `json:"cosignatures"`
	// PublicBy per quorum: the quorum-th earliest time (success only).
	PublicBy []struct {
		Quorum int   `json:"quorum"`
		Time   int64 `json:"time"`
	} `json:"public_by"`
}

// CommitlogTree is a small log: its entries, its signed checkpoint, and
// proofs a verifier must accept.
type CommitlogTree struct {
	Origin      string   `json:"origin"`
	PublicKey   string   `json:"public_key"`   // Ed25519, 32 bytes, hex
	VerifierKey string   `json:"verifier_key"` // C2SP signed-note verifier key
	EntriesHex  []string `json:"entries_hex"`
	LeafHashes  []string `json:"leaf_hashes"`
	Size        uint64   `json:"size"`
	Root        string   `json:"root"`
	Checkpoint  string   `json:"checkpoint"` // the signed note
	Inclusion   []struct {
		Index uint64   `json:"index"`
		Proof []string `json:"proof"`
	} `json:"inclusion"`
	Consistency []struct {
		OldSize       uint64   `json:"old_size"`
		OldRoot       string   `json:"old_root"`
		OldCheckpoint string   `json:"old_checkpoint"`
		Proof         []string `json:"proof"`
	} `json:"consistency"`
}

// ParseCommitlogVector parses one vector strictly.
func ParseCommitlogVector(b []byte) (*CommitlogVector, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var v CommitlogVector
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the vector")
	}
	if v.ID == "" || v.Description == "" {
		return nil, fmt.Errorf("id and description are required")
	}
	switch v.Kind {
	case "entry":
		if v.EntryHex == "" || v.Tree != nil || v.Cosigned != nil {
			return nil, fmt.Errorf("%s: an entry vector has entry_hex and no tree", v.ID)
		}
		if (v.Expect == "success") == (v.LeafHash == "") || (v.Expect == "malformed") == (v.Field == "") {
			return nil, fmt.Errorf("%s: want expect success with leaf_hash, or malformed with field", v.ID)
		}
	case "tree":
		if v.Tree == nil || v.EntryHex != "" || v.Cosigned != nil {
			return nil, fmt.Errorf("%s: a tree vector has a tree and no entry_hex", v.ID)
		}
	case "cosigned":
		if v.Cosigned == nil || v.EntryHex != "" || v.Tree != nil {
			return nil, fmt.Errorf("%s: a cosigned vector has cosigned and no entry_hex or tree", v.ID)
		}
		if v.Expect != "success" && v.Expect != "invalid" {
			return nil, fmt.Errorf("%s: want expect success or invalid", v.ID)
		}
	default:
		return nil, fmt.Errorf("%s: kind %q, want entry, tree or cosigned", v.ID, v.Kind)
	}
	return &v, nil
}

// Commitlog loads every commitment log vector, sorted by file name.
func Commitlog() ([]*CommitlogVector, error) {
	names, err := fs.Glob(commitlogFS, "commitlog/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []*CommitlogVector
	for _, n := range names {
		b, err := commitlogFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		v, err := ParseCommitlogVector(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		v.File = path.Base(n)
		if v.File != v.ID+".json" {
			return nil, fmt.Errorf("%s: id %q does not match the file name", n, v.ID)
		}
		out = append(out, v)
	}
	return out, nil
}
