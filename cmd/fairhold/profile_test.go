package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/replay/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rulesRun runs the CLI with args and stdin and returns stdout, stderr and
// the exit code.
func rulesRun(stdin string, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestProfileShowBuiltins(t *testing.T) {
	for _, name := range profile.Names() {
		t.Run(name, func(t *testing.T) {
			p, err := profile.Builtin(name)
			require.NoError(t, err)
			out, stderr, code := rulesRun("", "profile", "show", name)
			require.Equal(t, 0, code, stderr)
			assert.Contains(t, out, "sha256:   "+p.Hash())
			assert.Contains(t, out, "game:     "+p.Game)

			out, stderr, code = rulesRun("", "profile", "show", name, "--json")
			require.Equal(t, 0, code, stderr)
			var got profile.Identified
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			assert.Equal(t, p.Hash(), got.Hash)
			assert.Equal(t, p.Hash(), got.Profile.Hash(), "the JSON holds the whole profile")
		})
	}
	out, _, code := rulesRun("", "profile", "show", "casino-holdem")
	require.Equal(t, 0, code)
	for _, line := range []string{"casino.ante_paytable.royal-flush", "casino.aa_bonus.forfeit_on_fold", "rtp_claims[2].percent", "casino.unfinished_round"} {
		assert.Contains(t, out, line)
	}
}

func TestProfileCheck(t *testing.T) {
	dir := t.TempDir()
	p, err := profile.Builtin("double-holdem")
	require.NoError(t, err)
	good := filepath.Join(dir, "good.json")
	require.NoError(t, os.WriteFile(good, p.Canonical(), 0o644))
	out, stderr, code := rulesRun("", "profile", "check", good)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, fmt.Sprintf("ok double-holdem version %d (double-holdem) sha256 ", p.Version)+p.Hash()+"\n", out)

	for _, c := range []struct{ name, from, to, field string }{
		{"not monotone", `"flush":2`, `"flush":0`, "casino.ante_paytable.flush"},
		{"negative limit", `"ante_min":100`, `"ante_min":-100`, "casino.limits.ante_min"},
		{"qualifier not a hand", `"category":"one-pair","pair":"4"`, `"category":"pair","pair":"4"`, "casino.dealer_qualifier.category"},
		{"unknown field", `"boxes":1`, `"boxes":1,"seats":1`, "casino.seats"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cp, err := profile.Builtin("casino-holdem")
			require.NoError(t, err)
			doc := string(cp.Canonical())
			require.Contains(t, doc, c.from)
			f := filepath.Join(dir, "casino.json")
			require.NoError(t, os.WriteFile(f, []byte(strings.Replace(doc, c.from, c.to, 1)), 0o644))
			out, stderr, code := rulesRun("", "profile", "check", f)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Contains(t, stderr, "profile "+f+": "+c.field+": ")
		})
	}
	_, stderr, code = rulesRun("", "profile", "check", filepath.Join(dir, "missing.json"))
	assert.Equal(t, 1, code, "a missing file is an error of the environment")
	assert.Contains(t, stderr, "missing.json")
}
