// Package runner is the Cupel conformance runner: it loads a suite of TOML
// vectors into canonical cases, drives an implementation (in-process, over
// the cupel-conform/1 protocol, or offline from a results file), compares
// every output, computes the conformance level and writes reports.
//
// A Go implementation gates itself from go test with one call:
//
//	func TestConformance(t *testing.T) {
//		runner.Test(t, myImpl{}, runner.Options{RequireLevel: runner.LevelConformant})
//	}
package runner
