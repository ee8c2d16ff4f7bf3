package main

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	fnote "github.com/transparency-dev/formats/note"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/commitments"
	"github.com/fairhold/fairhold/replay/manifest"
)

// commitLogFlags are replay's flags of the commitment log (docs/replay.md,
// "Commitment log").
type commitLogFlags struct {
	log, key, origin, operator string
	witnesses                  []string
	quorum                     int
	tsaCerts                   []string
	kept                       []string
}

func addCommitLogFlags(cmd *cobra.Command, o *commitLogFlags) {
	f := cmd.Flags()
	f.StringVar(&o.log, "commitment-log", "", "check every seed session against the operator's commitment log at `LOG` (a directory or http(s) base URL; docs/commitment-log.md)")
	f.StringVar(&o.key, "log-key", "", "the commitment log's Ed25519 public key `PUB.pem` (PEM PKIX); required with --commitment-log")
	f.StringVar(&o.origin, "log-origin", "", "the commitment log's `ORIGIN` (default: the checkpoint's first line, still verified with --log-key)")
	f.StringVar(&o.operator, "log-operator", "", "require every entry a session uses to name operator `ID`")
	f.StringArrayVar(&o.witnesses, "witness-key", nil, "trust the witness of C2SP verifier key `VKEY` (name+hash+base64, or a file holding it) for when checkpoints were public (repeatable)")
	f.IntVar(&o.quorum, "witness-quorum", 0, "cosignatures of trusted witnesses a checkpoint needs to count (default 1)")
	f.StringArrayVar(&o.tsaCerts, "tsa-cert", nil, "trust the RFC 3161 time-stamping authorities of root certificates in `PEM` for when checkpoints were public (repeatable)")
	f.StringArrayVar(&o.kept, "log-checkpoint", nil, "a checkpoint of the log kept earlier, `FILE`: the log must be consistent with it (repeatable)")
}

// given reports whether any flag of the commitment log was set.
func (o *commitLogFlags) given() bool {
	return o.log != "" || o.key != "" || o.origin != "" || o.operator != "" || len(o.witnesses) > 0 || o.quorum != 0 || len(o.tsaCerts) > 0 || len(o.kept) > 0
}

// load checks the flags and reads the log (nil without --commitment-log).
// A flag that is wrong is a usage error; a log that cannot be read, an
// error; a log that does not verify is read, its findings to come.
func (o *commitLogFlags) load(ctx context.Context) (*commitments.Log, error) {
	if o.log == "" {
		if o.given() {
			return nil, usageErrorf("--log-key, --log-origin, --log-operator, --witness-key, --witness-quorum, --tsa-cert and --log-checkpoint need --commitment-log LOG")
		}
		return nil, nil
	}
	if o.key == "" {
		return nil, usageErrorf("--commitment-log %s: give the log's public key, --log-key PUB.pem", o.log)
	}
	key, err := manifest.LoadPublicKey(o.key)
	if err != nil {
		return nil, usageError(fmt.Errorf("--log-key: %w", err))
	}
	if o.quorum < 0 || (o.quorum > 0 && o.quorum > len(o.witnesses)) {
		return nil, usageErrorf("--witness-quorum %d: want 1..%d (the --witness-key given)", o.quorum, len(o.witnesses))
	}
	opts := commitments.Options{Location: o.log, Origin: o.origin, Key: key, Operator: o.operator,
		Trust: commitlog.Trust{Quorum: o.quorum}}
	for _, w := range o.witnesses {
		v := w
		if b, err := os.ReadFile(w); err == nil {
			v = strings.TrimSpace(string(b))
		}
		if _, err := fnote.NewVerifierForCosignatureV1(v); err != nil {
			return nil, usageErrorf("--witness-key %s: %v; want a C2SP verifier key, name+hash+base64 (or a file holding one)", w, err)
		}
		opts.Trust.Witnesses = append(opts.Trust.Witnesses, v)
	}
	if len(o.tsaCerts) > 0 {
		pool := x509.NewCertPool()
		for _, p := range o.tsaCerts {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, usageError(fmt.Errorf("--tsa-cert: %w", err))
			}
			n := 0
			for {
				var blk *pem.Block
				blk, b = pem.Decode(b)
				if blk == nil {
					break
				}
				c, err := x509.ParseCertificate(blk.Bytes)
				if err != nil {
					return nil, usageErrorf("--tsa-cert %s: %v", p, err)
				}
				pool.AddCert(c)
				n++
			}
			if n == 0 {
				return nil, usageErrorf("--tsa-cert %s: no PEM certificate", p)
			}
		}
		opts.Trust.TSARoots = pool
	}
	for _, p := range o.kept {
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, usageError(fmt.Errorf("--log-checkpoint: %w", err))
		}
		opts.Old = append(opts.Old, commitments.OldCheckpoint{Name: p, Raw: raw})
	}
	quietTessera()
	lg, err := commitments.Load(ctx, opts)
	if err != nil {
		if errors.Is(err, commitments.ErrUsage) {
			return nil, usageError(err)
		}
		return nil, err
	}
	return lg, nil
}
