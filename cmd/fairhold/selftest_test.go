package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/replay/hand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSelftestJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates all 7-card hands")
	}
	stdout, stderr, code := runCLI("selftest", "--json", "--workers", "2")
	require.Equal(t, exitOK, code, stderr)
	var rep struct {
		OK        bool `json:"ok"`
		Evaluator struct {
			Hands7      uint64            `json:"hands7"`
			Categories7 map[string]uint64 `json:"categories7"`
			Distinct7   int               `json:"distinct7"`
			Distinct5   int               `json:"distinct5"`
			Hands5      uint64            `json:"hands5"`
			Seconds7    float64           `json:"seconds7"`
			Workers     int               `json:"workers"`
		} `json:"evaluator"`
		Checks []hand.CensusCheck `json:"checks"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
	assert.True(t, rep.OK)
	pub := defaultPublished()
	ev := rep.Evaluator
	assert.Equal(t, pub.Seven.Hands, ev.Hands7)
	assert.Equal(t, pub.Five.Hands, ev.Hands5)
	assert.Equal(t, pub.Seven.Distinct, ev.Distinct7)
	assert.Equal(t, pub.Five.Distinct, ev.Distinct5)
	assert.Equal(t, 2, ev.Workers)
	assert.Greater(t, ev.Seconds7, 0.0)
	require.Len(t, ev.Categories7, hand.NumCategories)
	for _, cat := range hand.Categories() {
		assert.Equal(t, pub.Seven.Categories[cat], ev.Categories7[cat.String()], cat)
	}
	require.Len(t, rep.Checks, 2*(2+2*hand.NumCategories))
	for _, c := range rep.Checks {
		assert.True(t, c.OK, c.Name)
		assert.Equal(t, c.Published, c.Counted, c.Name)
	}
}

func TestSelftestHuman(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates all 7-card hands")
	}
	stdout, stderr, code := runCLI("selftest", "--workers", "2")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "7-card hands                         133,784,560   133,784,560  PASS\n")
	assert.Contains(t, stdout, "5-card distinct values")
	assert.NotContains(t, stdout, "FAIL")
	assert.Contains(t, stdout, "PASS: all 44 checks match\n")
}

// TestSelftestMismatch feeds a wrong expectation and wants exit status 3
// after a report that names the differing check.
func TestSelftestMismatch(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates all 7-card hands")
	}
	for _, asJSON := range []bool{false, true} {
		pub := defaultPublished()
		pub.Seven.Categories[hand.FullHouse]++
		opts := &selftestOptions{published: pub}
		cmd := newSelftestCmdWith(opts)
		cmd.SilenceUsage, cmd.SilenceErrors = true, true // as under the root command
		var stdout, stderr bytes.Buffer
		cmd.SetOut(&stdout)
		cmd.SetErr(&stderr)
		args := []string{"--workers", "1"}
		if asJSON {
			args = append(args, "--json")
		}
		cmd.SetArgs(args)
		err := cmd.Execute()
		assert.ErrorIs(t, err, errVerificationFailed)
		assert.Equal(t, exitVerified, exitCode(err, &stderr))
		if asJSON {
			var rep hand.Selftest
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep))
			assert.False(t, rep.OK)
			var failed []string
			for _, c := range rep.Checks {
				if !c.OK {
					failed = append(failed, c.Name)
				}
			}
			assert.Equal(t, []string{"7-card full-house"}, failed)
		} else {
			assert.Contains(t, stdout.String(), "7-card full-house                      3,473,184     3,473,185  FAIL\n")
			assert.Contains(t, stdout.String(), "FAIL: 1 of 44 checks differ\n")
		}
	}
}

func TestSelftestUsage(t *testing.T) {
	for _, args := range [][]string{
		{"selftest", "--workers", "-1"},
		{"selftest", "--workers", "x"},
		{"selftest", "extra"},
	} {
		stdout, stderr, code := runCLI(args...)
		assert.Equal(t, exitUsage, code, strings.Join(args, " "))
		assert.Empty(t, stdout)
		assert.NotEmpty(t, stderr)
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 133784560: "133,784,560"} {
		assert.Equal(t, want, groupDigits(n))
	}
}
