package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is the release version; set with -ldflags "-X main.version=...".
// When it is left at its default, the module version recorded in the
// binary's build information is used (`go install ...@v1.2.3` records
// v1.2.3).
var version = "0.1.0-dev"

// versionInfo is the JSON of `fairhold version --json`: what `fairhold
// --version` prints.
type versionInfo struct {
	// Version is the release version (-ldflags -X main.version), else the
	// module version from the build information, else 0.1.0-dev.
	Version string `json:"version"`
	// Go is the Go release that built the binary.
	Go string `json:"go"`
	// Revision is the VCS revision the binary was built from, with
	// "-dirty" when the work tree had changes; empty when the build did not
	// record it (go build -buildvcs=false, or outside a repository).
	Revision string `json:"revision"`
	// Module is the main module's path and ModuleVersion its version as
	// the build information records it ("(devel)" for a build from a work
	// tree).
	Module        string `json:"module"`
	ModuleVersion string `json:"module_version"`
	// Time is the commit time of Revision, RFC 3339; empty when unknown.
	Time string `json:"time,omitempty"`
}

// buildVersion reads the version and revision from the build information.
func buildVersion() versionInfo {
	v := versionInfo{Version: version, Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Module, v.ModuleVersion = bi.Main.Path, bi.Main.Version
	if version == "0.1.0-dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v.Version = bi.Main.Version
	}
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified && v.Revision != "" {
		v.Revision += "-dirty"
	}
	return v
}

// String is the one line `fairhold --version` and `fairhold version` print.
func (v versionInfo) String() string {
	s := fmt.Sprintf("fairhold %s (%s", v.Version, v.Go)
	if v.ModuleVersion != "" && v.ModuleVersion != v.Version {
		s += ", module " + v.ModuleVersion
	}
	if v.Revision != "" {
		s += ", revision " + v.Revision
	} else {
		s += ", revision unknown"
	}
	return s + ")"
}

func newVersionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the fairhold version, the module version and the VCS revision",
		Long: `Print the fairhold version, the Go release, the module version and the VCS
revision the binary was built from (runtime/debug build information), as
'fairhold --version' does.`,
		Example: `  fairhold version
  fairhold version --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := buildVersion()
			if asJSON {
				return writeResult(cmd.OutOrStdout(), verdictOK, v)
			}
			_, err := fmt.Fprintln(cmd.OutOrStdout(), v)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
