package protocol

import "runtime/debug"

// Version is the runner's version, recorded in every report: the version of
// the go-cupel module it was built from, or "devel".
var Version = moduleVersion()

const modulePath = "github.com/cupel-go/go-cupel"

func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path == modulePath && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			return bi.Main.Version
		}
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				return d.Version
			}
		}
	}
	return "devel"
}

// Name is the runner's name in reports and hello messages.
const Name = "cupel-conform"

// RunnerIdentity identifies the runner (in hello and in reports).
type RunnerIdentity struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}
