package sim

import (
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// CatalogueEntry is one fault the simulator can inject, of any kind: an
// element of the JSON of `fairhold simulate --list-faults --json`
// (docs/report-format.md, "Machine output of the commands").
type CatalogueEntry struct {
	// Name is the fault's name, as --faults takes it.
	Name string `json:"name"`
	// Kind is "round" (injected per round), "session" (per seed session or
	// hash chain), "log" (to the commitment log, per session; needs
	// --commitment-log) or "dataset" (once, to the files, after the
	// manifest).
	Kind string `json:"kind"`
	// Games are the games the fault applies to.
	Games []string `json:"games"`
	// Finding is the code a replay reports for the fault.
	Finding finding.Code `json:"finding"`
	// Description says what the fault does to the log.
	Description string `json:"description"`
}

// Catalogue returns every fault: [Faults] (round and session faults),
// [LogFaults], then [DatasetFaults].
func Catalogue() []CatalogueEntry {
	fs := append(Faults(), LogFaults()...)
	out := make([]CatalogueEntry, 0, len(fs)+len(datasetCatalogue))
	for i := range fs {
		f := &fs[i]
		out = append(out, CatalogueEntry{Name: f.Name, Kind: f.Kind(), Games: f.Games, Finding: f.Finding, Description: f.Description})
	}
	for _, f := range DatasetFaults() {
		out = append(out, CatalogueEntry{Name: f.Name, Kind: "dataset", Games: []string{round.CasinoHoldem, round.DoubleHoldem, round.LiveCasinoHoldem},
			Finding: f.Finding, Description: f.Description})
	}
	return out
}

// DatasetInjection is a dataset fault as applied: a line of the
// simulation's faults.jsonl beside the round faults' [Injection] lines. It
// names no round (RoundID is empty) but the file the replay's finding
// names.
type DatasetInjection struct {
	// RoundID is always empty: a dataset fault changes files, not a round.
	RoundID string `json:"round_id"`
	// Fault is the dataset fault's name.
	Fault string `json:"fault"`
	// Code is the finding a replay must report for File.
	Code finding.Code `json:"code"`
	// File is the file the finding names, relative to the dataset's
	// directory, with forward slashes.
	File string `json:"file"`
}
