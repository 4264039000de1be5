// Package gatesuite is the Ginkgo suite the tests of package conformginkgo
// run as a child: the gate over the test implementation $TESTIMPL and the
// suite in $TESTIMPL_SUITE, with the target $REQUIRE_LEVEL.
package gatesuite

import (
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/testimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/conformginkgo"
	"github.com/cupel-go/go-cupel/runner/vector"
)

func TestGate(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "conformginkgo gate")
}

var _ = Describe("Cupel conformance", func() {
	fsys := os.DirFS(os.Getenv("TESTIMPL_SUITE"))
	suite, err := vector.LoadSuite(fsys)
	if err != nil {
		panic(err)
	}
	conformginkgo.Gate(func() runner.Implementation { return testimpl.New(os.Getenv("TESTIMPL"), suite) },
		runner.Options{Suite: fsys, RequireLevel: runner.Level(os.Getenv("REQUIRE_LEVEL"))})
})
