package gate_test

import (
	"context"
	"errors"
	"flag"
	"os"
	"testing"

	"github.com/cupel-go/go-cupel/examples/gate"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/conformtest"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// update regenerates the expected failures file of Core:
//
//	go test ./examples/gate -run TestCoreConformance -update
var update = flag.Bool("update", false, "rewrite testdata/core-expected-failures.toml from the current run")

const coreExpectedFailures = "testdata/core-expected-failures.toml"

// TestConformance is the gate of a complete implementation: every case of
// the embedded suite runs as a subtest, and the test fails unless the run
// reaches Cupel Fully Conformant.
func TestConformance(t *testing.T) {
	conformtest.Test(t, gate.Full(), runner.Options{RequireLevel: runner.LevelFullyConformant})
}

// TestCoreConformance is the gate of a partial implementation: it must stay
// Cupel Conformant, and the optional cases it cannot run are listed in an
// expected failures file. The file is strict: a listed case that starts
// passing fails the test (remove it from the file then), and so does a case that
// fails in another way than the file says.
func TestCoreConformance(t *testing.T) {
	if *update {
		rep, err := runner.Run(context.Background(), gate.Core(), runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := runner.ExpectedFailuresFromReport(rep, nil).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(coreExpectedFailures, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x, err := runner.ReadExpectedFailures(coreExpectedFailures)
	if err != nil {
		t.Fatal(err)
	}
	rep := conformtest.Test(t, gate.Core(), runner.Options{RequireLevel: runner.LevelConformant, ExpectedFailures: x})
	if rep != nil && rep.Level != runner.LevelConformant {
		t.Errorf("level %s, want exactly conformant (%s)", rep.Level, rep.LevelReason)
	}
}

// TestCoreIsNotFullyConformant shows that the gate bites: the partial
// implementation does not reach Cupel Fully Conformant, so a run that
// requires it exits 1, as `cupel-conform run --require-level
// fully-conformant` would.
func TestCoreIsNotFullyConformant(t *testing.T) {
	rep, err := runner.Run(context.Background(), gate.Core(), runner.Options{RequireLevel: runner.LevelFullyConformant})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Level != runner.LevelConformant {
		t.Errorf("level %s (%s), want conformant", rep.Level, rep.LevelReason)
	}
	if err := rep.Err(); !errors.Is(err, runner.ErrFailed) {
		t.Errorf("Err() = %v, want a runner.ErrFailed", err)
	}
	if n := rep.Counts[casefile.TierOptional][protocol.OutcomeUnsupported]; n == 0 {
		t.Errorf("no optional case is unsupported")
	}
	if n := rep.Counts[casefile.TierRequired][protocol.OutcomeUnsupported]; n != 0 {
		t.Errorf("%d required cases are unsupported", n)
	}
}
