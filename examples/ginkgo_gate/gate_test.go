package ginkgo_gate

import (
	. "github.com/onsi/ginkgo/v2"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/conformginkgo"
)

// The gate: the READMEs show this declaration (go test ./internal/doccheck
// checks that they still do, verbatim).
var _ = Describe("Cupel conformance", func() {
	conformginkgo.Gate(func() runner.Implementation { return runner.Engine() },
		runner.Options{RequireLevel: runner.LevelFullyConformant})
})
