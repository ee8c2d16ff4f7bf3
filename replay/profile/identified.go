package profile

// Identified is a profile beside its identity: the JSON of `fairhold
// profile show --json` (docs/report-format.md, "Machine output of the
// commands").
type Identified struct {
	// Name, Version and Game are the profile's.
	Name    string `json:"name"`
	Version int    `json:"version"`
	Game    string `json:"game"`
	// Hash is the SHA-256 of the profile's canonical form ([Profile.Hash]).
	Hash string `json:"hash"`
	// Profile is every setting.
	Profile *Profile `json:"profile"`
}

// Identify returns p with its identity.
func Identify(p *Profile) Identified {
	return Identified{Name: p.Name, Version: p.Version, Game: p.Game, Hash: p.Hash(), Profile: p}
}
