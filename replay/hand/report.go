package hand

// Evaluation is the best five-card hand out of 5, 6 or 7 cards: the JSON of
// `fairhold eval --json` (docs/report-format.md, "Machine output of the
// commands").
type Evaluation struct {
	// Cards are the cards evaluated, as given.
	Cards []string `json:"cards"`
	// Category is the best hand's category ("Full House").
	Category string `json:"category"`
	// Value is the best hand's [Value]: a higher value beats a lower one.
	Value int `json:"value"`
	// CactusKev is the Cactus Kev rank, 1 (royal flush) to 7462.
	CactusKev int `json:"cactus_kev"`
	// BestFive are the five cards that make the best hand.
	BestFive []string `json:"best_five"`
}

// Selftest is the exhaustive enumeration of every 5- and 7-card hand on
// this machine against the published counts: the JSON of `fairhold selftest
// --json`.
type Selftest struct {
	// OK is true when every check matches.
	OK bool `json:"ok"`
	// Evaluator holds the counted figures.
	Evaluator CensusFigures `json:"evaluator"`
	// Checks are every counted figure beside its published value: for 7
	// cards then 5, the hands, the hands per category, the distinct values
	// per category and the distinct values.
	Checks []CensusCheck `json:"checks"`
}

// CensusFigures are the figures of the 7-card ([Census7Workers]) and
// 5-card ([Census5]) enumerations; maps are keyed by category name.
type CensusFigures struct {
	// Hands7 is the number of 7-card hands enumerated.
	Hands7 uint64 `json:"hands7"`
	// Categories7 is the number of 7-card hands of each category.
	Categories7 map[string]uint64 `json:"categories7"`
	// Classes7 is the number of distinct 7-card values in each category.
	Classes7 map[string]int `json:"classes7"`
	// Distinct7 is the number of distinct 7-card values.
	Distinct7 int `json:"distinct7"`
	// Seconds7 is how long the 7-card enumeration took, wall time.
	Seconds7 float64 `json:"seconds7"`
	// Workers is the number of goroutines of the 7-card enumeration.
	Workers int `json:"workers"`
	// Hands5 is the number of 5-card hands enumerated.
	Hands5 uint64 `json:"hands5"`
	// Categories5 is the number of 5-card hands of each category.
	Categories5 map[string]uint64 `json:"categories5"`
	// Classes5 is the number of distinct 5-card values in each category.
	Classes5 map[string]int `json:"classes5"`
	// Distinct5 is the number of distinct 5-card values.
	Distinct5 int `json:"distinct5"`
}

// CensusCheck is one counted figure beside its published value.
type CensusCheck struct {
	// Name names the figure ("7-card Flush values").
	Name string `json:"name"`
	// Counted is the figure counted on this machine.
	Counted uint64 `json:"counted"`
	// Published is the published figure.
	Published uint64 `json:"published"`
	// OK is true when they are equal.
	OK bool `json:"ok"`
}
