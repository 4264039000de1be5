package conformtest_test

import (
	"os"
	"testing"

	"github.com/cupel-go/go-cupel/internal/enginebaseline"
	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/conformtest"
)

func fixtures(t *testing.T) runner.Options {
	return runner.Options{Suite: os.DirFS("../testdata/suite"), SuiteName: "fixtures"}
}

// TestGate shows the go test gate: one call, one subtest per case.
func TestGate(t *testing.T) {
	opts := fixtures(t)
	s, err := casefile.LoadSuite(opts.Suite)
	if err != nil {
		t.Fatal(err)
	}
	opts.RequireLevel = runner.LevelFullyConformant
	rep := conformtest.Test(t, oracleimpl.New(s), opts)
	if rep.Level != runner.LevelFullyConformant && !rep.Filtered {
		t.Fatalf("level %s", rep.Level)
	}
}

// TestEngineConformance gates go-cupel itself: the embedded suite, in
// process, must reach Cupel Fully Conformant (on a 64-bit platform).
func TestEngineConformance(t *testing.T) {
	// On a 32-bit platform the cases that need 64-bit integers are pinned
	// as unsupported (one is required, so no level is claimed there), and
	// every other case must pass.
	rep := conformtest.Test(t, runner.Engine(), runner.Options{RequireLevel: enginebaseline.EngineLevel(), ExpectedFailures: enginebaseline.EngineExpectedFailures()})
	if rep != nil && !rep.Filtered && rep.Level != enginebaseline.EngineLevel() {
		t.Errorf("level %s, want exactly %s", rep.Level, enginebaseline.EngineLevel())
	}
}
