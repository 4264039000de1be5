package runner_test

import (
	"testing"

	"github.com/cupel-go/go-cupel/internal/oracle"
	"github.com/cupel-go/go-cupel/runner"
)

// TestGate shows the go test gate: one call, one subtest per case.
func TestGate(t *testing.T) {
	s, err := runner.OpenSuite(fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	rep := runner.Test(t, oracle.New(s), runner.Options{Suite: fixtureOptions().Suite, RequireLevel: runner.LevelFullyConformant})
	if rep.Level != runner.LevelFullyConformant {
		t.Fatalf("level %s", rep.Level)
	}
}

// TestEngineConformance gates go-cupel itself: the embedded suite, in
// process, must reach Cupel Fully Conformant.
func TestEngineConformance(t *testing.T) {
	runner.Test(t, runner.Engine(), runner.Options{RequireLevel: runner.LevelFullyConformant})
}
