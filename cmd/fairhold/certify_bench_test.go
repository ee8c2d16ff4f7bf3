package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCertifyMillion certifies a 1,000,000-round Casino Hold'em log
// (Parquet, simulated first, not timed) with the built-in casino-holdem
// suite: the engine's answers to the vectors, the deck battery on
// 1,000,000 decks of the scheme, the log battery, the exact mathematics
// and the claims, the replay and the two return checks; then the report
// is signed and written. Run it once:
//
//	go test ./cmd/fairhold -run '^$' -bench BenchmarkCertifyMillion -benchtime 1x -timeout 30m
//
// FAIRHOLD_BENCH_ROUNDS sets another number of rounds. The exact solution
// is kept for the process's next certification, so only the first
// iteration measures it: use -benchtime 1x.
func BenchmarkCertifyMillion(b *testing.B) {
	rounds := os.Getenv("FAIRHOLD_BENCH_ROUNDS")
	if rounds == "" {
		rounds = "1000000"
	}
	dir := b.TempDir()
	b.Chdir(dir)
	for _, args := range [][]string{
		{"simulate", "--game", "casino-holdem", "--rounds", rounds, "--out", "day"},
		{"vectors", "export", "inputs"},
		{"vectors", "answer", "inputs", "--out", "answers.jsonl"},
		{"keys", "new", "--out", "lab"},
	} {
		if _, stderr, code := runCLI(args...); code != 0 {
			b.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		out := fmt.Sprintf("cert-%d", i)
		_, stderr, code := runCLI("certify", "--suite", "casino-holdem", "--logs", "day", "--answers", "answers.jsonl",
			"--out", out, "--key", "lab.key", "--time", "2026-03-01T12:00:00Z")
		// The built-in profile's AA Bonus claim does not reproduce, and no
		// decks or raw bytes are given: exit 3.
		if code != 3 {
			b.Fatalf("certify: exit %d: %s", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(out, "report.json")); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/certification")
		b.Logf("%s", stderr)
	}
}
