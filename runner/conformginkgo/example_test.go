package conformginkgo_test

import (
	. "github.com/onsi/ginkgo/v2"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/conformginkgo"
)

// The gate of a Ginkgo suite: in a _test.go file beside the suite's
// RunSpecs, declare it at the top level (here go-cupel's engine is the
// implementation; examples/ginkgo_gate runs it). This example is compiled,
// not run: Ginkgo builds its tree when the test binary starts.
func ExampleGate() {
	_ = Describe("Cupel conformance", func() {
		conformginkgo.Gate(func() runner.Implementation { return runner.Engine() },
			runner.Options{RequireLevel: runner.LevelFullyConformant})
	})
}
