package beacon

// Verdict is the outcome of verifying one drand round: the JSON of
// `fairhold beacon verify --json` (docs/report-format.md, "Machine output
// of the commands").
type Verdict struct {
	// Valid is true when the round's BLS signature verifies.
	Valid bool `json:"valid"`
	// Chain is the chain's name: quicknet or default.
	Chain string `json:"chain"`
	// Round is the round number.
	Round uint64 `json:"round"`
	// PublishedAt is when the round was published ([Chain.RoundTime]),
	// RFC 3339 in UTC.
	PublishedAt string `json:"published_at"`
	// Randomness is the round's randomness, SHA-256(signature) in lower-case
	// hex; empty unless Valid.
	Randomness string `json:"randomness,omitempty"`
	// Detail says why the signature does not verify; empty when Valid.
	Detail string `json:"detail,omitempty"`
}
