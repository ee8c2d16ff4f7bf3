package sim

import (
	"slices"
	"strings"

	"github.com/fairhold/fairhold/replay/finding"
)

// Dataset fault names. A dataset fault breaks the dataset as a whole, not a
// round: `fairhold simulate` applies it to the files once the dataset and
// its manifest are written, so that the manifest is honest and the dataset
// is not. The simulator's rounds are not changed.
const (
	FaultPartMissing   = "part-missing"
	FaultPartAltered   = "part-altered"
	FaultPartTruncated = "part-truncated"
	FaultPartExtra     = "part-extra"
)

// DatasetFault is one entry of the catalogue of dataset faults. It applies
// to every game, once (a rate given with it is ignored), and its finding
// names no round: the expected findings are one per file concerned
// (PART_MISSING, PART_ALTERED, PART_EXTRA) or per part (PART_TRUNCATED).
type DatasetFault struct {
	Name        string       `json:"name"`
	Finding     finding.Code `json:"finding"`
	Description string       `json:"description"`
}

var datasetCatalogue = []DatasetFault{
	{FaultPartMissing, finding.PartMissing,
		"After the manifest is written, the dataset's last part is deleted (its rounds file and child files): the dataset ends early, so no round is out of sequence, and only the manifest shows the loss. One finding per file of the part."},
	{FaultPartAltered, finding.PartAltered,
		"After the manifest is written, the first part not otherwise faulted is re-written with the same rounds in row groups of another size: every byte of its files may change while every round reads the same, so only the SHA-256 the manifest lists shows it (an edit of a round's values would also give that round's own findings). One finding per file of the part."},
	{FaultPartTruncated, finding.PartTruncated,
		"After the manifest is written, the last part that is not deleted loses the second half of its rounds (re-written with the first half): the dataset ends early and reads cleanly, but the part's rounds, last round and time range are not the manifest's. One finding for the part (its files' SHA-256 differ too, and are not reported again)."},
	{FaultPartExtra, finding.PartExtra,
		"After the manifest is written, a part the manifest does not list is added: valid rounds of another table and other players (another seed, its ids and wallets prefixed with x-), so that nothing but the manifest shows they were added. One finding per file of the part."},
}

// DatasetFaults returns the catalogue of dataset faults, sorted by name.
func DatasetFaults() []DatasetFault {
	out := slices.Clone(datasetCatalogue)
	slices.SortFunc(out, func(a, b DatasetFault) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// SplitDatasetFaults separates the dataset faults of a fault list (as
// [ParseFaults] returns it) from the faults of the simulator's rounds.
func SplitDatasetFaults(fs []FaultRate) (rounds []FaultRate, dataset []string) {
	for _, f := range fs {
		if slices.ContainsFunc(datasetCatalogue, func(d DatasetFault) bool { return d.Name == f.Name }) {
			if !slices.Contains(dataset, f.Name) {
				dataset = append(dataset, f.Name)
			}
			continue
		}
		rounds = append(rounds, f)
	}
	return rounds, dataset
}
