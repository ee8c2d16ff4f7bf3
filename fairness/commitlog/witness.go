package commitlog

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	fnote "github.com/transparency-dev/formats/note"
)

// maxWitnessResponse limits a witness's answer (signature lines or a size).
const maxWitnessResponse = 64 << 10

// WitnessError is a witness's refusal of an add-checkpoint request.
type WitnessError struct {
	URL    string
	Status int    // the HTTP status
	Body   string // the witness's words, truncated
}

func (e *WitnessError) Error() string {
	why := ""
	switch e.Status {
	case http.StatusForbidden:
		why = ": the witness does not know this log's origin or key (its operator adds them), or the log's signature does not verify"
	case http.StatusBadRequest:
		why = ": a malformed request"
	case http.StatusUnprocessableEntity:
		why = ": the witness refused the consistency proof: the tree it saw is not a prefix of this one"
	}
	return fmt.Sprintf("witness %s: HTTP status %d%s: %q", e.URL, e.Status, why, e.Body)
}

// Cosign asks the witness at witnessURL (C2SP tlog-witness: POST
// <witnessURL>/add-checkpoint) to cosign the checkpoint cp of the log r
// reads, and returns cp's signed note with the cosignature lines the
// witness returned, after verifying that one of them is a valid
// cosignature/v1 by witnessKey (the witness's C2SP verifier key).
//
// The request first claims old size 0; a witness that has seen the log
// answers 409 with the size it knows, and the request is sent again with
// that size and the consistency proof from it to cp, built from r's
// tiles. A witness that knows a larger tree, or refuses the proof (422),
// is an error matching [ErrVerification]: the log forked or shrank in the
// witness's view.
func Cosign(ctx context.Context, c *http.Client, witnessURL, witnessKey string, r *Reader, cp *Checkpoint) ([]byte, *Cosignature, error) {
	v, err := fnote.NewVerifierForCosignatureV1(witnessKey)
	if err != nil {
		return nil, nil, fmt.Errorf("witness key %q: %v (want name+hash+base64 of 0x04 and an Ed25519 public key)", trunc(witnessKey), err)
	}
	if c == nil {
		c = &http.Client{Timeout: 30 * time.Second}
	}
	u := strings.TrimSuffix(witnessURL, "/") + "/add-checkpoint"
	old := uint64(0)
	for try := 0; try < 3; try++ {
		var proof [][]byte
		if old > 0 && old < cp.Size {
			if proof, err = r.ConsistencyProof(ctx, old, cp); err != nil {
				return nil, nil, fmt.Errorf("consistency proof from size %d to %d for witness %s: %w", old, cp.Size, u, err)
			}
		}
		var body bytes.Buffer
		fmt.Fprintf(&body, "old %d\n", old)
		for _, h := range proof {
			body.WriteString(base64.StdEncoding.EncodeToString(h) + "\n")
		}
		body.WriteString("\n")
		body.Write(cp.Raw)
		status, resp, err := post(ctx, c, u, body.Bytes())
		if err != nil {
			return nil, nil, err
		}
		switch status {
		case http.StatusOK:
			return cosigned(cp, resp, v.Name(), witnessKey, u)
		case http.StatusConflict:
			s := strings.TrimSuffix(string(resp), "\n")
			known, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("witness %s: a conflict (409) without a tree size: %q", u, trunc(string(resp)))
			}
			if known > cp.Size {
				return nil, nil, verifyErr("witness %s has seen a tree of size %d, larger than this checkpoint's %d: cosign a newer checkpoint, or the log shrank", u, known, cp.Size)
			}
			if known == old {
				return nil, nil, fmt.Errorf("witness %s: a conflict (409) at the size %d sent", u, known)
			}
			old = known
		case http.StatusUnprocessableEntity:
			return nil, nil, fmt.Errorf("%w: %w", ErrVerification, &WitnessError{URL: u, Status: status, Body: trunc(string(resp))})
		default:
			return nil, nil, &WitnessError{URL: u, Status: status, Body: trunc(string(resp))}
		}
	}
	return nil, nil, fmt.Errorf("witness %s: its tree size kept changing; try again", u)
}

func post(ctx context.Context, c *http.Client, u string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return 0, nil, fmt.Errorf("witness %s: %w", u, err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("witness %s: %w", u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxWitnessResponse+1))
	if err != nil {
		return 0, nil, fmt.Errorf("witness %s: %w", u, err)
	}
	if len(b) > maxWitnessResponse {
		return 0, nil, fmt.Errorf("witness %s: an answer of more than %d bytes", u, maxWitnessResponse)
	}
	return resp.StatusCode, b, nil
}

// cosigned appends the witness's signature lines to cp's note and checks
// that the witness's cosignature is among them and verifies.
func cosigned(cp *Checkpoint, lines []byte, name, witnessKey, u string) ([]byte, *Cosignature, error) {
	if len(lines) == 0 || lines[len(lines)-1] != '\n' {
		return nil, nil, fmt.Errorf("witness %s: the answer is not signature lines ending in LF: %q", u, trunc(string(lines)))
	}
	for _, l := range strings.SplitAfter(string(lines), "\n") {
		if l != "" && !strings.HasPrefix(l, "— ") {
			return nil, nil, fmt.Errorf("witness %s: the answer's line %q is not a signature line", u, trunc(l))
		}
	}
	note := append(append([]byte(nil), cp.Raw...), lines...)
	cos, err := VerifyCosignatures(note, []string{witnessKey})
	if err != nil {
		return nil, nil, fmt.Errorf("witness %s: %w", u, err)
	}
	if len(cos) == 0 {
		return nil, nil, verifyErr("witness %s answered without a cosignature by %s (is --witness-key this witness's key?)", u, name)
	}
	return note, &cos[0], nil
}
