package conformginkgo_test

import (
	. "github.com/onsi/ginkgo/v2"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/conformginkgo"
)

// myImpl stands for a Go implementation of the Cupel specification.
type myImpl struct{ runner.Implementation }

// The gate of a Ginkgo suite: in a _test.go file beside the suite's
// RunSpecs, declare it at the top level (examples/ginkgo_gate runs it with
// go-cupel's engine). This example is compiled, not run: Ginkgo builds its
// tree when the test binary starts.
func ExampleGate() {
	var _ = Describe("Cupel conformance", func() {
		conformginkgo.Gate(func() runner.Implementation { return myImpl{} },
			runner.Options{RequireLevel: runner.LevelConformant})
	})
}
