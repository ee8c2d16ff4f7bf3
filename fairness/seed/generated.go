package seed

// Generated is a fresh server seed and its commitment, or a hash chain
// and its anchor: the JSON of `fairhold seed new --json`
// (docs/report-format.md, "Machine output of the commands"). The secrets
// (ServerSeed, Links) are set only when they are printed; when they go to
// a file, Out names it instead.
type Generated struct {
	// ServerSeed is the new seed, 64 lower-case hex digits; empty for a
	// chain or when written to Out.
	ServerSeed string `json:"server_seed,omitempty"`
	// Commitment is SHA-256 of the seed, or the chain's anchor.
	Commitment string `json:"commitment"`
	// Chain is the number of links after the anchor; 0 for a single seed.
	Chain int `json:"chain,omitempty"`
	// Links are links 1..Chain in round order; empty when written to Out.
	Links []string `json:"links,omitempty"`
	// Out is the file holding the secret (mode 0600), when one was written.
	Out string `json:"out,omitempty"`
}
