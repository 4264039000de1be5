package ginkgo_gate

import (
	. "github.com/onsi/ginkgo/v2"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/conformginkgo"
)

// The gate: the README shows this declaration (readme_test.go checks that
// it still does, verbatim).
var _ = Describe("Cupel conformance", func() {
	conformginkgo.Gate(func() runner.Implementation { return runner.Engine() },
		runner.Options{RequireLevel: runner.LevelFullyConformant})
})
